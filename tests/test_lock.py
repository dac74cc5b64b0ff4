"""requirements.lock pins every package the course installs, each with its hashes, and make installs it hash-checked."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LOCK = REPO / "requirements.lock"

PIN = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>[^\s;\\]+)")
HASH = re.compile(r"--hash=sha256:(?P<digest>[^\s\\]*)")


def normal(name: str) -> str:
    """A distribution name as pip compares names (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirements(text: str) -> list[str]:
    """The lock's requirements, one string each: continued lines joined, comments and blank lines left out."""
    logical, current = [], ""
    for line in text.splitlines():
        stripped = line.split(" #", 1)[0].strip() if not line.lstrip().startswith("#") else ""
        if stripped.endswith("\\"):
            current += stripped[:-1] + " "
            continue
        current += stripped
        if current.strip():
            logical.append(current.strip())
        current = ""
    if current.strip():
        logical.append(current.strip())
    return logical


def unhashed(text: str) -> list[str]:
    """Each requirement that is not an exact pin carrying at least one well-formed sha256 hash."""
    bad = []
    for requirement in requirements(text):
        digests = [m["digest"] for m in HASH.finditer(requirement)]
        if not PIN.match(requirement) or not digests or not all(re.fullmatch(r"[0-9a-f]{64}", d) for d in digests):
            bad.append(requirement[:80])
    return bad


def pins(text: str) -> dict[str, str]:
    return {normal(m["name"]): m["version"] for m in map(PIN.match, requirements(text)) if m}


def declared() -> list[str]:
    """Every requirement pyproject.toml declares: the build backend, the runtime and every extra."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    extras = project["project"].get("optional-dependencies", {})
    return [*project["build-system"]["requires"], *project["project"]["dependencies"],
            *(r for group in extras.values() for r in group)]


def test_every_requirement_in_the_lock_is_pinned_with_a_hash():
    """Each requirement in requirements.lock is name==version with at least one sha256 hash of 64 hex digits."""
    text = LOCK.read_text(encoding="utf-8")
    assert len(requirements(text)) >= 100, "the lock holds fewer requirements than the course installs"
    assert unhashed(text) == []


def test_a_lock_line_without_a_hash_or_with_a_bad_one_is_caught():
    """A bare pin, a range, a short or upper-case digest, a hash on a comment line and a pin continued onto nothing are each caught."""
    good = "click==8.5.1 \\\n    --hash=sha256:" + "a" * 64 + "\n    # via harness-course\n"
    assert unhashed(good) == []
    for bad in ("rich==15.0.0\n",
                "rich>=15 \\\n    --hash=sha256:" + "a" * 64 + "\n",
                "rich==15.0.0 \\\n    --hash=sha256:" + "a" * 63 + "\n",
                "rich==15.0.0 \\\n    --hash=sha256:" + "A" * 64 + "\n",
                "rich==15.0.0\n    # --hash=sha256:" + "a" * 64 + "\n",
                "rich==15.0.0 \\\n"):
        assert unhashed(good + bad) != [], bad


def test_every_package_pyproject_declares_is_locked_at_its_pin():
    """The build backend, every runtime dependency and every extra's are in the lock at the version pyproject.toml pins."""
    locked = pins(LOCK.read_text(encoding="utf-8"))
    wanted = {}
    for requirement in declared():
        match = PIN.match(requirement)
        assert match, f"pyproject.toml declares {requirement!r}, which is not an exact pin"
        wanted[normal(match["name"])] = match["version"]
    assert "cosmic-ray" in wanted and "setuptools" in wanted
    assert {name: (version, locked.get(name)) for name, version in wanted.items() if locked.get(name) != version} == {}


def test_the_pip_lock_pins_pip_alone_with_a_hash():
    """requirements-pip.lock pins pip, and nothing else, to an exact version with a sha256 hash."""
    text = (REPO / "requirements-pip.lock").read_text(encoding="utf-8")
    assert unhashed(text) == []
    assert list(pins(text)) == ["pip"]


def test_make_installs_the_lock_hash_checked_and_the_course_without_its_dependencies():
    """The Makefile installs pip, then requirements.lock, each with --require-hashes, then the course with --no-deps, and nothing with -c or unhashed."""
    makefile = (REPO / "Makefile").read_text(encoding="utf-8").replace("\\\n", " ")
    installs = [line.strip() for line in makefile.splitlines() if "pip install" in line and not line.lstrip().startswith("#")]
    assert len(installs) == 3, installs
    assert "--require-hashes -r requirements-pip.lock" in installs[0]
    assert "--require-hashes -r requirements.lock" in installs[1]
    assert "--no-deps" in installs[2] and " -e ." in installs[2] and "editable_mode=compat" in installs[2]
    assert not any(" -c " in line or "[dev]" in line for line in installs)
