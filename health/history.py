"""History command (`cortex-health history [--last N]`): the recent runs from memory-health.jsonl. Called by health.cli.

Reads the last N reports from the end of O/memory-health.jsonl (collectors.healthlog.runs, cost
independent of the log's size) and prints one row per run (time, overall, counts), a trend
line, how long each currently failing id has been failing, and the ids that flap. A line
that is not a report is reported with its position from the end, never skipped silently.
Exit 0 when the history was printed (malformed lines included), 3 when the log cannot be
read or the usage is wrong. `--verify` checks the hash chain instead (health.history_verify).
"""
from __future__ import annotations

import json
import os
from typing import Any

from collectors.healthlog.read import describe_open_error
from collectors.healthlog.runs import History, Run, read_history
from collectors.readers.paths import health_log_path, resolve_root
from health.commands.base import Call, Command
from health.parser import Parser, bounded_int

DEFAULT_LAST = 20
MAX_LAST = 10_000
FLAP_CHANGES = 3  # an id present/absent that changed state this often within the window flaps
SPARK = {"ok": "▁", "warn": "▄", "critical": "█", "unknown": "?"}
MALFORMED_MARK = "·"


positive = bounded_int(1, MAX_LAST)


def build_parser() -> Parser:
    parser = Parser(prog="cortex-health history", allow_abbrev=False,
                    description="The last runs recorded in ROOT/LIFEOS/MEMORY/OBSERVABILITY/memory-health.jsonl, newest last.")
    parser.add_argument("--root", help="audited ROOT (default: CORTEX_HEALTH_ROOT, CLAUDE_CONFIG_DIR, ~/.claude)")
    parser.add_argument("--last", type=positive, default=DEFAULT_LAST, metavar="N",
                        help=f"how many runs (default {DEFAULT_LAST})")
    parser.add_argument("--json", action="store_true", help="print the history as one JSON object")
    parser.add_argument("--verify", action="store_true",
                        help="verify the whole hash chain and the checkpoint: exit 0 intact, 2 broken")
    return parser


def presence(runs: list[Run]) -> dict[str, list[tuple[Run, str | None]]]:
    """For every id seen, its severity in each well-formed run (None when absent), oldest first."""
    reports = [run for run in runs if run.report is not None]
    ids = sorted({f["id"] for run in reports for f in run.report["findings"]})
    table = {}
    for finding_id in ids:
        table[finding_id] = [(run, next((f["severity"] for f in run.report["findings"] if f["id"] == finding_id),
                                        None)) for run in reports]
    return table


def failing(runs: list[Run]) -> list[dict[str, Any]]:
    """Ids failing in the newest report: for how many consecutive runs, and since when."""
    result = []
    for finding_id, states in presence(runs).items():
        if not states or states[-1][1] is None:
            continue
        streak = 0
        for _, severity in reversed(states):
            if severity is None:
                break
            streak += 1
        first = states[-streak][0]
        result.append({"id": finding_id, "severity": states[-1][1], "runs": streak, "since": first.report["ts"],
                       "whole_window": streak == len(states)})
    return sorted(result, key=lambda item: (item["severity"] != "critical", -item["runs"], item["id"]))


def flapping(runs: list[Run]) -> list[dict[str, Any]]:
    result = []
    for finding_id, states in presence(runs).items():
        changes = sum(1 for before, after in zip(states, states[1:]) if (before[1] is None) != (after[1] is None))
        if changes >= FLAP_CHANGES:
            result.append({"id": finding_id, "changes": changes})
    return sorted(result, key=lambda item: (-item["changes"], item["id"]))


def trend(runs: list[Run]) -> str:
    return "".join(SPARK.get(run.report["overall"], "?") if run.report else MALFORMED_MARK for run in runs)


def as_json(history: History) -> dict[str, Any]:
    rows = [{"position": run.position, "ts": run.report["ts"], "overall": run.report["overall"],
             "counts": run.report["counts"], "ids": [f["id"] for f in run.report["findings"]]}
            if run.report else {"position": run.position, "malformed": run.problem} for run in history.runs]
    return {"log": history.log, "runs": rows, "trend": trend(history.runs), "failing": failing(history.runs),
            "flapping": flapping(history.runs), "truncated": history.truncated}


def as_text(history: History) -> list[str]:
    runs = history.runs
    lines = [f"cortex-health history: {len(runs)} run(s) from {history.log} (oldest first)",
             f"{'time':<26}{'overall':<10}{'crit':>5}{'warn':>5}{'ok':>5}  ids"]
    for run in runs:
        if run.report is None:
            lines.append(f"{'?':<26}{'malformed':<10}{'':>15}  line {run.position} from the end: {run.problem}")
            continue
        counts = run.report["counts"]
        ids = ", ".join(f["id"] for f in run.report["findings"])
        lines.append(f"{run.report['ts']:<26}{run.report['overall']:<10}{counts['critical']:>5}{counts['warn']:>5}"
                     f"{counts['ok']:>5}  {ids}".rstrip())
    lines += ["", f"trend: {trend(runs)}   (oldest → newest; ▁ ok ▄ warn █ critical ? unknown · malformed)"]
    for item in failing(runs):
        since = f"since before {item['since']} (every run shown)" if item["whole_window"] else f"since {item['since']}"
        lines.append(f"failing: {item['id']} ({item['severity']}) for {item['runs']} run(s), {since}")
    for item in flapping(runs):
        lines.append(f"flapping: {item['id']} changed state {item['changes']} times in {len(runs)} runs")
    bad = [run for run in runs if run.report is None]
    if bad:
        lines.append(f"malformed: {len(bad)} line(s) are not cortex-health reports (shown above with their position)")
    if history.truncated:
        lines.append("note: the scan stopped at its byte budget before reaching the requested number of runs")
    return lines


class HistoryCommand(Command):
    name = "history"

    def parser(self) -> Parser:
        return build_parser()

    def run(self, args, call: Call) -> int:
        stdout, stderr = call.stdout, call.stderr
        root = resolve_root(args.root, call.environ)
        if not os.path.isdir(root):  # a typo in --root is not "no run recorded yet": the auditor cannot run (exit 3)
            stderr.write(f"cortex-health history: root {root} does not exist (or is not a directory)\n")
            return 3
        path = health_log_path(root)
        if args.verify:
            from health.history_verify import run_verify

            return run_verify(path, args.json, stdout, stderr)
        try:
            history = read_history(path, args.last)
        except FileNotFoundError:
            stdout.write(f"cortex-health history: no run recorded yet ({path} does not exist)\n")
            return 0
        except OSError as error:
            stderr.write(f"cortex-health history: cannot read {path}: {describe_open_error(error)}\n")
            return 3
        if args.json:
            stdout.write(json.dumps(as_json(history), ensure_ascii=False, separators=(",", ":")) + "\n")
        else:
            stdout.write("\n".join(as_text(history)) + "\n")
        return 0


main = HistoryCommand().main
