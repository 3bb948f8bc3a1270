"""Benchmark report assembly: turns runner measurements into a validated `lifeos-cortex-benchmark/v1` dict; called by `cortex benchmark`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from cortex.benchmark import metrics
from cortex.benchmark.disclosure import CONFIGURATIONS
from cortex.benchmark.instruments import ProcessProbe
from cortex.benchmark.labels import Label, LabelSet
from cortex.benchmark.runner import Samples, TokenizerMeter
from cortex.core.corpus import Corpus

METHOD = {
    "latency": "time.perf_counter_ns around active_records + rank_bm25 (shared) plus the configuration's own serialisation",
    "injected_tokens": "ceil(UTF-8 bytes of the serialised payload / 4), first sample",
    "peak_rss": "psutil.Process().memory_info().rss, maximum over a sample after every label of every sample",
    "descendant_processes": "len(psutil.Process().children(recursive=True)), maximum over the same samples",
    "disk_growth": "bytes of regular files under the memory directory after the run minus before it",
    "tokenizations": "calls observed by a counting wrapper around the tokenizer handed to rank_bm25",
    "recall_hook": "first sample, untimed: the hook's query and gate over the valid records (no hot-memory entries)",
}


@dataclass(frozen=True)
class RunContext:
    """Everything about the run that is not a measurement."""

    command: list[str]
    generated_at: str
    validity_at: str
    samples: int
    top_k: int
    corpus: Corpus
    memory_dir: str
    active_records: int
    corpus_digest: str
    labels: LabelSet
    output_path: str | None
    production_paths: dict[str, str]
    recall_hook: dict | None = None  # cortex.benchmark.recallhook.report
    recall_ids: tuple | None = None  # (gated ids, ungated ids) per label


def qualified(function: Callable) -> str:
    return f"{function.__module__}.{function.__qualname__}"


def build_report(
    context: RunContext, measured: Samples, probe: ProcessProbe, disk_bytes: int, disk_growth: int
) -> dict:
    from cortex.benchmark.schema import BenchmarkReport

    labels = context.labels.labels
    top_k = context.top_k
    production = measured.production
    returned = [_ids(ranked, top_k) for ranked in production.first_sample]
    ascii_returned = [_ids(ranked, top_k) for ranked in measured.reference.first_sample]
    quality = _quality(labels, returned)
    configs = [_configuration(config, quality, measured, probe, disk_bytes, disk_growth) for config in CONFIGURATIONS]
    baseline, progressive = (sum(measured.injected_tokens[c.name]) for c in CONFIGURATIONS)
    reference = measured.reference
    report = {
        "schema": "lifeos-cortex-benchmark/v1",
        "generated_at": context.generated_at,
        "validity_at": context.validity_at,
        "top_k": top_k,
        "samples": context.samples,
        "labels": len(labels),
        "configs": configs,
        "vector_config": None,
        "tokenizers": [
            _tokenizer(production, True, labels, returned),
            _tokenizer(reference, False, labels, ascii_returned),
        ],
        "tokenizer_latency_ratio": _ratio(production.ranking_ms, reference.ranking_ms),
        "progressive_token_reduction": round(1 - progressive / baseline, 6) if baseline else None,
        "recall_hook": context.recall_hook,
        "measurements": {
            "ranking_runs": production.ranking_runs,
            "query_tokenizations": production.counter.query_calls,
            "record_tokenizations": production.counter.record_calls,
            "corpus_tokenizations": production.corpus_tokenizations,
            "latency_samples_per_query": context.samples,
            "probe_samples": probe.samples,
        },
        "corpus": {
            "root": context.corpus.root,
            "memory_dir": context.memory_dir,
            "files": len(context.corpus.files),
            "records": len(context.corpus.records),
            "active_records": context.active_records,
            "disk_bytes": disk_bytes,
        },
        "queries": [
            {**_query(label, returned[index], ascii_returned[index], len(production.first_sample[index]), measured,
                      index),
             **({} if context.recall_ids is None else {"recall_hook_ids": context.recall_ids[0][index],
                                                         "recall_hook_ungated_ids": context.recall_ids[1][index]})}
            for index, label in enumerate(labels)
        ],
        "provenance": {
            "command": context.command,
            "corpus_digest": context.corpus_digest,
            "labels_digest": context.labels.digest,
            "labels_path": context.labels.path,
            "output_path": context.output_path,
            "production": context.production_paths,
            "disclosure_paths": {config.name: config.disclosure_path for config in CONFIGURATIONS},
            "method": METHOD,
        },
    }
    # Validate against the published model: a report that breaks its own schema is a bug.
    return BenchmarkReport.model_validate(report).model_dump(mode="json", by_alias=True)


def _configuration(config, quality: dict, measured: Samples, probe: ProcessProbe, disk_bytes: int, disk_growth: int) -> dict:
    latencies = measured.latencies_ms[config.name]
    injected = measured.injected_tokens[config.name]
    production = measured.production
    return {
        "name": config.name,
        "execution_path": config.execution_path,
        "disclosure_path": config.disclosure_path,
        **quality,  # identical for both: they share every ranking
        "injected_tokens": sum(injected),
        "injected_tokens_per_query": sum(injected) / len(injected),
        "median_latency_ms": _ms(metrics.median(latencies)),
        "p95_latency_ms": _ms(metrics.p95(latencies)),
        "latency_samples_ms": [_ms(value) for value in latencies],
        "corpus_disk_bytes": disk_bytes,
        "disk_growth_bytes": disk_growth,
        "descendant_processes": probe.max_descendants,
        "peak_rss_bytes": probe.peak_rss_bytes,
        "ranking_runs": production.ranking_runs,
        "corpus_tokenizations": production.corpus_tokenizations,
        "shared_ranking": True,
    }


def _ids(ranked, top_k: int) -> list[str]:
    return [row.record.id for row in ranked[:top_k]]


def _ms(value: float) -> float:
    return round(value, 6)  # nanosecond resolution; more digits would be noise


def _quality(labels: tuple[Label, ...], returned: list[list[str]]) -> dict:
    ordered = [(ids, label.expected_order) for label, ids in zip(labels, returned) if label.expected_order]
    falsed = [(ids, label.false_ids) for label, ids in zip(labels, returned) if label.false_ids]
    temporal = metrics.mean([metrics.temporal_pair_accuracy(ids, order) for ids, order in ordered])
    false = metrics.mean([metrics.false_recall(ids, false_ids) for ids, false_ids in falsed])
    return {
        "recall_at_k": metrics.mean([metrics.recall_at_k(ids, label.expected_ids) for label, ids in zip(labels, returned)]),
        "mrr": metrics.mean([metrics.reciprocal_rank(ids, label.expected_ids) for label, ids in zip(labels, returned)]),
        "temporal_accuracy": temporal,
        "false_recall": false,
    }


def _tokenizer(meter: TokenizerMeter, production: bool, labels, returned) -> dict:
    return {
        "name": meter.name,
        "path": qualified(meter.tokenize),
        "production": production,
        **_quality(labels, returned),
        "queries_without_terms": sum(1 for label in labels if not meter.tokenize(label.query)),
        "ranking_runs": meter.ranking_runs,
        "record_tokenizations": meter.counter.record_calls,
        "corpus_tokenizations": meter.corpus_tokenizations,
        "median_ranking_ms": _ms(metrics.median(meter.ranking_ms)),
        "p95_ranking_ms": _ms(metrics.p95(meter.ranking_ms)),
        "mean_ranking_ms": _ms(metrics.mean(meter.ranking_ms)),
        "rankings_identical_across_samples": meter.stable,
    }


def _ratio(numerator: list[float], denominator: list[float]) -> float | None:
    # Medians: a load spike from another process hits one ranking, not the typical one.
    bottom = metrics.median(denominator)
    return round(metrics.median(numerator) / bottom, 6) if bottom > 0 else None


def _query(label: Label, ids: list[str], ascii_ids: list[str], total: int, measured: Samples, index: int) -> dict:
    return {
        "line": label.line,
        "id": label.name,
        "query": label.query,
        "expected_ids": list(label.expected_ids),
        "returned_ids": ids,
        "ranked_total": total,
        "recall_at_k": metrics.recall_at_k(ids, label.expected_ids),
        "reciprocal_rank": metrics.reciprocal_rank(ids, label.expected_ids),
        "temporal_accuracy": metrics.temporal_pair_accuracy(ids, label.expected_order) if label.expected_order else None,
        "false_recall": metrics.false_recall(ids, label.false_ids) if label.false_ids else None,
        "injected_tokens_baseline": measured.injected_tokens["bm25-baseline"][index],
        "injected_tokens_progressive": measured.injected_tokens["progressive"][index],
        "ascii_returned_ids": ascii_ids,
        "ascii_recall_at_k": metrics.recall_at_k(ascii_ids, label.expected_ids),
    }
