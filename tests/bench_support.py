"""The bench scripts as their tests run them: bench/NAME.py in a subprocess of this interpreter (the numbers
themselves are measured by running the scripts on real sizes, never by timed tests)."""
from __future__ import annotations

import subprocess
import sys

from tests.cortex_helpers import ROOT


def bench_script(name: str):
    return ROOT / "bench" / f"{name}.py"


def bench_help(name: str) -> str:
    """What `bench/NAME.py --help` prints (it must exit 0)."""
    return subprocess.run([sys.executable, str(bench_script(name)), "--help"], capture_output=True, text=True,
                          check=True).stdout


def run_bench(name: str, *args: str, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(bench_script(name)), *args], capture_output=True, text=True,
                          timeout=timeout)
