"""Thresholds stage: the default limits (plain data). Read by thresholds.sources.

Each threshold has a canonical snake_case name (config file and --threshold), the
environment variable that overrides it, the reference implementation's camelCase name
(accepted as an alias so existing config files keep working) and a unit for reporters.
"""
from __future__ import annotations

from typing import NamedTuple

from thresholds import dense_context

MINUTE_MS = 60 * 1000
HOUR_MS = 60 * MINUTE_MS
DAY_MS = 24 * HOUR_MS
MIB = 1024 * 1024


class ThresholdSpec(NamedTuple):
    name: str
    default: int
    env: str
    alias: str
    unit: str  # ms | bytes | count
    meaning: str
    layout: str = "lifeos"  # the memory layout whose audit uses it (lifeos | dense-context)


THRESHOLDS: tuple[ThresholdSpec, ...] = (
    ThresholdSpec("reviewer_stale_ms", 7 * DAY_MS, "CORTEX_REVIEWER_STALE_MS", "reviewerStaleMs", "ms",
                  "latest reviewer run (and review-state last_review_at) older than this warns"),
    ThresholdSpec("reviewer_run_grace_ms", 10 * MINUTE_MS, "CORTEX_REVIEWER_RUN_GRACE_MS", "reviewerRunGraceMs", "ms",
                  "a run directory without a terminal row older than this is timed out"),
    ThresholdSpec("retrieval_stale_ms", DAY_MS, "CORTEX_RETRIEVAL_STALE_MS", "retrievalStaleMs", "ms",
                  "latest retrieval row older than this warns"),
    ThresholdSpec("proposal_backlog", 10, "CORTEX_PROPOSAL_BACKLOG", "proposalBacklog", "count",
                  "more pending proposals than this warns"),
    ThresholdSpec("observability_max_bytes", 256 * MIB, "CORTEX_OBSERVABILITY_MAX_BYTES", "observabilityMaxBytes",
                  "bytes", "observability logs larger than this in total warn"),
    ThresholdSpec("observability_max_age_ms", 30 * DAY_MS, "CORTEX_OBSERVABILITY_MAX_AGE_MS", "observabilityMaxAgeMs",
                  "ms", "an observability log older than this warns"),
    ThresholdSpec("index_stale_ms", 7 * DAY_MS, "CORTEX_INDEX_STALE_MS", "indexStaleMs", "ms",
                  "an adopted index older than this warns"),
    ThresholdSpec("cap_pressure", 46, "CORTEX_CAP_PRESSURE", "capPressure", "count",
                  "this many valid hot-memory entries (of 48) or more warns"),
) + tuple(ThresholdSpec(*spec, layout=dense_context.LAYOUT) for spec in dense_context.SPECS)

BY_NAME = {spec.name: spec for spec in THRESHOLDS}
BY_ALIAS = {spec.alias: spec for spec in THRESHOLDS}
