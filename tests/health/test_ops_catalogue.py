"""The catalogue is the one source of every id's meaning: it matches the rules, and explain, -v and --list-checks print it."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from health.judge import checks as check_list
from health.judge.catalogue import run as run_entries
from health.judge.catalogue.find import checks, instance_of, lookup, problems
from health.judge.model import CollectorFailure, CollectorSkipped
from health.judge.rules import Context
from tests import health_scenarios as s
from tests import hook_scenarios as hooks
from tests import liveness_scenarios as live
from tests.health_support import REPO, clean_env, copy_demo
from tests.ops_support import audit_document, health
from tests.health.test_health_findings import SCENARIOS
from thresholds.defaults import BY_NAME


def judged_by_each_row(root: Path, args: list[str], env: dict[str, str]) -> list[tuple[str | None, str, str]]:
    """(row name or None for the run's inputs, id, severity) for every finding each rule of the list emits."""
    from health.options import parse
    from health.run import audit

    options, _ = parse(["--root", str(root), "--now", "2026-11-29T12:00:00Z", "--no-write", *args], env, tty=False)
    run = audit(options, env)
    context = Context(run.thresholds, run.clock)
    emitted = [(None, f.id, f.severity.value) for f in check_list.INPUTS.judge(None, context)]
    for row in check_list.CHECKS:
        evidence = run.evidence[row.name]
        if not isinstance(evidence, (CollectorFailure, CollectorSkipped)):
            emitted += [(row.name, f.id, f.severity.value) for f in row.judge(evidence, context)]
    return emitted


def test_every_id_a_rule_emits_is_an_entry_of_its_own_row_and_no_entry_is_dead(tmp_path):
    own = {row.name: {entry.key for entry in row.entries} for row in check_list.CHECKS}
    own[None] = {entry.key for entry in run_entries.INPUTS}
    seen: set[str] = set()
    beyond_scenarios = [(None, None, 0, lambda root: None, {}),  # the healthy demo
                        (None, None, 2, lambda root: ["--now", "yesterday-ish"], {}),  # cortex-clock-invalid
                        (None, None, 0, lambda root: [] if s.write_manifest(root) else [], {}),  # index-fresh
                        (None, None, 0, live.lock_held_elsewhere, {}),  # lock-held (unverifiable, young)
                        (None, None, 0, s.search_cache_built, {}),  # search-cache-present
                        (None, None, 0, lambda root: None, {"CORTEX_CACHE": "off"}),  # search-cache-off
                        (None, None, 0, hooks.recall_recovered, {})]  # hook-recovered
    for index, (_id, _severity, _code, mutate, env) in enumerate([*beyond_scenarios, *SCENARIOS]):
        root = copy_demo(tmp_path / str(index))
        extra = mutate(root) or []
        for name, finding_id, severity in judged_by_each_row(root, extra, clean_env(**env)):
            match = lookup(finding_id)
            assert match is not None and match.check.key in own[name], (name, finding_id)
            assert (match.problem.severity if match.problem else "ok") == severity, finding_id
            seen.add(match.problem.id if match.problem else finding_id)
    listed = {entry_id for row_entries in (run_entries.INPUTS, *(row.entries for row in check_list.CHECKS))
              for entry in row_entries for entry_id in (*entry.ok, *(p.id for p in entry.problems))}
    dead = {entry_id for entry_id in listed if entry_id not in seen and not any(instance_of(s, entry_id) for s in seen)}
    assert not dead, f"catalogued but emitted by no rule in any scenario: {sorted(dead)}"


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
    collectors = set(check_list.names())
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
    assert "retrieval_stale_ms = 2h (7200000 ms) (env CORTEX_RETRIEVAL_STALE_MS)" in done.stdout
    assert "cap-pressure:da (warn)" in done.stdout and "collector:  hot_memory" in done.stdout


def test_explain_unknown_id_exits_3_with_suggestions():
    done = health("explain", "reviewr-stale")
    assert done.returncode == 3 and done.stdout == ""
    assert "unknown id 'reviewr-stale'" in done.stderr and "reviewer-stale" in done.stderr


def test_explain_accepts_every_id_list_checks_prints_and_concrete_instances():
    listed = [row["id"] for row in json.loads(health("--list-checks", "--json").stdout)]
    templated = [finding_id for finding_id in listed if "{" in finding_id]
    assert "markers-corrupt:{label}" in templated and "hook-command-missing:{event}:{program}" in templated
    concrete = ["markers-corrupt:principal", "hook-file-missing:MemoryTurnStart.hook.ts",
                "dc-cap-exceeded:projects/x/STATUS.md", "retrieval-collector-error"]
    done = health("explain", *templated, *concrete)
    assert done.returncode == 0, done.stderr
    for finding_id in templated + concrete:
        assert f"\n{finding_id} (" in "\n" + done.stdout
    assert "collector:  hot_memory" in done.stdout and "collector:  dc_caps" in done.stdout


def test_verbose_text_shows_evidence_threshold_source_and_the_explain_fix(tmp_path):
    done = health("--root", str(copy_demo(tmp_path)), "--now", "2026-11-29T12:00:00Z", "--no-write",
                  "--format", "text", "-v", "--threshold", "proposal_backlog=1")
    assert done.returncode == 1
    block = done.stdout[done.stdout.index("WARN proposal-backlog-high:"):]
    assert "evidence:  measured=2" in block and "(from the proposals collector; its files: ok)" in block
    assert "threshold: proposal_backlog = 1 (cli --threshold)" in block
    explained = health("explain", "proposal-backlog-high").stdout
    fix = lookup("proposal-backlog-high").problem.fix
    assert f"fix:        {fix}" in explained
    assert fix in " ".join(block.split())  # the same words (the console may wrap the line)


def test_list_checks_lists_every_collector_id_severity_and_effective_threshold():
    done = health("--list-checks", "--threshold", "proposal_backlog=3")
    assert done.returncode == 0
    for name in check_list.names():
        assert f"\n{name}\n" in done.stdout
    for _, problem in problems():
        assert problem.id in done.stdout
    row = next(line for line in done.stdout.splitlines() if "proposal-backlog-high" in line)
    assert "warn" in row and "proposal_backlog = 3 (cli)" in row
    listed = json.loads(health("--list-checks", "--json", "--only", "retrieval").stdout)
    assert {row["collector"] for row in listed} == {"retrieval", None}
    limit = {"name": "retrieval_stale_ms", "value": 86_400_000, "unit": "ms", "source": "default"}
    assert {"id": "retrieval-stale", "severity": "warn", "collector": "retrieval", "check": "retrieval:latest",
            "threshold": limit, "thresholds": [limit]} in listed


@pytest.mark.parametrize("finding_id", ["markers-corrupt:principal", "index-collector-error", "reviewer-fresh"])
def test_lookup_expands_templates(finding_id):
    match = lookup(finding_id)
    assert match is not None
    assert lookup(finding_id + "x") is None or finding_id == "index-collector-error"


def test_catalogue_lives_in_small_modules():
    for path in Path(REPO / "health" / "judge" / "catalogue").glob("*.py"):
        assert path.read_text().startswith('"""'), path
        assert len(path.read_text().splitlines()) < 200, path
