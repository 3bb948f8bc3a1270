"""Shape of the operator-surface code: small modules that say their stage and caller; a light CLI entry."""
from __future__ import annotations

import subprocess
import sys

import pytest

from tests.health_support import REPO, clean_env

NEW_MODULES = [
    "collectors/readers/paths.py", "health/cli.py", "health/options.py", "health/checkparser.py", "health/statusline.py", "health/gate.py",
    "health/history.py", "health/explain.py", "health/judge/catalogue/__init__.py", "collectors/healthlog/read.py",
    "reports/measurements.py", "reports/hints.py", "reports/units.py", "reports/formats/__init__.py",
    "reports/report.py", "reports/document.py",
    "reports/formats/statusline.py", "reports/formats/prometheus.py", "reports/formats/nagios.py",
    "reports/formats/health_json.py", "reports/formats/github.py", "bench/bench_statusline.py",
    "collectors/metric.py", "collectors/metric_table.py",
]
CALLER_WORDS = ("Called by", "Used by", "Read by", "Chosen", "Emitted by", "called by", "used by", "Benchmark")


@pytest.mark.parametrize("path", NEW_MODULES)
def test_module_opens_with_its_stage_and_caller_and_stays_small(path):
    text = (REPO / path).read_text()
    body = text.split("\n", 1)[1] if text.startswith("#!") else text
    assert body.startswith('"""'), path
    first = body[3:].split("\n", 1)[0]
    docstring = body[3:body.index('"""', 3)]
    assert first.strip() and any(word in docstring for word in CALLER_WORDS), path
    assert len(text.splitlines()) <= 220, f"{path} has grown past ~200 lines: split it"


def test_the_cli_module_loads_without_argparse_or_the_audit():
    code = ("import sys; import health.cli; "
            "print(sorted(m for m in ('argparse', 'health.run', 'health.options', 'typing', 'rich', 'pydantic') "
            "if m in sys.modules and m not in before))")
    done = subprocess.run([sys.executable, "-c", "import sys; before = set(sys.modules); " + code],
                          capture_output=True, text=True, env=clean_env(), cwd=REPO)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stdout + done.stderr


def test_subcommand_help_exits_0_and_mentions_the_command():
    for argv, needle in ((["statusline", "--help"], "--max-age"), (["gate", "--help"], "--timeout"),
                         (["history", "--help"], "--last"), (["explain", "--help"], "explain ID"),
                         (["--help"], "statusline | gate | history | explain")):
        done = subprocess.run([sys.executable, "-m", "health", *argv], capture_output=True, text=True,
                              env=clean_env(), cwd=REPO, stdin=subprocess.DEVNULL)
        assert done.returncode == 0 and needle in done.stdout, (argv, done.stdout, done.stderr)
