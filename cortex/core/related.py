"""Core corpus: the ids a Markdown record links to (`related`); used by cortex.core.corpus.parse_markdown.

The reference reads links only from `slug: ID` lines (anywhere in the text, as its writer puts
them: `related:` then `  - slug: ID`). A YAML-style list in the frontmatter is read too, never
silently ignored:

    related: [id-a, "id b"]        a flow list (quoted items may hold commas; a trailing comma is allowed)
    related:                       a block list of plain ids, one `- id` per line
      - id-a

`related: []` and an empty `related:` add nothing. Anything else in the field (a bare word,
nested brackets, an empty item) is an integrity_error naming the record and file, never the
value. The ids of the list come first (each once), then the `slug:` ids they do not repeat; a
record without a `related:` field links exactly as the reference reads it.
"""
from __future__ import annotations

import functools
import re

from cortex.core.jscompat import JS_DOT, JS_LINE_TERMINATORS, JS_WS, JS_WS_CLASS, js_trim
from cortex.errors import IntegrityError

_LT = re.escape(JS_LINE_TERMINATORS)
_QUOTED = r'"[^"]*"|\'[^\']*\''
_ITEM = rf"\s*(?:{_QUOTED}|[^,\"'\[\]{{}}]+)\s*"
_FLOW_BODY = re.compile(rf"(?:{_ITEM}(?:,{_ITEM})*,?)?\s*\Z")
_FLOW_ITEM = re.compile(rf"\s*({_QUOTED}|[^,\"'\[\]{{}}]+?)\s*(?:,|\Z)")
_FRONTMATTER_LINES = re.compile(r"---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|\Z)")
_BLOCK_ITEM = re.compile(r"\s*-(?:\s+(.*))?\Z")
_QUOTE_ENDS = re.compile(r"\A[\"']|[\"']\Z")
_MAPPING_ITEM = re.compile(r"[A-Za-z0-9_]+:(?:\s|\Z)")  # `- slug: ID` (read as a slug line) or another mapping


@functools.cache
def _slug_lines() -> re.Pattern[str]:
    """The `slug:` lines of a record: ~1 ms to compile, and only a record that names a slug needs it."""
    return re.compile(
        rf"(?:\A|(?<=[{_LT}])){JS_WS_CLASS}*-?{JS_WS_CLASS}*slug:{JS_WS_CLASS}*([^{re.escape(JS_WS)}#]+){JS_DOT}*(?=[{_LT}]|\Z)"
    )


def unquoted(value: str) -> str:
    """A scalar as the reference reads one: trimmed, one quote character dropped from each end."""
    return _QUOTE_ENDS.sub("", js_trim(value))


def slug_ids(content: str) -> list[str]:
    if "slug:" not in content:  # the common case; the full pattern is comparatively slow
        return []
    return [unquoted(m.group(1)) for m in _slug_lines().finditer(content)]


def related_ids(content: str, field: str | None, where: str) -> list[str]:
    """Every id a record links to: its frontmatter list (`field`: the `related:` value as read), then its slugs.

    `where` names the record and file for the error.
    """
    slugs = slug_ids(content)
    if field is None:
        return slugs  # exactly the reference's list (a repeated slug included)
    listed = list(dict.fromkeys(_flow_list(field, where) if field else _block_list(content, where)))
    return listed + [slug for slug in slugs if slug not in listed]


def _refused(where: str, why: str) -> IntegrityError:
    return IntegrityError(f"Canonical record {where}: related must list record ids, as [id, id] or one `- id` "
                          f"per line ({why})").at(field="related", rule="related-list")


def _flow_list(value: str, where: str) -> list[str]:
    if not (value.startswith("[") and value.endswith("]")):
        raise _refused(where, "not a list")
    body = value[1:-1].strip()
    if not _FLOW_BODY.match(body):
        raise _refused(where, "not a flat list: nested brackets, an empty item or an unbalanced quote")
    body = body[:-1] if body.endswith(",") else body  # YAML allows one trailing comma
    items = [unquoted(item) for item in _FLOW_ITEM.findall(body)] if body else []
    if any(not item for item in items):
        raise _refused(where, "an empty item")
    return items


def _block_list(content: str, where: str) -> list[str]:
    """Plain `- id` items under an empty `related:` line of the frontmatter; `- key: value` items are mappings."""
    match = _FRONTMATTER_LINES.match(content)
    lines = re.split(r"\r?\n", match.group(1)) if match else []
    found: list[str] = []
    inside = False
    for line in lines:
        if not inside:
            inside = re.match(r"related:\s*\Z", line) is not None
            continue
        item = _BLOCK_ITEM.match(line)
        if item is None:
            if line[:1] in (" ", "\t"):
                continue  # a mapping item's further keys (`    type: idea`)
            break  # the next field
        text = (item.group(1) or "").strip()
        if not text:
            raise _refused(where, "an empty item")
        if not _MAPPING_ITEM.match(text):
            found.append(unquoted(text))
    return found
