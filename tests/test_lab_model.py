"""The scripted model: deterministic raw text, driven by data/lab/model/script.json."""

import json
import shutil

import pytest

from lab import DEFAULT_LAB_DIR, LAB_ORIGIN, OTHER_ORIGIN
from lab.adapter import HttpAdapter
from lab.model import ScriptedModel, ScriptError
from lab.origins import canonical_origin

KNOWN_TOOLS = {"inspect_headers", "inspect_metadata", "probe_reflection"}
PROPOSAL_KEYS = {"tool", "destination", "arguments", "why"}
# Which rule each lab page triggers when the model is shown that page's body.
PAGE_RULES = {
    "/": "follow-home-links",
    "/news": "follow-injected-instruction",
    "/about": "read-generator-meta",
    "/debug": "probe-debug-page",
    "/robots.txt": "half-written-reply",
    "/debug?q=lab-probe-%3Ci%3E7%3C/i%3E": "wrong-shape-reply",  # the probe's marker, reflected
}


def proposals_in(reply):
    """The proposals of a well-formed reply, or None if the reply is malformed."""
    try:
        parsed = json.loads(reply)
    except json.JSONDecodeError:
        return None
    if not isinstance(parsed, dict) or set(parsed) != {"proposals"} or not isinstance(parsed["proposals"], list):
        return None
    proposals = parsed["proposals"]
    if not all(isinstance(p, dict) and set(p) == PROPOSAL_KEYS and isinstance(p["arguments"], dict) for p in proposals):
        return None
    return proposals


@pytest.fixture(scope="module")
def model():
    return ScriptedModel()


@pytest.fixture(scope="module")
def page_text():
    with HttpAdapter("inprocess") as adapter:
        yield lambda path: adapter.fetch(f"https://lab.example{path}").body


def test_the_same_prompt_always_gets_the_same_reply(model, page_text):
    """The scripted model gives the same raw text for the same prompt, every time and in every instance."""
    prompts = ["no captures yet", "", "has_meta: true", *(page_text(path) for path in PAGE_RULES)]
    again = ScriptedModel()
    for prompt in prompts:
        first = model.reply(prompt)
        assert isinstance(first, str) and first
        assert model.reply(prompt) == first == again.reply(prompt)


def test_the_script_is_small_and_its_rules_are_distinct(model):
    """The script holds six to ten rules with distinct names and distinct replies."""
    assert 6 <= len(model.rules) <= 10
    assert len({rule.name for rule in model.rules}) == len(model.rules)
    assert len({rule.reply for rule in model.rules}) == len(model.rules)


@pytest.mark.parametrize(("path", "rule_name"), sorted(PAGE_RULES.items()))
def test_each_page_triggers_its_rule(model, page_text, path, rule_name):
    """Shown a lab page, the model answers with the rule written for that page."""
    assert model.rule_for(page_text(path)).name == rule_name


def test_the_news_page_makes_the_model_repeat_the_injected_instruction(model, page_text):
    """Shown the news page, the model proposes inspect_headers against https://other.example/, as the injected text told it to."""
    proposals = proposals_in(model.reply(page_text("/news")))
    assert proposals is not None and len(proposals) == 1
    assert proposals[0]["tool"] == "inspect_headers"
    assert canonical_origin(proposals[0]["destination"]) == OTHER_ORIGIN


def test_the_script_holds_malformed_replies_of_both_kinds(model):
    """At least one reply is not JSON at all and at least one is JSON of the wrong shape."""
    malformed = [rule.reply for rule in model.rules if proposals_in(rule.reply) is None]
    not_json, wrong_shape = [], []
    for reply in malformed:
        try:
            json.loads(reply)
            wrong_shape.append(reply)
        except json.JSONDecodeError:
            not_json.append(reply)
    assert not_json and wrong_shape


def test_the_well_formed_replies_use_the_known_tools_and_one_unknown_tool(model):
    """Well-formed replies propose each known tool and at least one tool nobody declared."""
    tools = set()
    for rule in model.rules:
        for proposal in proposals_in(rule.reply) or []:
            tools.add(proposal["tool"])
            assert canonical_origin(proposal["destination"]) in {LAB_ORIGIN, OTHER_ORIGIN}
    assert KNOWN_TOOLS <= tools
    assert tools - KNOWN_TOOLS == {"shell"}


def test_an_unmatched_prompt_gets_the_fallback_reply(model):
    """A prompt no rule matches gets the fallback: a well-formed reply with no proposals."""
    assert model.rule_for("nothing in this prompt matches") is None
    assert model.reply("nothing in this prompt matches") == model.fallback
    assert proposals_in(model.fallback) == []


def test_the_first_matching_rule_wins(model, page_text):
    """When a prompt matches several rules, the earliest rule in the script decides the reply."""
    prompt = page_text("/about") + page_text("/debug") + page_text("/news")
    matching = {rule.name for rule in model.rules if rule.matches(prompt)}
    assert {"probe-debug-page", "read-generator-meta", "follow-injected-instruction"} <= matching
    assert model.rule_for(prompt).name == "follow-injected-instruction"
    assert model.reply(prompt) == model.rules[0].reply


def test_the_model_follows_an_edited_script(tmp_path):
    """The model is driven by the script file: an edited copy changes its replies, and every fragment of a rule must appear."""
    lab_dir = shutil.copytree(DEFAULT_LAB_DIR, tmp_path / "lab")
    script_path = lab_dir / "model" / "script.json"
    script = json.loads(script_path.read_text(encoding="utf-8"))
    script["rules"].insert(0, {"name": "both-words", "when": ["alpha", "beta"], "reply": "both seen"})
    script["fallback"] = "nothing to propose"
    script_path.write_text(json.dumps(script), encoding="utf-8")
    model = ScriptedModel(lab_dir)
    assert model.reply("alpha and beta") == "both seen"
    assert model.reply("alpha only") == "nothing to propose"


@pytest.mark.parametrize(
    "content",
    [
        None,
        "not json",
        json.dumps({"rules": []}),
        json.dumps({"rules": {}, "fallback": ""}),
        json.dumps({"rules": [{"name": "a", "when": [], "reply": "x"}], "fallback": ""}),
        json.dumps({"rules": [{"name": "a", "when": [""], "reply": "x"}], "fallback": ""}),
        json.dumps({"rules": [{"name": "a", "when": ["x"], "reply": {"proposals": []}}], "fallback": ""}),
        json.dumps({"rules": [{"name": "a", "when": ["x"], "reply": "1"}, {"name": "a", "when": ["y"], "reply": "2"}],
                    "fallback": ""}),
    ],
)
def test_a_broken_script_is_refused_when_the_model_is_created(tmp_path, content):
    """A missing or malformed script raises a script error when the model is created, not later in a run."""
    (tmp_path / "model").mkdir()
    if content is not None:
        (tmp_path / "model" / "script.json").write_text(content, encoding="utf-8")
    with pytest.raises(ScriptError):
        ScriptedModel(tmp_path)
