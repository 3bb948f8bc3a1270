"""Helpers for the dashboard suites: a real `cortex-health serve` in a subprocess, on a free loopback port."""
from __future__ import annotations

import http.client
import json
import re
import select
import socket
import subprocess
import sys
from pathlib import Path

from tests.health_support import REPO, clean_env

LISTENING = re.compile(r"listening on http://(\[::1\]|127\.0\.0\.1):(\d+)/")


class Server:
    def __init__(self, root: Path, *args: str, env: dict[str, str] | None = None):
        self.proc = subprocess.Popen([sys.executable, "-m", "health", "serve", "--root", str(root), "--port", "0",
                                      *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env=env or clean_env(), cwd=REPO, stdin=subprocess.DEVNULL)
        ready, _, _ = select.select([self.proc.stdout], [], [], 60)  # wait on the printed port, not a sleep
        line = self.proc.stdout.readline() if ready else ""
        found = LISTENING.search(line)
        if not found:
            raise AssertionError(f"serve did not start: {line!r} {self.stop()!r}")  # stop() closes the pipes
        self.host, self.port = found.group(1), int(found.group(2))
        self.address = self.host.strip("[]")

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def request(self, method: str, path: str = "/", host: str | None = "", headers: dict[str, str] | None = None,
                body: bytes | None = None) -> tuple[http.client.HTTPResponse, bytes]:
        """One request on a fresh connection; host "" sends the right Host header, None sends none."""
        connection = http.client.HTTPConnection(self.address, self.port, timeout=30)
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        if host is not None:
            connection.putheader("Host", host or f"{self.host}:{self.port}")
        for name, value in (headers or {}).items():
            connection.putheader(name, value)
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response, data

    def raw(self, data: bytes) -> "RawResponse":
        """Send `data` as it is on a fresh connection; what comes back before the server closes it."""
        return raw_exchange(self.address, self.port, data)

    def get(self, path: str = "/") -> str:
        response, data = self.request("GET", path)
        assert response.status == 200, (path, response.status, data)
        return data.decode("utf-8")

    def stop(self) -> str:
        """Stop the server; what it still had to say on stderr."""
        if self.proc.poll() is None:
            self.proc.terminate()
        self.proc.wait(timeout=30)
        rest = self.proc.stderr.read()
        self.proc.stdout.close()
        self.proc.stderr.close()
        return rest


class RawResponse:
    """A response read off the socket: the status line, the headers (lower-case names) and the body."""

    def __init__(self, data: bytes):
        self.data = data
        head, _, self.body = data.partition(b"\r\n\r\n")
        lines = head.decode("iso-8859-1").split("\r\n")
        self.status_line = lines[0]
        parts = self.status_line.split(" ", 2)
        self.status = int(parts[1]) if len(parts) > 1 and parts[0].startswith("HTTP/1.") and parts[1].isdigit() else None
        self.headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            self.headers[name.strip().lower()] = value.strip()


def raw_exchange(address: str, port: int, data: bytes) -> RawResponse:
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    with socket.socket(family) as connection:
        connection.settimeout(30)
        connection.connect((address, port))
        connection.sendall(data)
        connection.shutdown(socket.SHUT_WR)  # no more is coming: a server waiting for headers sees the end
        chunks = []
        while chunk := connection.recv(65536):
            chunks.append(chunk)
    return RawResponse(b"".join(chunks))


def varied_history(root: Path, runs: int = 12) -> None:
    """Published runs, oldest first: ok, warn (backlog), critical (an invalid threshold), cap pressure."""
    from tests.ops_support import publish_runs

    cycle = [{}, {"proposal_backlog": "1"}, {"proposal_backlog": "1", "cap_pressure": "5"}, {},
             {"reviewer_stale_ms": "-1"}, {"proposal_backlog": "1"}]
    for index in range(runs):
        publish_runs(root, [(runs - index) * 15], **cycle[index % len(cycle)])


class InProcessServer:
    """The dashboard's own server and handler on a thread (for property tests: many requests, no process start)."""

    def __init__(self, root: Path, window: int = 500):
        import threading

        from collectors.lifeos.layout import Layout
        from health.dashboard.handler import make_handler
        from health.serve import LoopbackServer

        layout = Layout.for_root(str(root))
        self.server = LoopbackServer("127.0.0.1", 0, lambda port: make_handler(layout, "127.0.0.1", port, window))
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def raw(self, data: bytes) -> RawResponse:
        return raw_exchange("127.0.0.1", self.port, data)

    def get(self, path: str) -> RawResponse:
        return self.raw(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nConnection: close\r\n\r\n".encode())

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=30)


def chained_history(root: Path, rows: int) -> int:
    """memory-health.jsonl as `rows` chained copies of one real published report (one minute apart) and its
    checkpoint, as publication leaves them; returns the log's size. Cheap: one audit, then hashing."""
    import hashlib

    from collectors.healthlog.chain import Checkpoint, checkpoint_path, splice
    from cortex.core.timestamps import iso_from_ms
    from tests.ops_support import health_log, publish_runs

    report = publish_runs(root, [0])[0]
    report.pop("chain", None)
    log = health_log(root)
    prev, size, start, lines = hashlib.sha256(b"").hexdigest(), 0, 0, []
    for index in range(rows):
        ts = iso_from_ms(1_790_000_000_000 + index * 60_000)
        line = (splice(json.dumps(dict(report, ts=ts), separators=(",", ":")), index + 1, prev) + "\n").encode()
        prev, start, size = hashlib.sha256(line).hexdigest(), size, size + len(line)
        lines.append(line)
    log.write_bytes(b"".join(lines))
    Path(checkpoint_path(str(log))).write_text(Checkpoint(rows, prev, ts, rows, start, size).text())
    return size
