"""Drive: the one run driver, from the operator's configuration to a sealed report, top to bottom.

The door decides; this module only asks it things, in the order the stage
table allows (lesson 3). ``run`` is the whole job, and reads in order:

1. ``load_configuration``: the operator's file, every part checked (the
   policy, the gating and the oldest taxonomy version the operator accepts,
   the scripted reviews, the verification plan and the plug-ins that provide
   the lab's adapter and model);
2. the run is named by its policy and the world it meets (``world_of``) and
   its door is built with every lesson's part (doors.final_door), holding
   the verify stage to the configuration's verification plan;
3. ``work``: the loop of lessons 4 to 6. Ask the model, select the best open
   proposal, execute it (with its scripted review when the gate holds it,
   lesson 8), credit a settled outcome, observe the capture, and ask the
   model again when there is something new to show it. A proposal the door
   turns away is never chosen again, so the loop moves on to the next one;
   it ends when no proposal is left or a budget is spent;
4. ``verify_findings``: lesson 7, each planned finding asserted and tested
   through the same gated door;
5. the review and report stages, the close (lesson 9), the safety verdict
   (lesson 10) and the seal.

Each step reads from the door where the run stands (its stage, what the
stage has begun), so the same steps carry on a run that was killed:
``resume`` rebuilds its door from its journal (journal.py) by asking a
fresh door every question again, and hands it to the same ``run_through``.
An act the run had begun is carried on (``carry_on``): settled from what the
ledger holds, or sent again under its idempotency key (``idempotency_key``:
this execution, the run and the exact act) when it is in doubt. Sending
again is delivery at least once; the effect is once only where the target
still holds the key, so a consequential act in doubt is sent again only
when the target shows the same memory its key went to (``Target``), and
goes back to a person otherwise. A decision the journal records is final:
a configuration whose reviews disagree with it is refused (``trusted``).

The reviews are given in advance, because this run is scripted: the
operator may write them into the configuration (``load_reviews``), each
naming one exact act (its identity and its arguments), or give a folder of
decisions a person signed (``signed_reviews``, decisions.py), which count
only under a key the configuration lists for the act's approver role. The
reference run's are signed, under demo keys. Each stands in for a person
deciding when the gate holds that act.

Demos, the attack suite and the tests drive their runs through ``work`` and
``run`` too, and move a door with ``enter`` and ``go_to``: a ``watch``
callback sees each step as it happens, and nothing else writes a loop of its
own. What a demo of an early lesson needs is a seam here: ``choose`` (a door
before lesson 5's selection), ``recorded_at_once`` (before lesson 6's
executor) and ``Enough`` (a watch that has seen what it shows).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from core.run import decisions, journal
from core.run import report as reports
from core.run import seal
from core.run.canon import digest
from core.run.doors import FinalDoor, door_for, final_door
from core.run.rederive import SECTIONS, Setting, ask_again
from core.run.execute import (Adapter, AdapterResult, ExecutionResult, attempt, execute, request_url,
                              require_sendable)
from core.run.gate import Gating, GatingError, gate_state, subject_of
from core.run.jsonfile import read_json, shown_path
from core.run.observe import observe, render_response
from core.run.plugins import load_model, load_plugin
from core.run.policy import Policy, PolicyError, reference_policy
from core.run.propose import PROPOSAL_KIND, Model, propose
from core.run.recorder import Recorder
from core.run.records import REVIEW_DECISIONS, Run, make_run, require_keys, shown
from core.run.select import select_next
from core.run.stages import StageTable, advance, stage_of, table_of
from core.run.verify import Check, CheckError, Plan, capture_of, check_finding, verify_finding
from core.safety import load_safety_pack

REPO = Path(__file__).resolve().parents[2]
DEFAULT_CONFIG = REPO / "data" / "policy" / "training-authorization-0001.json"
DEFAULT_LAB = REPO / "data" / "lab"
CONFIG_FIELDS = ("about", "policy", "gating", "minimum_taxonomy_version", "reviewers", "verification", "plugins")
PLUGIN_FIELDS = ("adapter", "model", "world", "server")
OPTIONAL_PLUGINS = ("review_signature",)  # a person's signed decisions count only with a check (decisions.py)
OPTIONAL_FIELDS = ("approvers", "signed_reviews")  # the keys whose decisions count; decisions signed in advance
REVIEWER_FIELDS = ("subject", "arguments", "reviewer", "decision", "reason")
TRANSPORTS = ("inprocess", "http")
FINISH_REASON = "every stage ran: work, verification, review and report"

Watch = Callable[[str, object], None]  # (step, what the door answered): what a demo wants to show


def _quiet(step: str, answer: object) -> None:
    """The default watch: a run shows nothing as it goes."""


class ConfigError(ValueError):
    """The run configuration cannot be used; the message says which part and why."""


class HarnessError(RuntimeError):
    """The driver tried a stage move the table refuses: the driver itself is wrong, so the run stops."""


# --- the configuration ---------------------------------------------------------------------


@dataclass(frozen=True)
class Configuration:
    """The operator's configuration, every part validated."""

    raw: dict
    policy: Policy
    gating: Gating
    reviews: dict
    checks: tuple[Check, ...]
    plugins: dict
    minimum_taxonomy_version: int = 1  # the oldest taxonomy a run of this operator's may be gated under
    approvers: dict = field(default_factory=dict)  # role -> the verifier keys whose signed decisions count
    signed: dict = field(default_factory=dict)  # decisions signed in advance: file name -> its text (signed_reviews)


def load_configuration(path: str | Path = DEFAULT_CONFIG) -> Configuration:
    """The configuration in the file at ``path``, or ConfigError naming what is wrong with it."""
    return configuration(read_json(path, error=ConfigError, what="configuration file"), shown_path(path))


def configuration(raw: object, where: str = "the configuration") -> Configuration:
    """A configuration from its JSON data, every part checked; ConfigError names what is wrong."""
    require_keys(f"{where}: the configuration", raw, CONFIG_FIELDS, error=ConfigError, optional=OPTIONAL_FIELDS)
    if not isinstance(raw["about"], str) or not raw["about"].strip():
        raise ConfigError(f"{where}: about must say in words what the configuration is for")
    require_keys(f"{where}: plugins", raw["plugins"], PLUGIN_FIELDS, error=ConfigError, optional=OPTIONAL_PLUGINS)
    approvers = raw.get("approvers", {})
    if not isinstance(approvers, dict) or not all(
            isinstance(role, str) and isinstance(keys, list) and all(isinstance(k, str) for k in keys)
            for role, keys in approvers.items()):
        raise ConfigError(f"{where}: approvers must map each approver role to a list of verifier keys")
    if not isinstance(raw["verification"], list):
        raise ConfigError(f"{where}: verification must be a list of checks")
    minimum = raw["minimum_taxonomy_version"]
    if isinstance(minimum, bool) or not isinstance(minimum, int) or minimum < 1:
        raise ConfigError(f"{where}: minimum_taxonomy_version must be a taxonomy version, a positive integer, "
                          f"not {shown(minimum)}")
    try:
        policy = Policy.from_dict(raw["policy"])
        gating = Gating.from_dict(raw["gating"])
        reviews = load_reviews(raw["reviewers"])
        checks = tuple(Check.from_dict(entry, f"verification[{index}]")
                       for index, entry in enumerate(raw["verification"]))
    except (PolicyError, GatingError, CheckError) as exc:
        raise ConfigError(f"{where}: {exc}") from None
    try:
        require_sendable(policy)
    except ValueError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    if gating.taxonomy_version < minimum:  # an older table may let an act run that today's holds or denies
        raise ConfigError(f"{where}: gating names taxonomy version {gating.taxonomy_version}, below the "
                          f"minimum version {minimum} this configuration accepts")
    signed = signed_in_advance(raw.get("signed_reviews"), where)
    return Configuration(raw, policy, gating, reviews, checks, dict(raw["plugins"]), minimum, approvers, signed)


def signed_in_advance(name: object, where: str) -> dict[str, str | None]:
    """The decisions signed in advance in the folder ``name``: each file's text, by its path.

    A relative name is read from the course's folder, as a plug-in's module
    name is found in the course: a copy of the configuration elsewhere
    names the same decisions.
    """
    if name is None:
        return {}
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(f"{where}: signed_reviews must name a folder of signed decisions")
    path = REPO / name
    if not path.is_dir():
        raise ConfigError(f"{where}: signed_reviews names {shown(name)}, which is not a folder of the course")
    return {f"{name}/{file}": text for file, text in decisions.read_folder(path).items()}


def in_advance(config: Configuration, run_id: str) -> tuple[Configuration, list[decisions.Refused]]:
    """``config`` with the reviews its decisions signed in advance give (each admitted for any act the run may
    hold, decisions.MayHold), and the ones refused."""
    if not config.signed:
        return config, []
    given, refused = decisions.admitted(config.signed, run_id, decisions.MayHold(config.policy, config.gating),
                                        config.reviews, config.approvers, decisions.signature_check(config.plugins))
    return replace(config, reviews={**given, **config.reviews}), refused


def reference_config(tools: Iterable[str] | None = None, policy: Mapping | None = None,
                     **changes: object) -> Configuration:
    """The reference configuration with named parts replaced: every demo's and test's starting point.

    ``tools`` and ``policy`` change its policy (policy.reference_policy);
    any other keyword replaces that part of the configuration whole.
    """
    raw = read_json(DEFAULT_CONFIG, error=ConfigError, what="configuration file")
    snapshot = reference_policy(tools, **dict(policy or {})).snapshot()
    return configuration({**raw, "policy": snapshot, **changes}, "the reference configuration, changed")


def load_reviews(entries: object) -> dict[str, dict]:
    """Scripted review decisions from the configuration: the exact act's subject -> the review's fields."""
    if not isinstance(entries, list):
        raise ConfigError("reviewers must be a list of review decisions")
    reviews: dict[str, dict] = {}
    for index, entry in enumerate(entries):
        where = f"reviewers[{index}]"
        require_keys(where, entry, REVIEWER_FIELDS, error=ConfigError)
        if not isinstance(entry["arguments"], dict):
            raise ConfigError(f"{where} arguments must be the exact act's arguments, an object")
        if not all(isinstance(entry[key], str) and entry[key].strip() for key in REVIEWER_FIELDS if key != "arguments"):
            raise ConfigError(f"{where} values must be non-empty text")
        if entry["decision"] not in REVIEW_DECISIONS:
            raise ConfigError(f"{where} decision must be one of {', '.join(REVIEW_DECISIONS)}")
        subject = subject_of(entry["subject"], entry["arguments"])
        if not subject:
            raise ConfigError(f"{where} subject {shown(entry['subject'])} is not an action identity")
        if subject in reviews:
            raise ConfigError(f"{where} decides {shown(entry['subject'])} with these arguments a second time")
        reviews[subject] = {key: entry[key] for key in ("reviewer", "decision", "reason")}
    return reviews


def world_of(config: Configuration, lab_world: dict) -> dict:
    """Everything besides the policy that names the run: the lab as found, and the rest of the configuration.

    The operator's reviews are not part of it, nor the decisions signed in
    advance (each names the run). A person's decision may arrive
    while the run waits for it, after a restart too (``resume`` reads the
    review file again), without making it another run; the ledger records
    each decision it admits, and ``--config`` checks each against the file.
    A decision once recorded is final: a resume under reviews that decide it
    otherwise is refused (``trusted``, DecisionsDisagree). The keys whose
    signed decisions count (``approvers``) do name it, when there are any.
    """
    rest = ("gating", "minimum_taxonomy_version", "verification", "plugins", "approvers")
    return {"lab": lab_world, **{key: config.raw[key] for key in rest if key in config.raw}}


def identify(config: Configuration, lab_dir: Path = DEFAULT_LAB) -> Run:
    """The run ``config`` makes against the lab in ``lab_dir``: named by its policy and the world it meets."""
    world = load_plugin(config.plugins["world"])(lab_dir)
    return make_run(config.policy.snapshot(), world_of(config, world))


def door_of(config: Configuration, run: Run, sink: Callable[[bytes], None] | None = None,
            door: FinalDoor = final_door) -> Recorder:
    """``run``'s door: every lesson's part (``door``, doors.final_door unless another is given), under the
    configuration's policy and gating, holding the verify stage to its verification plan."""
    return door(run, config.policy, config.gating, plan=Plan(config.checks), sink=sink)


def operator_setting(config: Configuration, lab_dir: Path = DEFAULT_LAB, where: str = "the configuration",
                     pack=None) -> Setting:
    """What ``config`` says a run of it against ``lab_dir`` is made under, for verify and replay's ``--config``.

    The world is found again as a run finds it (``identify``: the
    configuration's world plug-in over the lab), and the pack is the
    ratified one the harness loads (fail closed), unless one is given.
    """
    run = identify(config, lab_dir)
    pack = load_safety_pack() if pack is None else pack
    reviews = {subject: decisions.said_by(review) for subject, review in in_advance(config, run.run_id)[0].reviews.items()}
    return Setting(where, config.policy.snapshot(), config.gating.snapshot(), config.minimum_taxonomy_version,
                   reviews, Plan(config.checks).snapshot(), pack.summary(), run.run_id, run.world_digest)


@contextmanager
def lab_adapter(plugins: Mapping[str, object], transport: str, lab_dir: Path | None):
    """The lab's adapter for ``transport``; over HTTP, the lab is served for the block's duration.

    ``plugins`` names the adapter and the server as the configuration does
    (``"lab.plugin:make_adapter"``), or gives them as callables.
    """
    adapter_of, server = (plugins[name] if callable(plugins[name]) else load_plugin(plugins[name])
                          for name in ("adapter", "server"))
    with ExitStack() as stack:
        if transport == "http":
            port = stack.enter_context(server(lab_dir))
            adapter = adapter_of("http", None, port)  # the server already knows the lab folder
        else:
            adapter = adapter_of("inprocess", lab_dir, None)
        stack.callback(adapter.close)  # closed before the server stops
        yield adapter


# --- the stages, in order -------------------------------------------------------------------


def enter(door: Recorder, *stages: str, watch: Watch = _quiet) -> None:
    """Move to each of ``stages`` in turn; the driver follows the stage table, so a refused move is a bug that
    stops the run (the demos walk a door through the same function). ``watch`` sees the door (``moving``)
    just before each move, in the stage it leaves."""
    for stage in stages:
        watch("moving", door)
        answer = advance(door, stage)
        if not answer["recorded"]:
            raise HarnessError(f"the run could not enter {stage}: {answer['reason']}")


def go_to(door: Recorder, goal: str) -> None:
    """Enter each stage on the shortest way from the door's stage to ``goal`` along its table (``path_to``).

    A page, a demo or a test that hands acts to one part of the door walks
    it to the stage that part rules (lesson 8's gate in the verify stage).
    """
    enter(door, *path_to(table_of(door), stage_of(door), goal))


def door_without_selection(world: str, max_actions: int = 3) -> Recorder:
    """Lesson 6's door without lesson 5's selection guard, moved to the execute stage, for handing acts in directly.

    The pages and tests use it to attack execution alone: choosing the act
    is lesson 5's business, and with ``is_the_selection`` in place every act
    nobody selected would be refused before the executor's own steps show.
    Everything else the door checks, the policy first, stays. The policy is
    lesson 6's demo's (one header tool, one probe), with ``max_actions``.
    """
    policy = reference_policy(tools=("inspect_headers", "probe_reflection"), max_actions=max_actions,
                              max_model_calls=4)
    door = door_for(6, make_run(policy.snapshot(), {"world": world}), policy, without=("is_the_selection",))
    go_to(door, "execute")
    return door


def path_to(table: StageTable, start: str, goal: str) -> list[str]:
    """The stages to enter, in order, from ``start`` to ``goal``: the fewest moves of ``table``, its order on ties."""
    came_from, frontier = {start: ""}, [start]
    for stage in frontier:  # breadth first: the list grows as the search goes
        for source, target in table.transitions:
            if source == stage and target not in came_from:
                came_from[target] = stage
                frontier.append(target)
    if goal not in came_from:
        raise HarnessError(f"the run cannot get from {start} to {goal}: no moves of its table lead there")
    path = []
    while goal != start:
        path.append(goal)
        goal = came_from[goal]
    return path[::-1]


def idempotency_key(execution: str, run_id: str, subject: str) -> str:
    """The key every request of one act is sent under: this execution, the run and the exact act, as a digest.

    The same act of the same execution always has the same key, so a target
    that still holds the key acts on it once however often it is sent;
    another execution (a fresh run of the same configuration), another run,
    or the same act with other arguments, has another key. ``execution``
    is the journal's (journal.Journal.execution), which a resume reuses, or
    a fresh one (``Unjournaled``).
    """
    return digest({"execution": execution, "run_id": run_id, "subject": subject})


class Unjournaled:
    """What a run without a journal keeps of its execution: a fresh value, and the memories targets showed.

    The same shape as journal.Journal's (``execution``, ``memories``,
    ``remember``), kept in this process only: without a journal nothing is
    resumed.
    """

    def __init__(self) -> None:
        self.execution, self.memories = journal.new_execution(), []

    def remember(self, memory: str) -> None:
        self.memories.append((0, memory))


class Target:
    """The run's adapter, with its execution: the keys its acts are sent under, and the memory that holds them.

    An adapter that can send keys takes ``fetch(url, idempotency_key=...)``
    and says with ``memory()`` which memory holds its target's keys, as the
    target shows it now ("" when it shows none). The first time this
    process sends under a key, and whenever an act in doubt is weighed, the
    memory the target shows is written down (``keys.remember``: ahead, in
    the journal) before anything is sent, so a resume knows where each key
    went. The name is outside input: one that is not a plain short name
    counts as no memory at all.
    """

    def __init__(self, adapter: Adapter, keys=None):
        self.adapter, self.keys, self.asked = adapter, Unjournaled() if keys is None else keys, False

    @property
    def sends_keys(self) -> bool:
        return callable(getattr(self.adapter, "memory", None))

    def shown(self) -> str:
        """The memory the target shows now ("" for none), written down when it is not the last one written."""
        self.asked = True
        try:
            memory = self.adapter.memory() if self.sends_keys else ""
        except Exception:  # the adapter is outside the door: a target that cannot say shows no memory
            memory = ""
        if not isinstance(memory, str) or not journal.MEMORY.fullmatch(memory):
            return ""
        if not self.keys.memories or self.keys.memories[-1][1] != memory:
            self.keys.remember(memory)
        return memory

    def fetch(self, url: str) -> AdapterResult:
        return self.adapter.fetch(url)


class Keyed:
    """The run's adapter sending every request under one act's idempotency key, if it can send one at all.

    Any other adapter is asked ``fetch(url)`` as before.
    """

    def __init__(self, target: Target, key: str):
        self.target, self.key = target, key

    def fetch(self, url: str) -> AdapterResult:
        if not self.target.sends_keys:
            return self.target.adapter.fetch(url)
        if not self.target.asked:
            self.target.shown()
        return self.target.adapter.fetch(url, idempotency_key=self.key)


def keyed(door: Recorder, adapter: Adapter, payload: Mapping) -> Keyed:
    """``adapter`` for the act ``payload`` asks for, under that act's key in this execution.

    An adapter handed to the loop without its execution (a demo's, not a
    run's: ``run`` and ``resume`` give a ``Target``) sends each act under a
    key of a fresh execution of its own.
    """
    target = adapter if isinstance(adapter, Target) else Target(adapter)
    return Keyed(target, idempotency_key(target.keys.execution, door.run.run_id, subject_of_payload(payload)))


def execute_reviewed(door: Recorder, payload: dict, adapter: Adapter,
                     reviews: Mapping[str, dict]) -> ExecutionResult:
    """Execute; if the gate held this exact act and a reviewer decided on it, record the decision and try again.

    A signed decision is recorded whole first (decisions.SIGNED: its note),
    then the review it gives. The second attempt passes the whole door
    again: the review only counts because the gate finds it among the run's
    records. Every request is
    sent under the act's idempotency key. A journaled run whose held act has
    no decision stops here (decisions.Waiting), to be resumed once a person
    has decided; without a journal the act stays refused and the run goes on.
    """
    adapter = keyed(door, adapter, payload)
    result = execute(door, payload, adapter)
    subject = subject_of(payload.get("tool"), payload.get("arguments"), payload.get("destination"))
    if result.status != "refused" or subject not in gate_state(door).held:
        return result
    if subject not in reviews:
        held = decisions.held_act(door.policy, door.parts["gating"], payload)
        if isinstance(door.sink, journal.Journal) and held is not None:
            raise decisions.Waiting(held)
        return result
    note = reviews[subject].get("note")
    if note is not None and subject not in decisions.signed_on(door):  # the ledger keeps it whole
        signed = door.record(decisions.SIGNED, {"run_id": door.run.run_id, "subject_id": subject, "note": note})
        if not signed["recorded"]:
            return result
    review = door.record("review", {"run_id": door.run.run_id, "subject_id": subject,
                                    **decisions.said_by(reviews[subject])})
    if not review["recorded"]:
        return result
    return execute(door, payload, adapter)


def carry_on(door: Recorder, action_id: str, adapter: Adapter) -> ExecutionResult:
    """An admitted act begun before the run stopped, carried on from what the ledger holds of it.

    Settled: nothing to do. A capture held but not settled: settle it. No
    start written: it was never handed to the adapter, so send it now. A
    start written and no capture: the act is **in doubt** (the request may
    have reached the target), so it is sent again under the same key, with
    a start of its own; but a consequential act is sent again only when the
    target shows the very memory its key went to (the one written down
    before its last start's request, journal.memory_at): anywhere else (no
    memory shown, another one, as after the target's own restart) it stays
    in doubt, with a note that a person must settle it, and the gate's view
    stays stale.
    """
    action = door.get("action", action_id)
    adapter = keyed(door, adapter, action)
    outcomes = [outcome for outcome in door.records("outcome") if outcome["action_id"] == action_id]
    settled = [outcome for outcome in outcomes if outcome["status"] != "unresolved"]
    if settled:
        answer = {"recorded": True, "kind": "outcome", "id": settled[-1]["outcome_id"]}
        detail = settled[-1]["detail"] if settled[-1]["status"] == "failed" else ""
        return ExecutionResult(action_id, settled[-1]["status"], settled[-1]["capture_id"], detail, (answer,))
    capture_id = capture_of(door, action_id)
    if capture_id:
        answer = door.record("outcome", {"run_id": door.run.run_id, "action_id": action_id, "status": "succeeded",
                                         "capture_id": capture_id, "detail": ""})
        status = "succeeded" if answer["recorded"] else "unresolved"
        return ExecutionResult(action_id, status, capture_id, "" if answer["recorded"] else answer["reason"],
                               (answer,))
    if not outcomes:
        return attempt(door, action_id, adapter)
    if consequential(door, action) and not still_held(door, action_id, adapter.target):
        answer = door.refuse("outcome", journal.note("in_doubt_for_a_person", act=action_id),
                             code="in_doubt_for_a_person", by="drive.carry_on")
        return ExecutionResult(action_id, "unresolved", "", answer["reason"], (answer,))
    again = f"in doubt after a restart: sent again under its idempotency key (attempt {len(outcomes) + 1})"
    return attempt(door, action_id, adapter, again)


def still_held(door: Recorder, action_id: str, target: Target) -> bool:
    """Whether ``target`` shows the memory the key of act ``action_id`` went to at its last start (not "" either)."""
    outcomes = [(event["seq"], door.get("outcome", event["id"])) for event in door.events
                if event["kind"] == "outcome" and event["status"] == "admitted"]
    starts = [seq for seq, outcome in outcomes if outcome["action_id"] == action_id
              and outcome["status"] == "unresolved"]
    went = journal.memory_at(target.keys.memories, starts[-1]) if starts else ""
    return bool(went) and target.shown() == went


def consequential(door: Recorder, action: Mapping) -> bool:
    """Whether the act's class needs a person's review (lesson 8's taxonomy, fail-closed for an unknown class)."""
    return door.parts["gating"].table.classify(door.policy.tool_named(action["tool"]).activity).consequential


Act = Callable[[Recorder, dict, Adapter, Mapping[str, dict]], ExecutionResult]
Choose = Callable[[Recorder], dict]  # the select stage's choice: the door's answer, naming what was chosen


class Enough(Exception):
    """Raised by a watch to end the work loop where the run stands (a demo that has seen what it shows)."""


def work(door: Recorder, model: Model, adapter: Adapter, reviews: Mapping[str, dict] | None = None,
         watch: Watch = _quiet, act: Act = execute_reviewed, choose: Choose = select_next) -> None:
    """The work loop: the step the run's stage calls for, until selection finds nothing left or a budget is spent.

    A round goes observe (the capture the last act brought back), propose
    (ask the model, the first time and whenever there is something new to
    show it), select, execute (the chosen act, then the credit of a settled
    outcome, on a door that keeps feedback), and back to observe. Each turn
    reads the stage from the door, so the loop starts a fresh run at its
    first stage and carries a door rebuilt from a journal on from the stage
    it stopped in.

    ``watch`` sees each step: ``proposed`` (the door's answers to a model
    call and its proposals), ``selecting`` (the door, just before it is
    asked for a selection), ``selected`` (its answer), ``executed`` (the
    ExecutionResult), ``credited`` (the answer to its feedback) and
    ``observed`` (the answers to the observations); it may raise Enough to
    end the loop where it stands. ``act`` carries out the chosen act (a demo
    may wrap it, to show what the door does when a driver gets it wrong, or
    record it at once: ``recorded_at_once``). ``choose`` answers the select
    stage: lesson 5's selection, or, on a door before lesson 5's, an answer
    naming a stored proposal (``chosen_proposal``).
    """
    reviews, chosen = reviews or {}, None
    try:
        while seal.closed_of(door) is None:  # an abort (a person's, through a watch) ends the loop
            stage = stage_of(door)
            if stage == "authorize":
                enter(door, "observe")
            elif stage == "observe":
                capture_id = brought_back(door)
                if capture_id:
                    watch("observed", observe(door, capture_id))
                enter(door, "propose")
            elif stage == "propose":
                if brought_back(door) != "":  # the first round, or a capture to show: else do not spend a call
                    watch("proposed", propose(door, model))
                enter(door, "select")
            elif stage == "select":
                watch("selecting", door)
                chosen = choose(door)
                watch("selected", chosen)
                if not chosen["recorded"]:
                    return  # in the select stage, ready for verify
                enter(door, "execute")
            elif stage == "execute":
                result = carry_out(door, adapter, reviews, act, chosen)
                watch("executed", result)
                if seal.closed_of(door) is not None:
                    return
                if result.status == "succeeded" and "feedback" in door.kinds:
                    credit = {"run_id": door.run.run_id, "outcome_id": result.answers[-1]["id"]}
                    watch("credited", door.record("feedback", credit))
                enter(door, "observe")
            else:
                return  # verification and after: the work is done
    except Enough:
        return


def brought_back(door: Recorder) -> str | None:
    """The capture the run's last execute stage recorded ("" if none), or None before the first execute stage."""
    capture_id = ""
    for event in reversed(door.events):
        if event["status"] != "admitted":
            continue
        if event["kind"] == "transition" and event["id"].endswith("-> execute"):
            return capture_id
        if event["kind"] == "capture" and not capture_id:
            capture_id = event["id"]
    return None


def this_stage(door: Recorder) -> list[dict]:
    """The events since the run moved into its current stage: none in a running loop; in a resumed one, its start."""
    events = door.events
    moves = [index for index, event in enumerate(events) if event["kind"] == "transition"
             and event["status"] == "admitted"]
    return events[moves[-1] + 1:] if moves else events


def carry_out(door: Recorder, adapter: Adapter, reviews: Mapping[str, dict], act: Act,
              chosen: dict | None = None) -> ExecutionResult:
    """The chosen act, handed to ``act``; or carried on, if the execute stage began it before a restart."""
    begun = [event for event in this_stage(door) if event["kind"] == "action" and event["status"] == "admitted"]
    if begun:
        return carry_on(door, begun[-1]["id"], adapter)
    proposal = door.get(PROPOSAL_KIND, chosen_proposal(door, chosen))
    payload = {key: proposal[key] for key in ("run_id", "tool", "destination", "arguments")}
    return act(door, payload, adapter, reviews)


def chosen_proposal(door: Recorder, chosen: dict | None) -> str:
    """The proposal the select stage chose: the one ``chosen`` names when it is a proposal (a door before lesson
    5's selection), else the run's newest selection's (a door rebuilt in the execute stage, too)."""
    if chosen is not None and chosen.get("kind") == PROPOSAL_KIND:
        return chosen["id"]
    return door.stored("selection", next(door.newest_first("selection"))).action_id


def recorded_at_once(door: Recorder, payload: dict, adapter: Adapter,
                     reviews: Mapping[str, dict] | None = None) -> ExecutionResult:
    """The act's action, its capture and its settled outcome, recorded at once: how a door before lesson 6 acts.

    Lesson 6's executor (``execute_reviewed``) writes an unresolved outcome
    first, so that a restart finds an act in doubt; the doors of lessons 3
    to 5 are driven without it, and their demos and tests act through this.
    """
    answers = [door.record("action", payload)]
    if not answers[-1]["recorded"]:
        return ExecutionResult("", "refused", "", answers[-1]["reason"], tuple(answers))
    action_id = answers[-1]["id"]
    response = adapter.fetch(request_url(payload, door.policy.tool_named(payload["tool"])))
    body = render_response(response.status, response.headers, response.body)
    answers.append(door.record("capture", {"run_id": door.run.run_id, "action_id": action_id,
                                           "status": response.status, "body": body}))
    if answers[-1]["recorded"]:
        answers.append(door.record("outcome", {"run_id": door.run.run_id, "action_id": action_id,
                                               "status": "succeeded", "capture_id": answers[-1]["id"],
                                               "detail": ""}))
    settled = all(answer["recorded"] for answer in answers)
    capture_id = answers[1]["id"] if answers[1]["recorded"] else ""
    return ExecutionResult(action_id, "succeeded" if settled else "unresolved", capture_id,
                           "" if settled else answers[-1]["reason"], tuple(answers))


def verify_findings(door: Recorder, checks: Iterable[Check], adapter: Adapter,
                    reviews: Mapping[str, dict] | None = None, watch: Watch = _quiet) -> None:
    """Lesson 7 in the run: assert each planned finding and verify it through the same gated door.

    A door already in the verify stage (rebuilt from a journal) has begun
    its checks in order, each with its finding: the checks before its last
    finding are done, that one is carried on from the acts it began, and
    the rest run as usual.
    """
    reviews = reviews or {}
    act = lambda payload: execute_reviewed(door, payload, adapter, reviews)  # noqa: E731
    begun = [event for event in this_stage(door) if event["kind"] == "finding"] if stage_of(door) == "verify" else []
    if stage_of(door) != "verify":
        enter(door, "verify")
    for number, check in enumerate(checks, start=1):
        if number == len(begun) and begun[-1]["status"] == "admitted":
            resumed = acts_after(door, begun[-1]["seq"], adapter, act)
            watch("verified", [verify_finding(door, begun[-1]["id"], check, resumed)])
        elif number > len(begun):
            watch("verified", check_finding(door, check, act))


def acts_after(door: Recorder, seq: int, adapter: Adapter, act: Callable[[dict], ExecutionResult]):
    """``act``, except for an exact act the ledger shows tried after event ``seq``: carried on, or refused as it was."""

    def resumed(payload: dict) -> ExecutionResult:
        subject = subject_of_payload(payload)
        tried = [event for event in door.ledger[seq:] if event["kind"] == "action" and subject
                 and subject_of_payload(event["payload"]) == subject]
        admitted = [event for event in tried if event["status"] == "admitted"]
        if admitted:
            return carry_on(door, admitted[-1]["id"], adapter)
        if tried:
            return ExecutionResult("", "refused", "", tried[-1]["reason"], ())
        return act(payload)

    return resumed


def subject_of_payload(payload: object) -> str:
    """The exact act an action payload asks for (gate.subject_of), or "" when it names none."""
    if not isinstance(payload, Mapping):
        return ""
    return subject_of(payload.get("tool"), payload.get("arguments"), payload.get("destination"))


def run_through(door: Recorder, model: Model, adapter: Adapter, reviews: Mapping[str, dict],
                checks: Iterable[Check], watch: Watch = _quiet) -> None:
    """Every stage of a run in order, from the stage it is in: the work loop, verification, review and report."""
    work(door, model, adapter, reviews, watch)
    if stage_of(door) in ("select", "verify"):
        verify_findings(door, checks, adapter, reviews, watch)
    if stage_of(door) == "verify":
        enter(door, "review")
    if stage_of(door) == "review":
        enter(door, "report")


def seal_run(door: Recorder, pack=None, reason: str = FINISH_REASON) -> dict:
    """Finish the run, judge it against the safety ``pack`` (the ratified one unless given) and seal its report."""
    closed = seal.finish(door, reason) if seal.closed_of(door) is None else {"recorded": True}
    if not closed["recorded"]:
        raise HarnessError(f"the run could not be finished: {closed['reason']}")
    return seal_report(door, pack)


def seal_report(door: Recorder, pack=None) -> dict:
    """A closed run's report (every section, lesson 10's safety verdict under ``pack`` too), sealed.

    Without a ``pack``, the ratified one is loaded (fail closed: no report without its boundaries).
    """
    pack = load_safety_pack() if pack is None else pack
    return seal.seal(reports.build_report(door, SECTIONS, {"pack": pack}), door.event_bytes())


@dataclass(frozen=True)
class Driven:
    """A run driven to its end: the (closed) door, and its sealed report."""

    door: Recorder
    report: dict


def run(config: Configuration, lab_dir: Path = DEFAULT_LAB, transport: str = "inprocess", *,
        model: Model | None = None, adapter: Adapter | None = None, watch: Watch = _quiet,
        sink: Callable[[bytes], None] | None = None, pack=None, keys=None, door: FinalDoor = final_door) -> Driven:
    """The whole job: one run of ``config`` against the lab in ``lab_dir``, through every stage, sealed.

    ``model`` and ``adapter`` replace the configuration's (the attack suite's
    obedient model, an adapter that keeps the lab's record of what reached
    it; the caller closes an adapter it gives); ``sink`` gets each event's
    bytes as the door writes it (a journal); ``pack`` replaces the ratified
    safety pack (a development run under the override: its report says so).
    ``keys`` is the execution the acts are keyed by (``Target``): the
    journal's (the sink's, when it is one), or a fresh one (``Unjournaled``).
    ``door`` builds the run's door in doors.final_door's place, taking what
    it takes (a door assembled with a part left out or replaced:
    doors.door_for's ``without`` and ``replace``).
    The transport is not part of the run's identity: in process or over real
    loopback HTTP, the report is the same, byte for byte.
    """
    if transport not in TRANSPORTS:
        raise ConfigError(f"transport must be one of {', '.join(TRANSPORTS)}, not {transport!r}")
    pack = load_safety_pack() if pack is None else pack  # fail closed: no run starts without its boundaries
    if keys is None and isinstance(sink, journal.Journal):
        keys = sink
    named = identify(config, lab_dir)
    config, refused = in_advance(config, named.run_id)  # refusals of decisions signed in advance, recorded first
    built = door_of(config, named, sink, door)
    for decision in refused:
        built.refuse("review", decision.reason, code=decision.code, by="drive.run (decisions.admitted)")
    return carried_through(built, config, lab_dir, transport, model, adapter, watch, pack, keys)


def carried_through(door: Recorder, config: Configuration, lab_dir: Path, transport: str, model: Model | None,
                    adapter: Adapter | None, watch: Watch, pack, keys=None) -> Driven:
    """``door``'s run through every stage from the one it is in, then sealed; the configuration's model and adapter
    unless others are given, keyed by the execution ``keys`` (a fresh one unless given)."""
    if seal.closed_of(door) is None:  # a run resumed after its close (finished or aborted) is only sealed
        model = model or load_model(config.plugins["model"], lab_dir, config.policy.snapshot()["tools"])
        with ExitStack() as stack:
            if adapter is None:
                adapter = stack.enter_context(lab_adapter(config.plugins, transport, lab_dir))
            run_through(door, model, Target(adapter, keys), config.reviews, config.checks, watch)
    return Driven(door, seal_run(door, pack))


# --- carrying a killed run on --------------------------------------------------------------


@dataclass(frozen=True)
class Resumed:
    """A run carried on from its journal: the driven run, and the notes its resumption recorded (one line each)."""

    driven: Driven
    notes: tuple[str, ...]


class DecisionsDisagree(journal.JournalError):
    """A configuration whose reviews decide otherwise than a review the journal records: the run is not resumed."""


def resume(config: Configuration, path: str | Path, lab_dir: Path = DEFAULT_LAB, transport: str = "inprocess", *,
           model: Model | None = None, adapter: Adapter | None = None, watch: Watch = _quiet,
           door: FinalDoor = final_door, signed: Mapping[str, str | None] | None = None,
           journal_class: type[journal.Journal] = journal.Journal) -> Resumed:
    """Carry on the run whose journal is at ``path``, to its sealed report; the journal goes on being written.

    The file must be a journal (journal.NotAJournal otherwise, and nothing
    is written to it), hold together (journal.read names the first line
    that does not) and belong to the run ``config`` makes against
    ``lab_dir``. The run goes on as the same execution (the journal's, so
    its acts keep their keys). Its door is rebuilt by asking a fresh door
    every question again, and it is trusted only as far as ``trusted``
    allows: every line decided the same way, every review it admits one
    ``config`` holds (an approval counts because the operator's
    configuration holds it, or because the signed decision the journal
    keeps whole verifies again under a key the configuration lists, never
    because the journal says so), every note one a resumption writes. A
    review the configuration decides otherwise raises DecisionsDisagree: a decision the journal records is final. The
    run restarts at ``journal.restart_point`` of what is trusted; a torn
    last line, or a line not trusted, is noted in the ledger in the
    resumption's own words. ``door`` builds each fresh door in
    doors.final_door's place, as for ``run``. ``signed`` holds a person's
    signed decisions by file name (decisions.read_folder): each one admitted
    (decisions.admitted) counts as a review the operator holds, and each
    other one is a recorded refusal with its code. A decision the journal
    records stands without its signed file (the journal keeps its note,
    decisions.recorded_notes; a rejection stands on the journal's word,
    decisions.rejected, since it lets nothing run), so a resume without it
    never asks for that act again; a signed decision
    refused as naming an act that does not wait is tried again once the
    run waits (``resume_once``). ``journal_class``
    reopens the journal in journal.Journal's place (a subclass that watches
    each write, as the kill matrix's does). Raises
    journal.JournalError with one line naming what is wrong.
    """
    if transport not in TRANSPORTS:
        raise ConfigError(f"transport must be one of {', '.join(TRANSPORTS)}, not {transport!r}")
    given = (config, path, lab_dir, transport, model, adapter, watch, door, signed, journal_class)
    try:
        return resume_once(*given)
    except decisions.Waiting as waiting:
        if not waiting.decided_late:
            raise
    return resume_once(*given)  # the act waits on disk now, so the decision signed for it is admitted


def resume_once(config: Configuration, path: str | Path, lab_dir: Path, transport: str, model: Model | None,
                adapter: Adapter | None, watch: Watch, door: FinalDoor, signed: Mapping[str, str | None] | None,
                journal_class: type[journal.Journal]) -> Resumed:
    """``resume``, once. A Waiting it raises says whether a signed decision given was refused as naming an act
    that did not wait (``decided_late``): it may name the act held now, whose hold was not on disk (a resume
    killed after cutting the hold off, before it held the act again), so ``resume`` carries on once more, and
    admits it if so."""
    pack = load_safety_pack()
    run = identify(config, lab_dir)
    sink, read = journal_class.reopen(path)
    with sink:
        if read.run != run.to_dict():
            raise journal.JournalError(f"{shown_path(path)} is the journal of run "
                                       f"{str(read.run.get('run_id'))[:12]}, but this configuration and lab make "
                                       f"run {run.run_id[:12]}")
        config = in_advance(config, run.run_id)[0]  # its refusals were recorded when the run started
        check = decisions.signature_check(config.plugins)
        kept, _ = decisions.admitted(decisions.recorded_notes(read.events), run.run_id,
                                     decisions.roles_of(decisions.held_in(read.events, config.policy, config.gating)),
                                     config.reviews, config.approvers, check)
        recorded = {**decisions.decided(read.events), **config.reviews}
        given, refused = decisions.admitted(signed or {}, run.run_id,
                                            decisions.roles_of(decisions.waiting(read.events, config.policy,
                                                                                 config.gating)),
                                            recorded, config.approvers, check if signed else None)
        config = replace(config, reviews={**decisions.rejected(read.events), **given, **kept, **config.reviews})
        count, distrust = trusted(run, config, read, door)
        keep = journal.restart_point(read.events[:count])
        rebuilt = door_of(config, run, None, door)
        for event in read.events[:keep]:
            ask_again(rebuilt, event)
        sink.cut_back(read, keep)
        rebuilt.sink = sink
        notes = tuple(note for note in (read.torn, distrust) if note)
        for note, code in ((read.torn, "journal_torn_line"), (distrust, "journal_not_trusted")):
            if note and seal.closed_of(rebuilt) is None:
                rebuilt.refuse("journal", note, code=code, by="drive.resume")
        for decision in refused if seal.closed_of(rebuilt) is None else ():
            rebuilt.refuse("review", decision.reason, code=decision.code, by="drive.resume (decisions.admitted)")
        try:
            driven = carried_through(rebuilt, config, lab_dir, transport, model, adapter, watch, pack, sink)
        except decisions.Waiting as waiting:
            waiting.decided_late = any(decision.code == "decision_another_act" for decision in refused)
            raise
        return Resumed(driven, notes)


def trusted(run: Run, config: Configuration, read: journal.Read, door: FinalDoor = final_door) -> tuple[int, str]:
    """How many of the journal's events a fresh door decides the same way, with reviews the operator holds and
    notes a resumption wrote.

    And why not more: "" when every event is trusted, else the note that
    names the first line not trusted (journal.NOTES). DecisionsDisagree
    when the configuration decides a review the journal admitted otherwise.
    """
    written: list[bytes] = []  # what the fresh door writes, as it writes it
    fresh = door_of(config, run, written.append, door)

    def known_act(action_id: str) -> bool:
        return any(e["kind"] == "action" and e["status"] == "admitted" and e["id"] == action_id for e in fresh.events)

    for index, (event, data) in enumerate(zip(read.events, read.event_bytes)):
        why = ""
        if event.get("kind") == "review" and event.get("status") == "admitted" and not held_review(event,
                                                                                                   config.reviews):
            disagreeing(read, index, event, config.reviews)
            why = journal.DISTRUST[1]
        elif event.get("kind") == decisions.SIGNED and event.get("status") == "admitted" and not held_note(
                event, config.reviews):
            overruled(read, index, event, config.reviews)
            why = journal.DISTRUST[1]
        elif (event.get("kind") == "journal" or isinstance(event.get("code"), str)
              and event["code"] in journal.CODES) and not journal.is_note(event, known_act):
            why = journal.DISTRUST[2]
        if not why:
            ask_again(fresh, event)
            if len(written) != index + 1 or written[-1] != data:
                why = journal.DISTRUST[0]
        if why:
            return index, journal.note("journal_not_trusted", line=index + 2, why=why)
    return len(read.events), ""


def disagreeing(read: journal.Read, index: int, event: dict, reviews: Mapping[str, dict]) -> None:
    """Raise DecisionsDisagree if ``reviews`` decide the act of the journal's review ``event`` otherwise."""
    payload = event.get("payload") if isinstance(event.get("payload"), dict) else {}
    held = reviews.get(payload.get("subject_id")) if isinstance(payload.get("subject_id"), str) else None
    if held is None:
        return
    same = all(payload.get(key) == held[key] for key in ("decision", "reviewer"))
    raise DecisionsDisagree(
        f"{shown_path(read.path)} line {index + 2} records {shown(payload.get('decision'))} by "
        f"{shown(payload.get('reviewer'))} for {shown(payload['subject_id'])}, and this configuration's reviewers "
        f"say {shown(held['decision'])} by {shown(held['reviewer'])}{' for another reason' if same else ''}: "
        "a decision the journal records is final, so this configuration does not carry the run on")


def overruled(read: journal.Read, index: int, event: dict, reviews: Mapping[str, dict]) -> None:
    """Raise DecisionsDisagree if ``reviews`` decide the act of the journal's signed decision ``event`` otherwise.

    The review it gave, when the journal holds it, is named (``disagreeing``).
    """
    subject = event["payload"].get("subject_id") if isinstance(event.get("payload"), dict) else None
    if not isinstance(subject, str) or subject not in reviews:
        return
    for later in range(index + 1, len(read.events)):
        review = read.events[later]
        if review.get("kind") == "review" and review.get("status") == "admitted" and isinstance(
                review.get("payload"), dict) and review["payload"].get("subject_id") == subject:
            disagreeing(read, later, review, reviews)
    raise DecisionsDisagree(
        f"{shown_path(read.path)} line {index + 2} records a signed decision on {shown(subject)}, and this "
        f"configuration's reviewers say {shown(reviews[subject]['decision'])} by {shown(reviews[subject]['reviewer'])} "
        "in its place: a decision the journal records is final, so this configuration does not carry the run on")


def held_review(event: dict, reviews: Mapping[str, dict]) -> bool:
    """Whether the operator's reviews hold exactly the review ``event`` admitted (subject, reviewer, decision, why)."""
    payload = event.get("payload")
    if not isinstance(payload, dict) or not isinstance(payload.get("subject_id"), str):
        return False
    held = reviews.get(payload["subject_id"])
    return held is not None and all(payload.get(key) == value for key, value in decisions.said_by(held).items())


def held_note(event: dict, reviews: Mapping[str, dict]) -> bool:
    """Whether the signed decision ``event`` recorded is one the operator's keys admit for its act (its note)."""
    payload = event.get("payload")
    if not isinstance(payload, dict) or not isinstance(payload.get("subject_id"), str):
        return False
    held = reviews.get(payload["subject_id"])
    return held is not None and held.get("note") == payload.get("note")
