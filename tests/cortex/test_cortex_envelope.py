"""The envelope, exit codes, strict options and root resolution of the `cortex` read contract."""
from __future__ import annotations

import json
import resource

import pytest

from cortex.schemas import generated, render, HERE
from tests.cortex_helpers import base_env, cortex, md


@pytest.fixture
def root(tmp_path):
    memory = tmp_path / "MEMORY"
    md(memory / "KNOWLEDGE" / "a.md", "alpha bravo", id="rec-a", created="2026-01-01")
    return memory


def test_shipped_schema_is_generated_from_the_models():
    for name, schema in generated().items():
        assert (HERE / name).read_text(encoding="utf-8") == render(schema), f"{name} is stale: run python -m cortex.schemas"


def test_status_success_envelope(root):
    code, env = cortex("status", "--memory-root", str(root))
    assert code == 0
    assert env == {"schema": "lifeos-cortex/v1", "ok": True, "command": "status",
                   "data": {"canonical": {"root": str(root), "records": 1}, "mode": "local-read-only", "indexes": []},
                   "error": None}


@pytest.mark.parametrize(
    "args, message",
    [
        (["bogus"], "Unknown command: bogus"),
        (["status", "--anchor", "x"], "Unknown option for status: --anchor"),
        (["search", "q", "--nope", "1"], "Unknown option for search: --nope"),
        (["search", "q", "--type", "a", "--type", "b"], "Duplicate option: --type"),
        (["search", "q", "--type"], "Missing value for --type"),
        (["search", "q", "--type", "--source", "x"], "Missing value for --type"),
        (["search", "q", "--type", ""], "Missing value for --type"),
        (["status", "--adapter", "gpt"], "--adapter must be one of: claude, hermes, codex, subagent"),
        (["status", "extra"], "status accepts no positional arguments"),
        (["search"], "search requires exactly one query"),
        (["search", "a", "b"], "search requires exactly one query"),
        (["timeline", "x", "--anchor", "2026-01-01"], "timeline accepts no positional arguments"),
        (["get"], "get requires one or more explicit IDs (maximum 100)"),
        (["export"] + [f"id{i}" for i in range(101)], "export requires one or more explicit IDs (maximum 100)"),
        (["rebuild"], "rebuild requires --from-canonical"),
        (["rebuild", "--from-canonical", "x"], "rebuild requires --from-canonical"),
        (["rebuild", "--from-canonical", "--from-canonical"], "Duplicate option: --from-canonical"),
        (["get", "--allow-write", "x"], "Unknown option for get: --allow-write"),
        (["timeline", "--recency", "1", "--anchor", "2026-01-01"], "Unknown option for timeline: --recency"),
        (["search", "q", "--anchor", "x"], "Unknown option for search: --anchor"),
    ],
)
def test_invalid_usage_is_invalid_input_exit_4(root, args, message):
    code, env = cortex(*args, "--memory-root", str(root))  # bare `cortex`: tests/cortex/test_cortex_terminal.py
    assert code == 4
    assert env["ok"] is False and env["data"] is None
    assert env["error"] == {"code": "invalid_input", "message": message}
    assert env["command"] == args[0]


def test_every_adapter_is_accepted(root):
    for adapter in ("claude", "hermes", "codex", "subagent"):
        code, env = cortex("status", "--memory-root", str(root), "--adapter", adapter)
        assert code == 0 and env["data"]["canonical"]["records"] == 1


def test_root_precedence_option_over_environment_over_home(tmp_path, root):
    other = tmp_path / "other"
    md(other / "KNOWLEDGE" / "x.md", id="x1")
    md(other / "KNOWLEDGE" / "y.md", id="y1")
    env = base_env(CORTEX_MEMORY_ROOT=str(other))
    assert cortex("status", env=env)[1]["data"]["canonical"]["records"] == 2
    assert cortex("status", "--memory-root", str(root), env=env)[1]["data"]["canonical"]["records"] == 1
    home = tmp_path / "home"
    md(home / ".claude" / "LIFEOS" / "MEMORY" / "KNOWLEDGE" / "h.md", id="h1")
    code, env_out = cortex("status", env=base_env(HOME=str(home)))
    assert code == 0
    assert env_out["data"]["canonical"]["root"] == str(home / ".claude" / "LIFEOS" / "MEMORY")


def test_top_level_alias_symlink_is_pinned_to_its_target(tmp_path, root):
    alias = tmp_path / "alias"
    alias.symlink_to(root)
    code, env = cortex("status", "--memory-root", str(alias))
    assert code == 0
    assert env["data"]["canonical"]["root"] == str(root.resolve())


def test_missing_root_and_file_root_are_integrity_errors(tmp_path):
    code, env = cortex("status", "--memory-root", str(tmp_path / "absent"))
    assert (code, env["error"]["code"]) == (4, "integrity_error")
    assert "does not exist" in env["error"]["message"]
    file_root = tmp_path / "file"
    file_root.write_text("x")
    code, env = cortex("status", "--memory-root", str(file_root))
    assert (code, env["error"]["code"]) == (4, "integrity_error")
    assert "not a directory" in env["error"]["message"]


def test_unexpected_os_failure_is_internal_error_exit_1_not_a_traceback(tmp_path):
    # A real fault, not a mock: the process runs out of file descriptors while walking
    # a deep KNOWLEDGE tree, which no contract error covers. (The walk by names holds one
    # folder open at a time; a folder named as a note sends the call to the careful walk,
    # which holds every folder above the one it lists open.)
    memory = tmp_path / "MEMORY"
    deep = memory / "KNOWLEDGE"
    (deep / "a-folder.md").mkdir(parents=True)
    for level in range(40):
        deep = deep / f"d{level}"
    md(deep / "leaf.md", id="leaf")

    def few_descriptors():
        resource.setrlimit(resource.RLIMIT_NOFILE, (24, 24))

    code, env = cortex("status", "--memory-root", str(memory), preexec_fn=few_descriptors)
    assert code == 1
    assert env["error"]["code"] == "internal_error"
    assert "Too many open files" in env["error"]["message"]


def test_invalid_cortex_now_is_invalid_input(root):
    code, env = cortex("search", "alpha", "--memory-root", str(root), env=base_env(CORTEX_NOW="yesterday"))
    assert code == 4 and "CORTEX_NOW" in env["error"]["message"]


def test_invalid_utf8_argument_is_invalid_input(root):
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "cortex", "search", b"\xff\xfe", "--memory-root", str(root)],
                          capture_output=True, env=base_env())
    envelope = json.loads(proc.stdout)
    assert proc.returncode == 4 and envelope["error"]["code"] == "invalid_input"
    assert proc.stderr == b""
