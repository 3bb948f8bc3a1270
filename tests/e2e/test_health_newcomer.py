"""Issue 14 on the auditor's side, through the real CLI: thresholds with units, usage errors that hint."""
from __future__ import annotations

import json
import re

from tests.health_support import clean_env, copy_demo, run_cli
from tests.ops_support import health


def test_durations_and_sizes_are_accepted_from_cli_env_and_config(tmp_path):
    config = tmp_path / "health.json"
    config.write_text('{"thresholds": {"index_stale_ms": "36h", "proposal_backlog": 3}}')
    result = run_cli("--threshold", "retrieval_stale_ms=2h", "--threshold", "lock_held_ms=90s", "--config", str(config),
                     root=copy_demo(tmp_path), env=clean_env(CORTEX_OBSERVABILITY_MAX_BYTES="256MiB",
                                                              CORTEX_REVIEWER_STALE_MS="7d"))
    limits = result.report["thresholds"]
    assert limits["retrieval_stale_ms"]["value"] == 7_200_000 and limits["retrieval_stale_ms"]["source"] == "cli"
    assert limits["lock_held_ms"]["value"] == 90_000
    assert limits["observability_max_bytes"]["value"] == 256 * 1024 * 1024
    assert limits["reviewer_stale_ms"]["value"] == 7 * 86_400_000
    assert limits["index_stale_ms"]["value"] == 36 * 3_600_000 and limits["index_stale_ms"]["source"] == "config"
    assert "cortex-threshold-invalid" not in [f["id"] for f in result.report["findings"]]


def test_units_that_do_not_fit_and_non_ascii_digits_stay_invalid(tmp_path):
    for number, value in enumerate(("2MiB", "１h", "2 fortnights")):
        result = run_cli("--threshold", f"retrieval_stale_ms={value}", root=copy_demo(tmp_path / str(number)))
        assert result.code == 2 and "cortex-threshold-invalid" in [f["id"] for f in result.report["findings"]]
    counted = run_cli("--threshold", "proposal_backlog=2h", root=copy_demo(tmp_path / "c"))
    assert counted.code == 2


def test_reports_show_a_threshold_in_both_forms(tmp_path):
    explained = health("explain", "retrieval-stale", "observability-bytes-exceeded", env=clean_env())
    assert "retrieval_stale_ms = 1d (86400000 ms) (default)" in explained.stdout
    assert "observability_max_bytes = 256MiB (268435456 bytes) (default)" in explained.stdout
    listed = health("--list-checks", "--threshold", "hook_silence_ms=2h", env=clean_env()).stdout
    assert "hook_silence_ms = 2h (7200000 ms) (cli)" in listed
    verbose = run_cli("--format", "text", "-v", "--threshold", "retrieval_stale_ms=1s", root=copy_demo(tmp_path))
    assert "retrieval_stale_ms = 1s (1000 ms) (cli --threshold)" in verbose.stdout


def test_a_misspelt_threshold_name_is_a_usage_error_naming_the_closest(tmp_path):
    result = run_cli("--threshold", "retreival_stale_ms=2h", root=copy_demo(tmp_path))
    assert result.code == 3 and result.report["overall"] == "unknown"
    assert "did you mean retrieval_stale_ms?" in result.stderr and "known: reviewer_stale_ms," in result.stderr


def test_a_misspelt_option_suggests_the_closest_and_honours_format_text(tmp_path):
    result = run_cli("--formt", "text", root=copy_demo(tmp_path))
    assert result.code == 3 and "did you mean --format?" in result.stderr
    assert "did you mean" not in run_cli("--bogus", root=copy_demo(tmp_path / "b")).stderr  # nothing close enough
    text = run_cli("--format", "text", "--verbos", root=copy_demo(tmp_path / "t"), timeout=60)
    assert text.code == 3 and text.stdout.startswith("cortex-health UNKNOWN")
    assert "did you mean --verbose?" in text.stdout and "No problems found" not in text.stdout
    assert json.loads(run_cli("--json", "--verbos", root=copy_demo(tmp_path / "j")).stdout)["overall"] == "unknown"


def test_an_unknown_verdict_never_says_no_problems_found(tmp_path):
    done = health("--root", str(tmp_path / "nonexistent"), "--format", "text", "--no-write", env=clean_env())
    assert done.returncode == 3 and "UNKNOWN" in done.stdout
    assert "No problems found" not in done.stdout and "is not a directory" in done.stdout


def test_a_root_without_lifeos_names_the_tree_nearby(tmp_path):
    home = tmp_path / "home"
    tree = copy_demo(tmp_path)
    home.mkdir()
    tree.rename(home / ".claude")
    guessed = run_cli(root=home)
    assert guessed.code == 3 and f"a LifeOS tree is at {home / '.claude'}: use --root {home / '.claude'}" in guessed.stderr
    forced = run_cli("--layout", "lifeos", root=home)
    assert forced.code == 2 and forced.report["overall"] == "critical"
    first = forced.report["findings"][0]
    assert first["id"] == "memory-root-missing" and first["detail"]["path"] == str(home / "LIFEOS" / "MEMORY")
    assert f"use --root {home / '.claude'}" in first["message"]
    below = run_cli("--layout", "lifeos", root=home / ".claude" / "LIFEOS" / "MEMORY")
    assert below.report["findings"][0]["detail"]["nearby"] == str(home / ".claude")
    assert "memory-root-present" in run_cli(root=home / ".claude").report["ok_summary"]


def test_statusline_and_history_say_a_root_does_not_exist(tmp_path):
    missing = str(tmp_path / "nonexistent")
    line = health("statusline", "--root", missing, env=clean_env())
    assert line.returncode == 0 and "mem ? no such root /" in line.stdout and "no health run" not in line.stdout
    history = health("history", "--root", missing, env=clean_env())
    assert history.returncode == 3 and "does not exist" in history.stderr and "no run recorded" not in history.stdout
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "no health run" in health("statusline", "--root", str(empty), env=clean_env()).stdout  # a real root: as before


def _verbose(root, *args):
    return run_cli("--format", "text", "-v", *args, root=root)


def test_findings_say_the_measured_value_the_limit_and_the_error(tmp_path):
    from tests import health_scenarios as s

    failing = copy_demo(tmp_path / "failing")
    s.reviewer_failing(failing)
    shown = _verbose(failing).stdout
    table_row = next(line for line in shown.splitlines() if "reviewer-failing" in line and "│" in line)
    assert re.search(r"│ 3 +│ 3 +│$", table_row)  # Measured and Threshold, as -v says
    block = shown[shown.index("WARN reviewer-failing:"):]
    assert "threshold: 3 (fixed by the rule, not configurable)" in block
    explained = health("explain", "reviewer-failing", env=clean_env()).stdout  # the same threshold, said the same way
    assert "threshold:  3 (fixed by the rule, not configurable)" in explained
    from tests.serve_support import Server

    assert run_cli(root=failing, write=True).code == 1  # published: the dashboard shows it
    server = Server(failing)
    try:
        page = server.get("/")
    finally:
        server.stop()
    row = page[page.index('data-id="reviewer-failing"'):]
    assert "<td>3 (fixed by the rule, not configurable)</td>" in row[:row.index("</tr>")]
    assert "warns at 3 or more" in " ".join(block.split()) and "newest error:" in block
    failed = copy_demo(tmp_path / "failed")
    s.reviewer_failed(failed)
    report = run_cli(root=failed).report
    latest = next(f for f in report["findings"] if f["id"] == "reviewer-latest-failed")
    assert " failed: " in latest["message"] and "is failed" not in latest["message"]
    block = _verbose(failed).stdout
    evidence = next(line for line in block.splitlines() if line.startswith("  evidence:"))
    assert not evidence.startswith("  evidence:  reviewer evidence ok")
    assert "(from the reviewer collector; its files: ok)" in " ".join(block.split())
    malformed = copy_demo(tmp_path / "malformed")
    s.reviewer_malformed_line(malformed)
    message = next(f["message"] for f in run_cli(root=malformed).report["findings"]
                   if f["id"] == "reviewer-latest-parse-failed")
    assert "has 1 malformed line (line 3: " in message
