"""Mutations of the demo tree for the chained health history's ids (issue 15): a real chained log, then one change.

The log is published by the real auditor (tests.ops_support.publish_runs), so every line carries
its chain link and the checkpoint is current before the change.
"""
from __future__ import annotations

from tests.ops_support import health_log, publish_runs


def history_tampered(root):
    publish_runs(root, [3, 2, 1])
    log = health_log(root)
    lines = log.read_bytes().splitlines(keepends=True)
    lines[0] = b"{ " + lines[0][1:]  # an earlier line edited (one byte longer: the audit's incremental check sees it)
    log.write_bytes(b"".join(lines))


def history_unchained(root):
    publish_runs(root, [2, 1])
    with open(health_log(root), "ab") as handle:
        handle.write(b'{"written": "by another tool"}\n')  # a line after the chain started, without a link
