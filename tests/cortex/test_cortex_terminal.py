"""The `cortex` CLI at a terminal (issue 23, point 6), through the real console script: bare `cortex` prints
the usage, an unknown command gets a did-you-mean, the root options may precede the command, `init` refuses a
root inside LIFEOS/, and an id outside its validity window says so."""
from __future__ import annotations

import json
import os
import pty
import shutil
import subprocess
import sys

import pytest

from tests.cortex_helpers import base_env, cortex, jsonl, row

CORTEX = shutil.which("cortex", path=os.path.dirname(sys.executable))
NOW = "2026-06-01T00:00:00Z"


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([CORTEX, *args], capture_output=True, text=True, env=env or base_env(), timeout=120)


def on_a_terminal(*args: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) with stdout a pseudo-terminal, as a person typing the command has it."""
    master, slave = pty.openpty()
    try:
        done = subprocess.run([CORTEX, *args], stdout=slave, stderr=subprocess.PIPE, text=True, env=base_env(),
                              timeout=120)
    finally:
        os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the terminal's other side is closed and drained
            break
        if not chunk:
            break
        shown += chunk
    os.close(master)
    return done.returncode, shown.decode(), done.stderr


def test_bare_cortex_at_a_terminal_prints_the_usage_and_no_envelope():
    code, shown, stderr = on_a_terminal()
    assert code == 4 and shown == ""
    assert stderr.startswith("cortex: the local memory core") and "Usage: cortex COMMAND" in stderr


def test_bare_cortex_in_a_pipe_keeps_the_envelope_for_scripts_and_prints_the_usage_on_stderr():
    done = run()
    assert done.returncode == 4 and "Usage: cortex COMMAND" in done.stderr
    envelope = json.loads(done.stdout)
    assert envelope["error"] == {"code": "invalid_input", "message": "Unknown command: (missing)"}
    assert run("--root", "/nowhere").stdout == done.stdout  # root options and still no command


@pytest.mark.parametrize("typed, meant", [("serch", "search"), ("stats", "status"), ("remeber", "remember"),
                                          ("proposal", "proposals")])
def test_an_unknown_command_gets_a_did_you_mean(typed, meant):
    code, envelope = cortex(typed, "x")
    assert code == 4 and envelope["error"]["message"] == f"Unknown command: {typed}; did you mean {meant}?"


def test_an_unknown_command_with_nothing_close_keeps_the_reference_message():
    assert cortex("zzz")[1]["error"]["message"] == "Unknown command: zzz"


def test_root_options_may_come_before_the_command(tmp_path):
    claude = tmp_path / ".claude"
    jsonl(claude / "LIFEOS" / "MEMORY" / "KNOWLEDGE" / "a.jsonl", row("a", "alpha"))
    before = cortex("--root", str(claude), "status")
    after = cortex("status", "--root", str(claude))
    assert before == after and before[0] == 0 and before[1]["data"]["canonical"]["records"] == 1
    memory = str(claude / "LIFEOS" / "MEMORY")
    assert cortex(f"--memory-root={memory}", "--adapter", "codex", "search", "alpha")[1]["data"]["total"] == 1
    helped = run("--root", str(claude), "search", "--help")
    assert helped.returncode == 0 and helped.stdout.startswith("Usage: cortex search")


def test_init_refuses_a_root_inside_lifeos_instead_of_nesting_it(tmp_path):
    claude = tmp_path / ".claude"
    code, envelope = cortex("init", "--root", str(claude / "LIFEOS"))
    assert code == 4 and envelope["error"]["code"] == "invalid_input"
    assert f"use --root {claude}" in envelope["error"]["message"] and not claude.exists()
    assert cortex("init", "--root", str(claude))[0] == 0
    code, envelope = cortex("init", "--root", str(claude / "LIFEOS" / "MEMORY"))
    assert code == 4 and f"use --root {claude}" in envelope["error"]["message"]
    assert not (claude / "LIFEOS" / "LIFEOS").exists() and not (claude / "LIFEOS" / "MEMORY" / "LIFEOS").exists()
    env = base_env(CLAUDE_CONFIG_DIR=str(claude / "LIFEOS"))
    code, envelope = cortex("init", env=env)
    assert code == 4 and "CLAUDE_CONFIG_DIR" in envelope["error"]["message"]
    code, envelope = cortex("status", "--root", str(claude / "LIFEOS"))  # the read commands say it too
    assert code == 4 and f"use --root {claude}" in envelope["error"]["message"]


def test_an_id_outside_its_validity_window_says_so(tmp_path):
    memory = tmp_path / "MEMORY"
    jsonl(memory / "KNOWLEDGE" / "r.jsonl", row("old", "gone", valid_until="2026-03-01T00:00:00Z"),
          row("soon", "later", valid_from="2027-01-01T00:00:00Z"), row("now", "here"))
    env = base_env(CORTEX_NOW=NOW)
    code, envelope = cortex("get", "old", "soon", "nope", "now", "--memory-root", str(memory), env=env)
    assert code == 3 and envelope["error"]["code"] == "not_found"
    assert envelope["error"]["message"] == (
        "One or more records were not found: old (expired: valid until 2026-03-01T00:00:00Z), "
        "soon (not valid yet: valid from 2027-01-01T00:00:00Z), nope")
    code, envelope = cortex("timeline", "--anchor", "old", "--memory-root", str(memory), env=env)
    assert code == 3 and envelope["error"]["message"] == \
        "Timeline anchor not found: old (expired: valid until 2026-03-01T00:00:00Z)"
    code, envelope = cortex("search", "here", "--expand", "soon", "--memory-root", str(memory), env=env)
    assert code == 3 and envelope["error"]["message"] == \
        "Expansion root not found: soon (not valid yet: valid from 2027-01-01T00:00:00Z)"
