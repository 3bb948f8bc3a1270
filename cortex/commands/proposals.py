"""Proposal commands: `cortex proposals list|approve ID|reject ID`; registered with the CLI.

  cortex proposals list [--status pending|approved|rejected]
  cortex proposals approve ID      applies the edit to its pinned target, then marks it approved
  cortex proposals reject ID
Status changes rewrite O/pending-proposals.jsonl atomically under its lock, so the
auditor's pending count is exact at every instant.
"""
from __future__ import annotations

from cortex.errors import InvalidInput
from cortex.invocation import CommandSpec, Invocation
from cortex.write.proposals import decide, list_queue
from cortex.write.writecontext import WriteContext

STATUSES = ("pending", "approved", "rejected")


def _list(inv: Invocation, args: list[str], status: str | None) -> dict:
    if args:
        raise InvalidInput("proposals list accepts no further arguments")
    if status is not None and status not in STATUSES:
        raise InvalidInput(f"--status must be one of: {', '.join(STATUSES)}")
    return list_queue(WriteContext.from_invocation(inv), status)


def _decide(decision: str, sub: str):
    def run(inv: Invocation, args: list[str], status: str | None) -> dict:
        if status is not None:
            raise InvalidInput("--status applies only to proposals list")
        if len(args) != 1:
            raise InvalidInput(f"proposals {sub} requires exactly one proposal ID")
        decided_by = f"cortex-cli:{inv.adapter}" if inv.adapter else "cortex-cli"
        return decide(WriteContext.from_invocation(inv), args[0], decision, decided_by=decided_by)

    return run


# The sub-verbs `cortex proposals` takes (the privacy canary sweep checks it exercises each one).
SUBCOMMANDS = {"list": _list, "approve": _decide("approved", "approve"), "reject": _decide("rejected", "reject")}


def proposals(inv: Invocation) -> dict:
    sub, args = (inv.positionals[0], inv.positionals[1:]) if inv.positionals else (None, [])
    if sub not in SUBCOMMANDS:
        raise InvalidInput("proposals requires one of: list, approve ID, reject ID")
    return SUBCOMMANDS[sub](inv, args, inv.option("--status"))


COMMANDS = [CommandSpec("proposals", proposals, value_options=frozenset({"--status"}),
                        usage="cortex proposals list [--status pending|approved|rejected] | approve ID | reject ID",
                        option_help=(("--status S", "only list proposals with this status"),),
                        example="cortex proposals list --status pending")]
