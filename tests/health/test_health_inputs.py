"""Thresholds (defaults < config < env < CLI, with sources, fail-closed) and the injected clock."""
from __future__ import annotations

import json
import math

from hypothesis import given, strategies as st

from thresholds.clock import resolve_clock
from tests.health_support import NOW_MS, clean_env, copy_demo, run_cli
from thresholds.defaults import THRESHOLDS
from thresholds.sources import Source, number_from, resolve


def test_defaults_are_the_documented_values():
    values = {spec.name: spec.default for spec in THRESHOLDS}
    assert values == {
        "reviewer_stale_ms": 7 * 86_400_000, "reviewer_run_grace_ms": 600_000, "retrieval_stale_ms": 86_400_000,
        "proposal_backlog": 10, "observability_max_bytes": 256 * 1024 * 1024,
        "observability_max_age_ms": 30 * 86_400_000, "index_stale_ms": 7 * 86_400_000, "cap_pressure": 46,
        "delta_surface_lag_ms": 86_400_000, "hook_silence_ms": 1_800_000, "agent_activity_window_ms": 7 * 86_400_000,
        "reviewer_all_skips": 5, "review_backlog_factor": 4, "lock_stale_ms": 300_000, "lock_held_ms": 60_000,
        "lock_contention_per_day": 10, "reviewer_refused_share": 0.5, "probe_timeout_ms": 120_000,
        # Dense Context (issue 16): the seed's caps, KB = 1024 bytes
        "dc_status_max_lines": 80, "dc_status_max_bytes": 6144, "dc_agents_max_lines": 120,
        "dc_agents_max_bytes": 8192, "dc_access_log_stale_ms": 14 * 86_400_000, "dc_stale_share": 50,
    }
    assert all(spec.env.startswith("CORTEX_") for spec in THRESHOLDS)


def test_precedence_config_then_env_then_cli(tmp_path):
    config = tmp_path / "c.json"
    config.write_text(json.dumps({"thresholds": {"proposal_backlog": 3, "retrievalStaleMs": 5000, "cap_pressure": 40}}))
    effective = resolve({"CORTEX_PROPOSAL_BACKLOG": "4", "CORTEX_RETRIEVAL_STALE_MS": "6000"},
                        config_path=str(config), cli=[("proposal_backlog", "5")])
    assert effective.get("proposal_backlog").value == 5 and effective.get("proposal_backlog").source is Source.CLI
    assert effective.get("retrieval_stale_ms").value == 6000
    assert effective.get("retrieval_stale_ms").origin == "CORTEX_RETRIEVAL_STALE_MS"
    assert effective.get("cap_pressure").source is Source.CONFIG and effective.get("cap_pressure").origin == str(config)
    assert effective.get("index_stale_ms").source is Source.DEFAULT
    assert effective.problems == ()


def test_invalid_values_keep_the_previous_value_in_force():
    effective = resolve({"CORTEX_OBSERVABILITY_MAX_BYTES": "inf", "CORTEX_PROPOSAL_BACKLOG": "0"},
                        cli=[("retrieval_stale_ms", "-5"), ("observability_max_age_ms", "1e999"), ("nope", "1")])
    assert effective["observability_max_bytes"] == 256 * 1024 * 1024
    assert effective["proposal_backlog"] == 10
    assert effective["retrieval_stale_ms"] == 86_400_000
    reasons = {(p.name, p.source.value): p.reason for p in effective.problems}
    assert reasons == {
        ("observability_max_bytes", "env"): "not a decimal number (a number of bytes or a size like 10KB, 256MiB, 1GiB)",
        ("proposal_backlog", "env"): "not greater than 0",
        ("retrieval_stale_ms", "cli"): "not greater than 0",
        ("observability_max_age_ms", "cli"): "not finite",
        ("nope", "cli"): "unknown threshold name",
    }


def test_json_booleans_and_strings_are_not_numbers_in_config(tmp_path):
    config = tmp_path / "c.json"
    config.write_text('{"thresholds": {"proposal_backlog": true, "cap_pressure": "40"}}')
    effective = resolve({}, config_path=str(config))
    assert effective["proposal_backlog"] == 10 and effective["cap_pressure"] == 46
    assert {p.name for p in effective.problems} == {"proposal_backlog", "cap_pressure"}


@given(st.one_of(st.text(max_size=30), st.floats(allow_nan=True, allow_infinity=True), st.integers(), st.booleans(),
                 st.none()))
def test_number_from_accepts_exactly_finite_positive_numbers(value):
    number, reason = number_from(value)
    assert (number is None) == (reason is not None)
    if number is not None:
        assert math.isfinite(number) and number > 0
        assert not isinstance(value, bool)


def test_report_lists_every_threshold_with_its_source(tmp_path):
    root = copy_demo(tmp_path)
    result = run_cli("--threshold", "cap_pressure=47", root=root, env=clean_env(CORTEX_RETRIEVAL_STALE_MS="7200000"))
    thresholds = result.report["thresholds"]
    assert set(thresholds) == {spec.name for spec in THRESHOLDS if spec.layout == "lifeos"}  # not Dense Context's
    assert thresholds["cap_pressure"] == {"value": 47, "source": "cli", "origin": "--threshold", "unit": "count"}
    assert thresholds["retrieval_stale_ms"]["source"] == "env"
    assert thresholds["proposal_backlog"] == {"value": 10, "source": "default", "origin": None, "unit": "count"}


def test_a_lowered_threshold_is_really_applied(tmp_path):
    result = run_cli("--threshold", "proposal_backlog=1", root=copy_demo(tmp_path))
    finding = result.finding("proposal-backlog-high")
    assert (finding["detail"]["measured"], finding["detail"]["threshold"]) == (2, 1)
    assert result.code == 1


def test_invalid_threshold_detail_names_value_and_source(tmp_path):
    result = run_cli(root=copy_demo(tmp_path), env=clean_env(CORTEX_OBSERVABILITY_MAX_AGE_MS="-1"))
    detail = result.finding("cortex-threshold-invalid")["detail"]
    assert (detail["name"], detail["value"], detail["source"]) == ("observability_max_age_ms", "-1", "env")
    assert result.report["thresholds"]["observability_max_age_ms"]["source"] == "default"


def test_clock_precedence_and_invalid_values():
    system = lambda: 123_000  # noqa: E731 - the injected real clock
    assert resolve_clock("2026-11-29T12:00:00Z", {"CORTEX_HEALTH_NOW": "2020-01-01"}, system).now_ms == NOW_MS
    assert resolve_clock(None, {"CORTEX_HEALTH_NOW": "2026-11-29T12:00:00Z"}, system).source == "env"
    assert resolve_clock(None, {}, system).now_ms == 123_000
    bad = resolve_clock(None, {"CORTEX_HEALTH_NOW": "2026-11-31T00:00:00Z"}, system)
    assert bad.now_ms == 123_000 and bad.problem and bad.given == "2026-11-31T00:00:00Z"


def test_clock_invalid_is_critical_and_other_checks_still_run(tmp_path):
    result = run_cli(root=copy_demo(tmp_path), now=None, env=clean_env(CORTEX_HEALTH_NOW="yesterday"))
    finding = result.finding("cortex-clock-invalid")
    assert finding["severity"] == "critical" and finding["detail"]["value"] == "yesterday"
    assert finding["detail"]["fallback"] == "real time"
    assert result.code == 2
    assert "retrieval" in result.report["evidence"] and "index-no-index-v1" in result.report["ok_summary"]


def test_env_clock_is_used_when_no_flag(tmp_path):
    result = run_cli(root=copy_demo(tmp_path), now=None, env=clean_env(CORTEX_HEALTH_NOW="2026-11-29T12:00:00Z"))
    assert result.code == 0 and result.report["ts"] == "2026-11-29T12:00:00.000Z"


def test_every_input_is_resolved_once_cli_then_environment_then_default(tmp_path):
    from health.inputs import resolve_inputs
    from health.options import parse

    env = {"CORTEX_INDEX_MANIFEST": "/env/manifest.json", "CORTEX_HEALTH_ROOT": str(tmp_path),
           "CORTEX_HEALTH_NOW": "2026-11-29T12:00:00Z", "CORTEX_PROPOSAL_BACKLOG": "4"}
    (tmp_path / "LIFEOS").mkdir()  # a LifeOS tree (the layout is told from it)
    from_env, _ = parse([], env, tty=False)
    inputs = resolve_inputs(from_env, env)
    assert (inputs.layout.root, inputs.layout.manifest) == (str(tmp_path), "/env/manifest.json")
    assert (inputs.clock.now_ms, inputs.clock.source) == (NOW_MS, "env")
    assert inputs.thresholds.get("proposal_backlog").source.value == "env"
    from_cli, _ = parse(["--index-manifest", "/cli/m.json", "--root", "/r", "--now", "2026-01-01",
                         "--threshold", "proposal_backlog=9"], env, tty=False)
    inputs = resolve_inputs(from_cli, env)
    assert (inputs.layout.root, inputs.layout.manifest, inputs.clock.source) == ("/r", "/cli/m.json", "cli")
    assert inputs.thresholds["proposal_backlog"] == 9
    default = resolve_inputs(parse([], {"HOME": str(tmp_path)}, tty=False)[0], {"HOME": str(tmp_path)})
    assert default.layout.root == str(tmp_path / ".claude") and default.clock.source == "system"
