"""Collect stage helper: run one command as Claude Code runs a command hook. Used by collectors.lifeos.probe.steps.

Through `/bin/sh -c` (the agent hands the command line to a shell), with the environment and
the JSON payload on stdin it is given, in its own process group so a timeout kills everything
it started, with stdout bounded and the first line of stderr kept. A command that cannot be
started at all (no shell) is an outcome too, never an exception. The running child is
remembered so a probe stopped by a signal can kill it before removing its folder.
"""
from __future__ import annotations

import os
import selectors
import signal
import subprocess
import time
from collections import namedtuple
from collections.abc import Mapping

from collectors.readers.text import clip

MAX_STDOUT = 1 << 20
SHELL = "/bin/sh"
RUNNING: set[subprocess.Popen] = set()  # children to kill if the probe is stopped


class Outcome(namedtuple("Outcome", "exit_status duration_ms timed_out stdout stderr_line start_error")):
    """exit_status: int | None (negative: killed by that signal; None: not started); duration_ms: float; timed_out:
    bool; stdout: bytes (at most MAX_STDOUT); stderr_line: str | None, the first non-blank line of stderr (of a
    traceback its last; private spans removed, clipped); start_error: str | None, why the command could not be started.
    """

    __slots__ = ()


def first_line(data: bytes) -> str | None:
    """The first non-blank line of stderr; of a Python traceback, its last line (the error itself)."""
    lines = [line.strip() for line in data.decode("utf-8", "replace").splitlines() if line.strip()]
    if not lines:
        return None
    chosen = lines[-1] if lines[0].startswith("Traceback (most recent call last)") else lines[0]
    return str(clip(chosen, 300)).strip() or None


class ProbeStopped(BaseException):
    """A stop signal arrived while the probe ran (raised by collectors.lifeos.probe.collect's handler)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


# While a child is being started, a stop signal is only noted: raised at once, it could leave a started hook
# that no one knows of. It is raised as soon as the child is in RUNNING (and so is killed on the way out).
SPAWNING = {"now": False, "deferred": None}


def stop(signum: int) -> None:
    """What the probe's signal handler does: stop now, or right after the child being started is known."""
    if SPAWNING["now"]:
        SPAWNING["deferred"] = signum
        return
    raise ProbeStopped(signum)


def _deferred_stop() -> None:
    signum, SPAWNING["deferred"] = SPAWNING["deferred"], None
    if signum is not None:
        raise ProbeStopped(signum)


def run(command: str, env: Mapping[str, str], stdin: bytes, timeout_s: float, cwd: str) -> Outcome:
    started = time.monotonic()
    SPAWNING["now"] = True
    try:
        child = subprocess.Popen([SHELL, "-c", command], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, env=dict(env), cwd=cwd, start_new_session=True, close_fds=True)
        RUNNING.add(child)
    except OSError as error:
        SPAWNING["now"] = False
        _deferred_stop()
        return Outcome(None, (time.monotonic() - started) * 1000, False, b"", None,
                       f"{SHELL} cannot be started: {error.strerror or error}")
    SPAWNING["now"] = False
    try:
        _deferred_stop()
        out, err, timed_out = _exchange(child, stdin, started + max(0.001, timeout_s))
        if timed_out:
            kill_group(child)
        child.wait()
    except BaseException:  # the probe is being stopped: take the hook down with it, and reap it
        kill_group(child)
        try:
            child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        raise
    finally:
        RUNNING.discard(child)
        for stream in (child.stdin, child.stdout, child.stderr):
            if stream is not None and not stream.closed:
                stream.close()
    return Outcome(child.returncode, round((time.monotonic() - started) * 1000, 3), timed_out, out, first_line(err),
                   None)


def _exchange(child: subprocess.Popen, stdin: bytes, deadline: float) -> tuple[bytes, bytes, bool]:
    """Hand over the payload and read both outputs (bounded, the rest drained) until EOF or the deadline."""
    try:
        child.stdin.write(stdin)  # a hook payload is far below a pipe's buffer: this never blocks
        child.stdin.close()
    except (BrokenPipeError, OSError):
        pass  # the hook does not read its stdin: as with the agent, that is its business
    kept = {child.stdout.fileno(): bytearray(), child.stderr.fileno(): bytearray()}
    limits = {child.stdout.fileno(): MAX_STDOUT, child.stderr.fileno(): 65536}
    with selectors.DefaultSelector() as selector:
        for stream in (child.stdout, child.stderr):
            selector.register(stream, selectors.EVENT_READ)
        while selector.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                return bytes(kept[child.stdout.fileno()]), bytes(kept[child.stderr.fileno()]), True
            for key, _ in selector.select(min(left, 0.5)):
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    selector.unregister(key.fileobj)
                elif len(kept[key.fd]) < limits[key.fd]:
                    kept[key.fd] += chunk[:limits[key.fd] - len(kept[key.fd])]
    while child.poll() is None:  # outputs closed; the process may linger until its deadline
        if time.monotonic() >= deadline:
            return bytes(kept[child.stdout.fileno()]), bytes(kept[child.stderr.fileno()]), True
        time.sleep(0.01)
    return bytes(kept[child.stdout.fileno()]), bytes(kept[child.stderr.fileno()]), False


def kill_group(child: subprocess.Popen) -> None:
    """Kill the hook's process group, only while its leader is unreaped (so the group id is still its own)."""
    if child.returncode is not None:
        return
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def kill_running() -> None:
    """Kill (and reap) every child still running: the probe is being stopped."""
    for child in list(RUNNING):
        kill_group(child)
        try:
            child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        RUNNING.discard(child)
