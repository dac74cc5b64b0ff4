"""The student's file, as a completion test holds it: load it, check its names, call it, one line when it breaks.

Every ``starter/lessonNN_test.py`` reaches the student's code through one object:

    from course.student import Student

    yours = Student(4, names=("read_has_meta", "has_meta_observation"),
                    blocked=("core.run.observe",), unreadable=("data",),
                    let_out={"core.run.observe": ("split_response",)})

    def test_the_about_page_has_meta():
        found = yours.call("read_has_meta", capture_text)
        assert found is True, f"read_has_meta returned {found!r} for the about page, ..."

``Student(N, ...)`` holds the file ``COURSE_TARGET`` selects for lesson N
(``course/target.py``: the student's starter by default). It is loaded once, on
the first call, and shared by every test in the file.

The file runs in a Python process of its own (the child), started once per
test file; ``call`` sends the arguments there and returns the function's
result. Both travel as JSON data, nothing else (so tuples come back as lists,
and an object that is not JSON data is an answer the check cannot read); bytes
cross as bytes (``on_the_wire``), and a call may name an exception the function
raises as its answer (``allowed``). The check's own objects (its door, its
expected answers, pytest) live in this process, and the judging happens here,
on data the check can check itself: nothing the file does through ordinary
Python (patching a test, writing the results file, an ``atexit`` hook,
printing) changes the verdict.

While the child runs, each module in ``blocked`` (the reference the exercise
re-implements) is unavailable to the student's file: importing it, or opening
its source or bytecode, raises an ImportError saying so, and so does opening
the worked answers or a path in ``unreadable`` (a committed artifact).
``let_out`` lets named, self-contained helpers of a blocked module through as
fresh copies. The child writes no file outside its own temporary folder
(``workspace`` hands a check a folder there), starts no process and sends no
signal, and dies with the check (``course/student_child.py`` holds the wall).
The wall is a teacher's, not a proctor's: a file built to defeat it by
introspection is out of its scope. A call that runs longer than ``timeout``
seconds is stopped. A function whose contract is to return an object (lesson
2's ``Policy``) crosses as that object's data: ``as_data={"build_my_policy":
"snapshot"}`` has the child call the result's ``snapshot()`` and send what it
returns; ``"core.run.policy:Policy.snapshot"`` also requires the result to be
exactly a ``Policy``, read by the method as it was before the file loaded.

A student's file that breaks gets one line, never a traceback:

======================  ===============================================================
the file does not load  ``starter/lesson04.py, line 3: SyntaxError: invalid syntax``
it lacks a name         ``starter/lesson04.py, line 12: AttributeError: the file defines
                        'read_has_mta', not 'read_has_meta'``
not written yet         ``read_has_meta is not written yet: TODO 1 in starter/lesson04.py``
it raised               ``read_has_meta raised: starter/lesson04.py, line 40: KeyError: 'x'``
it reached the wall     ``read_has_meta reached past the exercise: core.run.observe is
                        unavailable while the check runs: ...``
======================  ===============================================================

and a call that does not return in time, one that ends the
process, and an answer that is not JSON data each get their own line too. The
first two rows, and a file that stops reading the check's channel, are about
the whole file: every check fails with the same line,
and ``course check`` prints that line alone (this module tells it through the
file ``$COURSE_PROBLEM_FILE`` names).

A check whose exercise acts on live things (a door, an adapter) keeps them here
and hands the child a ``Callback``: ``yours.call("write_ahead", act,
Callback(record), Callback(fetch))``. In the child each is a plain function
that sends its arguments back here as JSON, where the check's own function
runs, and returns its result (JSON) or raises the exception it raised,
rebuilt in the child by its class name (a builtin one, or a class a blocked
module lets out). The student's code reaches only what those functions do,
in the order it calls them, and the check sees every call as it happens.

``yours.shown`` is the file as the student names it, and
``yours.fail(message)`` fails the check without a traceback. A check's fresh
cases (rule 17) come from ``seed()``: a new seed each run, or ``COURSE_SEED`` to
make the same cases again (the child never sees it); a failure message prints it.
"""

from __future__ import annotations

import ast
import builtins
import difflib
import functools
import json
import os
import re
import secrets
import select
import stat
import subprocess
import symtable
import sys
import tempfile
import time
import weakref
from dataclasses import dataclass
from collections.abc import Callable
from pathlib import Path

import pytest

from course.manifest import course_root
from course.check_plugin import RESULTS_ENV
from course.target import EARLY_ENV, ENV, PROBLEM_ENV, TargetError, target_path

SEED_ENV = "COURSE_SEED"
CHILD = Path(__file__).with_name("student_child.py")
UNREADABLE_WHY = "it is the check's own data, not an input of your functions"
LONGEST_ANSWER = 8 * 1024 * 1024  # bytes of one JSON reply the check reads before it gives up
CALLBACK = "__check_function__"  # an argument the child turns into a stand-in for a Callback
BYTES = "__bytes_hex__"  # bytes cross the channel as {BYTES: their hex}, both ways


@functools.cache
def seed() -> int:
    """The seed of this run's fresh cases: ``$COURSE_SEED`` if set (to make a failing case again), else a new one."""
    chosen = os.environ.get(SEED_ENV, "")
    if chosen:
        if not chosen.isdigit():
            raise ValueError(f"{SEED_ENV} must be a whole number, not {chosen!r}")
        return int(chosen)
    return secrets.randbelow(2**48)  # too many to try one by one from inside the student's code


TRACE_ENV = "COURSE_TRACE"  # a file each question a check's edge class asks is noted in (course/differ.py)


def asked(student: Student, edge: str, name: str, *args, allowed: type[Exception] | None = None,
          echo: bool = False):
    """``student.call(name, *args)``, a question of the edge class ``edge``; noted in the trace once it is answered.

    The trace, when ``$COURSE_TRACE`` names a file, gets one JSON line per
    answered question: the lesson, the function and the class. A test reads it
    to show that every class a check lists reached the student's file.
    """
    answer = student.call(name, *args, allowed=allowed, echo=echo)
    where = os.environ.get(TRACE_ENV)
    if where:
        with open(where, "a", encoding="utf-8") as trace:
            trace.write(json.dumps({"lesson": student.number, "function": name, "edge": edge}) + "\n")
    return answer


@dataclass(frozen=True)
class Kept:
    """A call's result, and each argument as the function left it (``Student.call(..., echo=True)``)."""

    value: object
    arguments: list


@dataclass(frozen=True)
class Raised:
    """The exception a call was allowed to raise as its answer (``Student.call(..., allowed=...)``): its class
    name and message, never the object."""

    type: str
    message: str


def on_the_wire(value: object) -> object:
    """``value`` as the channel carries it: bytes as ``{BYTES: hex}``, in lists and dicts too."""
    if type(value) is bytes:
        return {BYTES: value.hex()}
    if isinstance(value, (list, tuple)):
        return [on_the_wire(item) for item in value]
    if isinstance(value, dict):
        return {key: on_the_wire(item) for key, item in value.items()}
    return value


def _wire_default(value: object) -> object:
    """``json.dumps``'s hook for what JSON has no form of: exact bytes as ``{BYTES: hex}`` (``on_the_wire``)."""
    if type(value) is bytes:
        return {BYTES: value.hex()}
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def may_hold_bytes(line: bytes) -> bool:
    """Whether the JSON line ``line`` may hold a ``{BYTES: hex}`` object. json.dumps writes that ASCII name as it
    is, never escaped, so a line it wrote without the name holds none, and ``off_the_wire`` of what it decodes to is
    that value itself."""
    return BYTES.encode() in line


def off_the_wire(value: object) -> object:
    """What the child sent, with each ``{BYTES: hex}`` read back as bytes."""
    if isinstance(value, dict):
        if list(value) == [BYTES] and isinstance(value[BYTES], str):
            try:
                return bytes.fromhex(value[BYTES])
            except ValueError:
                return value
        return {key: off_the_wire(item) for key, item in value.items()}
    if isinstance(value, list):
        return [off_the_wire(item) for item in value]
    return value


class Callback:
    """A function of the check the student's code may call from its own process, with data only.

    The child gets a stand-in that sends the arguments here; ``function``
    runs in the check's process, and the child gets back what it returned or
    the exception it raised (its module, class name and message). Only JSON
    data crosses, so nothing the student's code holds leads back to the
    check's objects.
    """

    def __init__(self, function: Callable) -> None:
        self.function = function

    def answer(self, arguments: list) -> dict:
        """The reply the child gets for one call: what ``function`` returned, or what it raised."""
        try:
            return {"returned": self.function(*arguments)}
        except Relayed as relayed:  # a KeyboardInterrupt for the child, never raised in the check's process
            return _raised(relayed.exception)
        except Exception as exc:  # the check's own function raising is its answer (an adapter's error, say)
            return _raised(exc)


def _raised(exc: BaseException) -> dict:
    kind = type(exc)
    return {"raised": {"module": kind.__module__, "type": kind.__qualname__, "message": str(exc)}}


class Relayed(Exception):
    """Raised by a check's function so that the student's code gets ``exception`` from its call.

    For a builtin BaseException that is no Exception (KeyboardInterrupt,
    SystemExit): raised as itself in the check's process it would stop the
    check, where a Ctrl-C must keep doing so.
    """

    def __init__(self, exception: BaseException) -> None:
        super().__init__(repr(exception))
        self.exception = exception


class Student:
    """The student's file of lesson ``number``; see the module docstring."""

    def __init__(self, number: int, names: tuple[str, ...] = (), *, blocked: tuple[str, ...] = (),
                 let_out: dict[str, tuple[str, ...]] | None = None, unreadable: tuple[str, ...] = (),
                 as_data: dict[str, str] | None = None, why: str = "", timeout: float = 10.0) -> None:
        self.number, self.names, self.timeout = number, tuple(names), timeout
        self.blocked, self.let_out, self.unreadable = tuple(blocked), dict(let_out or {}), tuple(unreadable)
        self.as_data = dict(as_data or {})
        self.why = why or f"it is the reference of what lesson {number} asks you to write yourself"
        self._problem = ""  # the one line about the whole file, once known
        self._child: _Child | None = None
        self._early: _Child | None = None
        if os.environ.get(EARLY_ENV) == "1":
            self._early = self._launch_quietly()

    # --- the file, as the student names it ----------------------------------------------

    @functools.cached_property
    def path(self) -> Path:
        return target_path(self.number)

    @functools.cached_property
    def shown(self) -> str:
        """The checked file as the student names it: the starter's path, even for its committed copy."""
        if os.environ.get(ENV) == "pristine":
            return f"starter/lesson{self.number:02d}.py"
        try:
            return self.path.resolve().relative_to(course_root().resolve()).as_posix()
        except ValueError:
            return str(self.path)

    # --- what a check calls ----------------------------------------------------------------

    def call(self, name: str, *args, allowed: type[Exception] | None = None, echo: bool = False):
        """``name(*args)`` in the student's file; its result, or a one-line failure naming what went wrong.

        ``allowed`` is an exception the function may raise as its answer (a
        refusal, say): it comes back as ``Raised``, not as a failure. Bytes
        cross the channel both ways (``on_the_wire``). With ``echo`` the answer
        is ``Kept``: the result, and each argument as the function left it, so
        a check can tell a function that changed what it was handed.
        """
        return self._call_child(name, args, allowed, echo)

    def workspace(self, name: str) -> Path:
        """A fresh folder ``name`` that the student's code may write in: inside the child's own temporary folder.

        The child writes no file anywhere else, so an exercise that writes
        files (a pack ratified in a copy, say) is handed a folder from here;
        the check reads back what was written, in its own process.
        """
        if self._problem:
            self.fail(self._problem)
        if self._child is None or not self._child.alive():
            self._child = self._start()
        folder = Path(self._child.private.name) / name
        folder.mkdir(parents=True, exist_ok=False)
        return folder

    def plain_files_in(self, folder: Path, by: str) -> None:
        """Fail unless ``folder`` (a workspace ``by`` wrote in) holds only plain files and folders.

        The check reads back what was written, in its own process: a FIFO
        would make that read wait for ever, and a link would send it elsewhere.
        """
        for path in sorted(folder.rglob("*")):
            kind = path.lstat().st_mode
            if not (stat.S_ISREG(kind) or stat.S_ISDIR(kind)):
                self.fail(f"{by} left {path.relative_to(folder).as_posix()} in the folder, which is not a plain "
                          "file or folder (a link, FIFO, socket or device): write plain files only")

    def raised(self, name: str, info: dict) -> str:
        """The one line for a call of ``name`` that raised (``info`` as ``student_child.described`` gives it)."""
        if info["walled"]:
            return f"{name} reached past the exercise: {info['walled']}"
        if info["type"] == "NotImplementedError" and info["raised_here"]:
            todo = re.search(r"\bTODO \d+", info["message"])
            if todo:
                return f"{name} is not written yet: {todo.group(0)} in {self.shown}"
            at = f", line {info['line']}" if info["line"] else ""
            return f"{name} is not written yet: {self.shown}{at} raises NotImplementedError"
        return f"{name} raised: {self._located(info)}"

    @staticmethod
    def fail(message: str):
        """Fail the current check with ``message`` and no traceback."""
        pytest.fail(message, pytrace=False)

    # --- loading ----------------------------------------------------------------------------

    def _located(self, info: dict) -> str:
        at = f", line {info['line']}" if info["line"] else ""
        what = f"{info['type']}: {info['message']}" if info["message"] else info["type"]
        return f"{self.shown}{at}: {what}"

    def _file_problem(self, line: str):
        """Fail with the one line about the whole file, and tell `course check` it is about the whole file."""
        self._problem = line
        where = os.environ.get(PROBLEM_ENV)
        if where:
            Path(where).write_text(line + "\n", encoding="utf-8")
        self.fail(line)

    def _missing(self, name: str) -> str:
        """``file: AttributeError: the file defines no 'x'``, naming a near spelling and its line if there is one."""
        try:
            tree = ast.parse(self.path.read_text(encoding="utf-8"))
        except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
            tree = ast.Module(body=[], type_ignores=[])
        defined: dict[str, int] = {}
        for node in tree.body:
            targets = [node] if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else \
                getattr(node, "targets", [getattr(node, "target", None)])
            for target in targets:
                named = getattr(target, "name", None) or getattr(target, "id", None)
                if named:
                    defined.setdefault(named, node.lineno)
        close = difflib.get_close_matches(name, list(defined), n=1, cutoff=0.6)
        if close:
            return f"{self.shown}, line {defined[close[0]]}: AttributeError: the file defines {close[0]!r}, not {name!r}"
        return f"{self.shown}: AttributeError: the file defines no {name!r}"

    def _not_callable(self, name: str, kind: str) -> str:
        return f"{self.shown} defines {name} as {'an' if kind[0] in 'aeiou' else 'a'} {kind}, not a function"

    # --- the child process --------------------------------------------------------------------

    def _always_unreadable(self, root: Path) -> dict[str, list[str]]:
        """What no student file may open, in any lesson: git's objects (every committed file, the reference
        among them) and the worked answers (the file being checked is always readable to itself)."""
        return {str(root / ".git"): [".git", "git's objects hold every committed file, the reference among them"],
                str(root / "solutions"): ["solutions", "it holds the worked answers, to read after your attempt"]}

    def _call_child(self, name: str, args: tuple, allowed: type[Exception] | None = None, echo: bool = False):
        if self._problem:
            self.fail(self._problem)
        if self._child is None or not self._child.alive():
            self._child = self._start()
        callbacks = [arg for arg in args if isinstance(arg, Callback)]
        # Each argument crosses as on_the_wire has it, written by json.dumps in one pass (``_wire_default``).
        sent = [{CALLBACK: callbacks.index(arg)} if isinstance(arg, Callback) else arg for arg in args]
        answer = self._child.ask(name, tuple(sent), self.timeout, callbacks, echo)
        if answer.get("whole_file"):  # every later call would wait as long again: the file's one line
            self._file_problem(answer["failure"])
        if "failure" in answer:
            self.fail(answer["failure"])
        if "raised" in answer:
            info = answer["raised"]
            if allowed is not None and info.get("type") == allowed.__name__ and info.get("builtin") \
                    and not info.get("walled"):
                return Raised(allowed.__name__, str(info.get("message", "")))
            self.fail(self.raised(name, info))
        if "not_callable" in answer:
            self.fail(self._not_callable(name, str(answer["not_callable"])))
        if "unreadable" in answer:
            self.fail(f"{name} returned {_a(str(answer['unreadable']))}, which is not JSON data: the check reads "
                      "dicts, lists, strings, numbers, True, False and None")
        if "not_the_class" in answer:
            kind, wanted = answer["not_the_class"]
            self.fail(f"{name} returned {_a(str(kind))}, not {_a(wanted)}: it must return the object its docstring "
                      "names")
        if "no_reader" in answer:
            kind, method = answer["no_reader"]
            self.fail(f"{name} returned {_a(str(kind))}, which has no {method}() to read it by: it must return "
                      f"the object its docstring names")
        read = off_the_wire if self._child.bytes_came else _as_sent
        if echo:
            return Kept(read(answer["value"]), read(answer.get("arguments", [])))
        return read(answer["value"])

    def _launch_quietly(self) -> _Child | None:
        """The child, started and sent its setup now, or None: any trouble is left for ``_start`` to say.

        Under `course check` (EARLY_ENV) a check always calls the file, and its
        environment is fixed, so the child loads the file while pytest is still
        collecting the checks; the first call then finds it ready.
        """
        try:
            return self._launch() if self.path.is_file() else None
        except Exception:  # noqa: BLE001  a target that cannot be read: _start fails with its own line
            return None

    def _start(self) -> _Child:
        try:
            self.path
        except TargetError as exc:
            self._file_problem(str(exc))
        if not self.path.is_file():
            self._file_problem(f"{ENV} selects {self.path}, which is not a Python file")
        child, self._early = self._early or self._launch(), None
        loaded = child.loaded(self.timeout)
        if "failure" in loaded:
            self._file_problem(loaded["failure"])
        if "load" in loaded:
            self._file_problem(self._located(loaded["load"]))
        missing = [name for name in loaded.get("loaded", []) if name in self.names]
        if missing:
            self._file_problem(self._missing(missing[0]))
        return child

    def _launch(self) -> _Child:
        """A child process for the file, sent its setup; it loads the file while this process goes on."""
        root = course_root().resolve()
        child = _Child(self.shown, root)
        setup = {"root": str(root), "path": str(self.path), "module": f"course_target_lesson{self.number:02d}",
                 "names": list(self.names), "blocked": list(self.blocked), "why": self.why,
                 "let_out": {module: list(names) for module, names in self.let_out.items()},
                 "sources": {module: let_out_source(root, module, names) for module, names in self.let_out.items()},
                 "unreadable": {**{str(_module_path(root, module)): [module, self.why] for module in self.blocked},
                                **{str(root / path): [path, UNREADABLE_WHY] for path in self.unreadable},
                                **self._always_unreadable(root)},
                 "as_data": self.as_data,
                 "private": child.private.name}
        child.send_setup(setup, self.timeout)
        return child


def _as_sent(value: object) -> object:
    return value


class _Child:
    """One child process running the student's file, and the JSON lines to and from it."""

    def __init__(self, shown: str, root: Path) -> None:
        self.shown, self.calls, self.buffer = shown, 0, b""
        self.bytes_came = True  # whether the last line read may hold bytes (may_hold_bytes)
        self.private = tempfile.TemporaryDirectory(prefix="course-check-")
        requests_in, self.requests = os.pipe()
        lifeline, self.lifeline = os.pipe()  # only this process holds its writing end: it closes when this one ends
        os.set_blocking(self.requests, False)  # a child that stops reading must not stop the check (_write_all)
        self.replies, replies_out = os.pipe()
        self.output = tempfile.TemporaryFile()  # what the student's file prints: kept out of the check's way
        # Neither the file course check reads nor the seed of the check's fresh cases is the child's to see.
        environment = {key: value for key, value in os.environ.items() if key not in (PROBLEM_ENV, SEED_ENV, RESULTS_ENV)}
        self.process = subprocess.Popen([sys.executable, "-I", "-B", "-u", str(CHILD), str(requests_in), str(replies_out),
                                         str(lifeline)], pass_fds=(requests_in, replies_out, lifeline),
                                        stdin=subprocess.DEVNULL, stdout=self.output, stderr=subprocess.STDOUT, cwd=root,
                                        env=environment)
        for end in (requests_in, replies_out, lifeline):
            os.close(end)
        weakref.finalize(self, _stop, self.process, self.requests, self.replies, self.lifeline, self.output,
                         self.private)

    def alive(self) -> bool:
        return self.process.poll() is None

    def send_setup(self, setup: dict, timeout: float) -> None:
        if not self._send(setup, timeout):
            _stop(self.process)  # loaded() then says the file ended the check's process while loading

    def loaded(self, timeout: float) -> dict:
        """What the child said once it loaded the file (its setup was sent by send_setup)."""
        return self._receive(timeout, lambda: f"{self.shown} did not finish loading within {timeout:g} s "
                                              "(is there an endless loop at the top of the file?)",
                             lambda code: f"{self.shown} ended the check's process while loading (exit code {code})")

    def ask(self, name: str, args: tuple, timeout: float, callbacks: list[Callback] = (), echo: bool = False) -> dict:
        self.calls += 1
        if not self._send({"id": self.calls, "call": name, "args": list(args), **({"echo": True} if echo else {})},
                          timeout, wire=True):
            _stop(self.process)
            return {"failure": f"{self.shown} stopped reading the check's channel, so the check stopped it: "
                               f"{name} was not handed its arguments within {timeout:g} s", "whole_file": True}
        deadline = time.monotonic() + timeout
        while True:
            answer = self._receive(deadline - time.monotonic(),
                                   lambda: f"{name} did not return within {timeout:g} s, so the check "
                                           "stopped it (an endless loop?)",
                                   lambda code: f"{name} ended the check's process (exit code {code}) instead of "
                                                "returning")
            if "failure" in answer or "callback" not in answer or answer.get("id") != self.calls:
                break
            number, arguments = answer["callback"], answer.get("args")
            if not (type(number) is int and 0 <= number < len(callbacks) and isinstance(arguments, list)):
                _stop(self.process)
                return {"failure": f"{name} wrote into the check's channel instead of calling the check's "
                                   "functions: the check reads only their arguments and what the function returns"}
            if not self._send(callbacks[number].answer(arguments), timeout):  # the check's function runs here
                _stop(self.process)
                return {"failure": f"{name} stopped reading the check's channel while the check answered its call, "
                                   "so the check stopped it"}
        if "failure" not in answer and answer.get("id") != self.calls:
            _stop(self.process)
            return {"failure": f"{name} wrote into the check's channel instead of returning: the check reads only "
                               "what the function returns"}
        return answer

    def _send(self, message: dict, timeout: float, wire: bool = False) -> bool:
        """Write one message within ``timeout`` seconds; False if the child would not take it in that time.

        With ``wire`` its bytes are written as ``on_the_wire`` has them.
        """
        data = (json.dumps(message, allow_nan=False, default=_wire_default if wire else None) + "\n").encode()
        try:
            return _write_all(self.requests, data, time.monotonic() + timeout)
        except BrokenPipeError:
            return True  # the child is gone; _receive says how it ended

    def _receive(self, timeout: float, late, ended) -> dict:
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            ready = select.select([self.replies], [], [], max(left, 0))[0] if left > 0 else []
            if not ready:
                _stop(self.process)
                return {"failure": late()}
            chunk = os.read(self.replies, 65536)
            if not chunk:
                try:
                    code = self.process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    _stop(self.process)
                    code = "none: it closed its channel"
                return {"failure": ended(code) + self._last_words()}
            self.buffer += chunk
            if len(self.buffer) > LONGEST_ANSWER:
                _stop(self.process)
                return {"failure": f"the answer from {self.shown} is longer than {LONGEST_ANSWER} bytes"}
        line, _, self.buffer = self.buffer.partition(b"\n")
        self.bytes_came = may_hold_bytes(line)
        try:
            answer = json.loads(line)
        except (ValueError, RecursionError):
            answer = None
        if not isinstance(answer, dict) or "failure" in answer:  # only this side says a call failed
            _stop(self.process)
            return {"failure": f"{self.shown} wrote into the check's channel something that is not its answer"}
        return answer


    def _last_words(self) -> str:
        """The last line the child printed before it ended (often the reason), or ""."""
        self.output.seek(0, os.SEEK_END)
        self.output.seek(max(0, self.output.tell() - 4096))
        lines = [line.strip() for line in self.output.read().decode(errors="replace").splitlines() if line.strip()]
        return f"; its last words: {lines[-1][:200]}" if lines else ""


def _write_all(fd: int, data: bytes, deadline: float) -> bool:
    """Write all of ``data`` to the non-blocking ``fd`` before ``deadline``; False when the reader stops reading."""
    view = memoryview(data)
    while view:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([], [fd], [], left)[1]:
            return False
        try:
            view = view[os.write(fd, view):]
        except BlockingIOError:
            continue
    return True


def _stop(process: subprocess.Popen, *resources) -> None:
    if process.poll() is None:
        process.kill()
        process.wait()
    for resource in resources:
        try:
            resource.cleanup() if hasattr(resource, "cleanup") else \
                resource.close() if hasattr(resource, "close") else os.close(resource)
        except OSError:
            pass


def _a(kind: str) -> str:
    return f"{'an' if kind[:1] in ('a', 'e', 'i', 'o', 'u') else 'a'} {kind}"


def _module_path(root: Path, module: str) -> Path:
    """The file (or package folder) that holds ``module`` under ``root``."""
    base = root.joinpath(*module.split("."))
    return base if base.is_dir() else base.with_suffix(".py")


def let_out_source(root: Path, module: str, names: tuple[str, ...]) -> str:
    """The source of the named top-level functions (and classes) of ``module``, checked to need nothing else from it.

    A helper let out of a blocked module is compiled afresh from this text in
    the child, so it carries no reference back to the rest of the module; a
    function that uses another of the module's names cannot be let out alone.
    A class is let out the same way (an exception class the exercise raises
    or catches, say): its bases and body may use builtins only.
    """
    path = _module_path(root, module)
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    found = {node.name: "\n".join(lines[min([node.lineno, *(d.lineno for d in node.decorator_list)]) - 1:
                                         node.end_lineno])  # a decorator is part of what it decorates
             for node in ast.parse(text).body
             if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in names}
    absent = [name for name in names if name not in found]
    if absent:
        raise ValueError(f"{module} defines no function {', '.join(absent)} to let out")
    future = "from __future__ import annotations\n\n"
    for name in names:
        table = symtable.symtable(future + found[name] + "\n", str(path), "exec")
        needs = {s.get_name() for s in table.get_symbols()  # a class's bases and decorators are read up here
                 if s.is_referenced() and not s.is_assigned() and not s.is_imported()}
        for child in table.get_children():
            needs |= _globals_used(child)
        needs -= set(dir(builtins)) | set(names)
        if needs:
            raise ValueError(f"{module}.{name} uses {', '.join(sorted(needs))} from its module, "
                             "so it cannot be let out alone")
    return future + "\n\n".join(found[name] for name in names) + "\n"


def _globals_used(table: symtable.SymbolTable) -> set[str]:
    used = {s.get_name() for s in table.get_symbols() if s.is_global() and s.is_referenced()}
    for child in table.get_children():
        used |= _globals_used(child)
    return used
