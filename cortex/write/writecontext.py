"""Write path: the per-call context every governed writer receives; built by the write commands.

It carries the layout, the core clock (CORTEX_NOW or real time) and the lock wait budget,
and owns the two side channels every writer shares: evidence rows appended under
O = MEMORY/OBSERVABILITY, and `<file>.lock` acquisition with lock events logged to
O/memory-locks.jsonl. Every string in an evidence row passes the privacy boundary again.
"""
from __future__ import annotations

import os
import sys
from collections import namedtuple

from cortex.core.durable import append_line
from cortex.errors import CortexError
from cortex.core.jsjson import dumps
from cortex.layout import LOCKS_LOG, Layout, OBSERVABILITY
from cortex.liferows import LockEventRow
from cortex.write.locks import HeldLock, acquire
from cortex.core.safepaths import memory_dir
from cortex.core.timestamps import iso_from_ms

DEFAULT_LOCK_WAIT_MS = 10_000
MAX_LOCK_WAIT_MS = 600_000


def scrub(value):
    """Strip private spans from every string in a JSON-like value (defence in depth for logs)."""
    from cortex.core.privacy import strip_private_content  # here: a Stop hook that only counts a turn logs nothing

    if isinstance(value, str):
        return strip_private_content(value)
    if isinstance(value, dict):
        return {scrub(key): scrub(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [scrub(item) for item in value]
    return value


def lock_wait_from(environ) -> int:
    # an empty value counts as unset, as for every CORTEX_* variable
    raw = environ.get("CORTEX_LOCK_WAIT_MS") or None
    if raw is None:  # the usual case: no number to parse (the Stop hook imports no parser for it)
        return DEFAULT_LOCK_WAIT_MS
    from cortex.core.numbers import whole_setting

    return whole_setting("CORTEX_LOCK_WAIT_MS", raw, DEFAULT_LOCK_WAIT_MS, 0, MAX_LOCK_WAIT_MS)


class WriteContext(namedtuple("WriteContext", "layout now_ms lock_wait_ms", defaults=(DEFAULT_LOCK_WAIT_MS,))):
    """One write call's context. layout: Layout; now_ms: int; lock_wait_ms: int."""

    __slots__ = ()

    @classmethod
    def from_invocation(cls, inv) -> "WriteContext":
        from cortex.rootshape import refuse_claude_folder

        memory_root = inv.requested_memory_root()
        refuse_claude_folder(memory_root)
        return cls(Layout.from_memory_root(memory_root), inv.now_ms(), lock_wait_from(inv.environ))

    @property
    def now_iso(self) -> str:
        return iso_from_ms(self.now_ms)

    def record(self, log_name: str, row: dict) -> str | None:
        """Append {ts, **row} to O/log_name; a failure is returned as a warning, never raised.

        Rows are written after the outcome they describe, so a logging failure must not
        turn a committed write into a reported failure; it is surfaced instead.
        """
        try:
            directory = memory_dir(self.layout.memory_root, OBSERVABILITY)
            line = dumps(scrub({"ts": self.now_iso, **row}))
            append_line(os.path.join(directory, log_name), line.encode("utf-8"))
            return None
        except (OSError, CortexError) as error:
            message = f"evidence row not written to {log_name}: {error}"
            sys.stderr.write(f"cortex: warning: {message}\n")
            return message

    def lock(self, path: str) -> HeldLock:
        return acquire(path, on_event=self._lock_event, wait_ms=self.lock_wait_ms)

    def _lock_event(self, event: dict) -> None:
        row = LockEventRow(os.getpid(), event["event"], event["reason"], self.layout.display(event["lock"]), event["detail"])
        self.record(LOCKS_LOG, row.as_row())
