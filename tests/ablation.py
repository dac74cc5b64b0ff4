"""An ablation: the attack suite run against a copy of the harness with one defence edited out.

A test that shows a defence is what stops its attacks takes the defence away
and runs the attacks again. Where the defence is a part of the door (a guard,
a builder, a policy check), the test assembles the door without it
(doors.final_door_with) and hands it to the suite (lab/judging.Harness).
Where it is a line inside a module (a bound, a reader's check, a
transport), nothing in the running harness is patched: the source tree is
copied, the defence's text is replaced in the copy, and the suite's rows run
against the copy in a process of its own.

Each edit names text that must occur exactly once in its file, so an edit
whose defence has moved or changed fails at once instead of testing nothing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
COPIED_AWAY = {".git", ".venv", "build", "site", ".course", ".pytest_cache", ".hypothesis"}

Edits = Mapping[str, Iterable[tuple[str, str]]]  # file (from the repository's root) -> (text, its replacement)...


def edited_copy(root: Path, edits: Edits) -> None:
    """The repository at ``root``: each package an edit names copied and edited, everything else linked."""
    packages = {Path(path).parts[0] for path in edits}
    for entry in REPO.iterdir():
        if entry.name in COPIED_AWAY:
            continue
        if entry.name in packages:
            shutil.copytree(entry, root / entry.name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            (root / entry.name).symlink_to(entry)
    for path, changes in edits.items():
        file = root / path
        text = file.read_text(encoding="utf-8")
        for old, new in changes:
            if text.count(old) != 1:
                raise AssertionError(f"the ablation's text occurs {text.count(old)} times in {path}, not once: "
                                     f"{old[:80]!r}")
            text = text.replace(old, new)
        file.write_text(text, encoding="utf-8")


def succeeded_in_a_copy(names: Iterable[str], edits: Edits, *, without: str = "", instead: str = "",
                        judged: str = "", tools: int = 0) -> set[str]:
    """The attacks among ``names`` that succeed against the harness with ``edits`` made to a copy of its source.

    ``without`` also takes a guard out of the door, or puts ``instead``
    ("module:function", a stand-in the copy imports) in its place;
    ``judged`` ("module:function") makes the suite's Harness that judges
    the rows; ``tools`` plants that many tools in each catalogue row.
    """
    spec = {"names": sorted(names), "without": without, "instead": instead, "judged": judged, "tools": tools}
    with tempfile.TemporaryDirectory(prefix="ablation-") as folder:
        root = Path(folder)
        edited_copy(root, edits)
        environment = {**os.environ, "PYTHONPATH": str(root), "PYTHONDONTWRITEBYTECODE": "1"}
        done = subprocess.run([sys.executable, "-m", "tests.ablation", json.dumps(spec)], cwd=root,
                              env=environment, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise AssertionError(f"the ablated suite did not run: {done.stderr[-3000:]}")
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    """In the edited copy: run the rows the spec names and print the names of those that succeeded, as JSON."""
    import dataclasses
    import importlib

    from core.run import doors
    from lab import attacks, judging

    spec = json.loads(sys.argv[1])
    if not Path(doors.__file__).resolve().is_relative_to(Path.cwd().resolve()):
        raise SystemExit(f"the ablation imported the harness from {doors.__file__}, not from its copy")
    chosen = tuple(attack for attack in attacks.ATTACKS if attack.name in spec["names"])
    if len(chosen) != len(spec["names"]):
        raise SystemExit(f"no such attacks: {sorted(set(spec['names']) - {a.name for a in chosen})}")
    if spec["tools"]:
        chosen = tuple(dataclasses.replace(attack, plant={**attack.plant, "tools": spec["tools"]})
                       for attack in chosen)
    def loaded(named: str):
        module, _, name = named.partition(":")
        return getattr(importlib.import_module(module), name)

    harness = loaded(spec["judged"])() if spec["judged"] else judging.REFERENCE
    if spec["instead"]:
        door = doors.final_door_with(replace={spec["without"]: loaded(spec["instead"])})
        harness = dataclasses.replace(harness, door=door)
    elif spec["without"]:
        harness = dataclasses.replace(harness, door=doors.final_door_with(without=(spec["without"],)))
    results = attacks.run_suite(chosen, utility=False, harness=harness)
    print(json.dumps(sorted(verdict.attack.name for verdict in results.verdicts if verdict.succeeded)))


if __name__ == "__main__":
    main()
