"""Write path: the fresh hot-memory file written by `cortex init`; used by cortex.commands.init.

Built with the canonical serializer, so a fresh file is already in the exact shape every
later write produces (the first write changes only the stamp and the entries).
"""
from __future__ import annotations

from cortex.hot.hotmemory import ParsedMemoryFile, serialize_memory_content

_FRONTMATTER = (
    "---\n"
    "provenance: template\n"
    "schema_version: 1\n"
    "cap_entries: 48\n"
    "cap_chars_per_entry: 256\n"
    "last_updated: 1970-01-01T00:00:00.000Z\n"
    "last_updated_by: cortex-init\n"
    "convention: pai-freshness-v1\n"
    "---\n"
)
_TITLES = {
    "principal": ("# Principal Hot-Layer Memory", "about you"),
    "da": ("# Digital Assistant Hot-Layer Memory", "about your digital assistant"),
}
_RULES = (
    "<!-- Entries start with NAME, ROLE, RELATION, PREFERENCE or RULE and \": \"; at most 48 entries of at most "
    "256 characters after the prefix, provenance tag (~explicit, ~deduced, ~inferred) included. The memory writer "
    "replaces the whole list on every write (set-overwrite). Keep both markers in place. Empty on a fresh install: "
    "this is expected. -->"
)


def template(label: str, now_iso: str, updated_by: str = "cortex-init") -> str:
    heading, about = _TITLES[label]
    body = (
        "",
        heading,
        "",
        f"> Auto-curated hot-layer memory {about}. It starts empty and the memory reviewer writes durable facts "
        "here as you work with your DA. Nothing to fill in manually.",
        "",
        _RULES,
    )
    return serialize_memory_content(ParsedMemoryFile(_FRONTMATTER, body, ()), [], updated_by, now_iso)
