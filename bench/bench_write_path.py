"""Benchmark (write path): prints median/p95 latency of governed writes on a fresh tree in a temp folder.

    python bench/bench_write_path.py [--runs N]

Measures, in-process through the real CLI code (no process start): hot set (lock, snapshot,
atomic replace, evidence row), remember idea (new record), propose (queue rewrite, at 0 and
at 1,000 queued rows) and approve; plus one `python -m cortex hot set` wall time.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from cortex.cli import run


def timed(fn, runs: int) -> tuple[float, float]:
    samples = []
    for i in range(runs):
        start = time.perf_counter()
        fn(i)
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.95) - 1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=200)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as root:
        env = {**os.environ, "CORTEX_MEMORY_ROOT": os.path.join(root, "LIFEOS", "MEMORY")}

        def cortex(*args: str, stdin: str = "") -> dict:
            code, envelope = run(list(args), environ=env, stdin=io.StringIO(stdin))
            assert code == 0, envelope
            return envelope

        cortex("init", "--root", root)
        base = [f"PREFERENCE: fact {i} ~explicit" for i in range(40)]

        def hot_set(i: int) -> None:
            cortex("hot", "set", "principal", stdin="\n".join(base[1:] + [f"RULE: r{i}"]))

        def remember(i: int) -> None:
            idea = {"type": "idea", "title": f"t{i}", "content": "c" * 500}
            cortex("remember", json.dumps(idea), "--adapter", "claude", "--allow-write")

        proposal = json.dumps({"type": "proposal", "target_file": "PROJECTS.md", "target_kind": "projects",
                               "edit": "e" * 200, "confidence": 0.5, "rationale": "r"})

        def propose(_i: int) -> None:
            cortex("propose", proposal, "--adapter", "codex", "--allow-write")

        results = {"hot set (40 entries)": timed(hot_set, runs), "remember idea": timed(remember, runs),
                   "propose (small queue)": timed(propose, runs)}
        for i in range(1000 - runs):
            propose(i)
        results["propose (1,000 queued)"] = timed(propose, 50)
        ids = [row["id"] for row in cortex("proposals", "list", "--status", "pending")["data"]["items"]]
        results["approve (1,000 queued)"] = timed(lambda i: cortex("proposals", "approve", ids[i]), 50)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "cortex", "hot", "set", "da"], input=b"ROLE: helper\n", env=env,
                       capture_output=True, check=True)
        results["CLI process: hot set"] = ((time.perf_counter() - start) * 1000,) * 2
    for name, (median, p95) in results.items():
        print(f"{name:28s} median {median:7.2f} ms   p95 {p95:7.2f} ms")


if __name__ == "__main__":
    main()
