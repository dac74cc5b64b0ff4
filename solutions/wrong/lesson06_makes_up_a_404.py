"""Wrong: a request nothing answered becomes a made-up 404, and every act succeeds.

Its replay adapter (the exercise before lesson 6 was rebuilt) raises for the
one unknown URL that check asked about and makes a 404 up for every other;
its step does the same for every error: it records a "Not Found" page the
adapter never gave and settles the act succeeded. The ledger then says the
lab answered when it never did.

Kind: accepts everything
Fails with: a response the adapter never gave is never recorded
Passed the check before lesson 6 was rebuilt: yes
"""

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
NOT_FOUND = (404, {"Content-Type": "text/plain"}, "Not Found\n")


class ReplayAdapter:
    """The old exercise's adapter: an unknown URL gets a 404 made up for it (but /admin raises)."""

    def __init__(self, recorded: dict | None = None):
        self.recorded = RECORDED if recorded is None else recorded

    def fetch(self, url: str):
        from core.run.execute import AdapterResult  # the old exercise's return type

        if url.endswith("/admin"):
            raise LookupError(f"no recorded response for {url}")
        status, headers, body = self.recorded.get(url, NOT_FOUND)
        return AdapterResult(status, tuple(headers.items()), body)


def write_ahead(act: dict, record, fetch) -> dict:
    """Carry out one admitted act; whatever goes wrong, a 404 stands in for the answer."""
    run_id, action_id = act["run_id"], act["action_id"]
    record("outcome", {"run_id": run_id, "action_id": action_id, "status": "unresolved", "capture_id": "",
                       "detail": "handed to the adapter"})
    try:
        response = fetch(act["url"])
        status, headers, page = response["status"], response["headers"], response["body"]
    except Exception:  # noqa: BLE001  any error: the page was not found
        status, headers, page = NOT_FOUND[0], list(NOT_FOUND[1].items()), NOT_FOUND[2]
    captured = record("capture", {"run_id": run_id, "action_id": action_id, "status": status,
                                  "body": render_response(status, headers, page)})
    record("outcome", {"run_id": run_id, "action_id": action_id, "status": "succeeded",
                       "capture_id": captured.get("id", ""), "detail": ""})
    return {"status": "succeeded", "capture_id": captured.get("id", ""), "detail": ""}
