"""Wrong: hands the page to the reference reader instead of writing one.

Kind: reads the reference
Fails with: core.run.observe is unavailable while the check runs
Passed the check before lesson 4 was rebuilt: yes
"""

import importlib


def read_has_meta(capture_text: str) -> bool | None:
    """True when the captured page's markup has a generator meta tag; else None."""
    observe = importlib.import_module("core.run.observe")
    headers, page = observe.split_response(capture_text)
    return observe.read_has_meta(headers, page)


def has_meta_observation(capture: dict) -> dict | None:
    """The has_meta observation to record for ``capture``, citing it; None when its page says nothing."""
    value = read_has_meta(capture["body"])  # whatever the reference read, cited
    return None if value is None else {**{k: capture[k] for k in ("run_id", "capture_id")}, "field": "has_meta",
                                       "value": value}
