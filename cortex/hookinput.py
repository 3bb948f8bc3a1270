"""Hook plumbing (stdlib only): subagent detection and the Claude Code hook payload on stdin; used by the hook commands.

Claude Code hands every hook a JSON object on stdin (session_id, transcript_path, prompt,
hook_event_name, …). `cortex recall` and `cortex review fire` read it when the prompt or the
session is not given on the command line. The read is bounded in bytes and in time, so a
stdin that never closes cannot stall a prompt.

A *subagent session* is one whose environment has CORTEX_SUBAGENT set to anything but ""
or "0", or a command given `--adapter subagent`. The reviewer sets CORTEX_SUBAGENT=1 on
its inference child, so a `claude -p` used as the inference engine never renders memory,
recalls or fires the reviewer again; wrap subagent launchers the same way.
"""
from __future__ import annotations

import os
import sys
import time

from cortex.errors import InvalidInput

SUBAGENT_ENV = "CORTEX_SUBAGENT"
MAX_PAYLOAD_BYTES = 1 << 20
PAYLOAD_WAIT_S = 0.5


def is_subagent(inv) -> bool:
    return inv.adapter == "subagent" or inv.environ.get(SUBAGENT_ENV, "") not in ("", "0")


def _read_fd(fd: int, limit: int, wait_s: float) -> bytes:
    import select  # here and json below: `hot render` reads no payload

    deadline = time.monotonic() + wait_s
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise InvalidInput(f"the hook payload on stdin did not end within {wait_s} s")
        ready, _, _ = select.select([fd], [], [], remaining)
        if not ready:
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    if size > limit:
        raise InvalidInput(f"the hook payload on stdin exceeds {limit} bytes")
    return b"".join(chunks)


def read_hook_payload(stream=None, *, limit: int = MAX_PAYLOAD_BYTES, wait_s: float = PAYLOAD_WAIT_S) -> dict | None:
    """The JSON object on stdin, or None when stdin is a terminal, absent or empty."""
    stream = stream if stream is not None else sys.stdin
    if stream is None:
        return None
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        fd = None  # an in-memory stream (in-process callers and tests)
    if fd is None:
        text = stream.read(limit + 1)
        data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
        if len(data) > limit:
            raise InvalidInput(f"the hook payload on stdin exceeds {limit} bytes")
    else:
        if os.isatty(fd):
            return None
        data = _read_fd(fd, limit, wait_s)
    if not data.strip():
        return None
    from cortex.core.hookjson import loads

    try:
        payload = loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise InvalidInput("the hook payload on stdin is not valid JSON") from None
    if not isinstance(payload, dict):
        raise InvalidInput("the hook payload on stdin is not a JSON object")
    return payload


def payload_text(payload: dict | None, key: str) -> str | None:
    """A string field of the payload; a present field of another type is an error."""
    if payload is None or payload.get(key) is None:
        return None
    value = payload[key]
    if not isinstance(value, str):
        raise InvalidInput(f"the hook payload's {key} must be a string")
    return value
