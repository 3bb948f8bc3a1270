"""Agent-hook command helper: the gate's check in a forked child, within the deadline. Used by health.gate.

The check runs in a forked child in its own session (killable as a group), not a fresh
interpreter: a second start-up and re-import of what the gate already loaded would cost the
Stop hook tens of milliseconds. Its stdin is /dev/null (the hook's JSON is never read), its
report comes back through a pipe, read whole, bounded and within the deadline.
"""
from __future__ import annotations

import json
import os
import select
import signal
import sys
import time

TYPE_CHECKING = False  # typing costs the Stop hook milliseconds
if TYPE_CHECKING:
    from collections.abc import Mapping

MAX_REPORT_BYTES = 16 * 1024 * 1024


def run_child(argv: list[str], environ: Mapping[str, str], seconds: float) -> tuple[dict | None, str | None]:
    """The child's report, or (None, what went wrong); (None, None) means the deadline passed.

    The check runs in a forked child in its own session (killable as a group), not a fresh
    interpreter: a second start-up and re-import of what this process already loaded would
    cost the Stop hook tens of milliseconds.
    """
    deadline = time.monotonic() + seconds
    read_end, write_end = os.pipe()
    for stream in (sys.stdout, sys.stderr):  # nothing buffered may be written twice
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):  # closed or absent: nothing buffered
            pass
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child leaves through os._exit; its effects are tested
        _child(argv, environ, read_end, write_end)
    os.close(write_end)
    try:
        out, complete = _read_until(read_end, deadline)
    finally:
        os.close(read_end)
    if not complete:
        _kill_group(pid)
        return None, None
    status = _reap(pid)
    try:
        return json.loads(out), None
    except ValueError:
        return None, f"the check printed no report (exit {status})"


def _child(argv: list[str], environ: Mapping[str, str], read_end: int, write_end: int) -> None:
    code = 3
    try:
        os.setsid()
        os.close(read_end)
        devnull = os.open(os.devnull, os.O_RDWR)
        os.dup2(devnull, 0)  # the hook's JSON on stdin is never read
        os.dup2(write_end, 1)
        os.dup2(devnull, 2)
        if environ is not os.environ:
            os.environ.clear()
            os.environ.update(environ)
        from collectors.lifeos.heartbeats import RUNNING_HOOK_ENV

        os.environ[RUNNING_HOOK_ENV] = "gate"  # the audit judges the gate's heartbeat as now: it is the gate running
        from health.cli import run

        with open(1, "w", encoding="utf-8", closefd=False) as out, open(2, "w", closefd=False) as err:
            code = run([*argv, "--format", "json"], environ=os.environ, stdout=out, stderr=err)
    except BaseException:  # noqa: BLE001 - the parent reports a child without a report
        pass
    finally:
        os._exit(code)


def _read_until(fd: int, deadline: float, limit: int = MAX_REPORT_BYTES) -> tuple[bytes, bool]:
    """All the child prints, or (what came, False) when the deadline passes first."""
    chunks, size = [], 0
    while size <= limit:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
            return b"".join(chunks), False
        chunk = os.read(fd, 65536)
        if not chunk:
            return b"".join(chunks), True
        chunks.append(chunk)
        size += len(chunk)
    return b"", True  # far larger than any report: not one


def _kill_group(pid: int) -> int:
    """Kill the child's whole session and reap the child; its exit code."""
    try:
        os.killpg(pid, signal.SIGKILL)  # the session the child created, nothing else
    except ProcessLookupError:
        pass
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def _reap(pid: int) -> int:
    """The child's exit code; one that closed its output but lingers is killed, never waited for."""
    done, status = os.waitpid(pid, os.WNOHANG)
    return os.waitstatus_to_exitcode(status) if done else _kill_group(pid)
