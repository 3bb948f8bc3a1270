"""Collect stage: reviewer items whose dispatch failed and that were kept but not replayed yet. Called through health.judge.checks.

The reviewer keeps them in O/reviewer-runs/<runId>/failed-items.json; `cortex review replay`
writes replayed.json beside them once all went through. That marker is derived (it records a
replay of those exact items), so it is believed only when it is a regular JSON file that names
as many items as are kept and, when it carries one, the SHA-256 of the failed-items.json it
replayed: a marker that is damaged, edited, moved from another run or root, or not a file
counts as absent. Only the newest MAX_RUNS run folders are looked at, and only the number of
kept items leaves this module, never their text.
"""
from __future__ import annotations

import os

from collectors.lifeos.layout import Layout
from cortex import layout as contract
from cortex.core.sha256 import sha256
from cortex.reviewrows import run_id_ms
from cortex.core.safeio import UnsafeFile, read_bounded
from collectors.evidence import EvidenceStatus, FileState
from cortex.core.hookjson import loads

RUNS_DIR = contract.REVIEWER_RUNS_DIR
FAILED_ITEMS = contract.FAILED_ITEMS_FILE
REPLAYED = contract.REPLAYED_FILE
MAX_RUNS = 50
MAX_FILE_BYTES = 4 << 20
MAX_MARKER_BYTES = 64 << 10


class KeptFailures:
    """run_id: str; items: int | None, None when the file cannot be read (it still counts: never green); codes:
    tuple[str, ...].
    """

    __slots__ = ("run_id", "items", "codes")

    def __init__(self, run_id, items, codes) -> None:
        self.run_id, self.items, self.codes = run_id, items, codes


class DispatchFailuresEvidence:
    """status: EvidenceStatus; folder: FileState; runs: tuple[KeptFailures, ...], newest first."""

    __slots__ = ("status", "folder", "runs")

    def __init__(self, status, folder, runs) -> None:
        self.status, self.folder, self.runs = status, folder, runs


def kept(path: str, run_id: str) -> tuple[KeptFailures, str | None]:
    """The kept items of one run, with the SHA-256 of the file that holds them (None when it cannot be read)."""
    try:
        raw = read_bounded(path, MAX_FILE_BYTES)
        entries = loads(raw)["items"]
        codes = sorted({str(entry.get("code"))[:40] for entry in entries if isinstance(entry, dict)})
        return KeptFailures(run_id, len(entries), tuple(codes)), sha256(raw).hexdigest()
    except (OSError, UnsafeFile, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return KeptFailures(run_id, None, ()), None


def replay_recorded(path: str, found: KeptFailures, digest: str | None) -> bool:
    """Whether the replayed.json at `path` records the replay of exactly these kept items."""
    if digest is None or not os.path.lexists(path):
        return False
    try:
        marker = loads(read_bounded(path, MAX_MARKER_BYTES))
    except (OSError, ValueError, RecursionError):
        return False
    if type(marker) is not dict or type(marker.get("replayed")) is not int or marker["replayed"] != found.items:
        return False
    return marker.get("items_sha256", digest) == digest  # markers written before the digest: the count binds them


def collect(layout: Layout) -> DispatchFailuresEvidence:
    folder = layout.evidence(RUNS_DIR)
    try:
        names = [name for name in os.listdir(folder) if run_id_ms(name) is not None]
    except FileNotFoundError:
        return DispatchFailuresEvidence(EvidenceStatus.MISSING, FileState(folder, EvidenceStatus.MISSING), ())
    except OSError as error:
        state = FileState(folder, EvidenceStatus.UNREADABLE, error.strerror or str(error))
        return DispatchFailuresEvidence(state.status, state, ())
    runs = []
    for name in sorted(names, reverse=True)[:MAX_RUNS]:
        path = os.path.join(folder, name, FAILED_ITEMS)
        if os.path.lexists(path):
            found, digest = kept(path, name)
            if not replay_recorded(os.path.join(folder, name, REPLAYED), found, digest):
                runs.append(found)
    return DispatchFailuresEvidence(EvidenceStatus.OK, FileState(folder, EvidenceStatus.OK), tuple(runs))
