"""Publish stage: the memory-health.jsonl append and the atomic --report-path write. Called by health.run.

The append is one os.write of the whole line on an O_APPEND descriptor, made while holding
an exclusive flock on `<log>.lock`, so concurrent runs never interleave; waiting for the
lock is bounded. The report path is written atomically (temp file in the same folder,
fsync, rename) after `report_path_problem` has refused symlinks, directories, non-regular
files, missing folders, anything inside the memory tree M (canonical records, index,
evidence logs) and the hot files or policy marker. Every failure is returned as a reason,
never raised.
"""
from __future__ import annotations

import fcntl
import os
import stat
import tempfile
import time

from collectors.fsprobe import describe_os_error, escapes, file_kind
from collectors.layout import Layout
from cortex.safepaths import is_within

LOCK_TIMEOUT_S = 5.0
_WRITE_FLAGS = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


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
    path = os.path.abspath(os.path.expanduser(target))
    folder, name = os.path.split(path)
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        return f"cannot create a temporary file in {folder}: {describe_os_error(error)}"
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, 0o644)
        os.replace(temp, path)
        _fsync_folder(folder)
    except OSError as error:
        try:
            os.unlink(temp)
        except OSError:
            pass
        return f"cannot write {path}: {describe_os_error(error)}"
    return None


def _fsync_folder(folder: str) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _locked(lock_path: str, timeout_s: float) -> int:
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o644)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"lock file {lock_path} is not a regular file")
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return fd
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise OSError(f"lock {lock_path} still held after {timeout_s:g} s") from None
                time.sleep(0.01)
    except BaseException:
        os.close(fd)
        raise


def append_line(layout: Layout, line: str, *, lock_timeout_s: float = LOCK_TIMEOUT_S) -> str | None:
    """Append `line` + newline to O/memory-health.jsonl; the reason it was not appended, or None."""
    log = layout.health_log
    folder = os.path.dirname(log)
    if not os.path.isdir(folder):
        return f"observability folder {folder} does not exist (the auditor does not create it)"
    escape = escapes(folder, getattr(layout, "log_anchor", layout.memory))  # Dense Context: the log sits beside context/
    if escape:
        return f"observability folder {escape}"
    data = (line.rstrip("\n") + "\n").encode("utf-8")
    try:
        lock = _locked(log + ".lock", lock_timeout_s)
    except OSError as error:
        return f"cannot lock {log}: {error}"
    try:
        fd = os.open(log, _WRITE_FLAGS, 0o644)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return f"{log} is not a regular file"
            written = os.write(fd, data)
            if written != len(data):
                os.write(fd, b"\n")  # end the torn line so the next run's line stays parseable
                return f"short write to {log} ({written} of {len(data)} bytes)"
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as error:
        return f"cannot append to {log}: {describe_os_error(error)}"
    finally:
        fcntl.flock(lock, fcntl.LOCK_UN)
        os.close(lock)
    return None
