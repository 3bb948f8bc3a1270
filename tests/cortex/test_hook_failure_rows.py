"""The hooks' failure rows (cortex.hookfailures, cortex.hookrows) and where errors say they sit (cortex.errors.at).

In-process on real files in tmp_path: the row's shape, the privacy boundary, the bounded log, a
held lock, and the file, line, field and rule that corpus and config errors carry.
"""
from __future__ import annotations

import json
import os
import socket
import time

import pytest

from cortex.core.corpus import enumerate_canonical_corpus
from cortex.core.timestamps import iso_from_ms
from cortex.errors import IntegrityError, InvalidInput
from cortex.hookfailures import KEEP_BYTES, MAX_LOG_BYTES, record_hook_failure
from cortex.hookrows import hook_failure_problem, hook_failure_row
from cortex.hot.hotmemory import parse_memory_content, read_diagnostics
from tests.health_support import NOW_MS, read_rows


@pytest.fixture
def memory(tmp_path):
    folder = tmp_path / "claude" / "LIFEOS" / "MEMORY"
    (folder / "KNOWLEDGE").mkdir(parents=True)
    return folder


def log_of(memory) -> list[dict]:
    return read_rows(memory / "OBSERVABILITY" / "hook-failures.jsonl")


def test_a_failure_row_names_the_place_relative_to_root_and_strips_private_text(memory):
    error = IntegrityError("Invalid created timestamp for n<private>SECRET</private> in KNOWLEDGE/n.md").at(
        file="KNOWLEDGE/n.md", line=3, field="created", rule="timestamp")
    assert record_hook_failure(str(memory), "recall", error, now_ms=NOW_MS) is None
    [row] = log_of(memory)
    assert row == {"ts": iso_from_ms(NOW_MS), "hook": "recall", "code": "integrity_error",
                   "reason": "Invalid created timestamp for n in KNOWLEDGE/n.md", "file": "LIFEOS/MEMORY/KNOWLEDGE/n.md",
                   "line": 3, "field": "created", "rule": "timestamp"}
    assert oct(os.stat(memory / "OBSERVABILITY" / "hook-failures.jsonl").st_mode & 0o777) == "0o600"


def test_any_exception_is_an_internal_error_row_with_a_bounded_reason(memory):
    assert record_hook_failure(str(memory), "render", ValueError("x" * 5000), now_ms=NOW_MS) is None
    [row] = log_of(memory)
    assert row["code"] == "internal_error" and len(row["reason"]) == 300 and row["reason"].endswith("…")
    assert (row["file"], row["line"], row["field"], row["rule"]) == (None, None, None, None)


def test_the_row_model_refuses_what_the_auditor_would_not_count():
    good = hook_failure_row("2026-01-01T00:00:00.000Z", "gate", "deadline_exceeded", "late")
    assert hook_failure_problem(good) is None
    for bad in ({**good, "hook": "other"}, {**good, "ts": "2026-02-30"}, {**good, "line": 0}, {**good, "reason": ""},
                {**good, "extra": 1}, {key: value for key, value in good.items() if key != "rule"}):
        assert hook_failure_problem(bad), bad
    with pytest.raises(ValueError):
        hook_failure_row("2026-01-01", "nope", "c", "r")


def test_the_log_is_bounded_and_keeps_its_newest_rows(memory):
    folder = memory / "OBSERVABILITY"
    folder.mkdir()
    row = hook_failure_row("2026-01-01T00:00:00.000Z", "recall", "integrity_error", "old " + "x" * 200)
    line = json.dumps(row) + "\n"
    (folder / "hook-failures.jsonl").write_text(line * (MAX_LOG_BYTES // len(line) + 1))
    assert record_hook_failure(str(memory), "fire", InvalidInput("newest"), now_ms=NOW_MS) is None
    rows = log_of(memory)
    assert os.path.getsize(folder / "hook-failures.jsonl") <= KEEP_BYTES + len(line)
    assert rows[-1]["reason"] == "newest" and all(hook_failure_problem(item) is None for item in rows)


def test_a_held_lock_or_a_missing_memory_root_is_a_reason_never_an_exception(memory, tmp_path):
    folder = memory / "OBSERVABILITY"
    folder.mkdir()
    stamp = {"pid": os.getpid(), "host": socket.gethostname(), "ts": iso_from_ms(int(time.time() * 1000)), "token": "t"}
    (folder / "hook-failures.jsonl.lock").write_text(json.dumps(stamp))
    problem = record_hook_failure(str(memory), "recall", InvalidInput("x"), now_ms=NOW_MS)
    assert problem and "ELOCK_HELD" in problem and not (folder / "hook-failures.jsonl").exists()
    assert "does not exist" in record_hook_failure(str(tmp_path / "nowhere"), "recall", InvalidInput("x"))


@pytest.mark.parametrize("name,text,expected", [
    ("a.md", "---\nid: a\ndate: 2026-13-01\n---\nbody\n", ("a.md", 3, "created", "timestamp")),
    ("b.md", "---\nid: b\ncreated: 2026-01-01\nupdated: 2025-01-01\n---\nbody\n", ("b.md", 4, "updated",
                                                                                      "updated-before-created")),
    ("c.jsonl", '{"id":"c","type":"t","title":"x","created":"2026-01-01","updated":"2026-01-01","content":"c"}\n\n'
                '{"id":"d","type":"t","title":"x","created":"2026-01-01","updated":"2026-01-01"}\n',
     ("c.jsonl", 3, "content", "required-string")),
    ("e.jsonl", '{"id":"e","type":"t","title":"x","created":"2026-01-01","updated":"2026-01-01","content":"c"}\n'
                '{"id":"e","type":"t","title":"x","created":"2026-01-01","updated":"2026-01-01","content":"c"}\n',
     ("e.jsonl", 2, "id", "duplicate-id")),
    ("f.jsonl", '{"id":"f"}\nnot json\n', ("f.jsonl", 1, "type", "required-string")),
    ("g.md", "---\nid: g\n---\nline two\nbad \x01 byte\n", ("g.md", 5, None, "control-character")),
])
def test_corpus_errors_know_their_file_line_field_and_rule(memory, name, text, expected):
    (memory / "KNOWLEDGE" / name).write_text(text)
    with pytest.raises(IntegrityError) as raised:
        enumerate_canonical_corpus(str(memory))
    error = raised.value
    assert (os.path.basename(error.file), error.line, error.field, error.rule) == expected


def test_hot_lines_between_the_markers_that_are_not_entries_are_unparsed_with_their_rule():
    text = ("---\nname: x\n---\n# Title\nfree text above stays body\n<!-- BEGIN ENTRIES -->\nNAME: Ana\n"
            "* ROLE: gardener\npreference: tea\nRULE : early\nPREFRENCE: typo\njust words\n\n<!-- END ENTRIES -->\n"
            "text below stays body\n")
    parsed = parse_memory_content(text)
    assert parsed.entries == ("NAME: Ana",)
    assert [(line, text) for line, text, _rule in parsed.unparsed] == [
        (8, "* ROLE: gardener"), (9, "preference: tea"), (10, "RULE : early"), (11, "PREFRENCE: typo"),
        (12, "just words")]
    rules = [rule for _line, _text, rule in parsed.unparsed]
    assert "list marker" in rules[0] and "upper case" in rules[1] and "space before the colon" in rules[2]
    assert "did you mean PREFERENCE?" in rules[3] and "no NAME, ROLE" in rules[4]
    assert parsed.body_lines == ("# Title", "free text above stays body", "", "text below stays body")  # blank: body
    assert [row["reason"] for row in read_diagnostics(text)["dropped_invalid"]] == ["unparsed"] * 5
