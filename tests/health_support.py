"""Test helpers for the cortex-health suites: a copy of the demo tree and the real CLI in a subprocess."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from cortex.core.timestamps import parse_timestamp_ms

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "fixtures" / "demo"
NOW = "2026-11-29T12:00:00Z"
NOW_MS = parse_timestamp_ms(NOW)
HOUR_MS = 3_600_000
DAY_MS = 24 * HOUR_MS
SCHEMA_FILE = REPO / "reports" / "schemas" / "cortex-health-report.schema.json"


def memory(root: Path) -> Path:
    return root / "LIFEOS" / "MEMORY"


def obs(root: Path) -> Path:
    return memory(root) / "OBSERVABILITY"


def wait_for_gate(root: Path) -> None:
    """Block until the check a `cortex-health gate` left running on `root` is done: it holds an flock on the
    folder it publishes to (O, else the root) from before the gate returns until it exits."""
    import fcntl

    folder = obs(root) if obs(root).is_dir() else root
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    finally:
        os.close(fd)


def hot(root: Path, label: str) -> Path:
    return root / "LIFEOS" / "USER" / {"principal": "PRINCIPAL/PRINCIPAL_MEMORY.md",
                                       "da": "DIGITAL_ASSISTANT/DA_MEMORY.md"}[label]


def set_mtimes(root: Path, ms: int) -> None:
    for path in [root, *root.rglob("*")]:
        if not path.is_symlink():
            os.utime(path, ns=(ms * 1_000_000, ms * 1_000_000))


def copy_demo(tmp_path: Path) -> Path:
    """The demo tree in tmp_path, every mtime one hour before NOW (independent of checkout time)."""
    root = tmp_path / "root"
    shutil.copytree(DEMO, root, symlinks=True)
    set_mtimes(root, NOW_MS - HOUR_MS)
    return root


def jsonl(rows) -> str:
    return "".join((row if isinstance(row, str) else json.dumps(row, separators=(",", ":"))) + "\n" for row in rows)


def read_rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def clean_env(**extra: str) -> dict[str, str]:
    # GITHUB_*: under GitHub Actions the default format would be `github`, not JSON.
    # COLUMNS/LINES: xdist workers export 80x24, and the text format honours COLUMNS when piped.
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("CORTEX_", "CLAUDE_CONFIG_DIR", "GITHUB_")) and k not in ("COLUMNS", "LINES")}
    env["PYTHONPATH"] = str(REPO)
    # The console scripts (cortex, cortex-health) sit next to this interpreter, as they are on
    # PATH after `pip install`: the install check resolves the demo's hook commands there.
    env["PATH"] = os.pathsep.join(filter(None, [os.path.dirname(sys.executable), env.get("PATH")]))
    env.update(extra)
    return env


@dataclass
class Result:
    code: int
    stdout: str
    stderr: str

    @property
    def report(self) -> dict:
        return json.loads(self.stdout)

    def ids(self) -> list[str]:
        return [f["id"] for f in self.report["findings"]]

    def finding(self, finding_id: str) -> dict:
        matches = [f for f in self.report["findings"] if f["id"] == finding_id]
        assert matches, f"{finding_id} not in {self.ids()}"
        return matches[0]


def run_cli(*args: str, env: dict[str, str] | None = None, root: Path | None = None, now: str | None = NOW,
            write: bool = False, timeout: float = 60) -> Result:
    argv = [sys.executable, "-m", "health"]
    if root is not None:
        argv += ["--root", str(root)]
    if now is not None:
        argv += ["--now", now]
    if not write:
        argv.append("--no-write")
    completed = subprocess.run(argv + list(args), capture_output=True, text=True, env=env or clean_env(),
                               cwd=REPO, timeout=timeout, stdin=subprocess.DEVNULL)
    assert "Traceback" not in completed.stderr, completed.stderr
    return Result(completed.returncode, completed.stdout, completed.stderr)
