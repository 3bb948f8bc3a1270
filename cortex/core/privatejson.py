"""Core privacy boundary for decoded JSON: every key and string of a value read from disk; used by loaders.

JSON escapes (`\u003cprivate\u003e`) only become tags once decoded, so a loader strips the
decoded value, not the raw text. Two keys of one object that are equal once stripped are
refused (KeyCollision) rather than silently merged. The corpus keeps keys as written (keys=False):
it refuses any key that is not a record field anyway.
"""
from __future__ import annotations

from cortex.core.privacy import strip_private_content


class KeyCollision(ValueError):
    """Two keys of one object are the same once their private spans are removed."""


def strip_private_json(value: object, *, keys: bool = True) -> object:
    """`value` with private spans removed from every string, recursively, and from every object key
    unless `keys` is False (a reader that refuses any key it does not know needs no stripped keys)."""
    if isinstance(value, str):
        return strip_private_content(value)
    if isinstance(value, list):
        return [strip_private_json(item, keys=keys) for item in value]
    if isinstance(value, dict):
        public = {strip_private_content(key) if keys else key: strip_private_json(item, keys=keys)
                  for key, item in value.items()}
        if len(public) != len(value):
            raise KeyCollision("two keys are the same once their private spans are removed")
        return public
    return value
