"""Wrong: hands the act to the reference executor instead of writing the step.

It dresses the check's two functions up as a door and an adapter and calls
core.run.execute.execute with them, skipping the action the door already
recorded. While the check runs, the reference executor is not there to call.

Kind: reads the reference
Fails with: core.run.execute is unavailable while the check runs
"""

import importlib
from types import SimpleNamespace


def write_ahead(act: dict, record, fetch) -> dict:
    """Carry out one admitted act with the reference executor."""
    execute = importlib.import_module("core.run.execute")

    class Door:
        run = SimpleNamespace(run_id=act["run_id"])

        def record(self, kind, payload):
            if kind == "action":  # already admitted by the check
                return {"recorded": True, "kind": "action", "id": act["action_id"]}
            return record(kind, payload)

    class Adapter:
        def fetch(self, url):
            answer = fetch(act["url"])
            return execute.AdapterResult(answer["status"], tuple(map(tuple, answer["headers"])), answer["body"])

    result = execute.execute(Door(), {"run_id": act["run_id"]}, Adapter())
    return {"status": result.status, "capture_id": result.capture_id, "detail": result.detail}
