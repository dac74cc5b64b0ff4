"""The child side of ``course/student.py``: the student's file, loaded behind a wall, answering calls.

    python -I -B course/student_child.py REQUESTS_FD REPLIES_FD LIFELINE_FD

The parent (the completion test) sends one JSON line of set-up, then one JSON
line per call; this process answers each with one JSON line. Only JSON crosses
the pipe, in both directions: nothing here is unpickled, and what the parent
receives is data it checks itself, so a student's file that forges an answer has
only given an answer. The judging happens in the parent.

The wall is an audit hook (``sys.addaudithook``). It holds against the shortcut
an honest student may take, not against a file built to defeat it: while the
student's file runs in this process,

* importing a blocked module (the reference the exercise re-implements) raises
  ``Unavailable``, an ImportError that says so; a blocked module the check lets
  a few names out of is a stand-in holding fresh copies of those functions only,
  compiled from their source, so nothing in it leads back to the rest;
* opening a blocked module's source or bytecode (its ``__pycache__`` files), or
  a path the check names as unreadable (the worked answer, a committed
  artifact), or listing such a folder, raises ``Unavailable`` too (the
  student's own file excepted: it is loaded from wherever it is);
* writing or changing a file outside this process's own temporary folder
  (the check's results file among them), starting a process or sending a
  signal raises PermissionError.

Code that rebinds the hook, loads C code or talks to the kernel directly can
get past it: that is out of the check's scope (a teacher, not a proctor), and
grading untrusted files needs a container per file. Whatever the file does,
this process dies with the check: the kernel kills it when its parent ends
(``PR_SET_PDEATHSIG``, on Linux), and a thread here ends it when the lifeline
pipe, whose other end only the parent holds, closes (everywhere).

A call's arguments may stand for functions of the check (``course.student.Callback``):
each becomes a function here that writes its arguments to the check as one JSON
line and reads back what the check's function returned, or the exception it
raised, rebuilt here by class name. The function itself runs in the check's
process, so the student's file reaches only what it does.

This file imports only the standard library, and nothing from the course.
"""

from __future__ import annotations

import builtins
import importlib.machinery
import importlib.util
import json
import os
import resource
import signal
import sys
import threading
import traceback
import types

MEMORY_LIMIT = 2 * 1024**3  # bytes of address space: a runaway list stops here, not in the machine's swap
STARTS_A_PROCESS = {"os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty",
                    "subprocess.Popen", "os.startfile", "pty.spawn"}
SENDS_A_SIGNAL = {"os.kill", "os.killpg", "signal.pthread_kill"}
# Events that change a file, and how many of their first arguments are paths (a link's target among them).
CHANGES_FILES = {"os.remove": 1, "os.rmdir": 1, "os.truncate": 1, "os.chmod": 1, "os.utime": 1, "os.mkdir": 1,
                 "os.rename": 2, "os.link": 2, "os.symlink": 2, "shutil.copyfile": 2, "shutil.copytree": 2,
                 "shutil.move": 2, "shutil.rmtree": 1}
# Events that list a folder's names: judged as reading it.
LISTS_A_FOLDER = {"os.listdir", "os.scandir"}
WRITING = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


class Unavailable(ImportError):
    """The check made this module or file unavailable to the student's file while it runs."""


class Wall:
    """What the student's file may not reach, decided on each audited event."""

    def __init__(self, setup: dict) -> None:
        self.blocked = tuple(setup["blocked"])
        self.let_out = {name: tuple(functions) for name, functions in setup["let_out"].items()}
        self.unreadable = {os.path.realpath(path): tuple(said) for path, said in setup["unreadable"].items()}
        self.why = setup["why"]
        self.private = os.path.realpath(setup["private"])
        self.target = os.path.realpath(setup["path"])  # the file being checked, always readable to itself

    def message(self, what: str, why: str = "") -> str:
        """What the student reads: which module or file is unavailable, and why."""
        names = self.let_out.get(what, ())
        also = f" (only {', '.join(names)} may be imported from it)" if names else ""
        return f"{what} is unavailable while the check runs: {why or self.why}{also}"

    def blocks_import(self, name: str) -> bool:
        return any(name == b or name.startswith(b + ".") for b in self.blocked)

    def unreadable_path(self, path) -> tuple[str, str] | None:
        """The name to give ``path`` and why, if the student's file may not open it."""
        if isinstance(path, int):
            return None
        real = os.path.realpath(os.fsdecode(path))
        if real == self.target or _is_bytecode_of(real, self.target):
            return None
        for place, said in self.unreadable.items():
            if real == place or real.startswith(place + os.sep) or _is_bytecode_of(real, place):
                return said
        return None

    def private_path(self, path) -> bool:
        if not isinstance(path, (str, bytes, os.PathLike)):  # a file descriptor may name any file
            return False
        real = os.path.realpath(os.fsdecode(path))
        return real == self.private or real.startswith(self.private + os.sep)

    def audit(self, event: str, args: tuple) -> None:
        if event == "import" and self.blocks_import(args[0]):
            raise Unavailable(self.message(args[0]), name=args[0])
        if event == "open" or event in LISTS_A_FOLDER:
            place = self.unreadable_path(args[0] if args and args[0] is not None else ".")
            if place:
                raise Unavailable(self.message(*place))
            # A file descriptor (os.fdopen) was opened by a call this hook already saw.
            writes = event == "open" and not isinstance(args[0], int) and isinstance(args[2], int) and args[2] & WRITING
            if writes and not self.private_path(args[0]):
                raise PermissionError(f"the check's process writes no file outside its own temporary folder "
                                      f"(asked to write {args[0]!r})")
        elif event in STARTS_A_PROCESS:
            raise PermissionError("the check's process starts no other process")
        elif event in SENDS_A_SIGNAL:
            raise PermissionError("the check's process sends no signal")
        elif event in CHANGES_FILES and not all(self.private_path(a) for a in args[:CHANGES_FILES[event]]):
            raise PermissionError("the check's process changes no file outside its own temporary folder")


def _is_bytecode_of(real: str, place: str) -> bool:
    """``real`` is a cached ``.pyc`` of the module source ``place`` (in its ``__pycache__``)."""
    folder, name = os.path.split(place)
    stem = name[:-3] if name.endswith(".py") else ""
    head, cached = os.path.split(real)
    return bool(stem) and head == os.path.join(folder, "__pycache__") and cached.startswith(stem + ".")


def stand_in(name: str, source: str, wall: Wall) -> types.ModuleType:
    """A module under the reference's name holding only the functions ``source`` defines."""
    module = types.ModuleType(name, f"A stand-in for {name} while the check runs.")
    exec(compile(source, f"<{name}, as the check lets it out>", "exec"), module.__dict__)

    def __getattr__(attribute: str):
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        raise Unavailable(wall.message(name), name=name)

    module.__getattr__ = __getattr__
    return module


def described(exc: BaseException, path: str) -> dict:
    """Where in the student's file ``exc`` happened, as data the parent turns into one line."""
    real = os.path.realpath(path)
    frames = traceback.extract_tb(exc.__traceback__)
    mine = [frame for frame in frames if os.path.realpath(frame.filename) == real]
    line, message = (mine[-1].lineno if mine else None), str(exc)
    raised_here = bool(frames) and os.path.realpath(frames[-1].filename) == real
    if isinstance(exc, SyntaxError) and exc.filename and os.path.realpath(exc.filename) == real:
        line, message, raised_here = exc.lineno, exc.msg, True
    return {"type": type(exc).__name__, "message": " ".join(str(message).split())[:500], "line": line,
            "walled": _walled(exc), "raised_here": raised_here,
            "builtin": getattr(builtins, type(exc).__name__, None) is type(exc)}  # ValueError itself, not a namesake


def _walled(exc: BaseException) -> str:
    """The wall's message if ``exc`` is, or was caused by, the wall's refusal."""
    seen = 0
    while exc is not None and seen < 20:
        if isinstance(exc, Unavailable):
            return " ".join(str(exc).split())[:500]
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return ""


CALLBACK = "__check_function__"  # an argument that stands for one of the check's functions (course.student.Callback)
BYTES = "__bytes_hex__"  # bytes, as the channel carries them (course.student.on_the_wire)


def from_the_wire(value: object) -> object:
    """An argument as the student's function takes it: each ``{BYTES: hex}`` as bytes again."""
    if isinstance(value, dict):
        if list(value) == [BYTES] and isinstance(value[BYTES], str):
            return bytes.fromhex(value[BYTES])
        return {key: from_the_wire(item) for key, item in value.items()}
    if isinstance(value, list):
        return [from_the_wire(item) for item in value]
    return value


def to_the_wire(value: object) -> object:
    """A result as the channel carries it: exact bytes as ``{BYTES: hex}`` (a subclass of bytes is not bytes)."""
    if type(value) is bytes:
        return {BYTES: value.hex()}
    if type(value) in (list, tuple):
        return [to_the_wire(item) for item in value]
    if type(value) is dict:
        return {key: to_the_wire(item) for key, item in value.items()}
    return value


class Written(str):
    """A value already written as JSON text, as the channel carries it (``written``): sent as it stands."""


def written(value: object) -> Written:
    """``value`` as the channel carries it (``to_the_wire``), written as JSON text; TypeError, ValueError or
    RecursionError when it is not JSON data."""
    try:  # a value json writes without help holds no bytes, and to_the_wire would leave its text as it is
        return Written(json.dumps(value, allow_nan=False))
    except TypeError:
        return Written(json.dumps(to_the_wire(value), allow_nan=False))


def line_of(message: dict) -> str:
    """``message`` as one JSON line's text, each ``Written`` member as it was written."""
    return "{" + ", ".join(f"{json.dumps(key)}: {item if isinstance(item, Written) else json.dumps(item)}"
                           for key, item in message.items()) + "}"


def may_hold_bytes(line: bytes) -> bool:
    """Whether the JSON line ``line`` may hold a ``{BYTES: hex}`` object. json.dumps writes that ASCII name as it
    is, never escaped, so a line it wrote without the name holds none, and ``from_the_wire`` of what it decodes to is
    that value itself."""
    return BYTES.encode() in line


def check_function(number: int, call: int, send, requests) -> types.FunctionType:
    """A stand-in for the check's function ``number``: it sends its arguments to the check and waits for the answer.

    The function runs in the check's process; what comes back is its result,
    or the exception it raised, rebuilt here by class name.
    """
    def function(*args):
        try:
            line = json.dumps({"id": call, "callback": number, "args": list(args)}, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"the check's functions take data (dicts, lists, strings, numbers, True, False and "
                            f"None): {exc}") from None
        send(line)
        reply = json.loads(requests.readline() or "{}")
        if "raised" in reply:
            raise rebuilt(reply["raised"])
        if "returned" not in reply:
            raise SystemExit("the check's channel closed")
        return reply["returned"]

    return function


def rebuilt(raised: dict) -> Exception:
    """The exception the check's function raised, as an instance of the class of that name here.

    A builtin class is itself (TimeoutError); a class a blocked module lets
    out is the stand-in's (core.run.execute's NotSent); any other is a new
    Exception subclass of the same name and module.
    """
    module, name, message = str(raised.get("module")), str(raised.get("type")), str(raised.get("message"))
    try:
        found = getattr(builtins if module == "builtins" else sys.modules.get(module), name, None)
    except Exception:  # noqa: BLE001  a stand-in module refuses a name it does not let out
        found = None
    # A builtin BaseException is itself too (KeyboardInterrupt: the check relays it), any other only an Exception.
    if not (isinstance(found, type) and issubclass(found, BaseException if module == "builtins" else Exception)):
        found = type(name.rpartition(".")[2] or "Error", (Exception,), {"__module__": module})
    return found(message)


def answer(module, request: dict, path: str, as_data: dict, send=None, requests=None, plain: bool = False) -> dict:
    """The reply to one call; ``plain`` says its arguments hold no bytes (``may_hold_bytes``), so none is read back."""
    function = getattr(module, request["call"], None)
    if not callable(function):
        return {"not_callable": type(function).__name__}
    args = [check_function(arg[CALLBACK], request["id"], send, requests)
            if isinstance(arg, dict) and list(arg) == [CALLBACK] and type(arg[CALLBACK]) is int
            else arg if plain else from_the_wire(arg)
            for arg in request["args"]]
    try:
        value = function(*args)
        if request["call"] in as_data:  # an object crosses as its data: a Policy as its snapshot()
            kind, reader = as_data[request["call"]]
            if kind is not None and type(value) is not kind:
                return {"not_the_class": [type(value).__name__, kind.__name__]}
            if kind is None:
                reader = getattr(value, reader, None)
                if not callable(reader):
                    return {"no_reader": [type(value).__name__, as_data[request["call"]][1]]}
                value = reader()
            else:
                value = reader(value)
    except BaseException as exc:  # noqa: BLE001  the student's code may raise anything, SystemExit included
        return {"raised": described(exc, path)}
    try:
        reply = {"value": written(value)}
        if request.get("echo"):  # each argument as the function left it (a callback stays out)
            reply["arguments"] = written([None if callable(arg) else arg for arg in args])
        return reply
    except (TypeError, ValueError, RecursionError):
        return {"unreadable": type(value).__name__}


def die_with_parent(lifeline: int) -> None:
    """End this process when the check's ends, whatever the student's file does (``os.setsid()`` included)."""
    parent = os.getppid()
    try:  # PR_SET_PDEATHSIG, on Linux: the kernel's word, held even in C code that keeps the lock
        import ctypes
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)
    except (ImportError, AttributeError, OSError):  # elsewhere the lifeline below is the whole of it
        pass
    threading.Thread(target=watch, args=(lifeline,), daemon=True).start()
    if os.getppid() != parent:  # the parent ended before the kernel was asked
        os._exit(1)


def watch(lifeline: int) -> None:
    """Wait until the lifeline closes (the parent never writes to it: it closes when the parent ends), then end."""
    while os.read(lifeline, 1):
        pass
    os._exit(1)


def readers(as_data: dict) -> dict:
    """Each ``as_data`` entry as (class, reader). "module:Class.method" names the class the result must be
    exactly, and its method is taken now, before the student's file loads and could patch it; a bare method
    name reads whatever the result is (class None)."""
    found = {}
    for call, spec in as_data.items():
        if ":" not in spec:
            found[call] = (None, spec)
            continue
        module_name, _, rest = spec.partition(":")
        class_name, _, method = rest.rpartition(".")
        kind = getattr(importlib.import_module(module_name), class_name)
        found[call] = (kind, kind.__dict__[method])
    return found


def main() -> None:
    requests, replies = os.fdopen(int(sys.argv[1]), "rb"), int(sys.argv[2])
    die_with_parent(int(sys.argv[3]))

    def send(message: dict | str) -> None:
        line = message if isinstance(message, str) else line_of(message)
        data = (line + "\n").encode()
        while data:
            data = data[os.write(replies, data):]

    setup = json.loads(requests.readline())
    os.environ["TMPDIR"] = setup["private"]
    sys.path.insert(0, setup["root"])
    os.chdir(setup["root"])
    wall = Wall(setup)
    for name, source in setup["sources"].items():
        package, _, last = name.rpartition(".")
        parent = importlib.import_module(package) if package else None
        sys.modules[name] = stand_in(name, source, wall)
        if parent is not None:
            setattr(parent, last, sys.modules[name])
    leaked = [name for name in sys.modules if wall.blocks_import(name) and name not in setup["sources"]]
    if leaked:  # a package that imports its own blocked module cannot be walled off this way
        raise SystemExit(f"the check cannot make {leaked[0]} unavailable: loading its package loads it")
    as_data = readers(setup.get("as_data", {}))
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    sys.addaudithook(wall.audit)

    path = setup["path"]
    try:
        loader = importlib.machinery.SourceFileLoader(setup["module"], path)  # Python source, whatever its name
        spec = importlib.util.spec_from_file_location(setup["module"], path, loader=loader)
        module = importlib.util.module_from_spec(spec)
        sys.modules[setup["module"]] = module
        # Compiled from the source as it is now: a cached .pyc of an earlier save of the same size, made
        # in the same second, would pass for it.
        exec(spec.loader.source_to_code(spec.loader.get_data(path), path), module.__dict__)
    except BaseException as exc:  # noqa: BLE001  a file that does not import, or exits while importing
        send({"load": described(exc, path)})
        return
    send({"loaded": [name for name in setup["names"] if not hasattr(module, name)]})
    for line in requests:
        request = json.loads(line)
        send({"id": request["id"], **answer(module, request, path, as_data, send, requests, not may_hold_bytes(line))})


if __name__ == "__main__":
    main()
