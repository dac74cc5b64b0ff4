"""Wrong: answers from the about page's own version string instead of reading the markup.

A hurried student looks at the one page that has the tag and keys on what it says.

Kind: hard-codes the demo
Fails with: made from seed
Passed the check before lesson 4 was rebuilt: yes
"""


def read_has_meta(capture_text: str) -> bool | None:
    """True when the captured page's markup has a generator meta tag; else None."""
    return True if "ExampleCMS 3.2.1" in capture_text else None


def has_meta_observation(capture: dict) -> dict | None:
    """The has_meta observation to record for ``capture``, citing it; None when its page says nothing."""
    value = read_has_meta(capture["body"])
    if value is None:
        return None
    return {"run_id": capture["run_id"], "field": "has_meta", "value": value,
            "capture_id": capture["capture_id"]}
