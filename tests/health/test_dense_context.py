"""Dense Context layout (issue 16): the healthy fixture audits green; one change per test gives exactly the expected finding."""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from health.run import AuditError, Options, audit
from tests.health_support import NOW, REPO, clean_env, copy_demo
from tests.ops_support import run_command

FIXTURE = REPO / "fixtures" / "dense-context"
ALPHA = Path("context/projects/alpha")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "cortex"
    shutil.copytree(FIXTURE, root, symlinks=True)
    return root


def problems(root: Path, **options) -> dict[str, str]:
    run = audit(Options(root=str(root), now=NOW, no_write=True, **options), clean_env())
    return {f.id: f.severity.value for f in run.assessment.findings if f.severity.value != "ok"}


def finding(root: Path, finding_id: str):
    run = audit(Options(root=str(root), now=NOW, no_write=True), clean_env())
    return next(f for f in run.assessment.findings if f.id == finding_id)


def edit(root: Path, rel: str, old: str, new: str) -> None:
    path = root / ALPHA / rel
    text = path.read_text()
    assert old in text, (rel, old)
    path.write_text(text.replace(old, new, 1))


def test_the_healthy_fixture_is_green(tree):
    assert problems(tree) == {}


def test_a_context_folder_given_as_root_is_detected(tree):
    assert problems(tree / "context") == {}


CASES = [
    ("root-agents", lambda r: (r / "context/AGENTS.md").unlink(), {"dc-root-agents-missing": "critical"},
     {"layout": "dense-context"}),
    ("mission", lambda r: (r / ALPHA / "mission.md").unlink(),
     {"dc-project-file-missing:projects/alpha/mission.md": "warn"}, {}),
    ("status-lines", lambda r: (r / ALPHA / "STATUS.md").write_text("- x\n" * 81),
     {"dc-cap-exceeded:projects/alpha/STATUS.md": "warn"}, {}),
    ("issues-bytes", lambda r: (r / ALPHA / "ISSUES.md").write_text("x" * 6200 + "\n"),
     {"dc-cap-exceeded:projects/alpha/ISSUES.md": "warn"}, {}),
    ("agents-pressure", lambda r: (r / "context/AGENTS.md").write_text("- pointer\n" * 110),
     {"dc-cap-pressure:AGENTS.md": "warn"}, {}),
    ("yaml", lambda r: edit(r, "experiments/EXP-003.md", 'evidence: ["run{1,2}/metrics.json", "log.txt (55 configs, '
     '10 seeds)"]', "evidence: [run{1,2}/metrics.json]"),
     {"dc-frontmatter-invalid:projects/alpha/experiments/EXP-003.md": "warn"}, {}),
    ("field", lambda r: edit(r, "knowledge/K-001.md", "evidence: [EXP-001, EXP-003, EXP-002]\n", ""),
     {"dc-field-missing:projects/alpha/knowledge/K-001.md": "warn"}, {}),
    ("summary", lambda r: edit(r, "patterns/PAT-001.md", 'summary: "', 'summary: "' + "long " * 61),
     {"dc-summary-too-long:projects/alpha/patterns/PAT-001.md": "warn"}, {}),
    ("project", lambda r: edit(r, "experiments/EXP-001.md", "project: alpha", "project: beta"),
     {"dc-project-mismatch:projects/alpha/experiments/EXP-001.md": "warn"}, {}),
    ("dangling", lambda r: edit(r, "experiments/EXP-001.md", "links: [PAT-001]", "links: [PAT-009]"),
     {"dc-dangling-ref:projects/alpha/experiments/EXP-001.md": "warn"}, {}),
    ("contradiction", lambda r: edit(r, "knowledge/K-001.md", "evidence: [EXP-001, EXP-003, EXP-002]",
                                      "evidence: [EXP-002, EXP-004]"),
     {"dc-contradiction:projects/alpha/knowledge/K-001.md": "warn"}, {}),
    ("index-row-gone", lambda r: edit(r, "experiments/index.md", "| EXP-001 | 2026-11-01", "| EXP-009 | 2026-11-01"),
     {"dc-index-stale:alpha/experiments": "warn"}, {}),
    ("index-missing", lambda r: (r / ALPHA / "knowledge/index.md").unlink(), {"dc-index-missing:alpha/knowledge": "warn"},
     {}),
    ("index-unknown", lambda r: (r / ALPHA / "patterns/index.md").write_text("| PAT-001 | x |\n"),
     {"dc-index-unrecognised:alpha/patterns": "warn"}, {}),
    ("log-malformed", lambda r: (r / ALPHA / "_meta/access-log.jsonl").open("a").write('{"file":"EXP-001.md"}\nnot json\n'),
     {"dc-access-log-malformed:alpha": "warn"}, {}),
    ("log-missing", lambda r: (r / ALPHA / "_meta/access-log.jsonl").unlink(), {"dc-access-log-missing:alpha": "warn"}, {}),
    ("decision-title", lambda r: (r / "context/decisions/0002-generated-indexes.md").write_text("# DR-0003: x\n"),
     {"dc-decision-title:decisions/0002-generated-indexes.md": "warn"}, {}),
    ("decision-name", lambda r: (r / "context/decisions/draft.md").write_text("# draft\n"),
     {"dc-decision-misnamed:decisions/draft.md": "warn"}, {}),
    ("decision-gap", lambda r: (r / "context/decisions/0001-atomic-memory-files.md").rename(
        r / "context/decisions/0003-atomic-memory-files.md"),
     {"dc-decision-title:decisions/0003-atomic-memory-files.md": "warn", "dc-decision-numbering:decisions": "warn"}, {}),
]


@pytest.mark.parametrize("name,change,expected,options", CASES, ids=[case[0] for case in CASES])
def test_one_change_gives_exactly_the_expected_finding(tree, name, change, expected, options):
    change(tree)
    assert problems(tree, **options) == expected


def test_a_copied_atom_is_a_duplicate_id_and_an_id_mismatch(tree):
    shutil.copy(tree / ALPHA / "experiments/EXP-001.md", tree / ALPHA / "experiments/EXP-005.md")
    assert problems(tree) == {"dc-duplicate-id:alpha/EXP-001": "critical",
                              "dc-id-mismatch:projects/alpha/experiments/EXP-005.md": "warn"}


def test_a_symlinked_project_is_named_not_skipped(tree, tmp_path):
    (tree / "context/projects/gamma").symlink_to(tmp_path)
    assert problems(tree) == {"dc-folder-unreadable:projects/gamma": "warn"}


def moved_out(tree: Path, tmp_path: Path, rel: str) -> None:
    """The folder `rel` (under context/) moved outside the tree and replaced by a symlink to it."""
    outside = tmp_path / "outside" / rel.replace("/", "-")
    outside.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(str(tree / "context" / rel), str(outside))
    (tree / "context" / rel).symlink_to(outside, target_is_directory=True)


@pytest.mark.parametrize("rel, expected", [
    ("projects/beta/experiments", {"dc-folder-unreadable:projects/beta/experiments": "warn"}),
    ("projects/alpha/patterns", {"dc-folder-unreadable:projects/alpha/patterns": "warn"}),  # referenced from EXP-001
    ("projects", {"dc-folder-unreadable:projects": "warn"}),
    ("decisions", {"dc-decision-numbering:decisions": "warn"}),
    ("projects/alpha/decisions", {"dc-decision-numbering:projects/alpha/decisions": "warn"}),
    ("projects/alpha/_meta", {"dc-access-log-unreadable:alpha": "warn"}),
])
def test_a_symlinked_folder_inside_the_tree_is_a_finding_and_never_followed(tree, tmp_path, rel, expected):
    moved_out(tree, tmp_path, rel)
    run = audit(Options(root=str(tree), now=NOW, no_write=True), clean_env())
    found = {f.id: f for f in run.assessment.findings if f.severity.value != "ok"}
    assert {key: found[key].severity.value for key in found} == expected
    item = found[next(iter(expected))]
    assert "symlink" in item.message and "not followed" in item.message
    assert not any(rel in f.id for f in run.assessment.findings if f.severity.value == "ok")


def test_a_symlinked_meta_folder_within_the_project_is_not_followed_either(tree):
    meta = tree / ALPHA / "_meta"
    meta.rename(tree / ALPHA / "meta-real")
    meta.symlink_to("meta-real", target_is_directory=True)
    item = finding(tree, "dc-access-log-unreadable:alpha")
    assert item.message == "projects/alpha/_meta/access-log.jsonl: _meta is a symlink (not followed)."
    assert problems(tree) == {"dc-access-log-unreadable:alpha": "warn"}


def test_context_itself_may_be_an_alias(tree, tmp_path):
    real = tmp_path / "repo" / "context"
    real.parent.mkdir()
    shutil.move(str(tree / "context"), str(real))
    (tree / "context").symlink_to(real, target_is_directory=True)
    assert problems(tree) == {}


def test_an_atom_in_the_wrong_table_names_the_line_and_both_tables(tree):
    edit(tree, "experiments/EXP-001.md", "status: valid", "status: deprecated")
    item = finding(tree, "dc-index-stale:alpha/experiments")
    assert item.detail["misplaced"] == [{"id": "EXP-001", "line": 13, "found": "active", "expected": "inactive"}]


def test_a_stale_access_log_warns_with_the_lag(tree):
    log = tree / ALPHA / "_meta/access-log.jsonl"
    log.write_text('{"file":"EXP-001.md","tool":"Read","ts":"2026-10-01T00:00:00Z"}\n' * 3)
    found = problems(tree)
    assert found["dc-access-log-stale:alpha"] == "warn"
    assert finding(tree, "dc-access-log-stale:alpha").detail["threshold"] == 14 * 86_400_000


def test_malformed_rows_are_named_by_line(tree):
    (tree / ALPHA / "_meta/access-log.jsonl").open("a").write('{"file":"x.md","tool":"Read","ts":"2026-11-25T00:00:00Z"}\n')
    detail = finding(tree, "dc-access-log-malformed:alpha").detail
    assert detail["malformed_total"] == 1 and detail["lines"][0]["line"] == 7


def test_invalid_yaml_names_its_line(tree):
    edit(tree, "experiments/EXP-003.md", 'evidence: ["run{1,2}/metrics.json", "log.txt (55 configs, 10 seeds)"]',
         "evidence: [a, {b]")
    assert finding(tree, "dc-frontmatter-invalid:projects/alpha/experiments/EXP-003.md").detail["line"] == 8


def test_cap_threshold_env_override(tree):
    run = audit(Options(root=str(tree), now=NOW, no_write=True), clean_env(CORTEX_DC_STATUS_MAX_LINES="3"))
    ids = {f.id for f in run.assessment.findings if f.severity.value == "warn"}
    assert "dc-cap-exceeded:projects/alpha/STATUS.md" in ids
    assert run.thresholds.get("dc_status_max_lines").source.value == "env"


def test_both_layouts_or_neither_is_a_usage_error(tree, tmp_path):
    (tree / "LIFEOS").mkdir()
    with pytest.raises(AuditError, match="both LIFEOS/ and context/AGENTS.md"):
        audit(Options(root=str(tree), now=NOW, no_write=True), clean_env())
    with pytest.raises(AuditError, match="neither"):
        audit(Options(root=str(tmp_path), now=NOW, no_write=True), clean_env())


def test_lifeos_collectors_never_run_on_dense_context_and_back(tree, tmp_path):
    dense = audit(Options(root=str(tree), now=NOW, no_write=True), clean_env())
    assert set(dense.evidence) == {"dc_structure", "dc_caps", "dc_atoms", "dc_references", "dc_index",
                                   "dc_access_log", "dc_decisions"}
    assert set(dense.thresholds.values[i].name for i in range(len(dense.thresholds.values))) >= {"dc_stale_share"}
    lifeos = audit(Options(root=str(copy_demo(tmp_path)), now=NOW, no_write=True), clean_env())
    assert not any(name.startswith("dc_") for name in lifeos.evidence)


_MODULES_AFTER_AUDIT = """
import json, os, sys
from health.run import Options, audit
audit(Options(root=sys.argv[1], now=sys.argv[2], no_write=True), dict(os.environ))
print(json.dumps(sorted(m for m in sys.modules if ".dense_context." in m)))
"""


def test_only_a_dense_context_audit_loads_its_collectors_and_rules(tree, tmp_path):
    def loaded(root: Path) -> list[str]:
        done = run_command([sys.executable, "-c", _MODULES_AFTER_AUDIT, str(root), NOW], env=clean_env())
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    lifeos = loaded(copy_demo(tmp_path))  # only the package, whose context_of answers the auto-detection
    assert [m for m in lifeos if m.startswith(("collectors.dense_context.", "health.judge.rules.dense_context."))] == []
    dense = loaded(tree)
    for name in ("structure", "caps", "atoms", "references", "index_drift", "access_log", "decisions"):
        assert f"collectors.dense_context.{name}" in dense and f"health.judge.rules.dense_context.{name}" in dense


def snapshot(root: Path) -> dict:
    return {str(p): (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(root.rglob("*")) if p.is_file()}


def test_cli_audits_green_writes_only_its_own_log_and_never_into_context(tree):
    before = snapshot(tree / "context")
    done = run_command([sys.executable, "-m", "health", "--root", str(tree), "--now", NOW, "--json"], env=clean_env())
    assert done.returncode == 0, done.stdout
    assert json.loads(done.stdout)["overall"] == "ok"
    assert snapshot(tree / "context") == before
    lines = (tree / "logs/cortex-health.jsonl").read_text().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["overall"] == "ok"


def test_cli_env_layout_and_every_format(tree):
    (tree / ALPHA / "mission.md").unlink()
    for fmt in ("json", "text", "statusline", "prometheus", "nagios", "health+json", "github"):
        done = run_command([sys.executable, "-m", "health", "--root", str(tree), "--now", NOW, "--no-write", "--format", fmt],
                           env=clean_env(CORTEX_HEALTH_LAYOUT="dense-context"))
        assert done.returncode == 1, (fmt, done.stdout, done.stderr)
        assert done.stdout.strip(), fmt
    assert not (tree / "logs/cortex-health.jsonl").exists()


def test_cli_usage_error_names_what_was_found(tmp_path):
    done = run_command([sys.executable, "-m", "health", "--root", str(tmp_path), "--now", NOW, "--no-write", "--json"],
                       env=clean_env())
    assert done.returncode == 3 and "holds neither LIFEOS/ nor context/AGENTS.md" in done.stderr
    bad = run_command([sys.executable, "-m", "health", "--root", str(tmp_path), "--no-write"], env=clean_env(CORTEX_HEALTH_LAYOUT="x"))
    assert bad.returncode == 3 and "CORTEX_HEALTH_LAYOUT" in bad.stderr


def test_list_checks_and_explain_know_the_layout():
    listed = run_command([sys.executable, "-m", "health", "--list-checks", "--layout", "dense-context"], env=clean_env())
    assert listed.returncode == 0 and "dc-cap-exceeded:{path}" in listed.stdout and "reviewer-stale" not in listed.stdout
    assert "dc_status_max_lines = 80" in listed.stdout
    explained = run_command([sys.executable, "-m", "health", "explain", "dc-index-stale:alpha/experiments"], env=clean_env())
    assert explained.returncode == 0 and "collector:  dc_index" in explained.stdout
