"""Helpers for the dashboard suites: a real `cortex-health serve` in a subprocess, on a free loopback port."""
from __future__ import annotations

import http.client
import re
import select
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
            self.stop()
            raise AssertionError(f"serve did not start: {line!r} {self.proc.stderr.read()!r}")
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


def varied_history(root: Path, runs: int = 12) -> None:
    """Published runs, oldest first: ok, warn (backlog), critical (an invalid threshold), cap pressure."""
    from tests.ops_support import publish_runs

    cycle = [{}, {"proposal_backlog": "1"}, {"proposal_backlog": "1", "cap_pressure": "5"}, {},
             {"reviewer_stale_ms": "-1"}, {"proposal_backlog": "1"}]
    for index in range(runs):
        publish_runs(root, [(runs - index) * 15], **cycle[index % len(cycle)])
