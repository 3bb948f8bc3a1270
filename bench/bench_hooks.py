#!/usr/bin/env python3
"""Benchmark: wall time of the hook commands as Claude Code runs them (one process per call).

On a fresh `cortex init` tree with a full principal file (48 entries) and --records
canonical records, times `cortex hot render`, `cortex recall` (hook payload on stdin) and
`cortex review fire` (a turn that does not start the reviewer, and one that starts it
detached), plus the interpreter's own start-up for reference. Prints the median and the
worst of --repeat runs in milliseconds, then the median in-process cost of render's
heartbeat write (atomic rename, no fsync) beside the same write fsynced, which wall times
on a busy machine are too noisy to show.

Example: python bench/bench_hooks.py --repeat 15 --records 1500
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def timed(argv: list[str], env: dict, stdin: str = "") -> float:
    started = time.perf_counter()
    proc = subprocess.run(argv, input=stdin.encode(), capture_output=True, env=env, cwd=str(REPO), timeout=60)
    elapsed = (time.perf_counter() - started) * 1000
    if proc.returncode != 0 or proc.stderr:
        raise SystemExit(f"{argv}: exit {proc.returncode}: {proc.stderr.decode()}")
    return elapsed


def build(root: Path, records: int, env: dict) -> None:
    subprocess.run([sys.executable, "-m", "cortex", "init", "--root", str(root)], check=True, capture_output=True,
                   env=env)
    entries = "".join(f"PREFERENCE: durable fact number {i} about tea and tooling ~explicit\n" for i in range(48))
    subprocess.run([sys.executable, "-m", "cortex", "hot", "set", "principal"], input=entries.encode(), check=True,
                   capture_output=True, env=env)
    folder = root / "LIFEOS" / "MEMORY" / "KNOWLEDGE" / "Research"
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(records):
        (folder / f"note-{i}.md").write_text(f"---\nid: note-{i}\ntitle: Note {i}\ncreated: 2026-01-01\n---\n"
                                             f"Research note {i} on memory, retrieval and green tea rituals.\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=11)
    parser.add_argument("--records", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "claude"
        config = root / "LIFEOS" / "USER" / "CONFIG"
        transcript = Path(tmp) / "bench-session.jsonl"
        transcript.write_text(json.dumps({"type": "user", "message": {"content": "hi"}}) + "\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith("CORTEX_")}
        env.update(CORTEX_MEMORY_ROOT=str(root / "LIFEOS" / "MEMORY"), HOME=tmp,
                   CORTEX_REVIEWER_COMMAND=shlex.join([sys.executable, "-c", "print('{\"items\": []}')"]))
        build(root, args.records, env)
        config.mkdir(parents=True, exist_ok=True)
        cortex = [sys.executable, "-m", "cortex"]
        prompt = json.dumps({"session_id": "bench", "prompt": "what tea do I drink while retrieving memory"})
        cases = {
            "python -c pass (start-up)": lambda: timed([sys.executable, "-c", "pass"], env),
            "hot render": lambda: timed(cortex + ["hot", "render"], env),
            "recall (hook payload)": lambda: timed(cortex + ["recall"], env, prompt),
            "review fire (count only)": lambda: timed(cortex + ["review", "fire", "--session", "bench"], env),
        }

        started = [0]

        def fire_and_start() -> float:
            (config / "memory-review.json").write_text('{"schema_version": 1, "turn_threshold": 1, "min_minutes_between": 0}')
            try:
                return timed(cortex + ["review", "fire", "--session", "bench-start", "--transcript", str(transcript)], env)
            finally:
                (config / "memory-review.json").unlink()
                started[0] += 1
                wait_for_reviewers(root, started[0])  # time the hook, not the CPU it shares with earlier reviewers

        cases["review fire (starts reviewer)"] = fire_and_start
        print(f"{'command':32} {'median ms':>10} {'max ms':>8}   ({args.repeat} runs, {args.records} records)")
        for name, run in cases.items():
            samples = [run() for _ in range(args.repeat)]
            print(f"{name:32} {statistics.median(samples):10.1f} {max(samples):8.1f}")
        for name, micros in heartbeat_writes(str(root / "LIFEOS" / "MEMORY"), args.repeat * 20).items():
            print(f"{name:32} {micros:10.1f} µs (in-process median)")


def heartbeat_writes(memory_root: str, repeat: int) -> dict[str, float]:
    """render's surface-heartbeat write alone (atomic, no fsync), beside the same write made durable (fsync ×2)."""
    from cortex.core.durable import replace_file
    from cortex.hot.surfacebeat import HEARTBEAT_NAME, beat
    from cortex.layout import Layout

    layout = Layout.from_memory_root(memory_root)
    path = os.path.join(layout.state, HEARTBEAT_NAME)
    writes = {"heartbeat write (render)": lambda i: beat(layout, 1_700_000_000_000 + i),
              "same write, fsynced": lambda i: replace_file(path, b"2023-11-14T22:13:20.000Z\n")}
    result = {}
    for name, write in writes.items():
        samples = []
        for i in range(repeat):
            started = time.perf_counter()
            write(i)
            samples.append((time.perf_counter() - started) * 1e6)
        result[name] = statistics.median(samples)
    return result


def wait_for_reviewers(root: Path, started: int, deadline_s: float = 60) -> None:
    """The detached reviewers must finish before the temporary tree goes away."""
    log = root / "LIFEOS" / "MEMORY" / "OBSERVABILITY" / "reviewer-runs.jsonl"
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        if log.exists() and len(log.read_text().splitlines()) >= started:
            time.sleep(0.2)  # each reviewer updates review-state.json just after its row
            return
        time.sleep(0.05)


if __name__ == "__main__":
    main()
