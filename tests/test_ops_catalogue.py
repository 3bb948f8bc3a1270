"""The catalogue is the one source of every id's meaning: it matches the rules, and explain, -v and --list-checks print it."""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from collectors import registry
from health.catalogue import checks, lookup, problems
from tests.health_support import REPO, clean_env, copy_demo
from tests.ops_support import audit_document, health
from tests.test_health_findings import SCENARIOS
from thresholds.defaults import BY_NAME

EMITTERS = {"ok": "ok", "warn": "warn", "critical": "critical"}


def emitted_ids() -> list[tuple[str, str, str]]:
    """(id pattern, severity, file) for every ok()/warn()/critical() call with a literal or f-string id."""
    found = []
    for path in sorted((REPO / "health").rglob("*.py")):
        if "catalogue" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in EMITTERS
                    and node.args):
                continue
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.append((re.escape(first.value), EMITTERS[node.func.id], path.name))
            elif isinstance(first, ast.JoinedStr):
                pattern = "".join(re.escape(part.value) if isinstance(part, ast.Constant) else ".+"
                                  for part in first.values)
                found.append((pattern, EMITTERS[node.func.id], path.name))
    return found


def test_every_id_the_rules_can_emit_is_catalogued_with_its_severity():
    catalogued = [(p.id, p.severity) for _, p in problems()] + [(ok, "ok") for c in checks() for ok in c.ok]
    expanded = [(i.replace("{label}", "da").replace("{collector}", "index"), sev) for i, sev in catalogued]
    emitted = emitted_ids()
    assert len(emitted) > 50, "the AST scan found too few ids"
    for pattern, severity, where in emitted:
        matches = [(i, s) for i, s in expanded if re.fullmatch(pattern, i)]
        assert matches, f"{pattern} ({where}) is not in health.catalogue"
        assert all(s == severity for _, s in matches), f"{pattern} ({where}): catalogue says {matches}"
    # and nothing in the catalogue is dead: every entry is emitted somewhere
    for finding_id, _ in expanded:
        assert any(re.fullmatch(p, finding_id) for p, _, _ in emitted) or finding_id.endswith("collector-error"), \
            finding_id


def test_every_scenario_reports_only_catalogued_ids(tmp_path):
    for index, (finding_id, severity, _code, mutate, env) in enumerate(SCENARIOS):
        root = copy_demo(tmp_path / str(index))
        extra = mutate(root) or []
        document = audit_document(root, *extra, environ=clean_env(**env))
        for item in document["findings"]:
            match = lookup(item["id"])
            assert match and match.problem and match.problem.severity == item["severity"], item["id"]
        for ok_id in document["ok_summary"]:
            match = lookup(ok_id)
            assert match and match.problem is None, ok_id
        assert finding_id in [f["id"] for f in document["findings"]]


def test_every_entry_is_complete_and_names_real_thresholds_and_collectors():
    collectors = set(registry.names())
    keys = [check.key for check in checks()]
    assert len(keys) == len(set(keys))
    ids = [p.id for _, p in problems()]
    assert len(ids) == len(set(ids))
    for check in checks():
        assert re.fullmatch(r"[a-z-]+:[a-z-]+", check.key), check.key
        assert check.collector is None or check.collector in collectors
        assert check.summary
    for _, problem in problems():
        assert problem.severity in ("warn", "critical")
        assert problem.meaning.endswith(".") and problem.fix.endswith(".") and problem.causes
        assert problem.threshold is None or problem.threshold in BY_NAME
    assert {c.collector for c in checks()} - {None} == collectors  # every collector has its checks


def test_explain_prints_meaning_causes_threshold_and_fix():
    done = health("explain", "retrieval-stale", "cap-pressure:da", env=clean_env(CORTEX_RETRIEVAL_STALE_MS="7200000"))
    assert done.returncode == 0
    stale = lookup("retrieval-stale").problem
    assert stale.meaning in done.stdout and stale.fix in done.stdout and stale.causes[0] in done.stdout
    assert "retrieval_stale_ms = 2.0 h (env CORTEX_RETRIEVAL_STALE_MS)" in done.stdout
    assert "cap-pressure:da (warn)" in done.stdout and "collector:  hot_memory" in done.stdout


def test_explain_unknown_id_exits_3_with_suggestions():
    done = health("explain", "reviewr-stale")
    assert done.returncode == 3 and done.stdout == ""
    assert "unknown id 'reviewr-stale'" in done.stderr and "reviewer-stale" in done.stderr


def test_verbose_text_shows_evidence_threshold_source_and_the_explain_fix(tmp_path):
    done = health("--root", str(copy_demo(tmp_path)), "--now", "2026-11-29T12:00:00Z", "--no-write",
                  "--format", "text", "-v", "--threshold", "proposal_backlog=1")
    assert done.returncode == 1
    block = done.stdout[done.stdout.index("WARN proposal-backlog-high:"):]
    assert "evidence:  proposals evidence ok;" in block and "measured=2" in block
    assert "threshold: proposal_backlog = 1 (cli --threshold)" in block
    explained = health("explain", "proposal-backlog-high").stdout
    fix = lookup("proposal-backlog-high").problem.fix
    assert f"fix:        {fix}" in explained
    assert fix in " ".join(block.split())  # the same words (the console may wrap the line)


def test_list_checks_lists_every_collector_id_severity_and_effective_threshold():
    done = health("--list-checks", "--threshold", "proposal_backlog=3")
    assert done.returncode == 0
    for name in registry.names():
        assert f"\n{name}\n" in done.stdout
    for _, problem in problems():
        assert problem.id in done.stdout
    row = next(line for line in done.stdout.splitlines() if "proposal-backlog-high" in line)
    assert "warn" in row and "proposal_backlog = 3 (cli)" in row
    listed = json.loads(health("--list-checks", "--json", "--only", "retrieval").stdout)
    assert {row["collector"] for row in listed} == {"retrieval", None}
    assert {"id": "retrieval-stale", "severity": "warn", "collector": "retrieval", "check": "retrieval:latest",
            "threshold": {"name": "retrieval_stale_ms", "value": 86_400_000, "unit": "ms", "source": "default"}} \
        in listed


@pytest.mark.parametrize("finding_id", ["markers-corrupt:principal", "index-collector-error", "reviewer-fresh"])
def test_lookup_expands_templates(finding_id):
    match = lookup(finding_id)
    assert match is not None
    assert lookup(finding_id + "x") is None or finding_id == "index-collector-error"


def test_catalogue_lives_in_small_modules():
    for path in Path(REPO / "health" / "catalogue").glob("*.py"):
        assert path.read_text().startswith('"""'), path
        assert len(path.read_text().splitlines()) < 200, path
