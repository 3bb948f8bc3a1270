"""Command: `cortex-health probe [check flags]`, the synthetic probe alone. Called by health.cli.

Runs the registered hooks exactly as the agent would, and a governed write and a review with
a stub inference command, in a throw-away copy of the install (collectors.lifeos.probe), and prints
the probe's findings in the chosen format: exit 0 ok, 1 warn (a slow step), 2 critical (a
failed step), 3 when it cannot run. It writes nothing into the audited tree (no line in
memory-health.jsonl; --report-path and --prometheus-textfile still write where they are told).
`cortex-health --probe` runs it as part of a full audit instead (what the daily timer does).
"""
from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import TextIO

USAGE = ("usage: cortex-health probe [--root ROOT] [--now TIME] [--config FILE] [--threshold NAME=VALUE ...]\n"
         "                          [--format FORMAT | --json] [-v | --quiet] [--fail-on LEVEL]\n"
         "                          [--report-path FILE] [--prometheus-textfile PATH.prom]\n"
         "  runs the hooks settings.json registers, with Claude Code's JSON on stdin and their timeouts, and a\n"
         "  remember -> search -> get round trip and a review with a stub model, in a throw-away copy of the\n"
         "  install; probe_timeout_ms (default 2 min) bounds the whole run. Writes nothing into ROOT.")
REFUSED = ("--only", "--skip", "--probe", "--list-checks", "--layout")


def main(argv: Sequence[str], environ: Mapping[str, str] | None = None, stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    args = list(argv)
    if any(arg in ("-h", "--help") for arg in args):
        stdout.write(USAGE + "\n")
        return 0
    refused = [arg for arg in args if arg.split("=", 1)[0] in REFUSED]
    if refused:
        stderr.write(f"cortex-health probe: usage: {', '.join(refused)} does not apply to the probe\n{USAGE}\n")
        return 3
    from health.cli import run

    # An empty check list plus --probe: the report holds the probe's steps and the run's own inputs, nothing else.
    return run(["--probe", "--no-write", *args], environ=environ, stdout=stdout, stderr=stderr, checks=())
