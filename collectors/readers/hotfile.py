"""Collect stage: one hot-memory file as the audit reads it, once (collectors.lifeos.layout.Layout.hot_texts), for
the hot_memory and hot_content collectors alike.

The file is probed (a regular file, no symlink), read with a bound, decoded as UTF-8 and its private spans stripped
on the way in (cortex.hot.hotinput); its entries come from the one hot-memory parser (cortex.hot.hotmemory), parsed
and validated once for both collectors.
"""
from __future__ import annotations

from collectors.evidence import EvidenceStatus, FileState
from collectors.readers.fsprobe import probe_file
from cortex.core.safeio import UnsafeFile, read_bounded
from cortex.hot.hotinput import hot_text
from cortex.hot.hotmemory import parse_memory_content, validate_entries

MAX_HOT_BYTES = 1 << 20


def hot_file_text(path: str) -> tuple[FileState, str | None]:
    """The file's state and, when it is readable UTF-8, its text with private spans stripped (on the way in)."""
    state = probe_file(path)
    if state.status is not EvidenceStatus.OK:
        return state, None
    try:
        return state, hot_text(read_bounded(path, MAX_HOT_BYTES))
    except UnicodeDecodeError as error:
        return FileState(path, EvidenceStatus.UNREADABLE, f"invalid UTF-8 at byte {error.start}"), None
    except (UnsafeFile, OSError) as error:
        return FileState(path, EvidenceStatus.UNREADABLE, str(error)), None


def read_hot_text(path: str) -> tuple:
    """(state, text, parse, validated entries) of one hot file, (state, None, None, None) when it cannot be read."""
    state, text = hot_file_text(path)
    if text is None:
        return state, None, None, None
    parsed = parse_memory_content(text)
    return state, text, parsed, validate_entries(parsed.entries)
