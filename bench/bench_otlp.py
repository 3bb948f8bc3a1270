#!/usr/bin/env python3
"""Benchmark: `cortex-health --otlp` exporting a backlog of memory operations to a loopback receiver (issue 27).

Copies fixtures/demo and appends --rows hook rows to its logs (default 10,000: 70% recalls,
15% hot-memory writes, 10% Stop-turn fires, 5% reviewer runs), starts an OTLP/HTTP receiver
in this process (it answers 200 and counts bytes; --check also decodes every body strictly
with opentelemetry-proto when it is installed), then prints:
  * the real CLI (`python -m health --no-write --json`, one child per run, peak RSS from
    wait4), interleaved --repeat times, medians: the plain audit, the first `--otlp` export
    (the whole backlog: every row read, at most 10,000 spans posted), and a repeat with
    nothing appended (no span, the cursors' histograms only);
  * the bytes each signal's request had and how many spans arrived;
  * the exporter alone, in-process (reports.otlp.live: reading the logs from no cursor, the
    spans and the histogram, JSON encoding): wall and CPU time, tracemalloc peak.
The tree lives in a temporary folder (or --workdir) and is deleted afterwards unless --keep.

Example: python bench/bench_otlp.py --rows 10000 --repeat 5
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

NOW = "2026-11-29T12:00:00Z"
NOW_MS = 1_795_953_600_000


class Counter(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.server.bodies.append((self.path, body))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args) -> None:
        pass


def iso(ms: int) -> str:
    from cortex.core.timestamps import iso_from_ms

    return iso_from_ms(ms)


def make_tree(workdir: Path, rows: int) -> Path:
    root = workdir / "root"
    shutil.copytree(REPO / "fixtures" / "demo", root, symlinks=True)
    for path in [root, *root.rglob("*")]:
        if not path.is_symlink():
            os.utime(path, ns=((NOW_MS - 3_600_000) * 1_000_000,) * 2)
    obs = root / "LIFEOS" / "MEMORY" / "OBSERVABILITY"
    logs = {name: [] for name in ("memory-retrievals.jsonl", "memory-writes.jsonl", "reviewer-fires.jsonl",
                                  "reviewer-runs.jsonl")}
    start = NOW_MS - 7 * 86_400_000
    for n in range(rows):
        at = start + n * (7 * 86_400_000 // max(rows, 1))
        kind = n % 20
        if kind < 14:
            logs["memory-retrievals.jsonl"].append({"ts": iso(at), "query_hash": f"{n:016x}", "returned_count": n % 6,
                                                    "duration_ms": 5 + n % 40 / 3})
        elif kind < 17:
            logs["memory-writes.jsonl"].append({"ts": iso(at), "file": "LIFEOS/USER/PRINCIPAL/PRINCIPAL_MEMORY.md",
                                                "updated_by": "bench", "prior_count": 10, "new_count": 11,
                                                "evictions": [], "additions": ["PREFERENCE: bench ~explicit"],
                                                "dropped": [], "ok": True, "error": None})
        elif kind < 19:
            logs["reviewer-fires.jsonl"].append({"ts": iso(at), "session": "bench", "turns": n % 5,
                                                 "started": n % 5 == 4, "reason": "bench", "pid": None})
        else:
            run_id = iso(at - 30_000).replace(":", "-").replace(".", "-")
            logs["reviewer-runs.jsonl"].append({"ts": iso(at), "ok": True, "runId": run_id, "transcript": None,
                                                "exchanges": 0, "inference_duration_ms": 0, "parse_ok": True,
                                                "skipped": True, "error": "bench"})
    for name, items in logs.items():
        with open(obs / name, "a", encoding="utf-8") as handle:
            handle.write("".join(json.dumps(item, separators=(",", ":")) + "\n" for item in items))
    return root


def in_process(root: Path, cache: Path) -> tuple[float, float, float, int]:
    """(wall s, CPU s, tracemalloc peak MiB, spans) of reading the backlog from no cursor and encoding the requests."""
    from health.options import parse
    from health.run import audit
    from reports.otlp.encode import request_line
    from reports.otlp.live import live_bodies

    env = {**os.environ, "CORTEX_CACHE_DIR": str(cache)}
    options, _ = parse(["--root", str(root), "--now", NOW, "--no-write"], env, tty=False)
    report_run = audit(options, env)
    report = report_run.report()

    def export(destination: str) -> int:
        bodies = live_bodies(report, report_run.layout, env, destination)
        for _, request in bodies.requests():
            request_line(request).encode("ascii")
        bodies.discard()  # never committed: the next call reads the whole backlog again
        return sum(len(scope["spans"]) for resource in (bodies.traces or {}).get("resourceSpans", ())
                   for scope in resource["scopeSpans"])

    wall, cpu = time.perf_counter(), time.process_time()
    spans = export("bench")
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    tracemalloc.start()
    export("bench")
    peak = tracemalloc.get_traced_memory()[1] / (1 << 20)
    tracemalloc.stop()
    return wall, cpu, peak, spans


def run_cli(root: Path, env: dict, otlp: bool) -> tuple[float, float]:
    """(wall s, peak RSS MiB) of one audit in a child."""
    argv = [sys.executable, "-m", "health", "--root", str(root), "--now", NOW, "--no-write", "--json"]
    argv += ["--otlp"] if otlp else []
    started = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) not in (0, 1, 2):
        raise SystemExit(f"the audit failed: exit {os.waitstatus_to_exitcode(status)}")
    return elapsed, usage.ru_maxrss / 1024


def check_bodies(bodies: list[tuple[str, bytes]]) -> str:
    try:
        from tests.otlp_support import decode
    except ImportError as error:
        return f"not checked ({error.name} is not installed)"
    for path, body in bodies:
        decode(path.rsplit("/", 1)[-1], body)
    return f"all {len(bodies)} bodies decode strictly with opentelemetry-proto"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=10_000, help="hook rows appended to the demo (default 10000)")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved CLI rounds (medians are printed)")
    parser.add_argument("--check", action="store_true", help="decode every received body with opentelemetry-proto")
    parser.add_argument("--workdir", help="where to generate the tree (default: a temporary folder)")
    parser.add_argument("--keep", action="store_true", help="keep the generated tree")
    args = parser.parse_args(argv)
    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="cortex-otlp-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Counter)
    server.daemon_threads = True
    server.bodies = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        root = make_tree(workdir, args.rows)
        logs = root / "LIFEOS" / "MEMORY" / "OBSERVABILITY"
        size = sum((logs / name).stat().st_size for name in ("memory-retrievals.jsonl", "memory-writes.jsonl",
                                                             "reviewer-fires.jsonl", "reviewer-runs.jsonl"))
        print(f"tree: the demo plus {args.rows} hook rows ({size / (1 << 20):.2f} MiB of hook logs)")
        base = {k: v for k, v in os.environ.items() if not k.startswith(("CORTEX_", "OTEL_"))}
        base["OTEL_EXPORTER_OTLP_ENDPOINT"] = f"http://127.0.0.1:{server.server_address[1]}"
        plain, first, repeat = [], [], []
        for index in range(args.repeat):
            env = {**base, "CORTEX_CACHE_DIR": str(workdir / f"cache-{index}")}
            plain.append(run_cli(root, env, otlp=False))
            server.bodies.clear()
            first.append(run_cli(root, env, otlp=True))
            sizes = {path: len(body) for path, body in server.bodies}
            received = list(server.bodies)
            server.bodies.clear()
            repeat.append(run_cli(root, env, otlp=True))
        for label, rows in (("plain audit (no export)", plain), ("first --otlp export (backlog)", first),
                            ("repeat --otlp, nothing new", repeat)):
            print(f"CLI {label:<31} {statistics.median(r[0] for r in rows):6.3f} s   "
                  f"peak RSS {max(r[1] for r in rows):6.1f} MiB   (median / max of {args.repeat})")
        spans = sum(body.count(b'"spanId"') for path, body in received if path.endswith("traces"))
        print("request bytes of the first export: " + ", ".join(f"{path} {size / 1024:.0f} KiB"
                                                               for path, size in sorted(sizes.items())))
        print(f"spans received in the first export: {spans}")
        if args.check:
            print(check_bodies(received))
        # Last: a child forked from a process that had loaded the audit would count its pages in its peak RSS.
        seconds, cpu, peak, count = in_process(root, workdir / "cache-inproc")
        print(f"exporter alone (in-process, no cursor): {seconds:6.3f} s wall, {cpu:6.3f} s CPU, "
              f"tracemalloc peak {peak:6.1f} MiB, {count} spans")
        return 0
    finally:
        server.shutdown()
        server.server_close()
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
