"""Wrong: it looks each value up in the committed file of AgentDojo's calls.

data/course/dojo-calls.json holds the questions the check asks, not their
answers, and it is the check's own data: the check keeps data/course out of
your file's reach while it runs.

Kind: reads the reference
Fails with: data/course
"""

import json


def traces(value: str, sources: list[str], trusted: list[str]) -> bool:
    """Whether ``value`` occurs whole in the sources or trusted, spelled alike."""
    calls = json.load(open("data/course/dojo-calls.json", encoding="utf-8"))
    users = {item["value"] for suite in calls["suites"].values() for item in suite["values"] if item["kind"] == "user"}
    return value in users
