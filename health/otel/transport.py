"""Application: one HTTP POST per OTLP signal, all at once, each within its timeout, never retried. Used by health.otel.export.

The standard library's http.client, not urllib: no redirect is followed (a 3xx is a
failure: the body must not go where the endpoint did not say), no proxy variable reroutes
the request, and the answer's status is all that is read, with at most 64 KiB of its body
(for an OTLP partial success). Each POST runs in its own daemon thread and the caller waits
for each no longer than its signal's timeout from the start, so an endpoint that accepts
the connection and never answers, or answers a byte at a time, costs exactly the timeout.
A failure is reported as the endpoint (shown without user info or query) and the HTTP
status or the transport's reason; the request's headers never appear anywhere.
"""
from __future__ import annotations

import threading
import time
from collections import namedtuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from health.otel.config import Target

MAX_ANSWER_BYTES = 64 << 10
USER_AGENT = "cortex-health-otlp"
_REJECTED = {"metrics": "rejectedDataPoints", "logs": "rejectedLogRecords", "traces": "rejectedSpans"}


class Delivery(namedtuple("Delivery", "signal shown status reason rejected")):
    """What became of one POST. status: int | None (no HTTP answer); reason: str | None (why it failed);
    rejected: int (items the receiver refused in an accepted request: an OTLP partial success).
    """

    __slots__ = ()

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300

    @property
    def failure(self) -> str:
        return f"HTTP {self.status}" if self.status is not None and not self.reason else str(self.reason)


def _connection(target: Target, timeout_s: float):
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(target.url)
    if parts.scheme.lower() == "http":
        return http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout_s)
    import ssl

    cafile, certfile, keyfile = target.tls
    context = ssl.create_default_context(cafile=cafile)
    if certfile:
        context.load_cert_chain(certfile, keyfile)
    return http.client.HTTPSConnection(parts.hostname, parts.port, timeout=timeout_s, context=context)


def _path(url: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def _rejected(signal: str, answer: bytes) -> int:
    import json

    try:
        partial = json.loads(answer).get("partialSuccess") or {}
        return max(int(partial.get(_REJECTED[signal]) or 0), 0)
    except (ValueError, AttributeError, TypeError):
        return 0  # an empty, protobuf or foreign answer: accepted as a whole


def _reason(error: BaseException, timeout_ms: int) -> str:
    import socket
    import ssl

    if isinstance(error, (socket.timeout, TimeoutError)):
        return f"no answer within {timeout_ms} ms"
    if isinstance(error, ConnectionRefusedError):
        return "connection refused"
    if isinstance(error, ssl.SSLError):
        return f"TLS: {error.reason or type(error).__name__}"
    if isinstance(error, OSError):
        return error.strerror or type(error).__name__
    return type(error).__name__  # http.client.HTTPException and the like: the kind, never a quoted answer


def post(target: Target, body: bytes) -> Delivery:
    """One POST of an OTLP/JSON body to the target."""
    headers = {**dict(target.headers), "Content-Type": "application/json", "User-Agent": USER_AGENT}
    if target.gzip:
        import gzip

        body = gzip.compress(body)
        headers["Content-Encoding"] = "gzip"
    connection = None
    try:
        connection = _connection(target, target.timeout_ms / 1000)
        connection.request("POST", _path(target.url), body=body, headers=headers)
        answer = connection.getresponse()
        data = answer.read(MAX_ANSWER_BYTES)
        status = answer.status
    except Exception as error:  # noqa: BLE001 - every failure is a Delivery, never a traceback
        return Delivery(target.signal, target.shown, None, _reason(error, target.timeout_ms), 0)
    finally:
        if connection is not None:
            connection.close()
    return Delivery(target.signal, target.shown, status, None, _rejected(target.signal, data) if 200 <= status < 300
                    else 0)


def deliver_all(jobs: list[tuple[Target, bytes]]) -> list[Delivery]:
    """Every POST at once; each answer waited for at most its target's timeout, counted from the start."""
    import http.client  # noqa: F401 - loaded here, once, rather than by three threads at once

    if any(target.url.lower().startswith("https:") for target, _ in jobs):
        import ssl  # noqa: F401
    started = time.monotonic()
    results: list[Delivery | None] = [None] * len(jobs)

    def run(index: int, target: Target, body: bytes) -> None:
        results[index] = post(target, body)

    threads = [threading.Thread(target=run, args=(index, *job), daemon=True, name=f"otlp-{job[0].signal}")
               for index, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread, (target, _) in zip(threads, jobs):
        thread.join(max(0.0, started + target.timeout_ms / 1000 - time.monotonic()))
    return [found if found is not None else
            Delivery(target.signal, target.shown, None, f"no answer within {target.timeout_ms} ms", 0)
            for found, (target, _) in zip(results, jobs)]
