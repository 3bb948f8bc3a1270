"""Stage boundaries: stdlib-only fast path, registries that find every module, collector isolation."""
from __future__ import annotations

import io
import json
import subprocess
import sys

from collectors import registry
from health import rules
from health.model import Assessment, Finding, Overall, Severity
from reports.formats import load, names
from tests.health_support import DEMO, NOW, REPO, clean_env, copy_demo

FAST_PATH = """
import os, sys, json
from collectors.layout import Layout
from collectors.registry import collect_all
from health.clock import resolve_clock
from health.evaluate import evaluate
from reports.document import build_report
from thresholds.sources import resolve
layout = Layout.for_root(sys.argv[1], environ=os.environ)  # PATH: the demo's hook commands resolve
clock = resolve_clock(sys.argv[2], {})
thresholds = resolve({})
evidence = collect_all(layout)
assessment = evaluate(evidence, thresholds, clock)
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


def test_registries_find_every_module():
    ours = ["reviewer", "retrieval", "proposals", "observability", "index", "hot_memory", "review_state"]
    found = [c.name for c in registry.discovered()]
    assert [name for name in found if name in ours] == ours  # all present, in report order
    judged = {rule.collector for rule in rules.discovered()}
    assert set(ours) | {None} <= judged
    assert {"json", "text"} <= set(names())


def test_every_format_renders_every_overall():
    for overall, findings in ((Overall.OK, ()), (Overall.CRITICAL, (Finding("x-y", Severity.CRITICAL, "[b]m[/b]"),))):
        assert Assessment(findings).overall is overall
    document = json.loads(subprocess.run([sys.executable, "-m", "health", "--root", str(DEMO), "--now", NOW,
                                          "--no-write"], capture_output=True, text=True, env=clean_env(),
                                         cwd=REPO).stdout)
    for name in names():
        out = io.StringIO()
        load(name).render(document, out, tty=False)
        assert out.getvalue().strip(), name


PLUGIN = """
import sys
from collectors.registry import Collector, register
def explode(layout):
    raise RuntimeError("disk on fire")
register(Collector("exploding_probe", 5, explode))
from health.cli import run
sys.exit(run(sys.argv[1:]))
"""


def test_a_collector_that_raises_is_critical_and_isolated(tmp_path):
    root = copy_demo(tmp_path)
    done = subprocess.run([sys.executable, "-c", PLUGIN, "--root", str(root), "--now", NOW, "--no-write"],
                          capture_output=True, text=True, env=clean_env(), cwd=REPO)
    report = json.loads(done.stdout)
    assert done.returncode == 2
    finding = next(f for f in report["findings"] if f["id"] == "exploding-probe-collector-error")
    assert finding["severity"] == "critical" and "disk on fire" in finding["detail"]["error"]
    assert report["evidence"]["exploding_probe"]["status"] == "error"
    assert report["evidence"]["reviewer"]["status"] == "ok" and "reviewer-fresh" in report["ok_summary"]


def test_a_real_collector_failure_becomes_its_collector_error(tmp_path):
    # A registered collector replaced by one that raises: the rule is skipped, the id names it.
    root = copy_demo(tmp_path)
    code = PLUGIN.replace('"exploding_probe", 5', '"index", 50')
    done = subprocess.run([sys.executable, "-c", code, "--root", str(root), "--now", NOW, "--no-write"],
                          capture_output=True, text=True, env=clean_env(), cwd=REPO)
    report = json.loads(done.stdout)
    assert done.returncode == 2
    assert [f["id"] for f in report["findings"]] == ["index-collector-error"]
