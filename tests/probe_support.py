"""Test helpers for the synthetic probe: a tree wired by `setup claude-code`, hook edits, a snapshot of a tree, the CLI."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

from tests.health_support import REPO, Result, clean_env

SCRIPTS = Path(sys.executable).parent  # the installed console scripts (cortex, cortex-health)


def wired_tree(base: Path) -> Path:
    """`cortex init` and `cortex-health setup claude-code --write ROOT/settings.json`: what a new user does."""
    root = base / "claude"
    env = probe_env(base)
    subprocess.run([sys.executable, "-m", "cortex", "init", "--root", str(root)], env=env, check=True,
                   capture_output=True, timeout=60, cwd=REPO)
    subprocess.run([sys.executable, "-m", "health", "setup", "claude-code", "--write", str(root / "settings.json")],
                   env=env, check=True, capture_output=True, timeout=60, cwd=REPO)
    return root


def probe_env(base: Path, **extra: str) -> dict[str, str]:
    """The environment with its own temporary folder (TMPDIR), so a test sees every folder the probe leaves."""
    tmp = base / "tmp"
    tmp.mkdir(exist_ok=True)
    return clean_env(TMPDIR=str(tmp), CORTEX_CACHE_DIR=str(base / "cache"), **extra)


def leftovers(base: Path) -> list[str]:
    return sorted(path.name for path in (base / "tmp").iterdir()) if (base / "tmp").exists() else []


def settings(root: Path) -> dict:
    return json.loads((root / "settings.json").read_text())


def _runs(command: str, name: str) -> bool:
    """Whether a hook command runs subcommand `name`: whole words, so a venv at /tmp/venv-recall is no match."""
    return f" {name} " in f" {command} "


def edit_hook(root: Path, name: str, *, command: str | None = None, timeout: float | None = None,
              env: dict | None = None) -> None:
    """Change the registered command or timeout of the hook whose command runs `name`; `env` sets the env block."""
    data = settings(root)
    for groups in data["hooks"].values():
        for group in groups:
            for hook in group["hooks"]:
                if _runs(hook["command"], name):
                    if command is not None:
                        hook["command"] = command
                    if timeout is not None:
                        hook["timeout"] = timeout
    if env is not None:
        data["env"] = env
    (root / "settings.json").write_text(json.dumps(data, indent=2))


def registered(root: Path, name: str) -> str:
    return next(hook["command"] for groups in settings(root)["hooks"].values() for group in groups
                for hook in group["hooks"] if _runs(hook["command"], name))


def snapshot(root: Path) -> dict[str, tuple]:
    """Every entry under root: kind, mode, size, mtime and a digest of its bytes."""
    found = {}
    for current, folders, files in os.walk(root):
        for name in folders + files:
            path = Path(current) / name
            info = path.lstat()
            digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() and not path.is_symlink() else ""
            found[str(path.relative_to(root))] = (info.st_mode, info.st_size, info.st_mtime_ns, digest)
    return found


class Probe(Result):
    """A probe run's result (health_support.Result) and its steps by name."""

    @property
    def steps(self) -> dict[str, dict]:
        return {step["step"]: step for step in self.report["evidence"]["probe"]["steps"]}


def run_probe(root: Path, base: Path, *args: str, env: dict | None = None, timeout: float = 300) -> Probe:
    done = subprocess.run([sys.executable, "-m", "health", "probe", "--root", str(root), "--format", "json", *args],
                          capture_output=True, text=True, env=env or probe_env(base), cwd=REPO, timeout=timeout,
                          stdin=subprocess.DEVNULL)
    assert "Traceback" not in done.stderr, done.stderr
    return Probe(done.returncode, done.stdout, done.stderr)
