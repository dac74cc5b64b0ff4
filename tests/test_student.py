"""course/student.py: a student's file is loaded, called and described in one line, and cannot reach the judge.

Each test writes a small student file, selects it with COURSE_TARGET, and calls
it the way a completion test does. The second half is the cheats: a student's
file that tries to reach the reference, the check or the machine from its child
process, and the one line each one gets.
"""

from __future__ import annotations

import importlib.util
import py_compile

import textwrap
from pathlib import Path

import pytest

from course.student import Callback, Raised, Relayed, Student, let_out_source, seed

REPO = Path(__file__).resolve().parent.parent
OBSERVE = REPO / "core" / "run" / "observe.py"


@pytest.fixture
def write(tmp_path, monkeypatch):
    """Write a student's lesson 4 file and return a Student holding it (in a child unless told otherwise)."""
    monkeypatch.delenv("COURSE_PROBLEM_FILE", raising=False)

    def make(source: str, **options) -> Student:
        path = tmp_path / "lesson04.py"
        path.write_text(textwrap.dedent(source), encoding="utf-8")
        monkeypatch.setenv("COURSE_TARGET", str(path))
        options.setdefault("names", ("answer",))
        return Student(4, **options)

    return make


def failure(call) -> str:
    """The one line a check fails with when ``call`` goes wrong."""
    with pytest.raises(pytest.fail.Exception) as caught:
        call()
    message = str(caught.value)
    assert "\n" not in message and "Traceback" not in message, message
    return message


WALLED = {"blocked": ("core.run.observe",), "let_out": {"core.run.observe": ("split_response",)}}


# --- loading, calling, one line ---------------------------------------------------------------


def test_a_call_returns_the_functions_result_as_data(write):
    yours = write("def answer(x, y):\n    return {'sum': x + y, 'pair': (x, y)}\n")
    assert yours.call("answer", 1, 2) == {"sum": 3, "pair": [1, 2]}
    assert yours.call("answer", "a", "b")["sum"] == "ab"


@pytest.mark.parametrize("source, says", [
    ("def answer(:\n    pass\n", "{path}, line 1: SyntaxError: "),
    ("import json\nraise KeyError('boom')\n", "{path}, line 2: KeyError: 'boom'"),
    ("print('hello')\nraise SystemExit(3)\n", "{path}, line 2: SystemExit: 3"),
    ("def answr():\n    return 1\n", "{path}, line 1: AttributeError: the file defines 'answr', not 'answer'"),
    ("def other():\n    return 1\n", "{path}: AttributeError: the file defines no 'answer'"),
])
def test_a_file_that_cannot_be_used_gets_one_line_naming_it_and_tells_course_check(
        write, tmp_path, monkeypatch, source, says):
    problem = tmp_path / "problem.txt"
    monkeypatch.setenv("COURSE_PROBLEM_FILE", str(problem))
    yours = write(source)
    line = failure(lambda: yours.call("answer"))
    assert line.startswith(says.format(path=tmp_path / "lesson04.py")), line
    assert problem.read_text(encoding="utf-8") == line + "\n"
    assert failure(lambda: yours.call("answer")) == line  # every later check says the same line


@pytest.mark.parametrize("body, says", [
    ("raise NotImplementedError('TODO 3: write it')", "answer is not written yet: TODO 3 in {path}"),
    ("raise NotImplementedError", "answer is not written yet: {path}, line 2 raises NotImplementedError"),
    ("return {}['x']", "answer raised: {path}, line 2: KeyError: 'x'"),
    ("raise SystemExit(0)", "answer raised: {path}, line 2: SystemExit: 0"),
])
def test_a_call_that_raises_gets_one_line(write, tmp_path, body, says):
    yours = write(f"def answer():\n    {body}\n")
    assert failure(lambda: yours.call("answer")) == says.format(path=tmp_path / "lesson04.py")


def test_a_not_implemented_error_from_elsewhere_is_not_called_unwritten(write):
    yours = write("import fractions\ndef answer():\n    return int.__rtruediv__\n"
                  "def deeper():\n    import json\n    json.JSONEncoder().default(object())\n", names=("deeper",))
    assert "raised:" in failure(lambda: yours.call("deeper"))


def test_the_pristine_starter_is_named_as_the_student_names_it(monkeypatch):
    monkeypatch.setenv("COURSE_TARGET", "pristine")
    yours = Student(4, names=("read_has_meta",), **WALLED)
    assert yours.shown == "starter/lesson04.py"
    assert failure(lambda: yours.call("read_has_meta", "x")) == (
        "read_has_meta is not written yet: TODO 1 in starter/lesson04.py")


def test_an_answer_that_is_not_json_data_is_named(write):
    yours = write("def answer():\n    return {1, 2}\n")
    assert failure(lambda: yours.call("answer")) == (
        "answer returned a set, which is not JSON data: the check reads dicts, lists, strings, numbers, True, "
        "False and None")


def test_an_object_crosses_as_the_data_its_reader_gives(write):
    yours = write("""
        class Made:
            def snapshot(self):
                return {"kept": [1, 2]}
        def answer():
            return Made()
        def plain():
            return {"kept": []}
    """, names=("answer", "plain"), as_data={"answer": "snapshot", "plain": "snapshot"})
    assert yours.call("answer") == {"kept": [1, 2]}
    assert failure(lambda: yours.call("plain")) == (
        "plain returned a dict, which has no snapshot() to read it by: it must return the object its docstring "
        "names")


def test_a_name_that_is_not_a_function(write, tmp_path):
    yours = write("answer = 3\n")
    assert failure(lambda: yours.call("answer")) == f"{tmp_path / 'lesson04.py'} defines answer as an int, not a function"


def test_the_seed_is_drawn_once_a_run_or_taken_from_course_seed(monkeypatch):
    seed.cache_clear()
    monkeypatch.setenv("COURSE_SEED", "1234")
    assert seed() == 1234
    seed.cache_clear()
    monkeypatch.setenv("COURSE_SEED", "twelve")
    with pytest.raises(ValueError, match="COURSE_SEED must be a whole number"):
        seed()
    seed.cache_clear()
    monkeypatch.delenv("COURSE_SEED")
    assert seed() == seed() and 0 <= seed() < 2**48
    seed.cache_clear()


def test_only_a_self_contained_function_can_be_let_out():
    assert "def split_response" in let_out_source(REPO, "core.run.observe", ("split_response",))
    with pytest.raises(ValueError, match="render_response uses Mapping, _phrase, shown from its module"):
        let_out_source(REPO, "core.run.observe", ("render_response",))
    with pytest.raises(ValueError, match="defines no function nothing"):
        let_out_source(REPO, "core.run.observe", ("nothing",))


def test_a_class_is_let_out_only_with_builtins_and_with_its_decorators():
    assert "class NotSent(Exception):" in let_out_source(REPO, "core.run.execute", ("NotSent",))
    with pytest.raises(ValueError, match="AdapterResult uses dataclass from its module"):
        let_out_source(REPO, "core.run.execute", ("AdapterResult",))  # the decorator comes with the class


# --- the check's functions, called from the child ----------------------------------------------

EXECUTE_WALL = {"blocked": ("core.run.execute",), "let_out": {"core.run.execute": ("NotSent",)}}


def test_the_childs_code_calls_the_checks_functions_with_data_and_the_check_sees_each_call(write):
    from core.run.execute import NotSent

    seen = []

    def fetch(url):
        seen.append(("fetch", url))
        if url == "/down":
            raise NotSent("connection refused")
        if url == "/slow":
            raise TimeoutError("timed out")
        if url == "/odd":
            raise LookupError("no page")
        return {"status": 200, "url": url}

    def record(kind):
        seen.append(("record", kind))
        return {"recorded": True, "calls so far": len(seen)}

    yours = write("""
        from core.run.execute import NotSent
        def answer(record, fetch, urls):
            said = [record("outcome")]
            for url in urls:
                try:
                    said.append(fetch(url))
                except NotSent as error:
                    said.append(["not sent", str(error), type(error).__module__])
                except Exception as error:
                    said.append(repr(error))
            return said
    """, **EXECUTE_WALL)
    said = yours.call("answer", Callback(record), Callback(fetch), ["/a", "/down", "/slow", "/odd"])
    assert said == [{"recorded": True, "calls so far": 1}, {"status": 200, "url": "/a"},
                    ["not sent", "connection refused", "core.run.execute"], "TimeoutError('timed out')",
                    "LookupError('no page')"]
    assert seen == [("record", "outcome"), ("fetch", "/a"), ("fetch", "/down"), ("fetch", "/slow"), ("fetch", "/odd")]


def test_a_check_function_relays_a_keyboard_interrupt_to_the_students_code_as_itself(write):
    """A check's function that raises Relayed(KeyboardInterrupt()) stops the student's code, not the check."""

    def fetch(kind):
        raise Relayed({"KeyboardInterrupt": KeyboardInterrupt, "SystemExit": SystemExit}[kind]("stopped"))

    yours = write("""
        def answer(fetch, kind):
            try:
                fetch(kind)
            except Exception as error:
                return ["an Exception", type(error).__name__]
        def caught(fetch, kind):
            try:
                fetch(kind)
            except BaseException as error:
                return [type(error).__name__, str(error)]
    """, names=("answer", "caught"))
    for kind in ("KeyboardInterrupt", "SystemExit"):
        assert yours.call("caught", Callback(fetch), kind) == [kind, "stopped"]
        said = yours.call("answer", Callback(fetch), kind, allowed={"KeyboardInterrupt": KeyboardInterrupt,
                                                                      "SystemExit": SystemExit}[kind])
        assert said == Raised(kind, "stopped"), said


def test_a_check_function_takes_data_only_and_a_forged_call_breaks_the_channel(write):
    yours = write("""
        import json, os
        def answer(record):
            return record({1, 2})
        def forged(record):
            for fd in map(int, os.listdir("/proc/self/fd")):
                try:
                    os.write(fd, (json.dumps({"id": 2, "callback": 7, "args": []}) + "\\n").encode())
                except OSError:
                    pass
            return record("x")
    """, names=("answer", "forged"))
    line = failure(lambda: yours.call("answer", Callback(lambda value: value)))
    assert line.startswith("answer raised: ") and "TypeError: the check's functions take data" in line, line
    assert failure(lambda: yours.call("forged", Callback(lambda value: value))).startswith(
        "forged wrote into the check's channel instead of calling the check's functions")


# --- the wall: what the student's file cannot reach ---------------------------------------------

UNAVAILABLE = ("core.run.observe is unavailable while the check runs: it is the reference of what lesson 4 asks "
               "you to write yourself (only split_response may be imported from it)")


@pytest.mark.parametrize("reach", [
    "from core.run.observe import read_has_meta",
    "import core.run.observe as o; o.read_has_meta",
    "import importlib; importlib.import_module('core.run.observe').generator_tags",
    "import sys; del sys.modules['core.run.observe']; import core.run.observe",
    "import sys, importlib; sys.modules.pop('core.run.observe'); importlib.import_module('core.run.doors')",
    f"open({str(OBSERVE)!r}).read()",
    f"import io; io.open_code({str(OBSERVE)!r}).read()",
    f"import os; os.read(os.open({str(OBSERVE.parent / 'x' / '..' / 'observe.py')!r}, os.O_RDONLY), 10)",
    f"import glob; open(glob.glob({str(OBSERVE.parent / '__pycache__' / 'observe.*')!r})[0], 'rb').read()",
    "import runpy; runpy.run_path('core/run/observe.py')",
    "open('.git/HEAD').read()",
    "import glob; [open(p, 'rb').read() for p in glob.glob('.git/objects/*/*')] or open('.git/config')",
    "open('solutions/lesson04.py').read()",
    f"import importlib.util as u; s = u.spec_from_file_location('x', {str(OBSERVE)!r}); "
    "s.loader.exec_module(u.module_from_spec(s))",
    "from core.run.observe import split_response; split_response.__globals__['read_has_meta']",
    "import linecache; ''.join(linecache.getlines('core/run/observe.py')) or open('core/run/observe.py')",
])
def test_the_reference_is_unavailable_however_the_file_reaches_for_it(write, reach):
    py_compile.compile(str(OBSERVE), cfile=importlib.util.cache_from_source(str(OBSERVE)))  # a .pyc to reach for
    yours = write(f"def answer():\n    {reach}\n    return 'reached it'\n", **WALLED)
    line = failure(lambda: yours.call("answer"))
    assert line.startswith("answer ") and ("is unavailable while the check runs" in line or "KeyError" in line), line
    assert "reached it" not in line


def test_a_let_out_helper_works_and_a_blocked_import_at_the_top_is_the_files_one_line(write, tmp_path):
    yours = write("from core.run.observe import split_response\n"
                  "def answer(text):\n    return split_response(text)\n", **WALLED)
    assert yours.call("answer", "HTTP/1.1 200 OK\nServer: x\n\npage") == [{"server": "x"}, "page"]
    top = write("from core.run.observe import read_observations\ndef answer():\n    return 1\n", **WALLED)
    assert failure(lambda: top.call("answer")) == f"{tmp_path / 'lesson04.py'}, line 1: Unavailable: {UNAVAILABLE}"


def test_a_path_the_check_names_is_unreadable_and_the_rest_of_the_course_readable(write):
    yours = write("def answer(path):\n    return open(path).read()[:10]\n", unreadable=("data",), **WALLED)
    assert yours.call("answer", "README.md")
    line = failure(lambda: yours.call("answer", "data/course/report.json"))
    assert line == ("answer reached past the exercise: data is unavailable while the check runs: it is the check's "
                    "own data, not an input of your functions")
    lister = write("import os\ndef answer(path):\n    return sorted(os.listdir(path)) + [e.name for e in os.scandir(path)]\n",
                   unreadable=("data",), **WALLED)
    assert lister.call("answer", "course")
    for folder in ("data", "data/course"):
        assert failure(lambda: lister.call("answer", folder)).startswith("answer reached past the exercise: data is "
                                                                          "unavailable while the check runs")


def test_the_file_under_check_is_readable_inside_an_unreadable_folder(write, tmp_path):
    (tmp_path / "neighbour.txt").write_text("not yours", encoding="utf-8")
    yours = write("import pathlib\nHERE = pathlib.Path(__file__)\n"
                  "def answer(name):\n    return (HERE.parent / name).read_text()[:7]\n",
                  unreadable=(str(tmp_path),), **WALLED)
    assert yours.call("answer", "lesson04.py") == "import "
    assert failure(lambda: yours.call("answer", "neighbour.txt")).endswith(
        "is unavailable while the check runs: it is the check's own data, not an input of your functions")


@pytest.mark.parametrize("attempt, says", [
    ("import os; os.system('true')", "PermissionError: the check's process starts no other process"),
    ("import subprocess; subprocess.run(['true'])", "PermissionError: the check's process starts no other process"),
    ("import os; os.fork()", "PermissionError: the check's process starts no other process"),
    ("import os; os.kill(os.getppid(), 9)", "PermissionError: the check's process sends no signal"),
    ("open('/tmp/report.xml', 'w').write('<testsuite/>')", "PermissionError: the check's process writes no file"),
    ("import os; os.remove('README.md')", "PermissionError: the check's process changes no file"),
    ("import os; os.link('README.md', '/tmp/x')", "PermissionError: the check's process changes no file"),
    ("import os, tempfile; os.symlink('/etc/hostname', os.path.join(tempfile.gettempdir(), 'l'))",
     "PermissionError: the check's process changes no file"),
    ("import os; assert not {'COURSE_SEED', 'COURSE_PROBLEM_FILE', 'COURSE_RESULTS'} & set(os.environ); "
     "raise OSError('a clean environment')", "OSError: a clean environment"),
])
def test_the_child_starts_nothing_signals_nothing_and_writes_nothing(write, attempt, says):
    yours = write(f"def answer():\n    {attempt}\n    return 'done'\n", **WALLED)
    line = failure(lambda: yours.call("answer"))
    assert line.startswith("answer raised: ") and says in line, line


def test_the_child_may_use_its_own_temporary_folder(write):
    yours = write("import tempfile\ndef answer():\n    with tempfile.NamedTemporaryFile('w+') as f:\n"
                  "        f.write('kept'); f.seek(0); return f.read()\n", **WALLED)
    assert yours.call("answer") == "kept"


# --- the cheats: a file that tries to fool the check from its child -------------------------------


def test_patching_the_check_in_the_child_changes_nothing_here(write):
    yours = write("""
        import core.run.recorder
        core.run.recorder.Recorder.record = lambda self, kind, payload: {"recorded": True}
        import course.manifest, course.student
        course.student.Student.call = lambda self, name, *args: True
        course.manifest.course_root = lambda: None
        def answer():
            return False
    """)
    assert yours.call("answer") is False
    assert Student.call.__module__ == "course.student"
    from core.run.recorder import Recorder
    from course import manifest
    assert Recorder.record.__module__ == "core.run.recorder" and manifest.course_root() is not None


def test_printing_a_fake_answer_is_not_an_answer(write):
    yours = write("""
        import json
        def answer():
            print(json.dumps({"id": 1, "value": True}))
            print("12 passed in 0.01s")
            return False
    """)
    assert yours.call("answer") is False


def test_writing_into_the_channel_is_an_answer_at_most_and_then_a_broken_channel(write):
    yours = write("""
        import json, os
        def answer():
            for fd in map(int, os.listdir("/proc/self/fd")):
                try:
                    os.write(fd, (json.dumps({"id": 1, "value": True}) + "\\n").encode())
                except OSError:
                    pass
            return False
    """)
    assert yours.call("answer") is True  # a forged answer is only an answer: the check judges it like any other
    assert failure(lambda: yours.call("answer")) == (
        "answer wrote into the check's channel instead of returning: the check reads only what the function "
        "returns")


@pytest.mark.parametrize("when", ["loading", "calling"])
def test_a_failure_written_into_the_channel_is_not_the_checks_line(write, tmp_path, when):
    """Only the check's side says a call failed: a forged failure, passed off as the check's one line, is refused."""
    forge = ("import json, os, sys\n"
             "os.write(int(sys.argv[2]), (json.dumps({'id': 1, 'failure': 'All 10 checks pass.'}) + '\\n').encode())\n")
    body = forge if when == "loading" else "def answer():\n    " + forge.replace("\n", "\n    ") + "return 1\n"
    yours = write(body + ("def answer():\n    return 1\n" if when == "loading" else ""))
    line = failure(lambda: yours.call("answer"))
    assert line.endswith("wrote into the check's channel something that is not its answer"), line
    assert "All 10 checks pass" not in line


@pytest.mark.parametrize("when", ["loading", "calling"])
def test_ending_the_process_with_exit_code_0_is_a_failure(write, tmp_path, when):
    source = ("import os\nos._exit(0)\ndef answer():\n    return 1\n" if when == "loading"
              else "import os\ndef answer():\n    print('all checks pass')\n    os._exit(0)\n")
    yours = write(source)
    line = failure(lambda: yours.call("answer"))
    expected = (f"{tmp_path / 'lesson04.py'} ended the check's process while loading (exit code 0)" if when == "loading"
                else "answer ended the check's process (exit code 0) instead of returning; its last words: all "
                     "checks pass")
    assert line == expected


def test_breaking_the_childs_own_builtins_is_a_failure(write, tmp_path):
    yours = write("import builtins\nbuiltins.isinstance = lambda value, kind: True\ndef answer():\n    return 1\n")
    line = failure(lambda: yours.call("answer"))
    assert line.startswith(f"{tmp_path / 'lesson04.py'} ended the check's process while loading (exit code 1)")


def test_an_endless_loop_is_stopped(write):
    yours = write("def answer():\n    while True:\n        pass\n", timeout=1)
    assert failure(lambda: yours.call("answer")) == (
        "answer did not return within 1 s, so the check stopped it (an endless loop?)")


def test_an_answer_too_long_to_read_is_refused(write, tmp_path):
    yours = write("def answer():\n    return 'x' * 9_000_000\n")
    assert failure(lambda: yours.call("answer")) == (
        f"the answer from {tmp_path / 'lesson04.py'} is longer than 8388608 bytes")


def test_a_runaway_allocation_stops_at_the_childs_memory_limit(write):
    yours = write("def answer():\n    return len(bytearray(4 * 1024**3))\n")
    assert failure(lambda: yours.call("answer")).startswith("answer raised: ")


def test_an_object_of_a_named_class_is_read_by_that_class_as_it_was_before_the_file_loaded(write):
    """A look-alike class, or a patched method, does not cross as a Policy's data."""
    spec = {"look_alike": "core.run.policy:Policy.snapshot", "patched": "core.run.policy:Policy.snapshot",
            "real": "core.run.policy:Policy.snapshot"}
    yours = write("""
        from core.run.policy import Policy, reference_policy
        class Look:
            def snapshot(self):
                return {"reference": "made up"}
        def look_alike():
            return Look()
        def patched():
            Policy.snapshot = lambda self: {"reference": "patched"}
            return reference_policy()
        def real():
            return reference_policy()
    """, names=tuple(spec), as_data=spec)
    assert failure(lambda: yours.call("look_alike")) == (
        "look_alike returned a Look, not a Policy: it must return the object its docstring names")
    assert yours.call("patched")["reference"] == "training-authorization-0001"
    assert yours.call("real")["reference"] == "training-authorization-0001"


def test_a_workspace_holding_anything_but_plain_files_fails_before_the_check_reads_it(write):
    """A FIFO or a link left in a workspace is named before the check opens it (a FIFO's open would wait)."""
    import os

    yours = write("def answer():\n    return 'done'\n", **WALLED)
    folder = yours.workspace("made")
    (folder / "pack").mkdir()
    (folder / "pack" / "plain.json").write_text("{}")
    yours.plain_files_in(folder, "answer()")  # plain files and folders: nothing to say
    os.mkfifo(folder / "pack" / "pipe.json")
    line = failure(lambda: yours.plain_files_in(folder, "answer()"))
    assert line.startswith("answer() left pack/pipe.json in the folder, which is not a plain file or folder"), line
    os.remove(folder / "pack" / "pipe.json")
    os.symlink("/etc/hostname", folder / "link.json")
    assert "left link.json in the folder" in failure(lambda: yours.plain_files_in(folder, "answer()"))


def test_the_file_runs_as_saved_now_never_as_a_cached_earlier_save(write, tmp_path):
    """A .pyc of an earlier save with the same size and modification second is never run in its place."""
    import os
    import py_compile

    first = write("def answer():\n    return 'first'\n")
    source = tmp_path / "lesson04.py"
    stamp = source.stat().st_mtime_ns
    py_compile.compile(str(source), cfile=str(tmp_path / "__pycache__" / "lesson04.cpython-311.pyc"),
                       doraise=True)  # where Python's own import would look first
    import importlib.util
    py_compile.compile(str(source), cfile=importlib.util.cache_from_source(str(source)), doraise=True)
    second = write("def answer():\n    return 'again'\n")  # the same size
    os.utime(source, ns=(stamp, stamp))
    assert first is not second and second.call("answer") == "again"


def test_a_file_that_stops_reading_its_channel_is_stopped_in_its_time_not_waited_on(write):
    """The child says it loaded, then never reads again: handing it a large argument fails within the timeout."""
    import time

    yours = write("""
        import json, os, sys, time
        os.write(int(sys.argv[2]), (json.dumps({"loaded": []}) + "\\n").encode())
        while True:
            time.sleep(1)
        def answer(text):
            return len(text)
    """, timeout=1.0)
    started = time.monotonic()
    line = failure(lambda: yours.call("answer", "x" * 1_000_000))
    assert line.endswith("stopped reading the check's channel, so the check stopped it: answer was not handed its "
                         "arguments within 1 s"), line
    assert time.monotonic() - started < 20
    assert failure(lambda: yours.call("answer", "y")) == line  # the file's one line, at once, from then on


def test_a_file_not_named_py_is_still_read_as_python(write, tmp_path, monkeypatch):
    path = tmp_path / "lesson04.txt"
    path.write_text("def answer():\n    return 'read'\n", encoding="utf-8")
    monkeypatch.setenv("COURSE_TARGET", str(path))
    assert Student(4, names=("answer",), **WALLED).call("answer") == "read"


def test_bytes_cross_as_bytes_and_a_subclass_does_not(write):
    yours = write("""
        class Sly(bytes):
            def __eq__(self, other):
                return True
        def answer(leaf, path):
            return [leaf + b"!", *path]
        def sly():
            return Sly(b"x")
    """, names=("answer", "sly"))
    got = yours.call("answer", b"\x00\xff", [b"a", b"b"])
    assert got == [b"\x00\xff!", b"a", b"b"] and all(type(item) is bytes for item in got)
    assert "returned a Sly, which is not JSON data" in failure(lambda: yours.call("sly"))


def test_an_allowed_exception_is_an_answer_and_no_other_is(write):
    from course.student import Raised

    yours = write("""
        class ValueError(Exception):  # a namesake, not the builtin
            pass
        def refuses(which):
            if which == "value":
                import builtins
                raise builtins.ValueError("the path is too long")
            if which == "namesake":
                raise ValueError("looks like one")
            raise TypeError("not a refusal")
    """, names=("refuses",))
    assert yours.call("refuses", "value", allowed=ValueError) == Raised("ValueError", "the path is too long")
    for which in ("namesake", "other"):
        line = failure(lambda: yours.call("refuses", which, allowed=ValueError))
        assert line.startswith("refuses raised: "), line


# --- the shortcut, and a child that outlives nothing ---------------------------------------------


@pytest.mark.parametrize("shortcut", [
    "from core.run.observe import read_has_meta",
    "import importlib.util as u\ns = u.spec_from_file_location('mine', 'core/run/observe.py')\n"
    "s.loader.exec_module(u.module_from_spec(s))",
    "import glob, importlib.machinery as m, importlib.util as u\n"
    "path = sorted(glob.glob('core/run/__pycache__/observe.*.pyc'))[0]\n"
    "s = u.spec_from_loader('mine', m.SourcelessFileLoader('mine', path))\ns.loader.exec_module(u.module_from_spec(s))",
    "import sys\nsys.path.insert(0, 'core/run')\nimport observe",
    "exec(open('solutions/lesson04.py').read())",
    "import json\njson.load(open('data/course/report.json'))",
], ids=["import", "source", "bytecode", "another name", "worked answer", "artifact"])
def test_a_shortcut_to_the_reference_from_source_or_bytecode_is_the_files_one_line_naming_the_rule(
        write, tmp_path, shortcut):
    """The reference's source and its compiled bytecode, the worked answer and an artifact are each refused at load."""
    py_compile.compile(str(OBSERVE), cfile=importlib.util.cache_from_source(str(OBSERVE)))  # a .pyc to reach for
    yours = write(shortcut + "\ndef answer():\n    return 'reached it'\n", unreadable=("data",), **WALLED)
    line = failure(lambda: yours.call("answer"))
    assert line.startswith(f"{tmp_path / 'lesson04.py'}, line ") and ": Unavailable: " in line, line
    assert line.split(": Unavailable: ")[1].split(" is unavailable while the check runs: ")[0] in (
        "core.run.observe", "solutions", "data"), line


def _children_marked(mark: str) -> list[int]:
    """The ids of the student's processes (course/student_child.py) whose environment holds ``mark`` (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and mark.encode() in (entry / "environ").read_bytes() \
                    and b"student_child.py" in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:
            pass
    return found


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="finds the child through Linux's /proc")
def test_a_file_that_leaves_the_checks_session_as_it_loads_does_not_outlive_ctrl_c(tmp_path):
    """A file that calls os.setsid() and loops is gone once Ctrl-C has ended `course check`."""
    import os
    import signal
    import subprocess
    import sys
    import time
    import uuid

    path = tmp_path / "lesson04.py"
    path.write_text("import os\nos.setsid()\nwhile True:\n    pass\n", encoding="utf-8")
    mark = f"COURSE_TEST_MARK={uuid.uuid4().hex}"
    env = {**os.environ, "COURSE_TARGET": str(path), mark.split("=")[0]: mark.split("=")[1]}
    env.pop("COURSE_PROBLEM_FILE", None)
    check = subprocess.Popen([sys.executable, "-m", "course", "check", "4"], cwd=REPO, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any(
                os.getsid(pid) == pid for pid in _children_marked(mark) if _alive(pid)):
            time.sleep(0.2)  # until the student's file has left the check's session
        assert any(os.getsid(pid) == pid for pid in _children_marked(mark) if _alive(pid)), "no child left its session"
        os.killpg(check.pid, signal.SIGINT)  # what Ctrl-C sends the terminal's foreground group
        check.wait(timeout=30)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and [pid for pid in _children_marked(mark) if _alive(pid)]:
            time.sleep(0.2)
        left = [pid for pid in _children_marked(mark) if _alive(pid)]
        assert not left, f"processes outlived the check: {left}"
    finally:
        for pid in _children_marked(mark):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        if check.poll() is None:
            check.kill()
            check.wait()


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_without_the_kernels_help_the_child_ends_when_its_lifeline_closes():
    """Where no PR_SET_PDEATHSIG is to be had, the lifeline alone ends a child busy in a loop."""
    import os
    import subprocess
    import sys

    reading, writing = os.pipe()
    child = subprocess.Popen([sys.executable, "-c", "import sys, threading\n"
                              "sys.path.insert(0, sys.argv[2])\nfrom course.student_child import watch\n"
                              "threading.Thread(target=watch, args=(int(sys.argv[1]),), daemon=True).start()\n"
                              "while True:\n    pass\n", str(reading), str(REPO)], pass_fds=(reading,))
    os.close(reading)
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            child.wait(timeout=1)  # alive while the lifeline is open
        os.close(writing)
        assert child.wait(timeout=10) == 1
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
