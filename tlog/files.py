"""Writing a file in one step: the log, a published checkpoint and the witness's state.

Each is written to a ``.partial`` file beside it and then renamed over the
old one (os.replace is atomic on one file system), so a crash leaves the old
file or the new one, whole, and a reader never sees half of either. A file
torn some other way is what the readers refuse, in one line.
"""

from __future__ import annotations

import os
from pathlib import Path


def replace(path: str | Path, text: str, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` whole, replacing what was there in one step."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text, encoding=encoding)
    os.replace(partial, path)
