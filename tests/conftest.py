"""Shared fixtures: a tiny, complete fixture course for testing the course tools.

The real lessons prove the tools pass on good input; the fixture course lets
each test break exactly one promise and watch the tool catch it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings

from course import manifest, pages

REPO = Path(__file__).resolve().parent.parent


def examples(under_ci: int) -> int:
    """How many examples a property test runs: ``under_ci`` under the ci profile (what `make test` runs).

    The loaded profile decides the scale (the profiles are registered in the
    root conftest.py): ``fast`` runs a tenth, and a profile of one's own with
    ``max_examples=1000`` would run ten times as many. A test states its size
    relative to the others; the profile decides how hard the run looks.
    """
    return max(1, under_ci * settings.default.max_examples // settings.get_profile("ci").max_examples)

FIXTURE_MANIFEST = """
[[lesson]]
number = 1
slug = "fixture"
title = "A fixture lesson"
ready = true
page = "lessons/01-fixture.md"
notebook = "notebooks/lesson01.ipynb"
starter = "starter/lesson01.py"
starter_test = "starter/lesson01_test.py"
solution = "solutions/lesson01.py"
tests = ["tests/test_fixture.py"]
artifacts = [ { path = "data/course/greeting.json", command = "python3 make_greeting.py --out {out}" } ]
"""

FIXTURE_SENTENCE = "The greeting names who it greets."

FIXTURE_TEST = f'''
def test_greeting_names_its_subject():
    """{FIXTURE_SENTENCE}"""
    assert "world" in "hello world"
'''

STARTER_TEST = '''
from course.target import load_lesson

lesson = load_lesson(1)


def test_greet_says_hello():
    """greet(name) returns "hello NAME"."""
    assert lesson.greet("x") == "hello x", "greet() must return 'hello ' followed by the name"
'''

MAKE_GREETING = '''
import json, sys
out = sys.argv[sys.argv.index("--out") + 1]
open(out, "w").write(json.dumps({"greeting": "hello world"}, indent=2) + "\\n")
'''


def fixture_page() -> str:
    body = {name: "Some prose." for name in pages.SECTIONS}
    body["Implement it"] = "Read `core/greet.py:greet` and `greet.py:Greeter.greet`."
    body["Build it yourself"] = ('Write greet.\n\n??? tip "Hint 1: a nudge"\n    Return a string.\n\n'
                                 '??? tip "Hint 2: nearly there"\n    Put "hello " before the name.\n\n'
                                 '??? success "Worked solution"\n    ```python\n    --8<-- "solutions/lesson01.py"\n    ```')
    body["Check completion"] = f"- {FIXTURE_SENTENCE}"
    return "# Lesson 1: a fixture\n\n" + "".join(f"## {name}\n\n{text}\n\n" for name, text in body.items())


def fixture_notebook() -> dict:
    cell = lambda n, src, out: {"cell_type": "code", "execution_count": n, "metadata": {}, "source": src,  # noqa: E731
                                "outputs": [{"output_type": "stream", "name": "stdout", "text": out}]}
    return {"cells": [cell(1, "print('hello')", "hello\n"), cell(2, "print(1 + 1)", "2\n")],
            "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


@pytest.fixture
def fixture_course(tmp_path: Path) -> Path:
    """A complete one-lesson course tree that passes every check."""
    files = {
        "course/manifest.toml": FIXTURE_MANIFEST,
        "lessons/01-fixture.md": fixture_page(),
        "notebooks/lesson01.ipynb": json.dumps(fixture_notebook(), indent=1),
        "core/greet.py": "class Greeter:\n    def greet(self):\n        return 'hello'\n\n\ndef greet(name):\n    return 'hello ' + name\n",
        "starter/lesson01.py": "def greet(name):\n    raise NotImplementedError('write greet')\n",
        "starter/lesson01_test.py": STARTER_TEST,
        "solutions/lesson01.py": "def greet(name):\n    return 'hello ' + name\n",
        "tests/test_fixture.py": FIXTURE_TEST,
        "make_greeting.py": MAKE_GREETING,
    }
    for relative, text in files.items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    (tmp_path / "data/course").mkdir(parents=True)
    subprocess.run([sys.executable, "make_greeting.py", "--out", "data/course/greeting.json"], cwd=tmp_path, check=True)
    return tmp_path


def run_course(root: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    """Run `python -m course ARGS` against the course tree at ``root``."""
    environment = {key: value for key, value in os.environ.items() if key != "COURSE_TARGET"}
    environment.update({"COURSE_ROOT": str(root), "COLUMNS": "200", **env})
    return subprocess.run([sys.executable, "-m", "course", *args], cwd=REPO, env=environment,
                          capture_output=True, text=True)


ATTACKS_TABLE = "data/course/attacks.md"  # lesson 10's artifact: the whole attack suite's table


@dataclass(frozen=True)
class AttackRun:
    done: subprocess.CompletedProcess  # what the command printed (the table, then the summary line)
    fresh: bytes  # the Markdown table it wrote


@pytest.fixture(scope="session")
def attack_suite(tmp_path_factory) -> AttackRun:
    """The attack suite, run once per test session by the very command `course verify` runs for
    data/course/attacks.md (from the manifest). Its tests read what it printed; the artifact test
    compares what it wrote with the committed table, byte for byte (conftest.py keeps both files
    in one process)."""
    from course.verify import command_argv

    artifact = next(a for lesson in manifest.load(REPO) for a in lesson.artifacts if a.path == ATTACKS_TABLE)
    out = tmp_path_factory.mktemp("attacks") / "attacks.md"
    done = subprocess.run(command_argv(artifact, str(out)), cwd=REPO, capture_output=True, text=True, timeout=600)
    return AttackRun(done, out.read_bytes() if out.exists() else b"")


def build_site(config: Path, site: Path) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` of ``config`` into ``site``, its log kept (no -q) so tests can read every warning."""
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)]
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True,
                          env={"NO_MKDOCS_2_WARNING": "1", "PATH": os.environ.get("PATH", "")})


def build_with_zensical(config: Path) -> subprocess.CompletedProcess:
    """`zensical build --strict` of ``config``: it writes to the config's own site_dir (it has no -d)."""
    zensical = Path(sys.executable).parent / "zensical"
    return subprocess.run([str(zensical), "build", "--strict", "-f", str(config)], cwd=REPO, capture_output=True,
                          text=True, env={"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "/")})


@pytest.fixture(scope="session")
def site_pages(tmp_path_factory) -> Path:
    """The site's pages and config, written once per test session by the pre-build step (`site_build.build`)."""
    from site_build import build as site

    return site.build_pages(tmp_path_factory.mktemp("pages"))


@pytest.fixture(scope="session")
def site_build(site_pages) -> tuple[Path, subprocess.CompletedProcess]:
    """The docs site built by mkdocs-material once per test session with strict checks, and the build's own result."""
    folder = site_pages.parent / "mkdocs-site"
    return folder, build_site(site_pages, folder)


@pytest.fixture(scope="session")
def site(site_build) -> Path:
    folder, done = site_build
    assert done.returncode == 0, done.stderr
    return folder


@pytest.fixture(scope="session")
def zensical_build(site_pages) -> tuple[Path, subprocess.CompletedProcess]:
    """The same pages built by Zensical, into the site_dir the written config names.

    Its link check is left to mkdocs' strict build of the same pages (and to the pre-build
    step's own check of every link to a source line): Zensical 0.0.73 spends 5 of its 9 s
    checking the anchors of the source pages again.
    """
    config = site_pages.parent / "zensical.yml"
    config.write_text(f"INHERIT: {site_pages.name}\nvalidation: false\n", encoding="utf-8")
    return site_pages.parent / "site", build_with_zensical(config)
