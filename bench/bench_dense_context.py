#!/usr/bin/env python3
"""Benchmark: wall time and peak RSS of `cortex-health` on generated Dense Context trees.

Generates trees of --projects projects holding --atoms atoms in total (EXP/K/PAT in the
ratio 8:1:1, frontmatter as the upstream generator writes it, an index.md per folder and
an access log per project), then runs the real CLI (`python -m health --no-write --json`)
in a child process per repetition and reads the child's peak RSS from os.wait4. The
target (issue 16) is 200 projects / 20,000 atoms in under 2 s; peak RSS should stay flat
as the tree grows (--scales runs smaller trees for comparison).

Example: python bench/bench_dense_context.py --projects 200 --atoms 20000 --repeat 3
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

from bench_health import run_once  # one measured `cortex-health --json` run (bench/ is on sys.path)

FOLDERS = (("experiments", "EXP", 8), ("knowledge", "K", 1), ("patterns", "PAT", 1))
TITLES = {"experiments": "Experiments", "knowledge": "Knowledge", "patterns": "Patterns"}


def atom_text(project: str, folder: str, atom_id: str, day: int, status: str, exp_ids: list[str]) -> str:
    extra = {"experiments": f"links: [{exp_ids[0]}]", "knowledge": f"evidence: [{', '.join(exp_ids[:3])}]",
             "patterns": f"source-experiments: [{', '.join(exp_ids[:3])}]\nevidence: [{', '.join(exp_ids[:3])}]"}
    return (f"---\nid: {atom_id}\ndate: 2026-{9 + day // 28:02d}-{1 + day % 28:02d}\nproject: {project}\n"
            f'summary: "Finding {atom_id} of {project}: success rate measured across ten seeds"\n'
            f"tags: [evaluation, baseline, seeds]\nstatus: {status}\n{extra[folder]}\n---\n\n"
            "## Background\nWhy.\n\n## Execution\nWhat.\n\n## Results\nNumbers.\n\n## Conclusion\nSo.\n")


def write_project(context: Path, index: int, per_project: int) -> None:
    name = f"p{index:03d}"
    project = context / "projects" / name
    for sub in ("_meta", "decisions"):
        (project / sub).mkdir(parents=True)
    for file, text in (("AGENTS.md", f"# {name}\n\n- pointers\n"), ("mission.md", "# Mission\n"),
                       ("STATUS.md", "# Status\n\n- current\n"), ("ISSUES.md", "# Issues\n")):
        (project / file).write_text(text)
    (project / "decisions" / "0001-first.md").write_text("# DR-0001: First\n")
    counts = {folder: max(1, per_project * share // 10) for folder, _, share in FOLDERS}
    exp_ids = [f"EXP-{n:03d}" for n in range(1, counts["experiments"] + 1)]
    log = []
    for folder, prefix, _ in FOLDERS:
        (project / folder).mkdir()
        rows = []
        for n in range(1, counts[folder] + 1):
            atom_id = f"{prefix}-{n:03d}"
            status = "superseded:EXP-001" if folder == "experiments" and n % 17 == 0 and n > 1 else "valid"
            (project / folder / f"{atom_id}.md").write_text(
                atom_text(name, folder, atom_id, n % 80, status, exp_ids))
            table = "inactive" if status.startswith("superseded") else "active"
            rows.append((table, f"| {atom_id} | summary | 1 |"))
            log.append(json.dumps({"file": f"{atom_id}.md", "tool": "Read",  # compact, as JSON.stringify writes
                                   "ts": f"2026-11-{1 + n % 27:02d}T10:00:00.000Z"}, separators=(",", ":")))
        active = [row for table, row in rows if table == "active"]
        inactive = [row for table, row in rows if table == "inactive"]
        text = [f"# {TITLES[folder]} Index — {name}", "", "> Auto-generated. Do not edit manually.", "",
                f"## Active ({len(active)} entries)", "", "| ID | Summary | Refs |", "|---|---|---|", *active]
        if inactive:
            text += ["", f"## Superseded / Deprecated ({len(inactive)} entries)", "", "| ID | Summary | Refs |",
                     "|---|---|---|", *inactive]
        (project / folder / "index.md").write_text("\n".join(text) + "\n")
    (project / "_meta" / "access-log.jsonl").write_text("\n".join(log) + "\n")


def generate(base: Path, projects: int, atoms: int) -> Path:
    context = base / "context"
    (context / "projects").mkdir(parents=True)
    (context / "AGENTS.md").write_text("# Context\n")
    for index in range(projects):
        write_project(context, index, atoms // projects)
    return base


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog="Prints the tree size, the median wall time and CPU time (user + system; steadier than wall time on a loaded machine), the peak RSS and the verdict.")
    parser.add_argument("--projects", type=int, default=200, help="projects in the largest tree (default 200)")
    parser.add_argument("--atoms", type=int, default=20_000, help="atoms in the largest tree (default 20000)")
    parser.add_argument("--scales", default="0.1,1", help="fractions of the largest tree to run (default 0.1,1)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per tree; the median is printed (default 3)")
    args = parser.parse_args(argv)
    print(f"{'projects':>8} {'atoms':>7} {'median s':>9} {'CPU s':>6} {'peak RSS MiB':>13}  verdict")
    for scale in (float(part) for part in args.scales.split(",")):
        projects, atoms = max(1, round(args.projects * scale)), max(1, round(args.atoms * scale))
        with tempfile.TemporaryDirectory(prefix="bench-dense-") as temp:
            root = generate(Path(temp), projects, atoms)
            runs = [run_once(root, []) for _ in range(args.repeat)]
            counted = runs[-1][3]["evidence"]["dc_atoms"]["atoms"]
            print(f"{projects:>8} {counted:>7} {statistics.median(r[0] for r in runs):>9.2f} "
                  f"{statistics.median(r[4] for r in runs):>6.2f} "
                  f"{max(r[1] for r in runs) / 2**20:>13.1f}  {runs[-1][3]['overall']} (exit {runs[-1][2]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
