"""Lesson 4, your edit: make ``inspect_metadata`` eligible.

In lesson 2 you declared ``inspect_metadata``, which ``requires`` the observed
field ``has_meta`` to be ``True``. Until something observes that field, the
door refuses every proposal of the tool. Write the observer that supplies it.

1. ``read_has_meta(capture_text)`` takes a capture's text (the status line,
   the headers, a blank line, the page) and returns ``True`` when the page's
   markup carries a generator meta tag, ``<meta name="generator" ...>``, and
   ``None`` when it does not:

   - read the page with an HTML parser (``html.parser.HTMLParser``), not a
     text search: a tag written inside an HTML comment (``<!-- ... -->``) is
     not a tag, and letter case and attribute order do not matter;
   - only the page counts, not the headers: ``split_response`` in
     ``core/run/observe.py`` splits a capture's text into the two;
   - answer ``None``, not ``False``, for a page without the tag: one page
     without it is no evidence that the site has none.

2. ``observe_has_meta(door, capture_id)`` reads the capture the door holds
   under ``capture_id`` (``door.get("capture", capture_id)["body"]``), and
   when ``read_has_meta`` finds the tag, records the observation ``has_meta``
   through the door, citing the capture: a payload with ``run_id``,
   ``field``, ``value`` and ``capture_id``. It returns the door's answer, or
   ``None`` when the page says nothing (then nothing is recorded).

Write both yourself: core's own reader (``core.run.observe``) is the answer
to read after your attempt, not to import.

``build_policy()`` restates lesson 2's finished policy, so that this lesson
stands on its own. To carry your own policy forward instead, replace its
body with these two lines (``course check 4`` then loads your lesson 2 file):

    from course.target import load_lesson
    return load_lesson(2).build_my_policy()

Check your work with ``course check 4`` (or
``python3 -m pytest starter/lesson04_test.py -q``). The worked answer is
``solutions/lesson04.py``: read it after your attempt.
"""

from core.run.observe import split_response  # noqa: F401  (you will need it)
from core.run.policy import Policy
from core.run.recorder import Recorder


def read_has_meta(capture_text: str) -> bool | None:
    """True when the captured page's markup has a generator meta tag; else None."""
    raise NotImplementedError("TODO 1: read the page's markup for a generator meta tag")


def observe_has_meta(door: Recorder, capture_id: str) -> dict | None:
    """Record has_meta from capture ``capture_id``; None when the page says nothing."""
    raise NotImplementedError("TODO 2: record what read_has_meta finds, citing it")


def build_policy() -> Policy:
    """Lesson 2's finished policy, restated."""
    return Policy.from_dict(
        {
            "reference": "training-authorization-0042",
            "allowed_origins": ["https://lab.example:443"],
            "tools": [
                {"tool_id": "inspect_headers", "activity": "passive", "requires": {},
                 "family": "fam-recon", "weight": 2.0, "cost": 1.0},
                {"tool_id": "inspect_metadata", "activity": "passive",
                 "requires": {"has_meta": True}, "family": "fam-recon",
                 "weight": 1.5, "cost": 1.0},
            ],
            "max_actions": 4,
            "max_model_calls": 4,
        }
    )
