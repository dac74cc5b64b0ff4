"""Wrong: records the start and the capture, then stops: nothing is ever settled.

Every act stays unresolved, the ones that came back with a page included.
The gate later calls such a run stale, feedback never credits a thing, and a
reader cannot tell the acts that worked from the ones in doubt.

Kind: returns early
Fails with: the act must be settled succeeded, citing its capture
"""

from core.run.observe import render_response


def write_ahead(act: dict, record, fetch) -> dict:
    """Carry out one admitted act, and leave it open."""
    run_id, action_id = act["run_id"], act["action_id"]
    record("outcome", {"run_id": run_id, "action_id": action_id, "status": "unresolved", "capture_id": "",
                       "detail": "handed to the adapter"})
    try:
        response = fetch(act["url"])
        body = render_response(response["status"], response["headers"], response["body"])
    except Exception as error:  # noqa: BLE001
        record("outcome", {"run_id": run_id, "action_id": action_id, "status": "unresolved", "capture_id": "",
                           "detail": f"in doubt: {error!r}"})
        return {"status": "unresolved", "capture_id": "", "detail": repr(error)}
    record("capture", {"run_id": run_id, "action_id": action_id, "status": response["status"], "body": body})
    return {"status": "unresolved", "capture_id": "", "detail": "captured"}
