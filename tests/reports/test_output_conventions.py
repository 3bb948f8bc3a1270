"""Output conventions (issue 23, point 10), through the real CLI: Nagios perfdata within NRPE v2's first
1,023 bytes, Prometheus numbers shortest-exact and label values without install paths, -v with --quiet."""
from __future__ import annotations

import io
import json
import re

from reports.formats import load
from reports.formats.nagios import MAX_FIRST_LINE, NRPE_V2_BYTES
from collectors.metric import seconds
from health.judge.catalogue.find import lookup
from reports.report import from_document
from tests import health_scenarios as s
from tests.health_support import NOW, copy_demo
from tests.ops_support import health

SAMPLE = re.compile(r"^(cortex_health_\w+)(?:\{(.*)\})? (\S+)$")


def test_nagios_keeps_all_perfdata_within_nrpe_v2s_buffer_however_many_findings(tmp_path):
    root = copy_demo(tmp_path)
    s.reviewer_failed(root)
    done = health("--root", str(root), "--now", NOW, "--no-write", "--format", "nagios",
                  "--threshold", "proposal_backlog=1", "--threshold", "retrieval_stale_ms=1s")
    assert done.returncode == 2
    relayed = done.stdout.encode("utf-8")[:NRPE_V2_BYTES].decode("utf-8", "ignore")  # what NRPE v2 passes on
    first = relayed.split("\n")[0]
    assert len(done.stdout.split("\n")[0].encode()) + 1 <= NRPE_V2_BYTES
    status, perfdata = first.split(" | ")
    assert len(status) <= MAX_FIRST_LINE and status.startswith("CORTEX HEALTH CRITICAL - ")
    for name in ("critical", "warn", "pending_proposals", "reviewer_age_seconds", "run_duration_seconds"):
        assert f"'{name}'=" in perfdata, name
    assert "[CRITICAL] reviewer-latest-failed:" in done.stdout.split("\n", 1)[1]  # the long text follows


def test_nagios_puts_perfdata_that_does_not_fit_after_the_long_text(tmp_path):
    from reports.formats.nagios import first_line_with_perfdata

    items = [f"'metric_{i:03}'=1;;;0" for i in range(80)]
    first, later = first_line_with_perfdata("CORTEX HEALTH OK - 1 checks ok", items)
    assert len(first.encode()) + 1 <= NRPE_V2_BYTES and later and first.split(" | ")[1].split() + later == items


def prometheus_samples(text: str) -> list[tuple[str, str, str]]:
    return [SAMPLE.match(line).groups() for line in text.splitlines() if not line.startswith("#")]


def test_prometheus_floats_are_shortest_exact_and_labels_hold_no_install_path(tmp_path):
    root = copy_demo(tmp_path)
    settings = json.loads((root / "settings.json").read_text())
    for group in settings["hooks"]["UserPromptSubmit"]:  # as `setup` writes them: absolute, per install
        for hook in group["hooks"]:
            hook["command"] = hook["command"].replace("cortex ", "/opt/venvs/ana/bin/cortex ", 1)
    (root / "settings.json").write_text(json.dumps(settings))
    done = health("--root", str(root), "--now", NOW, "--no-write", "--format", "prometheus")
    samples = prometheus_samples(done.stdout)
    checks = [labels for name, labels, _ in samples if name == "cortex_health_check_severity"]
    assert any('check="hook-command-missing:UserPromptSubmit:cortex"' in labels for labels in checks), checks
    assert not [labels for _, labels, _ in samples if labels and "/" in labels]
    for _, _, value in samples:
        assert value == repr(float(value)) or value == str(int(float(value))), value
        assert len(value.partition(".")[2]) <= 6, value  # ms with at most 3 decimals are seconds with at most 6
    assert len({labels for name, labels, _ in samples if name == "cortex_health_check_severity"}) == len(checks)


def test_seconds_shift_the_decimal_point_instead_of_dividing():
    assert repr(seconds(14.283)) == "0.014283" and repr(14.283 / 1000) == "0.014282999999999999"
    assert seconds(1797245) == 1797.245 and repr(seconds(1e-05)) == "1e-08" and seconds(0) == 0


def test_prometheus_severity_of_ids_that_collapse_into_one_label_is_the_worst(tmp_path):
    document = json.loads(health("--root", str(copy_demo(tmp_path)), "--now", NOW, "--no-write", "--json").stdout)
    finding = {"id": "hook-command-missing:Stop:/a/bin/cortex", "severity": "critical", "message": "m", "detail": {}}
    document["findings"] = [finding]
    document["ok_summary"] = ["hook-command-resolved:Stop:/b/bin/cortex", "hook-command-missing:Stop:/b/bin/cortex"]
    out = io.StringIO()
    load("prometheus").render(from_document(document, lookup=lookup), out)
    lines = [line for line in out.getvalue().splitlines() if 'check="hook-command-missing:Stop:cortex"' in line]
    assert lines == ['cortex_health_check_severity{check="hook-command-missing:Stop:cortex",collector="install"} 2']


def test_verbose_with_quiet_is_allowed_nothing_when_ok_the_verbose_report_otherwise(tmp_path):
    root = copy_demo(tmp_path)
    base = ["--root", str(root), "--now", NOW, "--no-write", "--format", "text", "-v", "--quiet"]
    ok = health(*base)
    assert (ok.returncode, ok.stdout, ok.stderr) == (0, "", "")
    warned = health(*base, "--threshold", "proposal_backlog=1")
    assert warned.returncode == 1 and "fix:" in warned.stdout and "proposal-backlog-high" in warned.stdout
