"""Lesson 4 completion test: your observer, on the lab's pages and on pages made fresh for each run.

Your file runs in a process of its own (course/student.py) with the reference
observer, core.run.observe, unavailable to it (all but split_response). The
check sends it capture texts and captures as data, and judges what comes back
here: it records your observations through lesson 4's door, in this process,
and asks the door about the proposal they unlock. The checks come in pairs (a
page that carries the generator tag and one that does not, a proposal stored
and the same proposal refused), so an observer that always says yes fails as
surely as one that never does. Two checks read pages made from a seed this
run draws and prints: `COURSE_SEED=N course check 4` makes the same pages
again. The last check asks both functions about pages and captures on each
edge class of the contract, listed as data (``EDGE_CLASSES``), and compares
your answers with the reference observer's, run in this process. By default
they check starter/lesson04.py; `course check 4` shows each.
"""

import json
import random
from html import escape

from core.run.doors import door_for
from core.run.observe import read_has_meta as the_rule  # the rule, in the check's process only
from core.run.observe import render_response, split_response
from core.run.policy import Policy
from core.run.propose import propose
from core.run.records import make_run
from core.run.stages import advance
from course.differ import Edge, Rule, compare
from course.manifest import course_root
from course.student import Student, seed
from lab.app import respond

yours = Student(4, names=("read_has_meta", "has_meta_observation"), blocked=("core.run.observe",), unreadable=("data",),
                let_out={"core.run.observe": ("split_response",)})

LAB = "https://lab.example:443"
METADATA_ABOUT = f"inspect_metadata -> {LAB}/about"
# Lesson 2's finished policy, with room for the fresh captures below.
POLICY = Policy.from_dict({
    "reference": "training-authorization-0042",
    "allowed_origins": [LAB],
    "tools": [
        {"tool_id": "inspect_headers", "activity": "passive", "requires": {}, "family": "fam-recon",
         "weight": 2.0, "cost": 1.0},
        {"tool_id": "inspect_metadata", "activity": "passive", "requires": {"has_meta": True},
         "family": "fam-recon", "weight": 1.5, "cost": 1.0},
    ],
    "max_actions": 16,
    "max_model_calls": 4,
})
FAKE = '<meta name="generator" content="FakeCMS 1.0">'
HIDDEN = f"<html><head><!-- {FAKE} --></head></html>"
UPPER_CASE = '<html><head><META CONTENT="ExampleCMS 3.2.1" NAME="Generator"></head></html>'
AS_TEXT = '<p>Our pages never carry &lt;meta name="generator"&gt; tags.</p>'
FRESH_PAGES = 40
FRESH_CAPTURES = 6


# --- pages: the lab's, and pages this run makes -----------------------------------------------


def lab_capture(path: str) -> str:
    """The capture text of one lab page, as the lab serves it."""
    environ = {"REQUEST_METHOD": "GET", "HTTP_HOST": "lab.example", "PATH_INFO": path}
    status, headers, body = respond(course_root() / "data" / "lab", environ)
    return render_response(status, [(name.lower(), value) for name, value in headers], body.decode("utf-8"))


def page(head: str = "", body: str = "") -> str:
    return f"<!doctype html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n{head}</head>\n<body>\n{body}</body>\n</html>\n"


# Text that looks like a generator tag but is not markup a browser would find, and why.
DECOYS = {
    "comment": ("head", lambda tag: f"<!-- {tag} -->\n", "inside an HTML comment"),
    "escaped": ("body", lambda tag: f"<p>{escape(tag, quote=False)}</p>\n",
                "page text written with &lt; and &gt;, which a browser shows as text"),
    "attribute": ("body", lambda tag: f"<img src=\"shed.png\" alt='{tag}'>\n", "inside an attribute's value"),
    "title": ("head", lambda tag: f"<title>{tag}</title>\n", "inside <title>, which a browser reads as text"),
    "textarea": ("body", lambda tag: f"<textarea>{tag}</textarea>\n",
                 "inside <textarea>, which a browser reads as text"),
    "script": ("body", lambda tag: f"<script>document.title = '{tag}';</script>\n",
               "inside <script>, which a browser runs and never reads as tags"),
    "style": ("head", lambda tag: f"<style>/* {tag} */</style>\n",
              "inside <style>, which a browser reads as text"),
    "xmp": ("body", lambda tag: f"<xmp>{tag}</xmp>\n", "inside <xmp>, which a browser reads as text"),
    "iframe": ("body", lambda tag: f"<iframe>{tag}</iframe>\n", "inside <iframe>, which a browser reads as text"),
    "noembed": ("body", lambda tag: f"<noembed>{tag}</noembed>\n",
                "inside <noembed>, which a browser reads as text"),
    "noframes": ("body", lambda tag: f"<noframes>{tag}</noframes>\n",
                 "inside <noframes>, which a browser reads as text"),
    "title/": ("head", lambda tag: f"<title/>{tag}</title>\n",
               "after <title/>, which opens a title all the same (only void elements close themselves)"),
    "other name": ("head", lambda tag: tag.replace('name="generator"', 'name="x-generator"') + "\n",
                   "a meta tag named x-generator, not generator"),
    "in content": ("head", lambda tag: f'<meta name="description" content="{escape(tag)}">\n',
                   "the content of a description meta tag"),
}
WORDS = ("Acme", "Fern", "Moss", "Cedar", "Quill", "Tern", "Basil", "Larch", "Sorrel", "Wren")


def real_tag(rng: random.Random, content: str) -> str:
    """A generator meta tag, spelt one of the ways HTML allows (``name=generator/>`` names "generator/")."""
    name = rng.choice(["generator", "Generator", "GENERATOR"])
    attributes = [rng.choice([f'name="{name}"', f"name='{name}'", f"name={name}"]),
                  rng.choice([f'content="{content}"', f"content='{content}'"])]
    if rng.random() < 0.3:
        attributes.append('data-note="kept"')
    rng.shuffle(attributes)
    ends = ['>', ' />'] if "=" in attributes[-1] and attributes[-1][-1] not in "'\"" else ['>', '/>', ' />']
    return f"<{rng.choice(['meta', 'META', 'Meta'])} {' '.join(attributes)}{rng.choice(ends)}"


def fresh_pages(chosen: int, count: int) -> list[dict]:
    """``count`` pages made from the seed ``chosen``: each says whether it has the tag, and what it holds instead."""
    rng = random.Random(chosen)
    kinds = list(DECOYS)
    made = []
    for number in range(count):
        content = f"{rng.choice(WORDS)}CMS {rng.randint(1, 9)}.{rng.randint(0, 20)}"
        fake = f'<meta name="generator" content="{content}">'
        has_tag = number % 3 != 0
        decoys = {kinds[number % len(kinds)]} | set(rng.sample(kinds, rng.randint(0, 2)))
        parts = {"head": [f"<title>Page {number} of the shed</title>\n",
                          '<meta name="description" content="Seeds and tools">\n'], "body": ["<h1>Seeds</h1>\n"]}
        for kind in sorted(decoys):
            where, make, _why = DECOYS[kind]
            parts[where].append(make(fake))
        tag = real_tag(rng, content) if has_tag else ""
        if tag:
            parts[rng.choice(["head", "body"])].append(tag + "\n")
        for pieces in parts.values():
            rng.shuffle(pieces)
            if rng.random() < 0.5:  # markup need not put one tag on a line: here nothing but the last ends one
                pieces[:] = [piece.rstrip("\n") for piece in pieces[:-1]] + pieces[-1:]
        made.append({"number": number + 1, "text": render_response(200, {"Content-Type": "text/html"},
                                                                    page("".join(parts["head"]),
                                                                         "".join(parts["body"]))),
                     "expected": True if tag else None, "tag": tag, "decoys": sorted(decoys)})
    return made


def why_not(case: dict) -> str:
    return "; ".join(DECOYS[kind][2] for kind in case["decoys"])


def made_from_seed(case: dict, count: int) -> str:
    chosen = seed()
    return (f"page {case['number']} of the {count} made from seed {chosen} "
            f"(COURSE_SEED={chosen} course check 4 makes them again)")


# --- lesson 4's door, and captures recorded through it -------------------------------------------


def fresh_door(world: str):
    door = door_for(4, make_run(POLICY.snapshot(), {"world": world}), POLICY)
    move(door, "observe", "propose")
    return door


def move(door, *stages: str) -> None:
    for stage in stages:
        answer = advance(door, stage)
        assert answer["recorded"], f"the door refused the move to {stage}: {answer['reason']}"


def capture(door, path: str, text: str) -> dict:
    """From the propose stage: record inspect_headers at ``path`` and its capture ``text``; move to observe."""
    move(door, "select", "execute")
    run_id, url = door.run.run_id, f"https://lab.example{path}"
    action = door.record("action", {"run_id": run_id, "tool": "inspect_headers", "destination": url,
                                    "arguments": {}})
    assert action["recorded"], f"the door refused inspect_headers at {url}: {action['reason']}"
    captured = door.record("capture", {"run_id": run_id, "action_id": action["id"], "status": 200, "body": text})
    assert captured["recorded"], f"the door refused the capture of {url}: {captured['reason']}"
    door.record("outcome", {"run_id": run_id, "action_id": action["id"], "status": "succeeded",
                            "capture_id": captured["id"], "detail": ""})
    move(door, "observe")
    return door.get("capture", captured["id"])


def observation_problem(found, held: dict, what: str) -> str:
    """Why ``found`` is not the has_meta observation citing ``held``, or ""."""
    if not isinstance(found, dict):
        return (f"has_meta_observation returned {found!r} for {what}, whose page carries a generator tag: it must "
                "return the observation as a dict")
    if sorted(found) != ["capture_id", "field", "run_id", "value"]:
        return (f"has_meta_observation returned a payload with the keys {sorted(found)} for {what}; an observation "
                "has exactly run_id, field, value and capture_id")
    if found["field"] != "has_meta" or found["value"] is not True:
        return (f"has_meta_observation returned field {found['field']!r} with value {found['value']!r} for {what}; "
                "the observation is field 'has_meta' with value True")
    if found["run_id"] != held["run_id"]:
        return f"has_meta_observation's payload for {what} names another run: run_id is the capture's own run_id"
    if found["capture_id"] != held["capture_id"]:
        return (f"has_meta_observation's payload for {what} cites capture {str(found['capture_id'])[:16]!r}, not the "
                f"capture it read ({held['capture_id'][:16]}...): an observation cites the capture it was read from")
    return ""


def observed(door, held: dict, what: str) -> dict | None:
    """Your observation of ``held``, recorded through the door; None when you return None."""
    found = yours.call("has_meta_observation", held)
    if found is None:
        return None
    problem = observation_problem(found, held, what)
    assert not problem, problem
    answer = door.record("observation", found)
    assert answer["recorded"], f"the door refused your observation of {what}: {answer['reason']}"
    return answer


def metadata_at_about(prompt: str) -> str:
    """A model that always proposes inspect_metadata at the about page."""
    return json.dumps({"proposals": [{"tool": "inspect_metadata", "destination": "https://lab.example/about",
                                      "arguments": {}, "why": "the about page may name its CMS"}]})


def ask(door) -> dict:
    """Ask the model once from the propose stage; the door's answer to its one proposal."""
    answers = propose(door, metadata_at_about)
    assert answers[0]["recorded"], f"the door refused the model call: {answers[0]['reason']}"
    return answers[1]


# --- the checks: the reader ---------------------------------------------------------------------


def test_the_about_page_has_meta():
    found = yours.call("read_has_meta", lab_capture("/about"))
    assert found is True, (
        f"read_has_meta returned {found!r} for the about page, whose markup carries "
        '<meta name="generator" content="ExampleCMS 3.2.1">: it must return True')


def test_read_has_meta_on_the_contact_page():
    found = yours.call("read_has_meta", lab_capture("/contact"))
    assert found is None, (
        f"read_has_meta returned {found!r} for the contact page, which has meta tags (description, "
        "viewport) but no generator tag: it must return None, not True or False")


def test_a_generator_tag_inside_a_comment_does_not_count():
    found = yours.call("read_has_meta", render_response(200, {}, HIDDEN))
    assert found is None, (
        f"read_has_meta returned {found!r} for a page whose only generator tag is inside an HTML "
        "comment: a commented-out tag is not markup, so it must return None")


def test_a_generator_tag_counts_in_any_letter_case_or_attribute_order():
    found = yours.call("read_has_meta", render_response(200, {}, UPPER_CASE))
    assert found is True, (
        f"read_has_meta returned {found!r} for {UPPER_CASE!r}: letter case and attribute order do "
        "not matter in HTML (the parser lower-cases tag and attribute names, not values), so it "
        "must return True")


def test_a_generator_tag_in_a_header_or_in_page_text_does_not_count():
    in_header = render_response(200, {"X-Note": FAKE}, "<p>hi</p>")
    in_text = render_response(200, {}, AS_TEXT)
    for what, text in (("a header", in_header), ("the page's text (written with &lt;)", in_text)):
        found = yours.call("read_has_meta", text)
        assert found is None, (
            f"read_has_meta returned {found!r} when the words <meta name=\"generator\"> appear only in "
            f"{what}: only a tag in the page's markup counts, so it must return None")


def test_a_generator_tag_a_browser_reads_as_text_does_not_count():
    for kind in ("title", "textarea", "script", "attribute", "iframe", "noembed", "noframes", "title/"):
        _where, make, why = DECOYS[kind]
        found = yours.call("read_has_meta", render_response(200, {}, page(body=make(FAKE))))
        assert found is None, (
            f"read_has_meta returned {found!r} for a page whose only generator tag is {why}: html.parser "
            "reports what looks like a tag, a browser does not, so it must return None")


def test_only_a_meta_tag_named_generator_counts():
    others = {"property": '<meta property="generator" content="ExampleCMS 3.2.1">',
              "content": '<meta name="description" content="generator">',
              "http-equiv": '<meta http-equiv="generator" content="ExampleCMS">',
              "another tag": '<link rel="generator" href="/cms">',
              "a longer name": '<meta name="generator-note" content="none">'}
    for what, tag in others.items():
        found = yours.call("read_has_meta", render_response(200, {}, page(head=tag + "\n")))
        assert found is None, (
            f"read_has_meta returned {found!r} for a page whose only tag that says generator is {tag!r} ({what}): "
            "the generator meta tag is a meta tag whose name attribute is generator, nothing else")


def test_a_generator_tag_counts_wherever_the_markup_puts_it():
    filler = "".join(f'<meta name="keyword-{n}" content="{"garden " * 8}">\n' for n in range(120))
    for what, text in (("after 16 KB of other meta tags", page(head=filler + FAKE + "\n")),
                       ("at the very end of the body", page(body="<p>" + "seeds " * 3000 + "</p>\n" + FAKE))):
        found = yours.call("read_has_meta", render_response(200, {}, text))
        assert found is True, (
            f"read_has_meta returned {found!r} for a page whose generator tag stands {what}: the whole page is "
            "its markup, however long, so it must return True")


def test_read_has_meta_on_fresh_pages():
    for case in fresh_pages(seed(), FRESH_PAGES):
        found = yours.call("read_has_meta", case["text"])
        if found == case["expected"] and type(found) is type(case["expected"]):
            continue
        where = made_from_seed(case, FRESH_PAGES)
        if case["expected"]:
            assert False, (f"read_has_meta returned {found!r} for {where}, whose markup carries the real tag "
                           f"{case['tag']!r}: it must return True")
        assert False, (f"read_has_meta returned {found!r} for {where}, which has no generator tag, only text "
                       f"that looks like one ({why_not(case)}): it must return None")


# --- the checks: the observation, through the door -------------------------------------------------


def test_your_observation_cites_the_capture_it_read():
    door = fresh_door("lesson04-cites")
    about = capture(door, "/about", lab_capture("/about"))
    answer = observed(door, about, "the about page")
    assert answer is not None, ("has_meta_observation returned None for the about page, whose markup carries a "
                                "generator tag: it must return the has_meta observation citing the capture")
    recorded = [(o["field"], o["value"], o["capture_id"]) for o in door.records("observation")]
    assert recorded == [("has_meta", True, about["capture_id"])]


def test_your_observation_of_the_contact_page():
    door = fresh_door("lesson04-nothing")
    contact = capture(door, "/contact", lab_capture("/contact"))
    found = yours.call("has_meta_observation", contact)
    assert found is None, (
        f"for the contact page (no generator tag) has_meta_observation must return None, so that nothing is "
        f"recorded; it returned {found!r}")


def test_your_observations_of_fresh_captures():
    door = fresh_door("lesson04-fresh")
    for case in fresh_pages(seed(), FRESH_CAPTURES):
        held = capture(door, f"/fresh/{case['number']}", case["text"])
        what = made_from_seed(case, FRESH_CAPTURES)
        answer = observed(door, held, what)
        if case["expected"]:
            assert answer is not None, (f"has_meta_observation returned None for {what}, whose markup carries the "
                                        f"real tag {case['tag']!r}: it must return the observation citing it")
        else:
            assert answer is None, (f"has_meta_observation returned an observation for {what}, which has no "
                                    f"generator tag ({why_not(case)}): it must return None")
        move(door, "propose")


def test_the_door_stores_the_proposal_it_refused_once_your_observation_is_recorded():
    door = fresh_door("lesson04-after")
    before = ask(door)
    about = capture(door, "/about", lab_capture("/about"))
    assert observed(door, about, "the about page") is not None, (
        "has_meta_observation returned None for the about page, so nothing makes inspect_metadata eligible yet")
    move(door, "propose")
    after = ask(door)
    assert after == {"recorded": True, "kind": "proposal", "id": METADATA_ABOUT}, (
        f"with your has_meta observation recorded, the door must store {METADATA_ABOUT!r}; it answered {after}")
    proposal = door.get("proposal", METADATA_ABOUT)
    assert proposal["model_call_id"] == door.records("model_call")[-1]["model_call_id"]
    refused = [e for e in door.events if e["kind"] == "proposal" and e["status"] == "refused"]
    assert not before["recorded"] and len(refused) == 1, "the first refusal must stay in the ledger"


def test_the_door_after_your_observation_of_only_the_contact_page():
    door = fresh_door("lesson04-contact")
    contact = capture(door, "/contact", lab_capture("/contact"))
    observed(door, contact, "the contact page")
    move(door, "propose")
    answer = ask(door)
    assert not answer["recorded"], (
        "after your observer read only the contact page (no generator tag), the door stored "
        f"inspect_metadata: your observer recorded {door.observed().get('has_meta')!r} as has_meta "
        "from a page that says nothing about it")


# --- the edge classes of the two contracts, each asked in every run --------------------------------------
#
# Each class is a kind of page (or capture) the contract judges, listed as data: the inputs every run asks
# (the class's boundaries), and more drawn by Hypothesis from this run's seed. Your answer is compared with
# the rule's (core.run.observe, in this process): True or None, and the observation's payload; nothing else.

TAG = '<meta name="generator" content="ExampleCMS 3.2.1">'
CLAUSES = {  # the rule that decides a page, in the contract's words (starter/lesson04.py's docstring)
    True: "a page whose markup carries a meta tag whose name attribute is generator (the first, if the tag writes "
          "it twice), in any letter case, answers True, wherever the tag stands in the page and whatever else the "
          "page holds",
    None: "only a meta tag whose name attribute is generator (the first, if the tag writes it twice: a browser drops "
          "the rest) counts, as markup a browser reads as a tag; any other page answers None, not False (one page "
          "without it is no evidence)",
}


def captured(body: str, headers: dict | None = None, status: int = 200) -> tuple[str]:
    """One question for read_has_meta: a capture's text with ``body`` as its page."""
    return (render_response(status, headers or {"Content-Type": "text/html"}, body),)


def has_meta_rule(question: tuple) -> Rule:
    found = the_rule(*split_response(question[0]))
    return Rule(found, CLAUSES[found])


def exactly(found) -> object:
    """True and None as they are; any other answer as its repr (so 1 is not True, False is not None)."""
    return found if found is None or found is True else f"{found!r}"


def page_in_words(question: tuple) -> str:
    _headers, body = split_response(question[0])
    if len(body) > 240:
        at = body.find("<meta")
        return f"a page of {len(body)} characters with {body[at:at + 60]!r} at character {at}" if at >= 0 else \
            f"a page of {len(body)} characters"
    head = question[0].partition("\n\n")[0].partition("\n")[2]
    return f"the page {body!r}" + (f" under the headers {head!r}" if head else "")


def drawn_pages(make):
    """Pages drawn from a name, a filler text and a place: ``make(name, filler, where)`` builds the questions."""
    from hypothesis import strategies as st

    names = st.sampled_from(("generator", "Generator", "GENERATOR", "gEnErAtOr", "generator ", " generator",
                             "generat0r", "gen\u0435rator", "generators", "x-generator", "generator\u00a0",
                             "&#103;enerator", "GENERATOR\t", ""))
    filler = st.text(alphabet="ab <>/=\"'&#;!-\u00e9", max_size=12)
    return st.builds(make, names, filler, st.integers(0, 3))


def in_page(tag: str, where: int, filler: str = "") -> tuple[str]:
    """``tag`` in a plain page, at one of four places: the head's start or end, the body's start or end."""
    parts = [tag if where == 0 else "", "<title>Seeds</title>\n", tag if where == 1 else "", "</head><body>\n",
             tag if where == 2 else "", f"<p>{escape(filler)}</p>\n", tag if where == 3 else ""]
    return captured("<!doctype html><html><head>\n" + "".join(parts) + "</body></html>\n")


NAMES_OF = {"generator": True, "Generator": True, "GENERATOR": True, "gEnErAtOr": True, "&#103;enerator": True,
            "&#x47;ENERATOR": True, "generator ": None, " generator": None, "generat0r": None, "gen\u0435rator": None,
            "generators": None, "x-generator": None, "generator\u00a0": None, "generator-note": None, "": None}
ELSEWHERE = ('<div name="generator">', '<a name="generator" href="/">', '<link name="generator" href="/cms">',
             '<input name="generator">', '<span name="generator"></span>', '<metadata name="generator">',
             '<me name="generator">', '<z name="generator">', '<METAS name="generator">', '<meta-x NAME=generator>',
             '<meta property="generator" content="x">', '<meta itemprop="generator" content="x">',
             '<meta http-equiv="generator" content="x">', '<meta content="generator">',
             '<meta name="description" content="generator">', '<meta name>', '<meta generator>',
             '<meta name="" content="generator">', '<meta data-name="generator">')
HIDDEN_IN = ("<!-- {} -->", "<title>{}</title>", "<textarea>{}</textarea>", "<script>var t = '{}';</script>",
             "<style>/* {} */</style>", "<xmp>{}</xmp>", "<iframe>{}</iframe>", "<noembed>{}</noembed>",
             "<noframes>{}</noframes>", "<title/>{}</title>", "<img alt='{}'>", "<![CDATA[ {} ]]>")
TEXT_AROUND = ("a &# b", "x &#x", "AT&T", "&amp;", "&#12", "&lt;meta&gt;", "<!-->", "&", "a < b", "<p", "&#;")


def twice_questions() -> list[list]:
    with_tag, without = in_page(TAG, 0), in_page("", 0)
    other = captured(page(head='<meta name="Generator" content="Fern">\n'))
    return [[with_tag, without, with_tag, without, other, captured(HIDDEN), other, captured(page())]]


def name_questions() -> list[list]:
    return [[in_page(f'<meta name="{name}" content="x">', number % 4)] for number, name in enumerate(NAMES_OF)]


def elsewhere_questions() -> list[list]:
    return [[in_page(tag, number % 4)] for number, tag in enumerate(ELSEWHERE)]


def hidden_questions() -> list[list]:
    made = [[in_page(around.format(TAG), number % 4)] for number, around in enumerate(HIDDEN_IN)]
    made.append([captured(page(body=escape(TAG)), {"X-Generator": TAG, "Content-Type": "text/html"})])
    made.append([captured(page(body=f"<p>{escape(TAG)}</p>"))])
    return made


def text_questions() -> list[list]:
    return [[captured(f"<p>{text} </p>\n" + TAG), captured(f"{text}{TAG}"), captured(f"<p>{text}</p>\n")]
            for text in TEXT_AROUND]


def length_questions() -> list[list]:
    return [[captured("x" * before + TAG), captured("<p>" + "seeds " * (before // 6) + "</p>\n" + TAG + "\n<p>end</p>")]
            for before in (0, 1, 1000, 1017, 1023, 1024, 1025, 4096, 65535, 65536, 200_000)]


def empty_questions() -> list[list]:
    return [[("",), ("HTTP/1.1 200 OK",), ("HTTP/1.1 200 OK\n",), ("HTTP/1.1 200 OK\n\n",), captured(""),
             captured(" \n\t"), (TAG,), ("HTTP/1.1 200 OK\n\n" + TAG,), (f"HTTP/1.1 200 OK\nX-Note: {TAG}\n",),
             captured(TAG, status=404), captured(TAG, status=500), captured(TAG, {})]]


def repeated_questions() -> list[list]:
    return [[captured(page(head=TAG + "\n" + TAG + "\n"))], [captured(page(head='<meta name="a"><meta name="generator">'))],
            [captured(page(head='<meta charset="utf-8">\n<meta name="viewport">\n<meta name="GENERATOR">'))],
            [captured(page(head='<meta name="x-generator"><meta name="generator" content="">'))],
            [captured('<meta name="generator" name="other">')], [captured('<meta name="other" name="generator">')]]


def content_questions() -> list[list]:
    return [[in_page(tag, number % 4)] for number, tag in enumerate((
        '<meta name="generator">', '<meta name="generator" content="">', '<meta name="generator" content>',
        '<meta name=generator/>', "<meta name='generator' content=' '>", '<META NAME="GENERATOR" CONTENT=""/>'))]


HAS_META_CLASSES = (
    Edge("the same page asked again, after other pages", fixed=twice_questions, draws=6,
         drawn=lambda: drawn_pages(lambda name, filler, where: [in_page(f'<meta name="{name}">', where, filler),
                                                                 in_page("", where, filler),
                                                                 in_page(f'<meta name="{name}">', where, filler)])),
    Edge("a generator tag with an empty or missing content", fixed=content_questions, draws=6,
         drawn=lambda: drawn_pages(lambda name, filler, where: [in_page(f'<meta name="{name}"' + " content" * where
                                                                        + ">", where, filler)])),
    Edge("the name generator in any letter case, and names that only look like it", fixed=name_questions, draws=8,
         drawn=lambda: drawn_pages(lambda name, filler, where: [in_page(f'<meta name="{name}" content="x">', where,
                                                                        filler)])),
    Edge("another tag named generator, or another attribute of a meta tag that says generator",
         fixed=elsewhere_questions, draws=6,
         drawn=lambda: drawn_pages(lambda name, filler, where: [in_page(ELSEWHERE[len(filler) % len(ELSEWHERE)].replace(
             "generator", name or "generator"), where, filler)])),
    Edge("a tag where a browser reads text: a comment, a header, page text, an attribute, an element read as text",
         fixed=hidden_questions, draws=6,
         drawn=lambda: drawn_pages(lambda name, filler, where: [in_page(HIDDEN_IN[len(filler) % len(HIDDEN_IN)].format(
             f'<meta name="{name}">'), where, filler)])),
    Edge("page text with character references and lone ampersands before the tag", fixed=text_questions, draws=6,
         drawn=lambda: drawn_pages(lambda name, filler, where: [captured(f"<p>{filler}</p>{TAG}"),
                                                                 captured(f"{filler}<meta name=\"{name}\">")])),
    Edge("a page of any length, the tag at its start, past its first kilobyte or at its very end",
         fixed=length_questions, draws=5,
         drawn=lambda: drawn_pages(lambda name, filler, where: [captured("<p>" + filler * (where * 3000) + "</p>" + TAG)])),
    Edge("an empty page, a capture with no page, or the tag outside the page", fixed=empty_questions, draws=5,
         drawn=lambda: drawn_pages(lambda name, filler, where: [(f"HTTP/1.1 200 OK\nX-{where}: {filler}\n\n"
                                                                  + "<meta name=\"generator\">" * (where % 2),)])),
    Edge("a generator tag among other meta tags, repeated, or with its name written twice",
         fixed=repeated_questions, draws=5,
         drawn=lambda: drawn_pages(lambda name, filler, where: [captured(f'<meta name="{name}"><meta name="x">' * where
                                                                          + escape(filler))])),
)


def observation_rule(question: tuple) -> Rule:
    capture = question[0]
    found = the_rule(*split_response(capture["body"]))
    if found is None:
        return Rule(None, "a capture whose page says nothing answers None, and nothing is recorded")
    return Rule(canonical({"run_id": capture["run_id"], "field": "has_meta", "value": True,
                           "capture_id": capture["capture_id"]}),
                "the observation is field 'has_meta' with value True, citing the capture it was read from: its "
                "run_id and capture_id as the capture gives them")


def canonical(found) -> object:
    """An observation as its JSON (True is not 1), None as None."""
    return None if found is None else json.dumps(found, sort_keys=True)


def a_capture(body: str, run_id: str = "r" * 64, capture_id: str = "c" * 64, status: int = 200) -> tuple[dict]:
    return ({"run_id": run_id, "action_id": f"inspect_headers -> {LAB}/about", "status": status,
             "body": render_response(status, {"Content-Type": "text/html"}, body), "capture_id": capture_id},)


def capture_in_words(question: tuple) -> str:
    capture = question[0]
    return (f"the capture {capture['capture_id'][:20]!r} of run {capture['run_id'][:20]!r} (HTTP {capture['status']}) "
            f"whose {page_in_words((capture['body'],))}")


def drawn_captures():
    from hypothesis import strategies as st

    ids = st.text(alphabet="0123456789abcdefABCDEF", min_size=1, max_size=64)
    return st.builds(lambda run_id, capture_id, tagged, status: [a_capture(page(head=TAG if tagged else ""), run_id,
                                                                           capture_id, status)],
                     ids, ids, st.booleans(), st.integers(100, 599))


OBSERVATION_CLASSES = (
    Edge("a capture's run and id, whatever they are, cited as the capture gives them",
         fixed=lambda: [[a_capture(page(head=TAG), run_id, capture_id, status)] for run_id, capture_id, status in (
             ("a" * 64, "b" * 64, 200), ("B" * 64, "b" * 64, 404), ("0", "1", 500), ("c" * 63 + "d", "c" * 64, 301),
             ("c" * 64, "c" * 63 + "d", 100))], drawn=drawn_captures, draws=6),
    Edge("a capture whose page says nothing, or only seems to",
         fixed=lambda: [[a_capture(text)] for text in ("", page(), HIDDEN, AS_TEXT,
                                                      page(head=TAG.replace("generator", "x-generator")))],
         drawn=drawn_captures, draws=6),
    Edge("the same capture asked again, after another",
         fixed=lambda: [[a_capture(page(head=TAG)), a_capture(page(), "d" * 64, "e" * 64), a_capture(page(head=TAG)),
                         a_capture(page(head=TAG), "d" * 64, "e" * 64)]],
         drawn=lambda: drawn_captures().map(lambda questions: questions * 2), draws=6),
)
EDGE_CLASSES = HAS_META_CLASSES + OBSERVATION_CLASSES


def test_every_edge_class_of_the_two_contracts_gets_the_rules_answer():
    compare(yours, "read_has_meta", HAS_META_CLASSES, rule=has_meta_rule, judged=exactly, shown=page_in_words)
    compare(yours, "has_meta_observation", OBSERVATION_CLASSES, rule=observation_rule, judged=canonical,
            shown=capture_in_words, unchanged=True)
