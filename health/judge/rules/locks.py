"""Evaluate stage rule: write locks that jam a file, and lock contention. Used by the evaluator through health.judge.checks.

A lock is stale when its holder is provably dead on this host, or unverifiable and older than
lock_stale_ms (the writers' own recovery age): `cortex-health fix` can break the first kind.
A live holder keeping a lock longer than lock_held_ms is stuck. More than
lock_contention_per_day contended or recovered events in the last 24 h warn.
"""
from __future__ import annotations

from collectors.lifeos.locks import LockHolder, LocksEvidence
from cortex.core.timestamps import iso_from_ms
from health.judge.catalogue.locks import (LOCKS_FREE, LOCK_CONTENTION, LOCK_CONTENTION_OK, LOCK_HELD, LOCK_HELD_LONG,
                                    LOCK_STALE)
from health.judge.findings import human_ms
from health.judge.model import Finding
from health.judge.rules import Context

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Iterator

DAY_MS = 86_400_000


def judge(ev: LocksEvidence, ctx: Context) -> Iterator[Finding]:
    if not ev.locks:
        yield LOCKS_FREE.at(message="No write lock is held.", health_lock_held=ev.health_lock_held)
    for lock in ev.locks:
        yield judge_lock(lock, ctx)
    yield contention(ev, ctx)


def judge_lock(lock: LockHolder, ctx: Context) -> Finding:
    age = None if lock.at_ms is None else ctx.now_ms - lock.at_ms
    where = dict(path=lock.path, pid=lock.pid, host=lock.host, liveness=lock.holder,
                 since=iso_from_ms(lock.at_ms) if lock.at_ms is not None else None, measured=age, unit="ms")
    stale = ctx.thresholds["lock_stale_ms"]
    if lock.holder == "gone":
        return LOCK_STALE.at(
            lock.file, message=f"{lock.file} is held by pid {lock.pid}, which is gone from this host: "
            "the next writer breaks it; `cortex-health fix` can break it now.", threshold=stale, **where)
    if lock.holder == "unverifiable" and (age is None or age > stale):
        return LOCK_STALE.at(
            lock.file, message=f"{lock.file}'s holder cannot be verified "
            f"({'no valid stamp' if not lock.stamped else 'host ' + str(lock.host)}) and the lock is older "
            f"than {human_ms(stale)}.", threshold=stale, **where)
    held = ctx.thresholds["lock_held_ms"]
    if lock.holder == "alive" and age is not None and age > held:
        return LOCK_HELD_LONG.at(
            lock.file, message=f"{lock.file} has been held by live pid {lock.pid} for "
            f"{human_ms(age)} (threshold {human_ms(held)}): writers to it are refused meanwhile.",
            threshold=held, **where)
    return LOCK_HELD.at(
        lock.file, message=f"{lock.file} is held ({lock.holder}) within its limits.", threshold=held,
        **where)


def contention(ev: LocksEvidence, ctx: Context) -> Finding:
    limit = ctx.thresholds["lock_contention_per_day"]
    recent = [ms for ms in ev.contended_ms if ctx.now_ms - DAY_MS <= ms <= ctx.now_ms]
    where = dict(path=ev.events_log.path, measured=len(recent), threshold=limit, unit="count")
    if len(recent) > limit:
        return LOCK_CONTENTION.at(
            message=f"{len(recent)} contended or recovered lock events in the last 24 h "
            f"(threshold {limit:g}): writers keep colliding.", **where)
    return LOCK_CONTENTION_OK.at(message=f"{len(recent)} contended or recovered lock events in the last 24 h.", **where)
