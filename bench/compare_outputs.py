#!/usr/bin/env python3
"""Behaviour check for refactors: capture every output of both CLIs on fixed trees, then diff two captures.

`capture OUT --repo TREE` runs the code of TREE (a checkout: PYTHONPATH=TREE, cwd=TREE) with this
interpreter and saves, one file per call (argv, exit code, stdout, stderr, byte for byte):
  * every output format (text, json, statusline, prometheus, nagios, health+json, github,
    otlp-json, the piped default, -v text/nagios/github) on every tree: fixtures/demo,
    fixtures/dense-context, fixtures/cjk and fixtures/bench-demo (auto layout and --layout
    lifeos), a set of broken LifeOS trees (tests/health_scenarios/ and friends, singly and
    all at once) and broken Dense Context trees (tests/health/test_dense_context.py's CASES);
  * then, on the trees of PUBLISHED, a publishing run and the gate, waited for until its detached check has
    exited (the files they wrote: the published lines, the checkpoint), the status line, history and
    history --verify, and on the demo and Dense Context trees the dashboard's pages (`serve`);
  * --list-checks (text, --json, per layout), `explain` of every listed id, of every bare form
    and of an unknown id, every --help and usage error of cortex-health and cortex, and a few
    cortex read commands.
The trees are rebuilt from this checkout's fixtures and scenarios under --work (a fixed path,
default /tmp/cortex-health-compare: paths appear in the outputs) with every mtime one hour
before the fixed --now, and a fresh cache folder per tree.

`diff A B` compares two captures file by file after masking what is inherently variable
(MASKS: the run's duration_ms and what is derived from it: the duration series and perfdata,
the chain hashes of published lines that hold a duration and the checkpoint's byte offsets,
the gate's own measured hook latency, the log folder's size and newest mtime (and the skew
from it) seen by the second publishing run, a scenario's search cache stamp, random OTLP span ids, and the wall-clock stamps of exit-3
reports, which are not stamped with --now); the interpreter's bin folder (where a hook command
resolves) is saved as BIN. Exit 0 when identical, 1 listing each file that differs with a
window around the first differing byte of its first differing lines.

Example (each side with the interpreter of a venv that installs its checkout; ~4 min a capture):
  /tmp/venv-base/bin/python bench/compare_outputs.py capture /tmp/cmp/base --repo /tmp/base-checkout
  .venv/bin/python bench/compare_outputs.py capture /tmp/cmp/new
  python bench/compare_outputs.py diff /tmp/cmp/base /tmp/cmp/new
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare_trees import DENSE_TREES, LIFEOS_TREES, build_tree, prepared  # noqa: E402
from compare_runs import Runner  # noqa: E402

NOW = "2026-11-29T12:00:00Z"
FORMATS = ("text", "json", "statusline", "prometheus", "nagios", "health+json", "github", "otlp-json")
VERBOSE = ("text", "nagios", "github")
# the trees that also publish, run the gate and read the history back (the others: every format only)
PUBLISHED = ("demo", "lifeos-many", "lifeos-health_log_directory", "lifeos-memory_tree_missing", "cjk-lifeos",
             "dense-context", "dense-context-as-context", "dense-many", "dense-no-agents")

# (pattern, replacement): what differs between two runs of the same code on the same tree
MASKS = (
    (re.compile(rb'"duration_ms":\s?-?[0-9.e+-]+'), b'"duration_ms":<masked>'),
    (re.compile(rb"(cortex_health_run_duration_seconds(?:\{[^}]*\})?) [0-9.e+-]+"), rb"\1 <masked>"),
    (re.compile(rb"('?run_duration(?:_seconds)?'?=)[0-9.e+-]+s?"), rb"\1<masked>"),
    (re.compile(rb'("name":"cortex_health_run_duration_seconds".{0,400}?"asDouble":)[0-9.e+-]+'), rb"\1<masked>"),
    (re.compile(rb'"(hash|prev|prev_hash|line_sha256|head_hash|sha256|head|seal)":"[0-9a-f]{16,}"'), rb'"\1":"<masked>"'),
    (re.compile(rb"\b(hash|prev|head) [0-9a-f]{12,}"), rb"\1 <masked>"),
    (re.compile(rb"(Duration|duration)( ?[:=] ?)[0-9.]+ ?(ms|s)\b"), rb"\1\2<masked>"),
    (re.compile(rb'"(traceId|spanId)":"[0-9a-f]+"'), rb'"\1":"<random>"'),  # os.urandom ids
    # a scenario's search cache is built at capture time (wall clock)
    (re.compile(rb'"written_at":"[0-9TZ:.+-]+","written_ms":[0-9]+'), b'"written_at":"<masked>","written_ms":<masked>'),
)
# only in a file the run wrote (a published line, the checkpoint): what the masked durations move
WRITTEN_MASKS = (
    (re.compile(rb'("start":)[0-9]+(,"end":)[0-9]+'), rb"\1<masked>\2<masked>"),  # byte offsets of the lines
    # the log folder's size, read by the second run, counts the first run's line (with its duration)
    (re.compile(rb'("files":[0-9]+,"bytes":)[0-9]+'), rb"\1<masked>"),
    # the gate's rows, written at wall clock, are the log folder's newest: read back by the second run
    (re.compile(rb'"(newest_mtime_ms|future_skew_ms)":[0-9]+'), rb'"\1":<masked>'),
    # the gate's own hook latency (wall clock), recorded by the gate and read back into its report
    (re.compile(rb'"(p50_ms|p95_ms|max_ms|sum_ms)":[0-9.e+-]+'), rb'"\1":<masked>'),
)
# only in a report of exit 3 (the auditor could not run): stamped with the wall clock, not --now
UNKNOWN_MASKS = (
    (re.compile(rb'"ts":"[0-9TZ:.+-]+"'), b'"ts":"<wall-clock>"'),
    (re.compile(rb"(UNKNOWN .* at )[0-9TZ:.+-]+"), rb"\1<wall-clock>"),
    (re.compile(rb"(cortex_health_last_run_timestamp_seconds) [0-9.e+]+"), rb"\1 <wall-clock>"),
    (re.compile(rb'"((?:start|observed)?[tT]imeUnixNano)":"[0-9]+"'), rb'"\1":"<wall-clock>"'),
    (re.compile(rb'("name":"cortex_health_last_run_timestamp_seconds".{0,400}?"asDouble":)[0-9.e+]+'),
     rb"\1<wall-clock>"),
)


def masked(data: bytes, name: str = "") -> bytes:
    masks = MASKS + (WRITTEN_MASKS if "/written/" in f"/{name}" else ())
    masks += UNKNOWN_MASKS if b"\nexit: 3\n" in data[:2000] else ()
    for pattern, replacement in masks:
        data = pattern.sub(replacement, data)
    return data


def audit_runs(run: Runner, name: str, root: Path, extra: list[str]) -> None:
    base = ["--root", str(root), "--now", NOW, *extra]
    for fmt in FORMATS:
        run.health(f"{name}/format-{fmt}", *base, "--no-write", "--format", fmt)
    for fmt in VERBOSE:
        run.health(f"{name}/verbose-{fmt}", *base, "--no-write", "--format", fmt, "-v")
    run.health(f"{name}/default-piped", *base, "--no-write")


def publish_runs(run: Runner, name: str, folder: Path, root: Path, extra: list[str], log: Path,
                 dashboard: bool) -> None:
    before = snapshot(folder)
    base = ["--root", str(root), "--now", NOW, *extra]
    run.health(f"{name}/publish-json", *base, "--format", "json")
    run.health(f"{name}/gate", "gate", "--timeout", "60", *base)
    wait_for_the_gates_check(root, log)
    after = snapshot(folder)
    for rel in sorted(set(after) - set(before) | {r for r in after if r in before and after[r] != before[r]}):
        run.save_file(f"{name}/written/{rel.replace('/', '__')}", folder / rel)
    if not log.exists():
        return
    run.health(f"{name}/statusline", "statusline", "--root", str(root), "--now", NOW)
    run.health(f"{name}/statusline-stale", "statusline", "--root", str(root), "--now", "2026-12-01T12:00:00Z")
    run.health(f"{name}/history", "history", "--root", str(root))
    run.health(f"{name}/history-verify", "history", "--root", str(root), "--verify")
    if dashboard:
        run.dashboard(f"{name}/dashboard", root, extra)


def wait_for_the_gates_check(root: Path, log: Path) -> None:
    """Until the gate's detached check has exited, so what is read back next does not depend on how fast it ran:
    the check holds an flock on the folder it publishes to (the log's folder, else the root) until it exits."""
    import fcntl

    for folder in (log.parent, root):
        if folder.is_dir():
            fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)  # blocks while the check runs (its --timeout ends it)
            finally:
                os.close(fd)  # closing releases the lock


def snapshot(root: Path) -> dict[str, bytes]:
    found = {}
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            found[str(path.relative_to(root))] = path.read_bytes()
    return found


def catalogue_runs(run: Runner) -> None:
    run.health("catalogue/list-checks", "--list-checks")
    listed = run.health("catalogue/list-checks-json", "--list-checks", "--json")
    for layout in ("lifeos", "dense-context"):
        run.health(f"catalogue/list-checks-{layout}", "--list-checks", "--layout", layout)
        run.health(f"catalogue/list-checks-json-{layout}", "--list-checks", "--json", "--layout", layout)
    run.health("catalogue/list-checks-only", "--list-checks", "--only", "locks,reviewer")
    import json

    ids = [row["id"] for row in json.loads(listed.stdout)]
    for start in range(0, len(ids), 40):
        run.health(f"catalogue/explain-{start:03d}", "explain", *ids[start:start + 40])
    bare = sorted({re.sub(r"^[-:]+|[-:]+$", "", re.sub(r"[-:]*\{[a-z]+\}[-:]*", "-", i)).strip("-")
                   for i in ids if "{" in i})
    run.health("catalogue/explain-bare", "explain", *bare)
    run.health("catalogue/explain-instances", "explain", "lock-stale:memory.lock", "principal-memory-missing",
               "index-collector-error", "dc-cap-exceeded:projects/alpha/STATUS.md", "hook-failing:recall",
               "reviewer-fresh", "locks-free")
    run.health("catalogue/explain-unknown", "explain", "lock-stail", "nothing-like-this")


def usage_runs(run: Runner) -> None:
    run.health("usage/version", "--version")
    run.health("usage/help", "--help")
    for sub in ("statusline", "gate", "history", "explain", "fix", "serve", "setup", "probe"):
        run.health(f"usage/help-{sub}", sub, "--help")
        run.health(f"usage/bogus-{sub}", sub, "--bogus-flag")
    for name, argv in (("bogus", ["--bogus"]), ("format", ["--format", "nope"]), ("threshold", ["--threshold", "x=1"]),
                       ("text-bogus", ["--format", "text", "--bogus"]), ("history-last", ["history", "--last", "0"]),
                       ("explain-none", ["explain"]), ("only", ["--only", "nope"]), ("now", ["--now", "yesterday"])):
        run.health(f"usage/{name}", *argv)
    run.health("usage/setup", "setup")
    run.cortex("cortex/help", "--help")
    run.cortex("cortex/help-cmd", "help")
    for command in ("status", "search", "timeline", "get", "export", "rebuild", "cache", "benchmark", "init", "hot",
                    "remember", "propose", "proposals", "recall", "review", "nope"):
        run.cortex(f"cortex/help-{command}", "help", command)
        run.cortex(f"cortex/dashhelp-{command}", command, "--help")
    run.cortex("cortex/bogus", "bogus")
    run.cortex("cortex/search-noquery", "search")


def cortex_runs(run: Runner, trees: Path) -> None:
    run.fresh_cache()
    memory = build_tree(trees, "recall-corpus", REPO / "fixtures" / "recall") / "MEMORY"
    for name, argv in (("status", ["status"]), ("search", ["search", "tea"]), ("search-page", ["search", "memory",
                       "--page-size", "2", "--page", "2"]), ("timeline", ["timeline", "--anchor", "2026-01-01"]),
                       ("get-missing", ["get", "nope-id"]), ("rebuild", ["rebuild", "--from-canonical"])):
        run.cortex(f"cortex/run-{name}", *argv, "--memory-root", str(memory))
    demo = trees / "demo" / "root"
    run.cortex("cortex/hot-read", "hot", "read", "principal", "--root", str(demo))
    run.cortex("cortex/hot-render", "hot", "render", "--root", str(demo))


def capture(out: Path, repo: Path, work: Path, only: str | None) -> int:
    if out.exists():
        shutil.rmtree(out)
    if work.exists():
        shutil.rmtree(work)
    trees = work / "trees"
    run = Runner(out, repo, work)
    for name, source, change, extra, log in LIFEOS_TREES + DENSE_TREES:
        if only and not re.search(only, name):
            continue
        run.fresh_cache()
        folder, root, extra = prepared(trees, name, source, change, extra)
        audit_runs(run, name, root, extra)
        if name in PUBLISHED:
            publish_runs(run, name, folder, root, extra, folder / log, dashboard=name in ("demo", "dense-context"))
    if not only:
        catalogue_runs(run)
        usage_runs(run)
        cortex_runs(run, trees)
    print(f"{run.count} calls saved under {out}")
    return 0


def diff(a: Path, b: Path) -> int:
    left = {str(p.relative_to(a)) for p in a.rglob("*") if p.is_file()}
    right = {str(p.relative_to(b)) for p in b.rglob("*") if p.is_file()}
    problems = [f"only in {a}: {name}" for name in sorted(left - right)]
    problems += [f"only in {b}: {name}" for name in sorted(right - left)]
    for name in sorted(left & right):
        x, y = masked((a / name).read_bytes(), name), masked((b / name).read_bytes(), name)
        if x != y:
            problems.append(f"differs: {name}\n" + "\n".join(differing_lines(x, y)))
    for problem in problems:
        print(problem)
    print(f"{len(left & right)} files compared, {len(problems)} differences")
    return 1 if problems else 0


def differing_lines(x: bytes, y: bytes, shown: int = 5) -> list[str]:
    """The first differing lines (by number), each cut to a window around its first differing byte."""
    found = []
    xs, ys = x.split(b"\n"), y.split(b"\n")
    for number in range(max(len(xs), len(ys))):
        lx, ly = (xs[number] if number < len(xs) else b"<none>"), (ys[number] if number < len(ys) else b"<none>")
        if lx == ly:
            continue
        at = next((i for i, (p, q) in enumerate(zip(lx, ly)) if p != q), min(len(lx), len(ly)))
        start = max(0, at - 120)
        found += [f"  line {number + 1}, byte {at}:", f"  - {lx[start:at + 120].decode('utf-8', 'replace')}",
                  f"  + {ly[start:at + 120].decode('utf-8', 'replace')}"]
        if len(found) >= 3 * shown:
            break
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog="\n".join(__doc__.splitlines()[2:]),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    grab = commands.add_parser("capture", help="run every output on every tree and save them")
    grab.add_argument("out", type=Path)
    grab.add_argument("--repo", type=Path, default=REPO, help="the checkout whose code runs (default: this one)")
    grab.add_argument("--work", type=Path, default=Path("/tmp/cortex-health-compare"),
                      help="where the trees are built (fixed: paths appear in the outputs)")
    grab.add_argument("--only", help="a regex: capture only the trees it matches (quick checks)")
    compare = commands.add_parser("diff", help="compare two captures after masking")
    compare.add_argument("a", type=Path)
    compare.add_argument("b", type=Path)
    args = parser.parse_args(argv)
    if args.command == "capture":
        return capture(args.out.resolve(), args.repo.resolve(), args.work.resolve(), args.only)
    return diff(args.a, args.b)


if __name__ == "__main__":
    sys.exit(main())
