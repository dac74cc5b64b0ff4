"""Safety packs (lesson 10): the boundaries the harness keeps in every run.

``pack`` loads the one always-loaded pack and refuses to start without it,
``ratify`` seals the report that ratifies it, and ``check`` looks at a run
and says, boundary by boundary, what was upheld, what was violated and what
could not be judged at runtime.
"""

from core.safety.check import BoundaryResult, Judgement, SafetyCheck, SafetyContext, SafetyReport, verdict_for
from core.safety.pack import (
    DEFAULT_SAFETY_PACK,
    OVERRIDE_ENV,
    SafetyPack,
    SafetyPackError,
    load_safety_pack,
    pack_as_sealed,
)


def safety_sections(door, given) -> dict:
    """Lesson 10's sections of a report: the pack the run was judged against, and the check's verdict.

    ``given["pack"]`` is the pack: the one loaded at start-up when the report
    is built, the one the report names when it is verified again. The run is
    judged under the taxonomy table its gate used.
    """
    pack = given["pack"]
    tools = {tool.tool_id: tool.activity for tool in door.policy.tools}
    return {"safety_pack": pack.summary(),
            "safety": verdict_for(door.snapshot(), tools, pack, door.parts["gating"].table)}


__all__ = [
    "DEFAULT_SAFETY_PACK",
    "OVERRIDE_ENV",
    "BoundaryResult",
    "Judgement",
    "SafetyCheck",
    "SafetyContext",
    "SafetyPack",
    "SafetyPackError",
    "SafetyReport",
    "load_safety_pack",
    "pack_as_sealed",
    "safety_sections",
    "verdict_for",
]
