"""The operator's catalogue of AgentDojo's tools, as a core policy and gating per suite.

A tool call becomes an act with a destination the door's origin rules read
unchanged: ``https://<suite>.agentdojo.example/<tool>/<n>``, where ``n`` is
the call's number in the pair's run. The origin is the suite (the one origin
the suite's policy authorizes), the path names the tool, and the number
makes each call its own act: the door admits one act per identity, and a
model may call one tool many times.

An act's arguments are what the call sends. AgentDojo's tools take lists,
numbers and nulls, and a core argument schema knows strings, integers and
booleans, so a consequential tool declares every argument its AgentDojo
function takes as a string holding the value's canonical JSON (an argument
the call leaves out is ``null``): two spellings of one call are one act, and
an exact-act review names exactly what runs. A read is not consequential, so
the gate lets it take no arguments (gate.catalogue_problems): what a read
asked for is kept in its capture instead, beside what it returned.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from core.run.canon import canonical_bytes
from core.run.gate import Gating, require_gateable
from core.run.jsonfile import read_json
from core.run.policy import Policy, Tool
from core.run.taxonomy import TAXONOMY_DIR, TaxonomyTable, load_table

REPO = Path(__file__).resolve().parents[1]
CATALOGUE = REPO / "data" / "dojo" / "catalogue.json"
TAXONOMY_VERSION = 3
TAXONOMY_FILE = TAXONOMY_DIR / f"action_taxonomy_v{TAXONOMY_VERSION}.json"
READ_CLASS = "assistant.read"
READ_CAP = 200  # reads run freely up to here in one pair; no ground truth comes near it
MAX_ACTIONS = 200
MAX_MODEL_CALLS = 400
HOST = "agentdojo.example"


class CatalogueError(ValueError):
    """The catalogue breaks its contract; the message says where."""


@dataclass(frozen=True)
class Entry:
    """One tool of one suite, as the operator declared it."""

    tool: str
    activity: str
    arguments: tuple[str, ...]
    traced: tuple[str, ...]  # arguments whose values name who or what the act reaches
    carries: tuple[str, ...]  # text arguments: every address, URL or account written in them is traced


@dataclass(frozen=True)
class Suite:
    """A suite's catalogue: its tools and the values its operator trusts."""

    name: str
    tools: MappingProxyType  # tool name -> Entry
    trusted: tuple[str, ...]

    @property
    def origin(self) -> str:
        return f"https://{self.name}.{HOST}"

    def destination(self, tool: str, number: int) -> str:
        """Where call ``number`` of ``tool`` goes: the suite's origin, the tool, the call's number."""
        return f"{self.origin}/{tool}/{number}"


def load(path: str | Path = CATALOGUE) -> dict[str, Suite]:
    """Every suite of the catalogue at ``path``."""
    raw = read_json(path, error=CatalogueError, what="catalogue")
    if raw.get("taxonomy_version") != TAXONOMY_VERSION:
        raise CatalogueError(f"the catalogue must be written for taxonomy version {TAXONOMY_VERSION}")
    suites = {}
    for name, data in sorted(raw["suites"].items()):
        tools = {}
        for tool, entry in sorted(data["tools"].items()):
            arguments = tuple(entry["arguments"])
            for key in ("traced", "carries"):
                if not set(entry[key]) <= set(arguments):
                    raise CatalogueError(f"{name}/{tool}: {key} names an argument the tool does not take")
            tools[tool] = Entry(tool, entry["activity"], arguments, tuple(entry["traced"]), tuple(entry["carries"]))
        trusted = tuple(item["value"] for item in data["trusted"])
        suites[name] = Suite(name, MappingProxyType(tools), trusted)
    return suites


def table() -> TaxonomyTable:
    """Taxonomy version 3, read from its own file (the reference run's current table stays version 2)."""
    loaded = load_table(TAXONOMY_FILE)
    if loaded.version != TAXONOMY_VERSION:
        raise CatalogueError(f"{TAXONOMY_FILE.name} declares taxonomy version {loaded.version}")
    return loaded


def consequential(entry: Entry, taxonomy: TaxonomyTable) -> bool:
    return taxonomy.classify(entry.activity).consequential


def policy_for(suite: Suite, taxonomy: TaxonomyTable) -> Policy:
    """The suite's policy: its one origin, each tool as a catalogue entry, budgets no ground truth reaches."""
    tools = []
    for entry in suite.tools.values():
        arguments = {name: "string" for name in entry.arguments} if consequential(entry, taxonomy) else {}
        tools.append(Tool(entry.tool, entry.activity, {}, suite.name, 1.0, 1.0, arguments))
    return Policy(f"agentdojo-{suite.name}", (suite.origin,), tuple(tools), MAX_ACTIONS, MAX_MODEL_CALLS)


def gating_for(taxonomy: TaxonomyTable) -> Gating:
    """Gating under taxonomy version 3: reads within their cap, every consequential act held for its review."""
    return Gating(taxonomy.version, taxonomy, MappingProxyType({READ_CLASS: READ_CAP}), ())


def checked(suite: Suite, taxonomy: TaxonomyTable) -> tuple[Policy, Gating]:
    """The suite's policy and gating, refused before any pair runs if the gate could not judge the catalogue."""
    policy, gating = policy_for(suite, taxonomy), gating_for(taxonomy)
    require_gateable(policy, gating)
    return policy, gating


def encoded(entry: Entry | None, arguments: dict, taxonomy: TaxonomyTable) -> dict:
    """A call's arguments as the act carries them: each as canonical JSON text, every declared one present.

    A read's arguments stay out of the act (its capture keeps them); a call
    to a tool nobody declared keeps what it sent, so the policy can refuse it
    with the name of the argument.
    """
    if entry is not None and not consequential(entry, taxonomy):
        return {}
    names = sorted({*(entry.arguments if entry else ()), *arguments})
    return {name: canonical_bytes(arguments.get(name)).decode("utf-8") for name in names}
