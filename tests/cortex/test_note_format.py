"""The note format (issue 23, point 8), through the real CLI: a YAML-style `related` list is read or refused,
never silently ignored; what the reference indexes (title and the whole text, frontmatter included) ranks the
same here; docs/note-format.md documents it."""
from __future__ import annotations

import json

import pytest

from tests.cortex_helpers import base_env, cortex, md, write
from tests.cortex.test_cortex_search import bm25
from tests.write_support import REPO

NOW = "2026-06-01T00:00:00Z"


def run(memory, *args):
    return cortex(*args, "--memory-root", str(memory), env=base_env(CORTEX_NOW=NOW))


def related_of(memory, record_id: str) -> list[str]:
    code, envelope = run(memory, "get", record_id)
    assert code == 0, envelope
    return envelope["data"]["items"][0]["related"]


@pytest.fixture
def memory(tmp_path):
    m = tmp_path / "MEMORY"
    for name in ("alpha", "bravo", "charlie", "delta"):
        md(m / "KNOWLEDGE" / f"{name}.md", f"{name} body", id=name, created="2026-01-01")
    return m


def test_a_flow_list_is_read_and_walked(memory):
    md(memory / "KNOWLEDGE" / "hub.md", "the hub\n- slug: delta\n", id="hub", created="2026-01-01",
       related="[alpha, \"bravo\", 'charlie', ]")
    assert related_of(memory, "hub") == ["alpha", "bravo", "charlie", "delta"]
    code, envelope = run(memory, "search", "hub", "--expand", "hub")
    assert code == 0 and [card["id"] for card in envelope["data"]["expansion"]["items"]] == \
        ["hub", "alpha", "bravo", "charlie", "delta"]


def test_a_block_list_of_ids_is_read_and_slug_mappings_stay_as_the_reference_reads_them(memory):
    write(memory / "KNOWLEDGE" / "hub.md", "---\nid: hub\ncreated: 2026-01-01\nrelated:\n  - alpha\n  - slug: bravo\n"
          "    type: idea\n- 'charlie'\ntitle: Hub\n---\nbody\n")
    assert related_of(memory, "hub") == ["alpha", "charlie", "bravo"]


def test_what_cortex_remember_writes_reads_back_unchanged(tmp_path):
    claude = tmp_path / ".claude"
    assert cortex("init", "--root", str(claude))[0] == 0
    item = {"type": "idea", "title": "Linked", "content": "links", "related": [{"slug": "x-1", "type": "extends"}]}
    code, envelope = cortex("remember", json.dumps(item), "--adapter", "claude", "--allow-write", "--root", str(claude))
    assert code == 0, envelope
    record_id = envelope["data"]["result"]["detail"]["id"]
    assert cortex("get", record_id, "--root", str(claude))[1]["data"]["items"][0]["related"] == ["x-1"]
    plain = {"type": "idea", "title": "Alone", "content": "no links"}  # written as `related: []`
    alone = cortex("remember", json.dumps(plain), "--adapter", "claude", "--allow-write", "--root", str(claude))
    assert cortex("get", alone[1]["data"]["result"]["detail"]["id"], "--root", str(claude))[1]["data"]["items"][0][
        "related"] == []


@pytest.mark.parametrize("value", ["alpha", "[alpha, [bravo]]", "[alpha,,bravo]", "[\"alpha]", "{a: b}"])
def test_anything_else_in_related_is_an_integrity_error_naming_the_file_not_the_value(memory, value):
    md(memory / "KNOWLEDGE" / "bad.md", "body", id="bad", created="2026-01-01", related=value)
    code, envelope = run(memory, "status")
    assert code == 4 and envelope["error"]["code"] == "integrity_error"
    message = envelope["error"]["message"]
    assert message.startswith("Canonical record bad in KNOWLEDGE/bad.md: related must list record ids")
    assert "alpha" not in message and "bravo" not in message


def test_an_empty_block_item_is_refused(memory):
    write(memory / "KNOWLEDGE" / "bad.md", "---\nid: bad\ncreated: 2026-01-01\nrelated:\n  -\n---\nbody\n")
    code, envelope = run(memory, "search", "body")
    assert code == 4 and "(an empty item)" in envelope["error"]["message"]


def test_frontmatter_is_indexed_as_the_reference_indexes_it(tmp_path):
    """The reference ranks `title + content`, content being the whole file: a frontmatter-only word matches, and
    every score equals the contract's formula over that text."""
    m = tmp_path / "MEMORY"
    texts = {}
    for name, source, body in (("a", "zebrafinch", "plain words"), ("b", "sparrow", "zebrafinch seen twice zebrafinch"),
                               ("c", "sparrow", "nothing here")):
        path = md(m / "KNOWLEDGE" / f"{name}.md", body, id=name, title=name.upper(), created="2026-01-01",
                  source=source)
        texts[name] = f"{name.upper()} {path.read_text()}"
    code, envelope = run(m, "search", "zebrafinch")
    assert code == 0
    expected = bm25(texts, "zebrafinch")
    assert {card["id"]: card["score"] for card in envelope["data"]["items"]} == \
        {key: round(value, 6) for key, value in expected.items()}
    assert set(expected) == {"a", "b"}  # `a` matches through its frontmatter alone


def test_the_note_format_is_documented():
    text = (REPO / "docs" / "note-format.md").read_text()
    for needle in ("related: [", "valid_from", "valid_until", "slug:", "JSONL", "frontmatter", "path:",
                   "source_session", "What is indexed"):
        assert needle in text, needle
