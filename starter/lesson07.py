"""Lesson 7, your edit: the judgement a verdict is made by, and the plan for your finding.

The door records a finding only if its quote occurs in the capture it cites;
that proves the page said it once. A verdict says whether the claim holds up
when the lab is asked again. Write the rule the door judges by, as one
function of plain data:

    verdict_for(quote, expect, confirming, control) -> dict

* ``quote`` is the finding's quote, ``expect`` the text the check looks for;
* ``confirming`` and ``control`` are the two captures as data,
  ``{"status": 404, "body": "HTTP/1.1 404 Not Found\\n..."}`` (the body is the
  capture's whole text: status line, headers, a blank line, the page), or
  ``None`` when no capture was made (the act was refused, nothing was sent,
  or the request is in doubt).

It returns ``{"refused": reason}`` when the door must refuse the verdict, or
``{"verdict": ..., "reason": ...}`` with one of ``"confirmed"``, ``"refuted"``
and ``"inconclusive"`` and a reason in words (a refuted or confirmed verdict's
reason names the expected text and the confirming capture's HTTP status, so a
reader sees what was tested). What the answer must be, and why:

- refused, for an ``expect`` that is not a part of the quote, letter for
  letter: it tests something the finding never showed;
- inconclusive, with no confirming capture or one that is a server error (a
  status of 500 or more: the server did not answer the question): a claim
  nobody tested is not disproved;
- refuted, for a confirming capture that answered and lacks the evidence,
  whatever its status (a 404 lacks it as surely as a 200);
- confirmed, for a confirming capture that shows the evidence against a
  control that really ran (a capture, not a server error) and does not show
  it; inconclusive against any other control, since the check cannot then
  tell the weakness from its absence.

"Shows" means the text occurs somewhere in the capture's body, headers
included: a finding may quote a header.

Plan, too, the check of your own finding. Your tool ``inspect_metadata`` read
the about page, whose capture carries

    <meta name="generator" content="ExampleCMS 3.2.1">

and the run asserts a finding that quotes it. ``my_generator_check()``
returns the plan, one entry of the configuration's "verification" list
(data/policy/training-authorization-0001.json has two):

* ``confirm``: a confirming action on https://lab.example/about, an act
  distinct from the one the finding quotes;
* ``control``: a negative control on https://lab.example/contact, a page of
  the same site with meta tags but no generator;
* ``expect``: a part of the quote that the confirming capture must show and
  the control must not.

Each action is an object with exactly ``tool``, ``destination`` and
``arguments``. Keep ``claim`` and ``evidence`` as they are. The check runs
your plan through lesson 7's whole door (the catalogue: ``inspect_headers``,
``inspect_metadata`` and ``probe_reflection``; the operator's notes give the
run the observation ``has_meta``; the model proposes ``inspect_metadata`` at
/about, which the door selects and executes), and the door must confirm it.

The check runs your file in a process of its own, with the reference
verifier (core.run.verify) unavailable. Check your work with ``course check
7``; print what the door answers to your plan with ``python3
starter/lesson07_test.py``. Read the worked answer, ``solutions/lesson07.py``,
after your attempt.
"""

FINDING_ACT = "inspect_metadata -> https://lab.example:443/about"
QUOTE = '<meta name="generator" content="ExampleCMS 3.2.1">'


def verdict_for(quote: str, expect: str, confirming: dict | None, control: dict | None) -> dict:
    """The verdict the two captures support for ``expect``, or the door's refusal when it is not quoted."""
    raise NotImplementedError("TODO 1: judge the two captures by the rules above")


def my_generator_check() -> dict:
    """Your verification plan for the generator-disclosure finding."""
    return {
        "claim": "The about page names the CMS the site runs and its version, "
                 "ExampleCMS 3.2.1, in a generator meta tag, so anyone can look up "
                 "the known weaknesses of that version.",
        "evidence": {"action": FINDING_ACT, "quote": QUOTE},
        "confirm": None,  # TODO 2: {"tool", "destination", "arguments"} on /about
        "control": None,  # TODO 3: the same shape, on /contact
        "expect": "",  # TODO 4: a part of QUOTE the confirming capture shows and the control does not
    }
