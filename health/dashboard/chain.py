"""Dashboard stage: the history chain's state on the pages, judged by the audit's own check. Called by
health.dashboard.handler for each page.

The audit's collector (collectors.lifeos.health_history: the checkpoint, checked against the line it
points at, then only the lines after it) and its rule (health.judge.rules.health_history) judge the
chain, so the page says what a fresh audit would say. While the checkpoint matches its line
that costs the lines appended since it, whatever the size of the log. When the audit has to
read the whole log (no checkpoint, or one the log contradicts), its evidence is kept and
reused only while a fingerprint of the log and the checkpoint is unchanged: their identity,
size, mtime and ctime (which no user can set: restoring an mtime moves the ctime) and the
SHA-256 of the log's last 64 KiB; files changed less than two seconds ago are never
fingerprinted (a second edit in the same clock tick would keep every stamp). One
verification at a time.
"""
from __future__ import annotations

import hashlib
import os
import threading
import time
from typing import Any

from collectors.lifeos import health_history
from collectors.evidence import EvidenceStatus
from collectors.healthlog.chain import checkpoint_path
from collectors.lifeos.layout import Layout
from cortex.core.safeio import open_regular
from health.judge.rules import Context
from health.judge.rules.health_history import judge

NO_CONTEXT = Context(None, None)  # the chain rule reads neither thresholds nor the clock
TAIL_BYTES = 64 * 1024
SETTLED_NS = 2_000_000_000


def chain_state(evidence: health_history.HealthHistoryEvidence, finding_id: str) -> str:
    """The word the pages show (and the data-state attribute): the rule's verdict, told apart for the reader."""
    if finding_id == "health-history-tampered":
        return "tampered"
    if finding_id == "health-history-unchained":
        return "unchained" if evidence.status is EvidenceStatus.OK else "unverified"
    if evidence.status is EvidenceStatus.MISSING:
        return "empty"
    return "not chained yet" if evidence.head_seq is None else "intact"


def _stamp(path: str) -> tuple[int, ...] | str:
    try:
        info = os.lstat(path)
    except OSError as error:
        return type(error).__name__
    return info.st_dev, info.st_ino, info.st_mode, info.st_size, info.st_mtime_ns, info.st_ctime_ns


def _tail_digest(path: str) -> str:
    try:
        fd = open_regular(path)
    except OSError as error:
        return type(error).__name__
    try:
        size = os.fstat(fd).st_size
        return hashlib.sha256(os.pread(fd, TAIL_BYTES, max(0, size - TAIL_BYTES))).hexdigest()
    finally:
        os.close(fd)


def fingerprint(log: str, now_ns: int) -> tuple | None:
    """What any change to the log or its checkpoint changes; None while one of them changed too recently."""
    stamps = (_stamp(log), _stamp(checkpoint_path(log)))
    if any(isinstance(stamp, tuple) and now_ns - stamp[-1] < SETTLED_NS for stamp in stamps):
        return None  # racy: an edit within the same timestamp tick would leave the stamps as they are
    return stamps + (_tail_digest(log),)


class ChainStatus:
    """{state, text} of the health log's chain, as the audit judges it now (one verification at a time)."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self._lock = threading.Lock()
        self._key: tuple | None = None
        self._evidence: health_history.HealthHistoryEvidence | None = None

    def __call__(self) -> dict[str, Any]:
        with self._lock:  # concurrent pages never verify a long log side by side
            key = fingerprint(self.layout.health_log, time.time_ns())  # taken before reading: a change while
            if key is None or key != self._key or self._evidence is None:  # reading makes the next one differ
                self._evidence, self._key = health_history.collect(self.layout), key
            evidence = self._evidence
        finding = next(iter(judge(evidence, NO_CONTEXT)))
        return {"state": chain_state(evidence, finding.id), "text": finding.message}
