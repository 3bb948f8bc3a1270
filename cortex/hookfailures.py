"""Hook evidence: one O/hook-failures.jsonl row for a hook run that could not do its job; imported by the hooks only when they fail.

`cortex hot render`, `cortex recall`, `cortex review fire` (through cortex.cli) and
`cortex-health gate` (health.gate) exit as they always did (a hook never blocks the agent) and,
besides their line on stderr, append one row shaped by cortex.hookrows: what failed, its error
code, a short privacy-stripped reason and the file, line and field at fault when the error knows
them (cortex.errors.CortexError.at). The auditor compares each hook's newest failure with its
newest heartbeat (collectors.lifeos.hook_failures).

The append is the evidence logs' own: cortex.core.durable.append_line (one O_APPEND write of a
whole line, fsync) under the log's `<log>.lock` (cortex.write.locks, waiting at most
LOCK_WAIT_MS: a hook must stay fast). The log is bounded: past MAX_LOG_BYTES it is rewritten,
under the same lock and atomically, to its newest complete rows (about KEEP_BYTES), so a hook
failing on every prompt for months costs a fixed amount of disk. Nothing here raises: a row that
cannot be written is returned as a reason for the caller's stderr line.
"""
from __future__ import annotations

import os

from cortex.core.durable import append_line, replace_file
from cortex.core.jsjson import dumps
from cortex.core.privacy import strip_private_content
from cortex.core.safeio import tail_lines
from cortex.core.safepaths import FILE_MODE, memory_dir
from cortex.core.timestamps import iso_from_ms, now_ms as clock_ms
from cortex.errors import CortexError
from cortex.hookrows import MAX_NAME_CHARS, MAX_PATH_CHARS, MAX_REASON_CHARS, clipped, hook_failure_row
from cortex.layout import HOOK_FAILURES_LOG, OBSERVABILITY, Layout

LOCK_WAIT_MS = 250
MAX_LOG_BYTES = 256 * 1024
KEEP_BYTES = 64 * 1024
MAX_KEPT_ROWS = 1000


def describe(error: BaseException) -> tuple[str, str]:
    """(code, message) of what stopped a hook: a CortexError's own, anything else is internal_error."""
    if isinstance(error, CortexError):
        return error.code, error.message
    return "internal_error", f"{type(error).__name__}: {error}"


def _shown(text: object, limit: int) -> str | None:
    if not isinstance(text, str) or not text.strip():
        return None
    return clipped(strip_private_content(text), limit) or None


def _file(layout: Layout, file: object) -> str | None:
    """The file at fault relative to ROOT (paths relative to the memory root are joined onto it first)."""
    if not isinstance(file, str) or not file:
        return None
    path = file if os.path.isabs(file) else os.path.join(layout.memory_root, file)
    return _shown(layout.display(path), MAX_PATH_CHARS)


def failure_row(layout: Layout, hook: str, code: str, message: str, at_ms: int,
                fault: BaseException | None = None) -> dict:
    """The row for one failed run of `hook`; `fault` (a CortexError) says where the failure sits."""
    line = getattr(fault, "line", None)
    return hook_failure_row(
        iso_from_ms(at_ms), hook, clipped(code, 64) or "internal_error",
        _shown(message, MAX_REASON_CHARS) or "no reason given", _file(layout, getattr(fault, "file", None)),
        line if type(line) is int and line >= 1 else None, _shown(getattr(fault, "field", None), MAX_NAME_CHARS),
        _shown(getattr(fault, "rule", None), MAX_NAME_CHARS))


def _ignore_lock_event(_event: dict) -> None:
    """The failure log's own lock events are not memory evidence."""


def _bounded(log: str) -> None:
    """Keep the newest rows of an over-long log (atomically; called under its lock)."""
    if os.lstat(log).st_size <= MAX_LOG_BYTES:
        return
    kept = tail_lines(log, MAX_KEPT_ROWS, max_bytes=KEEP_BYTES)
    replace_file(log, b"".join(line + b"\n" for line in kept), mode=FILE_MODE)


def record_hook_failure(memory_root: str, hook: str, error: BaseException, *, code: str | None = None,
                        message: str | None = None, now_ms: int | None = None) -> str | None:
    """Append one row for `hook` failing with `error` (`code`/`message` override its own); why not, or None."""
    from cortex.write.locks import acquire

    try:
        layout = Layout.from_memory_root(memory_root)
        own_code, own_message = describe(error)
        at_ms = now_ms if now_ms is not None else clock_ms()
        row = failure_row(layout, hook, code or own_code, message or own_message, at_ms, error)
        log = os.path.join(memory_dir(layout.memory_root, OBSERVABILITY), HOOK_FAILURES_LOG)
        lock = acquire(log + ".lock", on_event=_ignore_lock_event, wait_ms=LOCK_WAIT_MS)
        try:
            append_line(log, dumps(row).encode("utf-8"))
            _bounded(log)
        finally:
            lock.release()
    except (CortexError, OSError, ValueError) as failure:
        _code, said = describe(failure)
        return clipped(f"failure not recorded in {HOOK_FAILURES_LOG}: {said}", 300)
    return None


def record_for_invocation(inv, hook: str, error: BaseException, *, code: str | None = None,
                          message: str | None = None) -> str | None:
    """record_hook_failure for a `cortex` hook command's call (cortex.invocation.Invocation): its memory root and
    its clock (CORTEX_NOW, else real time; the real time when CORTEX_NOW itself is what failed)."""
    try:
        memory_root = inv.requested_memory_root()
    except CortexError as failure:
        return clipped(f"failure not recorded in {HOOK_FAILURES_LOG}: {failure.message}", 300)
    try:
        at_ms = inv.now_ms()
    except CortexError:
        at_ms = None
    return record_hook_failure(memory_root, hook, error, code=code, message=message, now_ms=at_ms)
