"""Collect stage: an exporter's log cursors, staged until delivery. Used by reports.otlp.live for collectors.lifeos.memory_operations.

The audit's cursors (collectors.readers.cursors) move on as soon as a log is read; an exporter's
must move only once what was read has been delivered, or a failed POST would lose those
rows, and a second export running at the same time must not send them too. So each export
reads and writes its cursors in a private copy (scan_log itself verifies every cursor
against its log, as for the audit), and commit() renames the copies over the delivered
ones: a rename each, so a crash leaves either position, never a torn one. The folder is
locked (flock, released by closing) from the copy to the commit.
"""
from __future__ import annotations

import os

from collectors.readers.jsonl import MAX_LINE_BYTES
from collectors.readers.memos import MAX_CURSOR_BYTES, cursor_path
from collectors.lifeos.memory_operations import SOURCES, Operations


class Staging:
    """Cursors read from a private copy and committed only when told; `folder` holds the delivered positions.

    `path` is where scan_log reads and writes this export's cursors (a fresh 0700 folder inside
    `folder`, seeded with the delivered cursors); commit() moves them over the delivered ones
    (one rename each), discard() forgets them. The folder is locked (flock) from start to
    commit, so two exports of one tree never send the same rows. `problem` says why there is
    no cursor at all (no private folder, another export running): then nothing may be sent
    as new, for it would be sent again next time.
    """

    def __init__(self, folder: str | None, observability: str, destination: str) -> None:
        self.folder, self.observability, self.destination = folder, observability, destination
        self.path: str | None = None
        self.problem: str | None = None
        self._lock: int | None = None
        if folder is None:
            self.problem = "no private cursor folder (CORTEX_CACHE is off, or no home to keep it in)"
            return
        import fcntl
        import tempfile

        try:
            self._lock = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            self.path = tempfile.mkdtemp(prefix=".staging-", dir=folder)
        except OSError as error:
            busy = isinstance(error, BlockingIOError)
            self.problem = "another export of this tree is running" if busy else f"cursor folder unusable: {error}"
            self.discard()
            return
        for log in SOURCES:
            self._copy(os.path.basename(self.cursor(log)))

    def cursor(self, log: str) -> str:
        """The delivered cursor of `log` for this destination (named as scan_log names it)."""
        key = Operations(log, self.destination, 0).key
        return cursor_path(self.folder, os.path.join(self.observability, log), key, MAX_LINE_BYTES)

    def _copy(self, name: str) -> None:
        from cortex.core.cachedir import FILE_MODE
        from cortex.core.durable import replace_file
        from cortex.core.safeio import UnsafeFile, read_bounded

        try:
            data = read_bounded(os.path.join(self.folder, name), MAX_CURSOR_BYTES)
            replace_file(os.path.join(self.path, name), data, mode=FILE_MODE, sync=False)  # derived, like save_cursor
        except (OSError, UnsafeFile, ValueError):
            pass  # no delivered cursor (or an unusable one): this export reads the log in full

    def commit(self) -> None:
        """The staged positions become the delivered ones (a failed rename keeps the old: sent again, never lost)."""
        if self.path is not None:
            for name in os.listdir(self.path):
                try:
                    os.replace(os.path.join(self.path, name), os.path.join(self.folder, name))
                except OSError:
                    pass
        self.discard()

    def discard(self) -> None:
        if self.path is not None:
            import shutil

            shutil.rmtree(self.path, ignore_errors=True)
            self.path = None
        if self._lock is not None:
            os.close(self._lock)  # closing releases the flock
            self._lock = None
