"""The hot-content detectors against a labelled set: precision and recall per check (tests/data/hot_entries_labelled.jsonl).

The set holds realistic hot-memory entries, each labelled with the checks it should trip
(imperative, injection, ephemeral: none for a plain fact), among them facts that look like
commands, commands that look like facts, facts about security work, harmless invisible
characters (RLM, emoji ZWJ) and Chinese, Japanese and Korean entries; and pairs of entries
labelled duplicate or not. Rows marked `"split": "holdout"` were written after the detectors
were tuned on the others (docs/hot-content.md gives the figures of both, and those the
held-out rows had before the one revision made after reading them). Dates are judged
against NOW, as the rule would. The figures
printed here are the ones docs/hot-content.md states; the bounds below keep them from
sliding (the critical check must stay above 0.95 precision).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from collectors.lifeos.hot_duplicates import duplicates
from collectors.lifeos.hot_entry_text import split_entry
from collectors.lifeos.hot_ephemera import dates, ephemeral
from collectors.lifeos.hot_patterns import imperative, injection
from health.judge.rules.hot_content import soon_date
from tests.health_support import NOW_MS

DATA = Path(__file__).parents[1] / "data" / "hot_entries_labelled.jsonl"
# Lower bounds on the measured figures (docs/hot-content.md gives the exact ones).
BOUNDS = {"injection": (0.95, 0.90), "imperative": (0.90, 0.80), "ephemeral": (0.90, 0.85), "duplicates": (0.90, 0.80)}


def _rows() -> list[dict]:
    return [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]


def _predict(kind: str, text: str) -> bool:
    entry = split_entry(1, text)
    if kind == "imperative":
        return imperative(entry) is not None
    if kind == "injection":
        return injection(entry) is not None
    return ephemeral(entry) is not None or any(soon_date(date, NOW_MS) for date in dates(entry))


def _scores(pairs: list[tuple[bool, bool]]) -> tuple[float, float, int, int, int]:
    tp = sum(1 for truth, guess in pairs if truth and guess)
    fp = sum(1 for truth, guess in pairs if guess and not truth)
    fn = sum(1 for truth, guess in pairs if truth and not guess)
    return tp / max(1, tp + fp), tp / max(1, tp + fn), tp, fp, fn


def measured(split: str | None = "all") -> dict[str, tuple[float, float, int, int, int]]:
    """(precision, recall, tp, fp, fn) per check over the whole set, or one split (None: the tuning rows)."""
    rows = [row for row in _rows() if split == "all" or row.get("split") == split]
    entries = [row for row in rows if "entry" in row]
    result = {kind: _scores([(kind in row["labels"], _predict(kind, row["entry"])) for row in entries])
              for kind in ("imperative", "injection", "ephemeral")}
    pairs = [row for row in rows if "pair" in row]
    found = [(row["duplicate"], bool(duplicates([split_entry(1, row["pair"][0]), split_entry(2, row["pair"][1])])))
             for row in pairs]
    result["duplicates"] = _scores(found)
    return result


def test_the_labelled_set_is_large_and_varied():
    rows = _rows()
    entries = [row for row in rows if "entry" in row]
    assert len(entries) >= 200
    assert sum(1 for row in entries if any("\u3040" <= c <= "\u9fff" or "\uac00" <= c <= "\ud7af" for c in row["entry"])) >= 30
    assert sum(1 for row in entries if not row["labels"]) >= 100  # plenty of facts to be wrong about
    assert sum(1 for row in rows if "pair" in row) >= 40


@pytest.mark.parametrize("kind", sorted(BOUNDS))
def test_precision_and_recall_per_check(kind, capsys):
    precision, recall, tp, fp, fn = measured()[kind]
    with capsys.disabled():
        for name, split in (("all", "all"), ("tuning", None), ("held-out", "holdout")):
            p, r, *counts = measured(split)[kind]
            print(f"\n{kind} ({name}): precision {p:.3f} recall {r:.3f} (tp, fp, fn: {counts})", end="")
    low_precision, low_recall = BOUNDS[kind]
    assert precision >= low_precision and recall >= low_recall, (kind, precision, recall, _misses(kind))


def _misses(kind: str) -> list[str]:
    if kind == "duplicates":
        return []
    return [row["entry"] for row in _rows() if "entry" in row and (kind in row["labels"]) != _predict(kind, row["entry"])]
