"""Help commands: `cortex-health explain ID...` and `cortex-health --list-checks`. Called by health.cli.

Both print health.judge.catalogue, the one source of every id's meaning: explain gives an id's
severity, thresholds (with their effective values and sources), meaning, likely causes and
fix (the fix is the text -v prints under a finding); it takes an id as reported, as
--list-checks prints it (`lock-stale:{file}`) or bare (`lock-stale`). --list-checks lists
every collector's checks and ids with severity and every effective threshold. Exit 0, or 3
for an unknown id.
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from health.commands.base import Call, Command, UsageError
from health.judge.catalogue import Check, Match
from health.judge.catalogue.find import checks, known_ids, lookup
from health.judge.checks import names
from health.layouts import named
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
    names = problem.threshold_names or (None,)
    limits = [f"{'threshold:' if i == 0 else '':<12}{threshold_text(name, thresholds, problem.fixed)}"
              for i, name in enumerate(names)]
    lines = [f"{finding_id} ({problem.severity})", f"check:      {check.key}: {check.summary}",
             f"collector:  {collector}", *limits, f"meaning:    {problem.meaning}", "likely causes:"]
    lines += [f"  - {cause}" for cause in problem.causes]
    lines.append(f"fix:        {problem.fix}")
    return lines


def suggestions(finding_id: str) -> str:
    from cortex.core.spelling import nearest

    close = nearest(finding_id, known_ids(), n=3)
    return f"; did you mean {', '.join(close)}?" if close else ""


class ExplainCommand(Command):
    """Takes ids only, no option: every word is an id, and no id starts with "-" (so it needs no parser)."""

    name = "explain"
    help_text = USAGE

    def parse(self, call: Call) -> list[str]:
        ids = call.argv
        if ids[:1] in (["-h"], ["--help"]):
            self.show_help(call)
        if not ids or any(item.startswith("-") for item in ids):
            raise UsageError(USAGE)
        return ids

    def usage_error(self, message: str, call: Call) -> int:
        call.stderr.write(USAGE + "\n")
        return 3

    def run(self, ids: list[str], call: Call) -> int:
        thresholds = resolve(call.environ)
        blocks, unknown = [], []
        for finding_id in ids:
            match = lookup(finding_id)
            if match is None and "{" not in finding_id:  # the bare form of a templated id: explain the template
                finding_id = bare_templates().get(finding_id, finding_id)
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
            call.stdout.write(text + "\n")
        for message in unknown:
            call.stderr.write(message + "\n")
        return 3 if unknown else 0


main = ExplainCommand().main


_SLOT = re.compile(r"\{[a-z]+\}")


def bare_form(template: str) -> str:
    """A templated id without its slots: `dc-cap-exceeded:{path}` -> `dc-cap-exceeded`,
    `{label}-memory-missing` -> `memory-missing`, `hook-command-missing:{event}:{program}` -> `hook-command-missing`."""
    return re.sub(r"^[-:]+|[-:]+$", "", re.sub(r"[-:]*\{[a-z]+\}[-:]*", "-", template)).strip("-")


def bare_templates() -> dict[str, str]:
    """bare form -> template, for every templated id (what `explain dc-cap-exceeded` means)."""
    return {bare_form(template): template for template in known_ids() if _SLOT.search(template)}


def rows(selected: Sequence[str] | None, thresholds: EffectiveThresholds,
         layout: str | None = None) -> list[dict[str, Any]]:
    result = []
    for check in checks():
        if selected is not None and check.collector is not None and check.collector not in selected:
            continue
        if layout is not None and check.collector is not None and check.collector not in names(named(layout).checks()):
            continue
        for finding_id, severity, limit_names in ids_of(check):
            limits = [_limit(thresholds.get(name)) for name in limit_names]
            result.append({"collector": check.collector, "check": check.key, "id": finding_id, "severity": severity,
                           "threshold": limits[0] if limits else None, "thresholds": limits})
    return result


def _limit(item) -> dict[str, Any]:
    return {"name": item.name, "value": item.value, "unit": item.unit, "source": item.source.value}


def ids_of(check: Check) -> list[tuple[str, str, tuple[str, ...]]]:
    """(id, severity, every threshold name it is compared with) for each id of a check."""
    return [(p.id, p.severity, p.threshold_names) for p in check.problems] + [(ok, "ok", ()) for ok in check.ok]


def list_checks(options: Any, output: Any, environ: Mapping[str, str], stdout: TextIO, stderr: TextIO) -> int:
    from health.inputs import resolve_thresholds

    layout = getattr(options, "layout", None)
    limits = resolve_thresholds(options, environ, None if layout is None else named(layout).thresholds)
    listed = rows(options.selected, limits, layout)
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
        shown = "; ".join(f"{limit['name']} = {threshold_value(limit['value'], limit['unit'])} ({limit['source']})"
                          for limit in row["thresholds"])
        lines.append(f"  {row['id']:<{width}}  {row['severity']:<8}  {row['check']:<28}  {shown}".rstrip())
    lines.append("\n{collector} is any collector name; {label} is " + "principal or da; {path} a path under "
                 "context/ (Dense Context). "
                 "`cortex-health explain ID` tells what an id means and how to fix it.")
    stdout.write("\n".join(lines) + "\n")
    return 0
