"""--only and --skip by collector: skipped collectors are recorded as skipped, never judged, never green."""
from __future__ import annotations

import json

import pytest

from tests import health_scenarios as s
from tests.health_support import NOW, copy_demo
from tests.ops_support import health


def run(root, *args):
    return health("--root", str(root), "--now", NOW, "--no-write", *args)


def test_only_runs_the_named_collectors_and_records_the_rest_as_skipped(tmp_path):
    root = copy_demo(tmp_path)
    s.index_bad_policy(root)  # critical, but not selected
    s.retrieval_stale(root)
    done = run(root, "--only", "retrieval,review-state")
    report = json.loads(done.stdout)
    assert done.returncode == 1 and [f["id"] for f in report["findings"]] == ["retrieval-stale"]
    statuses = {name: item["status"] for name, item in report["evidence"].items()}
    assert statuses["retrieval"] == "ok" and statuses["review_state"] == "ok"
    assert {name for name, status in statuses.items() if status == "skipped"} == {
        "reviewer", "proposals", "observability", "index", "hot_memory", "install", "heartbeats", "review_cadence", "reviewer_lifecycle", "dispatch_failures", "locks", "memory_root",
        "health_history", "search_cache", "hook_failures", "reviewer_config", "corpus", "hot_content", "hook_latency"}
    assert "index-no-index-v1" not in report["ok_summary"] and "cortex-clock-valid" in report["ok_summary"]


def test_skip_leaves_collectors_out_and_text_says_so(tmp_path):
    root = copy_demo(tmp_path)
    s.index_bad_policy(root)
    s.principal_missing(root)
    assert run(root).returncode == 2
    done = run(root, "--skip", "index", "--skip", "hot_memory", "--format", "text")
    assert done.returncode == 0 and "skipped (not checked): index, hot_memory" in done.stdout
    line = health("statusline", "--root", str(root), "--now", NOW, "--refresh").stdout  # refresh runs everything
    assert line.startswith("mem ✖ crit 2 · ")


@pytest.mark.parametrize("args,needle", [
    (["--only", "nope"], "unknown collector(s) nope"),
    (["--only", "index", "--skip", "index"], "leave no collector to run"),
    (["--skip", ","], "expected NAME[,NAME...]"),
])
def test_bad_selections_are_usage_errors(tmp_path, args, needle):
    done = run(copy_demo(tmp_path), *args)
    assert done.returncode == 3 and needle in json.loads(done.stdout)["reason"]
