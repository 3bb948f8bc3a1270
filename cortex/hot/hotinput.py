"""Core hot-memory input: the one way a hot file's bytes become text; used by every reader of PRINCIPAL_MEMORY.md / DA_MEMORY.md.

The readers are the writer's prior read (hot set, remember, review, restore), `hot read`,
`hot restore` (the snapshot's bytes), `hot render`, `recall` and the auditor's collector. A
hand-edited, legacy or restored file may hold `<private>` spans: they are stripped here, on
the way in, so no output, log, prompt or rewritten file ever sees them. Snapshots keep the
raw bytes (they are taken from the bytes, never from this text).
"""
from __future__ import annotations

from cortex.core.corpusfiles import assert_canonical_utf8
from cortex.core.privacy import strip_private_content


def hot_text(data: bytes, where: str | None = None) -> str:
    """Strict UTF-8 (a BOM dropped), checked as canonical text when `where` names the file, private spans stripped.

    Raises UnicodeDecodeError, and IntegrityError for control characters when `where` is given.
    """
    text = data.decode("utf-8").removeprefix("\ufeff")
    if where is not None:
        assert_canonical_utf8(data, where)  # the bytes decoded strictly: the same rule, read from them
    return strip_private_content(text)
