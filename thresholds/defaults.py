"""Thresholds stage: the default limits (plain data). Read by thresholds.sources.

Each threshold has a canonical snake_case name (config file and --threshold), the
environment variable that overrides it, the reference implementation's camelCase name
(accepted as an alias so existing config files keep working) and a unit for reporters.
"""
from __future__ import annotations

from thresholds import dense_context

SECOND_MS = 1000
MINUTE_MS = 60 * SECOND_MS
HOUR_MS = 60 * MINUTE_MS
DAY_MS = 24 * HOUR_MS
MIB = 1024 * 1024


class ThresholdSpec:
    """One threshold. name, env, alias, meaning: str; default: int; unit: ms | bytes | count;
    layout: the memory layout whose audit uses it (lifeos | dense-context)."""

    __slots__ = ("name", "default", "env", "alias", "unit", "meaning", "layout")

    def __init__(self, name, default, env, alias, unit, meaning, layout="lifeos") -> None:
        self.name, self.default, self.env, self.alias, self.unit = name, default, env, alias, unit
        self.meaning, self.layout = meaning, layout


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
    ThresholdSpec("delta_surface_lag_ms", DAY_MS, "CORTEX_DELTA_SURFACE_LAG_MS", "deltaSurfaceLagMs", "ms",
                  "a surface heartbeat older than the newest memory-system write by more than this is critical"),
    ThresholdSpec("hook_silence_ms", 30 * MINUTE_MS, "CORTEX_HOOK_SILENCE_MS", "hookSilenceMs", "ms",
                  "user turns newer than a hook's last heartbeat by more than this are critical"),
    ThresholdSpec("agent_activity_window_ms", 7 * DAY_MS, "CORTEX_AGENT_ACTIVITY_WINDOW_MS", "agentActivityWindowMs",
                  "ms", "user turns older than this do not count as agent activity"),
    ThresholdSpec("reviewer_all_skips", 5, "CORTEX_REVIEWER_ALL_SKIPS", "reviewerAllSkips", "count",
                  "this many latest reviewer runs all being skips warns"),
    ThresholdSpec("review_backlog_factor", 4, "CORTEX_REVIEW_BACKLOG_FACTOR", "reviewBacklogFactor", "count",
                  "turns since the last review above this many times the turn threshold warn"),
    ThresholdSpec("lock_stale_ms", 5 * MINUTE_MS, "CORTEX_LOCK_STALE_MS", "lockStaleMs", "ms",
                  "an unverifiable lock older than this is stale (the writer's own recovery age)"),
    ThresholdSpec("lock_held_ms", MINUTE_MS, "CORTEX_LOCK_HELD_MS", "lockHeldMs", "ms",
                  "a live holder keeping a lock longer than this warns"),
    ThresholdSpec("lock_contention_per_day", 10, "CORTEX_LOCK_CONTENTION_PER_DAY", "lockContentionPerDay", "count",
                  "more contended or recovered lock events than this in the last 24 h warn"),
    ThresholdSpec("reviewer_refused_share", 0.5, "CORTEX_REVIEWER_REFUSED_SHARE", "reviewerRefusedShare", "count",
                  "a share (0-1) of the last 5 reviewer runs' items refused by the write path above this warns"),
    ThresholdSpec("probe_timeout_ms", 2 * MINUTE_MS, "CORTEX_PROBE_TIMEOUT_MS", "probeTimeoutMs", "ms",
                  "the probe (--probe, cortex-health probe) runs its steps within this much time in all"),
) + tuple(ThresholdSpec(*spec, layout=dense_context.LAYOUT) for spec in dense_context.SPECS)

BY_NAME = {spec.name: spec for spec in THRESHOLDS}
BY_ALIAS = {spec.alias: spec for spec in THRESHOLDS}
