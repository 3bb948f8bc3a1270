"""Evaluate stage rule (Dense Context): caps on AGENTS.md, STATUS.md and ISSUES.md. Used through health.judge.rules.dense_context.RULES.

Over a cap: dc-cap-exceeded; at 90 % or more of either cap: dc-cap-pressure.
"""
from __future__ import annotations

from collections.abc import Iterator

from collectors.dense_context.caps import CapsEvidence
from health.judge.catalogue.dense_context import DC_CAPS_OK, DC_CAP_EXCEEDED, DC_CAP_PRESSURE, DC_CAP_UNREADABLE
from health.judge.model import Finding
from health.judge.rules import Context

PRESSURE = 0.9


def judge(ev: CapsEvidence, ctx: Context) -> Iterator[Finding]:
    problems = 0
    for item in ev.files:
        if item.problem:
            problems += 1
            yield DC_CAP_UNREADABLE.at(
                item.path, message=f"{item.path} cannot be measured: {item.problem}.",
                path=item.path, reason=item.problem)
            continue
        lines_name, bytes_name = f"dc_{item.kind}_max_lines", f"dc_{item.kind}_max_bytes"
        max_lines, max_bytes = ctx.thresholds[lines_name], ctx.thresholds[bytes_name]
        where = dict(path=item.path, lines=item.lines, bytes=item.bytes, max_lines=max_lines, max_bytes=max_bytes)
        if item.lines > max_lines or item.bytes > max_bytes:
            problems += 1
            over = item.lines > max_lines
            yield DC_CAP_EXCEEDED.at(
                item.path, message=f"{item.path} has {item.lines} lines and {item.bytes} bytes (cap {max_lines} lines, "
                f"{max_bytes} bytes).", measured=item.lines if over else item.bytes,
                threshold=max_lines if over else max_bytes, unit="count" if over else "bytes",
                threshold_name=lines_name if over else bytes_name, **where)
        elif item.lines >= PRESSURE * max_lines or item.bytes >= PRESSURE * max_bytes:
            problems += 1
            yield DC_CAP_PRESSURE.at(
                item.path, message=f"{item.path} is at {max(item.lines / max_lines, item.bytes / max_bytes):.0%} of "
                "its cap "
                f"({item.lines}/{max_lines} lines, {item.bytes}/{max_bytes} bytes).", **where)
    if not problems:
        yield DC_CAPS_OK.at(message=f"{len(ev.files)} capped file(s) under 90 % of their caps.")
