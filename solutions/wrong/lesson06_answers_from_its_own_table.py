"""Wrong: ignores the adapter it was handed and answers from its own table.

Its replay adapter (the exercise before lesson 6 was rebuilt) reads the
module's RECORDED instead of the table it was built with; its step asks the
adapter, then records the response its own table holds for the path, or a
"no page" 404 when it holds none. A run with another adapter, or another
lab, gets the same made-up answers.

Kind: author's own
Fails with: the capture holds the response the adapter gave, and nothing else
Passed the check before lesson 6 was rebuilt: yes
"""

from core.run.execute import NotSent
from core.run.observe import render_response

HTML = "text/html; charset=utf-8"
RECORDED = {
    "https://lab.example:443/about": (
        200, {"Content-Type": HTML},
        '<!doctype html>\n<html lang="en">\n<head>\n'
        '  <meta name="generator" content="ExampleCMS 3.2.1">\n'
        "  <title>About us - Lab Example Garden Supplies</title>\n</head>\n"
        "<body>\n  <h1>About us</h1>\n</body>\n</html>\n"),
    "https://lab.example:443/contact": (
        200, {"Content-Type": HTML},
        '<!doctype html>\n<html lang="en">\n<head>\n'
        '  <meta name="description" content="How to reach Lab Example Garden Supplies">\n'
        "  <title>Contact - Lab Example Garden Supplies</title>\n</head>\n"
        "<body>\n  <h1>Contact</h1>\n</body>\n</html>\n"),
}


class ReplayAdapter:
    """The old exercise's adapter, reading the module's table whatever it was given."""

    def __init__(self, recorded: dict | None = None):
        self.recorded = recorded

    def fetch(self, url: str):
        from core.run.execute import AdapterResult  # the old exercise's return type

        if url not in RECORDED:
            raise LookupError(f"no recorded response for {url}")
        status, headers, body = RECORDED[url]
        return AdapterResult(status, tuple(headers.items()), body)


def write_ahead(act: dict, record, fetch) -> dict:
    """Carry out one admitted act, answered from this file's own table."""
    run_id, action_id = act["run_id"], act["action_id"]

    def outcome(status, detail, capture_id=""):
        return record("outcome", {"run_id": run_id, "action_id": action_id, "status": status,
                                  "capture_id": capture_id, "detail": detail})

    if not outcome("unresolved", "handed to the adapter")["recorded"]:
        return {"status": "unresolved", "capture_id": "", "detail": "the start was refused"}
    try:
        fetch(act["url"])
    except NotSent as error:
        outcome("failed", f"not sent: {error}")
        return {"status": "failed", "capture_id": "", "detail": str(error)}
    except Exception as error:  # noqa: BLE001
        outcome("unresolved", f"in doubt: {error!r}")
        return {"status": "unresolved", "capture_id": "", "detail": repr(error)}
    status, headers, body = RECORDED.get(act["url"], (404, {}, "no page\n"))
    captured = record("capture", {"run_id": run_id, "action_id": action_id, "status": status,
                                  "body": render_response(status, headers, body)})
    outcome("succeeded", "", captured["id"])
    return {"status": "succeeded", "capture_id": captured["id"], "detail": ""}
