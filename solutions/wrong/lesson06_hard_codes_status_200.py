"""Wrong: captures every response as HTTP 200, the status of the demo's pages.

Its replay adapter (the exercise before lesson 6 was rebuilt) and its step
make the same mistake: they write down the status the demo's pages have, not
the one the adapter reported. A 404 becomes a page that was found.

Kind: hard-codes the demo
Fails with: the capture keeps the status the adapter reported
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
    """The old exercise's adapter: every recorded response comes back as a 200."""

    def __init__(self, recorded: dict | None = None):
        self.recorded = RECORDED if recorded is None else recorded

    def fetch(self, url: str):
        from core.run.execute import AdapterResult  # the old exercise's return type

        if url not in self.recorded:
            raise LookupError(f"no recorded response for {url}")
        _status, headers, body = self.recorded[url]
        return AdapterResult(200, tuple(headers.items()), body)


def write_ahead(act: dict, record, fetch) -> dict:
    """Carry out one admitted act, writing every response down as a 200."""
    run_id, action_id = act["run_id"], act["action_id"]

    def outcome(status, detail, capture_id=""):
        return record("outcome", {"run_id": run_id, "action_id": action_id, "status": status,
                                  "capture_id": capture_id, "detail": detail})

    if not outcome("unresolved", "handed to the adapter")["recorded"]:
        return {"status": "unresolved", "capture_id": "", "detail": "the start was refused"}
    try:
        response = fetch(act["url"])
        body = render_response(200, response["headers"], response["body"])
    except NotSent as error:
        outcome("failed", f"not sent: {error}")
        return {"status": "failed", "capture_id": "", "detail": str(error)}
    except Exception as error:  # noqa: BLE001
        outcome("unresolved", f"in doubt: {error!r}")
        return {"status": "unresolved", "capture_id": "", "detail": repr(error)}
    captured = record("capture", {"run_id": run_id, "action_id": action_id, "status": 200, "body": body})
    outcome("succeeded", "", captured["id"])
    return {"status": "succeeded", "capture_id": captured["id"], "detail": ""}
