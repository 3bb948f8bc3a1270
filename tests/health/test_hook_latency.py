"""Hook latency from real use: the hooks' own rows over the last 24 h, p50/p95 per hook, against the registered timeout."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, strategies as st

from collectors.lifeos.hook_latency import percentile, row_sample
from tests.health_support import DAY_MS, NOW, NOW_MS, clean_env, copy_demo, obs, run_cli, wait_for_gate
from tests.latency_scenarios import recall_rows
from tests.ops_support import tool


def latency(result, hook: str) -> dict:
    return next(item for item in result.report["evidence"]["hook_latency"]["hooks"] if item["hook"] == hook)


def settings_with(root, **timeouts) -> None:
    settings = json.loads((root / "settings.json").read_text())
    for groups in settings["hooks"].values():
        for group in groups:
            for hook in group["hooks"]:
                for name, value in timeouts.items():
                    if name in hook["command"]:
                        if value is None:
                            hook.pop("timeout", None)
                        else:
                            hook["timeout"] = value
    (root / "settings.json").write_text(json.dumps(settings))


def test_p50_and_p95_of_the_last_24_hours_against_half_the_timeout(tmp_path):
    root = copy_demo(tmp_path)
    recall_rows(root, [float(ms) for ms in range(10, 210, 10)])  # 10 .. 200 ms
    result = run_cli(root=root)
    item = latency(result, "recall")
    assert (item["samples"], item["p50_ms"], item["p95_ms"], item["max_ms"]) == (20, 100.0, 190.0, 200.0)
    assert item["timeout_ms"] == 10_000 and item["timeout_declared"] is True
    assert "hook-latency-ok:recall" in result.report["ok_summary"]
    settings_with(root, recall="0.3")  # not a number: Claude Code's default applies
    assert (latency(run_cli(root=root), "recall")["timeout_ms"], latency(run_cli(root=root), "recall")[
        "timeout_declared"]) == (60_000, False)
    settings_with(root, recall=0.3)  # 300 ms: half is 150 ms, below the p95 of 190 ms
    finding = run_cli(root=root).finding("hook-slow:recall")
    assert finding["severity"] == "warn" and finding["detail"]["threshold"] == 150
    assert "recall p95 190 ms (p50 100 ms, max 200 ms, 20 rows in the last 24 h)" in finding["message"]


def test_rows_older_than_a_day_or_in_the_future_do_not_count(tmp_path):
    root = copy_demo(tmp_path)
    recall_rows(root, [9000.0] * 5, hours_ago=25)  # slow, but yesterday
    item = latency(run_cli(root=root), "recall")
    assert item["samples"] == 0
    assert "hook-latency-no-rows:recall" in run_cli(root=root).report["ok_summary"]
    recall_rows(root, [9000.0] * 5, hours_ago=-2)  # written by a clock two hours ahead
    assert latency(run_cli(root=root), "recall")["samples"] == 0


def test_a_hook_without_a_timeout_gets_claude_codes_60_seconds_and_an_unregistered_one_is_not_judged(tmp_path):
    root = copy_demo(tmp_path)
    recall_rows(root, [35_000.0] * 10)
    settings_with(root, recall=None)
    result = run_cli(root=root)
    finding = result.finding("hook-slow:recall")
    assert finding["detail"]["timeout_ms"] == 60_000 and "Claude Code's default timeout of 1.0 min" in finding["message"]
    settings = json.loads((root / "settings.json").read_text())
    settings["hooks"]["UserPromptSubmit"][0]["hooks"] = [settings["hooks"]["UserPromptSubmit"][0]["hooks"][0]]
    (root / "settings.json").write_text(json.dumps(settings))
    result = run_cli(root=root)
    assert not [i for i in result.ids() + result.report["ok_summary"] if i.endswith(":recall") and "latency" in i
                or i == "hook-slow:recall"]
    assert latency(result, "recall")["timeout_ms"] is None and latency(result, "recall")["samples"] == 10


def test_review_fire_rows_carry_their_duration_and_the_gate_reports_carry_theirs(tmp_path):
    root = copy_demo(tmp_path)
    env = clean_env(CORTEX_MEMORY_ROOT=str(root / "LIFEOS" / "MEMORY"), CORTEX_NOW=NOW)
    for session in ("s1", "s2"):
        subprocess.run([sys.executable, "-m", "cortex", "review", "fire"], input=json.dumps({"session_id": session}),
                       text=True, env=env, check=True, capture_output=True, timeout=60)
    fires = [json.loads(line) for line in (obs(root) / "reviewer-fires.jsonl").read_text().splitlines()]
    assert all(type(row["duration_ms"]) is float and 0 <= row["duration_ms"] < 60_000 for row in fires)
    gate = subprocess.run([sys.executable, "-m", "health", "gate", "--timeout", "60", "--root", str(root), "--now", NOW],
                          env=clean_env(), capture_output=True, text=True, timeout=120)
    assert gate.returncode == 0, gate.stderr
    wait_for_gate(root)  # the gate returned at once; its check runs detached
    result = run_cli(root=root)
    assert latency(result, "fire")["samples"] == 2 and latency(result, "gate")["samples"] == 1
    assert {"hook-latency-ok:fire", "hook-latency-ok:gate"} <= set(result.report["ok_summary"])


def test_the_writers_exact_forms_and_the_strict_decoder_agree():
    rows = [(b'{"ts":"2026-11-29T11:00:00.000Z","query_hash":"ab","returned_count":1,"duration_ms":12.5,'
             b'"top_score":1.0}', "recall", (NOW_MS - 3_600_000, 12.5)),
            (b'{"duration_ms":12.5,"ts":"2026-11-29T11:00:00.000Z","query_hash":"ab","returned_count":1}', "recall",
             (NOW_MS - 3_600_000, 12.5)),  # another key order: decoded strictly
            (b'{"ts":"2026-11-29T11:00:00.000Z","session":"s","turns":1,"started":false,"reason":"1/8 turns",'
             b'"pid":null,"duration_ms":3.25}', "fire", (NOW_MS - 3_600_000, 3.25)),
            (b'{"ts":"2026-11-29T11:00:00.000Z","session":"s","turns":1,"started":false,"reason":"x","pid":null}',
             "fire", None),  # an older fire row: no duration
            (b'{"schema":"cortex-health/v1","ts":"2026-11-29T11:00:00.000Z","overall":"ok","evidence":{"x":'
             b'{"duration_ms":1}},"duration_ms":42.0,"reason":null,"chain":{"seq":3,"prev":"' + b"0" * 64 + b'"}}',
             "gate", (NOW_MS - 3_600_000, 42.0)),
            (b'{"schema":"cortex-health/v1","ts":"2026-11-29T11:00:00.000Z","duration_ms":"fast","reason":null}',
             "gate", None),
            (b"not json", "gate", None)]
    for line, hook, expected in rows:
        assert row_sample(hook, line, [10]) == expected, line


def test_nearest_rank_percentiles():
    assert percentile([1.0], 0.95) == 1.0
    assert percentile([float(i) for i in range(1, 101)], 0.5) == 50.0
    assert percentile([float(i) for i in range(1, 101)], 0.95) == 95.0


@pytest.fixture
def slow_tree(tmp_path):
    root = copy_demo(tmp_path)
    recall_rows(root, [float(ms) for ms in range(10, 210, 10)])
    return root


def test_prometheus_exports_a_summary_that_promtool_and_the_client_parser_accept(slow_tree):
    from prometheus_client.parser import text_string_to_metric_families

    text = run_cli("--format", "prometheus", root=slow_tree).stdout
    families = {family.name: family for family in text_string_to_metric_families(text)}
    summary = families["cortex_health_hook_duration_seconds"]
    assert summary.type == "summary"
    samples = {(sample.name, sample.labels.get("quantile")): sample.value for sample in summary.samples
               if sample.labels["hook"] == "recall"}
    assert samples[("cortex_health_hook_duration_seconds", "0.5")] == 0.1
    assert samples[("cortex_health_hook_duration_seconds", "0.95")] == 0.19
    assert samples[("cortex_health_hook_duration_seconds_count", None)] == 20
    assert families["cortex_health_hook_timeout_seconds"].samples[0].value == 10
    promtool = tool("promtool", "prometheus")
    done = subprocess.run([promtool, "check", "metrics"], input=text, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and not (done.stdout + done.stderr).strip(), done.stdout + done.stderr


def test_the_window_reads_further_back_when_the_last_rows_are_all_recent(tmp_path):
    root = copy_demo(tmp_path)
    recall_rows(root, [5.0] * 600)  # more rows than the first tail, all within the day
    assert latency(run_cli(root=root), "recall")["samples"] == 600
    assert DAY_MS > 600 * 60_000


def test_a_tail_read_twice_is_read_once_and_never_outlives_a_change(tmp_path):
    from collectors.readers import jsonl

    log = tmp_path / "memory-health.jsonl"
    log.write_bytes(b'{"a":1}\n{"a":2}\n')
    first = jsonl.tail_of(str(log), 200)
    assert first[1] == [b'{"a":1}', b'{"a":2}'] and jsonl.tail_of(str(log), 200) == first
    first[1].append(b"mutated by a caller")  # a caller's list is its own
    assert jsonl.tail_of(str(log), 200)[1] == [b'{"a":1}', b'{"a":2}']
    with log.open("ab") as out:
        out.write(b'{"a":3}\n')
    assert jsonl.tail_of(str(log), 200)[1][-1] == b'{"a":3}'
    assert jsonl.tail_of(str(log), 1)[1] == [b'{"a":3}']


@given(st.integers(1, 3000), st.sampled_from([0.5, 0.95, 0.99, 0.1, 1.0]) | st.floats(0, 1))
def test_the_percentile_rank_is_math_ceil_s(size, share):
    import math

    ordered = [float(i) for i in range(size)]
    assert percentile(ordered, share) == ordered[max(0, math.ceil(share * size) - 1)]
