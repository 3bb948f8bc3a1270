"""Bench: what one edited file costs a warm search cache (the call after the edit, its detached builder, the call
after that), this code against its previous version, interleaved, in plain installs.

Run by hand (not by the test suite): `python bench/bench_edit.py --help`.

Give two plain (`pip install .`, not editable) virtual environments, as for bench_speed.py: --new (default: the one
running this script) and --old. Each side gets its own copy of the bench corpus (bench_search.corpus: records in
files of 500) and its own cache folder, warmed first (a search, its builder, a second search). Then, --edits times
and alternating sides, one record is appended to one file (a different file each time), the bench waits out the
cache's racy margin (a file changed within 2 s of a read is read, not trusted or indexed) and prints, per side,
the medians of:

* the search right after the edit (wall and CPU of the process; the edited file is read as an uncached call reads
  it, the rest comes from the cache);
* the detached builder it leaves (how long until no builder holds the cache's lock: the CPU the machine spends
  after the answer, re-indexing the file and, since the merged postings, re-merging every term the file holds);
* the next search (warm again, once the builder is done).

Answers are compared between the sides after every step.
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_search import corpus  # noqa: E402
from bench_speed import QUERY, RACY_MARGIN_S, Venv, run, wait_for_builder  # noqa: E402


def record(side: str, edit: int) -> str:
    return json.dumps({"id": f"edit-{side}-{edit:04d}", "type": "knowledge", "title": f"Nightly backup edit {edit}",
                       "created": "2026-01-01T09:00:00Z", "updated": "2026-01-01T09:00:00Z", "source": "codex",
                       "content": f"The nightly backup migration moved to a new cluster, edit {edit}."}) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--new", type=Path, default=Path(sys.executable), help="python of the venv with this code")
    parser.add_argument("--old", type=Path, required=True, help="python of a venv with the previous code")
    parser.add_argument("--size", type=int, default=50_000, help="corpus size in records (default: 50000)")
    parser.add_argument("--edits", type=int, default=3, help="edits per side (default: 3)")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/cortex-bench"), help="where corpora are kept")
    options = parser.parse_args(argv)

    source = corpus(options.workdir, options.size, 7, 0.2)
    scratch = options.workdir / f"edit-{options.size}"
    shutil.rmtree(scratch, ignore_errors=True)
    sides = {"new": Venv(options.new), "old": Venv(options.old)}
    envs, searches, rows = {}, {}, {name: {"after": [], "builder": [], "warm": []} for name in sides}
    for name, venv in sides.items():
        memory = scratch / name / "memory"
        shutil.copytree(source, memory)
        envs[name] = {"PATH": "/usr/bin:/bin", "HOME": str(scratch / name), "CORTEX_CACHE_DIR": str(scratch / name / "cache")}
        searches[name] = [venv.script("cortex"), "search", QUERY, "--memory-root", str(memory)]
        for _ in range(2):
            run(searches[name], envs[name])
            wait_for_builder(scratch / name / "cache")
    files = sorted((scratch / "new" / "memory" / "KNOWLEDGE").glob("*.jsonl"))
    for edit in range(options.edits):
        answers = {}
        for name in sides:
            target = scratch / name / "memory" / "KNOWLEDGE" / files[edit % len(files)].name
            with target.open("a", encoding="utf-8") as handle:
                handle.write(record("same", edit))
            time.sleep(RACY_MARGIN_S)  # as a prompt comes after an edit: the cache trusts no file changed within 2 s
            wall, cpu, first = run(searches[name], envs[name])
            rows[name]["after"].append((wall, cpu))
            rows[name]["builder"].append(wait_for_builder(scratch / name / "cache"))
            wall, cpu, second = run(searches[name], envs[name])
            rows[name]["warm"].append((wall, cpu))
            home = str(scratch / name).encode()
            answers[name] = (first.replace(home, b"SIDE"), second.replace(home, b"SIDE"))
        same = answers["new"] == answers["old"] and answers["new"][0] == answers["new"][1]
        print(f"edit {edit + 1}: same answers on both sides and before/after the builder: {same}", flush=True)
    print(f"{options.size:,} records, {len(files)} files, one record appended to one file per edit, {options.edits} edits")
    for name in sides:
        after, warm = rows[name]["after"], rows[name]["warm"]
        print(f"  {name}: search after the edit {statistics.median(w for w, _ in after):.2f} s "
              f"(CPU {statistics.median(c for _, c in after):.2f} s); builder {statistics.median(rows[name]['builder']):.2f} s; "
              f"next search {statistics.median(w for w, _ in warm):.2f} s (CPU {statistics.median(c for _, c in warm):.2f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
