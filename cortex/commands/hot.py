"""Hot-memory commands: `cortex hot read|set|snapshots|restore`; registered with the CLI.

  cortex hot read principal|da
  cortex hot set principal|da [--allow-drastic]        full desired list on stdin, one entry per line
  cortex hot snapshots [principal|da]
  cortex hot restore principal|da SNAPSHOT [--allow-drastic]   an explicit undo: naming the snapshot confirms it
(`cortex hot render`, the prompt hook, is its own plain-text command: cortex/commands/render.py.)
`set` is set-overwrite: what is omitted is forgotten. stdin is read with a byte bound,
must be UTF-8 without control characters, and passes the privacy boundary as a whole
(a private span may cross lines) before it is split into entries. A mistyped label
(`principle`) is invalid_input; a path to any other file is the writer's EINVAL_PATH.
"""
from __future__ import annotations

import os
import re
import sys

from cortex.core.corpusfiles import assert_canonical_text
from cortex.core.spelling import did_you_mean
from cortex.errors import IntegrityError, InvalidInput
from cortex.hot.hotinput import hot_text
from cortex.hot.hotmemory import check_markers, parse_memory_content, read_diagnostics
from cortex.write.hotwriter import read_prior, resolve_target, write_entries
from cortex.invocation import CommandSpec, Invocation
from cortex.rootshape import refuse_claude_folder
from cortex.layout import HOT_LABELS, OBSERVABILITY, SNAPSHOTS_DIR
from cortex.core.privacy import strip_private_content
from cortex.core.safepaths import pin_tree, real_subdir
from cortex.write.snapshots import RING, list_snapshots, read_snapshot
from cortex.write.writecontext import WriteContext

MAX_STDIN_BYTES = 262_144
MAX_STDIN_LINES = 1_024
_LINES = re.compile(r"\r?\n")


def _label(args: list[str], usage: str) -> str:
    if len(args) != 1 or args[0] not in HOT_LABELS:
        raise InvalidInput(usage)
    return args[0]


def _decode(data: bytes, where: str) -> str:
    """A hot file's or snapshot's bytes as text, private spans stripped (cortex.hot.hotinput)."""
    try:
        return hot_text(data, where)
    except UnicodeDecodeError:
        raise IntegrityError(f"{where} is not valid UTF-8") from None


def read_stdin_bounded(stream, limit: int) -> bytes:
    """At most `limit` bytes of stdin; a terminal is refused rather than waited on."""
    stream = stream if stream is not None else sys.stdin
    if stream is None:
        return b""
    if stream.isatty():
        raise InvalidInput("hot set reads the entry list from stdin; pipe it in (one entry per line)")
    binary = getattr(stream, "buffer", None)
    if binary is not None:
        data = binary.read(limit + 1)
    else:
        try:
            data = stream.read(limit + 1).encode("utf-8")
        except UnicodeEncodeError:
            raise InvalidInput("stdin is not valid UTF-8") from None
    if len(data) > limit:
        raise InvalidInput(f"stdin exceeds {limit} bytes")
    return data


def submitted_entries(data: bytes) -> list[str]:
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise InvalidInput("stdin is not valid UTF-8") from None
    lines = _LINES.split(strip_private_content(text))
    for number, line in enumerate(lines, start=1):
        try:
            assert_canonical_text(line, f"stdin line {number}")
        except IntegrityError:
            raise InvalidInput(f"stdin line {number} contains control characters or malformed Unicode") from None
    entries = [line for line in lines if line.strip()]
    if len(entries) > MAX_STDIN_LINES:
        raise InvalidInput(f"stdin has more than {MAX_STDIN_LINES} non-empty lines")
    return entries


def _read(inv: Invocation, args: list[str]) -> dict:
    label = _label(args, "hot read requires principal or da")
    ctx = WriteContext.from_invocation(inv)
    target = resolve_target(ctx, label)
    text = _decode(read_prior(target).raw, ctx.layout.display(target.path))
    markers = check_markers(text)
    return {
        "file": ctx.layout.display(target.path),
        "target": label,
        **read_diagnostics(text),
        "markers": {"begins": markers.begins, "ends": markers.ends, "inverted": markers.inverted, "ok": markers.ok},
    }


def _updated_by(inv: Invocation, verb: str) -> str:
    return f"cortex-{verb}:{inv.adapter}" if inv.adapter else f"cortex-{verb}"


def _set(inv: Invocation, args: list[str]) -> dict:
    if len(args) != 1:
        raise InvalidInput("hot set requires principal or da (the entries come on stdin)")
    if args[0] not in HOT_LABELS and "/" not in args[0] and os.sep not in args[0]:
        # A mistyped label is a usage error (exit 4); a path to any other file stays the writer's EINVAL_PATH refusal.
        hint = did_you_mean(args[0], HOT_LABELS)
        raise InvalidInput(f"hot set requires principal or da, not {args[0][:64]!r}{hint}")
    entries = submitted_entries(read_stdin_bounded(inv.stdin, MAX_STDIN_BYTES))
    ctx = WriteContext.from_invocation(inv)
    result = write_entries(ctx, args[0], entries, updated_by=_updated_by(inv, "hot-set"),
                           allow_drastic=inv.flag("--allow-drastic"))
    lost = result["dropped_malformed"] + result["dropped_overlength"]  # a duplicate loses nothing
    if lost:
        inv.notices.append(f"dropped {lost} of {len(entries)} submitted entries ({result['dropped_malformed']} "
                           f"malformed, {result['dropped_overlength']} overlength); they are not in the file: "
                           "see data.dropped for each entry and its reason")
    _note_unparsed(inv, result)
    return result


def _note_unparsed(inv: Invocation, result: dict) -> None:
    """Lines of the entry block that were not entries left the file with this write: say so (stdout is unchanged)."""
    if result["dropped_unparsed"]:
        inv.notices.append(f"dropped {result['dropped_unparsed']} line(s) of the file's entry block that were not "
                           "entries (data.dropped, reason unparsed; recorded in memory-writes.jsonl, and the "
                           f"snapshot {result['snapshot']} keeps them)")


def _snapshots(inv: Invocation, args: list[str]) -> dict:
    if len(args) > 1 or (args and args[0] not in HOT_LABELS):
        raise InvalidInput("hot snapshots accepts an optional principal or da")
    label = args[0] if args else None
    refuse_claude_folder(inv.requested_memory_root())
    memory = pin_tree(inv.requested_memory_root(), what="Memory root")
    parts = (OBSERVABILITY, SNAPSHOTS_DIR)
    found = []
    if os.path.lexists(os.path.join(memory, *parts)):
        found = list_snapshots(real_subdir(memory, parts, create=False), label)
    items = [snap.to_json() for snap in reversed(found)]  # newest first
    return {"items": items, "total": len(items), "ring": RING}


def _restore(inv: Invocation, args: list[str]) -> dict:
    if len(args) != 2 or args[0] not in HOT_LABELS:
        raise InvalidInput("hot restore requires principal or da and a snapshot name")
    label, name = args
    ctx = WriteContext.from_invocation(inv)
    parsed = parse_memory_content(_decode(read_snapshot(ctx.layout.memory_root, label, name), f"snapshot {name}"))
    # Naming the snapshot is the confirmation: a restore is an explicit undo, so the suspect
    # guards do not apply (the cap does); what it removes is in the result and on stderr.
    result = write_entries(ctx, label, list(parsed.entries), updated_by=_updated_by(inv, "restore"),
                           allow_drastic=inv.flag("--allow-drastic"), base=parsed, explicit_undo=True)
    if result["evictions"]:
        inv.notices.append(f"restored {name}: removed {len(result['evictions'])} entries, added "
                           f"{len(result['additions'])} (see data.evictions; undo with "
                           f"`cortex hot restore {label} {result['snapshot']}`)")
    _note_unparsed(inv, result)
    return {**result, "restored_from": name}


# The sub-verbs `cortex hot` takes (the privacy canary sweep checks it exercises each one).
SUBCOMMANDS = {"read": _read, "set": _set, "snapshots": _snapshots, "restore": _restore}


def hot(inv: Invocation) -> dict:
    sub = inv.positionals[0] if inv.positionals else None
    if sub not in SUBCOMMANDS:
        raise InvalidInput(f"hot requires one of: {', '.join(SUBCOMMANDS)}, render")
    if inv.flag("--allow-drastic") and sub not in ("set", "restore"):
        raise InvalidInput("--allow-drastic applies only to hot set and hot restore")
    return SUBCOMMANDS[sub](inv, inv.positionals[1:])


_VERBS = 44  # the column the sub-verbs' text starts at

COMMANDS = [CommandSpec(
    "hot", hot, flag_options=frozenset({"--allow-drastic"}), usage="cortex hot read|set|snapshots|restore|render ...",
    option_help=(("cortex hot read principal|da", "entries, counts, invalid entries with reasons", _VERBS),
                 ("cortex hot set principal|da [--allow-drastic]", ""),
                 ("", "    the full desired list on stdin, one entry per line; what is omitted is forgotten;"),
                 ("", "    entries start with NAME|ROLE|RELATION|PREFERENCE|RULE: (at most 256 characters after it)"),
                 ("cortex hot snapshots [principal|da]", "the snapshot ring, newest first", _VERBS),
                 ("cortex hot restore principal|da SNAPSHOT", "put a named snapshot back (an explicit undo)", _VERBS),
                 ("cortex hot render", "the <lifeos-memory> block for a prompt hook", _VERBS),
                 ("--allow-drastic", "let a set remove 2 or more entries net, or shrink a large file")),
    example="printf 'NAME: Ada ~explicit\\nPREFERENCE: green tea ~explicit\\n' | cortex hot set principal")]
