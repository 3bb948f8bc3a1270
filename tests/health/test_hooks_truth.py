"""Issue 22 through the real CLIs: the hooks record their own failures and the auditor runs what each hook runs.

Every scenario is a tree built in tmp_path (a copy of the healthy demo, or a fresh `cortex init`
tree wired as the README says), the hooks run as real `cortex` / `cortex-health` children, and the
audit after them must name the problem: a note with an impossible date, a duplicate id, a broken
memory-review.json, hand-edited hot lines, a trailing comma in settings.json, the gate's first
Stop, a reviewer run whose every write was refused.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from cortex.core.timestamps import iso_from_ms
from cortex.hookrows import hook_failure_problem
from tests import hook_scenarios as hooks
from tests.health_support import NOW, NOW_MS, clean_env, copy_demo, hot, memory, obs, read_rows, run_cli, wait_for_gate
from tests.review_support import program, write_transcript
from tests.write_support import REPO, register_cortex_hooks

MINUTE_MS = 60_000


def at(minutes_before_now: int) -> str:
    return iso_from_ms(NOW_MS - minutes_before_now * MINUTE_MS)


def cortex(root: Path, *args: str, stdin: str = "", now: str = NOW, **env: str) -> subprocess.CompletedProcess:
    """A `cortex` command as the hooks run it: a child process, the tree's root, the hook's clock."""
    completed = subprocess.run([sys.executable, "-m", "cortex", *args, "--root", str(root)], input=stdin, text=True,
                               capture_output=True, env=clean_env(CORTEX_NOW=now, **env), cwd=REPO, timeout=60)
    assert "Traceback" not in completed.stderr, completed.stderr
    return completed


def gate(root: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    completed = subprocess.run([sys.executable, "-m", "health", "gate", "--root", str(root), *args], text=True,
                               capture_output=True, env=env or clean_env(), cwd=REPO, timeout=120,
                               stdin=subprocess.DEVNULL)
    assert completed.returncode == 0 and "Traceback" not in completed.stderr, completed.stderr
    wait_for_gate(root)  # the check runs after the gate returns
    return completed


def failures(root: Path) -> list[dict]:
    path = obs(root) / "hook-failures.jsonl"
    rows = read_rows(path) if path.exists() else []
    assert all(hook_failure_problem(row) is None for row in rows), rows
    return rows


def criticals(result) -> list[str]:
    return [f["id"] for f in result.report["findings"] if f["severity"] == "critical"]


def test_a_note_with_an_impossible_date_is_named_by_file_line_and_rule_and_recall_leaves_its_row(tmp_path):
    root = copy_demo(tmp_path)
    hooks.note_with_impossible_date(root)
    searched = cortex(root, "search", "frost")
    assert searched.returncode == 4 and json.loads(searched.stdout)["error"]["code"] == "integrity_error"
    recalled = cortex(root, "recall", stdin=json.dumps({"prompt": "frost dates"}), now=at(10))
    assert (recalled.returncode, recalled.stdout) == (0, "") and "Invalid created timestamp" in recalled.stderr
    [row] = failures(root)
    assert row | {"ts": None} == {"ts": None, "hook": "recall", "code": "integrity_error",
                                  "reason": "Invalid created timestamp for knowledge-seed-order in KNOWLEDGE/seed-order.md",
                                  "file": "LIFEOS/MEMORY/KNOWLEDGE/seed-order.md", "line": 4, "field": "created",
                                  "rule": "timestamp"}
    assert row["ts"] == at(10)

    result = run_cli(root=root)
    assert result.code == 2
    corpus = result.finding("corpus-integrity-error")
    assert {key: corpus["detail"][key] for key in ("file", "line", "field", "rule")} == {
        "file": "LIFEOS/MEMORY/KNOWLEDGE/seed-order.md", "line": 4, "field": "created", "rule": "timestamp"}
    assert "seed-order.md:4" in corpus["message"] and "rule timestamp" in corpus["message"]
    failing = result.finding("hook-failing:recall")
    assert failing["severity"] == "critical" and failing["detail"]["file"] == "LIFEOS/MEMORY/KNOWLEDGE/seed-order.md"
    assert "Invalid created timestamp" in failing["message"] and failing["detail"]["failed_at"] == at(10)
    assert "2026-02-30" not in result.stdout  # never the value

    # fixed: the next recall succeeds, the audit says the hook recovered and when it last failed
    hooks.write_note(root, "seed-order.md", "---\nid: knowledge-seed-order\ntitle: Seed order\ncreated: 2026-02-28\n"
                     "---\nOrder the seeds by the end of January.\n")
    assert cortex(root, "recall", stdin=json.dumps({"prompt": "seeds"}), now=at(5)).returncode == 0
    again = run_cli(root=root)
    assert again.code == 0, again.ids()
    recovered = next(d for d in again.report["ok_summary"] if d.startswith("hook-recovered:"))
    assert recovered == "hook-recovered:recall" and "corpus-loads" in again.report["ok_summary"]


def test_a_duplicate_id_names_the_repeat_and_its_line(tmp_path):
    root = copy_demo(tmp_path)
    hooks.note_with_duplicate_id(root)
    assert cortex(root, "search", "frost").returncode == 4
    result = run_cli(root=root)
    found = result.finding("corpus-integrity-error")
    assert found["severity"] == "critical" and result.code == 2
    assert (found["detail"]["rule"], found["detail"]["field"], found["detail"]["line"]) == ("duplicate-id", "id", 2)
    assert found["detail"]["file"].startswith("LIFEOS/MEMORY/KNOWLEDGE/frost-dates")
    assert "Duplicate canonical ID knowledge-frost-dates" in found["message"]


def test_a_broken_review_config_stops_review_fire_and_is_critical_naming_the_line(tmp_path):
    root = copy_demo(tmp_path)
    hooks.review_config_trailing_comma(root)
    fired = cortex(root, "review", "fire", "--session", "s1", now=at(3))
    assert fired.returncode == 1 and "memory-review.json" in fired.stderr
    [row] = failures(root)
    assert (row["hook"], row["code"], row["file"], row["line"], row["rule"]) == (
        "fire", "invalid_input", "LIFEOS/USER/CONFIG/memory-review.json", 4, "json")
    result = run_cli(root=root)
    config = result.finding("reviewer-config-invalid")
    assert config["severity"] == "critical" and config["detail"]["line"] == 4 and "(line 4)" in config["message"]
    assert result.finding("hook-failing:fire")["detail"]["file"] == "LIFEOS/USER/CONFIG/memory-review.json"

    hooks.review_config_wrong_type(root)  # another verdict: the remembered one is bound to the bytes
    typed = run_cli(root=root).finding("reviewer-config-invalid")
    assert typed["detail"]["field"] == "turn_threshold" and "field turn_threshold" in typed["message"]
    assert run_cli(root=root).finding("reviewer-config-invalid") == typed  # the remembered verdict: the same finding
    (root / "LIFEOS" / "USER" / "CONFIG" / "memory-review.json").write_text('{"schema_version": 1, "turn_threshold": 8}')
    assert "reviewer-config-valid" in run_cli(root=root).report["ok_summary"]


def test_an_unchanged_config_and_corpus_cost_the_audit_no_validation_library_and_no_parse(tmp_path):
    from tests.architecture.test_startup_imports import modules_after

    root = copy_demo(tmp_path)
    hooks.review_config_wrong_type(root)
    env = clean_env(CORTEX_CACHE_DIR=str(tmp_path / "cache"))
    args = ["--format", "json", "--no-write", "--root", str(root), "--now", NOW]
    first = modules_after("health", args, env, tmp_path)
    assert "pydantic" in first and "cortex.core.corpus" in first  # validated and parsed once, then remembered
    again = modules_after("health", args, env, tmp_path)
    assert "pydantic" not in again and "cortex.core.corpus" not in again
    young = memory(root) / "KNOWLEDGE" / "frost-dates.md"
    os.utime(young, (time.time() + 3600,) * 2)  # within the racy margin of any load: never trusted from the memo
    for _ in range(2):
        assert "cortex.core.corpus" in modules_after("health", args, env, tmp_path)


def test_hand_edited_hot_lines_are_reported_listed_and_recorded_when_a_write_drops_them(tmp_path):
    root = copy_demo(tmp_path)
    path = hot(root, "principal")
    kept = [line for line in path.read_text().splitlines() if line.startswith(("NAME", "ROLE", "RELATION", "PREF", "RULE"))]
    hooks.hot_hand_edits(root)
    lines = path.read_text().splitlines()
    numbers = [lines.index(text) + 1 for text in hooks.HAND_EDITS]

    read = json.loads(cortex(root, "hot", "read", "principal").stdout)["data"]
    assert [(row["entry"], row["reason"], row["line"]) for row in read["dropped_invalid"]] == [
        (text, "unparsed", number) for text, number in zip(hooks.HAND_EDITS, numbers)]
    assert "list marker" in read["dropped_invalid"][0]["rule"] and "PREFERENCE" in read["dropped_invalid"][1]["rule"]
    assert "no space after the colon" in read["dropped_invalid"][2]["rule"]

    result = run_cli(root=root)
    found = result.finding("hot-entries-unparsed:PRINCIPAL_MEMORY.md")
    assert found["severity"] == "warn" and result.code == 1
    assert [item["line"] for item in found["detail"]["lines"]] == numbers
    assert all(f"line {number}:" in found["message"] for number in numbers) and "next write drops" in found["message"]
    assert "entries-valid:principal" not in result.report["ok_summary"]

    written = cortex(root, "hot", "set", "principal", stdin="\n".join(kept) + "\n")
    assert written.returncode == 0 and "not entries" in written.stderr
    row = read_rows(obs(root) / "memory-writes.jsonl")[-1]
    assert [d for d in row["dropped"] if d["reason"] == "unparsed"] == [
        {"entry": text, "reason": "unparsed"} for text in hooks.HAND_EDITS]
    assert not any(text in path.read_text() for text in hooks.HAND_EDITS)
    snapshots = list((obs(root) / "memory-snapshots").iterdir())
    assert any(all(text in s.read_text() for text in hooks.HAND_EDITS) for s in snapshots)
    assert "entries-valid:principal" in run_cli(root=root).report["ok_summary"]


def test_a_trailing_comma_in_settings_is_one_leading_critical_with_line_and_column(tmp_path):
    root = copy_demo(tmp_path)
    hooks.settings_trailing_comma(root)
    result = run_cli(root=root)
    assert criticals(result) == ["settings-invalid"], result.ids()
    first = result.report["findings"][0]
    assert first["id"] == "settings-invalid"
    assert (first["detail"]["line"], first["detail"]["column"]) == (14, 7)
    assert "line 14, column 7" in first["message"]
    assert not [i for i in result.ids() + result.report["ok_summary"] if i.startswith(("hook-file-", "tool-file-"))]


def _active_agent(root: Path, minutes_before_now: int) -> None:
    """A transcript with a user turn, as Claude Code writes it when a prompt is submitted."""
    write_transcript(root / "projects" / "garden" / "s1.jsonl", [("When do the tomatoes go out?", "After the frost.")],
                     prefix=[{"type": "user", "timestamp": at(minutes_before_now),
                              "message": {"role": "user", "content": "When do the tomatoes go out?"}}])


def test_the_gates_first_stop_is_green_where_the_rest_is_green(tmp_path):
    root = copy_demo(tmp_path)
    for name in ("memory-health.jsonl", "memory-health.checkpoint"):
        (obs(root) / name).unlink(missing_ok=True)  # the gate has never run on this tree
    _active_agent(root, 2)
    assert cortex(root, "hot", "render", now=at(2)).returncode == 0  # the prompt's hooks
    assert cortex(root, "recall", stdin=json.dumps({"prompt": "tomatoes"}), now=at(2)).returncode == 0
    assert cortex(root, "review", "fire", stdin=json.dumps({"session_id": "s1"}), now=at(1)).returncode == 0
    assert run_cli(root=root).finding("hook-silent:gate")["severity"] == "critical"  # no gate yet: it is silent

    gate(root, "--timeout", "60", "--now", NOW)  # the Stop: the gate judges, and it is the gate running
    published = read_rows(obs(root) / "memory-health.jsonl")[-1]
    assert published["overall"] == "ok", [f["id"] for f in published["findings"]]
    assert "hook-alive:gate" in published["ok_summary"]
    assert run_cli(root=root).code == 0  # and its heartbeat now stands for the next audit
    assert failures(root) == []


def test_a_fresh_tree_wired_as_the_readme_says_has_no_silent_hook_on_its_first_stop(tmp_path):
    root, home = tmp_path / "claude", tmp_path / "home"
    home.mkdir()
    env = clean_env(HOME=str(home))
    subprocess.run([sys.executable, "-m", "cortex", "init", "--root", str(root)], env=env, check=True,
                   capture_output=True, cwd=REPO)
    register_cortex_hooks(root)
    transcript = root / "projects" / "p" / "s1.jsonl"
    write_transcript(transcript, [("hello", "hi")], prefix=[{"type": "user", "timestamp": iso_from_ms(
        int(time.time() * 1000) - 30_000), "message": {"role": "user", "content": "hello"}}])
    payload = json.dumps({"session_id": "s1", "transcript_path": str(transcript), "prompt": "hello"})
    for args in (["hot", "render"], ["recall"], ["review", "fire"]):
        done = subprocess.run([sys.executable, "-m", "cortex", *args, "--root", str(root)], input=payload, text=True,
                              capture_output=True, env=env, cwd=REPO, timeout=60)
        assert done.returncode == 0 and done.stderr == "", (args, done.stderr)
        assert done.stdout.startswith("<lifeos-memory>") or args != ["hot", "render"]
    gate(root, "--timeout", "60", env=env)
    published = read_rows(obs(root) / "memory-health.jsonl")[-1]
    ids = [f["id"] for f in published["findings"]]
    assert not [i for i in ids if i.startswith(("hook-silent:", "hook-failing:"))], ids
    assert published["overall"] != "critical", ids


def test_a_reviewer_run_whose_every_write_is_refused_warns_with_the_codes_counted(tmp_path):
    root = copy_demo(tmp_path)
    path = hot(root, "principal")
    entries = [line for line in path.read_text().splitlines() if line.startswith(("NAME", "ROLE", "RELATION", "PREF",
                                                                                   "RULE"))]
    answers = tmp_path / "answers"
    answers.mkdir()
    item = {"type": "memory", "actor": "principal", "op": "set", "entries": entries[:-3],
            "rationale": "consolidated the list"}
    (answers / "answer-1.txt").write_text(json.dumps({"items": [item]}))
    transcript = write_transcript(tmp_path / "t.jsonl", [("I moved to Lyon", "Noted")] * 3)
    ran = cortex(root, "review", "run", "--input", str(transcript), now=at(5),
                 CORTEX_REVIEWER_COMMAND=program("canned", str(answers)))
    summary = json.loads(ran.stdout)["data"]
    assert ran.returncode == 0, ran.stdout
    row = read_rows(obs(root) / "reviewer-runs.jsonl")[-1]
    assert row["ok"] is True and row["dispatch_summary"]["skipped_guard"] == 1, (row, summary)
    result = run_cli(root=root)
    found = result.finding("reviewer-writes-refused")
    assert found["severity"] == "warn" and result.code == 1, result.ids()
    assert found["detail"]["codes"] == {"ESUSPECT_EROSION": 1} and "ESUSPECT_EROSION 1" in found["message"]


def test_each_hook_that_cannot_do_its_job_leaves_one_row_and_the_audit_names_it(tmp_path):
    root = copy_demo(tmp_path)
    principal = hot(root, "principal")
    principal.unlink()
    principal.mkdir()  # unreadable: render cannot build its block
    assert cortex(root, "hot", "render", now=at(4)).stdout == ""
    hooks.note_with_impossible_date(root)
    cortex(root, "recall", stdin=json.dumps({"prompt": "x"}), now=at(4))
    hooks.review_config_wrong_type(root)
    cortex(root, "review", "fire", "--session", "s1", now=at(4))
    gate(root, "--bogus")
    rows = failures(root)
    assert [row["hook"] for row in rows] == ["render", "recall", "fire", "gate"]
    assert rows[0]["file"] == "LIFEOS/USER/PRINCIPAL/PRINCIPAL_MEMORY.md" and rows[0]["rule"] == "unreadable"
    assert (rows[2]["field"], rows[3]["code"]) == ("turn_threshold", "invalid_input")
    result = run_cli(root=root, now=None)  # the gate's row has the real time: judge on it
    assert {"hook-failing:render", "hook-failing:recall", "hook-failing:fire", "hook-failing:gate"} <= set(criticals(result))


def test_a_subagent_session_records_nothing(tmp_path):
    root = copy_demo(tmp_path)
    hooks.note_with_impossible_date(root)
    done = cortex(root, "recall", stdin=json.dumps({"prompt": "x"}), CORTEX_SUBAGENT="1")
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert not (obs(root) / "hook-failures.jsonl").exists()


def test_the_success_paths_of_the_hooks_never_load_the_failure_writer(tmp_path):
    from tests.architecture.test_startup_imports import modules_after

    root = copy_demo(tmp_path)
    env = clean_env(CORTEX_NOW=NOW, CORTEX_MEMORY_ROOT=str(memory(root)))
    for args in (["hot", "render"], ["recall", "tea"], ["review", "fire", "--session", "s1"]):
        loaded = modules_after("cortex", args, env, tmp_path)
        assert "cortex.hookfailures" not in loaded and "cortex.hookrows" not in loaded, args
    loaded = modules_after("health", ["gate", "--root", str(root), "--now", NOW, "--timeout", "60"], clean_env(),
                           tmp_path)
    assert "cortex.hookfailures" not in loaded and not os.path.exists(obs(root) / "hook-failures.jsonl")


def test_a_clean_corpus_load_is_remembered_until_any_canonical_file_changes(tmp_path):
    root = copy_demo(tmp_path)
    env = clean_env(CORTEX_CACHE_DIR=str(tmp_path / "cache"))
    first = run_cli(root=root, env=env).report
    assert run_cli(root=root, env=env).report["evidence"]["corpus"] == first["evidence"]["corpus"]
    assert list((tmp_path / "cache" / "audit").rglob("*.verdict")), "no clean load was remembered"
    note = memory(root) / "KNOWLEDGE" / "frost-dates.md"
    stat = note.stat()
    note.write_text(note.read_text().replace("created: 2026-09-14T08:00:00Z", "created: 2026-09-31T08:00:00Z"))
    os.utime(note, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same size and mtime: the ctime still tells
    changed = run_cli(root=root, env=env)
    assert changed.finding("corpus-integrity-error")["detail"]["file"] == "LIFEOS/MEMORY/KNOWLEDGE/frost-dates.md"
    note.write_text(note.read_text().replace("2026-09-31", "2026-09-14"))  # fixed: loaded again, clean
    assert "corpus-loads" in run_cli(root=root, env=env).report["ok_summary"]
    for memo in (tmp_path / "cache" / "audit").rglob("*.verdict"):
        memo.write_text("{not a memo")  # damaged derived data: the corpus is loaded again, never trusted
    assert "corpus-loads" in run_cli(root=root, env=env).report["ok_summary"]
