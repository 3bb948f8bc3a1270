"""The newcomer path through the real `cortex` CLI: help, one root, clear mistakes, documented exits."""
from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import unicodedata

import pytest
from hypothesis import given, settings, strategies as st

from cortex.commands import COMMAND_TABLE, registry
from cortex.envelope import EXIT_CODES
from cortex.helptext import ITEM_EXAMPLES, command_help
from cortex.write.notes import MAX_SLUG_CHARS, slugify
from tests.cortex_helpers import ROOT, base_env, cortex, jsonl, md, row
from tests.write_support import make_tree, tree  # noqa: F401 (fixture)


def plain(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cortex", *args], capture_output=True, text=True,
                          env=env if env is not None else base_env(), timeout=60)


@pytest.mark.parametrize("args", [["--help"], ["-h"], ["help"]])
def test_overview_help_is_usage_on_stdout_exit_0_listing_every_command(args):
    proc = plain(*args)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout.startswith("cortex: the local memory core")
    for name in registry():
        assert re.search(rf"^  {re.escape(name)}  +\S", proc.stdout, re.MULTILINE), name  # each with a purpose
    assert "--root DIR" in proc.stdout and "--opt=value" in proc.stdout


def test_every_command_s_help_comes_from_its_spec_and_names_only_options_it_takes():
    assert list(registry()) and set(registry()) == set(COMMAND_TABLE)
    for name, spec in registry().items():
        assert spec.usage.startswith(f"cortex {name}") and command_help(name).startswith(f"Usage: {spec.usage}\n")
        described = {word.strip("[]()|,") for term, *_ in spec.option_help for word in term.split()}
        assert {word for word in described if word.startswith("--")} <= spec.allowed, name


def test_every_registered_command_has_help_with_usage_and_example():
    for name in registry():
        proc = plain(*name.split(), "--help")
        assert (proc.returncode, proc.stderr) == (0, ""), name
        assert proc.stdout.startswith(f"Usage: cortex {name}"), proc.stdout
        assert "--memory-root DIR" in proc.stdout
        if name not in ("remember", "propose"):
            example = proc.stdout.split("\nExample:\n  ")[1]
            assert f"cortex {name}" in example.replace("hot set", "hot"), name


@pytest.mark.parametrize(("args", "starts"), [
    (["help", "search"], "Usage: cortex search QUERY"), (["search", "--memory-root", "/x", "--help"], "Usage: cortex search"),
    (["hot", "--help"], "Usage: cortex hot read|set"), (["hot", "set", "--help"], "Usage: cortex hot read|set"),
    (["help", "hot", "render"], "Usage: cortex hot render"), (["review", "--help"], "Usage: cortex review run|fire"),
    (["help", "review", "run"], "Usage: cortex review run"),
])
def test_help_for_one_command_in_every_spelling(args, starts):
    proc = plain(*args)
    assert (proc.returncode, proc.stderr) == (0, "") and proc.stdout.startswith(starts)


def test_review_alone_names_its_subcommands_and_unknown_help_is_invalid_input():
    code, envelope = cortex("review")
    assert code == 4 and envelope["error"]["message"].startswith("review requires one of: run, fire")
    code, envelope = cortex("help", "nope")
    assert (code, envelope["command"], envelope["error"]["code"]) == (4, "help", "invalid_input")


def test_a_dash_h_after_a_command_is_still_a_query_as_in_the_reference(tmp_path):
    jsonl(tmp_path / "M" / "KNOWLEDGE" / "r.jsonl", row("h1", "the letter h"))
    code, envelope = cortex("search", "-h", "--memory-root", str(tmp_path / "M"))
    assert code == 0 and [item["id"] for item in envelope["data"]["items"]] == ["h1"]


def test_help_imports_no_heavy_module():
    code = ("import sys, io, contextlib; from cortex.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()): rc = main(['--help'])\n"
            "print(rc, sorted(m for m in ('pydantic', 'rich', 'psutil') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.stdout.strip() == "0 []", done.stderr


def test_the_item_examples_in_help_are_accepted_by_the_write_commands(tree):  # noqa: F811
    examples = plain("help", "remember").stdout + plain("help", "propose").stdout
    lines = [line.strip() for line in examples.splitlines() if line.strip().startswith(("cortex remember '", "cortex propose '"))]
    assert len(lines) == len(ITEM_EXAMPLES) == 4
    for line in lines:
        result = tree.cortex(*shlex.split(line)[1:])
        assert result.code == 0, (line, result.envelope)
    assert "USER/PRINCIPAL/WRITINGSTYLE.md" in examples and "operational-rule: USER/CONFIG/OPERATIONAL_RULES.md" in examples


def test_root_is_the_claude_folder_on_every_command_and_opt_equals_value_works(tree):  # noqa: F811
    memory = str(tree.memory)
    expected = cortex("status", "--memory-root", memory)
    assert cortex("status", "--root", str(tree.root)) == expected
    assert cortex("status", f"--root={tree.root}") == expected
    assert cortex("status", f"--memory-root={memory}") == expected
    assert tree.cortex("hot", "read", "principal", f"--root={tree.root}", CORTEX_MEMORY_ROOT="/nonexistent").code == 0
    both = cortex("status", "--root", str(tree.root), "--memory-root", memory)
    assert both[0] == 4 and "not both" in both[1]["error"]["message"]
    assert cortex("rebuild", "--from-canonical=yes", "--root", str(tree.root))[1]["error"]["message"] == \
        "--from-canonical is a flag and takes no value"
    assert cortex("status", "--root=", "--memory-root", memory)[1]["error"]["message"] == "Missing value for --root"


def test_opt_equals_value_pages_like_opt_value(tmp_path):
    jsonl(tmp_path / "M" / "KNOWLEDGE" / "r.jsonl", *[row(f"r{i}", f"fox {i}") for i in range(5)])
    spaced = cortex("search", "fox", "--page-size", "2", "--page", "2", "--memory-root", str(tmp_path / "M"))
    joined = cortex("search", "fox", "--page-size=2", "--page=2", f"--memory-root={tmp_path / 'M'}")
    assert spaced == joined and spaced[0] == 0 and len(spaced[1]["data"]["items"]) == 2


def test_a_claude_folder_given_as_memory_root_says_what_to_pass(tree):  # noqa: F811
    jsonl(tree.obs / "memory-health.jsonl", {"ts": "2026-01-01T00:00:00Z", "overall": "ok"})
    code, envelope = cortex("status", "--memory-root", str(tree.root))
    assert (code, envelope["error"]["code"]) == (4, "integrity_error")
    message = envelope["error"]["message"]
    assert "looks like a .claude folder" in message and f"--root {tree.root}" in message
    assert f"--memory-root {tree.memory}" in message and "memory-health.jsonl" in message


def test_get_names_the_missing_ids(tmp_path):
    md(tmp_path / "M" / "KNOWLEDGE" / "a.md", id="a")
    code, envelope = cortex("get", "a", "nope", "zz", "nope", "--memory-root", str(tmp_path / "M"))
    assert (code, envelope["error"]) == (3, {"code": "not_found", "message": "One or more records were not found: nope, zz"})


def _without_dac_override():
    """As root, give up the right to read any file (the bounding set survives exec): mode bits apply again."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def test_an_unreadable_canonical_file_is_integrity_error_naming_it(tmp_path):
    memory = tmp_path / "M"
    md(memory / "KNOWLEDGE" / "a.md", id="a")
    md(memory / "KNOWLEDGE" / "secret.md", id="s").chmod(0)
    drop = None
    if os.geteuid() == 0:
        try:
            subprocess.run(["true"], preexec_fn=_without_dac_override, check=True)
        except (subprocess.SubprocessError, OSError):
            pytest.skip("running as root and cannot drop CAP_DAC_OVERRIDE: every file is readable")
        drop = _without_dac_override
    code, envelope = cortex("search", "body", "--memory-root", str(memory), preexec_fn=drop)
    assert (code, envelope["error"]["code"]) == (4, "integrity_error")
    assert envelope["error"]["message"] == f"Canonical path is not readable: {memory / 'KNOWLEDGE' / 'secret.md'} (Permission denied)"


def test_the_readme_exit_table_lists_every_error_code_with_its_exit():
    readme = (ROOT / "README.md").read_text()
    table = {int(m.group(1)): m.group(2) for m in re.finditer(r"^\| (\d) \| [^|]+\| ([^|]+) \|$", readme, re.MULTILINE)}
    for code, exit_code in EXIT_CODES.items():
        if code is not None:
            assert f"`{code}`" in table[exit_code], (code, exit_code)


def test_guard_refusals_name_the_flag_and_a_no_op_write_takes_no_snapshot(tree):  # noqa: F811
    wanted = [f"PREFERENCE: fact {i} ~explicit" for i in range(4)]
    first = tree.hot_set("principal", wanted)
    assert first.code == 0 and first.data["snapshot"] and first.data["unchanged"] is False
    before = tree.principal.read_bytes()
    snapshots = sorted(os.listdir(tree.obs / "memory-snapshots"))
    again = tree.hot_set("principal", wanted, CORTEX_NOW="2026-02-01T00:00:00Z")
    assert again.code == 0 and again.data["snapshot"] is None and again.data["unchanged"] is True
    assert tree.principal.read_bytes() == before and sorted(os.listdir(tree.obs / "memory-snapshots")) == snapshots
    assert [row["ok"] for row in tree.rows("memory-writes.jsonl")][-1] is True  # the attempt is still evidence
    refused = tree.hot_set("principal", wanted[:2])
    assert refused.code == 5 and "pass --allow-drastic for a deliberate consolidation" in refused.error["message"]


def test_hot_set_says_on_stderr_what_it_dropped_and_stays_silent_otherwise(tree):  # noqa: F811
    clean = tree.hot_set("principal", ["NAME: Ada ~explicit", "NAME: Ada ~explicit"])
    assert clean.code == 0 and clean.stderr == ""  # a duplicate loses nothing
    lossy = tree.hot_set("principal", ["NAME: Ada ~explicit", "FACT: no prefix", "RULE: " + "x" * 300])
    assert lossy.code == 0 and lossy.data["dropped_malformed"] == 1 and lossy.data["dropped_overlength"] == 1
    assert lossy.stderr == ("cortex hot: dropped 2 of 3 submitted entries (1 malformed, 1 overlength); they are not "
                            "in the file: see data.dropped for each entry and its reason\n")


def test_cjk_titles_make_readable_ids_and_one_character_queries_find_them(tree):  # noqa: F811
    item = {"type": "knowledge", "entity_type": "research", "name": "数据库 设计/笔记", "content": "向量数据库的索引。"}
    result = tree.cortex("remember", json.dumps(item, ensure_ascii=False), "--adapter", "claude", "--allow-write")
    assert result.code == 0, result.envelope
    record_id = result.data["result"]["detail"]["id"]
    assert record_id.startswith("knowledge-数据库-设计-笔记-") and "/" not in record_id
    other = {"type": "idea", "title": "Plain English", "content": "nothing in Chinese"}
    assert tree.cortex("remember", json.dumps(other), "--adapter", "claude", "--allow-write").code == 0
    found = tree.cortex("search", "库")
    assert found.code == 0 and [card["id"] for card in found.data["items"]] == [record_id]
    assert tree.cortex("get", record_id).data["items"][0]["title"] == "数据库 设计/笔记"


def test_writers_and_root_say_which_root_was_meant(tree):  # noqa: F811
    for args in (["hot", "read", "principal"], ["hot", "snapshots"], ["proposals", "list"]):
        result = tree.cortex(*args, "--memory-root", str(tree.root))
        assert (result.code, result.error["code"]) == (4, "integrity_error")
        assert result.error["message"] == (f"{tree.root} looks like a .claude folder, not a memory root (it holds "
                                           f"LIFEOS/MEMORY): use --root {tree.root} or --memory-root {tree.memory}")
    swapped = tree.cortex("status", "--root", str(tree.memory))
    assert (swapped.code, swapped.error["code"]) == (4, "integrity_error")
    assert f"use --memory-root {tree.memory} or --root {tree.root}" in swapped.error["message"]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_generated_slugs_are_bounded_and_filesystem_safe(title):
    slug = slugify(title)
    assert slug and len(slug) <= MAX_SLUG_CHARS and len(slug.encode("utf-8")) <= 4 * MAX_SLUG_CHARS
    assert not slug.startswith(("-", ".")) and "/" not in slug and "\\" not in slug and "\x00" not in slug
    assert all(char == "-" or char.isalnum() or unicodedata.category(char)[0] == "M" for char in slug)
    if title.isascii():
        assert slug == (re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:MAX_SLUG_CHARS].strip("-") or "untitled")


def test_a_misspelt_option_suggests_the_closest_and_keeps_code_and_exit(tmp_path):
    code, envelope = cortex("search", "q", "--memroy-root", str(tmp_path))
    assert code == 4 and envelope["error"]["code"] == "invalid_input"
    assert envelope["error"]["message"] == "Unknown option for search: --memroy-root; did you mean --memory-root?"
    code, envelope = cortex("search", "q", "--nope", "1")  # nothing close: the reference's message, unchanged
    assert code == 4 and envelope["error"]["message"] == "Unknown option for search: --nope"
