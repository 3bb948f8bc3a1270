"""`cortex-health --otlp` and `--format otlp-json` against a real loopback receiver: what arrives decodes strictly with
the official definitions and says what the run and the hook logs say, once; failures are bounded warnings."""
from __future__ import annotations

import io
import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from health.cli import run
from tests import health_scenarios as s
from tests.health_support import NOW, NOW_MS, REPO, clean_env, copy_demo, obs
from tests.ops_support import CONSOLE_SCRIPT
from tests.otlp_support import Receiver, attributes, closed_port, decode, log_records, metrics, spans

SECRET = "s3cret-token-4711"
DEMO_OPERATIONS = 10  # the demo's 3 recalls, 2 (legacy) hot-memory writes and 5 reviewer runs


@pytest.fixture
def tree(tmp_path) -> Path:
    return copy_demo(tmp_path)


def environ(tmp_path: Path, **extra: str) -> dict[str, str]:
    return clean_env(CORTEX_CACHE_DIR=str(tmp_path / "cache"), HOME=str(tmp_path / "home"), **extra)


def check(root: Path, env: dict, *args: str) -> tuple[int, str, str]:
    """One in-process `cortex-health --root ROOT --now NOW --no-write ARGS`: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = run(["--root", str(root), "--now", NOW, "--no-write", *args], environ=env, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def otlp(root: Path, env: dict, *args: str) -> tuple[int, dict, str]:
    code, out, err = check(root, env, "--otlp", "--format", "json", *args)
    return code, json.loads(out), err


def ids(report: dict) -> list[str]:
    return [finding["id"] for finding in report["findings"]]


def test_a_fresh_install_exports_to_a_local_receiver_with_only_the_standard_variables(tree, tmp_path):
    textfile = tmp_path / "cortex_health.prom"
    with Receiver() as receiver:
        env = environ(tmp_path, OTEL_EXPORTER_OTLP_ENDPOINT=receiver.url)
        done = subprocess.run([CONSOLE_SCRIPT, "--root", str(tree), "--now", NOW, "--no-write", "--otlp", "--json",
                               "--prometheus-textfile", str(textfile)], capture_output=True, text=True, env=env,
                              cwd=REPO, timeout=120)
        plain = subprocess.run([CONSOLE_SCRIPT, "--root", str(tree), "--now", NOW, "--no-write", "--json"],
                               capture_output=True, text=True, env=env, cwd=REPO, timeout=120)
    report = json.loads(done.stdout)
    assert done.returncode == plain.returncode and ids(report) == ids(json.loads(plain.stdout)), done.stderr
    assert sorted(path for path, _, _ in receiver.received) == ["/v1/logs", "/v1/metrics", "/v1/traces"]
    assert all(headers["Content-Type"] == "application/json" for _, headers, _ in receiver.received)
    from tests.reports.test_otel_bodies import otlp_samples
    from prometheus_client.parser import text_string_to_metric_families

    textfile_samples = {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
                        for family in text_string_to_metric_families(textfile.read_text())
                        for sample in family.samples}
    exported = otlp_samples(_gauges_only(receiver.decoded("metrics")[0]))
    assert textfile_samples and textfile_samples == exported
    records = log_records(receiver.decoded("logs"))
    assert [attributes(record.attributes)["cortex_health.finding.id"] for record in records] == ids(report)
    assert len(spans(receiver.decoded("traces"))) == DEMO_OPERATIONS


def _gauges_only(message):
    """The request without the memory operations' histogram (the textfile has no such series; it has the
    hook latencies' summary)."""
    for resource in message.resource_metrics:
        for scope in resource.scope_metrics:
            kept = [metric for metric in scope.metrics if metric.WhichOneof("data") in ("gauge", "summary")]
            del scope.metrics[:]
            scope.metrics.extend(kept)
    return message


def test_each_hook_row_is_one_genai_span_with_its_times_counts_and_errors(tree, tmp_path):
    with Receiver() as receiver:
        otlp(tree, environ(tmp_path, OTEL_EXPORTER_OTLP_ENDPOINT=receiver.url))
    found = spans(receiver.decoded("traces"))
    names = sorted(span.name for span in found)
    assert names == ["create_memory"] * 2 + ["review_memory"] * 5 + ["search_memory"] * 3
    assert len({span.trace_id for span in found}) == len({span.span_id for span in found}) == len(found)
    by_start = {span.start_time_unix_nano: span for span in found}
    recall = by_start[1795939929440 * 1_000_000]  # 2026-11-29T08:12:09.440Z, 18.4 ms, 4 records
    assert recall.end_time_unix_nano - recall.start_time_unix_nano == 18_400_000 and recall.kind == 1
    got = attributes(recall.attributes)
    assert got["gen_ai.operation.name"] == "search_memory" and got["gen_ai.memory.record.count"] == 4
    assert len(got["gen_ai.memory.store.id"]) == 16 and str(tree) not in str(got)
    failed = [span for span in found if "error.type" in attributes(span.attributes)]
    assert len(failed) == 1 and failed[0].status.code == 2
    assert attributes(failed[0].attributes)["error.type"] == "review_failed"
    write = next(span for span in found if span.name == "create_memory")
    assert attributes(write.attributes)["cortex.memory.file"] in ("principal", "da")
    histogram = metrics(receiver.decoded("metrics"))["gen_ai.client.operation.duration"].histogram
    assert histogram.aggregation_temporality == 2 and sum(point.count for point in histogram.data_points) == 8


def test_nothing_is_sent_twice_and_only_new_rows_follow(tree, tmp_path):
    with Receiver() as receiver:
        env = environ(tmp_path, OTEL_EXPORTER_OTLP_ENDPOINT=receiver.url)
        otlp(tree, env)
        otlp(tree, env)
        assert len(receiver.bodies("metrics")) == len(receiver.bodies("logs")) == 2
        assert len(receiver.bodies("traces")) == 1  # the second export had no new operation to send
        s.append(obs(tree) / "memory-retrievals.jsonl", s.retrieval_row(NOW_MS - 60_000, returned_count=7))
        s.append(obs(tree) / "reviewer-fires.jsonl", {"ts": "2026-11-29T11:59:30.000Z", "session": "x", "turns": 3,
                                                      "started": False, "reason": "3/5 turns", "pid": None})
        otlp(tree, env)
        histograms = [metrics([message])["gen_ai.client.operation.duration"] for message in receiver.decoded("metrics")]
    new = {span.name: attributes(span.attributes) for span in spans([receiver.decoded("traces")[-1]])}
    assert sorted(new) == ["fire_review", "search_memory"] and new["search_memory"]["gen_ai.memory.record.count"] == 7
    assert new["fire_review"] == {"gen_ai.operation.name": "fire_review", "cortex.review.started": False,
                                  "gen_ai.memory.store.id": new["search_memory"]["gen_ai.memory.store.id"],
                                  "cortex.review.turns": 3}
    recalls = [next(p for p in h.histogram.data_points if attributes(p.attributes) == {
        "gen_ai.operation.name": "search_memory"}).count for h in histograms]
    assert recalls == [3, 3, 4]  # cumulative: the same after an empty export, one more after the new recall


@pytest.mark.parametrize("status, resent", [(400, False), (401, True), (413, False), (500, True), (503, True)])
def test_an_error_answer_is_a_warning_naming_the_endpoint_and_status_never_the_headers(tree, tmp_path, status, resent):
    with Receiver(status) as receiver:
        env = environ(tmp_path, OTEL_EXPORTER_OTLP_ENDPOINT=receiver.url,
                      OTEL_EXPORTER_OTLP_HEADERS=f"authorization=Bearer%20{SECRET}")
        code, report, err = otlp(tree, env)
        assert receiver.received[0][1]["authorization"] == f"Bearer {SECRET}"
        receiver.status = 200
        otlp(tree, env)
        assert len(spans([decode("traces", body) for body in receiver.bodies("traces")[1:]])) == (
            DEMO_OPERATIONS if resent else 0)
    plain_code, plain, _ = check(tree, env, "--format", "json")
    failure = next(finding for finding in report["findings"] if finding["id"] == "otlp-export-failed")
    assert failure["severity"] == "warn" and f"HTTP {status}" in failure["message"]
    assert {item["signal"]: item["status"] for item in failure["detail"]["failures"]} == {
        "metrics": status, "logs": status, "traces": status}
    assert failure["detail"]["failures"][0]["endpoint"] == f"{receiver.url}/v1/metrics"
    assert ids(report) == ids(json.loads(plain)) + ["otlp-export-failed"] and code == max(plain_code, 1)
    assert SECRET not in json.dumps(report) + err


def test_a_closed_port_is_a_warning_and_the_spans_wait_for_the_next_export(tree, tmp_path):
    env = environ(tmp_path, OTEL_EXPORTER_OTLP_ENDPOINT=f"http://127.0.0.1:{closed_port()}")
    _, report, _ = otlp(tree, env)
    failure = next(finding for finding in report["findings"] if finding["id"] == "otlp-export-failed")
    assert {item["reason"] for item in failure["detail"]["failures"]} == {"connection refused"}
    with Receiver() as receiver:
        otlp(tree, {**env, "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.url})
    assert len(spans(receiver.decoded("traces"))) == DEMO_OPERATIONS


def test_an_endpoint_that_never_answers_costs_the_timeout_once_for_all_signals(tree, tmp_path):
    with Receiver(hang=True) as receiver:
        env = environ(tmp_path, OTEL_EXPORTER_OTLP_ENDPOINT=receiver.url, OTEL_EXPORTER_OTLP_TIMEOUT="400")
        started = time.monotonic()
        code, report, _ = otlp(tree, env)
        elapsed = time.monotonic() - started
        assert len(receiver.received) == 3  # every signal was posted, once
    failure = next(finding for finding in report["findings"] if finding["id"] == "otlp-export-failed")
    assert {item["reason"] for item in failure["detail"]["failures"]} == {"no answer within 400 ms"}
    assert 0.4 <= elapsed < 0.4 + 8, elapsed  # three POSTs at once: one timeout, not three (plus the audit itself)
    assert code >= 1


def test_plain_http_to_another_host_is_refused_before_any_connection(tree, tmp_path):
    env = environ(tmp_path, OTEL_EXPORTER_OTLP_ENDPOINT="http://user:pw@otlp.example.invalid:4318/?token=t")
    _, report, _ = otlp(tree, env)
    failure = next(finding for finding in report["findings"] if finding["id"] == "otlp-export-failed")
    reasons = {item["reason"] for item in failure["detail"]["failures"]}
    assert len(reasons) == 1 and reasons.pop().startswith("refused: plain http:// is used only to a loopback")
    assert "pw" not in failure["message"] and "token=t" not in failure["message"]
    assert failure["detail"]["failures"][0]["endpoint"] == "http://otlp.example.invalid:4318/v1/metrics"


def test_a_partial_success_is_noted_and_gzip_is_honoured(tree, tmp_path):
    answer = json.dumps({"partialSuccess": {"rejectedSpans": "2", "errorMessage": "too old"}}).encode()
    with Receiver(answer=answer) as receiver:
        env = environ(tmp_path, OTEL_EXPORTER_OTLP_ENDPOINT=receiver.url, OTEL_EXPORTER_OTLP_COMPRESSION="gzip")
        _, report, err = otlp(tree, env)
    assert "otlp-export-failed" not in ids(report)
    assert "traces: the receiver accepted the request but rejected 2 of its items" in err and "too old" not in err
    assert {headers.get("Content-Encoding") for _, headers, _ in receiver.received} == {"gzip"}
    assert len(spans(receiver.decoded("traces"))) == DEMO_OPERATIONS


def test_a_disabled_signal_is_not_sent_and_its_spans_are_not_kept(tree, tmp_path):
    with Receiver() as receiver:
        env = environ(tmp_path, OTEL_EXPORTER_OTLP_ENDPOINT=receiver.url, OTEL_TRACES_EXPORTER="none")
        otlp(tree, env)
        otlp(tree, {**env, "OTEL_TRACES_EXPORTER": "otlp"})
    assert sorted(path for path, _, _ in receiver.received) == ["/v1/logs"] * 2 + ["/v1/metrics"] * 2


def test_otlp_json_prints_the_same_requests_and_has_a_cursor_of_its_own(tree, tmp_path):
    env = environ(tmp_path)
    code, out, err = check(tree, env, "--format", "otlp-json")
    first = out.splitlines()
    assert [json.loads(line).popitem()[0] for line in first] == ["resourceMetrics", "resourceLogs", "resourceSpans"]
    assert len(spans([decode("traces", first[2])])) == DEMO_OPERATIONS and decode("metrics", first[0])
    report = json.loads(check(tree, env, "--format", "json")[1])
    assert len(log_records([decode("logs", first[1])])) == len(report["findings"])
    second = check(tree, env, "--format", "otlp-json")[1].splitlines()
    assert len(second) == 2 and second[1] == first[1] and histogram(second[0]) == histogram(first[0])
    with Receiver() as receiver:  # an --otlp endpoint keeps its own position
        otlp(tree, {**env, "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.url})
    assert len(spans(receiver.decoded("traces"))) == DEMO_OPERATIONS
    assert "2 rows" not in err


def histogram(line: str):
    return metrics([decode("metrics", line)])["gen_ai.client.operation.duration"]


def test_a_damaged_cursor_means_a_full_read_with_the_same_histogram(tree, tmp_path):
    env = environ(tmp_path)
    first = check(tree, env, "--format", "otlp-json")[1].splitlines()
    folder = tmp_path / "cache" / "otlp"
    cursors = [path for path in folder.rglob("*.json")]
    assert len(cursors) == 3  # recalls, writes, reviewer runs (the demo has no fires log)
    for path in cursors:
        path.write_text(path.read_text()[:-7])
    again = check(tree, env, "--format", "otlp-json")[1].splitlines()
    assert len(spans([decode("traces", again[2])])) == DEMO_OPERATIONS
    assert histogram(again[0]) == histogram(first[0])  # cumulative: it does not depend on the cursor
    assert not [path for path in folder.rglob("*") if path.name.startswith(".staging-")]


def test_an_export_already_running_keeps_its_rows_to_itself(tree, tmp_path):
    import fcntl

    from cortex.core.cachedir import cache_dir

    env = environ(tmp_path)
    folder = cache_dir(env, "otlp", str(tree / "LIFEOS" / "MEMORY"))
    held = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(held, fcntl.LOCK_EX)
        code, out, err = check(tree, env, "--format", "otlp-json")
    finally:
        os.close(held)
    assert len(out.splitlines()) == 2 and "another export of this tree is running" in err
    assert len(check(tree, env, "--format", "otlp-json")[1].splitlines()) == 3


def test_the_newest_operations_are_kept_when_a_backlog_is_over_the_limit(tree, tmp_path):
    from health.options import parse
    from health.run import audit
    from reports.otlp.live import live_bodies

    env = environ(tmp_path)
    options, _ = parse(["--root", str(tree), "--now", NOW, "--no-write"], env, tty=False)
    done = audit(options, env)
    bodies = live_bodies(done.report(), done.layout, env, "test", limit=3)
    kept = spans([decode("traces", json.dumps(bodies.traces))])
    bodies.discard()
    assert len(kept) == 3 and f"{DEMO_OPERATIONS - 3} older memory operations" in " ".join(bodies.notes)
    every = live_bodies(done.report(), done.layout, env, "test")
    ends = sorted(span.end_time_unix_nano for span in spans([decode("traces", json.dumps(every.traces))]))
    every.discard()
    assert len(ends) == DEMO_OPERATIONS and sorted(span.end_time_unix_nano for span in kept) == ends[-3:]


def test_no_query_text_or_hash_leaves_even_when_content_capture_is_on(tree, tmp_path):
    env = environ(tmp_path, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT="true")
    traces = check(tree, env, "--format", "otlp-json")[1].splitlines()[2]
    assert "query" not in traces and "9f2c41d07be85a13" not in traces


def test_an_auditor_that_cannot_run_still_exports_overall_unknown(tmp_path):
    with Receiver() as receiver:
        code, out, err = check(tmp_path / "nowhere", environ(tmp_path, OTEL_EXPORTER_OTLP_ENDPOINT=receiver.url),
                               "--otlp")
    assert code == 3 and sorted(path for path, _, _ in receiver.received) == ["/v1/logs", "/v1/metrics"]
    overall = metrics(receiver.decoded("metrics"))["cortex_health_overall"].gauge.data_points[0]
    assert overall.as_int == 3


def test_a_dense_context_tree_exports_its_audit_and_no_spans(tmp_path):
    with Receiver() as receiver:
        check(REPO / "fixtures" / "dense-context", environ(tmp_path, OTEL_EXPORTER_OTLP_ENDPOINT=receiver.url),
              "--otlp")
    assert sorted(path for path, _, _ in receiver.received) == ["/v1/logs", "/v1/metrics"]
    resource = attributes(receiver.decoded("metrics")[0].resource_metrics[0].resource.attributes)
    assert resource["cortex.layout"] == "dense-context"


def test_the_plain_audit_never_loads_the_exporter(tree, tmp_path):
    probe = ("import sys, io; from health.cli import run; run(sys.argv[1:], stdout=io.StringIO()); "
             "print(sorted(m for m in sys.modules if m.startswith(('health.otel', 'reports.otlp', "
             "'collectors.lifeos.memory_operations', 'http.client', 'ssl'))))")
    argv = ["--root", str(tree), "--now", NOW, "--no-write", "--json"]
    done = subprocess.run([os.sys.executable, "-c", probe, *argv], capture_output=True, text=True, cwd=REPO,
                          env=environ(tmp_path), timeout=120)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_setup_otel_prints_a_collector_on_loopback_with_a_debug_exporter():
    import yaml

    out, err = io.StringIO(), io.StringIO()
    from health.setup_snippets import main

    assert main(["otel"], stdout=out, stderr=err) == 0 and "next:" in err.getvalue()
    config = yaml.safe_load(out.getvalue())
    assert config["receivers"]["otlp"]["protocols"]["http"]["endpoint"] == "127.0.0.1:4318"
    assert "debug" in config["exporters"]
    assert {name: pipeline["exporters"] for name, pipeline in config["service"]["pipelines"].items()} == {
        "metrics": ["debug"], "logs": ["debug"], "traces": ["debug"]}
    assert "# otlphttp:" in out.getvalue() and "https://" in out.getvalue()
