"""Write path: the pure refusal rules of the hot-memory writer (cap, shrink, erosion); used by cortex.write.hotwriter.

Pure functions of counts and deltas, so they are property-tested directly:
- EAT_CAP: more than 48 accepted, de-duplicated entries; nothing is written.
- ESUSPECT_SHRINK (reference rule, only when the file held ≥ 10 entries): fewer than 3
  entries would remain, or more than half would be removed with no addition.
- ESUSPECT_EROSION: a net removal of 2 or more entries in one write, at any size — the
  slow re-transcription loss the guard exists for is proportionally worse in small files.
Both suspect guards yield to an explicit --allow-drastic and to a restore (which names its
snapshot: an explicit undo); the cap never does.
"""
from __future__ import annotations

from cortex.hot.hotmemory import MAX_ENTRIES
from cortex.write.refusals import Refusal

SHRINK_MIN_PRIOR = 10
SHRINK_FLOOR = 3
EROSION_LIMIT = 2


def cap_refusal(accepted: tuple[str, ...] | list[str]) -> Refusal | None:
    count = len(accepted)
    if count <= MAX_ENTRIES:
        return None
    over = count - MAX_ENTRIES
    return Refusal(
        "EAT_CAP",
        f"memory file cap is {MAX_ENTRIES} entries; the submission has {count} accepted, de-duplicated entries. "
        f"Trim {over} before re-submitting.",
        {"over_count": over, "cap": MAX_ENTRIES, "indexed_submission": [f"[{i}] {entry}" for i, entry in enumerate(accepted)]},
    )


def suspect_refusal(prior_count: int, new_count: int, evictions: int, additions: int) -> Refusal | None:
    detail = {"prior_count": prior_count, "new_count": new_count, "evictions": evictions, "additions": additions}
    delta = f"{prior_count} → {new_count} entries ({evictions} dropped, {additions} added)"
    if prior_count >= SHRINK_MIN_PRIOR:
        near_empty = new_count < SHRINK_FLOOR
        mass_delete = evictions > prior_count * 0.5 and additions == 0
        if near_empty or mass_delete:
            return Refusal(
                "ESUSPECT_SHRINK",
                f"the write would shrink {delta}. Near-empty results and mass deletion without curation are "
                "blocked as likely-bad output; pass --allow-drastic for a deliberate clear.",
                detail,
            )
    net_loss = evictions - additions
    if net_loss >= EROSION_LIMIT:
        return Refusal(
            "ESUSPECT_EROSION",
            f"the write would net-drop {net_loss} entries ({delta}). Slow erosion by re-transcription is "
            "blocked; pass --allow-drastic for a deliberate consolidation.",
            detail,
        )
    return None
