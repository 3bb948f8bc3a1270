"""Benchmark: what the `cortex recall` prompt hook would inject for each label, gated and ungated; called by `cortex benchmark`.

Gated is the hook as it runs (cortex.hot.retrieval.bounded_query: content terms only, then
cortex.core.relevance.relevant: the score floor); ungated is the hook before the gate: the
top K of every term of the prompt, as `cortex search` ranks. Both use the production ranker
over the records valid at the benchmark's clock (the hot-memory entries the hook also
ranks live outside the memory root and are not part of a benchmark corpus). A false
injection is an injected record the label does not expect; a known false injection is one
the label lists in false_ids.
"""
from __future__ import annotations

from cortex.benchmark import metrics
from cortex.benchmark.labels import Label
from cortex.core.privacy import strip_private_content
from cortex.core.records import CortexRecord, active_records
from cortex.core.relevance import STOPWORDS, Floor, relevant
from cortex.hot.retrieval import MAX_QUERY_CHARS, MAX_QUERY_TERMS, bounded_query
from cortex.core.search import rank_bm25
from cortex.core.tokenize import terms


def ungated_query(query: str) -> str:
    """The prompt as the hook searched it before the gate: every distinct term, bounded alike."""
    text = strip_private_content(query)[:MAX_QUERY_CHARS]
    return " ".join(list(dict.fromkeys(terms(text)))[:MAX_QUERY_TERMS])


def injections(records: list[CortexRecord], labels: tuple[Label, ...], *, now_ms: int, top_k: int,
               floor: Floor) -> tuple[list[list[str]], list[list[str]]]:
    """(gated ids, ungated ids) per label, best first."""
    active = active_records(records, now_ms)
    gated, ungated = [], []
    for label in labels:
        searched = bounded_query(label.query)
        ranked = rank_bm25(active, searched)[:top_k] if searched else []
        gated.append([row.record.id for row in relevant(ranked, floor)])
        plain = ungated_query(label.query)
        ungated.append([row.record.id for row in (rank_bm25(active, plain)[:top_k] if plain else [])])
    return gated, ungated


def summary(labels: tuple[Label, ...], injected: list[list[str]]) -> dict:
    """Recall@K and false injections of one way of injecting, over every label."""
    return {
        "recall_at_k": metrics.mean([metrics.recall_at_k(ids, label.expected_ids) for label, ids in zip(labels, injected)]),
        "injected": sum(map(len, injected)),
        "false_injections": sum(1 for label, ids in zip(labels, injected) for i in ids if i not in label.expected_ids),
        "known_false_injections": sum(1 for label, ids in zip(labels, injected) for i in ids if i in label.false_ids),
        "queries_without_injection": sum(1 for ids in injected if not ids),
    }


def report(labels: tuple[Label, ...], gated: list[list[str]], ungated: list[list[str]], floor: Floor) -> dict:
    return {
        "path": f"{relevant.__module__}.{relevant.__qualname__}",
        "min_score": floor.min_score,
        "min_share": floor.min_share,
        "stopwords": len(STOPWORDS),
        "gated": summary(labels, gated),
        "ungated": summary(labels, ungated),
    }
