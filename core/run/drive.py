"""Drive: the one run driver, from the operator's configuration to a sealed report, top to bottom.

The door decides; this module only asks it things, in the order the stage
table allows (lesson 3). ``run`` is the whole job, and reads in order:

1. ``load_configuration``: the operator's file, every part checked (the
   policy, the gating, the scripted reviews, the verification plan and the
   plug-ins that provide the lab's adapter and model);
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

The reviews are written down in advance by the operator (``load_reviews``),
because this run is scripted: each names one exact act (its identity and
its arguments) and stands in for a person deciding when the gate holds it.

Demos, the attack suite and the tests drive their runs through ``work`` and
``run`` too: a ``watch`` callback sees each step as it happens, and nothing
else writes a loop of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from core.run import report as reports
from core.run import seal
from core.run.doors import SECTIONS, final_door
from core.run.execute import Adapter, AdapterResult, ExecutionResult, execute
from core.run.gate import Gating, GatingError, gate_state, subject_of
from core.run.jsonfile import read_json, shown_path
from core.run.observe import observe
from core.run.origins import canonical_destination
from core.run.plugins import load_plugin
from core.run.policy import Policy, PolicyError, reference_policy
from core.run.propose import Model, propose
from core.run.recorder import Recorder
from core.run.records import REVIEW_DECISIONS, make_run, require_keys, shown
from core.run.select import select_next
from core.run.stages import advance
from core.run.verify import Check, CheckError, Plan, check_finding
from core.safety import load_safety_pack

REPO = Path(__file__).resolve().parents[2]
DEFAULT_CONFIG = REPO / "data" / "policy" / "training-authorization-0001.json"
DEFAULT_LAB = REPO / "data" / "lab"
CONFIG_FIELDS = ("about", "policy", "gating", "reviewers", "verification", "plugins")
PLUGIN_FIELDS = ("adapter", "model", "world", "server")
REVIEWER_FIELDS = ("subject", "arguments", "reviewer", "decision", "reason")
TRANSPORTS = ("inprocess", "http")
FINISH_REASON = "every stage ran: work, verification, review and report"

Watch = Callable[[str, object], None]  # (step, what the door answered): what a demo wants to show


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


def load_configuration(path: str | Path = DEFAULT_CONFIG) -> Configuration:
    """The configuration in the file at ``path``, or ConfigError naming what is wrong with it."""
    return configuration(read_json(path, error=ConfigError, what="configuration file"), shown_path(path))


def configuration(raw: object, where: str = "the configuration") -> Configuration:
    """A configuration from its JSON data, every part checked; ConfigError names what is wrong."""
    require_keys(f"{where}: the configuration", raw, CONFIG_FIELDS, error=ConfigError)
    if not isinstance(raw["about"], str) or not raw["about"].strip():
        raise ConfigError(f"{where}: about must say in words what the configuration is for")
    require_keys(f"{where}: plugins", raw["plugins"], PLUGIN_FIELDS, error=ConfigError)
    if not isinstance(raw["verification"], list):
        raise ConfigError(f"{where}: verification must be a list of checks")
    try:
        policy = Policy.from_dict(raw["policy"])
        gating = Gating.from_dict(raw["gating"])
        reviews = load_reviews(raw["reviewers"])
        checks = tuple(Check.from_dict(entry, f"verification[{index}]")
                       for index, entry in enumerate(raw["verification"]))
    except (PolicyError, GatingError, CheckError) as exc:
        raise ConfigError(f"{where}: {exc}") from None
    return Configuration(raw, policy, gating, reviews, checks, dict(raw["plugins"]))


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
    """Everything besides the policy that names the run: the lab as found, and the rest of the configuration."""
    rest = ("gating", "reviewers", "verification", "plugins")
    return {"lab": lab_world, **{key: config.raw[key] for key in rest}}


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


class FixedPages:
    """An adapter that answers from a table of pages instead of a lab: the same on every machine.

    ``pages`` maps a path of ``origin`` to its response (status, header
    pairs, body); any other path gets ``missing``. Demos and tests whose run
    must not depend on the lab's files use it.
    """

    def __init__(self, origin: str, pages: Mapping[str, tuple[int, tuple, str]], missing: tuple[int, tuple, str]):
        self.origin, self.pages, self.missing = origin, dict(pages), missing

    def fetch(self, url: str) -> AdapterResult:
        path = canonical_destination(url).removeprefix(self.origin).partition("?")[0]
        return AdapterResult(*self.pages.get(path, self.missing))


# --- the stages, in order -------------------------------------------------------------------


def enter(door: Recorder, stage: str) -> None:
    """Move to ``stage``; the driver follows the stage table, so a refused move is a bug that stops the run."""
    answer = advance(door, stage)
    if not answer["recorded"]:
        raise HarnessError(f"the run could not enter {stage}: {answer['reason']}")


def execute_reviewed(door: Recorder, payload: dict, adapter: Adapter,
                     reviews: Mapping[str, dict]) -> ExecutionResult:
    """Execute; if the gate held this exact act and a reviewer decided on it, record the decision and try again.

    The second attempt passes the whole door again: the review only counts
    because the gate finds it among the run's records.
    """
    result = execute(door, payload, adapter)
    subject = subject_of(payload.get("tool"), payload.get("arguments"), payload.get("destination"))
    if result.status != "refused" or subject not in gate_state(door).held or subject not in reviews:
        return result
    review = door.record("review", {"run_id": door.run.run_id, "subject_id": subject, **reviews[subject]})
    if not review["recorded"]:
        return result
    return execute(door, payload, adapter)


def _quiet(step: str, answer: object) -> None:
    """The default watch: a run shows nothing as it goes."""


Act = Callable[[Recorder, dict, Adapter, Mapping[str, dict]], ExecutionResult]


def work(door: Recorder, model: Model, adapter: Adapter, reviews: Mapping[str, dict] | None = None,
         watch: Watch = _quiet, act: Act = execute_reviewed) -> None:
    """The work loop, from the first stage until selection finds nothing left or a budget is spent.

    ``watch`` sees each step: ``proposed`` (the door's answers to a model
    call and its proposals), ``selecting`` (the door, just before it is
    asked for a selection), ``selected`` (its answer), ``executed`` (the
    ExecutionResult), ``credited`` (the answer to its feedback) and
    ``observed`` (the answers to the observations). ``act`` carries out the
    chosen act (a demo may wrap it, to show what the door does when a
    driver gets it wrong).
    """
    reviews = reviews or {}
    enter(door, "observe")
    enter(door, "propose")
    watch("proposed", propose(door, model))
    while door.closed is None:  # an abort (a person's, through a watch) ends the loop
        enter(door, "select")
        watch("selecting", door)
        chosen = select_next(door)
        watch("selected", chosen)
        if not chosen["recorded"]:
            return  # in the select stage, ready for verify
        proposal = door.get("proposal", door.get("selection", chosen["id"])["action_id"])
        enter(door, "execute")
        payload = {key: proposal[key] for key in ("run_id", "tool", "destination", "arguments")}
        result = act(door, payload, adapter, reviews)
        watch("executed", result)
        if door.closed is not None:
            return
        if result.status == "succeeded":
            credit = {"run_id": door.run.run_id, "outcome_id": result.answers[-1]["id"]}
            watch("credited", door.record("feedback", credit))
        enter(door, "observe")
        if result.capture_id:
            watch("observed", observe(door, result.capture_id))
        enter(door, "propose")
        if result.capture_id:  # nothing new to show the model after a refusal: do not spend a call
            watch("proposed", propose(door, model))


def verify_findings(door: Recorder, checks: Iterable[Check], adapter: Adapter,
                    reviews: Mapping[str, dict] | None = None, watch: Watch = _quiet) -> None:
    """Lesson 7 in the run: assert each planned finding and verify it through the same gated door."""
    reviews = reviews or {}
    enter(door, "verify")
    for check in checks:
        watch("verified", check_finding(door, check, lambda payload: execute_reviewed(door, payload, adapter, reviews)))


def run_through(door: Recorder, model: Model, adapter: Adapter, reviews: Mapping[str, dict],
                checks: Iterable[Check], watch: Watch = _quiet) -> None:
    """Every stage of a run in order: the work loop, verification, review and the report stage."""
    work(door, model, adapter, reviews, watch)
    verify_findings(door, checks, adapter, reviews, watch)
    enter(door, "review")
    enter(door, "report")


def seal_run(door: Recorder, pack=None, reason: str = FINISH_REASON) -> dict:
    """Finish the run, judge it against the safety ``pack`` (the ratified one unless given) and seal its report."""
    closed = seal.finish(door, reason)
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
        sink: Callable[[bytes], None] | None = None) -> Driven:
    """The whole job: one run of ``config`` against the lab in ``lab_dir``, through every stage, sealed.

    ``model`` and ``adapter`` replace the configuration's (the attack suite's
    obedient model, an adapter that keeps the lab's record of what reached
    it; the caller closes an adapter it gives); ``sink`` gets each event's
    bytes as the door writes it (a journal).
    The transport is not part of the run's identity: in process or over real
    loopback HTTP, the report is the same, byte for byte.
    """
    if transport not in TRANSPORTS:
        raise ConfigError(f"transport must be one of {', '.join(TRANSPORTS)}, not {transport!r}")
    pack = load_safety_pack()  # fail closed: no run starts without its boundaries
    world = load_plugin(config.plugins["world"])(lab_dir)
    door = final_door(make_run(config.policy.snapshot(), world_of(config, world)), config.policy, config.gating,
                      plan=Plan(config.checks), sink=sink)
    model = model or load_plugin(config.plugins["model"])(lab_dir)
    with ExitStack() as stack:
        if adapter is None:
            adapter = stack.enter_context(lab_adapter(config.plugins, transport, lab_dir))
        run_through(door, model, adapter, config.reviews, config.checks, watch)
    return Driven(door, seal_run(door, pack))
