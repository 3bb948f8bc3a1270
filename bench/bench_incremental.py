#!/usr/bin/env python3
"""Benchmark: strict JSONL reading speed and incremental audits with log cursors (issue 13).

On a generated tree (bench_health.make_large_tree: 3/4 of --size in the three parsed JSONL
logs, 1/4 in *.log archives that are only measured) it prints:
  * reader throughput in MB/s of strictly validated rows, in-process, per parsed log:
    before = the previous line-at-a-time reader (safeio.iter_lines + strictjson.parse_object),
    after  = collectors.readers.cursors.scan_log with no cursor (a first, full read);
  * the real CLI (`python -m health --no-write --json`, one child per run, peak RSS from wait4):
    a full audit with caching off (and the --baseline checkout's, when given), the first audit with cursors (full read, cursors written),
    a repeat with nothing appended, and a repeat after --append bytes of rows were appended
    across the three logs (target: <= 1 s at 1 GiB), each with its peak RSS;
  * whether every report (minus duration_ms) is identical to the full read's.
The tree lives in a temporary folder (or --workdir) and is deleted afterwards unless --keep.

Example: python bench/bench_incremental.py --size 1G --append 1M
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_health import NOW, make_large_tree, parse_size  # noqa: E402

PARSED = ("reviewer-runs.jsonl", "memory-retrievals.jsonl", "pending-proposals.jsonl")


def old_reader(path: str) -> int:
    """The reader before issue 13, row for row: every line through the strict decoder, a visit per row."""
    from cortex.core.safeio import iter_lines
    from cortex.core.strictjson import parse_object

    rows = 0
    for _number, raw in iter_lines(path, 1 << 20):
        if raw is None or not raw.strip():
            continue
        rows += isinstance(parse_object(raw), dict)
    return rows


def new_reader(path: str) -> int:
    """A first read through the collector's own aggregate, as the audit does it."""
    from collectors.readers.cursors import scan_log
    from collectors.lifeos.proposals import PendingCount
    from collectors.lifeos.retrieval import LatestRetrieval
    from collectors.lifeos.reviewer import NewestRows

    aggregate = {PARSED[0]: NewestRows, PARSED[1]: LatestRetrieval, PARSED[2]: PendingCount}[os.path.basename(path)]
    scan, _ = scan_log(path, aggregate, anchor=None, cursors=None)
    return scan.rows


def throughput(obs: Path) -> list[tuple[str, float, float]]:
    results = []
    for name in PARSED:
        path = str(obs / name)
        size = os.path.getsize(path)
        timings = []
        for reader in (old_reader, new_reader):
            started = time.perf_counter()
            reader(path)
            timings.append(size / (time.perf_counter() - started) / 1e6)
        results.append((name, *timings))
        print(f"  {name:<26} {size / (1 << 20):8.1f} MiB   before {timings[0]:6.1f} MB/s   after {timings[1]:6.1f} MB/s",
              flush=True)
    return results


def run_cli(root: Path, env: dict, code: Path = REPO) -> tuple[float, float, dict]:
    """(wall s, peak RSS MiB, report minus duration) of the auditor of the checkout `code`."""
    argv = [sys.executable, "-m", "health", "--root", str(root), "--now", NOW, "--no-write", "--json",
            "--threshold", "observability_max_bytes=1e13"]
    env = {**env, "PYTHONPATH": str(code)}
    started = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=code, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = proc.stdout.read()
    _, _, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - started
    report = json.loads(out)
    report.pop("duration_ms", None)
    # CORTEX_CACHE=off turns the search cache off too, which its own check rightly reports
    # (search-cache-off vs -absent): compare the verdict on the logs, not that.
    report.get("evidence", {}).pop("search_cache", None)
    report["ok_summary"] = [name for name in report.get("ok_summary", []) if not name.startswith("search-cache-")]
    return elapsed, usage.ru_maxrss / 1024, report


def append_rows(obs: Path, total: int) -> None:
    for name in PARSED:
        path = obs / name
        with open(path, "rb") as handle:
            handle.seek(max(0, path.stat().st_size - 4096))
            last = handle.read().splitlines(keepends=True)[-1]
        with open(path, "ab") as handle:
            handle.write(last * max(1, total // len(PARSED) // len(last)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", default="1G", help="total log bytes of the tree (default 1G; e.g. 256M)")
    parser.add_argument("--append", default="1M", help="bytes of rows appended before the repeat audit (default 1M)")
    parser.add_argument("--records", type=int, default=200, help="canonical records in the tree (default 200)")
    parser.add_argument("--repeat", type=int, default=3, help="repeat audits measured (the median is printed)")
    parser.add_argument("--workdir", help="where to generate the tree (default: a temporary folder)")
    parser.add_argument("--keep", action="store_true", help="keep the generated tree")
    parser.add_argument("--baseline", help="another checkout (e.g. `git archive` of an older commit): its full "
                        "audit of the same tree is printed beside this one's")
    args = parser.parse_args(argv)
    size, appended = parse_size(args.size), parse_size(args.append)
    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="cortex-incremental-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        started = time.perf_counter()
        root = make_large_tree(workdir / "tree", size, args.records)
        obs = root / "LIFEOS" / "MEMORY" / "OBSERVABILITY"
        print(f"generated {size / (1 << 20):.0f} MiB of logs in {time.perf_counter() - started:.1f} s", flush=True)
        print("reader throughput (in-process, strictly validated rows):")
        rates = throughput(obs)
        parsed = sum(os.path.getsize(obs / name) for name in PARSED)
        before = parsed / sum(os.path.getsize(obs / n) / (b * 1e6) for n, b, _ in rates) / 1e6
        after = parsed / sum(os.path.getsize(obs / n) / (a * 1e6) for n, _, a in rates) / 1e6
        print(f"  all parsed logs: before {before:.1f} MB/s, after {after:.1f} MB/s ({after / before:.1f}x)")
        base = {k: v for k, v in os.environ.items() if not k.startswith("CORTEX_")}
        off = {**base, "CORTEX_CACHE": "off"}
        on = {**base, "CORTEX_CACHE_DIR": str(workdir / "cache")}
        full = run_cli(root, off)
        if args.baseline:
            old = run_cli(root, off, Path(args.baseline).resolve())
            print(f"CLI full audit, --baseline checkout: {old[0]:7.3f} s   peak RSS {old[1]:6.1f} MiB   "
                  f"({parsed / old[0] / 1e6:.1f} MB/s of parsed logs, end to end)")
        print(f"CLI full audit, caching off:         {full[0]:7.3f} s   peak RSS {full[1]:6.1f} MiB   "
              f"({parsed / full[0] / 1e6:.1f} MB/s of parsed logs, end to end)")
        first = run_cli(root, on)
        print(f"CLI first audit, cursors written:    {first[0]:7.3f} s   peak RSS {first[1]:6.1f} MiB")
        same = sorted(run_cli(root, on) for _ in range(args.repeat))[args.repeat // 2]
        print(f"CLI repeat audit, nothing appended:  {same[0]:7.3f} s   peak RSS {same[1]:6.1f} MiB")
        identical = first[2] == full[2] == same[2]
        repeats = []
        for _ in range(args.repeat):
            append_rows(obs, appended)
            repeats.append(run_cli(root, on) + (run_cli(root, off)[2],))
        middle = sorted(repeats, key=lambda r: r[0])[args.repeat // 2]
        identical = identical and all(r[2] == r[3] for r in repeats)
        print(f"CLI repeat audit, {appended / (1 << 20):.1f} MiB appended: {middle[0]:7.3f} s   peak RSS "
              f"{middle[1]:6.1f} MiB   (target <= 1 s at 1 GiB; median of {args.repeat})")
        print(f"reports identical to a full read: {identical}")
        return 0 if identical else 1
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
