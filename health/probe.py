"""Command: `cortex-health probe [check flags]`, the synthetic probe alone. Called by health.cli.

Runs the registered hooks exactly as the agent would, and a governed write and a review with
a stub inference command, in a throw-away copy of the install (collectors.lifeos.probe), and prints
the probe's findings in the chosen format: exit 0 ok, 1 warn (a slow step), 2 critical (a
failed step), 3 when it cannot run. It writes nothing into the audited tree (no line in
memory-health.jsonl; --report-path and --prometheus-textfile still write where they are told).
`cortex-health --probe` runs it as part of a full audit instead (what the daily timer does).
"""
from __future__ import annotations

from health.commands.base import Call, Command, UsageError

USAGE = ("usage: cortex-health probe [--root ROOT] [--now TIME] [--config FILE] [--threshold NAME=VALUE ...]\n"
         "                          [--format FORMAT | --json] [-v | --quiet] [--fail-on LEVEL]\n"
         "                          [--report-path FILE] [--prometheus-textfile PATH.prom]\n"
         "  runs the hooks settings.json registers, with Claude Code's JSON on stdin and their timeouts, and a\n"
         "  remember -> search -> get round trip and a review with a stub model, in a throw-away copy of the\n"
         "  install; probe_timeout_ms (default 2 min) bounds the whole run. Writes nothing into ROOT.")
REFUSED = ("--only", "--skip", "--probe", "--list-checks", "--layout")


class ProbeCommand(Command):
    """Its flags are the check's own, parsed by the check's parser (health.options); here only what it refuses."""

    name = "probe"
    help_text = USAGE

    def parse(self, call: Call) -> list[str]:
        if any(arg in ("-h", "--help") for arg in call.argv):
            self.show_help(call)
        refused = [arg for arg in call.argv if arg.split("=", 1)[0] in REFUSED]
        if refused:
            raise UsageError(f"{', '.join(refused)} does not apply to the probe")
        return call.argv

    def usage_error(self, message: str, call: Call) -> int:
        call.stderr.write(f"{self.prog}: usage: {message}\n{USAGE}\n")
        return 3

    def run(self, args: list[str], call: Call) -> int:
        from health.cli import run

        # An empty check list plus --probe: the report holds the probe's steps and the run's own inputs, nothing else.
        return run(["--probe", "--no-write", *args], environ=call.environ, stdout=call.stdout, stderr=call.stderr,
                   checks=())


main = ProbeCommand().main
