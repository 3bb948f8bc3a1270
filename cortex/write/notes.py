"""Write path: idea and knowledge items become new canonical Markdown records under KNOWLEDGE/; used by routing.

Each item is a new file, created whole and never overwriting anything, whose frontmatter
the core's corpus loader reads back exactly (id, type, title, created, updated, source,
source_session, related, valid_from, valid_until). Values are written as the loader reads
them: `key: value` lines, the title wrapped in one pair of double quotes (the loader strips
exactly one pair, so any title round-trips), related links as `- slug:` lines.
"""
from __future__ import annotations

import os
import re
import secrets
import unicodedata

from cortex.core.durable import create_file
from cortex.write.items import IdeaItem, KnowledgeItem
from cortex.core.jscompat import js_number_to_string
from cortex.core.safepaths import memory_dir
from cortex.write.writecontext import WriteContext
from cortex.layout import TIER_B_LOG

FOLDERS = {"idea": "Ideas", "person": "People", "company": "Companies", "research": "Research"}
_SLUG_RUN = re.compile(r"[^a-z0-9]+")
MAX_SLUG_CHARS = 48  # at most 4 UTF-8 bytes each: an id file name stays far below 255 bytes


def slugify(text: str) -> str:
    """Letters and digits of any script (NFKC, case-folded; combining marks kept with their letter), runs joined by '-'.

    ASCII titles give exactly the former `[a-z0-9]` slug; `向量索引` stays readable instead of
    `untitled`. Nothing but letters, digits, marks and '-' can reach a file name.
    """
    if text.isascii():
        return _SLUG_RUN.sub("-", text.lower()).strip("-")[:MAX_SLUG_CHARS].strip("-") or "untitled"
    kept: list[str] = []
    for char in unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold()):
        mark = unicodedata.category(char)[0] == "M"
        if char.isalnum() or (mark and kept and kept[-1] != "-"):
            kept.append(char)
        elif kept and kept[-1] != "-":
            kept.append("-")
    slug = "".join(kept[:MAX_SLUG_CHARS]).strip("-")
    return slug or "untitled"


def new_record_id(kind: str, title: str, now_iso: str) -> str:
    """e.g. idea-memory-as-a-garden-20260101T120000Z-3f9a1c2e (random suffix: unique across writers)."""
    stamp = now_iso[:19].replace("-", "").replace(":", "") + "Z"
    return f"{kind}-{slugify(title)}-{stamp}-{secrets.token_hex(4)}"


def render_record(item: IdeaItem | KnowledgeItem, record_id: str, now_iso: str, source: str) -> str:
    is_idea = isinstance(item, IdeaItem)
    title = item.title if is_idea else item.name
    lines = ["---", f"id: {record_id}", f"type: {item.type}"]
    if not is_idea:
        lines.append(f"entity_type: {item.entity_type}")
    lines += [f'title: "{title}"', f"created: {now_iso}", f"updated: {now_iso}", f"source: {source}"]
    if item.source_session is not None:
        lines.append(f"source_session: {item.source_session}")
    if item.confidence is not None:
        lines.append(f"confidence: {js_number_to_string(item.confidence)}")
    if item.valid_from is not None:
        lines.append(f"valid_from: {item.valid_from}")
    if item.valid_until is not None:
        lines.append(f"valid_until: {item.valid_until}")
    if item.related:
        lines.append("related:")
        for link in item.related:
            lines += [f"  - slug: {link.slug}", f"    type: {link.type}"]
    else:
        lines.append("related: []")
    lines += ["---", "", f"# {title}", "", item.content.strip("\n"), ""]
    return "\n".join(lines)


def write_record(ctx: WriteContext, item: IdeaItem | KnowledgeItem, *, source: str) -> dict:
    kind = "idea" if isinstance(item, IdeaItem) else item.entity_type
    directory = memory_dir(ctx.layout.memory_root, "KNOWLEDGE", FOLDERS[kind])
    title = item.title if isinstance(item, IdeaItem) else item.name
    for _attempt in range(5):
        record_id = new_record_id(item.type, title, ctx.now_iso)
        path = os.path.join(directory, record_id + ".md")
        data = render_record(item, record_id, ctx.now_iso, source).encode("utf-8")
        try:
            create_file(path, data)
            break
        except FileExistsError:
            continue  # astronomically unlikely: draw a new suffix
    else:
        raise OSError(f"could not allocate a unique record file in {directory}")
    warning = ctx.record(TIER_B_LOG, {"file": ctx.layout.display(path), "id": record_id, "type": item.type,
                                       "source": source, "bytes_written": len(data)})
    return {"id": record_id, "path": ctx.layout.display(path), "bytes_written": len(data), "created": ctx.now_iso,
            "warnings": [warning] if warning else []}
