"""Scenarios of the retrieval log, the proposals queue and the observability folder."""
import os
import shutil

from tests.health_support import DAY_MS, HOUR_MS, NOW_MS, jsonl, obs
from tests.health_scenarios.rows import append, retrieval_row, utime


def retrieval_malformed_line(root):
    append(obs(root) / "memory-retrievals.jsonl", "[1, 2]", retrieval_row(NOW_MS - HOUR_MS))


def retrieval_invalid_last(root):
    append(obs(root) / "memory-retrievals.jsonl", retrieval_row(NOW_MS - HOUR_MS, returned_count=-1))


def retrieval_no_file(root):
    (obs(root) / "memory-retrievals.jsonl").unlink()


def retrieval_empty(root):
    (obs(root) / "memory-retrievals.jsonl").write_text("\n")


def retrieval_future(root):
    append(obs(root) / "memory-retrievals.jsonl", retrieval_row(NOW_MS + HOUR_MS))


def retrieval_stale(root):
    (obs(root) / "memory-retrievals.jsonl").write_text(jsonl([retrieval_row(NOW_MS - 25 * HOUR_MS)]))


def proposals_missing(root):
    (obs(root) / "pending-proposals.jsonl").unlink()


def proposals_null_line(root):
    append(obs(root) / "pending-proposals.jsonl", "null")


def proposals_backlog(root):
    append(obs(root) / "pending-proposals.jsonl", *[{"id": f"p{i}", "status": "pending"} for i in range(9)])


def observability_missing(root):
    shutil.rmtree(obs(root))


def observability_bytes(root):
    archive = obs(root) / "archive"
    archive.mkdir()
    with open(archive / "2026-10.log", "wb") as handle:
        handle.truncate(256 * 1024 * 1024 + 1)  # sparse: no disk used
    utime(archive / "2026-10.log", NOW_MS - HOUR_MS)


def observability_age(root):
    utime(obs(root) / "memory-writes.jsonl", NOW_MS - 31 * DAY_MS)


def observability_symlink(root):
    os.symlink("/dev/zero", obs(root) / "zero.log")
