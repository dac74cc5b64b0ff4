"""The fixture lab: a small fictional web target that every lesson runs against.

Everything the lab serves comes from plain files under ``data/lab/`` (pages,
headers, the scripted model's script), read afresh on every request, so that
editing a fixture changes what the next run sees and nothing else does.

Modules, one concept each:

- ``fixtures``: find a site by host and a page by path, in the fixture index only;
- ``app``: the WSGI application that turns fixtures into HTTP responses;
- ``origins``: the lab's origin canonicalizer (``core`` restates it as a twin);
- ``model``: the scripted model, raw text in reply to what it is shown;
- ``adapter``: one httpx client that reaches the lab in process or over loopback;
- ``server``: serve the lab on 127.0.0.1 with a real HTTP server (``python -m lab serve``).
"""

from pathlib import Path

# Found from this file, so the lab works from any working directory and no
# absolute path ever has to be written down anywhere.
DEFAULT_LAB_DIR = Path(__file__).resolve().parent.parent / "data" / "lab"

# The one origin a training engagement authorizes, and the one it must never reach.
LAB_ORIGIN = "https://lab.example:443"
OTHER_ORIGIN = "https://other.example:443"
