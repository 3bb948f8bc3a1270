"""CLI stage: the one table of `cortex-health` subcommands (pip's commands_dict); read by health.cli and health.options.

name -> (the module that runs it, its synopsis, a one-line summary). The module is imported only
when its subcommand runs, and this table imports nothing at all: the status line and the gate
start through it on a start-up budget (tests/architecture/test_startup_imports.py). Every module's `main` is
its health.commands.base.Command. The synopses make the subcommand list of `cortex-health --help`
(health.options, byte for byte as it always was); the summaries are for the docs and the tests
only, since no existing output lists them and none may change.
"""
from __future__ import annotations


class Subcommand:
    """One row: module (dotted path of the module whose `main` runs it), synopsis (the words after
    `cortex-health` in the top-level --help), summary (one line: what it is for)."""

    __slots__ = ("module", "synopsis", "summary")

    def __init__(self, module: str, synopsis: str, summary: str) -> None:
        self.module, self.synopsis, self.summary = module, synopsis, summary


# In the order the top-level --help lists them.
COMMANDS = {
    "statusline": Subcommand("health.statusline", "statusline",
                             "one line about the newest published health report, for a status line; always exit 0"),
    "gate": Subcommand("health.gate", "gate",
                       "the check within a deadline for an agent hook: publish, say on stderr when not ok, exit 0"),
    "history": Subcommand("health.history", "history",
                          "the recent runs in memory-health.jsonl: trend, failing and flapping ids; --verify the chain"),
    "explain": Subcommand("health.explain", "explain ID",
                          "what a finding id means, its thresholds, likely causes and fix"),
    "fix": Subcommand("health.fix", "fix [--dry-run]",
                      "list the repairs the lock findings call for and apply the provably safe ones"),
    "serve": Subcommand("health.serve", "serve", "a read-only dashboard of memory-health.jsonl on a loopback port"),
    "setup": Subcommand("health.setup_snippets", "setup claude-code|systemd|cron|prometheus|otel",
                        "print, write or merge the ready-to-use hook, timer, cron, Prometheus and OTel snippets"),
    "probe": Subcommand("health.probe", "probe",
                        "the synthetic probe alone: run the hooks, a governed write and a review in a throw-away copy"),
}


def listing() -> str:
    """The subcommand line of `cortex-health --help` (its epilog)."""
    return "subcommands: cortex-health " + " | ".join(row.synopsis for row in COMMANDS.values()) + " (each has --help)"
