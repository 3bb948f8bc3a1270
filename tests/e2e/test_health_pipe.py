"""A reader that closes the pipe early (`cortex-health | head -1`) must not change the exit code."""
from __future__ import annotations

import subprocess
import sys

import pytest

from tests.health_support import DEMO, NOW, clean_env


@pytest.mark.parametrize("fmt", ["text", "json", "nagios"])
def test_exit_code_survives_a_closed_pipe(fmt, tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "health", "--root", str(DEMO), "--now", NOW, "--no-write", "--format", fmt, "-v"]
        if fmt == "text" else
        [sys.executable, "-m", "health", "--root", str(DEMO), "--now", NOW, "--no-write", "--format", fmt],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=clean_env(),
    )
    proc.stdout.read(1)
    proc.stdout.close()
    assert proc.wait(timeout=60) == 0
    assert b"Traceback" not in proc.stderr.read()
