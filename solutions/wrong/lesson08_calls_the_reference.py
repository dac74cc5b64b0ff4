"""Wrong: hands the decision to the reference gate, imported under another spelling.

Kind: reads the reference
Fails with: core.run.gate is unavailable while the check runs
"""

import importlib


def decide(table: dict, caps: dict, act: dict, used: dict, reviews: list) -> dict:
    """The gate's verdict for ``act``: allow, hold or deny, with its class, trigger and reason."""
    gate = importlib.import_module("core.run." + "gate")
    taxonomy = importlib.import_module("core.run." + "taxonomy")
    parsed = taxonomy.parse_table(table)
    gating = gate.Gating(parsed.version, parsed, caps, ())
    state = gate.GateState(used=dict(used))
    subject = gate.act_subject(act["action_id"], act["arguments"])
    decision = gate.decide(gating, act["declared"], act["action_id"], subject, state)
    return {"verdict": decision.verdict, "action_class": decision.action_class,
            "trigger_class": decision.trigger_class, "reason": decision.reason}
