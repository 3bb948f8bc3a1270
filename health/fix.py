"""Repair command: `cortex-health fix [--root ROOT] [--dry-run] [--now TIME]`. Called by health.cli.

Lists the repairs the audit's lock findings call for and, without --dry-run, applies the
provably safe ones only: breaking a write lock whose holder is dead on this host (judged
again at the moment of breaking), each logged to O/memory-locks.jsonl. Everything else (a
live holder, an unverifiable one) is explained and left alone. Exit 0 when every safe repair
was applied (or listed), 1 when one could not be, 3 on bad usage or an unusable root.
"""
from __future__ import annotations

import os

from cortex.layout import LOCKS_LOG
from health.commands.base import Call, Command

USAGE = "cortex-health fix [--root ROOT] [--dry-run] [--now TIME]"


def plan(lock) -> tuple[bool, str]:
    """(safe to apply, what to do or why it is left alone) for one held lock."""
    if lock.holder == "gone":
        return True, f"break {lock.path}: holder pid {lock.pid} is gone from this host"
    if lock.holder == "alive":
        return False, f"leave {lock.path}: pid {lock.pid} on this host is alive (let it finish or stop it)"
    return False, (f"leave {lock.path}: its holder cannot be verified (host {lock.host}, pid {lock.pid}); remove it "
                   "by hand only after checking that no writer runs there")


def apply(layout, lock, now_ms: int) -> str | None:
    """Break one lock; the reason it was not broken, else None (and the event is logged)."""
    from cortex.errors import CortexError
    from cortex.layout import Layout as CoreLayout
    from cortex.liferows import LOCK_BROKEN_BY_FIX, LockEventRow
    from cortex.write.locks import break_if_holder_dead
    from cortex.write.writecontext import WriteContext

    try:
        stamp = break_if_holder_dead(lock.path)
    except (CortexError, OSError) as error:
        return f"cannot break it: {error}"
    if stamp is None:
        return "not broken: the lock changed or its holder is no longer provably gone"
    ctx = WriteContext(CoreLayout.from_memory_root(layout.memory), now_ms, 0)
    ctx.record(LOCKS_LOG, LockEventRow(os.getpid(), LOCK_BROKEN_BY_FIX, "holder-process-gone", ctx.layout.display(lock.path),
                                       f"broke lock of pid {stamp.get('pid')} on {stamp.get('host')}").as_row())
    return None


class FixCommand(Command):
    name = "fix"

    def parser(self):
        from health.parser import Parser

        parser = Parser(prog="cortex-health fix", usage=USAGE, allow_abbrev=False)
        parser.add_argument("--root")
        parser.add_argument("--now")
        parser.add_argument("--dry-run", action="store_true")
        return parser

    def run(self, args, call: Call) -> int:
        from collectors.lifeos.layout import Layout, resolve_root
        from collectors.lifeos.locks import collect
        from thresholds.clock import resolve_clock

        stdout, stderr = call.stdout, call.stderr
        layout = Layout.for_root(resolve_root(args.root, call.environ), environ=call.environ)
        if not os.path.isdir(layout.root):
            stderr.write(f"cortex-health fix: root {layout.root} is not a directory\n")
            return 3
        clock = resolve_clock(args.now, call.environ)
        if clock.problem:  # a repair never acts on a time it guessed
            stderr.write(f"cortex-health fix: {clock.problem}\n")
            return 3
        now_ms = clock.now_ms
        locks = collect(layout).locks
        if not locks:
            stdout.write("nothing to repair: no write lock is held\n")
            return 0
        failed = 0
        for lock in locks:
            safe, what = plan(lock)
            if not safe or args.dry_run:
                stdout.write(("would " if safe else "") + what + "\n")
                continue
            problem = apply(layout, lock, now_ms)
            failed += problem is not None
            stdout.write(f"{what}: {'done (logged to memory-locks.jsonl)' if problem is None else problem}\n")
        return 1 if failed else 0


main = FixCommand().main
