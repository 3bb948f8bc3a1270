"""History command, `--verify`: check the whole hash chain of memory-health.jsonl against itself and its checkpoint.
Called by health.history.

Exit 0 when the chain is intact (lines after the chain started that carry no link are
listed by line number, with whether they are reports at all), 2 naming the first broken
line and what broke (edited, inserted, deleted, reordered, truncated), 3 when the log
cannot be read. Verifies from the first byte, not from the checkpoint.
"""
from __future__ import annotations

import json
from typing import Any, TextIO

from collectors.healthlog.verify import Verification, verify
from collectors.healthlog.chain import Checkpoint, checkpoint_path, read_checkpoint
from collectors.healthlog.read import describe_open_error, parse_report


def _line_problems(path: str, numbers: list[int]) -> dict[int, str | None]:
    """For the listed line numbers: why each is not a report (None when it is one)."""
    from cortex.core.safeio import iter_lines

    wanted, found = set(numbers), {}
    if not wanted:
        return found
    for number, raw in iter_lines(path, 1 << 20):
        if number in wanted:
            parsed = parse_report(raw)
            found[number] = None if isinstance(parsed, dict) else parsed
            if len(found) == len(wanted):
                break
    return found


def summary(path: str, result: Verification, point: Checkpoint | None, point_problem: str | None) -> dict[str, Any]:
    broken = result.broken
    problems = _line_problems(path, result.unchained)
    return {
        "log": path, "intact": broken is None and point_problem is None, "lines": result.walk.lines,
        "head_seq": result.walk.seq,
        "checkpoint": {"seq": point.seq, "ts": point.ts, "line": point.line} if point else None,
        "checkpoint_problem": point_problem,
        "broken": {"line": broken.line, "kind": broken.kind, "reason": broken.message} if broken else None,
        "unchained": [{"line": n, "report": problems.get(n) is None, "problem": problems.get(n)}
                      for n in result.unchained],
        "unchained_total": result.unchained_total, "checkpoint_behind": result.checkpoint_behind,
        "torn": result.torn,
    }


def as_text(body: dict[str, Any]) -> list[str]:
    lines = []
    if body["broken"]:
        item = body["broken"]
        lines.append(f"chain BROKEN at line {item['line']} ({item['kind']}): {item['reason']}")
    elif body["checkpoint_problem"]:
        lines.append(f"chain NOT VERIFIED: the checkpoint cannot be used: {body['checkpoint_problem']}")
    elif body["head_seq"] is None:
        lines.append(f"chain not started: {body['lines']} line(s), none chained yet (the next published run starts it)")
    else:
        lines.append(f"chain intact: {body['lines']} line(s), head seq {body['head_seq']}")
    point = body["checkpoint"]
    lines.append(f"checkpoint: seq {point['seq']} at line {point['line']}, {point['ts']}" if point
                 else "checkpoint: none (a cut tail cannot be detected)")
    if body["checkpoint_behind"]:
        lines.append(f"note: {body['checkpoint_behind']} chained line(s) after the checkpoint (an interrupted append)")
    for item in body["unchained"]:
        what = "a report" if item["report"] else f"not a report: {item['problem']}"
        lines.append(f"unchained: line {item['line']} carries no chain link ({what})")
    more = body["unchained_total"] - len(body["unchained"])
    if more > 0:
        lines.append(f"unchained: {more} more line(s)")
    if body["torn"]:
        lines.append("note: the log ends inside a line (an append in progress, or a cut)")
    lines.append(f"log: {body['log']}")
    return lines


def run_verify(path: str, as_json: bool, stdout: TextIO, stderr: TextIO) -> int:
    found = read_checkpoint(checkpoint_path(path))
    point = found if isinstance(found, Checkpoint) else None
    try:
        result = verify(path, point, incremental=False)
    except FileNotFoundError:
        if point is None:
            stdout.write(f"cortex-health history: no run recorded yet ({path} does not exist)\n")
            return 0
        stdout.write(f"chain BROKEN: {path} is gone but the checkpoint of {point.ts} records seq {point.seq}\n")
        return 2
    except OSError as error:
        stderr.write(f"cortex-health history: cannot read {path}: {describe_open_error(error)}\n")
        return 3
    body = summary(path, result, point, found if isinstance(found, str) else result.checkpoint_problem)
    if as_json:
        stdout.write(json.dumps(body, ensure_ascii=False, separators=(",", ":")) + "\n")
    else:
        stdout.write("\n".join(as_text(body)) + "\n")
    return 0 if body["intact"] else 2
