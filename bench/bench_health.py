#!/usr/bin/env python3
"""Benchmark: median wall time and peak RSS of the full `cortex-health` check.

Runs the real CLI (`python -m health --no-write`) in a child process per repetition and
reads the child's peak RSS from os.wait4, on:
  * the bundled demo tree (fixtures/demo);
  * generated large trees: a corpus of --records canonical records with an adopted-index
    manifest the index collector must verify (canonical digest + index SHA-256), and
    observability logs of each --sizes total (3/4 in the three parsed JSONL logs,
    1/4 in *.log archives that are only measured).
Peak RSS should stay flat from the smallest to the largest log size: every log is streamed.

Example: python bench/bench_health.py --sizes 10M,1G --repeat 3
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from cortex.core.corpus import load_canonical_records  # noqa: E402
from cortex.core.digest import canonical_corpus_digest  # noqa: E402
from cortex.core.timestamps import iso_from_ms, parse_timestamp_ms  # noqa: E402

NOW = "2026-11-29T12:00:00Z"
NOW_MS = parse_timestamp_ms(NOW)
HOUR_MS = 3_600_000
UNITS = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def parse_size(text: str) -> int:
    text = text.strip().upper().removesuffix("IB").removesuffix("B")
    if text and text[-1] in UNITS:
        return int(float(text[:-1]) * UNITS[text[-1]])
    return int(text)


def run_id(ms: int) -> str:
    iso = iso_from_ms(ms)
    return f"{iso[:13]}-{iso[14:16]}-{iso[17:19]}-{iso[20:23]}Z"


def reviewer_row(ms: int) -> dict:
    return {"ts": iso_from_ms(ms), "ok": True, "runId": run_id(ms - 60_000), "transcript": "projects/bench.jsonl",
            "exchanges": 12, "inference_duration_ms": 30123, "parse_ok": True,
            "dispatch_summary": {"total": 2, "by_type": {"memory": 1, "knowledge": 1}, "succeeded": 2, "failed": 0,
                                 "failures": [], "proposals_auto_applied": 0, "proposals_auto_apply_failed": 0}}


def fill(path: Path, filler: dict, size: int, last: list[dict]) -> None:
    """Write ~`size` bytes of `filler` rows, then the `last` rows (what the check judges)."""
    line = (json.dumps(filler, separators=(",", ":")) + "\n").encode()
    block = line * max(1, (4 << 20) // len(line))
    with open(path, "wb") as handle:
        written = 0
        while written + len(block) <= size:
            handle.write(block)
            written += len(block)
        handle.write(line * ((size - written) // len(line)))
        for row in last:
            handle.write((json.dumps(row, separators=(",", ":")) + "\n").encode())


def sparse_free_log(path: Path, size: int) -> None:
    with open(path, "wb") as handle:
        chunk = b"2026-11-29T11:00:00Z INFO reviewer fired\n" * 25_000
        written = 0
        while written < size:
            piece = chunk[: size - written]
            handle.write(piece)
            written += len(piece)


def make_corpus(memory: Path, records: int) -> None:
    knowledge = memory / "KNOWLEDGE"
    shutil.rmtree(knowledge)
    knowledge.mkdir()
    words = "garden frost tomato release wheel sowing allotment compost ledger review calendar seed".split()
    for i in range(records):
        body = " ".join(words[(i + k) % len(words)] for k in range(120))
        (knowledge / f"record-{i:05d}.md").write_text(
            f"---\nid: bench-{i:05d}\ntype: knowledge\ntitle: Bench record {i}\ncreated: 2026-10-01T10:00:00Z\n"
            f"updated: 2026-11-01T10:00:00Z\nsource_kind: bench\n---\n{body}\n")
    index_dir = memory / "INDEX"
    index_dir.mkdir(exist_ok=True)
    index = index_dir / "bm25-v1.bin"
    index.write_bytes(os.urandom(4 << 20))
    manifest = {
        "schema": "lifeos-cortex-index/v1",
        "canonical_sha256": canonical_corpus_digest(load_canonical_records(str(memory))),
        "index_path": index.name,
        "index_sha256": hashlib.sha256(index.read_bytes()).hexdigest(),
        "indexed_at": iso_from_ms(NOW_MS - 2 * HOUR_MS),
    }
    (index_dir / "index-manifest.json").write_text(json.dumps(manifest))


def make_large_tree(target: Path, log_bytes: int, records: int) -> Path:
    shutil.copytree(REPO / "fixtures" / "demo", target)
    memory = target / "LIFEOS" / "MEMORY"
    obs = memory / "OBSERVABILITY"
    make_corpus(memory, records)
    quarter = log_bytes // 4
    fill(obs / "reviewer-runs.jsonl", reviewer_row(NOW_MS - 48 * HOUR_MS), quarter,
         [reviewer_row(NOW_MS - 2 * HOUR_MS)])
    fill(obs / "memory-retrievals.jsonl",
         {"ts": iso_from_ms(NOW_MS - 30 * HOUR_MS), "query_hash": "c7a10e55f3b92d46", "returned_count": 3,
          "duration_ms": 15.9, "top_score": 5.02}, quarter,
         [{"ts": iso_from_ms(NOW_MS - HOUR_MS), "query_hash": "0d6e3a9b21c4f788", "returned_count": 1,
           "duration_ms": 12.0}])
    fill(obs / "pending-proposals.jsonl", {"id": "prop", "status": "applied", "target": "KNOWLEDGE/x.md"}, quarter,
         [{"id": "prop-last", "status": "pending", "target": "KNOWLEDGE/y.md"}])
    archive = obs / "archive"
    archive.mkdir()
    sparse_free_log(archive / "reviewer-fires.log", log_bytes - 3 * quarter)
    stamp = (NOW_MS - HOUR_MS) * 1_000_000
    for path in [target, *target.rglob("*")]:
        os.utime(path, ns=(stamp, stamp))
    return target


def run_once(root: Path, extra: list[str]) -> tuple[float, int, int, dict, float]:
    """(wall s, peak RSS bytes, exit code, report, CPU s) of one `cortex-health --json --no-write` run."""
    argv = [sys.executable, "-m", "health", "--root", str(root), "--now", NOW, "--no-write", "--json", *extra]
    started = time.perf_counter()
    env = {**os.environ, "CORTEX_CACHE": "off"}  # every repetition a full read (cursors: bench_incremental.py)
    proc = subprocess.Popen(argv, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = proc.stdout.read()
    proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - started
    cpu = usage.ru_utime + usage.ru_stime  # CPU seconds: the figure that holds on a loaded machine
    return elapsed, usage.ru_maxrss * 1024, os.waitstatus_to_exitcode(status), json.loads(out), cpu


def measure(label: str, root: Path, repeat: int, logs: int, records: int, extra: list[str]) -> dict:
    runs = [run_once(root, extra) for _ in range(repeat)]
    times = [r[0] for r in runs]
    report = runs[-1][3]
    row = {"tree": label, "log_bytes": logs, "records": records, "median_s": statistics.median(times),
           "min_s": min(times), "max_s": max(times), "peak_rss_mib": max(r[1] for r in runs) / (1 << 20),
           "exit": runs[-1][2], "overall": report["overall"], "findings": [f["id"] for f in report["findings"]]}
    print(f"{label:<16} logs {logs / (1 << 20):>9.1f} MiB  records {records:>5}  median {row['median_s']:7.3f} s "
          f"(min {row['min_s']:.3f}, max {row['max_s']:.3f})  peak RSS {row['peak_rss_mib']:6.1f} MiB  "
          f"exit {row['exit']} {row['overall']} {row['findings']}", flush=True)
    return row


def log_bytes_of(root: Path) -> int:
    obs = root / "LIFEOS" / "MEMORY" / "OBSERVABILITY"
    return sum(p.stat().st_size for p in obs.rglob("*") if p.suffix in (".jsonl", ".log"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10M,1G", help="comma-separated total log sizes (default: 10M,1G)")
    parser.add_argument("--records", type=int, default=1500, help="canonical records in the large trees")
    parser.add_argument("--repeat", type=int, default=3, help="runs per tree (median reported)")
    parser.add_argument("--demo-repeat", type=int, default=7, help="runs on the demo tree")
    parser.add_argument("--workdir", help="where to generate trees (default: a temporary folder)")
    parser.add_argument("--keep", action="store_true", help="keep the generated trees")
    parser.add_argument("--json", action="store_true", help="also print the results as one JSON line")
    args = parser.parse_args(argv)
    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="cortex-health-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    results = []
    try:
        demo = workdir / "demo"
        shutil.copytree(REPO / "fixtures" / "demo", demo)
        results.append(measure("demo", demo, args.demo_repeat, log_bytes_of(demo), 4, []))
        # The large trees hold more logs than the 256 MiB default allows; raise the cap so the
        # run measures a healthy check (the byte check itself costs nothing either way).
        extra = ["--threshold", "observability_max_bytes=1e12"]
        for size in [parse_size(s) for s in args.sizes.split(",")]:
            started = time.perf_counter()
            root = make_large_tree(workdir / f"large-{size}", size, args.records)
            print(f"(generated {size / (1 << 20):.0f} MiB tree in {time.perf_counter() - started:.1f} s)", flush=True)
            results.append(measure(f"large-{size >> 20}MiB", root, args.repeat, log_bytes_of(root), args.records, extra))
            if not args.keep:
                shutil.rmtree(root)
        large = [r for r in results if r["tree"].startswith("large")]
        if len(large) >= 2:
            print(f"peak RSS {large[-1]['tree']} / {large[0]['tree']}: "
                  f"{large[-1]['peak_rss_mib'] / large[0]['peak_rss_mib']:.2f}x for "
                  f"{large[-1]['log_bytes'] / large[0]['log_bytes']:.0f}x the log bytes")
        if args.json:
            print(json.dumps(results))
    finally:
        if not args.keep and not args.workdir:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
