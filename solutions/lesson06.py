"""Lesson 6, worked answer: replay a recorded response, or raise an error naming it.

``fetch`` does three things and no more. It looks the URL up exactly as the
executor sent it: no guessing at another spelling, since the door already
canonicalized the destination. It turns the table's header dict into the
``(name, value)`` pairs an ``AdapterResult`` carries. And for a URL the table
does not hold it raises ``LookupError`` with the URL in its message, so the
executor's unresolved outcome says which request had no answer.

It does not catch anything, log anything or invent a response: reporting
what happened is the adapter's whole job, and recording it is the door's.
"""

from core.run.execute import AdapterResult

HTML = "text/html; charset=utf-8"

RECORDED = {
    "https://lab.example:443/about": (
        200,
        {"Content-Type": HTML},
        '<!doctype html>\n<html lang="en">\n<head>\n'
        '  <meta name="generator" content="ExampleCMS 3.2.1">\n'
        "  <title>About us - Lab Example Garden Supplies</title>\n</head>\n"
        "<body>\n  <h1>About us</h1>\n</body>\n</html>\n",
    ),
    "https://lab.example:443/contact": (
        200,
        {"Content-Type": HTML},
        '<!doctype html>\n<html lang="en">\n<head>\n'
        '  <meta name="description"'
        ' content="How to reach Lab Example Garden Supplies">\n'
        "  <title>Contact - Lab Example Garden Supplies</title>\n</head>\n"
        "<body>\n  <h1>Contact</h1>\n</body>\n</html>\n",
    ),
}


class ReplayAdapter:
    """An adapter that answers each URL from a table of recorded responses."""

    def __init__(self, recorded: dict | None = None):
        self.recorded = RECORDED if recorded is None else recorded

    def fetch(self, url: str) -> AdapterResult:
        """The response recorded for ``url``; none recorded is an adapter error."""
        if url not in self.recorded:
            raise LookupError(f"no recorded response for {url}")
        status, headers, body = self.recorded[url]
        return AdapterResult(status, tuple(headers.items()), body)
