"""Stage boundaries: stdlib-only fast path, one check list that wires every stage, collector isolation."""
from __future__ import annotations

import io
import json
import subprocess
import sys

from collectors.lifeos.layout import Layout
from collectors.runner import Collector, collect_all
from health.judge import checks
from thresholds.clock import resolve_clock
from health.cli import run
from health.judge.evaluate import evaluate
from health.judge.model import Assessment, CollectorFailure, Finding, Overall, Severity
from health.judge.rules import Rule
from thresholds.sources import resolve
from reports.formats import load, names
from health.judge.catalogue.find import lookup
from reports.report import from_document
from tests.health_support import DEMO, NOW, REPO, clean_env, copy_demo

FAST_PATH = """
import os, sys, json
from collectors.lifeos.layout import Layout
from collectors.runner import collect_all
from health.judge.checks import collectors, rules
from thresholds.clock import resolve_clock
from health.judge.evaluate import evaluate
from reports.document import build_report
from thresholds.sources import resolve
layout = Layout.for_root(sys.argv[1], environ=os.environ)  # PATH: the demo's hook commands resolve
clock = resolve_clock(sys.argv[2], {})
thresholds = resolve({})
evidence = collect_all(layout, collectors())
assessment = evaluate(evidence, thresholds, clock, rules())
build_report(assessment=assessment, evidence=evidence, thresholds=thresholds, clock=clock, root=layout.root, duration_ms=0)
print(json.dumps({"overall": assessment.overall.value,
                  "heavy": sorted(m for m in ("pydantic", "rich", "psutil") if m in sys.modules)}))
"""


def test_collect_and_evaluate_are_stdlib_only():
    out = subprocess.run([sys.executable, "-c", FAST_PATH, str(DEMO), NOW], capture_output=True, text=True,
                         env=clean_env(), cwd=REPO, check=True).stdout
    assert json.loads(out) == {"overall": "ok", "heavy": []}


def test_json_output_does_not_import_rich():
    code = ("import sys; from health.cli import run; "
            f"rc = run(['--root', {str(DEMO)!r}, '--now', {NOW!r}, '--no-write', '--json']); "
            "print('rich' in sys.modules, file=sys.stderr); sys.exit(rc)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=clean_env(), cwd=REPO)
    assert done.returncode == 0 and done.stderr.strip() == "False"


def test_the_check_list_wires_every_collector_to_its_rule_and_entries_in_report_order():
    ours = ["memory_root", "install", "heartbeats", "hook_failures", "reviewer_config", "reviewer", "review_cadence",
            "reviewer_lifecycle", "dispatch_failures", "locks", "retrieval", "hook_latency", "proposals",
            "observability", "index", "search_cache", "corpus", "hot_memory", "hot_content", "review_state",
            "health_history"]
    assert checks.names(checks.CHECKS) == ours
    assert [rule.collector for rule in checks.rules()] == [None, *ours]  # the run's inputs first
    for row in checks.CHECKS:
        assert callable(row.collector.collect) and callable(row.judge) and row.entries, row.name
    catalogue = checks.catalogue(checks.CHECKS)
    assert [c.collector for c in catalogue if c.collector] == [n for n in ours for _ in checks.CHECKS[ours.index(n)].entries]
    assert {"json", "text"} <= set(names())


def test_evidence_that_no_rule_judges_is_critical():
    layout = Layout.for_root(str(DEMO), environ=clean_env())  # the hooks' commands resolve on its PATH
    probe = Collector("lonely_probe", lambda _layout: {"status": "ok"})
    evidence = collect_all(layout, (*checks.collectors(), probe))
    assessment = evaluate(evidence, resolve({}), resolve_clock(NOW, {}), checks.rules())
    unjudged = [f for f in assessment.findings if f.id == "lonely-probe-evidence-unjudged"]
    assert assessment.overall is Overall.CRITICAL and len(unjudged) == 1
    assert unjudged[0].severity is Severity.CRITICAL
    # the same evidence with a rule that judges it is not flagged
    judged = evaluate(evidence, resolve({}), resolve_clock(NOW, {}), (*checks.rules(), Rule("lonely_probe", lambda e, c: ())))
    assert judged.overall is Overall.OK


def test_the_evaluator_applies_only_the_rules_it_is_given():
    evidence = {"index": CollectorFailure("index", "boom")}
    assessment = evaluate(evidence, resolve({}), resolve_clock(NOW, {}), ())
    assert [f.id for f in assessment.findings] == ["index-collector-error"]


def test_every_format_renders_every_overall():
    for overall, findings in ((Overall.OK, ()), (Overall.CRITICAL, (Finding("x-y", Severity.CRITICAL, "[b]m[/b]"),))):
        assert Assessment(findings).overall is overall
    document = json.loads(subprocess.run([sys.executable, "-m", "health", "--root", str(DEMO), "--now", NOW,
                                          "--no-write"], capture_output=True, text=True, env=clean_env(),
                                         cwd=REPO).stdout)
    for name in names():
        out = io.StringIO()
        load(name).render(from_document(document, lookup=lookup), out, tty=False)
        assert out.getvalue().strip(), name


def explode(layout):
    raise RuntimeError("disk on fire")


def run_with(checks_list, root) -> tuple[int, dict]:
    out, err = io.StringIO(), io.StringIO()
    code = run(["--root", str(root), "--now", NOW, "--no-write", "--json"], environ=clean_env(), stdout=out,
               stderr=err, checks=checks_list)
    return code, json.loads(out.getvalue())


def test_a_collector_that_raises_is_critical_and_isolated(tmp_path):
    root = copy_demo(tmp_path)
    probe = checks.CheckRow(Collector("exploding_probe", explode), lambda evidence, context: (), ())
    code, report = run_with((probe, *checks.CHECKS), root)
    assert code == 2
    finding = next(f for f in report["findings"] if f["id"] == "exploding-probe-collector-error")
    assert finding["severity"] == "critical" and "disk on fire" in finding["detail"]["error"]
    assert report["evidence"]["exploding_probe"]["status"] == "error"
    assert report["evidence"]["reviewer"]["status"] == "ok" and "reviewer-fresh" in report["ok_summary"]


def test_a_real_collector_failure_becomes_its_collector_error(tmp_path):
    # A listed collector replaced by one that raises: the rule is skipped, the id names it.
    root = copy_demo(tmp_path)
    broken = tuple(row._replace(collector=Collector("index", explode)) if row.name == "index" else row
                   for row in checks.CHECKS)
    code, report = run_with(broken, root)
    assert code == 2
    assert [f["id"] for f in report["findings"]] == ["index-collector-error"]
