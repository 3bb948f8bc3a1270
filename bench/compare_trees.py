"""The trees bench/compare_outputs.py audits: the fixtures, and broken copies made by the test suite's scenarios.

Each row: (name, fixture, change(root) -> extra CLI args or None, extra CLI args, the health log under ROOT).
The changes are this checkout's test scenarios (tests/health_scenarios/ and friends,
tests/health/test_dense_context.py's CASES), so both sides of a comparison audit the same trees.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from tests import health_scenarios as hs
from tests import hook_scenarios, hot_content_scenarios, latency_scenarios, liveness_scenarios
from tests.health_support import DAY_MS, HOUR_MS, NOW_MS, set_mtimes

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "fixtures" / "demo"
DENSE = REPO / "fixtures" / "dense-context"
LIFEOS_LOG = "LIFEOS/MEMORY/OBSERVABILITY/memory-health.jsonl"
DENSE_LOG = "logs/cortex-health.jsonl"

SINGLE = (hs.reviewer_failed, hs.reviewer_malformed_line, hs.reviewer_stale, hs.retrieval_invalid_last,
          hs.proposals_backlog, hs.observability_bytes, hs.index_canonical_mismatch, hs.principal_overlength,
          hs.da_cap, hs.state_not_json, hs.config_not_json, hs.memory_tree_missing, hs.health_log_directory,
          hs.search_cache_garbage, hs.config_misspelt_name, hook_scenarios.recall_failing,
          hook_scenarios.settings_trailing_comma, hot_content_scenarios.principal_injection,
          hot_content_scenarios.da_duplicate, latency_scenarios.recall_slow, liveness_scenarios.hook_file_missing,
          liveness_scenarios.settings_hook_unregistered)
# applied one after another to one tree: many findings at once
MANY = (hs.reviewer_malformed_line, hs.retrieval_stale, hs.proposals_backlog, hs.index_bytes_mismatch,
        hs.da_double_end, hs.principal_overlength, hs.review_stale, hs.observability_age,
        hot_content_scenarios.principal_ephemeral, hot_content_scenarios.da_duplicate,
        hook_scenarios.failure_log_garbled, hook_scenarios.note_with_duplicate_id,
        liveness_scenarios.tool_file_missing)


def all_of(*changes):
    def change(root):
        extra = []
        for item in changes:
            extra += item(root) or []
        return extra
    return change


def dense_cases(*names):
    from tests.health.test_dense_context import CASES

    chosen = [change for name, change, _expected, _options in CASES if name in names]
    assert len(chosen) == len(names), names

    def change(root):
        for item in chosen:
            item(root)
        shutil.copy(root / "context/projects/alpha/experiments/EXP-001.md",
                    root / "context/projects/alpha/experiments/EXP-005.md")
    return change


LIFEOS_TREES = [("demo", DEMO, None, [], LIFEOS_LOG)]
LIFEOS_TREES += [(f"lifeos-{item.__name__}", DEMO, item, [], LIFEOS_LOG) for item in SINGLE]
LIFEOS_TREES += [("lifeos-many", DEMO, all_of(*MANY), [], LIFEOS_LOG),
                 ("cjk-auto", REPO / "fixtures" / "cjk", None, [], LIFEOS_LOG),
                 ("cjk-lifeos", REPO / "fixtures" / "cjk", None, ["--layout", "lifeos"], LIFEOS_LOG),
                 ("bench-demo-auto", REPO / "fixtures" / "bench-demo", None, [], LIFEOS_LOG),
                 ("bench-demo-lifeos", REPO / "fixtures" / "bench-demo", None, ["--layout", "lifeos"], LIFEOS_LOG)]
DENSE_TREES = [
    ("dense-context", DENSE, None, [], DENSE_LOG),
    ("dense-context-as-context", DENSE, None, [], DENSE_LOG),  # --root names context/ itself (below)
    ("dense-many", DENSE, dense_cases("mission", "status-lines", "agents-pressure", "yaml", "field", "summary",
                                      "dangling", "index-row-gone", "index-missing", "log-malformed",
                                      "decision-name", "decision-gap"), [], DENSE_LOG),
    ("dense-more", DENSE, dense_cases("issues-bytes", "project", "contradiction", "index-unknown", "log-missing",
                                      "decision-title"), [], DENSE_LOG),
    ("dense-no-agents", DENSE, lambda root: (root / "context/AGENTS.md").unlink(), ["--layout", "dense-context"],
     DENSE_LOG),
]


def build_tree(trees: Path, name: str, source: Path) -> Path:
    """A fresh copy of `source` at trees/name/root, every mtime an hour before NOW."""
    root = trees / name / "root"
    if root.parent.exists():
        shutil.rmtree(root.parent)
    root.parent.mkdir(parents=True)
    shutil.copytree(source, root, symlinks=True)
    set_mtimes(root, NOW_MS - HOUR_MS)
    return root


def settle(root: Path) -> None:
    """What the change touched at wall-clock time gets the tree's mtime back (set ones, relative to NOW, stay)."""
    ns = (NOW_MS - HOUR_MS) * 1_000_000
    for path in [root, *root.rglob("*")]:
        if not path.is_symlink() and path.stat().st_mtime_ns > (NOW_MS + DAY_MS) * 1_000_000:
            os.utime(path, ns=(ns, ns))


def prepared(trees: Path, name: str, source: Path, change, extra: list[str]) -> tuple[Path, Path, list[str]]:
    """(the tree's folder, the ROOT audited, the full extra arguments: the change may add some, e.g. --config)."""
    root = build_tree(trees, name, source)
    extra = list(extra) + list((change(root) if change else None) or [])
    settle(root)
    return root, (root / "context" if name == "dense-context-as-context" else root), extra
