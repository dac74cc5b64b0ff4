"""Lesson 6, your edit: an adapter that replays recorded responses.

An adapter is anything with one method, ``fetch(url) -> AdapterResult``
(core/run/execute.py). The executor hands it the URL of an act the door has
admitted, exactly as the door wrote its destination (``https://lab.example:443/about``,
with the port), and records what it returns. It never times, retries or
checks the adapter: the adapter is trusted to report what it really did.

Your adapter talks to no network. It answers from ``RECORDED``, a small table
of responses copied from the lab: the URL, then (status, headers, body).
A URL the table does not hold is an adapter error: ``fetch`` raises an
exception whose message names the URL, and the executor turns it into an
unresolved outcome. Your adapter must not make a response up for it.

Write ``ReplayAdapter.fetch``:

* a URL the table holds: return ``AdapterResult(status, headers, body)`` with
  the recorded status and body, and the headers as a tuple of
  ``(name, value)`` pairs (the table keeps them as a dict);
* any other URL: raise an ``Exception`` (``LookupError`` fits) that names the URL.

The run your check drives (starter/lesson06_test.py) is lesson 5's loop with
lesson 6's executor and your adapter, through lesson 6's door:

* the catalogue: ``inspect_headers`` (fam-recon, weight 2.0, cost 1.0) and
  your ``inspect_metadata`` (passive, requires ``has_meta``; fam-recon,
  weight 1.5, cost 1.0, lesson 5's worked answer); at most 4 actions;
* the model's first reply proposes ``inspect_headers`` at /about, /admin
  and /contact; its second, once the about page shows its generator tag,
  ``inspect_metadata`` at /about; later replies propose nothing;
* the door selects the header looks at /about, /admin and /contact, then
  ``inspect_metadata`` at /about, and then the action budget is spent.

The table has no response for /admin. Check your work with ``course check 6``;
print what the door recorded for each act with ``python3 starter/lesson06_test.py``;
read the worked answer, ``solutions/lesson06.py``, after your attempt.
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
        # TODO 1: a URL the table holds: return its status, headers and body
        #         as an AdapterResult
        # TODO 2: any other URL: raise an exception whose message names the URL
        raise NotImplementedError("ReplayAdapter.fetch is not written yet")
