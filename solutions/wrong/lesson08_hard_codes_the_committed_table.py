"""Wrong: knows the committed table's verdicts by heart, and ignores the table it is given.

Each committed class (and each of its old names) has the verdict a first act
of it gets in the reference run; anything else is denied as unclassified. On
a table the check makes for the run, every class is one it has never heard of.

Kind: hard-codes the demo
Fails with: runs (allow) while it has used fewer acts than its cap
"""

KNOWN = {
    "recon.passive": ("allow", None), "passive": ("allow", None),
    "recon.enumerate": ("hold", None),
    "probe.active_light": ("hold", "active_testing"), "active": ("hold", "active_testing"),
    "probe.active_intrusive": ("hold", "active_testing"),
    "exploit.attempt": ("deny", "exploitation"), "exploit": ("deny", "exploitation"),
    "data.exfiltrate": ("deny", "data_handling"),
    "report.publish": ("hold", "disclosure"), "publish": ("hold", "disclosure"),
}
CANONICAL = {"passive": "recon.passive", "active": "probe.active_light", "exploit": "exploit.attempt",
             "publish": "report.publish"}


def decide(table: dict, caps: dict, act: dict, used: dict, reviews: list) -> dict:
    """The gate's verdict for ``act``: allow, hold or deny, with its class, trigger and reason."""
    declared = act["declared"]
    verdict, trigger = KNOWN.get(declared, ("deny", "unclassified"))
    name = CANONICAL.get(declared, declared) if declared in KNOWN else "unclassified"
    return {"verdict": verdict, "action_class": name, "trigger_class": trigger, "reason": "as in the demo"}
