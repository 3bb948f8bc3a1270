"""Reviewer stage: run the external inference command under a deadline with bounded I/O; used by the reviewer.

The prompt goes to the child's stdin, JSON is expected on its stdout. Both directions are
multiplexed with select, so a child that never reads its stdin or floods its stdout can
neither block us nor grow our memory: stdout is capped (over the cap is a failure), stderr
keeps only its tail. The child runs in its own process group and is killed as a group on
timeout or overflow; we always reap it before returning. A program that is not there is told
apart (COMMAND_NOT_FOUND, with the PATH it was looked up on): the default `claude` is not
installed everywhere.
"""
from __future__ import annotations

import os
import selectors
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass

from cortex.reviewrows import COMMAND_NOT_FOUND

MAX_OUTPUT_BYTES = 1 << 20
MAX_STDERR_BYTES = 16_384
KILL_WAIT_S = 5


class InferenceError(Exception):
    """The command could not produce an answer; `timed_out` tells a timeout apart, `exited` a non-zero exit status."""

    def __init__(self, message: str, *, timed_out: bool = False, exited: bool = False, not_found: bool = False,
                 duration_ms: float = 0.0, stderr: bytes = b""):
        super().__init__(message)
        self.message = message
        self.timed_out = timed_out
        self.exited = exited
        self.not_found = not_found
        self.duration_ms = duration_ms
        self.stderr = stderr


@dataclass(frozen=True)
class Answer:
    stdout: bytes
    stderr: bytes
    duration_ms: float


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # our own child's group (start_new_session)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait(timeout=KILL_WAIT_S)
    except subprocess.TimeoutExpired:
        pass


def _pump(proc: subprocess.Popen, prompt: bytes, deadline: float) -> tuple[bytes, bytes, str | None]:
    """Feed stdin and drain stdout/stderr until both close; returns (out, err-tail, problem)."""
    out, err = bytearray(), bytearray()
    view = memoryview(prompt)
    with selectors.DefaultSelector() as selector:
        os.set_blocking(proc.stdin.fileno(), False)
        selector.register(proc.stdin, selectors.EVENT_WRITE)
        selector.register(proc.stdout, selectors.EVENT_READ)
        selector.register(proc.stderr, selectors.EVENT_READ)
        while any(key.fileobj is not proc.stdin for key in selector.get_map().values()):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return bytes(out), bytes(err), "timeout"
            for key, _events in selector.select(min(remaining, 1.0)):
                if key.fileobj is proc.stdin:
                    try:
                        written = os.write(proc.stdin.fileno(), view[:65536])
                        view = view[written:]
                    except BlockingIOError:
                        continue
                    except BrokenPipeError:
                        view = view[len(view):]  # the child stopped reading; its answer decides
                    if not view:
                        selector.unregister(proc.stdin)
                        proc.stdin.close()
                    continue
                chunk = os.read(key.fileobj.fileno(), 65536)
                if not chunk:
                    selector.unregister(key.fileobj)
                    continue
                if key.fileobj is proc.stdout:
                    out += chunk
                    if len(out) > MAX_OUTPUT_BYTES:
                        return bytes(out), bytes(err), f"output exceeds {MAX_OUTPUT_BYTES} bytes"
                else:
                    err = (err + chunk)[-MAX_STDERR_BYTES:]
    return bytes(out), bytes(err), None


def run_inference(argv: list[str], prompt: str, env: dict[str, str], timeout_s: float, cwd: str | None = None) -> Answer:
    """Run `argv` once; InferenceError on launch failure, timeout, overflow or a non-zero exit."""
    started = time.monotonic()
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=env, cwd=cwd, start_new_session=True, close_fds=True)
    except FileNotFoundError as error:
        search = env.get("PATH", os.defpath)
        if shutil.which(argv[0], path=search) is not None:  # there, but its #! interpreter is not
            raise InferenceError(f"inference command could not start: {argv[0]}: {error.strerror} "
                                 "(is the interpreter on its #! line installed?)") from None
        where = "does not exist" if os.sep in argv[0] else f"is not on PATH ({search[:300]})"
        raise InferenceError(f"{COMMAND_NOT_FOUND}: {argv[0]} {where}", not_found=True) from None
    except OSError as error:
        raise InferenceError(f"inference command could not start: {argv[0]}: {error.strerror or error}") from None
    try:
        out, err, problem = _pump(proc, prompt.encode("utf-8"), started + timeout_s)
    except BaseException:
        _kill_group(proc)
        raise
    finally:
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                stream.close()
            except (OSError, ValueError):
                pass
    if problem is None and proc.poll() is None:
        try:  # its output is closed but the child lingers: it gets the rest of the deadline to exit
            proc.wait(timeout=max(0.0, started + timeout_s - time.monotonic()))
        except subprocess.TimeoutExpired:
            problem = "timeout"
    if problem is not None:
        _kill_group(proc)
    duration_ms = round((time.monotonic() - started) * 1000, 3)
    if problem == "timeout":
        raise InferenceError(f"inference timeout after {timeout_s:g} s", timed_out=True, duration_ms=duration_ms, stderr=err)
    if problem is not None:
        raise InferenceError(f"inference failed: {problem}", duration_ms=duration_ms, stderr=err)
    if proc.returncode != 0:
        raise InferenceError(f"inference command exited with status {proc.returncode}", exited=True,
                             duration_ms=duration_ms, stderr=err)
    return Answer(out, err, duration_ms)
