"""`cortex init`: a fresh, healthy LifeOS layout that never overwrites anything."""
from __future__ import annotations

import json
import os

from tests.write_support import NOW, Tree, make_tree

from cortex.hot.hotmemory import check_markers, parse_memory_content, read_diagnostics


def test_init_creates_the_layout_the_auditor_reads(tmp_path):
    tree = make_tree(tmp_path)
    for folder in ("KNOWLEDGE", "OBSERVABILITY", "STATE"):
        assert (tree.memory / folder).is_dir()
    assert json.loads((tree.lifeos / "CORTEX_INDEX_POLICY.json").read_text()) == {
        "schema": "lifeos-cortex-index-policy/v1", "policy": "no-index-v1"}
    assert (tree.obs / "pending-proposals.jsonl").read_bytes() == b""
    for hot in (tree.principal, tree.da):
        text = hot.read_text()
        assert check_markers(text).ok
        assert read_diagnostics(text)["count"] == 0
        frontmatter = parse_memory_content(text).frontmatter
        for line in ("provenance: template", "schema_version: 1", "cap_entries: 48", "cap_chars_per_entry: 256",
                     f"last_updated: {NOW}", "last_updated_by: cortex-init", "convention: pai-freshness-v1"):
            assert line in frontmatter.splitlines()


def test_init_never_overwrites_and_reports_what_it_kept(tmp_path):
    tree = make_tree(tmp_path)
    tree.principal.write_text("hand-edited\n")
    (tree.obs / "pending-proposals.jsonl").write_text('{"id":"x","status":"pending"}\n')
    again = tree.cortex("init", "--root", str(tree.root))
    assert again.code == 0
    assert again.data["created"] == []
    assert "LIFEOS/USER/PRINCIPAL/PRINCIPAL_MEMORY.md" in again.data["kept"]
    assert tree.principal.read_text() == "hand-edited\n"
    assert (tree.obs / "pending-proposals.jsonl").read_text() == '{"id":"x","status":"pending"}\n'


def test_init_writes_the_reviewer_config_with_the_documented_defaults_and_keeps_an_edited_one(tmp_path):
    from cortex.review.reviewconfig import DEFAULTS, ReviewConfig
    from cortex.review.reviewdefaults import DEFAULT_CONFIG_TEXT

    tree = make_tree(tmp_path)
    config = tree.lifeos / "USER" / "CONFIG" / "memory-review.json"
    assert config.read_text() == DEFAULT_CONFIG_TEXT
    assert ReviewConfig.model_validate(json.loads(DEFAULT_CONFIG_TEXT)) == DEFAULTS  # the text is the defaults
    assert json.loads(DEFAULT_CONFIG_TEXT)["inference_command"] == ["claude", "-p"]
    config.write_text('{"schema_version": 1, "inference_command": ["my-model"]}\n')
    again = tree.cortex("init", "--root", str(tree.root))
    assert "LIFEOS/USER/CONFIG/memory-review.json" in again.data["kept"]
    assert json.loads(config.read_text())["inference_command"] == ["my-model"]


def test_the_docs_show_the_config_init_writes():
    """The README (or a docs/ page) shows memory-review.json exactly as `cortex init` writes it."""
    import re

    from cortex.review.reviewdefaults import DEFAULT_CONFIG_TEXT
    from tests.write_support import REPO

    pages = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    blocks = [block for page in pages for block in re.findall(r"```json\n(.*?)```", page.read_text(), re.S)
              if '"inference_command"' in block and '"turn_threshold"' in block]
    assert blocks and all(json.loads(block) == json.loads(DEFAULT_CONFIG_TEXT) for block in blocks), blocks


def test_init_defaults_to_claude_config_dir(tmp_path):
    tree = Tree(tmp_path / "cfg", tmp_path / "home")
    tree.home.mkdir()
    result = tree.cortex("init", CLAUDE_CONFIG_DIR=str(tmp_path / "cfg"))
    assert result.code == 0 and result.data["root"] == str(tmp_path / "cfg")
    assert tree.principal.exists()


def test_init_defaults_to_home_dot_claude(tmp_path):
    tree = Tree(tmp_path / "home" / ".claude", tmp_path / "home")
    tree.home.mkdir()
    result = tree.cortex("init")
    assert result.code == 0
    assert tree.da.exists()


def test_init_refuses_a_symlink_below_the_memory_root(tmp_path):
    root = tmp_path / "claude"
    (root / "LIFEOS" / "MEMORY").mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, root / "LIFEOS" / "MEMORY" / "OBSERVABILITY")
    tree = Tree(root, tmp_path / "home")
    tree.home.mkdir()
    result = tree.cortex("init", "--root", str(root))
    assert result.code == 4 and result.error["code"] == "integrity_error"
    assert "symlink" in result.error["message"]
    assert list(elsewhere.iterdir()) == []


def test_init_allows_a_top_level_memory_alias(tmp_path):
    private = tmp_path / "private-memory"
    private.mkdir()
    root = tmp_path / "claude"
    (root / "LIFEOS").mkdir(parents=True)
    os.symlink(private, root / "LIFEOS" / "MEMORY")
    tree = Tree(root, tmp_path / "home")
    tree.home.mkdir()
    assert tree.cortex("init", "--root", str(root)).code == 0
    assert (private / "OBSERVABILITY" / "pending-proposals.jsonl").exists()


def test_init_rejects_memory_root_and_positionals(tmp_path):
    tree = Tree(tmp_path / "c", tmp_path / "home")
    tree.home.mkdir()
    assert tree.cortex("init", "--root", str(tree.root), "--memory-root", str(tmp_path)).code == 4
    assert tree.cortex("init", "extra", "--root", str(tree.root)).code == 4
    assert not tree.root.exists()
