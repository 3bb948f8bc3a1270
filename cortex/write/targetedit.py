"""Write path: applies an approved proposal's edit to its pinned target file; used by cortex.write.proposals.

The target is re-pinned from the stored row (a hand-edited queue row cannot aim the write
anywhere else), lives below the pinned LIFEOS/USER tree with no symlinks, and is changed
only by appending the edit as its own paragraph, under `<target>.lock`, with an atomic
replace. An edit already present is not appended again, which makes approval idempotent.
"""
from __future__ import annotations

import os

from cortex.core.corpusfiles import assert_canonical_text
from cortex.core.durable import replace_file
from cortex.errors import IntegrityError
from cortex.write.proposal_targets import pin_target, stored_form
from cortex.core.safeio import UnsafeFile, read_bounded
from cortex.core.safepaths import check_regular_or_absent, user_dir
from cortex.write.writecontext import WriteContext

MAX_TARGET_BYTES = 8 * 1024 * 1024


def _pinned_relative(ctx: WriteContext, stored: str, kind: str) -> str:
    _kind, relative = pin_target(ctx.layout, kind, stored)
    if stored_form(relative) != stored:
        raise IntegrityError(f"Queued target_file {stored!r} is not the pinned {kind!r} target")
    return relative


def append_edit(ctx: WriteContext, stored_target: str, edit: str, kind: str) -> str:
    """Append `edit` to the target; returns "appended" or "already-present"."""
    relative = _pinned_relative(ctx, stored_target, kind)
    *folders, file_name = relative.split("/")
    directory = user_dir(ctx.layout.lifeos, *folders[1:], create=True)
    path = os.path.join(directory, file_name)
    with ctx.lock(path + ".lock"):
        existing = ""
        if check_regular_or_absent(path):
            try:
                existing = read_bounded(path, MAX_TARGET_BYTES).decode("utf-8")
            except (UnsafeFile, UnicodeDecodeError) as error:
                raise IntegrityError(f"Proposal target is not readable UTF-8: {stored_target} ({error})") from None
            assert_canonical_text(existing, stored_target)
        if edit in existing:
            return "already-present"
        separator = "" if not existing else ("\n" if existing.endswith("\n") else "\n\n")
        replace_file(path, (existing + separator + edit + "\n").encode("utf-8"))
    return "appended"
