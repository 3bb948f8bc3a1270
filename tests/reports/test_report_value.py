"""The typed report every format renders: frozen, joined to the catalogue once, clocked in integer ms, one builder each."""
from __future__ import annotations

import ast
import io
import json
import subprocess
import sys

import jsonschema
import pytest
from hypothesis import given, strategies as st

from reports.document import unknown_report
from reports.formats import load, names
from health.judge.catalogue.find import lookup
from reports.report import Report, frozen, from_document, plain
from reports.reportjson import report_json
from tests import health_scenarios as s
from tests.health_support import NOW, NOW_MS, REPO, SCHEMA_FILE, clean_env, copy_demo
from tests.ops_support import audit_report, health_log

NOT_FORMATS = ("cortex.core.timestamps", "health.judge.catalogue", "datetime", "dateutil")


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, Report]:
    """Real runs: healthy, warn, critical (several collectors), a skipped collector, Dense Context, exit 3."""
    base = tmp_path_factory.mktemp("reports")
    healthy, warned, broken = (copy_demo(base / name) for name in ("ok", "warn", "critical"))
    s.retrieval_stale(warned)
    s.proposals_backlog(warned)
    for scenario in (s.reviewer_failed, s.da_double_end, s.da_cap, s.index_stale, s.observability_bytes,
                     s.state_missing):
        scenario(broken)
    settings = json.loads((broken / "settings.json").read_text())  # ids with free slots: {event}, {program}
    settings["hooks"]["Stop"][0]["hooks"][0]["command"] = "/nowhere/cortex review fire"
    (broken / "settings.json").write_text(json.dumps(settings))
    return {
        "ok": audit_report(healthy),
        "warn": audit_report(warned),
        "critical": audit_report(broken),
        "skipped": audit_report(healthy, "--skip", "index,locks"),
        "dense": audit_report(REPO / "fixtures" / "dense-context"),
        "unknown": unknown_report("root /nowhere is not a directory", now_ms=NOW_MS, root="/nowhere"),
    }


def render(name: str, report: Report, **context) -> str:
    out = io.StringIO()
    load(name).render(report, out, tty=False, **context)
    return out.getvalue()


def test_the_reports_cover_every_overall(reports):
    assert {name: r.overall for name, r in reports.items()} == {
        "ok": "ok", "warn": "warn", "critical": "critical", "skipped": "ok", "dense": "ok", "unknown": "unknown"}
    assert reports["skipped"].skipped == ("locks", "index")


def test_the_report_is_frozen_all_the_way_down(reports):
    report = reports["critical"]
    finding = report.findings[0]
    with pytest.raises(AttributeError):
        report.overall = "ok"
    with pytest.raises(AttributeError):
        finding.severity = "warn"
    with pytest.raises(AttributeError):
        report.counts.critical = 0
    with pytest.raises(AttributeError):
        report.thresholds[0].value = 1
    with pytest.raises(TypeError):
        report.evidence["reviewer"] = {"status": "ok"}
    with pytest.raises(TypeError):
        report.evidence["reviewer"]["status"] = "ok"  # nested evidence too
    with pytest.raises(TypeError):
        finding.detail["measured"] = 0
    hot_files = report.evidence["hot_memory"]["files"]
    assert isinstance(hot_files, tuple) and hot_files  # lists are tuples
    with pytest.raises(TypeError):
        hot_files[0]["label"] = "x"
    with pytest.raises(AttributeError):
        finding.entry.problem.fix = "nothing"  # the joined catalogue entry is frozen as well
    assert report.document()["overall"] == "critical"


def test_document_gives_fresh_plain_data_that_cannot_reach_back(reports):
    report = reports["critical"]
    first = report.document()
    first["evidence"]["reviewer"]["status"] = "tampered"
    first["findings"].clear()
    again = report.document()
    assert again["evidence"]["reviewer"]["status"] != "tampered" and again["findings"]
    assert type(again["evidence"]["hot_memory"]["files"]) is list  # plain JSON data again, for the schema


def test_every_finding_and_passed_id_carries_its_catalogue_entry(reports):
    for name, report in reports.items():
        for finding in report.findings:
            assert finding.entry is not None, (name, finding.id)
            problem = finding.problem_entry()
            assert problem is not None and problem.fix and problem.meaning, (name, finding.id)
            assert problem.severity == finding.severity, (name, finding.id)
        for passed in report.passed:
            assert passed.entry is not None and passed.entry.problem is None, (name, passed.id)
            assert passed.id in passed.entry.check.ok or passed.entry.label, (name, passed.id)
    joined = {f.id: f.entry for f in reports["critical"].findings}
    assert joined["reviewer-latest-failed"].collector == "reviewer"
    assert joined["reviewer-latest-failed"].check.key.startswith("reviewer:")
    assert joined["cap-pressure:da"].label == "da" and joined["cap-pressure:da"].problem.threshold == "cap_pressure"
    assert joined["hook-command-missing:Stop:/nowhere/cortex"].collector == "install"


def test_the_clock_is_kept_as_integer_milliseconds(reports):
    for name, report in reports.items():
        assert type(report.now_ms) is int and report.now_ms == NOW_MS and report.ts == "2026-11-29T12:00:00.000Z", name


def test_formats_take_the_clock_from_now_ms_not_from_the_text(reports):
    # A report whose text time says something else: the numbers come from now_ms.
    report = reports["warn"]._replace(ts="not a time")
    metrics = render("prometheus", report)
    assert f"cortex_health_last_run_timestamp_seconds {NOW_MS // 1000}" in metrics
    assert "cortex_health_retrieval_age_seconds " in metrics
    assert "'retrieval_age_seconds'=" in render("nagios", report)


def test_the_stored_document_builds_the_same_value(reports):
    for name, report in reports.items():
        line = report_json(report.document())
        assert from_document(json.loads(line), lookup=lookup) == report, name
        jsonschema.validate(json.loads(line), json.loads(SCHEMA_FILE.read_text()))


def test_every_format_renders_from_the_typed_value_as_from_the_stored_one(reports):
    for name in names():
        for which, report in reports.items():
            out = render(name, report, verbose=True, environ={})
            assert out.strip(), (name, which)
            again = from_document(report.document(), lookup=lookup)
            assert out == render(name, again, verbose=True, environ={}), (name, which)
    assert render("json", reports["critical"]) == report_json(reports["critical"].document()) + "\n"


def test_the_status_line_builds_without_the_catalogue(reports):
    report = from_document(reports["critical"].document())
    assert all(f.entry is None for f in report.findings) and all(p.entry is None for p in report.passed)
    assert render("statusline", report) == render("statusline", reports["critical"])


def _imports(path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.add(node.module or "")
    return found


def _calls(path) -> set[str]:
    return {node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Call)}


@pytest.mark.parametrize("path", sorted((REPO / "reports" / "formats").glob("*.py"))
                         + [REPO / "reports" / name for name in ("hints.py", "measurements.py", "severity.py")],
                         ids=lambda path: path.name)
def test_no_format_looks_the_catalogue_up_or_parses_a_time(path):
    bad = sorted(name for name in _imports(path) if name.startswith(NOT_FORMATS))
    assert bad == [], f"{path.name} imports {bad}: read the report's joined entry and now_ms instead"
    parsing = _calls(path) & {"parse_timestamp_ms", "fromisoformat", "strptime", "isoparse", "lookup"}
    assert parsing == set(), f"{path.name} calls {parsing}"
    ranks = [node.lineno for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Dict)
             and {getattr(key, "value", None) for key in node.keys} & {"ok", "warn", "critical"}
             and all(isinstance(getattr(value, "value", None), int) for value in node.values)]
    assert ranks == [], f"{path.name} keeps its own severity order (lines {ranks}): use reports.severity"


def test_the_status_line_command_loads_neither_the_catalogue_nor_dataclasses(tmp_path):
    root = copy_demo(tmp_path)
    audit_report(root, write=True)
    assert health_log(root).exists()
    probe = ("import sys; sys.argv = ['x', '--root', sys.argv[1], '--now', sys.argv[2]]; "
             "sys.path.insert(0, '.'); from health.statusline import main; main(sys.argv[1:]); "
             "print(sorted(m for m in sys.modules if m.startswith(('health.judge.catalogue', 'health.judge.checks', "
             "'dataclasses', 'typing'))))")
    done = subprocess.run([sys.executable, "-I", "-S", "-c", probe, str(root), NOW], capture_output=True, text=True,
                          cwd=REPO, env=clean_env())
    assert done.stdout.splitlines() == ["mem ✓ ok <1m", "[]"], done.stdout + done.stderr


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
                     max_leaves=30)


@given(value=_JSON)
def test_freezing_json_data_is_read_only_and_gives_back_the_same_data(value):
    held = frozen(value)
    assert plain(held) == value and json.dumps(plain(held)) == json.dumps(value)  # same keys, order and values
    assert not any(isinstance(node, (dict, list)) for node in _nodes(held))  # nothing left to mutate


def _nodes(value):
    yield value
    if isinstance(value, tuple):
        for item in value:
            yield from _nodes(item)
    elif hasattr(value, "values"):
        for item in value.values():
            yield from _nodes(item)


@given(evidence=st.dictionaries(st.text(max_size=8), _JSON, max_size=4), ts=_JSON, findings=st.lists(
    st.fixed_dictionaries({"id": st.text(max_size=12), "severity": st.sampled_from(["warn", "critical"]),
                           "message": st.text(max_size=12), "detail": st.dictionaries(st.text(max_size=6), _JSON)}),
    max_size=3))
def test_a_hand_edited_document_still_becomes_a_report(evidence, ts, findings):
    report = from_document({"ts": ts, "overall": "warn", "evidence": evidence, "findings": findings,
                            "ok_summary": ["retrieval-fresh"]}, lookup=lookup)
    assert report.now_ms is None or type(report.now_ms) is int
    assert [f.id for f in report.findings] == [f["id"] for f in findings]
    assert report.passed[0].entry is not None
    assert from_document({"ok_summary": [7]}, lookup=lookup).passed[0].entry is None  # a non-text id joins nothing
    for name in names():
        if name == "json":  # JSON output validates against the published schema, as it always did
            with pytest.raises(ValueError):
                render(name, report)
            continue
        assert render(name, report, verbose=True, environ={}).strip(), name
