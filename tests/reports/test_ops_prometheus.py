"""Prometheus: the exposition parses (prometheus_client, promtool), the textfile is atomic, node_exporter serves it."""
from __future__ import annotations

import io
import json
import os
import select
import socket
import stat
import subprocess
import time
import urllib.request

import pytest

from reports.formats import load
from health.judge.catalogue.find import lookup
from reports.report import from_document
from tests import health_scenarios as s
from tests.health_support import NOW, copy_demo, memory
from tests.ops_support import documents, health, run_command, tool


@pytest.fixture(scope="module")
def docs(tmp_path_factory) -> dict[str, dict]:
    return documents(tmp_path_factory.mktemp("docs"))


def exposition(document: dict) -> str:
    out = io.StringIO()
    load("prometheus").render(from_document(document, lookup=lookup), out, tty=False)
    return out.getvalue()


def samples(text: str) -> dict[tuple[str, tuple], float]:
    parser = pytest.importorskip("prometheus_client.parser",
                                 reason="prometheus_client is not installed (pip install prometheus_client)")
    found = {}
    for family in parser.text_string_to_metric_families(text):
        if family.name.startswith("cortex_health_"):  # gauges, and the hook latencies' summary
            kind = "summary" if family.name == "cortex_health_hook_duration_seconds" else "gauge"
            assert family.type == kind and family.documentation, family.name
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def test_prometheus_client_parses_every_overall(docs):
    overall = {name: samples(exposition(doc))[("cortex_health_overall", ())] for name, doc in docs.items()}
    assert overall == {"ok": 0, "warn": 1, "critical": 2, "unknown": 3}


def test_metrics_carry_checks_ages_volumes_and_the_run_time(docs):
    found = samples(exposition(docs["warn"]))
    assert found[("cortex_health_check_severity", (("check", "retrieval-stale"), ("collector", "retrieval")))] == 1
    assert found[("cortex_health_check_severity", (("check", "reviewer-fresh"), ("collector", "reviewer")))] == 0
    assert found[("cortex_health_collector_severity", (("collector", "proposals"),))] == 1
    assert found[("cortex_health_checks", (("severity", "warn"),))] == 2
    assert found[("cortex_health_retrieval_age_seconds", ())] == 90_000
    assert found[("cortex_health_pending_proposals", ())] == 11
    assert found[("cortex_health_last_run_timestamp_seconds", ())] == 1_795_953_600
    assert found[("cortex_health_hot_memory_entries", (("file", "da"),))] == 7
    assert found[("cortex_health_observability_bytes", ())] > 0
    assert ("cortex_health_reviewer_age_seconds", ()) in found


def test_unmeasured_values_are_absent_not_zero(docs):
    found = samples(exposition(docs["unknown"]))
    assert ("cortex_health_pending_proposals", ()) not in found
    assert ("cortex_health_reviewer_age_seconds", ()) not in found


def test_hostile_label_values_are_escaped(docs):
    document = json.loads(json.dumps(docs["critical"]))
    document["findings"][0]["id"] = 'odd"id\\with\nnewline'
    found = samples(exposition(document))
    assert found[("cortex_health_check_severity", (("check", 'odd"id\\with\nnewline'), ("collector", "run")))] == 2


def test_promtool_check_metrics_accepts_the_exposition(docs):
    promtool = tool("promtool", "prometheus")
    for name, document in docs.items():
        done = subprocess.run([promtool, "check", "metrics"], input=exposition(document), capture_output=True,
                              text=True, timeout=30)
        assert done.returncode == 0 and not done.stdout.strip() and not done.stderr.strip(), (name, done.stderr)


def test_textfile_is_written_atomically_with_mode_0644(tmp_path):
    root = copy_demo(tmp_path)
    folder = tmp_path / "textfile"
    folder.mkdir()
    target = folder / "cortex_health.prom"
    target.write_text("# old content\n")
    os.chmod(target, 0o600)
    done = health("--root", str(root), "--now", NOW, "--no-write", "--prometheus-textfile", str(target))
    assert done.returncode == 0
    assert os.listdir(folder) == ["cortex_health.prom"]  # no temporary file left behind
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o644
    assert samples(target.read_text())[("cortex_health_overall", ())] == 0
    assert json.loads(done.stdout)["overall"] == "ok"


def test_textfile_refusal_and_failure_are_findings(tmp_path):
    root = copy_demo(tmp_path)
    inside = memory(root) / "cortex_health.prom"
    refused = health("--root", str(root), "--now", NOW, "--no-write", "--prometheus-textfile", str(inside))
    assert refused.returncode == 2 and not inside.exists()
    assert [f["id"] for f in json.loads(refused.stdout)["findings"]] == ["prometheus-textfile-refused"]
    wrong = health("--root", str(root), "--prometheus-textfile", str(tmp_path / "metrics.txt"))
    assert wrong.returncode == 3 and "must end in .prom" in json.loads(wrong.stdout)["reason"]


def test_an_auditor_failure_still_writes_overall_unknown(tmp_path):
    target = tmp_path / "cortex_health.prom"
    target.write_text("cortex_health_overall 0\n")  # the last good run
    done = health("--root", str(tmp_path / "nowhere"), "--prometheus-textfile", str(target), "--format", "nagios")
    assert done.returncode == 3 and done.stdout.startswith("CORTEX HEALTH UNKNOWN")
    assert samples(target.read_text())[("cortex_health_overall", ())] == 3


def test_textfile_path_from_the_environment(tmp_path):
    from tests.health_support import clean_env

    target = tmp_path / "env.prom"
    done = health("--root", str(copy_demo(tmp_path)), "--now", NOW, "--no-write",
                  env=clean_env(CORTEX_HEALTH_PROMETHEUS_TEXTFILE=str(target)))
    assert done.returncode == 0 and samples(target.read_text())[("cortex_health_overall", ())] == 0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_listening(proc: subprocess.Popen, deadline_s: float) -> str:
    """node_exporter's log up to its "Listening on" line (read with a deadline, never a sleep)."""
    log = b""
    end = time.monotonic() + deadline_s
    while b"Listening on" not in log:
        remaining = end - time.monotonic()
        if remaining <= 0 or proc.poll() is not None:
            raise AssertionError(f"node_exporter did not start: {log.decode(errors='replace')}")
        ready, _, _ = select.select([proc.stderr], [], [], remaining)
        if ready:
            chunk = os.read(proc.stderr.fileno(), 65536)
            if not chunk:
                raise AssertionError(f"node_exporter exited: {log.decode(errors='replace')}")
            log += chunk
    return log.decode(errors="replace")


def test_node_exporter_serves_the_textfile_over_http(tmp_path):
    exporter = tool("prometheus-node-exporter", "prometheus-node-exporter")
    root = copy_demo(tmp_path)
    s.proposals_backlog(root)
    folder = tmp_path / "textfile"
    folder.mkdir()
    done = health("--root", str(root), "--now", NOW, "--no-write", "--prometheus-textfile",
                  str(folder / "cortex_health.prom"))
    assert done.returncode == 1
    port = free_port()
    proc = subprocess.Popen([exporter, f"--web.listen-address=127.0.0.1:{port}", "--collector.disable-defaults",
                             "--collector.textfile", f"--collector.textfile.directory={folder}"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        wait_for_listening(proc, 15)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
            body = response.read().decode()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        proc.stderr.close()
    found = samples(body)
    assert found[("cortex_health_overall", ())] == 1
    assert found[("cortex_health_check_severity", (("check", "proposal-backlog-high"), ("collector", "proposals")))] == 1
    assert found[("node_textfile_scrape_error", ())] == 0
    assert any(name == "node_textfile_mtime_seconds" and dict(labels).get("file", "").endswith("cortex_health.prom")
               for name, labels in found)


def test_alert_rules_pass_promtool_check_and_unit_tests():
    promtool = tool("promtool", "prometheus")
    from tests.health_support import REPO

    checked = run_command([promtool, "check", "rules", str(REPO / "contrib/prometheus/cortex-health.rules.yml")])
    assert checked.returncode == 0 and "SUCCESS: 6 rules found" in checked.stdout, checked.stdout + checked.stderr
    tested = run_command([promtool, "test", "rules", str(REPO / "tests/prometheus/cortex-health.rules.test.yml")])
    assert tested.returncode == 0 and "SUCCESS" in tested.stdout, tested.stdout + tested.stderr
