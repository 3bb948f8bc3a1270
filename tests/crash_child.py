"""Crash-proof test child: runs one real `cortex` CLI call, reporting every write checkpoint on a pipe.

Each checkpoint is written as `name#occurrence`. When it reaches the one named in
CRASH_STOP_AT, it reports STOPPED and blocks forever, so the parent can SIGKILL it at
exactly that point. With CRASH_STOP_AT empty it runs to completion (a trace run).
"""
from __future__ import annotations

import os
import signal
import sys

from cortex.core import checkpoints
from cortex.cli import main


def _install() -> None:
    stop_at = os.environ.get("CRASH_STOP_AT", "")
    report_fd = int(os.environ["CRASH_REPORT_FD"])
    counts: dict[str, int] = {}

    def hook(name: str) -> None:
        counts[name] = counts.get(name, 0) + 1
        label = f"{name}#{counts[name]}"
        os.write(report_fd, (label + "\n").encode())
        if label == stop_at:
            os.write(report_fd, b"STOPPED\n")
            while True:
                signal.pause()

    checkpoints.install(hook)


if __name__ == "__main__":
    _install()
    sys.exit(main(sys.argv[1:]))
