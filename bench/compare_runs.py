"""How bench/compare_outputs.py runs a checkout's CLIs and saves what they print, byte for byte."""
from __future__ import annotations

import http.client
import os
import re
import select
import shutil
import subprocess
import sys
from pathlib import Path

LISTENING = re.compile(r"listening on http://(\[::1\]|127\.0\.0\.1):(\d+)/")


class Runner:
    """One capture: every call runs `python -m health|cortex` of `repo` with a fixed, clean environment."""

    def __init__(self, out: Path, repo: Path, work: Path):
        self.out, self.repo, self.work = out, repo, work
        self.count = 0
        self.cache = work / "cache"
        self.env = self.environment()

    def environment(self) -> dict[str, str]:
        home = self.work / "home"
        home.mkdir(parents=True, exist_ok=True)
        env = {key: value for key, value in os.environ.items()
               if not key.startswith(("CORTEX_", "CLAUDE_CONFIG_DIR", "GITHUB_", "OTEL_", "XDG_"))
               and key not in ("COLUMNS", "LINES", "HOME", "PYTHONPATH", "NO_COLOR", "FORCE_COLOR", "TERM")}
        env.update(HOME=str(home), PYTHONPATH=str(self.repo), TZ="UTC", LANG="C.UTF-8", LC_ALL="C.UTF-8",
                   PYTHONHASHSEED="0", CORTEX_CACHE_DIR=str(self.cache))
        env["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), "/usr/local/bin", "/usr/bin", "/bin"])
        return env

    def fresh_cache(self) -> None:
        """An empty cache folder (log cursors, search cache, memos) for the next tree; the tool's own cortex calls
        (a scenario building a search cache) use it too."""
        if self.cache.exists():
            shutil.rmtree(self.cache)
        os.environ["CORTEX_CACHE_DIR"] = str(self.cache)

    def save(self, name: str, argv: list[str], code: int | str, stdout: bytes, stderr: bytes) -> None:
        path = self.out / f"{name}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        shown = " ".join(argv).replace(str(self.repo), "REPO")
        # each side runs its own venv: where a hook command resolves (PATH) is not a behaviour
        stdout, stderr = (data.replace(os.path.dirname(sys.executable).encode(), b"BIN") for data in (stdout, stderr))
        path.write_bytes(f"argv: {shown}\nexit: {code}\n--- stdout\n".encode() + stdout + b"\n--- stderr\n" + stderr)
        self.count += 1

    def call(self, name: str, module: str, argv: tuple[str, ...], stdin: bytes = b"") -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", module, *argv]
        done = subprocess.run(command, input=stdin, capture_output=True, env=self.env, cwd=self.repo, timeout=300)
        self.save(name, [module, *argv], done.returncode, done.stdout, done.stderr)
        return done

    def health(self, name: str, *argv: str) -> subprocess.CompletedProcess:
        return self.call(name, "health", argv)

    def cortex(self, name: str, *argv: str) -> subprocess.CompletedProcess:
        return self.call(name, "cortex", argv)

    def save_file(self, name: str, path: Path) -> None:
        path_text = str(path).replace(str(self.work), "WORK")
        self.save(name, ["file", path_text], "-", path.read_bytes() if path.is_file() else b"<not a file>", b"")

    def dashboard(self, name: str, root: Path, extra: list[str]) -> None:
        """The dashboard's pages, from a real `cortex-health serve` on a free loopback port."""
        proc = subprocess.Popen([sys.executable, "-m", "health", "serve", "--root", str(root), "--port", "0"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env, cwd=self.repo,
                                stdin=subprocess.DEVNULL, text=True)
        try:
            ready, _, _ = select.select([proc.stdout], [], [], 60)
            found = LISTENING.search(proc.stdout.readline() if ready else "")
            if not found:
                self.save(f"{name}-failed", ["serve"], "-", b"", b"serve did not start")
                return
            host, port = found.group(1), int(found.group(2))
            for path in ("/", "/history", "/checks", "/style.css", "/nope"):
                connection = http.client.HTTPConnection(host.strip("[]"), port, timeout=60)
                connection.request("GET", path, headers={"Host": f"{host}:{port}"})
                response = connection.getresponse()
                headers = "".join(f"{key}: {value}\n" for key, value in response.getheaders() if key != "Date")
                body = response.read()
                connection.close()
                page = "root" if path == "/" else path.strip("/").replace(".", "-")
                self.save(f"{name}-{page}", ["GET", path], response.status, body, headers.encode())
        finally:
            proc.terminate()
            proc.communicate(timeout=30)
