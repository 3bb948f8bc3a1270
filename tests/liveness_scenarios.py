"""Mutations of the demo tree for the loop-liveness ids (issue 12), one per finding: each returns extra CLI args.

Kept apart from tests/health_scenarios/ (its own area, with its own builders): the builders are
those of the liveness tests. A dead pid is a finished child; a live one is this test process.
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from collectors.lifeos.install import HOOK_FILES, TOOL_FILES
from cortex.core.timestamps import iso_from_ms
from tests.health_support import NOW_MS, hot, memory, obs
from tests.health.test_liveness_install import lifeos_native, transcript

MINUTE_MS = 60_000
HOUR_MS = 60 * MINUTE_MS


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def settings(root: Path) -> dict:
    return json.loads((root / "settings.json").read_text())


def write_settings(root: Path, data: dict) -> None:
    (root / "settings.json").write_text(json.dumps(data))


def write_log(root: Path, name: str, rows: list[dict]) -> None:
    (obs(root) / name).write_text("".join(json.dumps(row) + "\n" for row in rows))


def run_id(ms: int) -> str:
    return iso_from_ms(ms).replace(":", "-").replace(".", "-")


def plant_lock(path: Path, *, pid: int, host: str | None = None, ts_ms: int = NOW_MS - MINUTE_MS) -> None:
    path.write_text(json.dumps({"pid": pid, "host": host or socket.gethostname(), "ts": iso_from_ms(ts_ms),
                                "token": "abc"}))


# ---- install --------------------------------------------------------------------------------

def hook_file_missing(root):
    lifeos_native(root, hooks=HOOK_FILES[1:])


def tool_file_missing(root):
    lifeos_native(root, tools=TOOL_FILES[:-1])


def settings_not_json(root):
    lifeos_native(root)
    (root / "settings.json").write_text("{not json")


def settings_directory(root):
    (root / "settings.json").unlink()
    (root / "settings.json").mkdir()


def settings_hook_clobbered(root):
    lifeos_native(root, live=("MemoryHealthGate.hook.ts", "MemoryReviewFire.hook.ts"),
                  system=("MemoryTurnStart.hook.ts", "MemoryHealthGate.hook.ts"))


def settings_hook_unregistered(root):
    data = settings(root)
    del data["hooks"]["UserPromptSubmit"][0]["hooks"][1]  # `cortex recall` no longer registered
    write_settings(root, data)


def hook_command_unresolved(root):
    data = settings(root)
    data["hooks"]["Stop"][0]["hooks"][0]["command"] = "/nowhere/bin/cortex review fire"
    write_settings(root, data)


def subagent_flag(root):
    data = settings(root)
    data["env"] = {"CORTEX_SUBAGENT": "1"}
    write_settings(root, data)


# ---- heartbeats -----------------------------------------------------------------------------

def surface_heartbeat_missing(root):
    (memory(root) / "STATE" / "delta-surface-heartbeat").unlink()


def surface_heartbeat_directory(root):
    beat = memory(root) / "STATE" / "delta-surface-heartbeat"
    beat.unlink()
    beat.mkdir()


def hooks_silent_while_active(root):
    transcript(root, NOW_MS - 50 * MINUTE_MS, NOW_MS - 10 * MINUTE_MS)


def transcripts_not_a_folder(root):
    (root / "projects").write_text("not a folder\n")


# ---- reviewer lifecycle and cadence ---------------------------------------------------------

def start_row(ms: int, pid: int) -> dict:
    return {"ts": iso_from_ms(ms), "runId": run_id(ms), "started": True, "pid": pid, "host": socket.gethostname()}


def _finished_start() -> dict:
    """The started row of the demo's last finished run (from another host, so never judged by pid)."""
    return {"ts": "2026-11-29T08:59:30.004Z", "runId": "2026-11-29T08-59-30-004Z", "started": True, "pid": 1,
            "host": "elsewhere"}


def reviewer_interrupted(root):
    write_log(root, "reviewer-starts.jsonl", [_finished_start(), start_row(NOW_MS - MINUTE_MS, dead_pid())])


def reviewer_interrupted_thrice(root):
    write_log(root, "reviewer-starts.jsonl",
              [_finished_start()] + [start_row(NOW_MS - m * MINUTE_MS, dead_pid()) for m in (3, 2, 1)])


def reviewer_spawn_lost(root):
    write_log(root, "reviewer-fires.jsonl", [{"ts": iso_from_ms(NOW_MS - 11 * MINUTE_MS), "session": "s", "turns": 8,
                                              "started": True, "reason": "threshold reached", "pid": 4242}])


def reviewer_only_skips(root):
    skips = [{"ts": iso_from_ms(ms), "ok": True, "runId": run_id(ms), "transcript": None, "exchanges": 0,
              "inference_duration_ms": 0, "parse_ok": True, "skipped": True, "error": "no transcript found"}
             for ms in (NOW_MS - m * MINUTE_MS for m in (5, 4, 3, 2, 1))]
    with open(obs(root) / "reviewer-runs.jsonl", "a") as log:
        log.writelines(json.dumps(row) + "\n" for row in skips)


def review_turns_piled_up(root):
    path = obs(root) / "review-state.json"
    state = json.loads(path.read_text())
    state["turn_count_since_last_review"] = 33  # over 4 × the 8-turn threshold
    path.write_text(json.dumps(state))


def dispatch_items_kept(root):
    folder = obs(root) / "reviewer-runs" / "2026-11-29T08-59-30-004Z"
    folder.mkdir(exist_ok=True)
    item = {"type": "memory", "target": "principal", "content": "PREFERENCE: tea ~explicit"}
    (folder / "failed-items.json").write_text(json.dumps(
        {"runId": folder.name, "items": [{"index": 0, "code": "ELOCK_HELD", "error": "held", "item": item}]}))


# ---- locks ----------------------------------------------------------------------------------

def lock_of_dead_writer(root):
    plant_lock(Path(str(hot(root, "principal")) + ".lock"), pid=dead_pid())


def lock_held_too_long(root):
    """This live test process holds the DA lock, stamped now; the audit's --now is two hours later.

    Only the locks row runs: the demo's other evidence is dated around NOW, not the wall clock.
    """
    stamped = int(time.time() * 1000)  # after this process started, so its pid is not taken for reused
    plant_lock(Path(str(hot(root, "da")) + ".lock"), pid=os.getpid(), ts_ms=stamped)
    return ["--only", "locks", "--now", iso_from_ms(stamped + 2 * HOUR_MS)]


def lock_held_elsewhere(root):
    plant_lock(obs(root) / "pending-proposals.jsonl.lock", pid=4242, host="another-host")


def locks_contended(root):
    write_log(root, "memory-locks.jsonl", [{"ts": iso_from_ms(NOW_MS - i * HOUR_MS), "event": "lock_contended",
                                            "reason": "holder-alive", "lock": "x"} for i in range(1, 12)])
