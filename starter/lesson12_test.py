"""Lesson 12 completion test: your traces beside the stand-in's rule, on AgentDojo's own calls and the contract's edges.

data/course/dojo-calls.json holds every value a consequential call of an
AgentDojo ground truth reaches with (python -m dojo.calls wrote it), each
user task's request and each suite's trusted values; the check reads it here,
in its own process, and asks your function about each value against its own
task's request, and about each injection's value against every request of
its suite. Then it asks the edge classes of the contract, listed below as
data, with values and requests drawn from a seed it shows in any failure
(`COURSE_SEED=N course check 12` asks them again). Each answer is compared
with the rule's (dojo/provenance.py:traces, in this process). Your file runs
in a process of its own (course/student.py), with the dojo package and the
committed data out of its reach. By default this checks starter/lesson12.py;
`course check 12` shows each result.
"""

from __future__ import annotations

import functools
import json
import sys
import textwrap

from course.differ import Edge, Rule, compare
from course.manifest import course_root
from course.student import Student
from course.target import load_lesson
from dojo.provenance import STRIP, normalised
from dojo.provenance import traces as rule_traces

yours = Student(12, names=("traces",), blocked=("dojo",), unreadable=("data/course", "data/dojo"),
                why="it is the reference of the provenance check lesson 12 asks you to write yourself")

CALLS = json.loads((course_root() / "data" / "course" / "dojo-calls.json").read_text(encoding="utf-8"))["suites"]
PAIR = ("banking", "user_task_3", "injection_task_4")  # the page's pair

# The contract's rule for each answer, in fixed words: a failing row says the one its expected answer stands on.
RULES = {
    "nothing": "a value with nothing left once it is spelled and its wrapping stripped names nothing, and traces",
    "digits": "a value of digits alone traces only to a trusted value, never to a number in the request's prose",
    True: "a value traces when, with both sides spelled alike (NFKC, case folded, no scheme or www., single "
          "spaces), it occurs whole in the request or a trusted value",
    False: "a value traces only when, with both sides spelled alike, it occurs whole (no name character running "
           "on either side) in the request or a trusted value; this one does not",
}


# --- questions: (value, sources, trusted, what it is), the last shown in a row, never sent ----------------------


def _question(value: str, sources: list[str], trusted: list[str] = (), what: str = "") -> tuple:
    return value, list(sources), list(trusted), what


@functools.cache
def own_calls() -> tuple[tuple, ...]:
    """Each value a user task's ground truth reaches with, against its own request and its suite's trusted values."""
    found = []
    for suite, data in CALLS.items():
        for item in data["values"]:
            if item["kind"] == "user":
                what = f"{suite} {item['task']}'s {item['tool']}({item['argument']}) against its own request"
                found.append(_question(item["value"], [data["requests"][item["task"]]], data["trusted"], what))
    return tuple(found)


@functools.cache
def injected_calls() -> tuple[tuple, ...]:
    """Each value an injection task's ground truth reaches with, against every request of its suite."""
    found = []
    for suite, data in CALLS.items():
        for item in data["values"]:
            if item["kind"] == "injection":
                for task, request in data["requests"].items():
                    what = f"{suite} {item['task']}'s {item['tool']}({item['argument']}) against {task}'s request"
                    found.append(_question(item["value"], [request], data["trusted"], what))
    return tuple(found)


ADDRESSES = ("bob.smith@example.com", "mark.black-2134@gmail.com", "emma.johnson@bluesparrowtech.com",
             "john.mitchell@gmail.com", "alice+news@team-site.org", "eve@evil.ch")
SITES = ("team-site.com/notes", "www.informations.com", "dora-website.com", "secure-systems-252.com/login",
         "example.org/a/b")
ACCOUNTS = ("GB29NWBK60161331926819", "US133000000121212121212", "DE89370400440532013000")
NAMES = ("Le Marais Boutique", "Bob", "general", "hawaii-packing-list.docx", "Riverside View Hotel", "Dora")
EVERY = ADDRESSES + SITES + ACCOUNTS + NAMES
SAYING = ("Please send the summary to {}", "Pay the rent to {} today", "Invite {} to the channel",
          "Book {} for two nights, thanks", "Share the file with {} and with the team")


def said(name: str, how: int = 0) -> str:
    return SAYING[how % len(SAYING)].format(name)


def cased(name: str, how: int) -> str:
    return (str.upper, str.swapcase, str.title, str.lower,
            lambda text: "".join(c.upper() if i % 2 else c for i, c in enumerate(text)))[how % 5](name)


CASE = [_question(cased(name, how), [said(name, how)]) for how, name in enumerate(EVERY)] + [
    _question(name, [said(cased(name, how), how)]) for how, name in enumerate(EVERY[::3])] + [
    _question("strasse@bahn.de", ["Mail Straße@Bahn.de about it"]),
    _question("STRASSE@BAHN.DE", ["Mail straße@bahn.de about it"]),
    _question("ſtreet", ["the Street file"]),
    _question("ΣΊΣΥΦΟΣ", ["invite Σίσυφος today"]),
    _question("İstanbul", ["book a hotel in istanbul"]),
]


def drawn_case():
    from hypothesis import strategies as st

    return st.builds(lambda name, how, side: [_question(cased(name, how), [said(name, how)]) if side else
                                              _question(name, [said(cased(name, how), how)])],
                     st.sampled_from(EVERY), st.integers(0, 9), st.booleans())


def spaced(name: str, gap: str) -> str:
    return gap.join(name.split(" ")) if " " in name else f"{gap}{name}{gap}"


GAPS = ("  ", "\t", "\n", " \t\n ", "\r\n", "\u2003")
SPACE = [_question(spaced(name, gap), [said(name, how)]) for how, (name, gap) in
         enumerate((name, gap) for name in NAMES for gap in GAPS[:3])] + [
    _question(name, [said(spaced(name, gap), how)]) for how, (name, gap) in
    enumerate((name, gap) for name in NAMES for gap in GAPS[2:])] + [
    _question("Le Marais Boutique", ["book LeMarais Boutique"]),
    _question("LeMarais Boutique", ["book Le Marais Boutique"]),
]


def drawn_space():
    from hypothesis import strategies as st

    return st.builds(lambda name, gap, how, side: [_question(spaced(name, gap), [said(name, how)]) if side else
                                                   _question(name, [said(spaced(name, gap), how)])],
                     st.sampled_from(EVERY), st.sampled_from(GAPS), st.integers(0, 9), st.booleans())


def wide(text: str) -> str:
    """Full-width forms of ASCII letters, digits and signs, which NFKC folds back."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


LOOK_ALIKE = [_question(wide(name), [said(name, how)]) for how, name in enumerate(EVERY)] + [
    _question(name, [said(wide(name), how)]) for how, name in enumerate(EVERY[1::2])] + [
    _question("ﬁle-report.pdf", ["append to file-report.pdf"]),
    _question("file²", ["open file2 please"]),
    _question("Le\u00a0Marais Boutique", ["book Le Marais Boutique"]),
    _question("bоb@example.com", ["mail bob@example.com"]),  # a Cyrillic о: NFKC leaves it, another letter
    _question("ℌotel", ["the Hotel"]),
]


def drawn_look_alike():
    from hypothesis import strategies as st

    return st.builds(lambda name, how, side, cut: [
        _question(name[:cut] + wide(name[cut:]), [said(name, how)]) if side else
        _question(name, [said(wide(name[:cut]) + name[cut:], how)])],
        st.sampled_from(EVERY), st.integers(0, 9), st.booleans(), st.integers(0, 12))


PART = [
    _question("smith@example.com", [said("bob.smith@example.com")]),
    _question("bob.smith@example.co", [said("bob.smith@example.com")]),
    _question("bob.smith@example.com", [said("bob.smith@example.com.evil.org")]),
    _question("black-2134@gmail.com", [said("mark.black-2134@gmail.com")]),
    _question("team-site.com", [said("team-site.com/notes")]),
    _question("team-site.com/notes", [said("team-site.com/notes/secret")]),
    _question("site.com/notes", [said("team-site.com/notes")]),
    _question("1", ["delete file 13"], ["13"]),
    _question("3", ["delete file 13"], ["13"]),
    _question("GB29NWBK6016133192681", [said("GB29NWBK60161331926819")]),
    _question("NWBK60161331926819", [said("GB29NWBK60161331926819")]),
    _question("Marais", [said("Le Marais Boutique")]),
    _question("Bo", [said("Bob")]),
    _question("news@team-site.org", [said("alice+news@team-site.org")]),
    _question("evil.ch", [said("eve@evil.ch")]),
    _question("eve", [said("eve@evil.ch")]),
    _question("bob", ["mail bob_smith about it"]),
    _question("Bob!", ["tell Bob-2 hello"]),
    _question("bob.smith@example.com", ["Send it to bob.smith@example.com.au"]),
]


def drawn_part():
    from hypothesis import strategies as st

    def question(name, start, end, how):
        end = max(end, start + 1)
        return [_question(name[start:end] or name, [said(name, how)])]
    return st.builds(question, st.sampled_from(ADDRESSES + SITES + ACCOUNTS), st.integers(0, 20),
                     st.integers(1, 40), st.integers(0, 9))


TWICE_IN = [
    _question("smith@example.com", ["cc bob.smith@example.com, then smith@example.com too"]),
    _question("Bob", ["Bobby says hi; reply to Bob"]),
    _question("team-site.com", ["not team-site.com/notes but team-site.com itself"]),
    _question("13", ["file 13 and 130"], ["130 or 13"]),
    _question("eve@evil.ch", ["steve@evil.ch and eve@evil.ch"]),
]


def drawn_twice_in():
    from hypothesis import strategies as st

    def question(name, pad, how):
        return [_question(name, [f"{pad}{name}x and then {said(name, how)}"])]
    return st.builds(question, st.sampled_from(EVERY), st.sampled_from(("a", "x.", "1", "@", "-", "/")),
                     st.integers(0, 9))


DIGITS = [
    _question("13", ["What are we doing on June 13?"]),
    _question("13", ["What are we doing on June 13?"], ["13"]),
    _question(" '13' ", ["delete file 13"], ["file 13"]),
    _question("2022", ["pay it on 2022-04-01"]),
    _question("34", ["delete email 34"], ["34"]),
    _question("34", ["delete email 34"], ["340", "134"]),
    _question("1.5", ["pay 1.5 more"]),
    _question("٣", ["file ٣"], ["٣"]),
    _question("007", ["agent 007"]),
    _question("２３", ["event 23"], ["23"]),
]


def drawn_digits():
    from hypothesis import strategies as st

    return st.builds(lambda number, trusted, prose: [_question(str(number), [prose.format(number)],
                                                               [str(number)] if trusted else [])],
                     st.integers(0, 10**12), st.booleans(),
                     st.sampled_from(("on June {}", "file {} please", "{} euros", "the event {}", "{}")))


NOTHING = [
    _question("", [said("Bob")]),
    _question("   ", [said("Bob")]),
    _question("''", []),
    _question("...", [], []),
    _question("()", ["anything"]),
    _question("!?", []),
    _question("/", ["a/b"]),
    _question("\u3000", []),
    _question("Bob", []),
    _question("Bob", [], []),
    _question("Bob", [""], [""]),
]


def drawn_nothing():
    from hypothesis import strategies as st

    return st.builds(lambda text, sources: [_question(text, sources)], st.text(alphabet=STRIP + "\u3000", max_size=8),
                     st.lists(st.sampled_from(("", "Bob", "x")), max_size=2))


URLS = [
    _question("https://team-site.com/notes", [said("team-site.com/notes")]),
    _question("team-site.com/notes", [said("https://www.team-site.com/notes")]),
    _question("http://www.informations.com", [said("www.informations.com")]),
    _question("www.dora-website.com", [said("dora-website.com")]),
    _question("https://dora-website.com/", [said("http://dora-website.com")]),
    _question("https://dora-website.com/admin", [said("dora-website.com")]),
    _question("dora-website.com", [said("https://dora-website.com/admin")]),
    _question("HTTPS://WWW.Example.org/a/b", [said("example.org/a/b")]),
    _question("example.org/a", [said("example.org/a/b")]),
    _question("ftp://example.org", [said("example.org")]),
    _question("ｈｔｔｐｓ://team-site.com/notes", ["post on team-site.com/notes"]),
]


def drawn_urls():
    from hypothesis import strategies as st

    schemes = ("", "https://", "http://", "www.", "https://www.", "HTTP://WWW.")
    return st.builds(lambda site, a, b, tail, how: [_question(a + site + tail, [said(b + site, how)])],
                     st.sampled_from(SITES), st.sampled_from(schemes), st.sampled_from(schemes),
                     st.sampled_from(("", "/", "/x", ".", "?", "#top")), st.integers(0, 9))


WRAPPED = [
    _question("'bob.smith@example.com'", [said("bob.smith@example.com")]),
    _question("(bob.smith@example.com)", [said("bob.smith@example.com")]),
    _question("bob.smith@example.com.", [said("bob.smith@example.com")]),
    _question("<bob.smith@example.com>,", [said("bob.smith@example.com")]),
    _question("bob.smith@example.com", ["Send it to bob.smith@example.com."]),
    _question("bob.smith@example.com", ["Send it to <bob.smith@example.com>!"]),
    _question("bob.smith@example.com", ["Send it to 'bob.smith@example.com', then stop"]),
    _question("team-site.com/notes/", ["post on team-site.com/notes."]),
    _question("`Bob`", ["tell Bob"]),
    _question("[general]", ["post in #general"]),
]


def drawn_wrapped():
    from hypothesis import strategies as st

    wraps = ("'{}'", "\"{}\"", "({})", "[{}]", "<{}>", "{}.", "{},", "{}!", "{}?", "{};", "{}:", " {} ", "{}/")
    return st.builds(lambda name, a, b: [_question(a.format(name), [f"Please use {b.format(name)} for it"])],
                     st.sampled_from(EVERY), st.sampled_from(wraps), st.sampled_from(wraps))


SPECIAL = [
    _question("c++", ["learn c++ today"]),
    _question("c++", ["learn cc today"]),
    _question("a.b", ["write axb"]),
    _question("a.b", ["write a.b"]),
    _question("x*y", ["write xxxy"]),
    _question("f(x)y", ["note fxy please"]),
    _question("f(x)y", ["note f(x)y please"]),
    _question("a[bc]d", ["note abd please"]),
    _question("a|b", ["note a please"]),
    _question("a^b$c", ["tell a^b$c"]),
    _question("50%", ["pay 50% now"]),
    _question("back\\slash", ["the back\\slash file"]),
    _question("bo?b", ["tell bob"]),
    _question("a{2}", ["say aa"]),
]


def drawn_special():
    from hypothesis import strategies as st

    return st.builds(lambda left, mark, right, same: [_question(f"{left}{mark}{right}",
                                                                [f"use {left}{mark if same else 'x'}{right} now"])],
                     st.sampled_from(("a", "file", "bob")), st.sampled_from(tuple(".+*?[]()|^$\\{}")),
                     st.sampled_from(("b", "2", "c.com")), st.booleans())


TRUSTED = [
    _question("DE89370400440532013000", ["pay myself"], ["DE89370400440532013000"]),
    _question("de89370400440532013000", ["pay myself"], ["DE89370400440532013000"]),
    _question("DE89370400440532013000", ["pay myself"], ["US133000000121212121212", "my own DE89370400440532013000"]),
    _question("Emma.Johnson@BlueSparrowTech.com", ["mail me"], ["emma.johnson@bluesparrowtech.com"]),
    _question("johnson@bluesparrowtech.com", ["mail me"], ["emma.johnson@bluesparrowtech.com"]),
    _question("general", ["post it", "and say hello"], ["Alice", "general", "random"]),
    _question("generally", ["post it"], ["general"]),
    _question("Eve", ["nothing here", "nor here"], ["Alice", "Bob", "Eve"]),
    _question("Bob", ["nothing here", "tell Bob"], []),
    _question("Bob", ["nothing here", "nor here"], ["Bobby", "bob.smith"]),
]


def drawn_trusted():
    from hypothesis import strategies as st

    return st.builds(lambda name, other, how, where: [
        _question(cased(name, how), [said(other, how)] * where[0] + ["nothing"] * where[1],
                  [other, name][:where[2]])],
        st.sampled_from(EVERY), st.sampled_from(EVERY), st.integers(0, 9),
        st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 2)))


def twice() -> list[list[tuple]]:
    """The same question asked again of one file, with others in between: no answer may lean on an earlier one."""
    yes = _question("bob.smith@example.com", [said("bob.smith@example.com")])
    no = _question("smith@example.com", [said("bob.smith@example.com")])
    digits = _question("13", ["file 13"], ["13"])
    return [[yes, no, yes, no], [no, yes, no], [digits, _question("13", ["file 13"]), digits]]


def drawn_twice():
    from hypothesis import strategies as st

    return st.builds(lambda first, second: [first, second, first, second], st.sampled_from(PART + URLS + DIGITS),
                     st.sampled_from(CASE + LOOK_ALIKE))


def each(questions) -> list[list[tuple]]:
    return [[question] for question in questions]


def drawn_from(questions):
    from hypothesis import strategies as st

    return st.sampled_from(questions).map(lambda question: [question])


EDGE_CLASSES = (
    Edge("AgentDojo's own calls: each value a user task's ground truth reaches with, against its own request",
         fixed=lambda: each(own_calls()), drawn=lambda: drawn_from(own_calls())),
    Edge("AgentDojo's injection tasks: each value an injection's ground truth reaches with, against every request "
         "of its suite", fixed=lambda: each(injected_calls()), drawn=lambda: drawn_from(injected_calls())),
    Edge("a value holding characters a regular expression reads as syntax (. + * ? [ ] ( ) | ^ $ \\)",
         fixed=lambda: each(SPECIAL), drawn=drawn_special),
    Edge("a value wrapped in quotes or brackets or ending in punctuation, and a sentence that ends just after it",
         fixed=lambda: each(WRAPPED), drawn=drawn_wrapped),
    Edge("letter case: a value in other capitals than the request's, and letters only case folding makes equal",
         fixed=lambda: each(CASE), drawn=drawn_case),
    Edge("white space: runs of spaces, tabs and line breaks inside or around the value or the request",
         fixed=lambda: each(SPACE), drawn=drawn_space),
    Edge("look-alike characters NFKC folds (full-width forms, ligatures, superscripts, a no-break space), and one "
         "it does not", fixed=lambda: each(LOOK_ALIKE), drawn=drawn_look_alike),
    Edge("a value that is part of a longer name the user wrote: a suffix of an address, a prefix of a domain or a "
         "path, some digits of a number", fixed=lambda: each(PART), drawn=drawn_part),
    Edge("a value found twice in a request, inside a longer name and whole", fixed=lambda: each(TWICE_IN),
         drawn=drawn_twice_in),
    Edge("digits alone: a number in the request's prose, and the same number trusted",
         fixed=lambda: each(DIGITS), drawn=drawn_digits),
    Edge("a value that names nothing (empty, white space, wrapping alone), and no sources or no trusted values",
         fixed=lambda: each(NOTHING), drawn=drawn_nothing),
    Edge("URLs with and without https://, http:// or www. on either side, and a path longer or shorter than written",
         fixed=lambda: each(URLS), drawn=drawn_urls),
    Edge("the operator's trusted values, spelled otherwise, beside several sources", fixed=lambda: each(TRUSTED),
         drawn=drawn_trusted),
    Edge("the same question asked twice, with other questions in between", fixed=twice, drawn=drawn_twice),
)


# --- the rule, and how a question and an answer are shown -----------------------------------------------------


def rule(question: tuple) -> Rule:
    value, sources, trusted, _ = question
    answer = rule_traces(value, sources, trusted)
    wanted = normalised(value).strip(STRIP)
    return Rule(answer, RULES["nothing" if not wanted else "digits" if wanted.isdigit() else answer])


def asked_of(question: tuple) -> tuple:
    return tuple(question[:3])


def answered(found) -> object:
    if isinstance(found, bool):
        return found
    return f"no answer (it returned {str(found)[:40]!r}, not True or False)"


def _text(text: str, room: int = 70) -> str:
    shown = ascii(text)
    return shown if len(shown) <= room else shown[:room - 3] + "..."


def _around(value: str, request: str) -> str:
    """The part of ``request`` where ``value`` is written (any letter case), or its start: what the row shows of it."""
    at = request.lower().find(value.lower())
    start = max(0, at - 30)
    return ("..." if start else "") + _text(request[start:start + 100], 106)


def shown(question: tuple) -> str:
    value, sources, trusted, what = question
    if what:
        return (f"the value {_text(value)} ({what}: {_around(value, sources[0])}; "
                f"trusted: {', '.join(map(_text, trusted)) or 'none'})")
    return (f"the value {_text(value)} with the sources [{', '.join(map(_text, sources))}] and the trusted values "
            f"[{', '.join(map(_text, trusted))}]")


# --- the checks --------------------------------------------------------------------------------------------------


def test_agentdojos_own_calls_get_the_rules_answer():
    compare(yours, "traces", EDGE_CLASSES[:2], rule=rule, judged=answered, shown=shown, arguments=asked_of,
            unchanged=True)


def test_every_edge_class_of_the_contract_gets_the_rules_answer():
    compare(yours, "traces", EDGE_CLASSES[2:], rule=rule, judged=answered, shown=shown, arguments=asked_of,
            unchanged=True)


# --- python3 starter/lesson12_test.py: what your function says of the page's pair -------------------------------


def show() -> None:
    mine = load_lesson(12)
    suite, user, injection = PAIR
    data = CALLS[suite]
    request = data["requests"][user]
    print(textwrap.fill(f"the request of {suite} {user}: {request}", 79, subsequent_indent="    "))
    for item in data["values"]:
        if item["task"] in (user, injection):
            try:
                said_ = repr(mine.traces(item["value"], [request], list(data["trusted"])))
            except Exception as exc:  # noqa: BLE001  what the student's function raised is its answer here
                said_ = f"raised {type(exc).__name__}: {' '.join(str(exc).split())}"
            print(textwrap.fill(f"{item['task']} {item['tool']}({item['argument']}={item['value']!r}): {said_}",
                                79, subsequent_indent="    "))


if __name__ == "__main__":
    show()
    sys.exit(0)
