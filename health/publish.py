"""Publish stage: the memory-health.jsonl append and the atomic --report-path write. Called by health.run.

The auditor writes with the core's primitives, not its own: the line goes through
cortex.durable.append_line (one O_APPEND write of a whole line, fsync) while holding the
core's `<log>.lock` (cortex.locks: stamped, dead holders broken, waiting bounded), so
concurrent runs never interleave. The report path is written with cortex.durable.replace_file
(temp file in the same folder, fsync, rename, fsync the folder) after `report_path_problem`
has refused symlinks, directories, non-regular files, missing folders, anything inside the
memory tree M (canonical records, index, evidence logs) and the hot files or policy marker.
Every failure is returned as a reason, never raised.
"""
from __future__ import annotations

import os
import stat

from collectors.fsprobe import describe_os_error, escapes, file_kind
from collectors.layout import Layout
from cortex.durable import append_line as durable_append
from cortex.durable import replace_file
from cortex.errors import CortexError
from cortex.locks import acquire
from cortex.safepaths import is_within

LOCK_WAIT_MS = 5000


def report_path_problem(target: str, layout: Layout) -> str | None:
    """Why `target` must not receive the report, or None."""
    if not target:
        return "the report path is empty"
    path = os.path.abspath(os.path.expanduser(target))
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        info = None
    except OSError as error:
        return f"cannot inspect {path}: {describe_os_error(error)}"
    if info is not None and stat.S_ISLNK(info.st_mode):
        return f"{path} is a symlink"
    if info is not None and not stat.S_ISREG(info.st_mode):
        return f"{path} is a {file_kind(info.st_mode)}, not a regular file"
    folder = os.path.dirname(path)
    if not os.path.isdir(folder):
        return f"folder {folder} does not exist"
    resolved = os.path.join(os.path.realpath(folder), os.path.basename(path))
    if is_within(os.path.realpath(layout.memory), resolved) or is_within(layout.memory, path):
        return f"{path} is inside the memory tree {layout.memory} (canonical records, index and evidence)"
    protected = [p for _, p in layout.hot_files] + [layout.policy, layout.manifest]
    for item in protected:
        if resolved == os.path.realpath(item) or path == item:
            return f"{path} is a protected file ({item})"
    return None


def write_atomically(target: str, text: str) -> str | None:
    """Replace `target` with `text` (mode 0644, node_exporter reads it as another user); why not, or None."""
    path = os.path.abspath(os.path.expanduser(target))
    folder = os.path.dirname(path)
    if not os.path.isdir(folder):
        return f"cannot create a temporary file in {folder}: the folder does not exist"
    try:
        replace_file(path, text.encode("utf-8"), mode=0o644)
    except OSError as error:
        return f"cannot write {path}: {describe_os_error(error)}"
    return None


def _ignore_lock_event(_event: dict) -> None:
    """The health log's own lock events are not memory evidence; a contended lock is still reported."""


def append_line(layout: Layout, line: str, *, lock_wait_ms: int = LOCK_WAIT_MS) -> str | None:
    """Append `line` + newline to O/memory-health.jsonl; the reason it was not appended, or None."""
    log = layout.health_log
    folder = os.path.dirname(log)
    if not os.path.isdir(folder):
        return f"observability folder {folder} does not exist (the auditor does not create it)"
    escape = escapes(folder, layout.memory)
    if escape:
        return f"observability folder {escape}"
    try:
        lock = acquire(log + ".lock", on_event=_ignore_lock_event, wait_ms=lock_wait_ms)
    except (CortexError, OSError) as error:
        return f"cannot lock {log}: {error}"
    try:
        durable_append(log, line.rstrip("\n").encode("utf-8"), mode=0o644)  # as before: the log is not secret
    except OSError as error:
        return f"cannot append to {log}: {describe_os_error(error)}"
    finally:
        lock.release()
    return None
