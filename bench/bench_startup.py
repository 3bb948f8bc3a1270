#!/usr/bin/env python3
"""Bench: start-up cost of the commands every agent turn runs (median wall ms over N runs, and import time).

Run by hand (not by the test suite): `python bench/bench_startup.py --help`.

Builds a `cortex init` tree with a full principal file and --records canonical records
(the hook bench's tree) and two copies of fixtures/demo (healthy with the fixed clock): the
JSON audit reads the demo as shipped, the gate publishes into the other (and a last row
audits that copy, with the health history the gate runs left in it). Then it
runs each command as a real subprocess --runs times, interleaving the two code trees when
--baseline DIR names a checkout of other code (e.g. `git worktree add /tmp/base d48d9d8`).
The baseline runs with PYTHONPATH=DIR, which wins over this venv's editable install.
It prints the median wall time in ms of each command against its target, and from
`python -X importtime` (less noisy on a loaded machine than wall time) the total import
time and the part spent in heavy modules (pydantic, rich, psutil, yaml, the check list in
the gate's parent process...).
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NOW = "2026-11-29T12:00:00Z"
NOW_S = 1796040000 - 3600  # an hour before NOW: the demo's files are fresh, as in the tests
HEAVY = ("pydantic", "pydantic_core", "rich", "psutil", "yaml", "jsonschema", "hypothesis", "http.server",
         "cortex.review.reviewer", "cortex.benchmark", "cortex.commands.benchmark", "concurrent.futures", "asyncio")
PACKAGES = ("cortex", "collectors", "thresholds", "health", "reports")
GATE_PARENT_HEAVY = ("health.judge", "collectors", "subprocess")  # the gate's parent only parses and waits for its child


def build_tree(home: Path, records: int, env: dict) -> Path:
    """The hook bench's tree: init, 48 principal entries, `records` canonical notes."""
    root = home / "claude"
    cortex = [sys.executable, "-m", "cortex"]
    subprocess.run(cortex + ["init", "--root", str(root)], check=True, capture_output=True, env=env, cwd=str(REPO))
    entries = "".join(f"PREFERENCE: durable fact number {i} about tea and tooling ~explicit\n" for i in range(48))
    subprocess.run(cortex + ["hot", "set", "principal"], input=entries.encode(), check=True, capture_output=True,
                   env=env, cwd=str(REPO))
    folder = root / "LIFEOS" / "MEMORY" / "KNOWLEDGE" / "Research"
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(records):
        (folder / f"note-{i}.md").write_text(f"---\nid: note-{i}\ntitle: Note {i}\ncreated: 2026-01-01\n---\n"
                                             f"Research note {i} on memory, retrieval and green tea rituals.\n")
    return root


def demo_copy(where: Path, name: str = "demo") -> Path:
    root = where / name
    shutil.copytree(REPO / "fixtures" / "demo", root, symlinks=True)
    for path in [root, *root.rglob("*")]:
        if not path.is_symlink():
            os.utime(path, (NOW_S, NOW_S))
    return root


def cases(tree: Path, demo: Path, gated: Path) -> list[tuple[str, list[str], str, float]]:
    """(name, argv after the interpreter, stdin, target ms).

    The JSON audit's target is for the demo tree as shipped (`demo`, never written); the gate
    publishes into its own copy (`gated`), whose growing health history the last row audits.
    """
    prompt = json.dumps({"session_id": "bench", "prompt": "what tea do I drink while retrieving memory"})
    check = ["--root", str(demo), "--now", NOW]
    gate_check = ["--root", str(gated), "--now", NOW]
    return [
        ("python -c pass (interpreter)", ["-c", "pass"], "", 0),
        ("cortex --bogus", ["-m", "cortex", "--bogus"], "", 50),
        ("cortex hot render", ["-m", "cortex", "hot", "render"], "", 50),
        ("cortex review fire", ["-m", "cortex", "review", "fire", "--session", "bench"], "", 50),
        ("cortex recall (hook payload)", ["-m", "cortex", "recall"], prompt, 80),
        ("cortex-health gate (demo)", ["-m", "health", "gate", "--timeout", "60", *gate_check], "", 120),
        ("cortex-health json --no-write (demo)", ["-m", "health", "--format", "json", "--no-write", *check], "", 60),
        ("  same, with the gate's history", ["-m", "health", "--format", "json", "--no-write", *gate_check], "", 0),
    ]


def environment(code: Path | None, tree: Path, home: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CORTEX_", "CLAUDE_CONFIG_DIR", "GITHUB_"))}
    env.update(HOME=str(home), CORTEX_MEMORY_ROOT=str(tree / "LIFEOS" / "MEMORY"),
               CORTEX_REVIEWER_COMMAND=shlex.join([sys.executable, "-c", "print('{\"items\": []}')"]),
               PATH=os.pathsep.join(filter(None, [os.path.dirname(sys.executable), os.environ.get("PATH")])))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode: time that, not the compiler
    if code is not None:
        env["PYTHONPATH"] = str(code)
    return env


def compile_bytecode(code: Path) -> None:
    """Write __pycache__ for a code tree once (pip does so at install), so no run pays for compiling."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", *(str(code / name) for name in PACKAGES)], check=True,
                   capture_output=True)


SCRIPTS = {"cortex": "cortex", "health": "cortex-health"}  # `-m` module → the console script it installs


def as_script(argv: list[str]) -> list[str]:
    """`-m cortex ARGS` → the `cortex` console script installed beside this interpreter (what hooks run: no runpy)."""
    if argv[:1] == ["-m"] and argv[1] in SCRIPTS:
        return [os.path.join(os.path.dirname(sys.executable), SCRIPTS[argv[1]]), *argv[2:]]
    return argv


def timed(argv: list[str], stdin: str, env: dict, cwd: Path) -> float:
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, *argv] if argv[:1] in (["-m"], ["-c"]) else argv, input=stdin.encode(), capture_output=True, env=env, cwd=str(cwd),
                          timeout=120)
    elapsed = (time.perf_counter() - started) * 1000
    if proc.returncode not in (0, 4) or b"Traceback" in proc.stderr:  # --bogus exits 4
        raise SystemExit(f"{argv}: exit {proc.returncode}: {proc.stderr.decode()[:500]}")
    return elapsed


def import_ms(argv: list[str], stdin: str, env: dict, cwd: Path, heavy_names: tuple[str, ...]) -> tuple[float, float]:
    """(total import ms, ms in heavy modules) from -X importtime: top-level entries, heavy ones counted once."""
    proc = subprocess.run([sys.executable, "-X", "importtime", *argv], input=stdin.encode(), capture_output=True,
                          env=env, cwd=str(cwd), timeout=120)
    total = 0
    rows = [line.split("|") for line in proc.stderr.decode().splitlines() if line.startswith("import time:")]
    for _head, cumulative, name in rows[1:]:
        if not name.startswith("  "):
            total += int(cumulative)
    # Outermost first (importtime prints children before their parent): count a heavy module once.
    heavy, stack = 0, []
    for head, cumulative, name in reversed(rows[1:]):
        depth = (len(name) - len(name.lstrip())) // 2
        while stack and stack[-1] >= depth:
            stack.pop()
        is_heavy = any(name.strip() == h or name.strip().startswith(h + ".") for h in heavy_names)
        if is_heavy and not stack:
            heavy += int(cumulative)
        if is_heavy or stack:
            stack.append(depth)
    return total / 1000, heavy / 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog="\n".join(__doc__.splitlines()[2:]),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15, help="runs per command and code tree (default: 15)")
    parser.add_argument("--records", type=int, default=1500, help="canonical records in the hook tree (default: 1500)")
    parser.add_argument("--baseline", type=Path, help="a checkout of the code to compare with (PYTHONPATH=DIR)")
    parser.add_argument("--scripts", action="store_true",
                        help="run the console scripts (cortex, cortex-health) installed beside this interpreter, as "
                        "hooks and users do, instead of `python -m` on this checkout: run the bench with the python "
                        "of a venv where the code to measure is installed (`pip install .`)")
    options = parser.parse_args(argv)
    if options.scripts and options.baseline:
        parser.error("--scripts measures one installed tree: compare two by running the bench once in each venv")
    sides = [("now", None, REPO)] + ([("baseline", options.baseline.resolve(), options.baseline.resolve())]
                                      if options.baseline else [])
    for _side, _code, cwd in sides:
        compile_bytecode(cwd)
    script = as_script if options.scripts else (lambda argv: argv)
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        tree = build_tree(home, options.records, environment(None, home / "claude", home))
        (tree / "LIFEOS" / "USER" / "CONFIG").mkdir(parents=True, exist_ok=True)
        demo, gated = demo_copy(home), demo_copy(home, "demo-gate")
        samples = {(side, name): [] for side, _, _ in sides for name, *_ in cases(tree, demo, gated)}
        for _ in range(options.runs):
            for name, args, stdin, _target in cases(tree, demo, gated):
                for side, code, cwd in sides:  # interleaved: both trees see the same machine load
                    samples[side, name].append(timed(script(args), stdin, environment(code, tree, home), cwd))
        imports = {(side, name): import_ms(script(args), stdin, environment(code, tree, home), cwd,
                                           HEAVY + (GATE_PARENT_HEAVY if "gate" in args else ()))
                   for name, args, stdin, _ in cases(tree, demo, gated) for side, code, cwd in sides}
        header = f"{'command':38} {'target':>6} {'now ms':>8}"
        header += f" {'base ms':>8} {'ratio':>6}" if options.baseline else ""
        header += "   import ms now (heavy)" + ("   baseline (heavy)" if options.baseline else "")
        how = "installed console scripts" if options.scripts else "python -m on this checkout"
        print(f"{options.runs} runs per command, {options.records} records, {how}, medians of wall time")
        print(header)
        for name, _args, _stdin, target in cases(tree, demo, gated):
            now = statistics.median(samples["now", name])
            line = f"{name:38} {target or '':>6} {now:8.1f}"
            if options.baseline:
                base = statistics.median(samples["baseline", name])
                line += f" {base:8.1f} {now / base:6.2f}"
            total, heavy = imports["now", name]
            line += f"   {total:8.1f} ({heavy:6.1f})"
            if options.baseline:
                total, heavy = imports["baseline", name]
                line += f"   {total:8.1f} ({heavy:6.1f})"
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
