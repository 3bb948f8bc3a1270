"""Core response envelope as plain data (stdlib only); used by cortex.cli and cortex.envelope.

Building an envelope needs no pydantic: only validating one does (cortex.envelope), so the
hook commands' import path stays free of it.
"""
from __future__ import annotations

SCHEMA_ID = "lifeos-cortex/v1"


def success(command: str, data: dict) -> dict:
    return {"schema": SCHEMA_ID, "ok": True, "command": command, "data": data, "error": None}


def failure(command: str, code: str, message: str) -> dict:
    return {"schema": SCHEMA_ID, "ok": False, "command": command, "data": None, "error": {"code": code, "message": message}}
