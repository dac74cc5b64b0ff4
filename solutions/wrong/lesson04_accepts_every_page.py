"""Wrong: every page has the tag.

Kind: accepts everything
Fails with: not True or False
"""


def read_has_meta(capture_text: str) -> bool | None:
    """True when the captured page's markup has a generator meta tag; else None."""
    return True


def has_meta_observation(capture: dict) -> dict | None:
    """The has_meta observation to record for ``capture``, citing it; None when its page says nothing."""
    value = read_has_meta(capture["body"])
    if value is None:
        return None
    return {"run_id": capture["run_id"], "field": "has_meta", "value": value,
            "capture_id": capture["capture_id"]}
