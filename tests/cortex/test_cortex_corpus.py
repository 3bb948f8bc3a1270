"""Corpus selection, record parsing and every integrity rule, through the real CLI."""
from __future__ import annotations

import hashlib
import json
import os
import shutil

import pytest

from tests.cortex_helpers import cortex, jsonl, md, row, write


def status(memory):
    return cortex("status", "--memory-root", str(memory))


def export_all(memory, *ids):
    code, env = cortex("export", *ids, "--memory-root", str(memory))
    assert code == 0, env
    return {item["id"]: item for item in env["data"]["items"]}


def assert_integrity(memory, fragment):
    code, env = status(memory)
    assert code == 4, env
    assert env["error"]["code"] == "integrity_error"
    assert fragment in env["error"]["message"], env["error"]["message"]


def test_knowledge_tree_plus_root_level_hot_files(tmp_path):
    m = tmp_path / "M"
    md(m / "KNOWLEDGE" / "a.md", id="a")
    md(m / "KNOWLEDGE" / "sub" / "b.md", id="b")
    jsonl(m / "KNOWLEDGE" / "c.jsonl", row("c1"), row("c2"))
    md(m / "KNOWLEDGE" / "_draft.md", id="skip1")
    md(m / "KNOWLEDGE" / ".hidden" / "x.md", id="skip2")
    md(m / "KNOWLEDGE" / "_private" / "x.md", id="skip3")
    write(m / "KNOWLEDGE" / "notes.txt", "not canonical")
    md(m / "PRINCIPAL_MEMORY.md", id="hot")
    md(m / "OTHER" / "outside.md", id="not-in-corpus")
    code, env = status(m)
    assert code == 0 and env["data"]["canonical"]["records"] == 5
    assert set(export_all(m, "a", "b", "c1", "c2", "hot")) == {"a", "b", "c1", "c2", "hot"}


def test_nested_memory_knowledge_fallback_then_whole_root(tmp_path):
    nested = tmp_path / "N"
    md(nested / "MEMORY" / "KNOWLEDGE" / "a.md", id="n1")
    md(nested / "elsewhere.md", id="ignored")
    assert status(nested)[1]["data"]["canonical"]["records"] == 1
    flat = tmp_path / "F"
    md(flat / "x.md", id="f1")
    md(flat / "deep" / "y.md", id="f2")
    assert status(flat)[1]["data"]["canonical"]["records"] == 2


def test_markdown_defaults_and_frontmatter(tmp_path):
    m = tmp_path / "M"
    write(m / "KNOWLEDGE" / "WORK" / "plain.md", "no frontmatter at all\n")
    md(m / "KNOWLEDGE" / "named.md", "body", name="'Quoted Name\"", date="2026-02-03", last_updated="2026-02-04",
       source="hermes", source_session="s-1")
    md(m / "KNOWLEDGE" / "full.md", "see also\n- slug: named-x\nslug: other-y # comment\n  -  slug:  'third'\n",
       id="full", type="idea", title="Full", created="2026-01-01T10:00:00+02:00", updated="2026-01-02T00:00:00Z",
       source_kind="claude", source="ignored", valid_from="2026-01-01", valid_until="2099-01-01")
    code, env = cortex("search", "no frontmatter", "--memory-root", str(m))
    plain_id = "path:" + hashlib.sha256(b"KNOWLEDGE/WORK/plain.md").hexdigest()[:16]
    named_id = "path:" + hashlib.sha256(b"KNOWLEDGE/named.md").hexdigest()[:16]
    items = export_all(m, plain_id, named_id, "full")
    plain = items[plain_id]
    assert plain["type"] == "work" and plain["title"] == "KNOWLEDGE/WORK/plain.md"
    assert plain["created"] == plain["updated"] == "1970-01-01T00:00:00.000Z"
    assert plain["provenance"] == {"source": "canonical", "session": None, "path": "KNOWLEDGE/WORK/plain.md"}
    named = items[named_id]
    assert named["title"] == "Quoted Name" and named["type"] == "memory"
    assert (named["created"], named["updated"]) == ("2026-02-03", "2026-02-04")
    assert named["provenance"] == {"source": "hermes", "session": "s-1", "path": "KNOWLEDGE/named.md"}
    full = items["full"]
    assert full["related"] == ["named-x", "other-y", "third"]
    assert full["provenance"]["source"] == "claude"
    assert (full["valid_from"], full["valid_until"]) == ("2026-01-01", "2099-01-01")
    assert full["content"].startswith("---\nid: full\n")
    assert list(full) == ["id", "type", "title", "created", "updated", "provenance", "content", "related",
                          "valid_from", "valid_until"]


def test_utf8_bom_is_not_content(tmp_path):
    m = tmp_path / "M"
    (m / "KNOWLEDGE").mkdir(parents=True)
    (m / "KNOWLEDGE" / "bom.md").write_bytes("\ufeff---\nid: bom\n---\nhello\n".encode("utf-8"))
    assert export_all(m, "bom")["bom"]["content"] == "---\nid: bom\n---\nhello\n"


def test_jsonl_records_pass_values_through(tmp_path):
    m = tmp_path / "M"
    jsonl(m / "KNOWLEDGE" / "r.jsonl",
          row("j1", source_kind="codex", source="x", source_session=None, related=["j2"], created="2026-01-01T00:00:00.5+01:00",
              updated="2026-01-01T00:00:00.5+01:00"),
          row("j2", source="hermes"))
    items = export_all(m, "j1", "j2")
    assert items["j1"]["provenance"] == {"source": "codex", "session": None, "path": "KNOWLEDGE/r.jsonl"}
    assert items["j1"]["created"] == "2026-01-01T00:00:00.5+01:00"
    assert items["j1"]["related"] == ["j2"]
    assert items["j2"]["provenance"]["source"] == "hermes"


@pytest.mark.parametrize(
    "line, fragment",
    [
        ("{not json", "Malformed JSONL at KNOWLEDGE/r.jsonl:2"),
        ('{"id":"x","type":"t","title":"t","created":NaN,"updated":"2026-01-01","content":"c"}', "Malformed JSONL"),
        ("[1,2]", "JSONL row must be an object at KNOWLEDGE/r.jsonl:2"),
        ("null", "JSONL row must be an object"),
        (json.dumps(row("x", extra="1")), "JSONL row has unknown fields at KNOWLEDGE/r.jsonl:2"),
        (json.dumps({k: v for k, v in row("x").items() if k != "title"}), "JSONL title must be a non-empty string"),
        (json.dumps(row("   ")), "JSONL id must be a non-empty string"),
        (json.dumps(row("x", content=5)), "JSONL content must be a non-empty string"),
        (json.dumps(row("x", source=None)), "JSONL source must be a non-empty string"),
        (json.dumps(row("x", source_session=3)), "JSONL source_session must be a string or null"),
        (json.dumps(row("x", related="y")), "JSONL related must contain only non-empty string IDs"),
        (json.dumps(row("x", related=[" "])), "JSONL related must contain only non-empty string IDs"),
        (json.dumps(row("x", valid_from=5)), "JSONL valid_from must be a string"),
        (json.dumps(row("x", title="bell\u0007")), "forbidden control"),
        (json.dumps(row("x", created="2026-01-01T10:00:00")), "Invalid created timestamp for x in KNOWLEDGE/r.jsonl"),
        (json.dumps(row("x", created="2026-02-30")), "Invalid created timestamp"),
        (json.dumps(row("x", created="2026-01-01T24:00:00Z")), "Invalid created timestamp"),
        (json.dumps(row("x", created="0099-01-01")), "Invalid created timestamp"),
        (json.dumps(row("x", updated="yesterday")), "Invalid updated timestamp"),
        (json.dumps(row("x", valid_until="2026-13-01")), "Invalid valid_until timestamp"),
        (json.dumps(row("x", created="2026-01-02", updated="2026-01-01")), "Canonical record x is updated before it was created"),
        (json.dumps(row("x", valid_from="2026-01-02", valid_until="2026-01-02")), "Canonical record x has an incoherent validity window"),
    ],
)
def test_jsonl_integrity_rules(tmp_path, line, fragment):
    m = tmp_path / "M"
    write(m / "KNOWLEDGE" / "r.jsonl", json.dumps(row("ok")) + "\n" + line + "\n")
    assert_integrity(m, fragment)


def test_markdown_integrity_rules(tmp_path):
    m = tmp_path / "M"
    md(m / "KNOWLEDGE" / "a.md", id="dup")
    md(m / "KNOWLEDGE" / "b.md", id="dup")
    assert_integrity(m, "Duplicate canonical ID dup: KNOWLEDGE/a.md and KNOWLEDGE/b.md")
    (m / "KNOWLEDGE" / "b.md").unlink()
    (m / "KNOWLEDGE" / "bad.md").write_bytes(b"---\nid: bad\n---\n\xff\xfe\n")
    assert_integrity(m, "Canonical text is not valid UTF-8 at KNOWLEDGE/bad.md")
    (m / "KNOWLEDGE" / "bad.md").write_text("---\nid: bad\n---\nnul \x00 here\n")
    assert_integrity(m, "forbidden control or malformed Unicode at KNOWLEDGE/bad.md")
    (m / "KNOWLEDGE" / "bad.md").write_text("---\nid: bad\ncreated: 2026-04-31\n---\n")
    assert_integrity(m, "Invalid created timestamp for bad in KNOWLEDGE/bad.md")


def test_symlinks_escapes_and_special_files_below_the_root(tmp_path):
    m = tmp_path / "M"
    md(m / "KNOWLEDGE" / "a.md", id="a")
    outside = md(tmp_path / "outside.md", id="o")
    link = m / "KNOWLEDGE" / "link.md"
    link.symlink_to(outside)
    assert_integrity(m, "Canonical path is a symlink")
    link.unlink()
    (m / "KNOWLEDGE" / "dirlink").symlink_to(tmp_path)
    assert_integrity(m, "Canonical path is a symlink")
    (m / "KNOWLEDGE" / "dirlink").unlink()
    (m / "KNOWLEDGE" / "note.txt").symlink_to(outside)  # any symlink, whatever its name
    assert_integrity(m, "Canonical path is a symlink")
    (m / "KNOWLEDGE" / "note.txt").unlink()
    os.mkfifo(m / "KNOWLEDGE" / "pipe.md")
    assert_integrity(m, "Canonical path is not a regular file")
    (m / "KNOWLEDGE" / "pipe.md").unlink()
    (m / "KNOWLEDGE" / "folder.jsonl").mkdir()
    code, env = status(m)
    assert code == 0  # a directory named *.jsonl is walked, not read
    (m / "KNOWLEDGE" / "folder.jsonl").rmdir()
    (m / "DA_MEMORY.md").mkdir()
    assert_integrity(m, "Canonical path is not a regular file")
    (m / "DA_MEMORY.md").rmdir()
    (m / "DA_MEMORY.md").symlink_to(outside)
    assert_integrity(m, "Canonical path is not a regular file")
    (m / "DA_MEMORY.md").unlink()
    (m / "KNOWLEDGE").rename(m / "K2")
    (m / "KNOWLEDGE").symlink_to(m / "K2")
    assert_integrity(m, "Canonical path is a symlink")


def test_undecodable_file_name_is_an_integrity_error(tmp_path):
    m = tmp_path / "M"
    md(m / "KNOWLEDGE" / "a.md", id="a")
    with open(os.path.join(os.fsencode(m / "KNOWLEDGE"), b"bad\xff.md"), "w") as handle:
        handle.write("---\nid: b\n---\n")
    assert_integrity(m, "not valid UTF-8")


def test_limits_are_checked_before_content_is_read(tmp_path):
    m = tmp_path / "M"
    md(m / "KNOWLEDGE" / "a.md", id="a")
    big = m / "KNOWLEDGE" / "big.md"
    with open(big, "wb") as handle:  # sparse: 8 MiB + 1 of zero bytes, never read
        handle.truncate(8 * 1024 * 1024 + 1)
    assert_integrity(m, "Canonical file exceeds per-file byte limit (8388608): KNOWLEDGE/big.md")
    big.unlink()
    for index in range(17):
        with open(m / "KNOWLEDGE" / f"part{index}.md", "wb") as handle:
            handle.truncate(8 * 1024 * 1024)
    assert_integrity(m, "Canonical corpus exceeds total byte limit (134217728)")


def test_file_count_limit(tmp_path):
    m = tmp_path / "M"
    knowledge = m / "KNOWLEDGE"
    knowledge.mkdir(parents=True)
    for index in range(10_001):
        (knowledge / f"n{index}.md").write_text("x")
    assert_integrity(m, "Canonical corpus exceeds file count limit (10000)")


def test_record_count_limit(tmp_path):
    m = tmp_path / "M"
    line = '{"id":"%d","type":"t","title":"t","created":"2026-01-01","updated":"2026-01-01","content":"c"}\n'
    write(m / "KNOWLEDGE" / "many.jsonl", "".join(line % i for i in range(50_001)))
    assert_integrity(m, "Canonical corpus exceeds record count limit (50000)")
    write(m / "KNOWLEDGE" / "many.jsonl", "".join(line % i for i in range(50_000)))
    code, env = status(m)
    assert code == 0 and env["data"]["canonical"]["records"] == 50_000


def test_the_byte_rule_for_forbidden_characters_is_the_text_rule():
    """read_canonical_utf8 checks the raw bytes (fast); assert_canonical_text checks decoded text: one rule."""
    from cortex.core.corpusfiles import _FORBIDDEN_TEXT, _forbidden_utf8
    from cortex.core.patterns import compiled

    for cp in [*range(0x800), *range(0xE000, 0x10000), *range(0x10000, 0x110000, 97)]:
        char = chr(cp)
        assert _forbidden_utf8(f"a{char}b".encode()) == bool(compiled(_FORBIDDEN_TEXT).search(char)), hex(cp)
    assert not _forbidden_utf8("tab\tcr\r\nnbsp\u00a0é—“”".encode())


def test_the_hot_files_byte_check_raises_what_the_text_check_raises():
    """hot_text checks the bytes it decoded strictly (no pattern, no `re` for `hot render`): the same error, or none."""
    from cortex.core.corpusfiles import assert_canonical_text, assert_canonical_utf8
    from cortex.errors import IntegrityError

    for text in ["plain", "tab\tcr\r\n", "nbsp\u00a0é", "\ufeffbom", "bell\x07", "del\x7f", "c1\x85", "c1\x9f end", "¢\x80"]:
        outcomes = []
        for check, value in ((assert_canonical_text, text), (assert_canonical_utf8, text.encode())):
            try:
                check(value, "HOT.md")
                outcomes.append(None)
            except IntegrityError as error:
                outcomes.append((str(error), error.rule))
        assert outcomes[0] == outcomes[1], text


def test_canonical_files_are_in_javascripts_order_ascii_or_not(tmp_path):
    """UTF-16 code-unit order: an ASCII corpus is sorted as plain strings, one with a character past U+FFFF (which
    JavaScript puts before U+E000..U+FFFF) by its UTF-16 code units."""
    from cortex.core.corpusfiles import canonical_files

    for names in (["b.md", "a.jsonl", "B.md", "a-b.md", "a_b.md"], ["\uff5e.md", "\U0001d49c.md", "z.md", "é.md"]):
        root = tmp_path / str(len(names))
        (root / "KNOWLEDGE").mkdir(parents=True)
        for name in names:
            (root / "KNOWLEDGE" / name).write_text("x")
        found = [os.path.basename(path) for path in canonical_files(str(root))]
        assert found == sorted(names, key=lambda name: name.encode("utf-16-be")), found
    assert found.index("\U0001d49c.md") < found.index("\uff5e.md")  # not code point order


def _walked(root: str):
    """(files, stat keys) or the error's (message, rule): the same for the walk by names and the careful one."""
    from cortex.core.corpus import canonical_files_stats
    from cortex.core.corpusfiles import canonical_files, check_limits
    from cortex.errors import IntegrityError

    outcomes = []
    for walk in (canonical_files_stats, lambda real: (canonical_files(real), check_limits(canonical_files(real), real))):
        try:
            files, infos = walk(root)
            outcomes.append((files, [(info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns) for info in infos]))
        except IntegrityError as error:
            outcomes.append((str(error), error.rule))
    assert outcomes[0] == outcomes[1]
    quick = canonical_files(root, quick=True)  # None, or a name that is no regular file: the careful walk decides
    by_names = quick is not None and all(os.path.isfile(path) and not os.path.islink(path) for path in quick)
    assert not by_names or quick == outcomes[0][0]
    return outcomes[0], by_names


@pytest.mark.parametrize("layout", ["knowledge", "nested", "flat"])
def test_the_walk_by_names_lists_what_the_careful_walk_lists(tmp_path, layout):
    """canonical_files_stats walks by names (os.listdir, no entry types): the same files and lstat results as
    canonical_files and check_limits, and the same error, whatever stands where a note is expected."""
    root = tmp_path / layout
    top = {"knowledge": root / "KNOWLEDGE", "nested": root / "MEMORY" / "KNOWLEDGE", "flat": root}[layout]
    (top / "deep" / "er").mkdir(parents=True)
    for path in ("a.md", "b.jsonl", "deep/c.md", "deep/er/d.md", "_skip.md", ".hidden.md", "notes.txt", "deep/x"):
        (top / path).write_text("x")
    (top / "_skipped").mkdir()
    (top / "_skipped" / "e.md").write_text("x")
    if layout == "knowledge":
        (root / "PRINCIPAL_MEMORY.md").write_text("x")
    real = os.path.realpath(root)
    (files, _keys), by_names = _walked(real)
    assert by_names and sorted(os.path.relpath(path, top) for path in files if not path.endswith("_MEMORY.md")) == [
        "a.md", "b.jsonl", "deep/c.md", "deep/er/d.md"]
    (top / "deep" / "er" / "z.md").mkdir()  # a folder named as a note is walked (by the careful walk)
    (top / "deep" / "er" / "z.md" / "in.md").write_text("x")
    assert any(path.endswith("z.md/in.md") for path in _walked(real)[0][0])
    shutil.rmtree(top / "deep" / "er" / "z.md")
    os.symlink(top / "a.md", top / "deep" / "link.md")  # a symlink named as a note: the careful walk's error
    assert _walked(real)[0][1] == "symlink"
    os.unlink(top / "deep" / "link.md")
    os.symlink(top / "deep", top / "deep" / "er" / "loop")  # any other symlink too
    assert _walked(real) == (("Canonical path is a symlink: " + os.path.join(real, os.path.relpath(
        top / "deep" / "er" / "loop", root)), "symlink"), False)
    os.unlink(top / "deep" / "er" / "loop")
    os.mkfifo(top / "deep" / "pipe.md")  # not a regular file
    assert _walked(real)[0][1] == "not-regular"
    os.unlink(top / "deep" / "pipe.md")
    bad = os.path.join(os.fsencode(top / "deep"), b"bad\xff.md")  # a name that is not UTF-8
    with open(bad, "w") as handle:
        handle.write("x")
    assert _walked(real) == (_walked(real)[0], False) and _walked(real)[0][1] == "utf8-name"
    os.unlink(bad)
    for name in ("é.md", "only.jsonl"):
        (top / "deep" / "er" / name).write_text("x")  # a folder of notes only: its paths joined at once
    (files, _keys), by_names = _walked(real)
    assert by_names and {"é.md", "only.jsonl", "d.md"} <= {os.path.basename(path) for path in files}
    for hidden in ("_draft.md", ".draft.md"):
        (top / "deep" / "er" / hidden).write_text("x")
        (files, _keys), by_names = _walked(real)
        assert by_names and hidden not in {os.path.basename(path) for path in files}
        os.unlink(top / "deep" / "er" / hidden)
