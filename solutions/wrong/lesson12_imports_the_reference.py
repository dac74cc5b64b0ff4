"""Wrong: it hands every value to the stand-in's own rule instead of writing it.

dojo.provenance.traces is the reference this lesson asks you to write; the
check keeps the whole dojo package out of your file's reach while it runs,
so leaning on it answers nothing.

Kind: reads the reference
Fails with: is unavailable while the check runs
"""

from dojo.provenance import traces as the_reviewers_rule


def traces(value: str, sources: list[str], trusted: list[str]) -> bool:
    """Whether ``value`` occurs whole in the sources or trusted, spelled alike."""
    return the_reviewers_rule(value, sources, trusted)
