"""Helper tests for lesson 2 that are not completion sentences.

Property tests throw arbitrary payloads at every record kind and check the
door's two promises: record() never raises, and a refusal changes no store
and appends exactly one refused event with a reason. Hostile destinations
check the policy's origin rule from the attacker's side. The rest pins down
the policy's data contract, the stage hook and the demo command.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lab.origins
from core.run import origins
from core.run.canon import canonical_bytes, digest
from core.run.demo_records import POLICY, build_policy, run_demo
from core.run.policy import Policy, PolicyError
from core.run.doors import CODES
from core.run.recorder import GUARDS, KINDS, Recorder, Refusal
from core.run.stages import STAGE, stage_of
from core.run.records import RecordError, make_run

from .conftest import examples

ROOT = Path(__file__).resolve().parent.parent
RECORD_KINDS = tuple(row.name for row in KINDS)
PAYLOAD_FIELDS = {row.name: row.fields for row in KINDS}
STORE_NAMES = {row.name: row.store for row in KINDS}
BODY = "HTTP/1.1 200 OK\nServer: lab-fixture/1.0\n\n<p>hello</p>\n"
IDENTITY = "inspect_headers -> https://lab.example:443/"
OTHER_RUN_ID = make_run({"policy": "another"}, {"world": "another"}).run_id
PROPERTY_SETTINGS = settings(max_examples=examples(600), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def populated() -> Recorder:
    """A recorder holding one of everything, so payloads can name real records."""
    policy = build_policy()
    recorder = Recorder(make_run(policy.snapshot(), {"world": "properties"}), policy)
    run_id = recorder.run.run_id
    action = {"run_id": run_id, "tool": "inspect_headers", "destination": "https://lab.example/", "arguments": {}}
    action_id = recorder.record("action", action)["id"]
    capture = {"run_id": run_id, "action_id": action_id, "status": 200, "body": BODY}
    capture_id = recorder.record("capture", capture)["id"]
    finding = {"run_id": run_id, "capture_id": capture_id, "quote": "Server", "claim": "c"}
    finding_id = recorder.record("finding", finding)["id"]
    observation = {"run_id": run_id, "field": "server", "value": "lab-fixture/1.0", "capture_id": capture_id}
    recorder.record("observation", observation)
    assert recorder.snapshot()["counts"] == {"admitted": 4, "refusals": 0}
    recorder.known = {"action_id": action_id, "capture_id": capture_id, "finding_id": finding_id}
    return recorder


def stores(recorder: Recorder) -> dict:
    report = recorder.snapshot()
    return {key: value for key, value in report.items() if key not in ("events", "counts")}


# --- strategies ----------------------------------------------------------------------

lone_surrogates = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
nasty_text = st.one_of(
    st.text(max_size=12),
    st.text(st.one_of(st.characters(), lone_surrogates), max_size=12),
    st.sampled_from(["", " ", "x" * 20_000, "\x00", "https://lab.example/", IDENTITY, "0" * 64]),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    nasty_text,
)
junk = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


def plausible(kind: str, recorder: Recorder) -> dict:
    """A payload of ``kind`` that the door would mostly admit, before any mangling."""
    held, run_id = recorder.known, recorder.run.run_id
    return {
        "observation": {"run_id": run_id, "field": "has_meta", "value": True, "capture_id": held["capture_id"]},
        "action": {"run_id": run_id, "tool": "inspect_headers", "destination": "https://lab.example/x", "arguments": {}},
        "capture": {"run_id": run_id, "action_id": held["action_id"], "status": 200, "body": "b"},
        "outcome": {
            "run_id": run_id,
            "action_id": held["action_id"],
            "status": "succeeded",
            "capture_id": held["capture_id"],
            "detail": "",
        },
        "finding": {"run_id": run_id, "capture_id": held["capture_id"], "quote": "200 OK", "claim": "c"},
        "review": {"run_id": run_id, "subject_id": held["finding_id"], "decision": "approved", "reviewer": "r", "reason": "ok"},
    }[kind]


@st.composite
def mangled_payloads(draw, kind: str, recorder: Recorder):
    """A plausible payload with fields dropped, replaced by junk, added, or rebound to another run."""
    if draw(st.integers(0, 9)) == 0:
        return draw(junk)  # usually not even an object
    payload = plausible(kind, recorder)
    for field in list(payload)[1:]:  # every field but run_id
        choice = draw(st.sampled_from(["keep", "keep", "drop", "junk"]))
        if choice == "drop":
            del payload[field]
        elif choice == "junk":
            payload[field] = draw(junk)
    if draw(st.integers(0, 3)) == 3:
        payload["run_id"] = draw(st.one_of(st.sampled_from([OTHER_RUN_ID, "another-run", None]), junk))
    if draw(st.integers(0, 3)) == 3:
        payload[draw(st.sampled_from(list(PAYLOAD_FIELDS[kind][1:]) + ["extra", "__class__", ""]))] = draw(junk)
    return payload


def check_door_promises(recorder: Recorder, kind: object, payload: object) -> None:
    before, events_before = stores(recorder), recorder.events
    answer = recorder.record(kind, payload)  # must not raise, whatever the payload
    after = recorder.events
    assert after[:-1] == events_before and len(after) == len(events_before) + 1
    event = after[-1]
    assert event["seq"] == len(after)
    if answer["recorded"]:
        assert set(answer) == {"recorded", "kind", "id"}
        assert event["status"] == "admitted" and event["id"] == answer["id"] and event["reason"] == ""
        store = STORE_NAMES[kind]
        assert recorder.snapshot()[store] == before[store] + [recorder.snapshot()[store][-1]]
    else:
        assert set(answer) == {"recorded", "reason"}
        assert answer["reason"] and len(answer["reason"]) <= 200
        assert event == {"seq": len(after), "kind": event["kind"], "status": "refused", "id": "", "reason": answer["reason"],
                         "code": event["code"], "by": event["by"]}
        assert event["code"] in CODES and event["by"].startswith("door: ")
        assert stores(recorder) == before
    canonical_bytes(recorder.snapshot())  # the state stays JSON-ready either way


@pytest.mark.parametrize("kind", RECORD_KINDS)
def test_arbitrary_payloads_never_escape_and_refusals_change_nothing(kind):
    """For each kind, mangled payloads either enter cleanly or leave one refused event and no trace."""

    @PROPERTY_SETTINGS
    @given(st.data())
    def property_holds(data):
        recorder = populated()
        check_door_promises(recorder, kind, data.draw(mangled_payloads(kind, recorder)))

    property_holds()


@settings(max_examples=examples(300), deadline=None)
@given(kind=junk, payload=junk)
def test_junk_kinds_and_payloads_are_refused_with_a_reason(kind, payload):
    """An unknown or non-string kind is refused, never raised."""
    recorder = populated()
    check_door_promises(recorder, kind, payload)
    assert recorder.events[-1]["status"] == "refused"


# --- hostile destinations ------------------------------------------------------------

HOSTILE = [
    ("https://lab.example.attacker.test/", "destination https://lab.example.attacker.test:443 is outside the explicit authorized origins"),
    ("https://attacker.test/lab.example", "destination https://attacker.test:443 is outside the explicit authorized origins"),
    ("https://lab.example@attacker.test/", "destination 'https://lab.example@attacker.test/' is not a valid origin: userinfo"),
    ("https://user:secret@lab.example/", "destination 'https://user:secret@lab.example/' is not a valid origin: userinfo"),
    ("https://127.0.0.1/", "destination https://127.0.0.1:443 is outside the explicit authorized origins"),
    ("https://2130706433/", "destination 'https://2130706433/' is not a valid origin: invalid-host"),
    ("https://0x7f.0.0.1/", "destination 'https://0x7f.0.0.1/' is not a valid origin: invalid-host"),
    ("https://[::1]/", "destination https://[::1]:443 is outside the explicit authorized origins"),
    ("https://[::1%25eth0]/", "destination 'https://[::1%25eth0]/' is not a valid origin: invalid-host"),
    ("https://lab.ex\u00e4mple/", "destination 'https://lab.ex\u00e4mple/' is not a valid origin: invalid-host"),
    ("https://\u212aab.example/", "destination 'https://\u212aab.example/' is not a valid origin: invalid-host"),
    ("https://lab%2eexample/", "destination 'https://lab%2eexample/' is not a valid origin: invalid-host"),
    ("https://lab.example\\.attacker.test/", "destination 'https://lab.example\\\\.attacker.test/' is not a valid origin: malformed"),
    ("https://lab.example /", "destination 'https://lab.example /' is not a valid origin: malformed"),
    ("https://lab.example:0/", "destination 'https://lab.example:0/' is not a valid origin: invalid-port"),
    ("https://lab.example:444/", "destination https://lab.example:444 is outside the explicit authorized origins"),
    ("http://lab.example/", "destination http://lab.example:80 is outside the explicit authorized origins"),
    ("javascript:alert(1)", "destination 'javascript:alert(1)' is not a valid origin: unsupported-scheme"),
    ("lab.example", "destination 'lab.example' is not a valid origin: unsupported-scheme"),
    ("", "destination '' is not a valid origin: empty"),
    (None, "destination None is not a valid origin: empty"),
    ("https://" + "a" * 5000 + ".example/", "destination '" + ("https://" + "a" * 72) + "'... is not a valid origin: invalid-host"),
]


@pytest.mark.parametrize("destination, reason", HOSTILE, ids=[repr(d)[:40] for d, _ in HOSTILE])
def test_hostile_destinations_are_refused_with_their_reason(destination, reason):
    """The policy and the door both refuse a hostile destination, naming why, and store nothing."""
    policy = build_policy()
    assert policy.allows_destination(destination).to_dict() == {"allowed": False, "reason": reason}
    recorder = Recorder(make_run(policy.snapshot(), {"world": "hostile"}), policy)
    payload = {"run_id": recorder.run.run_id, "tool": "inspect_headers", "destination": destination, "arguments": {}}
    assert recorder.record("action", payload) == {"recorded": False, "reason": reason}
    assert recorder.snapshot()["actions"] == []


def alias_of_lab(draw_case, draw_dot, draw_port, draw_tail) -> str:
    scheme = "".join(c.upper() if up else c for c, up in zip("https", draw_case[:5]))
    host = "".join(c.upper() if up else c for c, up in zip("lab.example", draw_case[5:]))
    return f"{scheme}://{host}{'.' if draw_dot else ''}{':443' if draw_port else ''}{draw_tail}"


@settings(max_examples=examples(300), deadline=None)
@given(
    st.lists(st.booleans(), min_size=16, max_size=16),
    st.booleans(),
    st.booleans(),
    st.sampled_from(["", "/", "/#", "/#top", "#x", "?", "/?"]),
)
def test_alias_spellings_share_one_identity(case, dot, port, tail):
    """Any mix of letter case, trailing dot, explicit default port and fragment names the same act."""
    spelling = alias_of_lab(case, dot, port, tail)
    policy = build_policy()
    assert policy.allows_action("inspect_headers", spelling).allowed
    recorder = Recorder(make_run(policy.snapshot(), {"world": "alias"}), policy)
    payload = {"run_id": recorder.run.run_id, "tool": "inspect_headers", "destination": "https://lab.example/", "arguments": {}}
    assert recorder.record("action", payload)["id"] == IDENTITY
    assert recorder.record("action", {**payload, "destination": spelling}) == {
        "recorded": False,
        "reason": f"action '{IDENTITY}' is already recorded",
    }


def outcome_of(canonicalize, error_type, text):
    try:
        return ("origin", canonicalize(text))
    except error_type as exc:
        return ("error", exc.category)


URLISH = st.lists(
    st.sampled_from(
        ["http", "HTTPS", "ftp", ":", "//", "/", "@", "[", "]", "::1", ".", "lab", "EXAMPLE", "443", "0", "65536",
         "-", "%", "_", "?", "#", "\\", " ", "\u00fc", "xn--", "127", "256", "01", "\u212a", "\x00", "\ud800"]
    ),
    max_size=12,
).map("".join)


@settings(max_examples=examples(1000), deadline=None)
@given(st.one_of(URLISH, st.builds(lambda s, rest: s + rest, st.sampled_from(["http://", "https://"]), URLISH)))
def test_origin_twins_agree_beyond_the_table(text):
    """The core twin and the lab canonicalizer agree on generated URL-like text, not only on the table."""
    assert outcome_of(origins.canonical_origin, origins.OriginError, text) == outcome_of(
        lab.origins.canonical_origin, lab.origins.OriginError, text
    )


# --- the policy's data contract ------------------------------------------------------


def test_policy_snapshot_round_trips_in_a_fixed_order():
    """from_dict(snapshot()) is the same policy, and spelling or order does not change the snapshot."""
    policy = build_policy()
    assert policy.snapshot() == POLICY
    assert Policy.from_dict(policy.snapshot()) == policy
    respelled = dict(POLICY, allowed_origins=["HTTPS://LAB.EXAMPLE./", "https://lab.example:443"])
    assert Policy.from_dict(respelled).snapshot() == POLICY
    two_tools = dict(POLICY, tools=[dict(POLICY["tools"][0], tool_id="z_tool"), POLICY["tools"][0]])
    assert [t["tool_id"] for t in Policy.from_dict(two_tools).snapshot()["tools"]] == ["inspect_headers", "z_tool"]
    assert json.loads(json.dumps(policy.snapshot())) == policy.snapshot()


@pytest.mark.parametrize(
    "change",
    [
        {"allowed_origins": ["https://lab.example@x/"]},
        {"allowed_origins": []},
        {"allowed_origins": "https://lab.example"},
        {"reference": ""},
        {"max_actions": -1},
        {"max_actions": True},
        {"tools": [dict(POLICY["tools"][0], weight=float("inf"))]},
        {"tools": [POLICY["tools"][0], POLICY["tools"][0]]},
        {"tools": [dict(POLICY["tools"][0], tool_id="two words")]},
        {"surprise": 1},
    ],
)
def test_policy_data_that_breaks_the_contract_is_refused(change):
    """Bad operator data raises PolicyError instead of becoming a silently wrong policy."""
    with pytest.raises(PolicyError):
        Policy.from_dict({**POLICY, **change})


def metadata_policy(max_actions: int = 4) -> Policy:
    metadata = {"tool_id": "inspect_metadata", "activity": "passive", "requires": {"has_meta": True},
                "family": "fam-recon", "weight": 1.0, "cost": 1.0}
    return Policy.from_dict(dict(POLICY, tools=POLICY["tools"] + [metadata], max_actions=max_actions))


def test_allows_action_checks_in_a_fixed_order_and_says_why():
    """Tool, destination, required observations, then budget; an allowed action has a reason too."""
    policy = metadata_policy(max_actions=1)
    lab_url = "https://lab.example/"
    assert policy.allows_action("shell", "https://other.example/", actions_taken=9).reason == "tool 'shell' is not declared in the catalogue"
    assert policy.allows_action("inspect_metadata", "https://other.example/", actions_taken=9).reason == (
        "destination https://other.example:443 is outside the explicit authorized origins"
    )
    assert policy.allows_action("inspect_metadata", lab_url, actions_taken=9).reason == (
        "tool 'inspect_metadata' requires observed field 'has_meta'"
    )
    assert policy.allows_action("inspect_metadata", lab_url, observed={"has_meta": 1}).reason == (
        "tool 'inspect_metadata' requires observed field 'has_meta' to be true, observed 1"
    )
    assert policy.allows_action("inspect_metadata", lab_url, observed={"has_meta": True}, actions_taken=1).reason == (
        "action budget of 1 actions is spent"
    )
    assert policy.allows_action("inspect_metadata", lab_url, observed={"has_meta": True}).to_dict() == {
        "allowed": True,
        "reason": "tool 'inspect_metadata' at https://lab.example:443/ is authorized under training-authorization-0001",
    }


def test_observations_unlock_required_fields_at_the_door():
    """An action whose tool requires a field is refused until an admitted observation supplies it."""
    policy = metadata_policy()
    recorder = Recorder(make_run(policy.snapshot(), {"world": "requires"}), policy)
    run_id = recorder.run.run_id
    payload = {"run_id": run_id, "tool": "inspect_metadata", "destination": "https://lab.example/", "arguments": {}}
    assert recorder.record("action", payload)["reason"] == "tool 'inspect_metadata' requires observed field 'has_meta'"
    assert recorder.record("observation", {"run_id": run_id, "field": "has_meta", "value": True})["recorded"]
    assert recorder.record("action", payload)["id"] == "inspect_metadata -> https://lab.example:443/"


def test_action_budget_is_enforced_at_the_door():
    """Once max_actions actions are admitted, the next one is refused with the budget reason."""
    policy = build_policy()
    recorder = Recorder(make_run(policy.snapshot(), {"world": "budget"}), policy)
    run_id = recorder.run.run_id
    for index in range(policy.max_actions):
        payload = {"run_id": run_id, "tool": "inspect_headers", "destination": f"https://lab.example/{index}", "arguments": {}}
        assert recorder.record("action", payload)["recorded"]
    payload = {"run_id": run_id, "tool": "inspect_headers", "destination": "https://lab.example/more", "arguments": {}}
    assert recorder.record("action", payload) == {"recorded": False, "reason": "action budget of 4 actions is spent"}


# --- the rest of the door ------------------------------------------------------------


def test_reviews_and_observations_must_cite_what_the_run_holds():
    """A review needs a held finding or action, once; an observation may cite only a held capture."""
    recorder = populated()
    run_id, held = recorder.run.run_id, recorder.known
    review = {"run_id": run_id, "decision": "approved", "reviewer": "operator", "reason": "checked"}
    assert recorder.record("review", {**review, "subject_id": "f" * 64})["reason"] == (
        f"review names subject '{'f' * 64}' that this run does not hold"
    )
    assert recorder.record("review", {**review, "subject_id": held["finding_id"]})["recorded"]
    assert recorder.record("review", {**review, "subject_id": held["finding_id"], "decision": "rejected"})["reason"] == (
        f"subject '{held['finding_id']}' already has a review decision"
    )
    assert recorder.record("review", {**review, "subject_id": held["action_id"]})["recorded"]
    cited = {"run_id": run_id, "field": "title", "value": "x", "capture_id": "e" * 64}
    assert recorder.record("observation", cited)["reason"] == f"observation cites capture '{'e' * 64}' that this run does not hold"


def test_a_claimed_identifier_must_match_the_content():
    """A payload may carry its own id only if that id is the digest the door computes."""
    recorder = populated()
    run_id, held = recorder.run.run_id, recorder.known
    finding = {"run_id": run_id, "capture_id": held["capture_id"], "quote": "hello", "claim": "c2"}
    expected = digest({"run_id": run_id, "capture_id": held["capture_id"], "quote": "hello", "claim": "c2"})
    assert recorder.record("finding", {**finding, "finding_id": "0" * 64})["reason"] == (
        f"finding_id '{'0' * 64}' is not the digest of the finding's content"
    )
    assert recorder.record("finding", {**finding, "finding_id": expected})["id"] == expected


def test_outcome_must_cite_a_capture_of_its_own_action():
    """An outcome's capture must be held and must belong to the same action."""
    recorder = populated()
    run_id, held = recorder.run.run_id, recorder.known
    second = recorder.record("action", {"run_id": run_id, "tool": "inspect_headers", "destination": "https://lab.example/2", "arguments": {}})["id"]
    crossed = {"run_id": run_id, "action_id": second, "status": "succeeded", "capture_id": held["capture_id"]}
    assert recorder.record("outcome", crossed)["reason"] == f"outcome cites capture '{held['capture_id']}' of another action"


def test_a_guard_added_to_the_list_refuses_without_rewriting_the_door():
    """A door is data: a guard added to its list refuses through the same ledger, with no subclass and no change to the door."""

    def only_observations(door, request):
        if request.kind != "observation":
            raise Refusal("out_of_stage", f"{request.kind} is not admitted in stage {stage_of(door)!r}")

    policy = build_policy()
    recorder = Recorder(make_run(policy.snapshot(), {"world": "staged"}), policy, guards=(*GUARDS, only_observations))
    recorder.state[STAGE] = "observe"  # lesson 3's state, without lesson 3's row or guard
    run_id = recorder.run.run_id
    action = {"run_id": run_id, "tool": "inspect_headers", "destination": "https://lab.example/", "arguments": {}}
    assert recorder.record("action", action) == {"recorded": False, "reason": "action is not admitted in stage 'observe'"}
    assert recorder.record("observation", {"run_id": run_id, "field": "f", "value": 1})["recorded"]
    assert recorder.snapshot()["stage"] == "observe"
    assert recorder.events[0]["by"] == "door: test_run_door_properties.only_observations"


def test_refuse_needs_a_reason_and_bounds_it():
    """A refusal without a reason is a programming error; a long reason is cut to 200 characters."""
    recorder = populated()
    with pytest.raises(ValueError):
        recorder.refuse("proposal", "  ", code="malformed_reply", by="a test")
    with pytest.raises(ValueError):
        recorder.refuse("proposal", "no code", code="", by="a test")
    answer = recorder.refuse("proposal", "r" * 1000, code="malformed_reply", by="a test")
    assert len(answer["reason"]) == 200 and answer["reason"].endswith("...")
    assert recorder.events[-1]["kind"] == "proposal" and recorder.events[-1]["by"] == "caller: a test"
    assert recorder.ledger[-1]["payload"] is None


def test_snapshot_is_json_ready_with_empty_stage_and_no_seal():
    """The snapshot has every store, the ledger, counts, an empty stage and closed set to null."""
    report = run_demo()["report"]
    assert set(report) == {"run", "policy", "stage", "closed", "events", "counts", "observations", "actions",
                           "captures", "outcomes", "findings", "reviews"}
    assert report["stage"] == "" and report["closed"] is None
    assert report["counts"] == {"admitted": 6, "refusals": 5}
    assert [e["seq"] for e in report["events"]] == list(range(1, 12))
    canonical_bytes(report)


# --- the demo command ----------------------------------------------------------------


def run_command(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "core.run.demo_records", *args], cwd=ROOT, capture_output=True, text=True, env=env
    )


def test_demo_chain_binds_each_identifier_to_the_next():
    """The demo's chain carries action_id into the capture, capture_id into the finding, finding_id into the review."""
    artifact = run_demo()
    records = {entry["kind"]: entry["record"] for entry in artifact["admitted"]}
    assert [entry["kind"] for entry in artifact["admitted"]] == ["observation", "action", "capture", "outcome", "finding", "review"]
    assert records["capture"]["action_id"] == records["action"]["action_id"]
    assert records["outcome"]["capture_id"] == records["finding"]["capture_id"] == records["capture"]["capture_id"]
    assert records["review"]["subject_id"] == records["finding"]["finding_id"]
    assert len(artifact["refused"]) == 5 and all(r["recorded"] is False and r["reason"] for r in artifact["refused"])
    statuses = [e["status"] for e in artifact["report"]["events"]]
    first_refusal, last_refusal = statuses.index("refused"), len(statuses) - 1 - statuses[::-1].index("refused")
    assert "admitted" in statuses[:first_refusal] and "admitted" in statuses[last_refusal:]


def test_committed_artifact_matches_a_fresh_run_under_any_hash_seed(tmp_path):
    """The demo writes data/course/records-demo.json byte for byte, whatever the hash seed, timezone or locale."""
    outputs = []
    for seed, tz, locale in [("0", "UTC", "C"), ("12345", "Pacific/Kiritimati", "C.UTF-8")]:
        out = tmp_path / f"demo-{seed}.json"
        env = {**os.environ, "PYTHONHASHSEED": seed, "TZ": tz, "LC_ALL": locale}
        result = run_command("--out", str(out), env=env)
        assert result.returncode == 0 and result.stderr == ""
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1] == (ROOT / "data" / "course" / "records-demo.json").read_bytes()


def test_demo_command_fails_with_one_line_and_no_traceback(tmp_path):
    """A usage error exits 2 and an unwritable path exits 1, each with a short message and no traceback."""
    usage = run_command()
    assert usage.returncode == 2 and "--out" in usage.stderr and "Traceback" not in usage.stderr
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    unwritable = run_command("--out", str(blocker / "inside.json"))
    assert unwritable.returncode == 1 and "Traceback" not in unwritable.stderr
    assert len(unwritable.stderr.strip().splitlines()) == 1


# --- the door as data: rows, hooks and guards, each with its module ----------------------


def test_the_run_binding_is_asked_before_the_kind():
    """A payload bound to another run is refused for that, whatever kind it names: the binding is the first question once the payload is an object."""
    recorder = populated()
    for kind in ("bogus", "action", None, "transition"):
        assert recorder.record(kind, {"run_id": OTHER_RUN_ID}) == {
            "recorded": False, "reason": "payload run_id does not belong to this run"}
    assert recorder.record("bogus", {"run_id": recorder.run.run_id})["reason"] == "unknown record kind 'bogus'"
    assert [guard.__name__ for guard in GUARDS] == [
        "payload_is_object", "run_binding", "kind_is_known", "fields_are_declared", "kinds_contract"]


def test_printing_a_door_lists_its_kinds_and_guards_in_order():
    """print(door) shows each kind with its store, and each guard in the order the door asks them."""
    text = str(populated())
    assert text.splitlines()[1:] == [
        "kinds (store; builder; then its hooks, in order):",
        "  observation -> observations; recorder.build_observation", "      then recorder.note_observation",
        "  action -> actions; recorder.build_action", "      asks policy.tool_is_declared",
        "      asks policy.destination_is_authorized", "      asks policy.arguments_fit",
        "      asks policy.requirements_observed", "      asks policy.budget_left",
        "  capture -> captures; recorder.build_capture",
        "  outcome -> outcomes; recorder.build_outcome", "      then recorder.note_outcome",
        "  finding -> findings; recorder.build_finding",
        "  review -> reviews; recorder.build_review", "      then recorder.note_review",
        "guards, in order:", "  1. recorder.payload_is_object", "  2. recorder.run_binding",
        "  3. recorder.kind_is_known", "  4. recorder.fields_are_declared", "  5. recorder.kinds_contract"]


@pytest.mark.parametrize("origin", ["https://lab.example/admin", "https://lab.example/?x=1", "https://lab.example/#top",
                                    "https://lab.example:443/a/"])
def test_allowed_origins_must_be_bare(origin):
    """An authorized origin with a path, query or fragment is refused: it would look narrower than the origin it grants."""
    with pytest.raises(PolicyError, match="is not a bare origin"):
        Policy.from_dict({**POLICY, "allowed_origins": [origin]})
    assert Policy.from_dict({**POLICY, "allowed_origins": ["HTTPS://LAB.EXAMPLE:443/"]}).allowed_origins == (
        "https://lab.example:443",)


def test_a_built_policy_cannot_be_edited():
    """Every value of a built policy is frozen: the run identity was computed from it, so nothing may change it afterwards."""
    tool = {**POLICY["tools"][0], "requires": {"has_meta": True, "tags": ["a"]}}
    policy = Policy.from_dict({**POLICY, "tools": [tool]})
    entry = policy.tools[0]
    before = policy.snapshot()
    with pytest.raises(TypeError):
        entry.requires["has_meta"] = False
    with pytest.raises(AttributeError):
        entry.requires["tags"].append("b")
    with pytest.raises(TypeError):
        entry.arguments["marker"] = "string"
    with pytest.raises(AttributeError):
        policy.max_actions = 99
    tool["requires"]["has_meta"] = False  # the operator's dict is not the policy's
    assert policy.snapshot() == before and digest(policy.snapshot()) == digest(before)



def test_requires_reads_the_latest_value_of_an_observed_field():
    """A field observed again keeps its latest value: read True, then False, then True, the tool is allowed in turn."""
    policy = metadata_policy(max_actions=8)
    recorder = Recorder(make_run(policy.snapshot(), {"world": "latest"}), policy)
    run_id = recorder.run.run_id
    allowed = []
    for page, value in enumerate((True, False, True)):
        act = recorder.record("action", {"run_id": run_id, "tool": "inspect_headers",
                                         "destination": f"https://lab.example/{page}", "arguments": {}})
        capture = recorder.record("capture", {"run_id": run_id, "action_id": act["id"], "status": 200,
                                              "body": f"HTTP/1.1 200 OK\n\npage {page}"})
        seen = {"run_id": run_id, "field": "has_meta", "value": value, "capture_id": capture["id"]}
        assert recorder.record("observation", seen)["recorded"]
        assert recorder.observed()["has_meta"] is value
        allowed.append(policy.allows_action("inspect_metadata", "https://lab.example/",
                                            observed=recorder.observed()).allowed)
    assert allowed == [True, False, True]
    payload = {"run_id": run_id, "tool": "inspect_metadata", "destination": "https://lab.example/0", "arguments": {}}
    act = recorder.record("action", {"run_id": run_id, "tool": "inspect_headers",
                                     "destination": "https://lab.example/3", "arguments": {}})
    capture = recorder.record("capture", {"run_id": run_id, "action_id": act["id"], "status": 200,
                                          "body": "HTTP/1.1 200 OK\n\npage 3"})
    assert recorder.record("observation", {"run_id": run_id, "field": "has_meta", "value": False,
                                           "capture_id": capture["id"]})["recorded"]
    assert recorder.record("action", payload)["reason"] == (
        "tool 'inspect_metadata' requires observed field 'has_meta' to be true, observed false")
