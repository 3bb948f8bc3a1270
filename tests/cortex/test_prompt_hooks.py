"""The prompt hooks: `cortex hot render` and `cortex recall` — exact output, silent failure, evidence rows, no pydantic."""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import pytest

from collectors.lifeos.retrieval import row_problem
from cortex.commands import _HOT_PATH, commands_for, registry
from tests.cortex_helpers import md
from tests.review_support import hook
from tests.write_support import REPO, check_envelope, run_in_process, tree  # noqa: F401 - fixture


def seed(tree):
    facts = "NAME: Ada Lovelace ~explicit\nPREFERENCE: drinks green tea <private>at 5am</private> ~explicit\n"
    assert run_in_process(tree, "hot", "set", "principal", stdin=facts).code == 0
    assert run_in_process(tree, "hot", "set", "da", stdin="ROLE: research assistant ~explicit\n").code == 0
    md(tree.memory / "KNOWLEDGE" / "Research" / "engines.md", "The analytical engine computes tables.",
       id="rec-engine", title="Analytical engine", created="2026-01-01")


def test_render_prints_the_exact_block(tree):
    seed(tree)
    result = hook(tree, "hot", "render")
    assert (result.code, result.stderr) == (0, "")
    assert result.stdout == (
        "<lifeos-memory>\n"
        "## PRINCIPAL MEMORY [2/48 entries · 67/12288 chars]\n"
        "NAME: Ada Lovelace ~explicit\n"
        "PREFERENCE: drinks green tea  ~explicit\n"
        "\n"
        "## DA MEMORY [1/48 entries · 34/12288 chars]\n"
        "ROLE: research assistant ~explicit\n"
        "</lifeos-memory>\n")


@pytest.mark.parametrize("breakage", ["missing", "binary", "directory"])
def test_render_never_blocks_a_prompt(tree, breakage):
    tree.da.unlink()
    if breakage == "binary":
        tree.da.write_bytes(b"\xff\xfe\x00")
    elif breakage == "directory":
        tree.da.mkdir()
    result = hook(tree, "hot", "render")
    assert (result.code, result.stdout) == (0, "")
    assert result.stderr.startswith("cortex hot render: ") and result.stderr.count("\n") == 1


def test_hook_commands_fail_silently_on_bad_usage_but_say_why(tree):
    for args, code in ((("hot", "render", "--bogus"), 0), (("recall", "q", "--limit", "0"), 0),
                       (("review", "fire", "--bogus", "x"), 1)):
        result = hook(tree, *args)
        assert (result.code, result.stdout) == (code, "") and result.stderr.startswith(f"cortex {args[0]}")
    enveloped = hook(tree, "review", "run", "--bogus")
    envelope = check_envelope(json.loads(enveloped.stdout))
    assert enveloped.code == 4 and envelope["error"]["message"] == "Unknown option for review run: --bogus"


def test_subagents_get_nothing(tree):
    seed(tree)
    assert hook(tree, "hot", "render", CORTEX_SUBAGENT="1").stdout == ""
    assert hook(tree, "recall", "tea", "--adapter", "subagent").stdout == ""
    assert not (tree.obs / "memory-retrievals.jsonl").exists()


def test_recall_searches_corpus_and_hot_entries_and_logs_a_hash(tree):
    seed(tree)
    result = hook(tree, "recall", "analytical engine and green tea", "--limit", "2")
    assert (result.code, result.stderr) == (0, "")
    lines = result.stdout.splitlines()
    assert lines[0] == "<lifeos-recall>" and lines[-1] == "</lifeos-recall>"
    assert lines[1].startswith("[1] Analytical engine (KNOWLEDGE/Research/engines.md; score ")
    assert "The analytical engine computes tables." in result.stdout
    assert "[2] PRINCIPAL MEMORY (LIFEOS/USER/PRINCIPAL/PRINCIPAL_MEMORY.md; score " in result.stdout
    assert "[3]" not in result.stdout and "5am" not in result.stdout
    [row] = tree.rows("memory-retrievals.jsonl")
    assert row_problem(row) is None and set(row) == {"ts", "query_hash", "returned_count", "duration_ms", "top_score"}
    assert row["ts"] == tree.now and row["returned_count"] == 2 and row["top_score"] > 0
    assert row["query_hash"] == hashlib.sha256(b"analytical engine and green tea").hexdigest()
    assert "engine" not in (tree.obs / "memory-retrievals.jsonl").read_text()


def test_recall_reads_the_prompt_from_the_hook_payload_and_bounds_the_block(tree):
    for i in range(30):
        md(tree.memory / "KNOWLEDGE" / f"n{i}.md", "tea " * 400, id=f"n{i}", created="2026-01-01")
    payload = json.dumps({"session_id": "s", "prompt": "tea please " * 2000, "hook_event_name": "UserPromptSubmit"})
    result = hook(tree, "recall", "--limit", "20", stdin=payload)
    assert result.code == 0 and len(result.stdout) < 4_200 and result.stdout.count("\n[") + 1 <= 20
    [row] = tree.rows("memory-retrievals.jsonl")
    assert row_problem(row) is None and 1 <= row["returned_count"] < 20


def test_recall_with_no_match_prints_nothing_and_still_logs(tree):
    assert hook(tree, "recall", "zebra").stdout == ""
    [row] = tree.rows("memory-retrievals.jsonl")
    assert row_problem(row) is None and row["returned_count"] == 0 and "top_score" not in row


def test_recall_on_a_broken_corpus_is_silent_and_logs_nothing(tree):
    (tree.memory / "KNOWLEDGE" / "bad.jsonl").write_text("{oops\n")
    result = hook(tree, "recall", "tea")
    assert (result.code, result.stdout) == (0, "") and "Malformed JSONL" in result.stderr
    assert not (tree.obs / "memory-retrievals.jsonl").exists()


def test_the_hot_path_table_matches_the_registry_and_imports_one_module():
    everything = registry()
    for name, module in _HOT_PATH.items():
        assert everything[name].enveloped is False
        assert set(commands_for(name.split())) == {name}
        assert everything[name].handler.__module__ == f"cortex.commands.{module}"
    assert all(spec.enveloped for name, spec in everything.items() if name not in _HOT_PATH)


@pytest.mark.parametrize("args", [["hot", "render"], ["recall", "tea"]])
def test_the_prompt_hooks_never_import_pydantic(tree, args):
    code = ("import io, sys; from cortex.cli import run; "
            f"run({args!r}, stdin=io.StringIO('')); "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'psutil', 'rich', 'jsonschema')); "
            "print(bad)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=tree.env(), cwd=str(REPO),
                          timeout=60)
    assert proc.stdout.strip().splitlines()[-1] == "[]", proc.stdout + proc.stderr


def test_the_writer_and_the_collector_share_one_retrieval_row_model():
    import pytest

    from cortex.evidencerows import RetrievalRow

    row = RetrievalRow("2026-11-29T12:00:00Z", "ab" * 32, 2, 1.5, 0.25).as_row()
    assert row_problem(row) is None and row["top_score"] == 0.25
    assert "top_score" not in RetrievalRow("2026-11-29T12:00:00Z", "ab", 0, 0).as_row()
    for bad in (RetrievalRow("2026-11-29T12:00", "ab", 1, 1.0), RetrievalRow("2026-11-29T12:00:00Z", "", 1, 1.0),
                RetrievalRow("2026-11-29T12:00:00Z", "ab", True, 1.0),
                RetrievalRow("2026-11-29T12:00:00Z", "ab", 1, float("nan"))):
        with pytest.raises(ValueError, match="retrieval row"):
            bad.as_row()  # the hook refuses to write what the auditor would call malformed
