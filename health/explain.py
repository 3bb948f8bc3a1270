"""Help commands: `cortex-health explain ID...` and `cortex-health --list-checks`. Called by health.cli.

Both print health.catalogue, the one source of every id's meaning: explain gives an id's
severity, threshold (with its effective value and source), meaning, likely causes and fix
(the fix is the text -v prints under a finding); --list-checks lists every collector's
checks and ids with severity and effective threshold. Exit 0, or 3 for an unknown id.
"""
from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from health.catalogue import Check, Match
from health.catalogue.find import checks, known_ids, lookup
from health.checks import LAYOUTS, names
from reports.hints import fixed_limit_text
from reports.units import threshold_value
from thresholds.defaults import BY_NAME
from thresholds.sources import EffectiveThresholds, resolve

USAGE = "usage: cortex-health explain ID [ID ...]   (ids: cortex-health --list-checks)"


def threshold_text(name: str | None, thresholds: EffectiveThresholds, fixed: int | None = None) -> str:
    if not name and fixed is not None:
        return fixed_limit_text(fixed, "count")
    if not name:
        return "none (a state check, not a comparison)"
    item = thresholds.get(name)
    origin = f" {item.origin}" if item.origin else ""
    example = {"ms": "VALUE (ms, or 90s/30m/2h/7d)", "bytes": "VALUE (bytes, or 10KB/256MiB)"}.get(item.unit, "VALUE")
    return (f"{name} = {threshold_value(item.value, item.unit)} ({item.source.value}{origin}); "
            f"set it with {BY_NAME[name].env} or --threshold {name}={example}")


def explain_match(finding_id: str, match: Match, thresholds: EffectiveThresholds) -> list[str]:
    check = match.check
    collector = match.collector or "the run itself"
    problem = match.problem
    if problem is None:
        others = ", ".join(p.id for p in check.problems) or "none"
        return [f"{finding_id} (ok)", f"check:      {check.key}: {check.summary}", f"collector:  {collector}",
                f"meaning:    reported when this check passes; otherwise it reports one of: {others}"]
    lines = [f"{finding_id} ({problem.severity})", f"check:      {check.key}: {check.summary}",
             f"collector:  {collector}", f"threshold:  {threshold_text(problem.threshold, thresholds, problem.fixed)}",
             f"meaning:    {problem.meaning}", "likely causes:"]
    lines += [f"  - {cause}" for cause in problem.causes]
    lines.append(f"fix:        {problem.fix}")
    return lines


def suggestions(finding_id: str) -> str:
    from cortex.core.spelling import nearest

    close = nearest(finding_id, known_ids(), n=3)
    return f"; did you mean {', '.join(close)}?" if close else ""


def main(argv: Sequence[str], environ: Mapping[str, str] | None = None, stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    environ = os.environ if environ is None else environ
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    ids = list(argv)
    if not ids or any(item.startswith("-") for item in ids):
        stream = stdout if ids and ids[0] in ("-h", "--help") else stderr
        stream.write(USAGE + "\n")
        return 0 if stream is stdout else 3
    thresholds = resolve(environ)
    blocks, unknown = [], []
    for finding_id in ids:
        match = lookup(finding_id)
        if match is None:
            unknown.append(f"cortex-health explain: unknown id {finding_id!r}{suggestions(finding_id)}")
        else:
            blocks.append("\n".join(explain_match(finding_id, match, thresholds)))
    if blocks:
        text = "\n\n".join(blocks)
        if "O/" in text or "M/" in text:  # the catalogue's short forms, spelt out once
            text += ("\n\nM/ is ROOT/LIFEOS/MEMORY and O/ is ROOT/LIFEOS/MEMORY/OBSERVABILITY (ROOT: the .claude "
                     "folder, --root).")
        stdout.write(text + "\n")
    for message in unknown:
        stderr.write(message + "\n")
    return 3 if unknown else 0


def rows(selected: Sequence[str] | None, thresholds: EffectiveThresholds,
         layout: str | None = None) -> list[dict[str, Any]]:
    result = []
    for check in checks():
        if selected is not None and check.collector is not None and check.collector not in selected:
            continue
        if layout is not None and check.collector is not None and check.collector not in names(LAYOUTS[layout]):
            continue
        for finding_id, severity, threshold in ids_of(check):
            item = thresholds.get(threshold) if threshold else None
            result.append({"collector": check.collector, "check": check.key, "id": finding_id, "severity": severity,
                           "threshold": None if item is None else {
                               "name": item.name, "value": item.value, "unit": item.unit, "source": item.source.value}})
    return result


def ids_of(check: Check) -> list[tuple[str, str, str | None]]:
    return [(p.id, p.severity, p.threshold) for p in check.problems] + [(ok, "ok", None) for ok in check.ok]


def list_checks(options: Any, output: Any, environ: Mapping[str, str], stdout: TextIO, stderr: TextIO) -> int:
    from health.inputs import resolve_thresholds

    layout = getattr(options, "layout", None)
    listed = rows(options.selected, resolve_thresholds(options, environ, layout), layout)
    if output.format_given and output.format == "json":
        stdout.write(json.dumps(listed, separators=(",", ":")) + "\n")
        return 0
    width = max(len(row["id"]) for row in listed)
    lines, current = [], None
    for row in listed:
        group = row["collector"] or "(the run itself)"
        if group != current:
            lines.append(("" if current is None else "\n") + group)
            current = group
        limit = row["threshold"]
        shown = "" if limit is None else (f"{limit['name']} = {threshold_value(limit['value'], limit['unit'])}"
                                          f" ({limit['source']})")
        lines.append(f"  {row['id']:<{width}}  {row['severity']:<8}  {row['check']:<28}  {shown}".rstrip())
    lines.append("\n{collector} is any collector name; {label} is " + "principal or da; {path} a path under "
                 "context/ (Dense Context). "
                 "`cortex-health explain ID` tells what an id means and how to fix it.")
    stdout.write("\n".join(lines) + "\n")
    return 0
