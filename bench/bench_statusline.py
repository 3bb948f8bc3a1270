#!/usr/bin/env python3
"""Benchmark: `cortex-health statusline` wall time against the size of memory-health.jsonl, the full check, import times.

Prints numbers (median wall time over --repeat child processes):
  * the interpreter's own start-up floor (`python -c pass`, and `python -I -S -c pass`);
  * `cortex-health statusline` through the console script, and through the site-free
    launcher that `cortex-health statusline --print-command` prints, with a health log of
    each --rows size (filled with copies of a real published report; the newest is read
    from the end, so the time must not grow with the log), plus the bytes the reader read;
  * the full check (`python -m health --no-write`) on the demo tree, and its in-report
    duration_ms (collect + evaluate, no interpreter start-up);
  * `python -X importtime`: the import time of every module on the status-line path and on
    the full check's path (self and cumulative, microseconds).

Target: statusline median under 30 ms at every size. Example:
    python bench/bench_statusline.py --rows 10,1000000 --repeat 30
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from collectors.healthlog.read import ReverseLines  # noqa: E402

NOW = "2026-11-29T12:00:00Z"
LATER = "2026-11-29T12:04:00Z"
OURS = ("cortex", "collectors", "health", "reports", "thresholds")
HEAVY = ("pydantic", "rich", "psutil")
TARGET_MS = 30.0


def console_script() -> str:
    found = shutil.which("cortex-health", path=os.path.dirname(sys.executable)) or shutil.which("cortex-health")
    if not found:
        raise SystemExit("cortex-health is not installed (python3 -m pip install -e .)")
    return found


def median_ms(argv: list[str], repeat: int, env: dict[str, str] | None = None) -> tuple[float, float, str]:
    times, out = [], ""
    for _ in range(repeat):
        started = time.perf_counter()
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env)
        times.append((time.perf_counter() - started) * 1000)
        out = done.stdout.strip()
    return statistics.median(times), min(times), out


def make_tree(workdir: Path) -> tuple[Path, bytes]:
    root = workdir / "root"
    shutil.copytree(REPO / "fixtures" / "demo", root, symlinks=True)
    subprocess.run([sys.executable, "-m", "health", "--root", str(root), "--now", NOW, "--json"], check=False,
                   capture_output=True, cwd=REPO)
    log = root / "LIFEOS" / "MEMORY" / "OBSERVABILITY" / "memory-health.jsonl"
    return root, log.read_bytes()


def fill_log(log: Path, line: bytes, rows: int) -> int:
    """`rows` copies of a real report line, written in big blocks; returns the size in bytes."""
    block = line * max(1, (8 << 20) // len(line))
    per_block = len(block) // len(line)
    with open(log, "wb") as handle:
        left = rows
        while left >= per_block:
            handle.write(block)
            left -= per_block
        handle.write(line * left)
    return log.stat().st_size


def statusline_rows(root: Path, line: bytes, sizes: list[int], repeat: int) -> list[dict]:
    log = root / "LIFEOS" / "MEMORY" / "OBSERVABILITY" / "memory-health.jsonl"
    base = ["statusline", "--root", str(root), "--now", LATER]
    fast = shlex.split(subprocess.run([sys.executable, "-m", "health", *base, "--print-command"], capture_output=True,
                                      text=True, cwd=REPO).stdout)
    results = []
    for rows in sizes:
        size = fill_log(log, line, rows)
        with ReverseLines(str(log)) as reader:
            next(iter(reader))
            bytes_read = reader.bytes_read
        console = median_ms([console_script(), *base], repeat)
        direct = median_ms(fast, repeat, env={"PATH": "/usr/bin:/bin"})
        results.append({"rows": rows, "log_bytes": size, "bytes_read": bytes_read,
                        "console_median_ms": console[0], "console_min_ms": console[1],
                        "fast_median_ms": direct[0], "fast_min_ms": direct[1], "line": direct[2],
                        "same_line": console[2] == direct[2]})
    log.unlink()
    return results


def full_check(root: Path, repeat: int) -> dict:
    argv = [sys.executable, "-m", "health", "--root", str(root), "--now", NOW, "--no-write", "--json"]
    wall = median_ms(argv, repeat)
    durations = [json.loads(subprocess.run(argv, capture_output=True, text=True, cwd=REPO).stdout)["duration_ms"]
                 for _ in range(min(repeat, 5))]
    return {"median_ms": wall[0], "min_ms": wall[1], "in_report_duration_ms": statistics.median(durations)}


IMPORT_LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|(\s*)(\S+)")


def import_times(argv: list[str]) -> list[dict]:
    """Our modules and the heavy third-party packages from `-X importtime`, in import order."""
    done = subprocess.run(argv, capture_output=True, text=True, cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO)))
    rows = []
    for match in IMPORT_LINE.finditer(done.stderr):
        self_us, cumulative_us, indent, name = int(match[1]), int(match[2]), len(match[3]), match[4]
        top = name.split(".")[0]
        if top in OURS or name in HEAVY:
            rows.append({"module": name, "self_us": self_us, "cumulative_us": cumulative_us, "depth": indent // 2})
    if not rows:  # say so rather than print an empty table
        tail = done.stderr.strip().splitlines()[-3:]
        rows.append({"module": f"(no import lines captured: exit {done.returncode}; {' | '.join(tail)})",
                     "self_us": 0, "cumulative_us": 0, "depth": 0})
    return rows


def print_imports(title: str, rows: list[dict]) -> None:
    print(f"\n{title}")
    print(f"  {'module':<40}{'self µs':>10}{'cumul. µs':>12}")
    for row in rows:
        print(f"  {row['module']:<40}{row['self_us']:>10}{row['cumulative_us']:>12}")
    heavy = [row["module"] for row in rows if row["module"] in HEAVY]
    print(f"  heavy packages imported: {', '.join(heavy) or 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--rows", default="10,1000000", help="comma-separated health-log sizes in rows")
    parser.add_argument("--repeat", type=int, default=30, help="child processes per statusline measurement")
    parser.add_argument("--check-repeat", type=int, default=10, help="child processes for the full check")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    args = parser.parse_args()
    sizes = [int(part) for part in args.rows.split(",") if part.strip()]
    python = sys.executable
    with tempfile.TemporaryDirectory(prefix="bench-statusline-") as folder:
        root, line = make_tree(Path(folder))
        floor = {"python -c pass": median_ms([python, "-c", "pass"], args.repeat)[0],
                 "python -I -S -c pass": median_ms([python, "-I", "-S", "-c", "pass"], args.repeat)[0]}
        lines = statusline_rows(root, line, sizes, args.repeat)
        check = full_check(root, args.check_repeat)
        fast_path = [python, "-I", "-S", "-X", "importtime", str(REPO / "health" / "statusline.py"),
                     "--root", str(root), "--now", LATER]
        imports = {
            "statusline (console-script path)": import_times([python, "-X", "importtime", "-m", "health",
                                                               "statusline", "--root", str(root), "--now", LATER]),
            "statusline (python -I -S launcher)": import_times(fast_path),
            "full check (--json)": import_times([python, "-X", "importtime", "-m", "health", "--root", str(root),
                                                 "--now", NOW, "--no-write", "--json"]),
        }
    result = {"python": python, "report_line_bytes": len(line), "floor_ms": floor, "statusline": lines,
              "full_check": check, "imports": imports, "target_ms": TARGET_MS}
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return
    print(f"interpreter: {python}   report line: {len(line)} bytes")
    for name, value in floor.items():
        print(f"start-up floor  {name:<24} median {value:6.1f} ms")
    print(f"\n{'rows':>9} {'log size':>12} {'read':>8}  {'console script':>15} {'-I -S launcher':>15}  line")
    for row in lines:
        verdict = "ok" if row["fast_median_ms"] < TARGET_MS else "OVER"
        print(f"{row['rows']:>9} {row['log_bytes']:>12} {row['bytes_read']:>8}  {row['console_median_ms']:>12.1f} ms"
              f" {row['fast_median_ms']:>12.1f} ms  {row['line']}  (target {TARGET_MS:g} ms: {verdict};"
              f" same line both ways: {row['same_line']})")
    print(f"\nfull check on the demo tree: median {check['median_ms']:.1f} ms wall (min {check['min_ms']:.1f}), "
          f"collect+evaluate {check['in_report_duration_ms']:.1f} ms")
    for title, rows in imports.items():
        print_imports(title, rows)


if __name__ == "__main__":
    main()
