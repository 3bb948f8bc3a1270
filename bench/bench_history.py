#!/usr/bin/env python3
"""Benchmark: the chained health history at growing sizes: `history --verify`, the audit's incremental check, page renders.

For each --rows size, builds a chained memory-health.jsonl (copies of a real published
report of the demo tree, one minute apart, each with its correct chain link) and its
checkpoint in a temporary tree, then prints (median over --repeat):
  * `cortex-health history --verify` wall time (a child process; the whole log is hashed);
  * the audit's own chain check (collectors.lifeos.health_history, in-process), which verifies
    from the checkpoint and must not grow with the log;
  * the first page a fresh `cortex-health serve` answers (`/` right after it printed its port:
    the window of 500 lines parsed for the first time, and the chain judged as the audit does);
  * one render of `/` and of `/history` from a running `cortex-health serve` (a bounded window
    read from the end of the log, default 500 lines), over HTTP on a loopback port.
The log stays in the page cache after it is written, so the numbers are CPU-bound, not disk.
Example:
    python bench/bench_history.py --rows 10,1000000 --repeat 3
"""
from __future__ import annotations

import argparse
import hashlib
import http.client
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from cortex.core.timestamps import iso_from_ms, parse_timestamp_ms  # noqa: E402
from collectors.healthlog.chain import Checkpoint, splice  # noqa: E402

NOW = "2026-11-29T12:00:00Z"


def report_line(root: Path) -> str:
    done = subprocess.run([sys.executable, "-m", "health", "--root", str(root), "--now", NOW, "--no-write", "--json"],
                          capture_output=True, text=True, cwd=REPO)
    return done.stdout.strip()


def build_log(root: Path, rows: int) -> tuple[int, float]:
    """Write `rows` chained reports and the checkpoint; (bytes, seconds it took)."""
    started = time.perf_counter()
    template = report_line(root)
    before, after = template.split(f'"ts":"{NOW[:-1]}.000Z"', 1)
    log = root / "LIFEOS" / "MEMORY" / "OBSERVABILITY" / "memory-health.jsonl"
    first_ms = parse_timestamp_ms(NOW) - rows * 60_000
    prev, size, start, line = hashlib.sha256(b"").hexdigest(), 0, 0, b""
    with open(log, "wb", buffering=1 << 22) as handle:
        for index in range(rows):
            text = f'{before}"ts":"{iso_from_ms(first_ms + index * 60_000)}"{after}'
            line = (splice(text, index + 1, prev) + "\n").encode()
            prev = hashlib.sha256(line).hexdigest()
            start = size
            handle.write(line)
            size += len(line)
    point = Checkpoint(rows, prev, iso_from_ms(first_ms + (rows - 1) * 60_000), rows, start, size)
    (log.parent / "memory-health.checkpoint").write_text(point.text())
    return size, time.perf_counter() - started


def median_ms(action, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def verify_once(root: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "health", "history", "--root", str(root), "--verify"],
                          capture_output=True, text=True, cwd=REPO)
    if done.returncode != 0:
        raise SystemExit(f"history --verify failed: {done.stdout}{done.stderr}")


def incremental_once(root: Path) -> None:
    from collectors.lifeos.health_history import collect
    from collectors.lifeos.layout import Layout

    evidence = collect(Layout.for_root(str(root)))
    if evidence.broken_kind or evidence.mode != "incremental":
        raise SystemExit(f"unexpected chain evidence: {evidence}")


def page_ms(root: Path, repeat: int) -> dict[str, float]:
    """Median ms per page of a warm server, and "first": the first `/` of a fresh server (median over
    `repeat` fresh servers)."""
    firsts = [_serve(root, 0)["first"] for _ in range(repeat)]
    return {**_serve(root, repeat), "first": statistics.median(firsts)}


def _serve(root: Path, repeat: int) -> dict[str, float]:
    server = subprocess.Popen([sys.executable, "-m", "health", "serve", "--root", str(root), "--port", "0"],
                              stdout=subprocess.PIPE, text=True, cwd=REPO)
    try:
        port = int(re.search(r":(\d+)/", server.stdout.readline()).group(1))

        def get(path: str):
            def action() -> None:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                connection.request("GET", path, headers={"Host": f"127.0.0.1:{port}"})
                response = connection.getresponse()
                response.read()
                connection.close()
                if response.status != 200:
                    raise SystemExit(f"GET {path}: {response.status}")
            return action
        first = median_ms(get("/"), 1)  # a fresh server: nothing parsed yet
        if not repeat:
            return {"first": first}
        return {path: median_ms(get(path), repeat) for path in ("/", "/history", "/checks")}
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--rows", default="10,1000000", help="comma-separated log sizes in lines (default 10,1000000)")
    parser.add_argument("--repeat", type=int, default=3, help="measurements per number (median; default 3)")
    args = parser.parse_args()
    print(f"{'lines':>9} {'log MiB':>9} {'build s':>8} {'verify ms':>10} {'audit check ms':>15} "
          f"{'first / ms':>11} {'GET / ms':>9} {'GET /history ms':>16} {'GET /checks ms':>15}")
    for rows in (int(item) for item in args.rows.split(",")):
        folder = Path(tempfile.mkdtemp(prefix="bench-history-"))
        try:
            root = folder / "root"
            shutil.copytree(REPO / "fixtures" / "demo", root, symlinks=True)
            size, built = build_log(root, rows)
            verify = median_ms(lambda: verify_once(root), args.repeat)
            audit = median_ms(lambda: incremental_once(root), max(args.repeat, 5))
            pages = page_ms(root, max(args.repeat, 5))
            print(f"{rows:>9} {size / (1 << 20):>9.1f} {built:>8.1f} {verify:>10.1f} {audit:>15.2f} "
                  f"{pages['first']:>11.1f} {pages['/']:>9.1f} {pages['/history']:>16.1f} {pages['/checks']:>15.1f}",
                  flush=True)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
