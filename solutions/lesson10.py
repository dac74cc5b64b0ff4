"""Lesson 10, worked answer: a pack, its report and a run belong together by digests.

Each link is one comparison of a digest computed here with a digest written
there, and nothing is taken from the files' say-so: a seal is checked by
sealing again, the report's pack_digest by digesting the pack in hand, the
pack's link by digesting the whole report. The run's section is compared as
a whole with the one a run under this pack, ratified, would write, so a
missing, extra or relabelled field breaks it. Answering at the first broken
link keeps the order the links rest on each other; CanonError is caught
where a digest is taken, since a report with no canonical form has no seal.
"""

from core.run.canon import CanonError, digest

LINKS = ("seal", "pack", "report", "run")  # each link rests on those before it
REPORT_FIELDS = ("pack_id", "pack_digest", "boundary_ids", "statement", "seal")
RATIFIED = "ratified"  # what a run under a ratified pack says of it


# student writes: begin
def first_broken_link(pack: dict, ratification: object, sealed: object = None) -> str:
    """The first of LINKS that does not hold between the three; "" when they belong."""
    if not isinstance(ratification, dict):
        return "seal"
    if sorted(ratification) != sorted(REPORT_FIELDS):
        return "seal"
    content = {key: value for key, value in ratification.items() if key != "seal"}
    try:
        if ratification["seal"] != digest(content):
            return "seal"
        whole = digest(ratification)
    except CanonError:  # a lone surrogate: no canonical bytes, so no seal can hold
        return "seal"
    ratified = digest({key: value for key, value in pack.items()
                       if key != "ratification_digest"})
    if ratification["pack_id"] != pack["pack_id"]:
        return "pack"
    if ratification["pack_digest"] != ratified:
        return "pack"
    if pack["ratification_digest"] != whole:
        return "report"
    if sealed is not None and sealed != {"pack_id": pack["pack_id"], "digest": ratified,
                                         "ratification": RATIFIED}:
        return "run"
    return ""
# student writes: end
