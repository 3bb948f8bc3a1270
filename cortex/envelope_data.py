"""Core response envelope as plain data (stdlib only); used by cortex.cli and cortex.envelope.

Building and checking an envelope needs no pydantic: cortex.envelope's model stays the one
source of the published schema, and tests prove envelope_problem agrees with it, so no
command pays for pydantic at start-up.
"""
from __future__ import annotations

SCHEMA_ID = "lifeos-cortex/v1"
_KEYS = frozenset({"schema", "ok", "command", "data", "error"})

EXIT_CODES = {
    None: 0,
    "internal_error": 1,
    "not_found": 3,
    "invalid_input": 4,
    "integrity_error": 4,
    "write_refused": 5,
    "governance_refused": 5,
    "review_failed": 6,  # `review run` ran and failed; its failure row holds the evidence
}


def success(command: str, data: dict) -> dict:
    return {"schema": SCHEMA_ID, "ok": True, "command": command, "data": data, "error": None}


def failure(command: str, code: str, message: str) -> dict:
    return {"schema": SCHEMA_ID, "ok": False, "command": command, "data": None, "error": {"code": code, "message": message}}


def envelope_problem(envelope: object) -> str | None:
    """Why `envelope` is not exactly the contract's shape (the Envelope model's strict rules), or None."""
    if type(envelope) is not dict or set(envelope) != _KEYS:
        return "envelope keys"
    if envelope["schema"] != SCHEMA_ID or type(envelope["schema"]) is not str:
        return "schema"
    if type(envelope["command"]) is not str:
        return "command"
    ok, data, error = envelope["ok"], envelope["data"], envelope["error"]
    if ok is True:
        return None if type(data) is dict and all(type(key) is str for key in data) and error is None else "success body"
    if ok is not False or data is not None:
        return "ok/data"
    if type(error) is not dict or set(error) != {"code", "message"}:
        return "error keys"
    return None if type(error["code"]) is str and type(error["message"]) is str else "error fields"
