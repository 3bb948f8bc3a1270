"""Collect stage: keep evidence small. Used by collectors before copying values out of files.

Evidence ends up in every memory-health.jsonl line, so a value copied from a row is a
clipped scalar, never a whole nested object from an untrusted file.
"""
from __future__ import annotations

from cortex.strictjson import json_type

MAX_TEXT = 300


def clip(value: object, limit: int = MAX_TEXT) -> object:
    """A string cut to `limit` characters (marked with …); other values unchanged."""
    if isinstance(value, str) and len(value) > limit:
        return value[:limit] + "…"
    return value


def brief(value: object) -> object:
    """A JSON scalar as is (strings clipped); an array or object as a placeholder like "<object>"."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return clip(value)
    return f"<{json_type(value)}>"
