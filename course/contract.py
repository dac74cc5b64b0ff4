"""Where the lesson contract is written: CONTRIBUTING.md, one heading per rule.

Lint and the tests cite a rule by its number; ``cite`` adds the page, so a
message says where to read the rule it names. ``rules`` reads the numbers the
page defines, so a test can hold every citation to a rule that exists.
"""

from __future__ import annotations

import re
from pathlib import Path

PAGE = "CONTRIBUTING.md"

# A rule's heading on the page: "### Rule 16: wrong answers fail".
_HEADING = re.compile(r"^### Rule (?P<number>\d+): (?P<title>\S.*)$", re.MULTILINE)


def cite(number: int) -> str:
    """How a message names rule ``number``: the rule and the page that states it."""
    return f"rule {number} of the lesson contract, {PAGE}"


def rules(root: Path) -> dict[int, str]:
    """Each rule number the page under ``root`` defines, with its title, in the page's order."""
    text = (Path(root) / PAGE).read_text(encoding="utf-8")
    return {int(m["number"]): m["title"] for m in _HEADING.finditer(text)}
