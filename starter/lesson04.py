"""Lesson 4, your edit: the observer that makes ``inspect_metadata`` eligible.

In lesson 2 you declared ``inspect_metadata``, which ``requires`` the observed
field ``has_meta`` to be ``True``. Until something observes that field, the
door refuses every proposal of the tool. Write the observer that supplies it,
as two functions of plain data (the check records what you return through its
own door):

``read_has_meta(capture_text)`` takes a capture's text (the status line, the
headers, a blank line, the page) and must answer ``True`` when the page's
markup carries a generator meta tag, ``<meta name="generator" ...>``, in any
letter case and attribute order, and ``None`` for every other page:

- a page is written by whoever runs the site, so only a real tag counts: not
  one inside a comment, not words in the page text that look like a tag, not
  one inside an element read as text (``title``, ``textarea``, ``xmp``,
  ``iframe``, ``noembed``, ``noframes``, ``script``, ``style``), which opens
  even where its tag is written as if it closed itself (``<title/>``: in HTML
  only void elements such as ``meta`` close themselves);
- a tag that writes an attribute twice has the first one only, as a browser
  reads it (the later ones are dropped): ``<meta name="other" name="generator">``
  is no generator tag;
- only the page counts, not the headers: ``split_response`` in
  ``core/run/observe.py`` splits a capture's text into the two, and is the one
  name of that module you may import (the check blocks the rest);
- ``None``, not ``False``, for a page without the tag: one page without it is
  no evidence that the site has none.

``has_meta_observation(capture)`` takes a capture as the door holds it, a dict
with the keys ``run_id``, ``action_id``, ``status``, ``body`` (the capture's
text) and ``capture_id``, and must answer the observation to record when its
page carries the tag: a payload with the keys ``run_id``, ``field``
(``"has_meta"``), ``value`` and ``capture_id``, citing that capture, so the
fact leads back to the bytes it was read from. For a page that says nothing it
answers ``None``, and nothing is recorded.

The check runs your file in a process of its own, with the reference
observer (``core.run.observe``) unavailable: it is the answer to read after
your attempt. Check your work with ``course check 4`` (or
``python3 -m pytest starter/lesson04_test.py -q``). The worked answer is
``solutions/lesson04.py``: read it after your attempt.
"""

from core.run.observe import split_response  # noqa: F401  (you will need it)


def read_has_meta(capture_text: str) -> bool | None:
    """True when the captured page's markup has a generator meta tag; else None."""
    raise NotImplementedError("TODO 1: read the page's markup for a generator meta tag")


def has_meta_observation(capture: dict) -> dict | None:
    """The has_meta observation citing ``capture``; None when its page says nothing."""
    raise NotImplementedError("TODO 2: the observation read_has_meta finds, citing its capture")
