"""Dense Context frontmatter: the narrow fast path means exactly what PyYAML's safe loader reads; hostile atoms fail clearly."""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from collectors.dense_context.frontmatter import simple_mapping, split_frontmatter, yaml_mapping
from health.run import Options, audit
from tests.health_support import NOW, REPO, clean_env
from tests.ops_support import run_command

WORDS = st.sampled_from(["EXP-001", "valid", "superseded:EXP-012", "yes", "No", "null", "on", "a b", "a  b",
                         "x: y", "x:y", "#c", "a #c", "2026-01-15", "2026-02-30", "12", "0x1F", "1.5", "é", "-a",
                         "a,b", "{a}", "[a]", "'q'", "é ü", "K-1a", "a\tb", "~", ""])
VALUES = st.one_of(WORDS, st.builds(lambda w: f'"{w}"', WORDS),
                   st.builds(lambda ws: "[" + ", ".join(ws) + "]", st.lists(WORDS, max_size=4)),
                   st.text(alphabet="ab :,#[]{}\"'-.\\0123 ", max_size=12))
LINES = st.lists(st.tuples(st.sampled_from(["id", "tags", "on", "status", "source-experiments", "k_1"]), VALUES),
                 max_size=6)


@settings(max_examples=400, deadline=None)
@given(LINES)
def test_the_fast_path_agrees_with_pyyaml_whenever_it_answers(pairs):
    block = "".join(f"{key}: {value}\n" for key, value in pairs)
    fast = simple_mapping(block)
    if fast is not None:
        assert fast[0] == yaml_mapping(block)


def test_frontmatter_must_open_and_close():
    assert "does not start" in split_frontmatter("# title\n")
    assert "not closed" in split_frontmatter("---\nid: EXP-001\n")


def audit_ids(root: Path) -> dict[str, str]:
    run = audit(Options(root=str(root), now=NOW, no_write=True), clean_env())
    return {f.id: f.severity.value for f in run.assessment.findings if f.severity.value != "ok"}


def test_hostile_atoms_become_findings_not_tracebacks_or_hangs(tmp_path):
    root = tmp_path / "cortex"
    shutil.copytree(REPO / "fixtures" / "dense-context", root)
    exp = root / "context/projects/beta/experiments"
    (exp / "EXP-002.md").write_bytes(b"---\nid: EXP-002\nsummary: \xff\xfe\n---\n")
    (exp / "EXP-003.md").mkdir()
    (exp / "EXP-004.md").symlink_to("/dev/zero")
    (exp / "EXP-005.md").write_text("---\n" + "a: " + "b " * 40_000 + "\n")  # never closed, over 64 KiB
    found = audit_ids(root)
    for name in ("EXP-002", "EXP-003", "EXP-004"):
        assert found.pop(f"dc-atom-unreadable:projects/beta/experiments/{name}.md") == "warn"
    assert found.pop("dc-frontmatter-invalid:projects/beta/experiments/EXP-005.md") == "warn"
    assert found == {}


def test_private_spans_never_reach_the_report(tmp_path):
    root = tmp_path / "cortex"
    shutil.copytree(REPO / "fixtures" / "dense-context", root)
    atom = root / "context/projects/beta/experiments/EXP-001.md"
    atom.write_text(atom.read_text().replace("project: beta", "project: <private>acme-secret</private>gamma"))
    run = audit(Options(root=str(root), now=NOW, no_write=True), clean_env())
    text = repr(run.document())
    assert "acme-secret" not in text
    assert "dc-project-mismatch:projects/beta/experiments/EXP-001.md" in text


def laughs(levels: int, fan: int = 10) -> str:
    """A few hundred bytes of YAML aliases that expand to fan**levels nodes (billion laughs)."""
    lines = [f"l0: &l0 [{', '.join(['lol'] * fan)}]"]
    lines += [f"l{n}: &l{n} [{', '.join([f'*l{n - 1}'] * fan)}]" for n in range(1, levels)]
    return "\n".join(lines)


def limited_memory() -> None:
    """The child may not take the machine down while the bound is missing (the failing-first run)."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31))


@pytest.mark.parametrize("name, aliases", [
    ("laughs", laughs(9)),
    ("self", "tags: &t [*t]"),
    ("mutual", "evidence: &a [x, &b [*a, *b]]"),
    ("self-map", "links: &m {k: *m}"),
    ("merge", "base: &b {k: &l [*l]}\nlinks:\n  <<: *b"),
    ("deep", "tags: " + "[" * 400 + "]" * 400),
])
def test_alias_bombs_and_cycles_are_one_invalid_frontmatter_finding(tmp_path, name, aliases):
    root = tmp_path / "cortex"
    shutil.copytree(REPO / "fixtures" / "dense-context", root)
    atom = root / "context/projects/beta/experiments/EXP-001.md"
    atom.write_text(atom.read_text().replace("links: []\n", f"{aliases}\n", 1))
    done = run_command([sys.executable, "-m", "health", "--root", str(root), "--now", NOW, "--no-write", "--json"],
                       timeout=120, preexec_fn=limited_memory)
    report = json.loads(done.stdout)
    found = {f["id"]: f for f in report["findings"]}
    invalid = found.pop("dc-frontmatter-invalid:projects/beta/experiments/EXP-001.md")
    assert found == {} and done.returncode == 1 and report["overall"] == "warn", (done.stderr, found)
    assert not any(state["status"] == "error" for state in report["evidence"].values())
    assert "alias" in invalid["message"] or "nest" in invalid["message"], invalid["message"]
