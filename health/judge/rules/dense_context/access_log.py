"""Evaluate stage rule (Dense Context): access logs, stale and cold atoms. Used through health.judge.rules.dense_context.RULES."""
from __future__ import annotations

from collections.abc import Iterator

from collectors.dense_context.access_log import AccessEvidence
from health.judge.catalogue.dense_context import (DC_ACCESS_LOGS_OK, DC_ACCESS_LOG_MALFORMED, DC_ACCESS_LOG_MISSING,
                                            DC_ACCESS_LOG_STALE, DC_ACCESS_LOG_UNREADABLE, DC_STALE_SHARE)
from health.judge.findings import human_ms, line_list, malformed_detail
from health.judge.model import Finding
from health.judge.rules import Context


def judge(ev: AccessEvidence, ctx: Context) -> Iterator[Finding]:
    stale_after, share = ctx.thresholds["dc_access_log_stale_ms"], ctx.thresholds["dc_stale_share"]
    problems = 0
    for item in ev.projects:
        where = dict(path=item.log, project=item.project)
        if item.state != "ok" or item.newest_row_ms is None:
            if item.state == "unreadable":
                problems += 1
                yield DC_ACCESS_LOG_UNREADABLE.at(
                    item.project, message=f"{item.log}: {item.reason}.",
                    reason=item.reason, **where)
            elif item.active or item.newest_atom_ms is not None:
                problems += 1
                yield DC_ACCESS_LOG_MISSING.at(
                    item.project, message=f"{item.log} has no valid row while the project "
                    "has atoms: the memory-ref-tracker hook is probably not running.", **where)
        elif item.newest_atom_ms is not None and item.newest_atom_ms - item.newest_row_ms > stale_after:
            problems += 1
            lag = item.newest_atom_ms - item.newest_row_ms
            yield DC_ACCESS_LOG_STALE.at(
                item.project, message=f"{item.log}: newest row is {human_ms(lag)} older than "
                f"the newest atom (threshold {human_ms(stale_after)}): the tracker hook is probably not "
                "running.", measured=lag, threshold=stale_after, unit="ms", **where)
        if item.malformed_total:
            problems += 1
            yield DC_ACCESS_LOG_MALFORMED.at(
                item.project, message=f"{item.log}: "
                f"{line_list(item.malformed, item.malformed_total)}.",
                **malformed_detail(item.malformed, item.malformed_total), **where)
        if item.active and 100 * item.stale_candidates / item.active > share:
            problems += 1
            percent = 100 * item.stale_candidates / item.active
            yield DC_STALE_SHARE.at(
                item.project, message=f"{item.project}: {item.stale_candidates} of {item.active} "
                f"active atoms ({percent:.0f} %) are stale candidates (older than 30 days, never referenced).",
                measured=round(percent, 1), threshold=share, unit="count", cold=item.cold, **where)
    if not problems:
        yield DC_ACCESS_LOGS_OK.at(
            message=f"{len(ev.projects)} access log(s): {ev.rows} rows, {ev.stale_candidates} stale "
            f"candidate(s), {ev.cold} cold atom(s).")
