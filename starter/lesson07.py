"""Lesson 7, your edit: plan how the generator-disclosure finding is tested.

Your fictional tool ``inspect_metadata`` read the about page, and its capture
carries the line

    <meta name="generator" content="ExampleCMS 3.2.1">

The run asserts a finding that quotes it: the site names its CMS and version.
The door already checked that the quote occurs verbatim in the capture. That
proves the page said it once; it does not prove the claim. Your job is the
plan that tests it, in the shape of one entry of the configuration's
"verification" list (data/policy/training-authorization-0001.json has two):

* ``confirm``: a confirming action on https://lab.example/about, an act
  distinct from the one the finding quotes, whose capture should show the
  evidence again if the claim is true;
* ``control``: a negative control on https://lab.example/contact, a
  look-alike page of the same site that has meta tags but no generator, whose
  capture must not show the evidence;
* ``expect``: the text the confirming capture must show and the control must
  not. Choose it so that it tells the two pages apart.

Each action is an object with exactly ``tool``, ``destination`` and
``arguments``, like the "confirm" entries in the configuration. Keep
``claim`` and ``evidence`` as they are.

The run your check drives (starter/lesson07_test.py), through lesson 7's whole
door, against the lab in process:

* the catalogue: ``inspect_headers`` and ``inspect_metadata`` (passive, no
  arguments) and ``probe_reflection``; at most 6 actions;
* the operator's scoping notes already say the about page carries a generator
  tag, so the run starts with the observation ``has_meta`` = True (the
  operator's own fact, recorded at authorize, citing no capture);
* the model proposes ``inspect_metadata`` at /about, the door selects it and
  executes it; nothing else on the site has been looked at;
* then the run enters verify, asserts the finding and runs your plan: the
  confirming action, the control and the verdict the door judges.

Check your work with ``course check 7``; print what the door answered to your
plan with ``python3 starter/lesson07_test.py``. Read the worked answer,
``solutions/lesson07.py``, after your attempt.
"""

FINDING_ACT = "inspect_metadata -> https://lab.example:443/about"
QUOTE = '<meta name="generator" content="ExampleCMS 3.2.1">'


def my_generator_check() -> dict:
    """Your verification plan for the generator-disclosure finding."""
    return {
        "claim": "The about page names the CMS the site runs and its version, "
                 "ExampleCMS 3.2.1, in a generator meta tag, so anyone can look up "
                 "the known weaknesses of that version.",
        "evidence": {"action": FINDING_ACT, "quote": QUOTE},
        "confirm": None,  # TODO 1: {"tool", "destination", "arguments"} on /about
        "control": None,  # TODO 2: the same shape, on /contact
        "expect": "",  # TODO 3: shown by the confirming capture, not by the control
    }
