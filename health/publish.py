"""Publish stage: the memory-health.jsonl append and the file copies (--report-path, the Prometheus
textfile). Called by health.run on a normal run and by health.cli when the auditor cannot run.

The auditor writes with the core's primitives, not its own: the line goes through
cortex.core.durable.append_line (one O_APPEND write of a whole line, fsync) while holding the
core's `<log>.lock` (cortex.write.locks: stamped, dead holders broken, waiting bounded), so
concurrent runs never interleave. Under the same lock the line gets its hash-chain link and
the checkpoint is rewritten atomically after it (collectors.healthlog.append). Every copy goes through `write_copy`, the one writer:
`destination_problem` refuses symlinks, directories, non-regular files, missing folders,
anything inside a LIFEOS/ tree (the root's, reached by any alias, or any other: memory, hot
files, reviewer config, locks) and the index manifest; then the copy is written with
cortex.core.durable.replace_file (temp file in the same folder, fsync, rename, fsync the folder),
the target re-checked just before the rename so a symlink planted meanwhile is not replaced.
Every failure is returned as a reason, never raised.
"""
from __future__ import annotations

import os
import stat
from collections.abc import Callable

from collectors.readers.fsprobe import describe_os_error, escapes, file_kind
from collectors.lifeos.layout import Layout
from cortex.core.durable import append_line as durable_append
from cortex.core.durable import replace_file
from cortex.errors import CortexError
from cortex.write.locks import acquire
from cortex.core.safepaths import is_within
from cortex.layout import LIFEOS
from collectors.healthlog.chain import checkpoint_path
from collectors.healthlog.append import prepare

LOCK_WAIT_MS = 5000


LIFEOS_NAME = LIFEOS  # the fixed top folder of every LifeOS tree (ROOT/LIFEOS)


def destination_problem(target: str, layout: Layout) -> str | None:
    """Why `target` must not receive a copy of the report (JSON or Prometheus text), or None."""
    if not target:
        return "the path is empty"
    path = os.path.abspath(os.path.expanduser(target))
    problem = _not_a_plain_file(path)
    if problem:
        return problem
    folder = os.path.dirname(path)
    if not os.path.isdir(folder):
        return f"folder {folder} does not exist"
    resolved = os.path.join(os.path.realpath(folder), os.path.basename(path))
    lifeos = os.path.join(layout.root, LIFEOS_NAME)
    for anchor in (os.path.realpath(lifeos), lifeos, os.path.realpath(layout.memory), layout.memory):
        if is_within(anchor, resolved) or is_within(anchor, path):
            return (f"{path} is inside the LifeOS tree {lifeos} (memory, hot files, reviewer config and locks "
                    f"live there)")
    if LIFEOS_NAME in resolved.split(os.sep)[:-1] or LIFEOS_NAME in path.split(os.sep)[:-1]:
        return f"{path} is inside a {LIFEOS_NAME} folder (another LifeOS tree's memory, hot files and locks)"
    if resolved == os.path.realpath(layout.manifest) or path == layout.manifest:
        return f"{path} is a protected file (the index manifest {layout.manifest})"
    return None


def _not_a_plain_file(path: str) -> str | None:
    """A symlink, directory or special file at `path` is never replaced; absent is fine."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        return f"cannot inspect {path}: {describe_os_error(error)}"
    if stat.S_ISLNK(info.st_mode):
        return f"{path} is a symlink"
    if not stat.S_ISREG(info.st_mode):
        return f"{path} is a {file_kind(info.st_mode)}, not a regular file"
    return None


def write_copy(target: str, layout: Layout, text_of: Callable[[], str]) -> tuple[str | None, str | None]:
    """The one writer of copies: (why `target` was refused, why the write failed), both None when written."""
    problem = destination_problem(target, layout)
    if problem:
        return problem, None
    return None, write_atomically(target, text_of())


class _Swapped(Exception):
    """The target became a symlink or special file while the copy was being written."""


def write_atomically(target: str, text: str) -> str | None:
    """Replace `target` with `text` (mode 0644, node_exporter reads it as another user); why not, or None."""
    path = os.path.abspath(os.path.expanduser(target))
    folder = os.path.dirname(path)
    if not os.path.isdir(folder):
        return f"cannot create a temporary file in {folder}: the folder does not exist"

    def still_plain() -> None:  # planted since the check: leave it, write nothing
        swapped = _not_a_plain_file(path)
        if swapped:
            raise _Swapped(swapped)

    try:
        replace_file(path, text.encode("utf-8"), mode=0o644, before_rename=still_plain)
    except _Swapped as swapped:
        return f"{swapped} (appeared while writing; nothing was replaced)"
    except OSError as error:
        return f"cannot write {path}: {describe_os_error(error)}"
    return None


def _ignore_lock_event(_event: dict) -> None:
    """The health log's own lock events are not memory evidence; a contended lock is still reported."""


LOG_FOLDER_MODE = 0o700  # the health log names memory files and findings: private to its owner


def _create_log_folder(folder: str) -> str | None:
    """Create the auditor's own log folder (one level: never a missing parent); why not, or None."""
    try:
        os.mkdir(folder, LOG_FOLDER_MODE)  # mkdir never follows a link planted at `folder`
    except FileExistsError:
        return None  # created meanwhile, or a file or link there: the checks below name it
    except OSError as error:
        return f"log folder {folder} does not exist and cannot be created: {describe_os_error(error)}"
    return None


def append_line(layout: Layout, line: str, *, lock_wait_ms: int = LOCK_WAIT_MS) -> str | None:
    """Append `line` + newline to O/memory-health.jsonl; the reason it was not appended, or None."""
    log = layout.health_log
    folder = os.path.dirname(log)
    own_folder = getattr(layout, "creates_log_folder", False)  # Dense Context's BASE/logs; LifeOS's O/ is the memory's
    if own_folder and not os.path.isdir(folder):
        failure = _create_log_folder(folder)
        if failure:
            return failure
    if not os.path.isdir(folder):
        return f"observability folder {folder} does not exist (the auditor does not create it)"
    escape = escapes(folder, getattr(layout, "log_anchor", layout.memory))  # Dense Context: the log sits beside context/
    if escape:
        return f"observability folder {escape}"
    try:
        lock = acquire(log + ".lock", on_event=_ignore_lock_event, wait_ms=lock_wait_ms)
    except (CortexError, OSError) as error:
        return f"cannot lock {log}: {error}"
    try:
        prepared = prepare(log, line)  # the chain link and the next checkpoint, decided under the lock
        # durable_append adds the torn-line prefix (the same last-byte test) and the newline itself
        durable_append(log, prepared.line, mode=0o644)  # the log is not secret
        if prepared.checkpoint is not None:
            failure = write_atomically(checkpoint_path(log), prepared.checkpoint.text())
            if failure:
                return f"the line was appended but the checkpoint was not rewritten: {failure}"
    except OSError as error:
        return f"cannot append to {log}: {describe_os_error(error)}"
    except ValueError as error:  # not a JSON object line: nothing was written
        return f"cannot chain the line for {log}: {error}"
    finally:
        lock.release()
    return None
