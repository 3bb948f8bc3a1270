"""Benchmark scoring functions on hand-worked examples."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from cortex.benchmark import metrics


def test_recall_counts_expected_ids_in_the_top_k():
    assert metrics.recall_at_k(["a", "x", "b"], ["a", "b", "c", "d"]) == 0.5
    assert metrics.recall_at_k([], ["a"]) == 0


def test_reciprocal_rank_is_the_first_expected_position():
    assert metrics.reciprocal_rank(["x", "y", "b", "a"], ["a", "b"]) == pytest.approx(1 / 3)
    assert metrics.reciprocal_rank(["x"], ["a"]) == 0


def test_temporal_pair_accuracy_counts_ordered_pairs_and_missing_ids_are_wrong():
    assert metrics.temporal_pair_accuracy(["a", "b", "c"], ["a", "b", "c"]) == 1
    assert metrics.temporal_pair_accuracy(["c", "b", "a"], ["a", "b", "c"]) == 0
    assert metrics.temporal_pair_accuracy(["b", "a", "c"], ["a", "b", "c"]) == pytest.approx(2 / 3)
    assert metrics.temporal_pair_accuracy(["a", "x"], ["a", "b"]) == 0  # b never came back


def test_false_recall_is_the_share_of_false_ids_recalled():
    assert metrics.false_recall(["a", "f1"], ["f1", "f2"]) == 0.5
    assert metrics.false_recall(["a"], ["f1"]) == 0


def test_mean_of_nothing_is_absent_not_zero():
    assert metrics.mean([]) is None
    assert metrics.mean([1, 2]) == 1.5


def test_percentiles():
    assert metrics.median([3, 1, 2]) == 2
    assert metrics.median([4, 1, 2, 3]) == 2.5
    assert metrics.p95(list(range(1, 101))) == 95  # nearest rank
    assert metrics.p95([7]) == 7
    assert metrics.p95(list(range(1, 21))) == 19


@given(st.lists(st.floats(min_value=0, max_value=1e6), min_size=1))
def test_p95_is_a_sample_at_or_above_the_median(values):
    assert metrics.p95(values) in values
    assert metrics.p95(values) >= metrics.median(values)


def test_estimated_tokens_use_utf8_bytes():
    assert metrics.estimated_tokens("abcd") == 1
    assert metrics.estimated_tokens("abcde") == 2
    assert metrics.estimated_tokens("向量") == 2  # 6 bytes
