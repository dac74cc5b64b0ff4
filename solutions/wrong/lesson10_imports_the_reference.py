"""Wrong: it hands the question to the loader's own judge instead of answering it.

core.safety.pack.first_broken_link is the reference this lesson asks you to
write; the check keeps the whole core.safety package out of your file's reach
while it runs, so leaning on it answers nothing.

Kind: reads the reference
Fails with: is unavailable while the check runs
"""

from core.safety.pack import first_broken_link as the_loaders_judge

LINKS = ("seal", "pack", "report", "run")


def first_broken_link(pack: dict, ratification: object, sealed: object = None) -> str:
    """The first of LINKS that does not hold between these three; "" when they belong together."""
    return the_loaders_judge(pack, ratification, sealed)
