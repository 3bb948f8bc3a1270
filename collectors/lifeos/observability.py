"""Collect stage: observability volume, every *.jsonl and *.log under O (recursively).

Called through the check list (health.judge.checks). Measures bytes, file count and oldest/newest mtime
from lstat alone (no content is read). Symlinks are never followed; a symlinked or
non-regular log and an unreadable folder are counted and named, never silently skipped.
"""
from __future__ import annotations

import os
import stat

from collectors.readers.fsprobe import describe_os_error, escapes, file_kind
from collectors.lifeos.layout import Layout
from collectors.evidence import EvidenceStatus, FileState
from cortex.core.numbers import finite_number

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from typing import Any

    from collectors.metric import Limit, Metric

SUFFIXES = (".jsonl", ".log")
MAX_NAMED = 10


class ObservabilityEvidence:
    """status: EvidenceStatus; folder: FileState; files: int; bytes: int; oldest_mtime_ms: int | None; oldest_path: str
    | None; newest_mtime_ms: int | None; refused: tuple[str, ...], logs that are symlinks or not regular files
    (first MAX_NAMED); refused_total: int; unreadable_dirs: tuple[str, ...]; unreadable_dirs_total: int.
    """

    __slots__ = ("status", "folder", "files", "bytes", "oldest_mtime_ms", "oldest_path", "newest_mtime_ms", "refused",
                 "refused_total", "unreadable_dirs", "unreadable_dirs_total")

    def __init__(self, status, folder, files=0, bytes=0, oldest_mtime_ms=None, oldest_path=None, newest_mtime_ms=None,
                 refused=(), refused_total=0, unreadable_dirs=(), unreadable_dirs_total=0) -> None:
        self.status, self.folder, self.files, self.bytes = status, folder, files, bytes
        self.oldest_mtime_ms, self.oldest_path, self.newest_mtime_ms = oldest_mtime_ms, oldest_path, newest_mtime_ms
        self.refused, self.refused_total, self.unreadable_dirs = refused, refused_total, unreadable_dirs
        self.unreadable_dirs_total = unreadable_dirs_total


class _Tally:
    def __init__(self) -> None:
        self.files = self.bytes = self.refused_total = self.unreadable_total = 0
        self.oldest: tuple[int, str] | None = None
        self.newest: int | None = None
        self.refused: list[str] = []
        self.unreadable: list[str] = []

    def add_log(self, path: str, info: os.stat_result) -> None:
        mtime_ms = info.st_mtime_ns // 1_000_000
        self.files += 1
        self.bytes += info.st_size
        if self.oldest is None or mtime_ms < self.oldest[0]:
            self.oldest = (mtime_ms, path)
        self.newest = mtime_ms if self.newest is None else max(self.newest, mtime_ms)

    def refuse(self, path: str) -> None:
        self.refused_total += 1
        if len(self.refused) < MAX_NAMED:
            self.refused.append(path)

    def unreadable_dir(self, path: str, error: OSError) -> None:
        self.unreadable_total += 1
        if len(self.unreadable) < MAX_NAMED:
            self.unreadable.append(f"{path}: {describe_os_error(error)}")


def walk_logs(top: str, tally: _Tally) -> None:
    pending = [top]
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        pending.append(entry.path)
                    elif entry.name.endswith(SUFFIXES):
                        if entry.is_file(follow_symlinks=False):
                            tally.add_log(entry.path, entry.stat(follow_symlinks=False))
                        else:
                            tally.refuse(entry.path)
        except OSError as error:
            tally.unreadable_dir(folder, error)


def collect(layout: Layout) -> ObservabilityEvidence:
    top = layout.observability
    try:
        info = os.lstat(top)
    except FileNotFoundError:
        return ObservabilityEvidence(EvidenceStatus.MISSING, FileState(top, EvidenceStatus.MISSING))
    except OSError as error:
        state = FileState(top, EvidenceStatus.UNREADABLE, describe_os_error(error))
        return ObservabilityEvidence(state.status, state)
    if not stat.S_ISDIR(info.st_mode):
        state = FileState(top, EvidenceStatus.UNREADABLE, f"not a directory ({file_kind(info.st_mode)})")
        return ObservabilityEvidence(state.status, state)
    escape = escapes(top, layout.memory)
    if escape:
        state = FileState(top, EvidenceStatus.UNREADABLE, escape)
        return ObservabilityEvidence(state.status, state)
    tally = _Tally()
    walk_logs(top, tally)
    return ObservabilityEvidence(
        EvidenceStatus.OK, FileState(top, EvidenceStatus.OK), tally.files, tally.bytes,
        tally.oldest[0] if tally.oldest else None, tally.oldest[1] if tally.oldest else None, tally.newest,
        tuple(tally.refused), tally.refused_total, tuple(tally.unreadable), tally.unreadable_total,
    )


# What this evidence gives a monitoring system (collectors.metric_table lists this function).
def metrics(evidence: Mapping[str, Any], now_ms: int | None, limit: Limit) -> Iterator[Metric]:
    """The oldest log's age, the total size and the file count of a measured folder, against their thresholds."""
    from collectors.metric import Metric, seconds  # only a monitoring format asks (not JSON, not text)

    if evidence.get("status") != "ok":
        return
    oldest = evidence.get("oldest_mtime_ms")
    if now_ms is not None and finite_number(oldest):
        yield Metric("observability_oldest_age_seconds",
                     "Age of the oldest observability log (by mtime, future mtimes count as 0), in seconds.",
                     seconds(max(0, now_ms - oldest)), "seconds", warn=limit("observability_max_age_ms", 1000))
    if finite_number(evidence.get("bytes")):
        yield Metric("observability_bytes", "Total size of the *.jsonl and *.log files under OBSERVABILITY.",
                     evidence["bytes"], "bytes", warn=limit("observability_max_bytes"))
        yield Metric("observability_files", "Number of *.jsonl and *.log files under OBSERVABILITY.",
                     evidence.get("files", 0), "count")
