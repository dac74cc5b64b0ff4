"""The event numbers written in pages' prose (and a notebook's) are the events of the runs they describe.

A page's console outputs are compared with real runs; the sentences around them are
not. When the reference run gained events, lesson 1's prose kept the old numbers (the run
"closed at event 185" above a ledger of 189 events). Each row of ``CLAIMS`` names a page,
the words around one or more numbers, the committed artifact they describe and the events
those numbers must be, read from it; a row whose words are no longer on its page fails
too, so a reworded sentence is looked at again rather than left unchecked. A number in
prose that no row names is not checked.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from course.predictions import notebook_text
from tlog.forgery import forge

REPO = Path(__file__).resolve().parent.parent
LESSON_1 = "lessons/01-read-a-finished-report.md"
LESSON_9 = "lessons/09-finish-abort-sealed-report.md"
LESSON_10 = "lessons/10-safety-packs-and-audit-replay.md"
NOTEBOOK_9 = "notebooks/lesson09.ipynb"


def artifact(name: str) -> dict:
    return json.loads((REPO / "data" / "course" / name).read_text(encoding="utf-8"))


REPORT = artifact("report.json")
INTACT, TRUNCATED = artifact("tamper/intact.json"), artifact("tamper/truncated.json")


def refused(code: str) -> Callable[[dict], list[int]]:
    return lambda report: [event["seq"] for event in report["events"] if event.get("code") == code]


def held(*, then_denied: bool) -> Callable[[dict], list[int]]:
    """The held acts whose exact act was later denied (with the denial), or the others."""
    def seqs(report: dict) -> list[int]:
        act = lambda event: (event["payload"]["destination"], json.dumps(event["payload"]["arguments"]))
        denied = {act(event): event["seq"] for event in report["events"] if event.get("code") == "denied"}
        found = []
        for event in report["events"]:
            if event.get("code") == "held_for_review" and (act(event) in denied) == then_denied:
                found += [event["seq"], denied[act(event)]] if then_denied else [event["seq"]]
        return found
    return seqs


def the_close(report: dict) -> list[int]:
    return [event["seq"] for event in report["events"] if event["kind"] == "close"]


def the_404_capture(report: dict) -> list[int]:
    return [event["seq"] for event in report["events"]
            if event["kind"] == "capture" and event["payload"].get("status") == 404]


def prose(path: str) -> str:
    """A page's text, or a notebook's cells and outputs."""
    text = (REPO / path).read_text(encoding="utf-8")
    return notebook_text(json.loads(text)) if path.endswith(".ipynb") else text


def count(report: dict) -> list[int]:
    return [len(report["events"])]


def the_first_missing(report: dict) -> list[int]:
    return [len(report["events"]) + 1]


CLAIMS = [  # (page, the words around the numbers, the report they describe, what they must be)
    (LESSON_1, r"`finished`, at event (\d+)\.", REPORT, the_close),
    (LESSON_1, r"\| (\d+) \| a proposal too early \|", REPORT, refused("unobserved_requirement")),
    (LESSON_1, r"\| (\d+) \| a tool nobody declared \|", REPORT, refused("unknown_tool")),
    (LESSON_1, r"\| (\d+) \| a probe smuggled through a passive tool \|", REPORT, refused("bad_arguments")),
    (LESSON_1, r"\| (\d+) \| the injected destination \|", REPORT, refused("out_of_scope")),
    (LESSON_1, r"Event (\d+) is the one to remember", REPORT, refused("out_of_scope")),
    (LESSON_1, r"\| (\d+) \| a malformed reply \|", REPORT, refused("reply_not_json")),
    (LESSON_1, r"\| (\d+) \| a reply of the wrong shape \|", REPORT, refused("reply_wrong_shape")),
    (LESSON_1, r"\| ([\d, ]+) \| consequential acts, held \|", REPORT, held(then_denied=False)),
    (LESSON_1, r"\| ([\d, ]+) \| a consequential act, held, then denied \|", REPORT, held(then_denied=True)),
    (LESSON_1, r"\| (\d+) \| nothing left to select \|", REPORT, refused("nothing_to_select")),
    (LESSON_1, r"follow: event (\d+), the capture you changed", REPORT, the_404_capture),
    (LESSON_1, r"the ledger is still (\d+) events long", REPORT, count),
    (LESSON_10, r"did not parse\s+\(events (\d+) and (\d+)\)", REPORT,
     lambda report: refused("reply_not_json")(report) + refused("reply_wrong_shape")(report)),
    (LESSON_10, r"Event (\d+) is\s+the injection from lesson 4", REPORT, refused("out_of_scope")),
    (LESSON_10, r"Of the reference run's (\d+) events, (\d+) are gone", REPORT,
     lambda report: count(report) + [len(report["events"]) - len(forge(report)["events"])]),
    (LESSON_9, r"verify named event (\d+), the first event its seal covers", TRUNCATED, the_first_missing),
    (NOTEBOOK_9, r"verify named event (\d+), the first event its seal covers", TRUNCATED, the_first_missing),
    (LESSON_9, r"its seal counts the (\d+) events\s+it holds", TRUNCATED, count),
    (LESSON_9, r"Event (\d+) was the close, and it went with the cut", INTACT, the_close),
]


@pytest.mark.parametrize("page, words, report, events", CLAIMS, ids=[words for _, words, _, _ in CLAIMS])
def test_an_event_number_in_a_pages_prose_is_the_event_it_describes(page, words, report, events):
    found = re.findall(words, prose(page))
    assert len(found) == 1, f"{page}: {words!r} is on the page {len(found)} times, not once"
    named = found[0] if isinstance(found[0], tuple) else (found[0],)
    numbers = [int(number) for group in named for number in re.findall(r"\d+", group)]
    assert numbers == events(report), f"{page}: {words!r} names events {numbers}, the report's are {events(report)}"


def test_the_rows_cover_every_refusal_lesson_1s_table_lists():
    """The refusal table's rows name every refused event of the reference run, each once."""
    page = prose(LESSON_1)
    table = page[page.index("| event | what was refused |"):]
    table = table[:table.index("\n\n")]
    listed = [int(number) for row in table.splitlines()[2:] for number in re.findall(r"\d+", row.split("|")[1])]
    refusals = [event["seq"] for event in REPORT["events"] if event["status"] == "refused"]
    assert sorted(listed) == refusals
