"""Lesson 8, your edit: two rows of the action taxonomy, and your run's caps.

Your operator extends the taxonomy (data/taxonomy/action_taxonomy.json) with two
classes of their own. Your check adds your two rows to a copy of the committed
table, as version 3, and runs them through lesson 8's real door.

1. ``recon.metadata``: the class your ``inspect_metadata`` tool now declares, so
   that metadata reads are counted apart from header looks. It only reads the
   meta tags of a page the lab serves, so it is not consequential and counts
   toward no trigger class. The run may read metadata three times without a
   review, and nobody may approve a fourth read: past its cap it must be denied,
   not held. It never proceeds on a stale view. It had no earlier name.

2. ``probe.form_submit``: the class of a fictional tool, ``submit_form``, which
   posts a harmless marker into one field of the lab's contact form (its
   arguments: ``field`` and ``marker``). A form submission changes what the site
   stores, so it is consequential and counts as ``active_testing``. Only the
   ``engagement-lead`` may approve it, one exact act at a time. It never fails
   open. It had no earlier name.

Every row declares all six keys, with no defaults: ``name``, ``trigger_class``
(a trigger class, or None for a class that is not consequential),
``consequential``, ``fail_open_allowed``, ``approver_role`` (a role, or None:
nobody may approve it) and ``legacy_aliases`` (a list of earlier names).

``my_caps()`` is the run's caps, per canonical class: how many acts of a class
that is not consequential run without a review.

Check your work with ``course check 8``; read the worked answer,
``solutions/lesson08.py``, after your attempt.
"""


def metadata_row() -> dict:
    """The taxonomy row of recon.metadata, the class inspect_metadata declares."""
    return {
        "name": "recon.metadata",
        "consequential": False,
        # TODO 1: declare every other key a row must declare
    }


def form_probe_row() -> dict:
    """The taxonomy row of probe.form_submit, the class submit_form declares."""
    return {
        "name": "probe.form_submit",
        "trigger_class": None,  # TODO 2: the trigger class it counts toward
        "consequential": False,  # TODO 3: must a person approve each form submission?
        "fail_open_allowed": False,
        "approver_role": None,  # TODO 4: who may approve it
        "legacy_aliases": [],
    }


def my_caps() -> dict:
    """The run's caps: canonical class -> acts that run without a review."""
    return {
        "recon.passive": 10,
        # TODO 5: the cap of recon.metadata
    }
