"""Crash proof: SIGKILL a real writer process at every checkpoint of a write (and at random moments).

After every kill the target is exactly the old or the new state, the snapshot ring holds only
complete snapshots (at most 30), every evidence line parses, the next write succeeds at
once (the dead writer's lock is broken on evidence) and leaves no temp or lock litter.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.write_support import REPO, Tree, check_envelope, entries, make_tree, run_in_process, schema_validator

from cortex.write.snapshots import RING

CHILD = Path(__file__).parents[1] / "crash_child.py"


def run_child(tree: Tree, args: list[str], stop_at: str = "", stdin: bytes = b"") -> tuple[list[str], subprocess.Popen]:
    """Run the child; returns (checkpoints seen, process). A stopped child is killed with SIGKILL."""
    read_end, write_end = os.pipe()
    env = tree.env(CRASH_STOP_AT=stop_at, CRASH_REPORT_FD=str(write_end))
    child = subprocess.Popen([sys.executable, str(CHILD), *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env, pass_fds=(write_end,), cwd=str(REPO))
    os.close(write_end)
    child.stdin.write(stdin)
    child.stdin.close()
    seen: list[str] = []
    with os.fdopen(read_end, "r") as reports:
        for line in reports:
            line = line.strip()
            if line == "STOPPED":
                child.send_signal(signal.SIGKILL)
                break
            seen.append(line)
    child.wait(timeout=30)
    output = child.stdout.read()
    child.stdout.close()
    child.stderr.close()
    if child.returncode >= 0:  # ran to completion: its one envelope must honour the contract
        (line,) = output.decode().splitlines()
        check_envelope(json.loads(line))
    return seen, child


def copy_tree(prepared: Tree, where: Path) -> Tree:
    shutil.copytree(prepared.root, where / "claude", symlinks=True)
    (where / "home").mkdir()
    return Tree(where / "claude", where / "home", prepared.now)


def litter(tree: Tree) -> list[str]:
    """Temp files, aside files and locks anywhere in the tree."""
    found = []
    for current, _dirs, files in os.walk(tree.root):
        found += [os.path.join(current, name) for name in files if name.endswith((".tmp", ".lock"))]
    return found


def assert_evidence_parses(tree: Tree) -> None:
    for name in ("memory-writes.jsonl", "memory-locks.jsonl", "tier-b-writes.jsonl", "proposal-decisions.jsonl"):
        path = tree.obs / name
        if path.exists():
            for line in path.read_text().splitlines():
                json.loads(line)
    for row in tree.rows("memory-writes.jsonl"):
        schema_validator("lifeos-cortex-memory-write-row-v1.schema.json").validate(row)


def ring(tree: Tree) -> list[Path]:
    return sorted((tree.obs / "memory-snapshots").glob("PRINCIPAL_MEMORY__*.md"))


@pytest.fixture(scope="module")
def prepared(tmp_path_factory) -> tuple[Tree, list[bytes]]:
    """A tree whose principal file has been written 31 times: the ring is full (30)."""
    tree = make_tree(tmp_path_factory.mktemp("prepared"), subprocess_init=False)
    states = [tree.principal.read_bytes()]
    for i in range(RING + 1):
        lines = "".join(e + "\n" for e in entries(3 + i % 3, f"v{i}"))
        result = run_in_process(tree, "hot", "set", "principal", "--allow-drastic", stdin=lines)
        assert result.code == 0, result.envelope
        states.append(tree.principal.read_bytes())
    assert len(ring(tree)) == RING
    return tree, states


NEW_ENTRIES = "".join(e + "\n" for e in entries(4, "new"))
HOT_SET = ["hot", "set", "principal"]


def test_hot_set_survives_a_kill_at_every_checkpoint(prepared, tmp_path):
    tree, states = prepared
    trace_tree = copy_tree(tree, tmp_path / "trace")
    points, child = run_child(trace_tree, HOT_SET, stdin=NEW_ENTRIES.encode())
    assert child.returncode == 0
    new_bytes = trace_tree.principal.read_bytes()
    expected = {"lock-acquired#1", "ring-trimmed#1", "temp-synced#1", "linked#1", "renamed#1", "appended#1", "lock-released#1"}
    assert expected <= set(points), points
    known = set(states) | {new_bytes}
    for index, point in enumerate(points):
        case = copy_tree(tree, tmp_path / f"kill{index}")
        seen, child = run_child(case, HOT_SET, stop_at=point, stdin=NEW_ENTRIES.encode())
        assert child.returncode == -signal.SIGKILL and seen[-1] == point
        assert case.principal.read_bytes() in (states[-1], new_bytes), point
        snapshots = ring(case)
        assert len(snapshots) <= RING and all(snap.read_bytes() in known for snap in snapshots), point
        assert_evidence_parses(case)
        recovered = run_in_process(case, "hot", "set", "principal", stdin=NEW_ENTRIES)
        assert recovered.code == 0, (point, recovered.envelope)
        assert case.principal.read_bytes() == new_bytes
        assert litter(case) == [], point
        assert len(ring(case)) == RING and all(snap.read_bytes() in known for snap in ring(case))
        if any(seen_point.startswith("lock-acquired") for seen_point in seen) and "lock-released#1" not in seen:
            events = [row["event"] for row in case.rows("memory-locks.jsonl")]
            assert "stale_lock_recovered" in events, point


def test_random_kills_of_the_real_cli_leave_old_or_new(prepared, tmp_path):
    tree, states = prepared
    trace_tree = copy_tree(tree, tmp_path / "trace")
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "cortex", *HOT_SET], input=NEW_ENTRIES.encode(), capture_output=True,
                          env=trace_tree.env(), cwd=str(REPO), timeout=30)
    runtime = time.monotonic() - started
    assert proc.returncode == 0
    new_bytes = trace_tree.principal.read_bytes()
    chooser = random.Random(20260102)
    for index in range(8):
        case = copy_tree(tree, tmp_path / f"random{index}")
        child = subprocess.Popen([sys.executable, "-m", "cortex", *HOT_SET], stdin=subprocess.PIPE,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=case.env(), cwd=str(REPO))
        child.stdin.write(NEW_ENTRIES.encode())
        child.stdin.close()
        try:
            child.wait(timeout=chooser.uniform(0.5, 1.05) * runtime)  # waiting on the child, then kill it
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        assert case.principal.read_bytes() in (states[-1], new_bytes)
        assert all(snap.read_bytes() in set(states) for snap in ring(case)) and len(ring(case)) <= RING
        assert_evidence_parses(case)
        assert run_in_process(case, *HOT_SET, stdin=NEW_ENTRIES).code == 0
        assert case.principal.read_bytes() == new_bytes and litter(case) == []


PROPOSAL = json.dumps({"type": "proposal", "target_file": "WRITINGSTYLE.md", "target_kind": "style",
                       "edit": "Prefers short sentences.", "confidence": 0.7, "rationale": "Observed."})


def _queue(tree: Tree) -> bytes:
    return (tree.obs / "pending-proposals.jsonl").read_bytes()


def test_propose_and_approve_survive_a_kill_at_every_checkpoint(prepared, tmp_path):
    tree, _states = prepared
    base = copy_tree(tree, tmp_path / "base")
    first = run_in_process(base, "propose", PROPOSAL, "--adapter", "claude", "--allow-write")
    proposal_id = first.data["result"]["detail"]["id"]
    queue_before = _queue(base)
    propose_args = ["propose", PROPOSAL, "--adapter", "claude", "--allow-write"]
    points, child = run_child(copy_tree(base, tmp_path / "trace-propose"), propose_args)
    assert child.returncode == 0 and "renamed#1" in points
    for index, point in enumerate(points):
        case = copy_tree(base, tmp_path / f"propose{index}")
        run_child(case, propose_args, stop_at=point)
        after = _queue(case)
        assert after == queue_before or (after.startswith(queue_before) and after.count(b"\n") == queue_before.count(b"\n") + 1)
        assert [json.loads(line)["status"] for line in after.splitlines()].count("pending") in (1, 2)
        assert run_in_process(case, *propose_args).code == 0 and litter(case) == []

    approve_args = ["proposals", "approve", proposal_id]
    target = Path("LIFEOS/USER/PRINCIPAL/WRITINGSTYLE.md")
    points, child = run_child(copy_tree(base, tmp_path / "trace-approve"), approve_args)
    assert child.returncode == 0 and points.count("renamed#1") == 1 and "renamed#2" in points
    for index, point in enumerate(points):
        case = copy_tree(base, tmp_path / f"approve{index}")
        run_child(case, approve_args, stop_at=point)
        (row,) = [json.loads(line) for line in _queue(case).splitlines()]
        applied = (case.root / target).read_text() if (case.root / target).exists() else ""
        assert applied in ("", "Prefers short sentences.\n")
        assert row["status"] == "pending" or applied  # never "approved" without the edit applied
        if row["status"] == "pending":
            assert run_in_process(case, *approve_args).code == 0
        assert (case.root / target).read_text() == "Prefers short sentences.\n"
        assert json.loads(_queue(case))["status"] == "approved"
        assert run_in_process(case, *propose_args).code == 0  # the queue stays writable after any kill
        assert litter(case) == [], point


def test_remember_idea_survives_a_kill_at_every_checkpoint(prepared, tmp_path):
    tree, _states = prepared
    idea = json.dumps({"type": "idea", "title": "Crash safe", "content": "Whole or not at all."})
    args = ["remember", idea, "--adapter", "codex", "--allow-write"]
    points, child = run_child(copy_tree(tree, tmp_path / "trace"), args)
    assert child.returncode == 0 and "linked#1" in points
    for index, point in enumerate(points):
        case = copy_tree(tree, tmp_path / f"idea{index}")
        run_child(case, args, stop_at=point)
        status = run_in_process(case, "status")
        assert status.code == 0 and status.data["canonical"]["records"] in (0, 1)  # never a torn record
        assert run_in_process(case, *args).code == 0
        assert run_in_process(case, "status").data["canonical"]["records"] in (1, 2)
