"""core/ imports only the standard library and itself."""

from pathlib import Path

import pytest

from course.imports import foreign_imports

REPO = Path(__file__).resolve().parent.parent


def test_core_imports_only_the_standard_library():
    assert list((REPO / "core").rglob("*.py")), "core/ has no modules to check"
    assert foreign_imports(REPO / "core") == []


@pytest.mark.parametrize("line", ["import httpx", "from lab.origins import canonical_origin",
                                  "import course.cli", "from rich import print"])
def test_the_gate_catches_an_injected_import(tmp_path, line):
    (tmp_path / "core/run").mkdir(parents=True)
    (tmp_path / "core/run/fine.py").write_text("import json\nfrom core.run import canon\n")
    (tmp_path / "core/run/bad.py").write_text(f"def f():\n    {line}\n")
    assert foreign_imports(tmp_path / "core") == [f"core/run/bad.py:2 imports {line.split()[1]}"]
