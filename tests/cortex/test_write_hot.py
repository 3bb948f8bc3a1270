"""`cortex hot read|set`: validation, dropped-and-reported entries, EAT_CAP, guards, EINVAL_PATH, stdin rules."""
from __future__ import annotations

import os

import pytest

from tests.write_support import entries, run_in_process, schema_validator, tree  # noqa: F401 (fixture)

from cortex.hot.hotmemory import BEGIN_MARKER, END_MARKER, check_markers, parse_memory_content

WRITE_ROW = "lifeos-cortex-memory-write-row-v1.schema.json"


def _valid_rows(tree):
    rows = tree.rows("memory-writes.jsonl")
    for row in rows:
        schema_validator(WRITE_ROW).validate(row)
    return rows


def test_set_writes_the_canonical_shape_and_reports_every_dropped_entry(tree):
    overlong = "RULE: " + "x" * 257
    result = tree.hot_set("principal", ["NAME: Ada ~explicit", "  PREFERENCE: terse ~inferred  ", "FACT: no prefix",
                                        "NAME: Ada ~explicit", overlong, "", "ROLE: engineer"])
    assert result.code == 0, result.envelope
    data = result.data
    assert data["accepted"] == 3 and data["new_count"] == 3 and data["prior_count"] == 0
    assert data["additions"] == ["NAME: Ada ~explicit", "PREFERENCE: terse ~inferred", "ROLE: engineer"]
    assert {(row["entry"][:10], row["reason"]) for row in data["dropped"]} == {
        ("FACT: no p", "malformed"), ("NAME: Ada ", "duplicate"), ("RULE: xxxx", "overlength")}
    assert (data["dropped_malformed"], data["dropped_overlength"], data["dropped_duplicates"]) == (1, 1, 1)
    text = tree.principal.read_text()
    assert check_markers(text).ok
    assert parse_memory_content(text).entries == ("NAME: Ada ~explicit", "PREFERENCE: terse ~inferred", "ROLE: engineer")
    assert "last_updated_by: cortex-hot-set" in text and f"last_updated: {tree.now}" in text
    (row,) = _valid_rows(tree)
    assert row["ok"] is True and row["error"] is None
    assert row["file"] == "LIFEOS/USER/PRINCIPAL/PRINCIPAL_MEMORY.md"
    assert len(row["dropped"]) == 3 and row["additions"] == data["additions"]


def test_set_is_idempotent_byte_for_byte(tree):
    items = entries(5)
    tree.hot_set("da", items)
    first = tree.da.read_bytes()
    assert tree.hot_set("da", items).code == 0
    assert tree.da.read_bytes() == first


def test_read_reports_entries_invalid_entries_and_markers(tree):
    tree.principal.write_text(
        "---\nschema_version: 1\n---\n# Memory\n" + END_MARKER + "\nNAME: orphan before begin\n" + BEGIN_MARKER
        + "\nRULE: " + "y" * 300 + "\nROLE: inside\n" + END_MARKER + "\n" + END_MARKER + "\n")
    result = tree.cortex("hot", "read", "principal")
    assert result.code == 0
    assert result.data["entries"] == ["NAME: orphan before begin", "ROLE: inside"]
    assert result.data["dropped_invalid"][0]["reason"] == "overlength"
    assert result.data["markers"] == {"begins": 1, "ends": 3, "inverted": True, "ok": False}


def test_one_write_converges_a_disordered_file_without_losing_entries(tree):
    tree.principal.write_text(END_MARKER + "\nNAME: kept one\n" + BEGIN_MARKER + "\n" + END_MARKER
                              + "\nFACT: body line stays\nROLE: kept two\n")
    result = tree.hot_set("principal", ["NAME: kept one", "ROLE: kept two"])
    assert result.code == 0 and result.data["evictions"] == []
    text = tree.principal.read_text()
    assert check_markers(text).ok
    assert "FACT: body line stays" in text
    assert parse_memory_content(text).entries == ("NAME: kept one", "ROLE: kept two")


def test_more_than_48_entries_is_a_structured_eat_cap_refusal(tree):
    before = tree.principal.read_bytes()
    result = tree.hot_set("principal", entries(49))
    assert result.code == 5 and result.error["code"] == "governance_refused"
    assert result.error["message"].startswith("EAT_CAP:") and "Trim 1" in result.error["message"]
    assert tree.principal.read_bytes() == before
    assert not any((tree.obs / "memory-snapshots").glob("*.md"))
    (row,) = _valid_rows(tree)
    assert row["ok"] is False and row["error"]["code"] == "EAT_CAP" and row["new_count"] == 49


def test_48_entries_after_deduplication_is_accepted(tree):
    assert tree.hot_set("principal", entries(48) + entries(3)).code == 0


@pytest.mark.parametrize(
    ("prior", "keep", "add", "code"),
    [
        (12, 2, 0, "ESUSPECT_SHRINK"),   # near-empty result
        (12, 5, 0, "ESUSPECT_SHRINK"),   # more than half removed, nothing added
        (12, 9, 1, "ESUSPECT_EROSION"),  # net loss 2 with an addition
        (5, 3, 0, "ESUSPECT_EROSION"),   # erosion is refused in small files too
    ],
)
def test_suspect_writes_are_refused_unless_allow_drastic(tree, prior, keep, add, code):
    assert tree.hot_set("principal", entries(prior)).code == 0
    before = tree.principal.read_bytes()
    wanted = entries(prior)[:keep] + entries(add, "new")
    refused = tree.hot_set("principal", wanted)
    assert refused.code == 5 and refused.error["message"].startswith(code + ":")
    assert tree.principal.read_bytes() == before
    assert _valid_rows(tree)[-1]["error"]["code"] == code
    forced = tree.hot_set("principal", wanted, "--allow-drastic")
    assert forced.code == 0 and forced.data["new_count"] == keep + add


@pytest.mark.parametrize(("prior", "keep", "add"), [(12, 11, 0), (12, 6, 5), (4, 3, 0), (3, 0, 2)])
def test_ordinary_curation_passes_the_guards(tree, prior, keep, add):
    assert tree.hot_set("principal", entries(prior)).code == 0
    assert tree.hot_set("principal", entries(prior)[:keep] + entries(add, "new")).code == 0


def test_only_the_two_hot_files_may_be_written(tree, tmp_path):
    victim = tmp_path / "victim.md"
    victim.write_text("untouched\n")
    for target in (str(victim), "/etc/passwd", "../notes.md"):
        result = tree.hot_set(target, ["NAME: x"])
        assert result.code == 5 and result.error["message"].startswith("EINVAL_PATH:")
    assert victim.read_text() == "untouched\n"
    assert [row["error"]["code"] for row in _valid_rows(tree)] == ["EINVAL_PATH"] * 3
    typo = tree.hot_set("principle", ["NAME: x"])  # a mistyped label is a usage error, like every other one
    assert (typo.code, typo.error["code"]) == (4, "invalid_input") and "did you mean principal?" in typo.error["message"]
    assert len(_valid_rows(tree)) == 3
    assert tree.hot_set(str(tree.principal), ["NAME: by path"]).code == 0


def test_a_symlinked_hot_file_is_refused_and_its_target_untouched(tree, tmp_path):
    outside = tmp_path / "outside.md"
    outside.write_bytes(tree.principal.read_bytes())
    tree.principal.unlink()
    os.symlink(outside, tree.principal)
    before = outside.read_bytes()
    result = tree.hot_set("principal", ["NAME: x"])
    assert result.code == 4 and result.error["code"] == "integrity_error"
    assert outside.read_bytes() == before and tree.principal.is_symlink()


def test_missing_hot_file_is_not_found(tree):
    tree.da.unlink()
    assert tree.hot_set("da", ["NAME: x"]).code == 3
    assert tree.cortex("hot", "read", "da").code == 3
    assert not tree.da.exists()
    (attempt,) = _valid_rows(tree)  # a failed attempt is evidence too
    assert attempt["ok"] is False and attempt["error"]["code"] == "not_found" and attempt["new_count"] == 1


@pytest.mark.parametrize(
    ("stdin", "fragment"),
    [
        (b"NAME: ok\n\xff\xfe\n", "UTF-8"),
        (b"NAME: bell \x07\n", "control"),
        (b"NAME: " + b"x" * 262_145, "exceeds"),
        (b"NAME: a\n" * 1_025, "more than 1024"),
    ],
    # Short ids: pytest exports the test id in PYTEST_CURRENT_TEST, and a 256 KiB id makes
    # the child's environment too large to exec ("Argument list too long").
    ids=["invalid-utf8", "control-char", "oversized", "too-many-lines"],
)
def test_bad_stdin_is_invalid_input_and_nothing_is_written(tree, stdin, fragment):
    before = tree.principal.read_bytes()
    result = tree.cortex("hot", "set", "principal", stdin=stdin)
    assert result.code == 4 and fragment in result.error["message"]
    assert tree.principal.read_bytes() == before
    assert tree.rows("memory-writes.jsonl") == []


def test_a_private_span_across_lines_never_becomes_an_entry(tree):
    stdin = "NAME: Ada\n<private>\nRULE: secret CANARY-HOT-1\n</private>\nROLE: dev\n"
    result = tree.cortex("hot", "set", "principal", stdin=stdin)
    assert result.code == 0
    assert result.data["additions"] == ["NAME: Ada", "ROLE: dev"]
    assert b"CANARY-HOT-1" not in tree.principal.read_bytes()


def test_unreadable_prior_file_is_refused_without_allow_drastic(tree):
    tree.principal.write_bytes(b"NAME: broken \x01 file\n")
    result = tree.hot_set("principal", ["NAME: x"])
    assert result.code == 4 and result.error["code"] == "integrity_error"
    assert tree.principal.read_bytes() == b"NAME: broken \x01 file\n"
    assert _valid_rows(tree)[-1]["error"]["code"] == "integrity_error"


def test_flags_and_arguments_are_strict(tree):
    assert tree.cortex("hot", "read", "principal", "--allow-drastic").code == 4
    assert tree.cortex("hot", "read", "nobody").code == 4
    assert tree.cortex("hot").code == 4
    assert tree.cortex("hot", "set").code == 4
    assert tree.cortex("hot", "set", "principal", "--allow-drastic", "--allow-drastic").code == 4


def test_adapter_name_is_recorded_as_the_writer(tree):
    result = run_in_process(tree, "hot", "set", "da", "--adapter", "hermes", stdin="ROLE: helper\n")
    assert result.code == 0 and result.data["updated_by"] == "cortex-hot-set:hermes"
    assert "last_updated_by: cortex-hot-set:hermes" in tree.da.read_text()
