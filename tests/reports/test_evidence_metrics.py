"""Evidence carries its metrics: each collector declares them beside its collect, one table lists them in order.

reports.measurements walks collectors.metric_table over a report's evidence, so the Prometheus
textfile, the OTLP metrics, the Nagios perfdata and the dashboard are every metric of every
evidence, the same for a run and for its line read back from memory-health.jsonl.
"""
from __future__ import annotations

import io
import subprocess
import sys

import pytest

from collectors.metric import Metric, Summary
from collectors.metric_table import EVIDENCE_METRICS
from health.judge.catalogue.find import lookup
from reports.formats import load
from reports.formats.prometheus import lines_for
from reports.measurements import evidence_metrics, measurements, series
from reports.report import from_document
from tests.health_support import NOW, REPO, clean_env, copy_demo
from tests.latency_scenarios import recall_rows
from tests.ops_support import audit_report

# What each row of the table gives on a tree where every one of them has something to say.
DECLARED = {
    "health_history": ["history_head_seq"],
    "hook_latency": ["hook_duration_seconds", "hook_timeout_seconds"],
    "reviewer": ["reviewer_age_seconds"],
    "retrieval": ["retrieval_age_seconds"],
    "observability": ["observability_oldest_age_seconds", "observability_bytes", "observability_files"],
    "proposals": ["pending_proposals"],
    "hot_memory": ["hot_memory_entries"],
}
RUN_OWN = ["overall", "last_run_timestamp_seconds", "checks", "check_severity", "collector_severity"]
NOT_PERFDATA = {"history_head_seq", "hook_duration_seconds", "hook_timeout_seconds"}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """The typed report of a real audit of the demo with recall rows, after one published run (a chain head)."""
    root = copy_demo(tmp_path_factory.mktemp("metrics"))
    recall_rows(root, [float(ms) for ms in range(10, 210, 10)])
    audit_report(root, write=True)
    return audit_report(root)


def no_limit(name: str, scale: float = 1.0) -> None:
    return None


def render(report, name: str) -> str:
    out = io.StringIO()
    load(name).render(report, out, tty=False)
    return out.getvalue()


def test_every_row_of_the_table_gives_its_declared_metrics(run):
    assert [name for name, _ in EVIDENCE_METRICS] == list(DECLARED)
    for name, metrics in EVIDENCE_METRICS:
        found = list(metrics(run.evidence[name], run.now_ms, no_limit))
        assert all(isinstance(item, (Metric, Summary)) for item in found), name
        assert list(dict.fromkeys(item.name for item in found)) == DECLARED[name], name


def test_every_declared_metric_reaches_prometheus_otlp_nagios_and_the_dashboard_in_todays_order(run):
    declared = [metric for names in DECLARED.values() for metric in names]
    assert [item.name for item in series(run)] == RUN_OWN + declared + ["run_duration_seconds"]
    text = render(run, "prometheus")
    for name in declared:
        kind = "summary" if name == "hook_duration_seconds" else "gauge"
        assert f"# TYPE cortex_health_{name} {kind}\n" in text, name
    otlp = render(run, "otlp-json")
    assert all(f'"cortex_health_{name}"' in otlp for name in declared)
    perfdata = [item.name for item in measurements(run)]
    assert list(dict.fromkeys(perfdata)) == [name for name in declared if name not in NOT_PERFDATA] + [
        "run_duration_seconds"]
    nagios = render(run, "nagios")
    assert all(f"'{name}" in nagios for name in perfdata)
    assert not any(f"'{name}" in nagios for name in NOT_PERFDATA)


def test_warn_and_maximum_come_from_the_reports_thresholds_and_evidence(run):
    by_name = {item.name: item for item in measurements(run)}
    assert by_name["reviewer_age_seconds"].warn == run.threshold("reviewer_stale_ms").value / 1000
    assert by_name["pending_proposals"].warn == run.threshold("proposal_backlog").value
    assert by_name["hot_memory_entries"].maximum == 48 and by_name["observability_files"].warn is None


def test_a_stored_report_graphs_as_the_run_did(run):
    stored = from_document(run.document(), lookup=lookup)
    assert series(stored) == series(run) and measurements(stored) == measurements(run)
    assert render(stored, "prometheus") == render(run, "prometheus")


def test_a_new_collectors_metric_reaches_prometheus_without_editing_reports():
    def widget_metrics(evidence, now_ms, limit):  # what a new collector declares beside its collect
        if evidence.get("status") == "ok":
            yield Metric("widgets", "Widgets counted.", evidence["count"], "count", warn=limit("widget_backlog"))
            yield Summary("widget_wait_seconds", "Wait per widget kind.", "seconds", (("kind", "blue"),),
                          (("0.5", 0.25),), 1.5, 4)

    table = EVIDENCE_METRICS + (("widgets", widget_metrics),)  # its one row in collectors.metric_table
    report = from_document({"ts": NOW, "overall": "ok", "evidence": {"widgets": {"status": "ok", "count": 3}},
                            "thresholds": {"widget_backlog": {"value": 5, "source": "default", "unit": "count"}}})
    lines = lines_for(report, table)
    assert "# TYPE cortex_health_widgets gauge" in lines and "cortex_health_widgets 3" in lines
    assert lines[-5:] == ["# HELP cortex_health_widget_wait_seconds Wait per widget kind.",
                          "# TYPE cortex_health_widget_wait_seconds summary",
                          'cortex_health_widget_wait_seconds{kind="blue",quantile="0.5"} 0.25',
                          'cortex_health_widget_wait_seconds_sum{kind="blue"} 1.5',
                          'cortex_health_widget_wait_seconds_count{kind="blue"} 4']
    assert [(item.name, item.value, item.warn) for item in measurements(report, table)] == [("widgets", 3, 5.0)]
    assert "cortex_health_widgets" not in "\n".join(lines_for(report))  # the default table has no such row


def test_evidence_that_is_not_an_object_or_was_skipped_gives_nothing():
    report = from_document({"ts": NOW, "evidence": {"reviewer": ["x"], "proposals": {"status": "skipped"},
                                                    "hot_memory": {"files": ["x", {"valid_entries": True}]}}})
    assert evidence_metrics(report) == []


def test_the_exit_3_report_loads_no_collector_for_its_metrics():
    code = ("import io, sys; from reports.document import unknown_report; from reports.formats import load; "
            "out = io.StringIO(); load('prometheus').render(unknown_report('x', now_ms=0), out, tty=False); "
            "print('cortex_health_overall 3' in out.getvalue(), sorted(m for m in sys.modules if m in "
            f"{['collectors.metric_table'] + [f'collectors.{name}' for name in DECLARED]!r}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=clean_env(), cwd=REPO)
    assert done.stdout.split("\n")[0] == "True []", done.stdout + done.stderr
