"""Collect stage helper: what the agent actually did, the user turns in its transcripts. Used by collectors.lifeos.heartbeats.

The transcript folder is `transcript_dir` of LIFEOS/USER/CONFIG/memory-review.json when set,
else ROOT/projects (ROOT is the agent's config folder). The scan is bounded: the newest
MAX_FILES *.jsonl files (by mtime, in the folder and one level below, the reviewer's own
project folders skipped), the last TAIL_BYTES of each. Only the timestamps of user turns
leave this module, never their text, so no transcript text reaches evidence or output.
"""
from __future__ import annotations

import os

from collectors.readers.fsprobe import describe_os_error
from cortex.core.safeio import UnsafeFile, tail_lines
from cortex.core.timestamps import parse_timestamp_ms
from cortex.review.transcript import transcript_files
from cortex.review.transcript import transcript_folder as shared_folder
from collectors.evidence import EvidenceStatus, FileState
from cortex.core.hookjson import loads

MAX_FILES = 10
MAX_ENTRIES = 20_000  # directory entries looked at
TAIL_BYTES = 4 << 20
MAX_TURNS = 200  # newest user-turn timestamps kept (evidence goes into every health-log line)


class AgentActivity:
    """folder: FileState; files_scanned: int; turns_ms: tuple[int, ...], user turns, newest first; newest_file: str |
    None.
    """

    __slots__ = ("folder", "files_scanned", "turns_ms", "newest_file")

    def __init__(self, folder, files_scanned=0, turns_ms=(), newest_file=None) -> None:
        self.folder, self.files_scanned, self.turns_ms, self.newest_file = folder, files_scanned, turns_ms, newest_file


def transcript_folder(root: str, config: dict, environ) -> str:
    chosen = config.get("transcript_dir")
    return shared_folder(root, chosen if isinstance(chosen, str) else None, environ)  # the reviewer's own locator


def newest_transcripts(folder: str) -> list[str]:
    found = transcript_files(folder, MAX_ENTRIES, strict=False)  # the reviewer's own scan, bounded here
    return [path for _, path in sorted(found, reverse=True)[:MAX_FILES]]


def user_turn_ms(line: bytes) -> int | None:
    """The time of a main-session user turn that carries text (tool results and sidechains are not turns)."""
    if b'"user"' not in line:
        return None
    try:
        entry = loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(entry, dict) or entry.get("type") != "user" or entry.get("isSidechain") is True \
            or entry.get("isMeta") is True:
        return None
    message = entry.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    has_text = (isinstance(content, str) and content.strip()) or (isinstance(content, list) and any(
        isinstance(block, dict) and block.get("type") == "text" for block in content))
    return parse_timestamp_ms(entry.get("timestamp")) if has_text else None


def collect_activity(root: str, config: dict, environ) -> AgentActivity:
    """`config` is the reviewer's memory-review.json (collectors.lifeos.layout.Layout.review_config)."""
    folder = transcript_folder(root, config, environ)
    if not os.path.isdir(folder):
        status = EvidenceStatus.MISSING if not os.path.lexists(folder) else EvidenceStatus.UNREADABLE
        return AgentActivity(FileState(folder, status, None if status is EvidenceStatus.MISSING else "not a directory"))
    try:
        os.listdir(folder)
    except OSError as error:
        return AgentActivity(FileState(folder, EvidenceStatus.UNREADABLE, describe_os_error(error)))
    turns: list[int] = []
    files = newest_transcripts(folder)
    for path in files:
        try:  # every whole line of the last TAIL_BYTES
            lines = tail_lines(path, TAIL_BYTES, max_bytes=TAIL_BYTES)
        except (OSError, UnsafeFile):
            continue  # a transcript that vanished or turned odd: the others still count
        turns.extend(ms for ms in map(user_turn_ms, lines) if ms is not None)
    turns.sort(reverse=True)
    return AgentActivity(FileState(folder, EvidenceStatus.OK), len(files), tuple(turns[:MAX_TURNS]),
                         files[0] if files else None)
