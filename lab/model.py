"""The scripted model: a stand-in for a language model that always answers the same way.

A real model is neither free nor repeatable, and a course whose artifacts must
be byte-identical cannot call one. This model follows a script,
``data/lab/model/script.json``: an ordered list of rules, each naming
substrings that must all appear in the prompt, and a raw reply. The first rule
that matches wins; if none does, the fallback reply is returned.

Replies are raw text, exactly as a model would write them: usually a JSON
object of proposals, but sometimes broken, sometimes naming a tool nobody
declared, and sometimes repeating an instruction that a page smuggled into the
prompt. Parsing and judging that text is the harness's job, never the model's.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from core.run.jsonfile import read_json
from lab import DEFAULT_LAB_DIR

__all__ = ["Rule", "ScriptError", "ScriptedModel"]

SCRIPT_FILE = Path("model") / "script.json"


class ScriptError(ValueError):
    """The script file is missing or not shaped as rules plus a fallback."""


@dataclass(frozen=True)
class Rule:
    """Reply with ``reply`` when every string in ``when`` appears in the prompt."""

    name: str
    when: tuple[str, ...]
    reply: str

    def matches(self, prompt: str) -> bool:
        return all(fragment in prompt for fragment in self.when)


class ScriptedModel:
    """Deterministic replies from the script in ``lab_dir`` (read once, when created)."""

    def __init__(self, lab_dir: str | Path | None = None):
        path = (DEFAULT_LAB_DIR if lab_dir is None else Path(lab_dir)) / SCRIPT_FILE
        self.rules, self.fallback = _load_script(path)

    def reply(self, prompt: str) -> str:
        """The raw text of the first rule that matches ``prompt``, else the fallback."""
        rule = self.rule_for(prompt)
        return self.fallback if rule is None else rule.reply

    def rule_for(self, prompt: str) -> Rule | None:
        """The rule that decides the reply to ``prompt``, or None for the fallback."""
        return next((rule for rule in self.rules if rule.matches(prompt)), None)


def _load_script(path: Path) -> tuple[tuple[Rule, ...], str]:
    script = read_json(path, error=ScriptError, what="model script")
    if not isinstance(script, dict) or not isinstance(script.get("rules"), list):
        raise ScriptError("model script needs a list of 'rules'")
    if not isinstance(script.get("fallback"), str):
        raise ScriptError("model script needs a 'fallback' reply")
    rules = tuple(_rule(number, entry) for number, entry in enumerate(script["rules"], start=1))
    if len({rule.name for rule in rules}) != len(rules):
        raise ScriptError("model script rule names must be unique")
    return rules, script["fallback"]


def _rule(number: int, entry: object) -> Rule:
    if (
        not isinstance(entry, dict)
        or not isinstance(entry.get("name"), str)
        or not isinstance(entry.get("reply"), str)
        or not isinstance(entry.get("when"), list)
        or not entry["when"]
        or not all(isinstance(fragment, str) and fragment for fragment in entry["when"])
    ):
        raise ScriptError(f"model script rule {number} needs a name, a reply and a non-empty 'when' list of strings")
    return Rule(entry["name"], tuple(entry["when"]), entry["reply"])
