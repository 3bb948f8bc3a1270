"""Benchmark runner: drives the production validity filter and ranker over the labels; called by `cortex benchmark`.

Each sample ranks every label once with the production tokenizer — that one ranking is
shared by both disclosure configurations — and once with the reference ASCII tokenizer,
the comparison that shows what the Unicode/CJK tokenizer buys and what it costs. There is
no benchmark-only ranker: rank_bm25 and active_records are the functions `cortex search`
runs.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from cortex.benchmark.disclosure import CONFIGURATIONS
from cortex.benchmark.instruments import CountingTokenizer, ProcessProbe
from cortex.benchmark.labels import Label
from cortex.benchmark.metrics import estimated_tokens
from cortex.core.records import CortexRecord, active_records
from cortex.core.search import Ranked, rank_bm25


@dataclass
class TokenizerMeter:
    """Rankings under one tokenizer: timings, observed tokenizer work and the first sample's results."""

    name: str
    tokenize: Callable[[str], list[str]]
    ranking_ms: list[float] = field(default_factory=list)
    ranking_runs: int = 0
    corpus_tokenizations: float = 0.0
    first_sample: list[list[Ranked]] = field(default_factory=list)
    stable: bool = True  # every sample returned the first sample's ranking

    def __post_init__(self):
        self.counter = CountingTokenizer(self.tokenize)

    def rank(self, records: list[CortexRecord], query: str, now_ms: int) -> tuple[list[Ranked], float]:
        self.counter.query = query
        before = self.counter.record_calls
        started = time.perf_counter_ns()
        active = active_records(records, now_ms)
        ranked = rank_bm25(active, query, tokenizer=self.counter)
        elapsed_ms = (time.perf_counter_ns() - started) / 1e6
        self.ranking_runs += 1
        if active:
            self.corpus_tokenizations += (self.counter.record_calls - before) / len(active)
        self.ranking_ms.append(elapsed_ms)
        return ranked, elapsed_ms

    def keep(self, sample: int, index: int, ranked: list[Ranked], top_k: int) -> None:
        if sample == 0:
            self.first_sample.append(ranked)
        elif _top_ids(ranked, top_k) != _top_ids(self.first_sample[index], top_k):
            self.stable = False


@dataclass
class Samples:
    production: TokenizerMeter
    reference: TokenizerMeter
    latencies_ms: dict[str, list[float]]
    injected_tokens: dict[str, list[int]]  # per configuration, per label (first sample)


def run_samples(
    records: list[CortexRecord],
    labels: tuple[Label, ...],
    *,
    now_ms: int,
    samples: int,
    top_k: int,
    production: TokenizerMeter,
    reference: TokenizerMeter,
    probe: ProcessProbe,
    advance: Callable[[], None] = lambda: None,
) -> Samples:
    latencies: dict[str, list[float]] = {config.name: [] for config in CONFIGURATIONS}
    injected: dict[str, list[int]] = {config.name: [] for config in CONFIGURATIONS}
    for sample in range(samples):
        # Alternate which tokenizer ranks first, so neither always finds warm caches.
        meters = (production, reference) if sample % 2 == 0 else (reference, production)
        for index, label in enumerate(labels):
            for meter in meters:
                ranked, ranking_ms = meter.rank(records, label.query, now_ms)
                meter.keep(sample, index, ranked, top_k)
                if meter is production:
                    shared, shared_ms = ranked, ranking_ms
            for config in CONFIGURATIONS:
                started = time.perf_counter_ns()
                payload = config.disclose(shared, top_k)
                latencies[config.name].append(shared_ms + (time.perf_counter_ns() - started) / 1e6)
                if sample == 0:
                    injected[config.name].append(estimated_tokens(payload))
            probe.sample()
            advance()
    return Samples(production, reference, latencies, injected)


def _top_ids(ranked: list[Ranked], top_k: int) -> list[str]:
    return [row.record.id for row in ranked[:top_k]]
