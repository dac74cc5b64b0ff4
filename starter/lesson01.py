"""Lesson 1, your edit: answer questions about a sealed report from its JSON alone.

Each function takes ``report``, a finished report as ``json.load`` gives it
(``data/course/report.json`` is one), and answers one question about it.
Read the answer out of the report: ``course check 1`` runs your functions on
the committed report AND on a second report, made from an edited copy of the
lab, so an answer typed in by hand cannot pass.

1. ``run_id(report)``: the run identifier, the text in the report's ``run`` section.
2. ``refusal_reasons(report)``: the ``reason`` of every event whose ``status``
   is ``"refused"``, in ledger order (the order of ``report["events"]``).
3. ``findings_by_verdict(report)``: a dict from each verdict that occurs
   (``"confirmed"``, ``"refuted"``, ...) to the list of ``claim`` texts of the
   findings with that verdict, in the order of ``report["findings"]``.
4. ``consequential_acts(report)``: one tuple ``(act, reviewer, decision)`` per
   review in ``report["reviews"]`` whose ``subject_id`` names an act (it has
   ``" -> "`` in it), in the order of the reviews. ``act`` is that subject_id
   exactly: the act's identity and the digest of its arguments.
5. ``first_event_in_stage(report, stage)``: the ``seq`` of the first event
   recorded while the run was in ``stage``, or ``None`` if the run never
   entered it. A run starts in ``"authorize"``; an admitted event of kind
   ``"transition"`` with the id ``"<from> -> <to>"`` is recorded in the stage
   it leaves, and every event after it is in ``<to>``.

Check your work with ``course check 1``
(or ``python3 -m pytest starter/lesson01_test.py -q``).
The worked answer is ``solutions/lesson01.py``: read it after your attempt.
"""


def run_id(report: dict) -> str:
    raise NotImplementedError("TODO 1: return the run identifier")


def refusal_reasons(report: dict) -> list[str]:
    raise NotImplementedError("TODO 2: list every refusal's reason, in ledger order")


def findings_by_verdict(report: dict) -> dict[str, list[str]]:
    raise NotImplementedError("TODO 3: group the findings' claims by their verdict")


def consequential_acts(report: dict) -> list[tuple[str, str, str]]:
    raise NotImplementedError("TODO 4: list (act, reviewer, decision) per reviewed act")


def first_event_in_stage(report: dict, stage: str) -> int | None:
    raise NotImplementedError("TODO 5: find the first event recorded in this stage")
