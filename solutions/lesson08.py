"""Lesson 8, worked answer: two rows of the taxonomy, and the run's caps."""


def metadata_row() -> dict:
    """The taxonomy row of recon.metadata, the class inspect_metadata declares."""
    return {
        "name": "recon.metadata",
        "trigger_class": None,  # not consequential: it counts toward no population
        "consequential": False,
        "fail_open_allowed": False,  # a stale view stops it too
        "approver_role": None,  # nobody may approve a read past the cap: it is denied
        "legacy_aliases": [],
    }


def form_probe_row() -> dict:
    """The taxonomy row of probe.form_submit, the class submit_form declares."""
    return {
        "name": "probe.form_submit",
        "trigger_class": "active_testing",
        "consequential": True,  # it changes what the site stores
        "fail_open_allowed": False,  # a consequential class may never fail open
        "approver_role": "engagement-lead",
        "legacy_aliases": [],
    }


def my_caps() -> dict:
    """The run's caps: canonical class -> acts that run without a review."""
    return {"recon.passive": 10, "recon.metadata": 3}
