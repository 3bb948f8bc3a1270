"""The one table of cortex-health commands (health.commands) and the one base they all run through."""
from __future__ import annotations

import ast
import importlib
import io
import subprocess
import sys

import pytest

from health.commands import COMMANDS, listing
from health.commands.base import Command, UsageError
from tests.health_support import REPO, clean_env


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_row_names_a_module_whose_main_is_its_command(name):
    row = COMMANDS[name]
    main = importlib.import_module(row.module).main
    assert isinstance(main.__self__, Command) and main.__self__.name == name
    assert row.synopsis.split()[0] == name
    assert row.summary and "\n" not in row.summary and len(row.summary) <= 100


def test_the_top_level_help_lists_the_table():
    from health.cli import run

    out = io.StringIO()
    assert run(["--help"], environ={}, stdout=out, stderr=io.StringIO()) == 0
    assert " ".join(out.getvalue().split()).endswith(" ".join(listing().split()))  # argparse wraps the epilog


def test_the_table_imports_nothing():
    code = "import sys; before = set(sys.modules); import health.commands; print(sorted(set(sys.modules) - before))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=clean_env(), cwd=REPO)
    # cortex and its finder come first: every package of ours installs it (cortex.ownfinder)
    assert done.stdout.strip() == "['cortex', 'cortex.ownfinder', 'health', 'health.commands']", done.stderr


def test_there_is_one_usage_error_class():
    defined = [f"{path.relative_to(REPO)}: {node.name}" for path in sorted((REPO / "health").rglob("*.py"))
               for node in ast.walk(ast.parse(path.read_text()))
               if isinstance(node, ast.ClassDef) and "usage" in node.name.lower()]
    assert defined == ["health/commands/base.py: UsageError"]


class Broken(Command):
    name = "broken"

    def parse(self, call):
        if call.argv == ["--bad"]:
            raise UsageError("no such flag")
        return call.argv

    def run(self, args, call):
        raise KeyError("boom")


def test_the_base_words_usage_and_internal_errors_and_never_shows_a_traceback():
    out, err = io.StringIO(), io.StringIO()
    assert Broken().main(["--bad"], {}, out, err) == 3
    assert (out.getvalue(), err.getvalue()) == ("", "cortex-health broken: usage: no such flag\n")
    out, err = io.StringIO(), io.StringIO()
    assert Broken().main([], {}, out, err) == 3
    assert (out.getvalue(), err.getvalue()) == ("", "cortex-health broken: internal error: KeyError: 'boom'\n")


def test_setup_s_missing_value_is_a_usage_error_like_any_other():
    # was argparse's own: "usage: __main__.py ..." and exit 2 (the exit code of a critical report)
    out, err = io.StringIO(), io.StringIO()
    setup = importlib.import_module(COMMANDS["setup"].module)
    assert setup.main(["claude-code", "--write"], {}, out, err) == 3
    assert err.getvalue().startswith("cortex-health setup: argument --write: expected one argument\nusage: ")
    assert out.getvalue() == ""
