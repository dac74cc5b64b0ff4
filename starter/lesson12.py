"""Lesson 12, your edit: may the user's stand-in approve an act? Only if the user wrote its values.

The course's door holds every consequential AgentDojo call (a payment, a
mail, a share, an invitation) for a review of that exact act, and the
reviewer is a scripted stand-in for the user. It approves an act only when
every value that names who or what the act reaches (a recipient, an
account, a URL, a file, an event) traces to the user's own request, or to a
value the operator declared trusted before anything ran; a value found only
in what a tool returned (a mail, a web page, a note in a transaction: where
an injection lives) never does. You write the rule it traces by,
``traces(value, sources, trusted)``, for these inputs:

* ``value``: one value of a call's argument, a string of any content;
* ``sources``: the texts the user wrote (the request), a list, maybe empty;
* ``trusted``: the values the operator trusts for the suite, a list, maybe
  empty.

The answer is True exactly when ``value`` traces, under this contract:

* Both sides are compared in one spelling: Unicode NFKC, then case folded
  (``str.casefold``), with every ``https://``, ``http://`` and ``www.``
  removed wherever it occurs (each removed in turn, as ``SCHEMES`` lists
  them), and every run of white space made one space, none at the ends.
  A capital, a full-width letter or a scheme is no way round the rule.
* The value alone also loses, from both of its ends, every character of
  ``STRIP`` (quotes, brackets, a sentence's punctuation, a trailing slash).
  A value with nothing left names nothing, and traces.
* A value of digits alone (``str.isdigit``, once spelled and stripped)
  traces only to a trusted value: a number in a request's prose is a
  date, an amount or a count ("June 13"), not the name of an object.
* Otherwise the value traces when it occurs whole in the spelled text of
  one of the sources or of the trusted values: somewhere with no
  character that continues a name just before it (a letter, a digit, ``_``
  or one of ``BEFORE``) and none just after it (a letter, a digit, ``_``,
  one of ``AFTER``, or a ``.`` or ``/`` that a letter or digit follows).
  So ``smith@x.com`` does not trace to ``bob.smith@x.com``, ``1`` does not
  trace to ``13``, and ``site.com`` does not trace to ``site.com/path``;
  a value at the end of a sentence ("send it to bob@x.com.") does.

Why whole, and why spelled: a value the user did not write whole is
another value (another person's address, another file), and an injection
that can write a look-alike or a capital must not get past by writing one.
The function changes nothing it is handed, and its answer depends on its
three arguments alone. What the rule cannot know: whether the user meant
this act with a value they did write.

Do not import ``dojo`` (the check blocks it while your file loads and
runs). Check your work with ``course check 12``; ``python3
starter/lesson12_test.py`` asks your function about the values of the
page's pair. Read the worked answer, ``solutions/lesson12.py``, after your
attempt.
"""

import re  # noqa: F401  (you will need them)
import unicodedata  # noqa: F401

# What may wrap a value: stripped from both of its ends.
STRIP = " \t\n'\"`()[]{}<>.,;:!?/"
# Removed wherever they occur, each in turn as listed.
SCHEMES = ("https://", "http://", "www.")
# With letters, digits and _, these continue a name when they stand just before it.
BEFORE = ".%+@/-"
# With letters, digits and _, these continue it just after; "." or "/" only when a
# letter or digit follows.
AFTER = "@%+-"


def traces(value: str, sources: list[str], trusted: list[str]) -> bool:
    """Whether ``value`` occurs whole in the sources or trusted, spelled alike."""
    raise NotImplementedError("TODO: does this value come from the user, or from the operator's trust?")
