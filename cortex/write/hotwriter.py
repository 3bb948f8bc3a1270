"""Write path: the set-overwrite writer for PRINCIPAL_MEMORY.md / DA_MEMORY.md; used by `cortex hot`, remember, restore.

The caller submits the full desired entry list; what is omitted is forgotten. One write:
1. resolve the target to one of the two hot files (anything else: EINVAL_PATH);
2. under `<file>.lock`: read the prior file (bounded, strict UTF-8, canonical text);
3. validate + de-duplicate the submission with the shared hotmemory rules (invalid entries
   are dropped and reported, never silently), then EAT_CAP and the suspect guards; lines of the
   prior file's entry block that are not entries (hand edits, hotmemory's `unparsed`) are not
   written back: each is recorded in the row's `dropped` with reason "unparsed";
4. snapshot the prior bytes into the ring, serialise the canonical shape, replace atomically
   (a no-op, the same entries in an already canonical file, touches nothing and takes no snapshot);
5. append one row to O/memory-writes.jsonl for every attempt, refused or not.
Entries must already have passed the privacy boundary (the callers strip them); the prior
file passes it on the way in (cortex.hot.hotinput), its snapshot keeps the raw bytes.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass

from cortex.core.durable import replace_file
from cortex.errors import CortexError, IntegrityError, NotFound
from cortex.write.hotguards import cap_refusal, suspect_refusal
from cortex.hot.hotinput import hot_text
from cortex.hot.hotmemory import ParsedMemoryFile, parse_memory_content, serialize_memory_content, validate_entries
from cortex.layout import HOT_FILES, HOT_LABELS, WRITES_LOG
from cortex.write.refusals import Refusal
from cortex.core.safeio import UnsafeFile, read_bounded
from cortex.core.safepaths import check_regular_or_absent, user_dir
from cortex.write.snapshots import take_snapshot
from cortex.write.writecontext import WriteContext
from cortex.write.writerows import MemoryWriteRow

MAX_HOT_FILE_BYTES = 1 << 20
MAX_LOGGED_ENTRY_CHARS = 512
# The stamp a write always changes; a file equal apart from it is already what the write would make.
_STAMP_LINES = re.compile(r"^last_updated(?:_by)?:.*(?:\r?\n|\Z)", re.MULTILINE)


@dataclass(frozen=True)
class HotTarget:
    label: str
    path: str  # the lexical path (what logs show)
    real_path: str  # inside the pinned USER tree (what we open and replace)


@dataclass(frozen=True)
class PriorFile:
    raw: bytes
    parsed: ParsedMemoryFile | None  # None when the bytes are not readable canonical text
    problem: str | None


def resolve_target(ctx: WriteContext, requested: str) -> HotTarget:
    """'principal', 'da' or a path equal to one of the two hot files; else EINVAL_PATH."""
    layout = ctx.layout
    label = requested if requested in HOT_LABELS else None
    if label is None:
        path = os.path.abspath(os.path.expanduser(requested))
        label = next((name for name in HOT_LABELS if layout.hot_file(name) == path), None)
    if label is None:
        raise Refusal("EINVAL_PATH", "only PRINCIPAL_MEMORY.md and DA_MEMORY.md (principal|da) may be written; "
                                     f"got {requested!r}")
    *folders, file_name = HOT_FILES[label]
    directory = user_dir(layout.lifeos, *folders[1:])
    return HotTarget(label, layout.hot_file(label), os.path.join(directory, file_name))


def read_prior(target: HotTarget) -> PriorFile:
    if not check_regular_or_absent(target.real_path):
        raise NotFound(f"Hot memory file does not exist: {target.path} (run `cortex init`)")
    try:
        raw = read_bounded(target.real_path, MAX_HOT_FILE_BYTES)
    except UnsafeFile as error:
        raise IntegrityError(f"Hot memory file is not readable: {target.path} ({error})") from None
    try:
        text = hot_text(raw, target.path)
    except (UnicodeDecodeError, IntegrityError):
        return PriorFile(raw, None, "not valid UTF-8 text without control characters")
    return PriorFile(raw, parse_memory_content(text), None)


def _logged(entry: str) -> str:
    return entry if len(entry) <= MAX_LOGGED_ENTRY_CHARS else entry[:MAX_LOGGED_ENTRY_CHARS] + "…"


def write_entries(
    ctx: WriteContext,
    requested: str,
    submitted: list[str],
    *,
    updated_by: str,
    allow_drastic: bool = False,
    base: ParsedMemoryFile | None = None,
    explicit_undo: bool = False,
) -> dict:
    """Replace a hot file's entries with `submitted`; returns the result or raises.

    `base` (restore) supplies the frontmatter and body to write instead of the current ones;
    `explicit_undo` (restore: the user named the snapshot) lifts the suspect guards, not the cap.
    Every attempt leaves one memory-writes row: success inside the lock (so rows are in
    commit order), any refusal or failure with its code once the attempt has ended.
    """
    attempt = {"file": requested[:MAX_LOGGED_ENTRY_CHARS], "updated_by": updated_by, "prior_count": None,
               "new_count": None, "evictions": [], "additions": [], "dropped": []}
    try:
        return _write(ctx, requested, submitted, attempt, updated_by, allow_drastic, base, explicit_undo)
    except Refusal as refusal:
        _log(ctx, attempt, refusal.reason, refusal.message)
        raise
    except CortexError as error:
        _log(ctx, attempt, error.code, error.message)
        raise
    except OSError as error:
        _log(ctx, attempt, "EWRITE_FAILED", f"{type(error).__name__}: {error}")
        raise


def _unstamped(text: str) -> str:
    return _STAMP_LINES.sub("", text)


def _write(ctx, requested, submitted, attempt, updated_by, allow_drastic, base, explicit_undo) -> dict:
    target = resolve_target(ctx, requested)
    validation = validate_entries(submitted)
    accepted = list(validation.accepted)
    dropped = [{"entry": _logged(row["entry"]), "reason": row["reason"]} for row in validation.dropped]
    attempt.update(file=ctx.layout.display(target.path), new_count=len(accepted), dropped=dropped)
    with ctx.lock(target.real_path + ".lock"):
        prior = read_prior(target)
        if prior.parsed is None and not allow_drastic:
            raise IntegrityError(f"Hot memory file is {prior.problem}: {target.path}; "
                                 "repair it, or restore a snapshot with --allow-drastic")
        prior_entries = list(prior.parsed.entries) if prior.parsed is not None else []
        kept, wanted = set(accepted), set(prior_entries)
        evictions = [entry for entry in prior_entries if entry not in kept]
        additions = [entry for entry in accepted if entry not in wanted]
        attempt.update(prior_count=len(prior_entries) if prior.parsed is not None else None,
                       evictions=[_logged(e) for e in evictions], additions=[_logged(e) for e in additions])
        refusal = cap_refusal(accepted)
        if refusal is None and not (allow_drastic or explicit_undo):
            refusal = suspect_refusal(len(prior_entries), len(accepted), len(evictions), len(additions))
        if refusal is not None:
            raise refusal
        shape = base or prior.parsed or ParsedMemoryFile("", (), ())
        content = serialize_memory_content(shape, accepted, updated_by, ctx.now_iso)
        if prior.parsed is not None and prior.parsed.unparsed:  # they leave the file now: each gets its record
            dropped += [{"entry": _logged(text), "reason": "unparsed"} for _line, text, _rule in prior.parsed.unparsed]
            attempt.update(dropped=dropped)
        unchanged = prior.parsed is not None and _unstamped(content) == _unstamped(prior.raw.decode("utf-8"))
        snapshot = None
        if not unchanged:
            snapshot = take_snapshot(ctx.layout.memory_root, target.label, prior.raw, ctx.now_iso)
            replace_file(target.real_path, content.encode("utf-8"))
        warning = _log(ctx, attempt, None, None)
    return {
        "file": attempt["file"],
        "target": target.label,
        "updated_by": updated_by,
        "accepted": len(accepted),
        "prior_count": attempt["prior_count"],
        "new_count": len(accepted),
        "evictions": evictions,
        "additions": additions,
        "dropped": dropped,
        "dropped_malformed": validation.count("malformed"),
        "dropped_overlength": validation.count("overlength"),
        "dropped_duplicates": validation.count("duplicate"),
        "dropped_unparsed": sum(1 for row in dropped if row["reason"] == "unparsed"),
        "snapshot": snapshot,
        "unchanged": unchanged,
        "allow_drastic": allow_drastic,
        "warnings": [warning] if warning else [],
    }


def _log(ctx: WriteContext, attempt: dict, code: str | None, message: str | None) -> str | None:
    error = None if code is None else {"code": code, "message": message}
    row = MemoryWriteRow(ts=ctx.now_iso, **attempt, ok=code is None, error=error)
    return ctx.record(WRITES_LOG, row.model_dump())
