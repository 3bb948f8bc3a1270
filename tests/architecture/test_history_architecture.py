"""Shape of the history-chain and dashboard code: small modules that say their stage and caller; the help lists serve."""
from __future__ import annotations

import subprocess
import sys

import pytest

from tests.health_support import REPO
from tests.ops_support import health

MODULES = [
    "collectors/healthlog/chain.py", "collectors/healthlog/verify.py", "collectors/healthlog/append.py", "health/history_verify.py",
    "collectors/healthlog/__init__.py", "collectors/healthlog/format.py", "collectors/healthlog/read.py",
    "collectors/healthlog/runs.py",
    "health/serve.py", "health/dashboard/__init__.py", "health/dashboard/data.py", "health/dashboard/handler.py",
    "health/dashboard/pages.py", "health/dashboard/svg.py", "collectors/lifeos/health_history.py",
    "health/judge/rules/health_history.py", "health/judge/catalogue/health_history.py", "bench/bench_history.py",
]
CALLER_WORDS = ("Called by", "Used by", "Started by", "Benchmark", "Part of the catalogue", "Called through")


@pytest.mark.parametrize("path", MODULES)
def test_module_opens_with_its_stage_and_caller_and_stays_small(path):
    text = (REPO / path).read_text()
    body = text.split("\n", 1)[1] if text.startswith("#!") else text
    assert body.startswith('"""'), path
    docstring = body[3:body.index('"""', 3)]
    assert docstring.split("\n", 1)[0].strip() and any(word in docstring for word in CALLER_WORDS), path
    assert len(text.splitlines()) <= 300, f"{path} is over 300 lines: split it"


def test_help_names_serve_and_verify():
    assert "serve" in health("--help").stdout
    assert "--verify" in health("history", "--help").stdout
    served = health("serve", "--help")
    assert served.returncode == 0 and "--refresh" in served.stdout and "--port" in served.stdout
    done = subprocess.run([sys.executable, "bench/bench_history.py", "--help"], capture_output=True, text=True,
                          cwd=REPO)
    assert done.returncode == 0 and "--rows" in done.stdout
