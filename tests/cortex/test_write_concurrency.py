"""Two processes writing at once: the lock serialises them, nothing is lost, every guard saw the true prior."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.write_support import REPO, run_in_process, tree  # noqa: F401 (fixture)

from cortex.hot.hotmemory import check_markers, parse_memory_content

CHILD = Path(__file__).parents[1] / "write_loop_child.py"
COUNT = 15


def race(tree, mode: str) -> list[list[int]]:
    children = [subprocess.Popen([sys.executable, str(CHILD), mode, name, str(COUNT)], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, env=tree.env(CORTEX_NOW=""), cwd=str(REPO), text=True)
                for name in ("alpha", "beta")]
    for child in children:
        assert child.stdout.readline().strip() == "ready"
    codes: list[list[int]] = [[], []]
    for _ in range(COUNT):  # a barrier per round, through the pipes (no sleeps): both write once, racing
        for child in children:
            child.stdin.write("go\n")
            child.stdin.flush()
        for child, seen in zip(children, codes):
            seen.append(int(child.stdout.readline()))
    for child in children:
        child.communicate(timeout=60)
        assert child.returncode == 0
    return codes


def test_two_hot_writers_at_once_lose_nothing(tree):
    seed = "NAME: Ada ~explicit\nROLE: engineer ~explicit\nPREFERENCE: terse replies ~explicit\nRULE: seed\n"
    assert run_in_process(tree, "hot", "set", "principal", stdin=seed).code == 0
    codes = race(tree, "hot")
    assert codes == [[0] * COUNT, [0] * COUNT]
    rows = [row for row in tree.rows("memory-writes.jsonl") if row["ok"]]
    assert len(rows) == 2 * COUNT + 1
    for previous, row in zip(rows, rows[1:]):
        # Each write replaced exactly the entry the previous one added: it saw the true prior state.
        previous_rule = [entry for entry in previous["additions"] if entry.startswith("RULE: ")]
        assert row["evictions"] == previous_rule and row["prior_count"] == 4 == row["new_count"]
    writers = ["alpha" if "alpha" in row["additions"][-1] else "beta" for row in rows[1:]]
    switches = sum(1 for a, b in zip(writers, writers[1:]) if a != b)
    assert switches >= 2, writers  # the two processes really were writing at the same time
    final = parse_memory_content(tree.principal.read_text())
    assert list(final.entries)[-1] == rows[-1]["additions"][0]
    assert check_markers(tree.principal.read_text()).ok
    snapshots = list((tree.obs / "memory-snapshots").glob("PRINCIPAL_MEMORY__*.md"))
    assert len(snapshots) == 30
    assert all(check_markers(snap.read_text()).ok for snap in snapshots)
    assert not any(p.name.endswith((".tmp", ".lock")) for p in tree.principal.parent.iterdir())


def test_two_proposers_at_once_lose_no_row(tree):
    codes = race(tree, "propose")
    assert codes == [[0] * COUNT, [0] * COUNT]
    rows = [json.loads(line) for line in (tree.obs / "pending-proposals.jsonl").read_text().splitlines()]
    assert len(rows) == 2 * COUNT and len({row["id"] for row in rows}) == 2 * COUNT
    writers = [row["edit"].split()[0] for row in rows]
    assert sum(1 for a, b in zip(writers, writers[1:]) if a != b) >= 2, writers
    assert sorted(row["edit"] for row in rows) == sorted(f"{name} term {i}" for name in ("alpha", "beta") for i in range(COUNT))
    assert run_in_process(tree, "proposals", "list").data["pending"] == 2 * COUNT
