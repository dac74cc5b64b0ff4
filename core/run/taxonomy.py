"""The action taxonomy: which kinds of act need a person's approval before they run.

A security test mixes harmless reading with acts that can hurt: a probe that
sends markup to a form, an exploit attempt, a copy of someone's data, a report
shared outside the engagement. The harness does not guess which is which from
a tool's name. It looks the act up in one versioned data table,
``data/taxonomy/action_taxonomy.json``, where each row is a canonical action
class that states, with no defaults, whether it is consequential, which
trigger class it counts toward, whether it may fail open, which role may
approve it, and the older names it used to have. A row that leaves out any of
these is rejected when the table loads: a new class must not quietly inherit
a policy nobody wrote down.

Three rules keep the table honest:

- An act whose class is undeclared or unknown is consequential (fail-closed).
  Otherwise a misspelt or forgotten class would be the easiest way around
  every other rule.
- A trigger class is the population a count of "what should have been
  checked" is taken over. It is derived from the action class, never written
  per record; an unknown class counts as ``unclassified`` so it is visible.
- A sealed record is read under the table it was sealed with. Earlier tables
  are carried unchanged (``action_taxonomy_v<N>.json``) and their digests are
  pinned here, so replaying an old record cannot pick up today's rules.

``CHANGE`` is a trigger class no row may declare: a consequential act that
amends an act already approved (the same identity with other arguments)
counts as a change, and only the run's state can say that it is one, so it
is derived from state (``trigger_class(..., after_prior_approval=True)``).

gate.py turns a class into a verdict: allow, hold (waits for an approved
review of that exact act by the class's approver role) or deny.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from core.run.canon import CanonError, digest
from core.run.jsonfile import read_json, shown_path
from core.run.records import require_keys

REPO = Path(__file__).resolve().parents[2]
TAXONOMY_DIR = REPO / "data" / "taxonomy"
CURRENT_FILE = "action_taxonomy.json"

# Every table other than the current one that a sealed record may name: version -> digest of the
# table as it shipped. Version 1 came before the current table; version 3 adds the assistant's
# classes that the AgentDojo bridge (dojo/) runs under, while the reference run stays on 2.
CARRIED_DIGESTS = {1: "60750b97c1462ca6afbac4968e96dfbea185499c0e21407d48d83317dd9d0e22",
                   3: "e9b73830f2cadc6500290dee54b0ed0611a50911306b7b39fc4fa7a055ad303f"}

TABLE_KEYS = ("about", "taxonomy_version", "trigger_classes", "classes")
ROW_KEYS = ("name", "trigger_class", "consequential", "fail_open_allowed", "approver_role", "legacy_aliases")
UNCLASSIFIED_NAME = "unclassified"  # reserved: no row and no alias may use it
CHANGE = "CHANGE"  # reserved trigger class: an amendment after a prior approval, derived from state


class TaxonomyError(ValueError):
    """A taxonomy table is missing, unreadable or under-declared; the message says where."""


@dataclass(frozen=True)
class ActionClass:
    """One canonical row of the table."""

    name: str
    trigger_class: str | None  # None: not consequential, so outside every population
    consequential: bool
    fail_open_allowed: bool  # may be configured to proceed when the gating view is stale
    approver_role: str | None  # None: no review can release it, so it is denied
    legacy_aliases: tuple[str, ...]


# What an undeclared or unknown class is treated as: consequential, and nobody may approve it.
UNCLASSIFIED = ActionClass(UNCLASSIFIED_NAME, UNCLASSIFIED_NAME, True, False, None, ())


@dataclass(frozen=True)
class TaxonomyTable:
    """A validated table: its version, its digest and its rows by canonical name."""

    version: int
    digest: str
    trigger_classes: tuple[str, ...]
    classes: Mapping[str, ActionClass]
    aliases: Mapping[str, str]  # legacy name -> canonical name

    def resolve(self, name: object) -> ActionClass | None:
        """The row for a canonical or legacy name, or None if the table does not know it."""
        if not isinstance(name, str):
            return None
        return self.classes.get(self.aliases.get(name, name))

    def classify(self, name: object) -> ActionClass:
        """The row that governs ``name``: an undeclared or unknown class is UNCLASSIFIED."""
        return self.resolve(name) or UNCLASSIFIED

    def trigger_class(self, name: object, *, after_prior_approval: bool = False) -> str | None:
        """The population ``name`` counts toward, or None for a non-consequential class.

        ``after_prior_approval`` is the caller's state: a consequential act
        that amends one already approved counts as CHANGE.
        """
        row = self.classify(name)
        if row.trigger_class is None:
            return None
        return CHANGE if after_prior_approval else row.trigger_class

    def canonical_caps(self, caps: Mapping[str, int]) -> dict[str, int]:
        """Caps keyed by canonical class, legacy names resolved: a cap must not hide behind an old name."""
        resolved: dict[str, int] = {}
        for name, cap in caps.items():
            row = self.resolve(name)
            if row is None:
                raise TaxonomyError(f"a cap names {name!r}, which is no class of taxonomy version {self.version}")
            if row.name in resolved:
                raise TaxonomyError(f"two caps name the class {row.name!r} (one of them by a legacy name)")
            resolved[row.name] = cap
        return dict(sorted(resolved.items()))


# --- loading and validating ----------------------------------------------------------


def parse_table(raw: object, source: str = "taxonomy table") -> TaxonomyTable:
    """Validate a parsed table; raise TaxonomyError naming ``source``, the row and the key."""
    if not isinstance(raw, dict):
        raise TaxonomyError(f"{source}: the table must be a JSON object")
    _require_exact_keys(source, "the table", raw, TABLE_KEYS)
    if not isinstance(raw["about"], str) or not raw["about"].strip():
        raise TaxonomyError(f"{source}: about must say in a sentence what the table is")
    version = raw["taxonomy_version"]
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise TaxonomyError(f"{source}: taxonomy_version must be a positive integer, got {version!r}")
    triggers = _names(source, "trigger_classes", raw["trigger_classes"])
    if not triggers:
        raise TaxonomyError(f"{source}: trigger_classes must name at least one trigger class")
    if CHANGE in triggers:
        raise TaxonomyError(f"{source}: trigger class {CHANGE!r} is derived from state; no table may declare it")
    rows = raw["classes"]
    if not isinstance(rows, list) or not rows:
        raise TaxonomyError(f"{source}: classes must be a non-empty list of rows")
    classes: dict[str, ActionClass] = {}
    for index, row in enumerate(rows):
        action_class = _parse_row(source, index, row, triggers)
        if action_class.name in classes:
            raise TaxonomyError(f"{source}: class {action_class.name!r} is declared more than once")
        classes[action_class.name] = action_class
    if all(action_class.consequential for action_class in classes.values()):
        raise TaxonomyError(f"{source}: every class is consequential; a table needs at least one class "
                            "that runs without review, or every act of a run would wait for a person")
    try:
        table_digest = digest(raw)
    except CanonError as exc:
        raise TaxonomyError(f"{source}: the table has no canonical JSON form: {exc}") from None
    return TaxonomyTable(version, table_digest, triggers, MappingProxyType(classes), _alias_map(source, classes))


def _parse_row(source: str, index: int, row: object, triggers: tuple[str, ...]) -> ActionClass:
    if not isinstance(row, dict):
        raise TaxonomyError(f"{source}: classes[{index}] must be an object")
    name = row.get("name")
    where = f"class {name!r}" if isinstance(name, str) and name else f"classes[{index}]"
    _require_exact_keys(source, where, row, ROW_KEYS)
    _require_name(source, f"{where} name", name)
    if name in (UNCLASSIFIED_NAME, CHANGE):
        raise TaxonomyError(f"{source}: {where} uses the reserved name {UNCLASSIFIED_NAME!r}")
    for key in ("consequential", "fail_open_allowed"):
        if not isinstance(row[key], bool):
            raise TaxonomyError(f"{source}: {where} {key} must be true or false, got {row[key]!r}")
    trigger, role = row["trigger_class"], row["approver_role"]
    if role is not None:
        _require_name(source, f"{where} approver_role", role)
    if row["consequential"]:
        if trigger not in triggers:
            raise TaxonomyError(f"{source}: {where} is consequential, so its trigger_class must be one of "
                                f"{', '.join(triggers)}, got {trigger!r}")
        if row["fail_open_allowed"]:
            raise TaxonomyError(f"{source}: {where} is consequential and may not fail open")
    elif trigger is not None:
        raise TaxonomyError(f"{source}: {where} is not consequential, so its trigger_class must be null")
    aliases = _names(source, f"{where} legacy_aliases", row["legacy_aliases"])
    return ActionClass(name, trigger, row["consequential"], row["fail_open_allowed"], role, aliases)


def _alias_map(source: str, classes: Mapping[str, ActionClass]) -> Mapping[str, str]:
    """Legacy name -> canonical name; an alias may name exactly one row and no row itself."""
    aliases: dict[str, str] = {}
    for action_class in classes.values():
        for alias in action_class.legacy_aliases:
            if alias in classes or alias in aliases or alias == UNCLASSIFIED_NAME:
                raise TaxonomyError(f"{source}: legacy alias {alias!r} of class {action_class.name!r} "
                                    "collides with another name")
            aliases[alias] = action_class.name
    return MappingProxyType(aliases)


def _require_exact_keys(source: str, where: str, data: dict, keys: tuple[str, ...]) -> None:
    """Every key declared and no other: a missing key must not fall back to a default."""
    for key in keys:
        if key not in data:
            raise TaxonomyError(f"{source}: {where} does not declare {key}; every key must be declared")
    require_keys(f"{source}: {where}", data, keys, error=TaxonomyError)


def _require_name(source: str, where: str, value: object) -> None:
    if not isinstance(value, str) or not value or any(char.isspace() for char in value):
        raise TaxonomyError(f"{source}: {where} must be a non-empty word, got {value!r}")


def _names(source: str, where: str, value: object) -> tuple[str, ...]:
    """A list of distinct words."""
    if not isinstance(value, list):
        raise TaxonomyError(f"{source}: {where} must be a list, got {value!r}")
    for item in value:
        _require_name(source, f"{where} entry", item)
    if len(set(value)) != len(value):
        raise TaxonomyError(f"{source}: {where} lists a name more than once")
    return tuple(value)


def load_table(path: str | Path) -> TaxonomyTable:
    """The validated table in the file at ``path``."""
    raw = read_json(path, error=TaxonomyError, what="taxonomy file")
    return parse_table(raw, shown_path(path))


def current_table(taxonomy_dir: str | Path | None = None) -> TaxonomyTable:
    """The table live decisions are made under."""
    return load_table(Path(taxonomy_dir or TAXONOMY_DIR) / CURRENT_FILE)


def carried_taxonomy(version: object, taxonomy_dir: str | Path | None = None) -> TaxonomyTable:
    """The table a sealed record names by its ``taxonomy_version``, exactly as it shipped.

    Any table but the current one must still have the digest pinned in
    CARRIED_DIGESTS: if someone edited it, replaying an old record would
    silently use new rules.
    """
    if isinstance(version, bool) or not isinstance(version, int):
        raise TaxonomyError(f"a taxonomy version is a positive integer, got {version!r}")
    folder = Path(taxonomy_dir or TAXONOMY_DIR)
    current = current_table(folder)
    if version == current.version:
        return current
    if version not in CARRIED_DIGESTS:
        carried = ", ".join(str(v) for v in sorted({*CARRIED_DIGESTS, current.version}))
        raise TaxonomyError(f"taxonomy version {version!r} is not carried (carried versions: {carried})")
    table = load_table(folder / f"action_taxonomy_v{version}.json")
    if table.version != version:
        raise TaxonomyError(f"action_taxonomy_v{version}.json declares taxonomy_version {table.version}")
    if table.digest != CARRIED_DIGESTS[version]:
        raise TaxonomyError(f"action_taxonomy_v{version}.json has changed since it shipped "
                            f"(digest {table.digest[:12]}, pinned {CARRIED_DIGESTS[version][:12]})")
    return table


# --- counting --------------------------------------------------------------------------


def class_counts(action_classes: Iterable[object], table: TaxonomyTable | None = None) -> dict[str, int]:
    """How many acts fall in each canonical class (legacy names folded in, unknown ones as unclassified)."""
    table = table or current_table()
    counts: dict[str, int] = {}
    for name in action_classes:
        canonical = table.classify(name).name
        counts[canonical] = counts.get(canonical, 0) + 1
    return dict(sorted(counts.items()))


def trigger_counts(acts: Iterable[object], table: TaxonomyTable | None = None) -> dict[str, int]:
    """How many acts should have been checked, per trigger class, zeros included.

    Each act is its class name, or a pair (class name, after_prior_approval)
    when the caller's state knows it amends an approved act (CHANGE).
    """
    table = table or current_table()
    counts = {trigger: 0 for trigger in (*table.trigger_classes, UNCLASSIFIED_NAME, CHANGE)}
    for act in acts:
        name, amends = act if isinstance(act, tuple) else (act, False)
        trigger = table.trigger_class(name, after_prior_approval=amends)
        if trigger is not None:
            counts[trigger] += 1
    return dict(sorted(counts.items()))


def check_catalogue(tool_classes: Mapping[str, object], table: TaxonomyTable | None = None) -> list[str]:
    """One problem per catalogue tool whose declared class is not a canonical row; [] when all are."""
    table = table or current_table()
    problems = []
    for tool, name in sorted(tool_classes.items()):
        if name is None:
            problems.append(f"tool {tool!r} declares no action class")
        elif isinstance(name, str) and name in table.aliases:
            problems.append(f"tool {tool!r} declares the legacy class {name!r}; "
                            f"declare its canonical name {table.aliases[name]!r}")
        elif not isinstance(name, str) or name not in table.classes:
            problems.append(f"tool {tool!r} declares {name!r}, which is not a class "
                            f"in taxonomy version {table.version}")
    return problems
