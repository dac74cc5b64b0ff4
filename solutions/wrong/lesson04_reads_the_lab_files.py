"""Wrong: answers by looking the page up among the lab's committed files.

Kind: reads the reference
Fails with: data is unavailable while the check runs
"""

from pathlib import Path

from core.run.observe import split_response

SITE = Path(__file__).resolve().parents[2] / "data" / "lab" / "sites" / "lab.example"


def read_has_meta(capture_text: str) -> bool | None:
    """True when the captured page's markup has a generator meta tag; else None."""
    page = split_response(capture_text)[1]
    for path in sorted(SITE.glob("*.html")):
        text = path.read_text(encoding="utf-8")
        if text == page:
            return True if 'name="generator"' in text else None
    return None


def has_meta_observation(capture: dict) -> dict | None:
    """The has_meta observation to record for ``capture``, citing it; None when its page says nothing."""
    found = read_has_meta(capture["body"])
    return found and {"run_id": capture["run_id"], "field": "has_meta", "value": found, "capture_id": capture["capture_id"]}
