"""Helpers for the operator-surface suites (test_ops_*): reports built in-process, published logs, tools.

Reports come from the real audit on copies of the demo tree (tests.health_support and
tests.health_scenarios); the CLI contracts themselves are exercised in subprocesses.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cortex.core.timestamps import iso_from_ms
from reports.document import unknown_report
from tests.health_support import NOW, NOW_MS, REPO, clean_env, copy_demo, obs

CONSOLE_SCRIPT = shutil.which("cortex-health", path=os.path.dirname(sys.executable))


def audit_report(root: Path, *args: str, now: str = NOW, write: bool = False,
                 environ: dict[str, str] | None = None):
    """The typed report (reports.report.Report) of one real audit of `root`, made in-process (published when write)."""
    from health.options import parse
    from health.run import audit, publish

    environ = clean_env() if environ is None else environ  # PATH: the demo's hook commands must resolve
    argv = ["--root", str(root), "--now", now, *args] + ([] if write else ["--no-write"])
    options, _ = parse(argv, environ, tty=False)
    return publish(audit(options, environ), options)


def audit_document(root: Path, *args: str, now: str = NOW, write: bool = False,
                   environ: dict[str, str] | None = None) -> dict:
    """The report of one real audit of `root` as plain JSON data (what memory-health.jsonl holds)."""
    return audit_report(root, *args, now=now, write=write, environ=environ).document()


def documents(tmp_path: Path) -> dict[str, dict]:
    """One real report per overall: ok, warn, critical, unknown."""
    from tests import health_scenarios as s

    healthy = copy_demo(tmp_path / "ok")
    warned = copy_demo(tmp_path / "warn")
    s.retrieval_stale(warned)
    s.proposals_backlog(warned)
    broken = copy_demo(tmp_path / "critical")
    s.reviewer_failed(broken)
    s.da_double_end(broken)
    return {
        "ok": audit_document(healthy),
        "warn": audit_document(warned),
        "critical": audit_document(broken),
        "unknown": unknown_report("root /nowhere is not a directory", now_ms=NOW_MS, root="/nowhere").document(),
    }


def publish_runs(root: Path, minutes_apart: list[int], **thresholds: str) -> list[dict]:
    """Publish one real report per offset (minutes before NOW) to root's memory-health.jsonl, oldest first."""
    args = [f"--threshold={name}={value}" for name, value in thresholds.items()]
    return [audit_document(root, *args, now=iso_from_ms(NOW_MS - minutes * 60_000), write=True)
            for minutes in sorted(minutes_apart, reverse=True)]


def health_log(root: Path) -> Path:
    return obs(root) / "memory-health.jsonl"


def run_command(argv: list[str], *, env: dict[str, str] | None = None, timeout: float = 30,
                **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(argv, capture_output=True, text=True, env=env or clean_env(), cwd=REPO, timeout=timeout,
                          stdin=kwargs.pop("stdin", subprocess.DEVNULL), **kwargs)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def health(*args: str, env: dict[str, str] | None = None, timeout: float = 30) -> subprocess.CompletedProcess:
    """`python -m health ARGS` (the same entry point as the cortex-health console script)."""
    return run_command([sys.executable, "-m", "health", *args], env=env, timeout=timeout)


def tool(name: str, package: str) -> str:
    """The path of an external tool, or skip the test saying which Debian package brings it."""
    path = shutil.which(name) or (f"/usr/bin/{name}" if os.access(f"/usr/bin/{name}", os.X_OK) else None)
    if path is None:
        pytest.skip(f"{name} is not installed (Debian package {package}; .ci/install-tools installs it)")
    return path


def json_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
