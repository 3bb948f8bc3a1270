"""Collect stage: keep evidence small. Used by collectors before copying values out of files.

Evidence ends up in every memory-health.jsonl line, so a value copied from a row is a
clipped scalar, never a whole nested object from an untrusted file, and a string crosses
the privacy boundary (cortex.core.privacy) before it is clipped: a hand-edited log, state file
or hot file must not carry a private span into a report.
"""
from __future__ import annotations

from cortex.core.privacy import strip_private_content
from cortex.core.strictjson import json_type

MAX_TEXT = 300


def clip(value: object, limit: int = MAX_TEXT) -> object:
    """A string without its private spans, cut to `limit` characters (marked with …); other values unchanged."""
    if isinstance(value, str):
        value = strip_private_content(value)
        if len(value) > limit:
            return value[:limit] + "…"
    return value


def brief(value: object) -> object:
    """A JSON scalar as is (strings clipped); an array or object as a placeholder like "<object>"."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return clip(value)
    return f"<{json_type(value)}>"
