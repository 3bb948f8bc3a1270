"""One scenario per public finding id, each through the real CLI: id, severity and exit code.

Every scenario starts from a copy of the healthy demo tree and changes one thing.
"""
from __future__ import annotations

import pytest

from tests import health_scenarios as s
from tests import hook_scenarios as hooks
from tests import hot_content_scenarios as hc
from tests import latency_scenarios as lat
from tests import history_scenarios as hs
from tests import liveness_scenarios as live
from tests.health_support import clean_env, copy_demo, run_cli

# (finding id, severity, exit code, mutation, extra environment)
SCENARIOS = [
    ("reviewer-evidence-missing", "warn", 1, s.reviewer_missing, {}),
    ("reviewer-latest-failed", "critical", 2, s.reviewer_failed, {}),
    ("reviewer-command-missing", "critical", 2, s.reviewer_command_missing, {}),
    ("reviewer-latest-parse-failed", "critical", 2, s.reviewer_malformed_line, {}),
    ("reviewer-latest-parse-failed", "critical", 2, s.reviewer_run_dir_parse_error, {}),
    ("reviewer-latest-parse-failed", "critical", 2, s.reviewer_row_parse_failed, {}),
    ("reviewer-latest-timed-out", "critical", 2, s.reviewer_row_timeout, {}),
    ("reviewer-latest-timed-out", "critical", 2, s.reviewer_run_dir_stuck, {}),
    ("reviewer-evidence-invalid", "critical", 2, s.reviewer_extra_key, {}),
    ("reviewer-evidence-invalid", "critical", 2, s.reviewer_bad_skip, {}),
    ("reviewer-evidence-invalid", "critical", 2, s.reviewer_totals_wrong, {}),
    ("reviewer-evidence-invalid", "critical", 2, s.reviewer_impossible_date, {}),
    ("reviewer-evidence-invalid", "critical", 2, s.reviewer_log_is_directory, {}),
    ("reviewer-future", "warn", 1, s.reviewer_future, {}),
    ("reviewer-stale", "warn", 1, s.reviewer_stale, {}),
    ("reviewer-failing", "warn", 1, s.reviewer_failing, {}),
    ("reviewer-eat-cap", "critical", 2, s.reviewer_eat_cap, {}),
    ("retrieval-evidence-malformed", "warn", 1, s.retrieval_malformed_line, {}),
    ("retrieval-evidence-malformed", "warn", 1, s.retrieval_invalid_last, {}),
    ("retrieval-missing", "warn", 1, s.retrieval_no_file, {}),
    ("retrieval-missing", "warn", 1, s.retrieval_empty, {}),
    ("retrieval-future", "warn", 1, s.retrieval_future, {}),
    ("retrieval-stale", "warn", 1, s.retrieval_stale, {}),
    ("proposal-evidence-missing", "warn", 1, s.proposals_missing, {}),
    ("proposal-evidence-malformed", "warn", 1, s.proposals_null_line, {}),
    ("proposal-backlog-high", "warn", 1, s.proposals_backlog, {}),
    ("observability-evidence-missing", "warn", 1, s.observability_missing, {}),  # O gone: every log missing
    ("observability-bytes-exceeded", "warn", 1, s.observability_bytes, {}),
    ("observability-age-exceeded", "warn", 1, s.observability_age, {}),
    ("observability-evidence-incomplete", "warn", 1, s.observability_symlink, {}),
    ("index-evidence-missing", "warn", 1, s.index_missing, {}),
    ("index-manifest-invalid", "critical", 2, s.index_bad_policy, {}),
    ("index-manifest-invalid", "critical", 2, s.index_manifest_extra_key, {}),
    ("index-manifest-invalid", "critical", 2, s.index_manifest_escaping_path, {}),
    ("index-manifest-invalid", "critical", 2, s.index_manifest_symlink, {}),
    ("index-manifest-invalid", "critical", 2, s.index_file_missing, {}),
    ("index-manifest-invalid", "critical", 2, s.index_manifest_outside, {}),
    ("index-integrity-mismatch", "critical", 2, s.index_canonical_mismatch, {}),
    ("index-integrity-mismatch", "critical", 2, s.index_bytes_mismatch, {}),
    ("index-integrity-mismatch", "critical", 2, s.index_corpus_edited, {}),
    ("index-freshness-invalid", "warn", 1, s.index_freshness_unparseable, {}),
    ("index-freshness-invalid", "warn", 1, s.index_freshness_future, {}),
    ("index-stale", "warn", 1, s.index_stale, {}),
    ("principal-memory-missing", "critical", 2, s.principal_missing, {}),
    ("da-memory-missing", "critical", 2, s.da_missing, {}),
    ("markers-corrupt:principal", "critical", 2, s.principal_inverted, {}),
    ("markers-corrupt:da", "critical", 2, s.da_double_end, {}),
    ("pending-silent-loss:principal", "warn", 1, s.principal_overlength, {}),
    ("cap-pressure:da", "warn", 1, s.da_cap, {}),
    ("markers-unreadable:principal", "critical", 2, s.principal_directory, {}),
    ("state-missing", "warn", 1, s.state_missing, {}),
    ("state-corrupt", "critical", 2, s.state_not_json, {}),
    ("state-corrupt", "critical", 2, s.state_bad_timestamp, {}),
    ("review-stale", "warn", 1, s.review_stale, {}),
    ("review-stale", "warn", 1, s.review_never, {}),
    ("review-future", "warn", 1, s.review_future, {}),
    ("cortex-threshold-invalid", "critical", 2, lambda root: None, {"CORTEX_PROPOSAL_BACKLOG": "NaN"}),
    ("cortex-threshold-invalid", "critical", 2, s.config_negative, {}),
    ("cortex-threshold-invalid", "critical", 2, lambda root: ["--threshold", "retrieval_stale_ms=abc"], {}),
    ("cortex-threshold-invalid", "critical", 2, s.config_misspelt_name, {}),
    ("cortex-threshold-invalid", "critical", 2, lambda root: ["--threshold", "retrieval_stale_ms=2x"], {}),
    ("cortex-config-invalid", "critical", 2, s.config_not_json, {}),
    ("memory-root-missing", "critical", 2, s.memory_tree_missing, {}),
    ("health-history-tampered", "critical", 2, hs.history_tampered, {}),
    ("health-history-unchained", "warn", 1, hs.history_unchained, {}),
    ("hook-file-missing:MemoryTurnStart.hook.ts", "critical", 2, live.hook_file_missing, {}),
    ("tool-file-missing:MutationTier.ts", "critical", 2, live.tool_file_missing, {}),
    ("settings-invalid", "critical", 2, live.settings_not_json, {}),
    ("settings-missing:settings.json", "critical", 2, live.settings_directory, {}),
    ("settings-hook-missing:MemoryTurnStart.hook.ts", "critical", 2, live.settings_hook_clobbered, {}),
    ("settings-hook-absent:cortex recall", "warn", 1, live.settings_hook_unregistered, {}),
    ("hook-command-missing:Stop:/nowhere/bin/cortex", "critical", 2, live.hook_command_unresolved, {}),
    ("subagent-flag-in-main-session", "critical", 2, live.subagent_flag, {}),
    ("delta-surface-dead", "critical", 2, live.surface_heartbeat_missing, {}),
    ("delta-surface-check-error", "warn", 1, live.surface_heartbeat_directory, {}),
    ("hook-silent:fire", "critical", 2, live.hooks_silent_while_active, {}),
    ("agent-activity-unreadable", "warn", 1, live.transcripts_not_a_folder, {}),
    ("reviewer-interrupted", "warn", 1, live.reviewer_interrupted, {}),
    ("reviewer-interrupted-repeatedly", "critical", 2, live.reviewer_interrupted_thrice, {}),
    ("reviewer-never-started", "critical", 2, live.reviewer_spawn_lost, {}),
    ("reviewer-all-skips", "warn", 1, live.reviewer_only_skips, {}),
    ("review-backlog", "warn", 1, live.review_turns_piled_up, {}),
    ("reviewer-dispatch-failed", "warn", 1, live.dispatch_items_kept, {}),
    ("lock-stale:PRINCIPAL_MEMORY.md.lock", "warn", 1, live.lock_of_dead_writer, {}),
    ("lock-held-long:DA_MEMORY.md.lock", "warn", 1, live.lock_held_too_long, {}),
    ("lock-contention", "warn", 1, live.locks_contended, {}),
    ("search-cache-verify-failed", "warn", 1, s.search_cache_wrong, {}),
    ("search-cache-unreadable", "warn", 1, s.search_cache_garbage, {}),
    ("corpus-integrity-error", "critical", 2, hooks.note_with_impossible_date, {}),
    ("corpus-integrity-error", "critical", 2, hooks.note_with_duplicate_id, {}),
    ("reviewer-config-invalid", "critical", 2, hooks.review_config_trailing_comma, {}),
    ("reviewer-config-invalid", "critical", 2, hooks.review_config_wrong_type, {}),
    ("hot-entries-unparsed:PRINCIPAL_MEMORY.md", "warn", 1, hooks.hot_hand_edits, {}),
    ("settings-invalid", "critical", 2, hooks.settings_trailing_comma, {}),
    ("hook-failing:recall", "critical", 2, hooks.recall_failing, {}),
    ("hook-failures-log-invalid", "warn", 1, hooks.failure_log_garbled, {}),
    ("reviewer-writes-refused", "warn", 1, hooks.reviewer_every_write_refused, {}),
    ("hot-entry-imperative:principal", "warn", 1, hc.principal_imperative, {}),
    ("hot-entry-injection:principal", "critical", 2, hc.principal_injection, {}),
    ("hot-entries-duplicate:da", "warn", 1, hc.da_duplicate, {}),
    ("hot-entry-ephemeral:principal", "warn", 1, hc.principal_ephemeral, {}),
    ("hot-entry-ephemeral:principal", "warn", 1, hc.principal_dated_soon, {}),
    ("hot-cap-pressure:principal", "warn", 1, hc.principal_near_cap, {}),
    ("hook-slow:recall", "warn", 1, lat.recall_slow, {}),
]


@pytest.mark.parametrize("finding_id,severity,code,mutate,env", SCENARIOS,
                         ids=[f"{row[0]}/{row[3].__name__}" for row in SCENARIOS])
def test_scenario_yields_finding(tmp_path, finding_id, severity, code, mutate, env):
    root = copy_demo(tmp_path)
    extra = mutate(root) or []
    result = run_cli(*extra, root=root, env=clean_env(**env))
    assert result.finding(finding_id)["severity"] == severity
    assert result.code == code, result.ids()
    assert result.report["overall"] == {1: "warn", 2: "critical"}[code]


def test_every_scenario_changes_only_what_it_targets():
    # The table covers each public id at least once (the contract in the issue).
    expected = {
        "reviewer-evidence-missing", "reviewer-latest-failed", "reviewer-latest-parse-failed",
        "reviewer-latest-timed-out", "reviewer-evidence-invalid", "reviewer-future", "reviewer-stale",
        "reviewer-failing", "reviewer-eat-cap", "retrieval-evidence-malformed", "retrieval-missing",
        "retrieval-future", "retrieval-stale", "proposal-evidence-missing", "proposal-evidence-malformed",
        "proposal-backlog-high", "observability-evidence-missing", "observability-bytes-exceeded",
        "observability-age-exceeded", "index-manifest-invalid", "index-integrity-mismatch",
        "index-freshness-invalid", "index-stale", "index-evidence-missing", "principal-memory-missing",
        "da-memory-missing", "markers-corrupt:principal", "markers-corrupt:da", "pending-silent-loss:principal",
        "cap-pressure:da", "state-missing", "state-corrupt", "review-stale", "cortex-threshold-invalid",
        "cortex-clock-invalid",
    }
    covered = {row[0] for row in SCENARIOS} | {"cortex-clock-invalid"}  # clock: test_health_inputs.py
    assert expected <= covered
