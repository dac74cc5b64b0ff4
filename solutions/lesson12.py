"""Lesson 12, worked answer: a value traces to the user only when they wrote it whole.

Both sides are brought to one spelling before they are compared (NFKC, case
folded, the scheme and ``www.`` gone, white space made single spaces), so a
look-alike, a capital or a scheme is no way round the rule; the value alone
loses what may wrap it (quotes, brackets, a sentence's full stop). Whole
means a regular expression whose look-around refuses a name character on
either side, so one search finds any whole occurrence, not only the first
occurrence. A value of digits alone is looked for among the trusted values
only, since a number in a request's prose is a date or an amount.
"""

import re
import unicodedata

# What may wrap a value: stripped from both of its ends.
STRIP = " \t\n'\"`()[]{}<>.,;:!?/"
# Removed wherever they occur, each in turn as listed.
SCHEMES = ("https://", "http://", "www.")
# With letters, digits and _, these continue a name when they stand just before it.
BEFORE = ".%+@/-"
# With letters, digits and _, these continue it just after; "." or "/" only when a
# letter or digit follows.
AFTER = "@%+-"


# student writes: begin
def spelled(text: str) -> str:
    """``text`` in the one spelling both sides are compared in."""
    text = unicodedata.normalize("NFKC", text).casefold()
    for scheme in SCHEMES:
        text = text.replace(scheme, "")
    return " ".join(text.split())


def traces(value: str, sources: list[str], trusted: list[str]) -> bool:
    """Whether ``value`` occurs whole in the sources or trusted, spelled alike."""
    wanted = spelled(value).strip(STRIP)
    if not wanted:
        return True  # it names nothing
    if wanted.isdigit():
        sources = []  # a number in the request's prose is not an object's number
    before = rf"(?<![\w{re.escape(BEFORE)}])"
    after = rf"(?![\w{re.escape(AFTER)}])(?![./]\w)"
    whole = re.compile(before + re.escape(wanted) + after)
    return any(whole.search(spelled(text)) for text in [*sources, *trusted])
# student writes: end
