"""Benchmark report model: the pydantic definition of `lifeos-cortex-benchmark/v1`; used by cortex.benchmark.assemble and cortex.schemas.

The published JSON Schema (cortex/schemas/lifeos-cortex-benchmark-v1.schema.json) is
generated from these models by `python -m cortex.schemas`; a test checks it is current.
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, NonNegativeFloat, NonNegativeInt, PositiveInt

SCHEMA_ID = "lifeos-cortex-benchmark/v1"

Share = Annotated[float, Field(ge=0, le=1)]
OptionalShare = Share | None


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class ConfigurationResult(_Model):
    """One disclosure configuration. Both share each production ranking (shared_ranking)."""

    name: Literal["bm25-baseline", "progressive"]
    execution_path: Literal["rank-full-records", "rank-cards-expand-selected"]
    disclosure_path: str = Field(description="qualified name of the function that serialises the payload")
    recall_at_k: Share
    mrr: Share
    temporal_accuracy: OptionalShare = Field(description="mean over labels with expected_order; null when none has one")
    false_recall: OptionalShare = Field(description="mean over labels with false_ids; null when none has any")
    injected_tokens: NonNegativeInt = Field(description="sum over labels of ceil(payload UTF-8 bytes / 4), first sample")
    injected_tokens_per_query: NonNegativeFloat
    median_latency_ms: NonNegativeFloat
    p95_latency_ms: NonNegativeFloat
    latency_samples_ms: list[NonNegativeFloat] = Field(description="one per label per sample: shared ranking + this configuration's disclosure")
    corpus_disk_bytes: NonNegativeInt
    disk_growth_bytes: int = Field(description="memory-tree bytes after the run minus before it")
    descendant_processes: NonNegativeInt = Field(description="most descendant processes seen (psutil)")
    peak_rss_bytes: NonNegativeInt = Field(description="largest resident set size sampled (psutil), whole process")
    ranking_runs: NonNegativeInt
    corpus_tokenizations: NonNegativeFloat
    shared_ranking: bool = Field(description="true: ranking_runs and corpus_tokenizations are the same runs the other configuration used, not extra work")


class TokenizerResult(_Model):
    """Ranking quality and cost under one tokenizer (same ranker, same labels, same samples)."""

    name: Literal["unicode-cjk-bigram", "ascii"]
    path: str
    production: bool
    recall_at_k: Share
    mrr: Share
    temporal_accuracy: OptionalShare
    false_recall: OptionalShare
    queries_without_terms: NonNegativeInt = Field(description="labels whose query yields no term under this tokenizer")
    ranking_runs: NonNegativeInt
    record_tokenizations: NonNegativeInt
    corpus_tokenizations: NonNegativeFloat
    median_ranking_ms: NonNegativeFloat
    p95_ranking_ms: NonNegativeFloat
    mean_ranking_ms: NonNegativeFloat
    rankings_identical_across_samples: bool


class QueryResult(_Model):
    """One label under the production ranking (first sample)."""

    line: PositiveInt
    id: str | None
    query: str
    expected_ids: list[str]
    returned_ids: list[str] = Field(description="top K, best first")
    ranked_total: NonNegativeInt
    recall_at_k: Share
    reciprocal_rank: Share
    temporal_accuracy: OptionalShare
    false_recall: OptionalShare
    injected_tokens_baseline: NonNegativeInt
    injected_tokens_progressive: NonNegativeInt
    ascii_returned_ids: list[str]
    ascii_recall_at_k: Share
    recall_hook_ids: list[str] | None = Field(default=None, description="what `cortex recall` injects (gated)")
    recall_hook_ungated_ids: list[str] | None = Field(default=None, description="the top K of every term, ungated")


class RecallInjection(_Model):
    """What one way of injecting put into the prompts of every label (top K, best first)."""

    recall_at_k: Share
    injected: NonNegativeInt = Field(description="records injected over all labels")
    false_injections: NonNegativeInt = Field(description="injected records not in the label's expected_ids")
    known_false_injections: NonNegativeInt = Field(description="injected records in the label's false_ids")
    queries_without_injection: NonNegativeInt


class RecallHook(_Model):
    """The `cortex recall` prompt hook: gated (content terms, the relevance floor) against ungated (every term)."""

    path: str = Field(description="qualified name of the gate")
    min_score: NonNegativeFloat = Field(description="the floor's absolute BM25 score (CORTEX_RECALL_MIN_SCORE)")
    min_share: Share = Field(description="the floor's share of the best score (CORTEX_RECALL_MIN_SHARE)")
    stopwords: NonNegativeInt = Field(description="how many terms the gate drops from a prompt")
    gated: RecallInjection
    ungated: RecallInjection


class Measurements(_Model):
    """Production retrieval work actually performed, counted by a wrapping tokenizer."""

    ranking_runs: NonNegativeInt
    query_tokenizations: NonNegativeInt
    record_tokenizations: NonNegativeInt
    corpus_tokenizations: NonNegativeFloat
    latency_samples_per_query: PositiveInt
    probe_samples: PositiveInt


class Corpus(_Model):
    root: str
    memory_dir: str
    files: NonNegativeInt
    records: NonNegativeInt
    active_records: NonNegativeInt
    disk_bytes: NonNegativeInt


class ProductionPaths(_Model):
    loader: str
    validity: str
    ranker: str
    card_builder: str
    tokenizer: str
    digest: str


class Provenance(_Model):
    command: list[str] = Field(description="the invocation, argument by argument")
    corpus_digest: str = Field(description="canonical corpus digest, as `cortex rebuild --from-canonical` computes it")
    labels_digest: str = Field(description="SHA-256 of the labels file bytes")
    labels_path: str
    output_path: str | None
    production: ProductionPaths
    disclosure_paths: dict[str, str]
    method: dict[str, str] = Field(description="how each measurement was taken")


class BenchmarkReport(_Model):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, title="lifeos-cortex-benchmark/v1 report")

    schema_: Literal["lifeos-cortex-benchmark/v1"] = Field(alias="schema")
    generated_at: str
    validity_at: str = Field(description="the instant records' validity windows were judged at")
    top_k: PositiveInt
    samples: PositiveInt
    labels: PositiveInt
    configs: list[ConfigurationResult] = Field(min_length=2, max_length=2)
    vector_config: None = Field(description="no vector index exists, so no vector candidate is measured")
    tokenizers: list[TokenizerResult] = Field(min_length=2, max_length=2)
    tokenizer_latency_ratio: NonNegativeFloat | None = Field(description="median ranking time under the production tokenizer / under the ASCII tokenizer (same rankings, interleaved)")
    progressive_token_reduction: float | None = Field(description="1 - progressive/baseline injected tokens")
    measurements: Measurements
    recall_hook: RecallHook | None = Field(default=None, description="what the recall prompt hook injects")
    corpus: Corpus
    queries: list[QueryResult]
    provenance: Provenance
