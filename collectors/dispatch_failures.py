"""Collect stage: reviewer items whose dispatch failed and that were kept but not replayed yet. Called through health.checks.

The reviewer keeps them in O/reviewer-runs/<runId>/failed-items.json; `cortex review replay`
writes replayed.json beside them once all went through. Only the newest MAX_RUNS run folders
are looked at, and only the number of kept items leaves this module, never their text.
"""
from __future__ import annotations

import json
import os
from collections import namedtuple

from collectors.layout import Layout
from cortex import layout as contract
from cortex.reviewrows import run_id_ms
from cortex.core.safeio import UnsafeFile, read_bounded
from collectors.evidence import EvidenceStatus, FileState

RUNS_DIR = contract.REVIEWER_RUNS_DIR
FAILED_ITEMS = contract.FAILED_ITEMS_FILE
REPLAYED = contract.REPLAYED_FILE
MAX_RUNS = 50
MAX_FILE_BYTES = 4 << 20


class KeptFailures(namedtuple("KeptFailures", "run_id items codes")):
    """run_id: str; items: int | None, None when the file cannot be read (it still counts: never green); codes:
    tuple[str, ...].
    """

    __slots__ = ()


class DispatchFailuresEvidence(namedtuple("DispatchFailuresEvidence", "status folder runs")):
    """status: EvidenceStatus; folder: FileState; runs: tuple[KeptFailures, ...], newest first."""

    __slots__ = ()


def kept(path: str, run_id: str) -> KeptFailures:
    try:
        data = json.loads(read_bounded(path, MAX_FILE_BYTES))
        entries = data["items"]
        codes = sorted({str(entry.get("code"))[:40] for entry in entries if isinstance(entry, dict)})
        return KeptFailures(run_id, len(entries), tuple(codes))
    except (OSError, UnsafeFile, ValueError, KeyError, TypeError, AttributeError):
        return KeptFailures(run_id, None, ())


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
        if os.path.lexists(path) and not os.path.lexists(os.path.join(folder, name, REPLAYED)):
            runs.append(kept(path, name))
    return DispatchFailuresEvidence(EvidenceStatus.OK, FileState(folder, EvidenceStatus.OK), tuple(runs))
