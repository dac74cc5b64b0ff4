"""Lesson 2 completion test: your policy, as data, asked questions through lesson 2's door.

Your file runs in a process of its own (course/student.py): build_my_policy()
is called there, and what comes back is your policy's snapshot, the data that
names a run. This process rebuilds the policy from it and asks the real door
(Recorder) every question, so nothing your file does can change an answer.
While it runs, data/, solutions/ and lesson 3's demo (core.run.demo_stages,
which declares the same tool) are unavailable to it.

The tests come in pairs, one thing admitted and its mirror refused, so a policy
that says yes to everything fails as surely as one that says no to everything.
Most of them ask about destinations, tool names, queries and arguments drawn
from a seed this run prints when a case fails: `COURSE_SEED=N course check 2`
asks the same again. The last check asks the door about acts on each edge
class (``EDGE_CLASSES``) under your policy, called again for each question,
and under the contract's own policy with your free choices, and compares the
answers. By default they check starter/lesson02.py; `course check 2` shows
each result.
"""

import random
import unicodedata

import pytest

from core.run.origins import canonical_destination
from core.run.policy import TOOL_FIELDS, Policy, PolicyError
from core.run.recorder import Recorder
from core.run.records import make_run
from course.diagnose import typo_line
from course.differ import Edge, Rule, compare
from course.student import Student, seed

LAB = "https://lab.example:443"
REFERENCE_TOOL = {"tool_id": "inspect_headers", "activity": "passive", "requires": {},
                  "family": "fam-recon", "weight": 2.0, "cost": 1.0}
YOUR_TOOLS = ("inspect_headers", "inspect_metadata")
PLACEHOLDERS = ("CHANGE-ME", "training-authorization-0001")
yours = Student(2, names=("build_my_policy",), blocked=("core.run.demo_stages", "solutions"), unreadable=("data",),
                as_data={"build_my_policy": "core.run.policy:Policy.snapshot"})  # a Policy crosses as its snapshot: the data a run names

# Words the fresh cases are made of.
PAGES = ("about", "news", "contact", "robots.txt", "staging/", "debug", "search", "Team", "a%20b", "caf\u00e9",
         "2024/report", "%7Eold", "./about", "x/../news")
WORDS = ("fern", "moss", "cedar", "quill", "tern", "basil", "larch", "sorrel", "wren", "shed")
VERBS = ("inspect", "probe", "fetch", "read", "run", "scan", "dump", "list")
# Tool names a model could write: the course's other tools, case and spacing variants of yours, and fresh ones.
KNOWN_NAMES = ("shell", "probe_reflection", "run_command", "INSPECT_HEADERS", "Inspect_Metadata",
               "inspect_metadata_v2", "inspect-headers")
FRESH = 8


# --- your policy, as data ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def policy() -> Policy:
    """Your policy, rebuilt here from the snapshot your build_my_policy() returned."""
    try:
        data = yours.call("build_my_policy")
    except pytest.fail.Exception:  # it raised: a typo'd key in a tool says more than the policy's own error
        typo = typo_line(yours, {"tool_id": TOOL_FIELDS})
        if typo:
            yours.fail(typo)
        raise
    again = yours.call("build_my_policy")  # the same question twice: a policy names one run, not one per call
    if again != data:
        changed = sorted(key for key in set(data) | set(again) if data.get(key) != again.get(key)) \
            if isinstance(data, dict) and isinstance(again, dict) else []
        what = ", ".join(changed) or "its snapshot"
        yours.fail(f"build_my_policy() gave another policy when it was called again ({what} changed): a policy is "
                   "the operator's configuration, the same whenever it is read, and the run identity is derived "
                   "from it")
    try:
        return Policy.from_dict(data)
    except (PolicyError, TypeError, AttributeError) as exc:
        yours.fail(f"the snapshot of your policy is not a policy the door can rebuild: {exc}")


def tool(policy, tool_id):
    found = policy.tool_named(tool_id)
    assert found, f"your catalogue has no tool {tool_id!r}: declare it in build_my_policy()"
    return found.to_dict()


def door(policy, *observed):
    """A fresh lesson 2 door for your policy, with ``observed`` (field, value) pairs recorded."""
    run = make_run(policy.snapshot(), {"world": "lesson02-check"})
    recorder = Recorder(run, policy)
    for field, value in observed:
        answer = recorder.record("observation", {"run_id": run.run_id, "field": field, "value": value})
        assert answer["recorded"], f"the door refused the observation {field} = {value!r}: {answer['reason']}"
    return run, recorder


def act(policy, tool_id, destination, arguments=None, observed=()):
    """The door's answer to one action, and the ledger code of a refusal."""
    run, recorder = door(policy, *observed)
    answer = recorder.record("action", {"run_id": run.run_id, "tool": tool_id, "destination": destination,
                                        "arguments": arguments or {}})
    return answer, recorder.events[-1]["code"]


# --- fresh cases, from the seed this run prints ---------------------------------------------------


def fresh() -> random.Random:
    return random.Random(seed())


def from_seed() -> str:
    chosen = seed()
    return f"drawn from seed {chosen} (COURSE_SEED={chosen} course check 2 asks it again)"


def lab_spellings(rng) -> list[str]:
    """Destinations at the lab, written the ways a URL may spell one origin."""
    made = []
    for _ in range(FRESH):
        scheme = rng.choice(["https", "HTTPS", "Https"])
        host = rng.choice(["lab.example", "LAB.EXAMPLE", "Lab.Example", "lab.example."])
        port = rng.choice(["", ":443"])
        made.append(f"{scheme}://{host}{port}/{rng.choice(PAGES)}")
    return made


def elsewhere(rng) -> list[str]:
    """Destinations outside the lab's origin: look-alike hosts, other ports and schemes, userinfo, addresses."""
    word = lambda: rng.choice(WORDS)  # noqa: E731
    shapes = [
        lambda: f"https://lab.example.{word()}.test/",
        lambda: f"https://{word()}lab.example/",
        lambda: f"https://{word()}.lab.example/{rng.choice(PAGES)}",
        lambda: f"https://lab.example:{rng.choice([8443, 444, 80])}/",
        lambda: f"http://lab.example/{rng.choice(PAGES)}",
        lambda: f"https://lab.example@{word()}.test/",
        lambda: f"https://lab-example.{word()}/",
        lambda: f"https://192.0.2.{rng.randint(1, 254)}/",
    ]
    return [shape() for shape in rng.sample(shapes, len(shapes))]


def tool_names(rng) -> list[str]:
    made = {f"{rng.choice(VERBS)}_{rng.choice(WORDS)}" for _ in range(FRESH)}
    return sorted(made | set(rng.sample(KNOWN_NAMES, 4)))


def inputs(rng) -> list[tuple[str, dict]]:
    """Lab destinations with a query, and argument sets: the input a probe carries."""
    made = []
    for _ in range(FRESH // 2):
        page = rng.choice(["about", "search", "debug", "news"])
        made.append((f"https://lab.example/{page}?{rng.choice(['q', 'id', 'page'])}={rng.choice(WORDS)}", {}))
        made.append((f"https://lab.example/{page}", {rng.choice(["marker", "q", "path", "url"]): rng.choice(WORDS)}))
    return made


# --- the checks: your policy's data -------------------------------------------------------------------


# Letters a reader cannot tell from the Latin ones a placeholder is written in (Cyrillic and Greek capitals and
# small letters); every dash, hyphen and minus reads as "-".
LOOK_ALIKES = str.maketrans("\u0430\u0435\u043e\u0440\u0441\u0445\u0443\u0456\u0458\u0455\u04cf"
                            "\u0410\u0412\u0415\u041a\u041c\u041d\u041e\u0420\u0421\u0422\u0425\u0406\u0408"
                            "\u0391\u0392\u0395\u0396\u0397\u0399\u039a\u039c\u039d\u039f\u03a1\u03a4\u03a5"
                            "\u03a7\u03bf",
                            "aeopcxyijslABEKMHOPCTXIJABEZHIKMNOPTYXo")


def as_read(word: str) -> str:
    """How a reader reads ``word``: compatibility forms folded, look-alike letters and every dash as the Latin
    ones, letter case ignored."""
    folded = unicodedata.normalize("NFKC", word).translate(LOOK_ALIKES)
    return "".join("-" if unicodedata.category(char) == "Pd" or char == "\u2212" else char
                   for char in folded).casefold()


def test_reference_is_your_own(policy):
    reference = policy.snapshot()["reference"]
    hidden = [f"U+{ord(char):04X}" for char in reference
              if unicodedata.category(char)[0] in "CZ" and char != " "]
    assert not hidden, (
        f"your policy's reference {reference!r} holds characters a reader cannot see ({', '.join(hidden)}): a "
        "reference is read by people, so it is visible text, for example 'training-authorization-0042'")
    assert reference.casefold() not in {placeholder.casefold() for placeholder in PLACEHOLDERS}, (
        f"your policy's reference is still {reference!r}: give it your own authorization reference, "
        "for example 'training-authorization-0042'")
    assert as_read(reference) not in {as_read(placeholder) for placeholder in PLACEHOLDERS}, (
        f"your policy's reference {reference!r} ({', '.join(f'U+{ord(char):04X}' for char in reference if ord(char) > 126)}) "
        "is the course's reference or the placeholder, written with other letters or spaces: a reader reads it as "
        "that one, so give it your own authorization reference, for example 'training-authorization-0042'")


def test_only_the_lab_origin_is_authorized(policy):
    origins = policy.snapshot()["allowed_origins"]
    assert origins == [LAB], f"your policy authorizes {origins}; it must authorize exactly [{LAB!r}]"


def test_inspect_headers_is_the_reference_tool(policy):
    declared = tool(policy, "inspect_headers")
    assert declared == REFERENCE_TOOL, (
        f"inspect_headers must stay as declared in lesson 2's demo: {REFERENCE_TOOL}, not {declared}")


def test_inspect_metadata_is_declared_passive_and_gated_on_has_meta(policy):
    declared = tool(policy, "inspect_metadata")
    assert declared["activity"] == "passive", f"inspect_metadata must be 'passive', not {declared['activity']!r}"
    requires = declared["requires"]
    one = requires.get("has_meta") == 1 and requires["has_meta"] is not True
    json_note = " (the door compares values as JSON, where 1 is not true)" if one else ""
    assert list(requires) == ["has_meta"] and requires["has_meta"] is True, (
        f"inspect_metadata must require the observed field has_meta to be True: requires {{'has_meta': True}}, "
        f"not {requires}{json_note}")
    assert declared["weight"] > 0 and declared["cost"] > 0, "inspect_metadata needs a positive weight and cost"


def test_the_catalogue_declares_no_other_tool(policy):
    others = sorted(t.tool_id for t in policy.tools if t.tool_id not in YOUR_TOOLS)
    assert not others, (
        f"your catalogue also declares {', '.join(others)}: the catalogue is the whole list of what may run, and "
        "every tool in it is one the door lets a model use; the exercise declares inspect_headers and "
        "inspect_metadata, nothing else")


def test_budgets_are_positive(policy):
    snapshot = policy.snapshot()
    assert snapshot["max_actions"] > 0 and snapshot["max_model_calls"] > 0, (
        f"budgets must be positive: max_actions={snapshot['max_actions']}, max_model_calls={snapshot['max_model_calls']}")


# --- the checks: the door's answers, on cases this run draws ----------------------------------------


def test_door_admits_your_tools_at_the_lab_however_it_is_spelt(policy):
    for tool_id in YOUR_TOOLS:
        tool(policy, tool_id)
    for destination in lab_spellings(fresh()):
        for tool_id in YOUR_TOOLS:
            answer, _ = act(policy, tool_id, destination, observed=[("has_meta", True)])
            expected = f"{tool_id} -> {canonical_destination(destination)}"
            assert answer == {"recorded": True, "kind": "action", "id": expected}, (
                f"with has_meta observed, the door must admit {tool_id} at {destination!r} ({from_seed()}), "
                f"the lab written another way, as {expected!r}; it said {answer}")


def test_door_refuses_your_tools_at_origins_outside_the_lab(policy):
    for tool_id in YOUR_TOOLS:
        tool(policy, tool_id)
    for destination in elsewhere(fresh()):
        for tool_id in YOUR_TOOLS:
            answer, code = act(policy, tool_id, destination, observed=[("has_meta", True)])
            assert not answer["recorded"] and code in ("out_of_scope", "invalid_destination"), (
                f"the door must refuse {tool_id} at {destination!r} ({from_seed()}) for its destination, which is "
                f"not the lab's origin; it said {answer}")


def test_door_refuses_a_tool_the_operator_did_not_declare(policy):
    tool(policy, "inspect_metadata")
    for name in tool_names(fresh()):
        if name in YOUR_TOOLS:
            continue
        answer, code = act(policy, name, "https://lab.example/")
        assert not answer["recorded"] and code == "unknown_tool", (
            f"the door admitted {name!r} at the lab ({from_seed()}): a tool the operator did not declare is "
            f"refused, so your catalogue must not declare it; it said {answer}")


def test_door_refuses_inspect_metadata_before_has_meta_is_observed(policy):
    tool(policy, "inspect_metadata")
    rng = fresh()
    unproven = [(), [("has_meta", False)], [("has_meta", rng.choice([1, "true", "yes", None]))],
                [("generator", "ExampleCMS 3.2.1")]]
    for observed in unproven:
        destination = f"https://lab.example/{rng.choice(PAGES)}"
        answer, code = act(policy, "inspect_metadata", destination, observed=observed)
        seen = ", ".join(f"{field} = {value!r}" for field, value in observed) or "nothing"
        assert not answer["recorded"] and code == "unobserved_requirement" and "has_meta" in answer["reason"], (
            f"with {seen} observed, the door must refuse inspect_metadata at {destination!r} ({from_seed()}) "
            f"naming has_meta; it said {answer}")


def test_door_admits_inspect_metadata_once_has_meta_is_observed(policy):
    tool(policy, "inspect_metadata")
    rng = fresh()
    for _ in range(FRESH // 2):
        destination = f"https://lab.example/{rng.choice(PAGES)}"
        answer, _ = act(policy, "inspect_metadata", destination, observed=[("has_meta", True)])
        assert answer["recorded"], (
            f"with has_meta observed as true, the door must admit inspect_metadata at {destination!r} "
            f"({from_seed()}); it said {answer}")


def test_a_passive_tool_takes_no_input(policy):
    for tool_id in YOUR_TOOLS:
        tool(policy, tool_id)
    for destination, arguments in inputs(fresh()):
        for tool_id in YOUR_TOOLS:
            answer, code = act(policy, tool_id, destination, arguments, observed=[("has_meta", True)])
            given = f"arguments {arguments}" if arguments else "a query"
            assert not answer["recorded"] and code == "bad_arguments", (
                f"the door admitted {tool_id} at {destination!r} with {given} ({from_seed()}): a passive tool takes "
                "no input, so it declares no arguments and its destination carries no query")


def test_door_refuses_inspect_metadata_at_other_example(policy):
    # The page asks the student to predict this refusal's reason: no message here may give it away.
    tool(policy, "inspect_metadata")
    answer, _ = act(policy, "inspect_metadata", "https://other.example/about")
    expected = "destination https://other.example:443 is outside the explicit authorized origins"
    assert answer == {"recorded": False, "reason": expected}, (
        f"aimed at https://other.example/about, inspect_metadata must be refused, and for the reason you "
        f"predicted from the policy; the door said {answer}")


# --- the edge classes of the door's answers under your policy, each asked in every run ---------------------
#
# build_my_policy() takes no input, so its contract is judged by what a door answers under the policy it
# returns: each question is a run's acts, asked of a fresh lesson 2 door under your policy (called again for
# each question) and under the contract's own policy, which takes your free choices (your reference, your
# inspect_metadata's family, weight and cost, your budgets) and fixes everything else. The answers compared are
# what the door fixes: admitted or refused, the identity it admits, the code it refuses with, never the words.

CODE_WORDS = {  # the contract's rule behind each answer of the door, in build_my_policy's words
    "": "the policy admits inspect_headers, and inspect_metadata once has_meta is observed true, at the lab's "
        "origin however the destination spells it",
    "out_of_scope": "the policy authorizes exactly one origin, the lab's, https://lab.example:443",
    "invalid_destination": "the policy authorizes exactly one origin, the lab's, https://lab.example:443",
    "unknown_tool": "the catalogue declares inspect_headers and inspect_metadata, by those exact names, and "
                    "nothing else",
    "unobserved_requirement": "inspect_metadata requires the observed field has_meta to be True (JSON true: not 1, "
                              "not 'true')",
    "bad_arguments": "a passive tool takes no input: it declares no arguments, and its destination carries no query",
}
KIND_WORDS = {
    "twice": "a policy is the operator's configuration, the same whenever it is read: the run it names and every "
             "answer the door gives under it",
    "run": "every act of a run is judged in order under one policy: a repeated act, and acts past the budget, are "
           "answered as the contract's policy answers them",
}
_asked: list = []  # the question being compared: the student's answer is judged on the same acts as the rule's


def contract_policy(first: dict) -> Policy:
    """The policy the contract describes, with the free choices of ``first`` (your first snapshot) where valid."""
    def chosen(value, valid, default):
        try:
            return value if valid(value) else default
        except TypeError:
            return default

    tools = {entry.get("tool_id"): entry for entry in first.get("tools", []) if isinstance(entry, dict)}
    mine = tools.get("inspect_metadata", {})
    positive = lambda value: not isinstance(value, bool) and isinstance(value, (int, float)) and value > 0  # noqa: E731
    return Policy.from_dict({
        "reference": chosen(first.get("reference"), lambda word: isinstance(word, str) and word.strip() == word != "",
                            "training-authorization-0042"),
        "allowed_origins": [LAB],
        "tools": [REFERENCE_TOOL, {"tool_id": "inspect_metadata", "activity": "passive", "requires": {"has_meta": True},
                                   "family": chosen(mine.get("family"), lambda word: isinstance(word, str) and word,
                                                    "fam-recon"),
                                   "weight": chosen(mine.get("weight"), positive, 1.5),
                                   "cost": chosen(mine.get("cost"), positive, 1.0)}],
        "max_actions": chosen(first.get("max_actions"), lambda n: positive(n) and isinstance(n, int), 4),
        "max_model_calls": chosen(first.get("max_model_calls"), lambda n: positive(n) and isinstance(n, int), 4),
    })


def answers_under(policy: Policy, question: tuple) -> tuple:
    """What a fresh lesson 2 door answers to the question's observations and acts, in order."""
    kind, observed, acts = question
    run = make_run(policy.snapshot(), {"world": "lesson02-check"})
    recorder = Recorder(run, policy)
    said = []
    for field, value in observed:
        answer = recorder.record("observation", {"run_id": run.run_id, "field": field, "value": value})
        said.append(("observed", field) if answer["recorded"] else ("refused", recorder.events[-1]["code"]))
    for tool_id, destination, arguments in acts:
        answer = recorder.record("action", {"run_id": run.run_id, "tool": tool_id, "destination": destination,
                                            "arguments": arguments})
        said.append(("admitted", answer["id"]) if answer["recorded"] else ("refused", recorder.events[-1]["code"]))
    return (run.run_id[:16], *said) if kind == "twice" else tuple(said)


def door_rule(first: dict):
    """The contract's answers; a question of the twice class also asks for the run your first policy named."""
    policy = contract_policy(first)
    first_run = make_run(Policy.from_dict(first).snapshot(), {"world": "lesson02-check"}).run_id[:16]

    def rule(question: tuple) -> Rule:
        _asked[:] = [question]
        answers = answers_under(policy, question)
        if question[0] == "twice":
            answers = (first_run, *answers[1:])
        if question[0] in KIND_WORDS:
            return Rule(answers, KIND_WORDS[question[0]])
        code = answers[-1][1] if answers[-1][0] == "refused" else ""
        return Rule(answers, CODE_WORDS.get(code, "the door answers under your policy as under the contract's"))

    return rule


def door_answers(snapshot) -> object:
    """The door's answers to the question being compared, under the policy your build_my_policy() just gave."""
    try:
        return answers_under(Policy.from_dict(snapshot), _asked[0])
    except (PolicyError, TypeError, AttributeError, KeyError) as exc:
        return f"no answer (its snapshot is no policy the door can rebuild: {exc})"


def acts_in_words(question: tuple) -> str:
    kind, observed, acts = question
    seen = ", ".join(f"{field} = {value!r}" for field, value in observed) or "nothing"
    told = "; ".join(f"{tool_id} at {destination!r}" + (f" with {arguments}" if arguments else "")
                     for tool_id, destination, arguments in acts)
    return f"{'the run identity, then ' if kind == 'twice' else ''}{told}, with {seen} observed"


def one(tool_id: str, destination: str = f"{LAB}/about", arguments: dict | None = None, observed=(("has_meta", True),),
        kind: str = "act") -> tuple:
    return (kind, list(observed), [(tool_id, destination, arguments or {})])


def drawn_acts(kind: str = "act", count: int = 1):
    """Acts drawn from tool names, destinations, arguments and observations near the contract's boundaries."""
    from hypothesis import strategies as st

    tools = st.sampled_from(YOUR_TOOLS + LOOK_ALIKE_TOOLS)
    places = st.sampled_from(LAB_DESTINATIONS + OTHER_DESTINATIONS)
    arguments = st.sampled_from(({}, {}, {"q": "fern"}, {"marker": ""}))
    observed = st.sampled_from(OBSERVED)
    act = st.tuples(tools, places, arguments)
    return st.builds(lambda seen, acts: [(kind, list(seen), acts)], observed, st.lists(act, min_size=count,
                                                                                         max_size=count + 3))


LOOK_ALIKE_TOOLS = ("INSPECT_HEADERS", "Inspect_Metadata", "inspect_metadata ", " inspect_headers", "inspect-headers",
                    "inspect_metadat", "inspect_metadatas", "inspect_meta\u0064ata", "inspect_met\u0430data",
                    "inspect_headers\u200b", "inspect_metadata_v2", "", "shell", "probe_reflection")
LAB_DESTINATIONS = (f"{LAB}/about", "https://lab.example/about", "HTTPS://LAB.EXAMPLE/", "https://lab.example.:443/news",
                    "https://Lab.Example/Team", "https://lab.example/a%20b", "https://lab.example/caf\u00e9")
OTHER_DESTINATIONS = ("https://lab.example:444/", "http://lab.example/", "https://lab.example.fern.test/",
                      "https://fernlab.example/", "https://lab.example@fern.test/", "https://lab-example.test/",
                      "https://192.0.2.7/", "https://xn--lb-yja.example/", "https://lab.ex\u0430mple/",
                      "https://other.example/about", "lab.example/about", "")
OBSERVED = ((("has_meta", True),), (), (("has_meta", False),), (("has_meta", 1),), (("has_meta", "true"),),
            (("has_meta", "True"),), (("has_meta", 1.0),), (("has_meta", None),), (("HAS_META", True),),
            (("has_meta ", True),), (("has_meta", True), ("has_meta", False)), (("generator", "ExampleCMS"),))

DOOR_EDGE_CLASSES = (
    Edge("your policy asked for again, between acts",
         fixed=lambda: [[one(tool_id, kind="twice") for tool_id in YOUR_TOOLS + YOUR_TOOLS]],
         drawn=lambda: drawn_acts("twice").map(lambda questions: questions * 2), draws=5),
    Edge("tool names in other letter case, with look-alike characters, or one character off",
         fixed=lambda: [[one(tool_id)] for tool_id in LOOK_ALIKE_TOOLS], drawn=drawn_acts, draws=5),
    Edge("destinations at the lab spelt otherwise, and origins that only look like the lab's",
         fixed=lambda: [[one(tool_id, place)] for place in LAB_DESTINATIONS + OTHER_DESTINATIONS
                        for tool_id in YOUR_TOOLS], drawn=drawn_acts, draws=5),
    Edge("has_meta observed as true, as values that only look true, as false, or not at all",
         fixed=lambda: [[one(tool_id, observed=observed)] for observed in OBSERVED for tool_id in YOUR_TOOLS],
         drawn=drawn_acts, draws=5),
    Edge("an act that carries input: a query, an empty query, arguments, an empty argument",
         fixed=lambda: [[one(tool_id, place, arguments)] for tool_id in YOUR_TOOLS for place, arguments in (
             (f"{LAB}/search?q=fern", {}), (f"{LAB}/search?", {}), (f"{LAB}/about#top", {}), (f"{LAB}/about", {"q": "x"}),
             (f"{LAB}/about", {"marker": ""}), (f"{LAB}/about?q=", {"q": ""}))], drawn=drawn_acts, draws=5),
    Edge("one run of repeated and reordered acts, up to its budget and past it",
         fixed=lambda: [[("run", [("has_meta", True)], [(tool_id, f"{LAB}/{page}", {}) for page in pages
                                                        for tool_id in tools])]
                        for pages, tools in ((("about", "news", "about", "team", "faq", "shop", "x", "y"), YOUR_TOOLS),
                                             (("a", "b", "c", "d", "e"), YOUR_TOOLS[::-1]))],
         drawn=lambda: drawn_acts("run", 4), draws=5),
)
EDGE_CLASSES = DOOR_EDGE_CLASSES


def test_every_edge_class_of_the_door_gets_the_contracts_answer_under_your_policy(policy):
    tool(policy, "inspect_metadata")
    compare(yours, "build_my_policy", DOOR_EDGE_CLASSES, rule=door_rule(policy.snapshot()), judged=door_answers,
            shown=acts_in_words, arguments=lambda question: ())
