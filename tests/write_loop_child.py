"""Concurrency test child: after a start signal on stdin, performs COUNT writes through the real CLI code.

Usage: write_loop_child.py hot NAME COUNT | propose NAME COUNT. Prints "ready", then for each
write waits for a line on stdin (the parent releases both children together, round by round,
so one can never finish before the other starts) and prints the write's exit code.
A checkpoint hook holds each lock a few milliseconds and pauses briefly after releasing it,
so the two writers really contend instead of one finishing before the other starts.
"""
from __future__ import annotations

import io
import json
import sys
import time

from cortex.core import checkpoints
from cortex.cli import run
from cortex.commands import registry

COMMON = ["NAME: Ada ~explicit", "ROLE: engineer ~explicit", "PREFERENCE: terse replies ~explicit"]


def _widen_the_race(name: str) -> None:
    if name in ("temp-synced", "lock-released"):
        time.sleep(0.004)


def main() -> None:
    mode, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    registry()  # import every command module before the start signal
    checkpoints.install(_widen_the_race)
    print("ready", flush=True)
    for i in range(count):
        sys.stdin.readline()  # the parent releases both writers together for every round
        if mode == "hot":
            entries = COMMON + [f"RULE: written by {name} number {i}"]
            code, _ = run(["hot", "set", "principal"], stdin=io.StringIO("\n".join(entries) + "\n"))
        else:
            item = {"type": "proposal", "target_file": "DEFINITIONS.md", "target_kind": "definition",
                    "edit": f"{name} term {i}", "confidence": 0.5, "rationale": "concurrency test"}
            code, _ = run(["propose", json.dumps(item), "--adapter", "subagent", "--allow-write"])
        print(code, flush=True)


if __name__ == "__main__":
    main()
