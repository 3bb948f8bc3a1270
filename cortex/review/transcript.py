"""Reviewer stage: find a Claude Code session transcript and keep its last N exchanges; used by the reviewer.

A transcript is JSONL; entries of type "user" / "assistant" carry message.content as a
string or a list of blocks. Only "text" blocks count (tool_use, tool_result, image and
thinking blocks are dropped), as do sidechain (subagent) and meta entries. An exchange is
one user text and the assistant text that follows it, up to the next user text; an
exchange without an assistant reply is not kept. The file is streamed line by line and
only the last N exchanges are held, so a huge transcript costs time, never memory. Every
text passes the privacy boundary before anything else sees it, then is cut to 2,000
characters. The texts are stripped in transcript order as one stream: a span opened in one
message and closed in a later one hides everything between, whichever messages are kept.
"""
from __future__ import annotations

import os
import stat
from _collections import deque  # collections.deque itself, without importing collections (~7M instructions)

from cortex.errors import InvalidInput
from cortex.core.privacy import PrivateStream
from cortex.core.safeio import UnsafeFile, iter_lines
from cortex.core.hookjson import loads

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Iterator

DEFAULT_TURNS = 20
MAX_TURNS = 200
MAX_MESSAGE_CHARS = 2_000
MAX_RAW_MESSAGE_CHARS = 262_144  # text gathered for one message before stripping and cutting
MAX_LINE_BYTES = 4 * 1024 * 1024  # a longer line (a pasted image, say) is skipped, never loaded whole
MAX_SCANNED_ENTRIES = 100_000  # directory entries looked at while searching for the newest transcript
# The reviewer runs its inference command inside O/reviewer-runs/<runId>/; a `claude -p` there
# keeps its own transcript in a project folder named after that path. Never review those.
REVIEWER_PROJECT_MARK = "-OBSERVABILITY-reviewer-runs-"


class TranscriptError(InvalidInput):
    """The transcript cannot be read (missing, not a regular file, a symlink)."""


class Exchange:
    """user: str; assistant: str."""

    __slots__ = ("user", "assistant")

    def __init__(self, user, assistant) -> None:
        self.user, self.assistant = user, assistant


def transcript_folder(root: str, configured: str | None, environ) -> str:
    """Where the agent's transcripts are: `transcript_dir` when configured (`~/` expanded), else ROOT/projects.

    ROOT is the agent's config folder holding LIFEOS/ (the one locator of the reviewer and the auditor).
    """
    if configured:
        home = environ.get("HOME") or os.path.expanduser("~")
        return os.path.abspath(os.path.join(home, configured[2:]) if configured.startswith("~/") else configured)
    return os.path.join(os.path.abspath(root), "projects")


def transcript_files(directory: str, max_entries: int, *, strict: bool = True) -> Iterator[tuple[int, str]]:
    """(mtime_ns, path) of each *.jsonl in `directory` or one folder below it, looking at `max_entries` entries at most.

    Symlinks, dot files and the reviewer's own project folders are skipped. A folder that cannot
    be listed raises TranscriptError when `strict` (the reviewer), else is passed over (the auditor).
    """
    seen = 0
    pending = [(directory, 0)]
    while pending:
        folder, depth = pending.pop()
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    seen += 1
                    if seen > max_entries:
                        return
                    if entry.is_symlink() or entry.name.startswith("."):
                        continue
                    if entry.is_dir(follow_symlinks=False):
                        if depth == 0 and REVIEWER_PROJECT_MARK not in entry.name:
                            pending.append((entry.path, 1))
                    elif entry.name.endswith(".jsonl") and entry.is_file(follow_symlinks=False):
                        yield entry.stat(follow_symlinks=False).st_mtime_ns, entry.path
        except (FileNotFoundError, NotADirectoryError):
            continue
        except PermissionError as error:
            if strict:
                raise TranscriptError(f"cannot list transcripts in {folder}: {error.strerror}") from None


def newest_transcript(directory: str) -> str | None:
    """The most recently modified *.jsonl in `directory` or one folder below it (symlinks skipped)."""
    best = max(transcript_files(directory, MAX_SCANNED_ENTRIES), default=None)
    return best[1] if best else None


def _texts(content) -> list[str]:
    if isinstance(content, str):
        return [content]
    if not isinstance(content, list):
        return []
    return [block["text"] for block in content
            if isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str)]


def _entry(raw: bytes) -> tuple[str, str] | None:
    """(role, text) of a user/assistant entry with text, else None."""
    try:
        entry = loads(raw)
    except (ValueError, RecursionError):
        return None  # a torn or foreign line does not stop the review
    if not isinstance(entry, dict) or entry.get("type") not in ("user", "assistant"):
        return None
    if entry.get("isSidechain") is True or entry.get("isMeta") is True:
        return None
    message = entry.get("message")
    if not isinstance(message, dict):
        return None
    text = "\n".join(part for part in _texts(message.get("content")) if part.strip())
    return (entry["type"], text[:MAX_RAW_MESSAGE_CHARS]) if text.strip() else None


def _clean(text: str) -> str:
    return text.strip()[:MAX_MESSAGE_CHARS]


class _Exchanges:
    def __init__(self, turns: int):
        self.kept: deque[Exchange] = deque(maxlen=turns)
        self.user: str | None = None
        self.assistant: list[str] = []
        self.assistant_chars = 0
        self.privacy = PrivateStream()

    def close(self) -> None:
        if self.user is not None:
            user, reply = _clean(self.user), _clean("\n".join(self.assistant))
            if user and reply:
                self.kept.append(Exchange(user, reply))
        self.user, self.assistant, self.assistant_chars = None, [], 0

    def add(self, role: str, text: str) -> None:
        text = self.privacy.strip(text)  # every text, kept or not: it may open or close a span
        if role == "user":
            self.close()
            self.user = text
        elif self.user is not None and self.assistant_chars < MAX_RAW_MESSAGE_CHARS:
            self.assistant.append(text)
            self.assistant_chars += len(text)


def check_transcript(path: str) -> str:
    """The absolute path of a readable regular transcript file; TranscriptError otherwise."""
    absolute = os.path.abspath(path)
    try:
        info = os.lstat(absolute)
    except OSError as error:
        raise TranscriptError(f"transcript not readable: {absolute} ({error.strerror})") from None
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISREG(info.st_mode):
        raise TranscriptError(f"transcript is not a regular file: {absolute}")
    return absolute


def recent_exchanges(path: str, turns: int = DEFAULT_TURNS) -> list[Exchange]:
    """The last `turns` complete user→assistant exchanges of the transcript at `path`."""
    exchanges = _Exchanges(turns)
    try:
        for _number, raw in iter_lines(path, MAX_LINE_BYTES):
            if raw is None or not raw.strip():
                continue
            parsed = _entry(raw)
            if parsed is not None:
                exchanges.add(*parsed)
    except (UnsafeFile, OSError) as error:
        raise TranscriptError(f"transcript not readable: {path} ({error})") from None
    exchanges.close()
    return list(exchanges.kept)
