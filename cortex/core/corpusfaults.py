"""Core corpus faults: where in a canonical file an integrity error sits (a line, never a value); used by cortex.core.corpus on its failure path only.

An IntegrityError knows the file, the field and the rule it broke (cortex.errors.CortexError.at);
these find the line: the frontmatter line a Markdown field was read from, or the line of the
record that repeats an id. Nothing here runs while a corpus loads cleanly.
"""
from __future__ import annotations

import os
from collections.abc import Callable

from cortex.core.corpusfiles import read_canonical_utf8
from cortex.core.jscompat import js_trim
from cortex.errors import IntegrityError

# The frontmatter keys a record field is read from, in the loader's order of preference (parse_markdown).
_MARKDOWN_KEYS = {"id": ("id",), "created": ("created", "date", "ts"),
                  "updated": ("updated", "last_updated", "created", "date", "ts"),
                  "valid_from": ("valid_from",), "valid_until": ("valid_until",), "related": ("related",)}


def source_key(fields: dict[str, str], field: str | None) -> str | None:
    """The frontmatter key a record field was taken from (created may come from `date`), or None."""
    return next((key for key in _MARKDOWN_KEYS.get(field or "", ()) if fields.get(key)), None)


def frontmatter_line(text: str, key: str | None) -> int | None:
    """The 1-based line of the last `key:` in the frontmatter of `text` (the value the loader kept), or None.

    Only for naming where an integrity error sits: it runs on the failure path alone.
    """
    lines = text.split("\n")
    if key is None or not lines or lines[0].strip() != "---":
        return None
    found = None
    for number, line in enumerate(lines[1:], start=2):
        if line.strip() == "---":
            break
        name, colon, _value = line.partition(":")
        if colon and name.lstrip() == key:  # the loader's `key:` line (cortex.core.corpus._FIELD)
            found = number
    return found


def id_line(root: str, rel: str, record_id: str, nth: int, row_of: Callable[[str, str, int], dict]) -> int | None:
    """The line of the nth record with `record_id` in canonical file `rel` (the failure path only), or None.

    `row_of(line, rel, number)` is the loader's JSONL row reader (cortex.core.corpus), so a row counts here
    exactly when it counts there.
    """
    try:
        text = read_canonical_utf8(os.path.join(root, rel), rel)
    except (IntegrityError, OSError):
        return None
    if rel.endswith(".md"):
        return frontmatter_line(text, "id")
    seen = 0
    for number, line in enumerate(text.split("\n"), start=1):
        try:
            row = row_of(line, rel, number) if js_trim(line) else None
        except IntegrityError:
            continue
        if row is not None and row.get("id") == record_id:
            seen += 1
            if seen == nth:
                return number
    return None
