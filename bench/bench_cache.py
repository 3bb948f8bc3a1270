#!/usr/bin/env python3
"""Bench: `cortex search`, `recall` and `status` with the search cache off, cold (empty) and warm, at 1,500 and 50,000 records.

Run by hand (not by the test suite): `python bench/bench_cache.py --help`.

Corpora come from bench/bench_search.py's generator (the same seeded records, cached under
--workdir). Each command runs as a real subprocess; the cache goes to a folder of this
run. "off" is CORTEX_CACHE=off (every file parsed, as before the cache); "cold" starts
from an empty cache each run (the call reads the files as an uncached one does; a detached
builder indexes and stores them after the answer, untimed: each run first waits for the last
one's builder); "warm" runs once the cache is full, and "calls to warm" says how many calls
filled it (cortex.searchcache.builder: one).
Printed: the median wall time of each, the peak RSS, and warm as a share of off. The goal
of issue 13: warm search, recall and status at 50,000 records in at most 300 ms.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_search import corpus, run_once  # noqa: E402 - the existing generator and child runner

GOAL_S = 0.300
QUERY = "nightly backup migration"
PROMPT = "what did we decide about the nightly backup migration after the incident"


def commands(memory: Path) -> list[tuple[str, list[str]]]:
    root = ["--memory-root", str(memory)]
    return [("search", ["search", QUERY, *root]), ("recall", ["recall", PROMPT, *root]), ("status", ["status", *root])]


def aged(memory: Path) -> None:
    """Files younger than the racy margin are never trusted: a just-generated corpus is aged a minute."""
    old = time.time() - 60
    for path in (memory / "KNOWLEDGE").iterdir():
        if path.stat().st_mtime > old:
            os.utime(path, (old, old))


def settle(env: dict) -> None:
    """Wait (blocking, untimed) until no detached builder holds a lock of this run's cache."""
    import fcntl

    for lock in Path(env.get("CORTEX_CACHE_DIR", "/nonexistent")).rglob("*-build.lock"):
        fd = os.open(lock, os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        finally:
            os.close(fd)


def timed(args: list[str], env: dict, runs: int, before=None) -> dict:
    walls, peaks, outputs = [], [], set()
    for _ in range(runs):
        settle(env)
        if before:
            before()
        wall, peak, out, code = run_once(args, env)
        if code != 0:
            raise SystemExit(f"{args[0]} failed with exit {code}: {out[:300]}")
        walls.append(wall)
        peaks.append(peak)
        outputs.add(out)
    return {"median_s": statistics.median(walls), "min_s": min(walls), "peak_rss_mib": max(peaks) / 2**20,
            "outputs": outputs}


def bench(memory: Path, runs: int, cache: Path, base_env: dict) -> list[dict]:
    rows = []
    for name, args in commands(memory):
        off = timed(args, {**base_env, "CORTEX_CACHE": "off"}, runs)
        env = {**base_env, "CORTEX_CACHE_DIR": str(cache)}
        cold = timed(args, env, runs, before=lambda: shutil.rmtree(cache, ignore_errors=True))
        fill_calls = fill(memory, args, env)
        warm = timed(args, env, runs)
        same = off["outputs"] == cold["outputs"] == warm["outputs"]
        size = sum(p.stat().st_size for p in cache.rglob("*") if p.is_file())
        rows.append({"command": name, "off": off, "cold": cold, "warm": warm, "identical": same, "cache_bytes": size,
                     "calls_to_warm": fill_calls})
    return rows


def fill(memory: Path, args: list[str], env: dict, most: int = 30) -> int:
    """Calls of `args` on an empty cache until every file has its entry (indexed, for search and recall)."""
    shutil.rmtree(env["CORTEX_CACHE_DIR"], ignore_errors=True)
    files = sum(1 for path in (memory / "KNOWLEDGE").iterdir() if path.suffix in (".jsonl", ".md"))
    wanted = "entries" if args[0] == "status" else "indexed"
    for calls in range(1, most + 1):
        run_once(args, env)
        settle(env)
        _, _, out, _ = run_once(["cache", "status", "--memory-root", str(memory)], env)
        if json.loads(out)["data"][wanted] >= files:
            return calls
    raise SystemExit(f"{args[0]}: the cache was not full after {most} calls")


def report(records: int, rows: list[dict]) -> None:
    print(f"\n{records:,} records (cache after search: {rows[0]['cache_bytes'] / 2**20:.1f} MiB; "
          f"after status alone: {rows[-1]['cache_bytes'] / 2**20:.1f} MiB)")
    print(f"  {'command':8} {'off':>9} {'cold':>9} {'warm':>9} {'warm/off':>9} {'warm RSS':>9} {'cold RSS':>9}"
          f"  calls to warm  same answer  goal")
    for row in rows:
        off, cold, warm = (row[k]["median_s"] for k in ("off", "cold", "warm"))
        goal = "ok" if warm <= GOAL_S else "MISSED" if records >= 50_000 else "-"
        print(f"  {row['command']:8} {off:8.3f}s {cold:8.3f}s {warm:8.3f}s {warm / off:8.1%} "
              f"{row['warm']['peak_rss_mib']:7.1f}MiB {row['cold']['peak_rss_mib']:7.1f}MiB  {row['calls_to_warm']:13}"
              f"  {str(row['identical']):11}  {goal}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--sizes", default="1500,50000", help="comma-separated corpus sizes (default: 1500,50000)")
    parser.add_argument("--runs", type=int, default=3, help="runs per command and mode (default: 3)")
    parser.add_argument("--seed", type=int, default=7, help="generator seed (default: 7)")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/cortex-bench"), help="where corpora are generated and kept")
    parser.add_argument("--json", type=Path, help="also write the numbers to this JSON file")
    options = parser.parse_args(argv)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CORTEX_")}
    env["CORTEX_NOW"] = "2026-06-01T00:00:00Z"
    results = {}
    with tempfile.TemporaryDirectory(prefix="cortex-bench-cache-") as scratch:
        for records in sorted(int(size) for size in options.sizes.split(",")):
            memory = corpus(options.workdir, records, options.seed, 0.2)
            aged(memory)
            cache = Path(scratch) / f"cache-{records}"
            rows = bench(memory, options.runs, cache, env)
            report(records, rows)
            results[records] = {"commands": [
                {"command": r["command"], "identical": r["identical"], "cache_bytes": r["cache_bytes"],
                 "calls_to_warm": r["calls_to_warm"],
                 **{mode: {k: v for k, v in r[mode].items() if k != "outputs"} for mode in ("off", "cold", "warm")}}
                for r in rows]}
    if options.json:
        options.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
