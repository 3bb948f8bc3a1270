"""Evaluate stage rule (Dense Context): caps on AGENTS.md, STATUS.md and ISSUES.md. Used through health.rules.dense_context.RULES.

Over a cap: dc-cap-exceeded; at 90 % or more of either cap: dc-cap-pressure.
"""
from __future__ import annotations

from collections.abc import Iterator

from collectors.dense_context.caps import CapsEvidence
from health.findings import ok, warn
from health.model import Finding
from health.rules import Context

PRESSURE = 0.9


def judge(ev: CapsEvidence, ctx: Context) -> Iterator[Finding]:
    problems = 0
    for item in ev.files:
        if item.problem:
            problems += 1
            yield warn(f"dc-cap-unreadable:{item.path}", f"{item.path} cannot be measured: {item.problem}.",
                       path=item.path, reason=item.problem)
            continue
        lines_name, bytes_name = f"dc_{item.kind}_max_lines", f"dc_{item.kind}_max_bytes"
        max_lines, max_bytes = ctx.thresholds[lines_name], ctx.thresholds[bytes_name]
        where = dict(path=item.path, lines=item.lines, bytes=item.bytes, max_lines=max_lines, max_bytes=max_bytes)
        if item.lines > max_lines or item.bytes > max_bytes:
            problems += 1
            over = item.lines > max_lines
            yield warn(f"dc-cap-exceeded:{item.path}",
                       f"{item.path} has {item.lines} lines and {item.bytes} bytes (cap {max_lines} lines, "
                       f"{max_bytes} bytes).", measured=item.lines if over else item.bytes,
                       threshold=max_lines if over else max_bytes, unit="count" if over else "bytes",
                       threshold_name=lines_name if over else bytes_name, **where)
        elif item.lines >= PRESSURE * max_lines or item.bytes >= PRESSURE * max_bytes:
            problems += 1
            yield warn(f"dc-cap-pressure:{item.path}",
                       f"{item.path} is at {max(item.lines / max_lines, item.bytes / max_bytes):.0%} of its cap "
                       f"({item.lines}/{max_lines} lines, {item.bytes}/{max_bytes} bytes).", **where)
    if not problems:
        yield ok("dc-caps-ok", f"{len(ev.files)} capped file(s) under 90 % of their caps.")
