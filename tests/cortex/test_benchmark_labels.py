"""The labeled query set: strict validation, every refusal naming its file and line."""
from __future__ import annotations

import hashlib
import json
import os

import pytest

from cortex.benchmark.labels import check_ids_exist, read_labels
from cortex.errors import InvalidInput
from cortex.core.tokenize import terms


def load(path):
    return read_labels(str(path), tokenizer=terms, max_query_chars=2048, max_query_terms=64)


GOOD = {"query": "fox dog", "expected_ids": ["a", "b"]}


def write_rows(tmp_path, *lines: str):
    path = tmp_path / "labels.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_valid_rows_are_read_in_order_with_their_lines(tmp_path):
    rows = [GOOD, {}, {"id": "q2", "query": "向量索引", "expected_ids": ["c", "d"], "expected_order": ["d", "c"], "false_ids": ["e"]}]
    path = write_rows(tmp_path, json.dumps(rows[0]), "   ", json.dumps(rows[2], ensure_ascii=False))
    label_set = load(path)
    first, second = label_set.labels
    assert (first.line, first.name, first.query, first.expected_ids, first.expected_order, first.false_ids) == (
        1, None, "fox dog", ("a", "b"), None, ())
    assert (second.line, second.name, second.expected_order, second.false_ids) == (3, "q2", ("d", "c"), ("e",))
    assert label_set.digest == hashlib.sha256(path.read_bytes()).hexdigest()
    assert label_set.path == str(path)


BAD_ROWS = [
    ("not json", "invalid JSON: Expecting value"),
    ("[1, 2]", "a row must be a JSON object"),
    ('{"query": "fox", "expected_ids": ["a"], "query": "dog"}', "duplicate key 'query'"),
    ('{"query": "fox", "expected_ids": ["a"], "score": NaN}', "non-finite number NaN"),
    ('{"query": "fox", "expected_ids": ["a"], "expected": ["b"]}', "unknown field(s) expected"),
    ('{"expected_ids": ["a"]}', "query must be a non-empty string"),
    ('{"query": "   ", "expected_ids": ["a"]}', "query must be a non-empty string"),
    ('{"query": 7, "expected_ids": ["a"]}', "query must be a non-empty string"),
    ('{"query": "?!", "expected_ids": ["a"]}', "query must have 1 to 64 searchable terms (it has 0)"),
    (json.dumps({"query": "w " * 65, "expected_ids": ["a"]}), "query must have 1 to 64 searchable terms (it has 65)"),
    (json.dumps({"query": "x" * 2049, "expected_ids": ["a"]}), "query is longer than 2048 characters"),
    ('{"query": "fox"}', "expected_ids must be a non-empty list of record IDs"),
    ('{"query": "fox", "expected_ids": []}', "expected_ids must be a non-empty list of record IDs"),
    ('{"query": "fox", "expected_ids": "a"}', "expected_ids must be a non-empty list of record IDs"),
    ('{"query": "fox", "expected_ids": ["a", ""]}', "expected_ids entries must be non-empty strings"),
    ('{"query": "fox", "expected_ids": ["a", 3]}', "expected_ids entries must be non-empty strings"),
    ('{"query": "fox", "expected_ids": ["a", "a"]}', "expected_ids lists an ID twice"),
    (json.dumps({"query": "fox", "expected_ids": [f"r{i}" for i in range(101)]}), "expected_ids has more than 100 IDs"),
    ('{"query": "fox", "expected_ids": ["a", "b"], "expected_order": ["a"]}', "expected_order needs at least two IDs"),
    ('{"query": "fox", "expected_ids": ["a"], "expected_order": ["a", "z"]}', "expected_order IDs must also be in expected_ids: z"),
    ('{"query": "fox", "expected_ids": ["a"], "expected_order": null}', "expected_order must be a list of record IDs"),
    ('{"query": "fox", "expected_ids": ["a"], "false_ids": ["a"]}', "false_ids overlap expected_ids: a"),
    ('{"query": "fox", "expected_ids": ["a"], "false_ids": "b"}', "false_ids must be a list of record IDs"),
    ('{"query": "fox", "expected_ids": ["a"], "id": ""}', "id must be a non-empty string"),
    ('{"query": "fox", "expected_ids": ["a"], "id": 5}', "id must be a non-empty string"),
    ('{"query": "fox\\u0007", "expected_ids": ["a"]}', None),  # an escaped control inside JSON is just text
    ('{"query": "fox\x07", "expected_ids": ["a"]}', "contains a control character"),
]


@pytest.mark.parametrize("bad, problem", BAD_ROWS)
def test_a_bad_row_is_refused_naming_file_and_line(tmp_path, bad, problem):
    path = write_rows(tmp_path, json.dumps(GOOD), "", bad)
    if problem is None:
        assert len(load(path).labels) == 2
        return
    with pytest.raises(InvalidInput) as caught:
        load(path)
    assert caught.value.message.startswith(f"Invalid labels file {path}, line 3: ")
    assert problem in caught.value.message


def test_duplicate_label_ids_name_both_lines(tmp_path):
    row = {**GOOD, "id": "same"}
    path = write_rows(tmp_path, json.dumps(row), json.dumps(GOOD), json.dumps(row))
    with pytest.raises(InvalidInput, match=r"line 3: duplicate label id 'same' \(first used on line 1\)"):
        load(path)


def test_invalid_utf8_names_its_line(tmp_path):
    path = tmp_path / "labels.jsonl"
    path.write_bytes(json.dumps(GOOD).encode() + b"\n" + b'{"query": "\xff"}\n')
    with pytest.raises(InvalidInput, match=r"line 2: not valid UTF-8"):
        load(path)


def test_crlf_and_byte_order_mark_are_accepted(tmp_path):
    path = tmp_path / "labels.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(GOOD).encode() + b"\r\n" + json.dumps(GOOD).encode() + b"\r\n")
    assert [label.line for label in load(path).labels] == [1, 2]


@pytest.mark.parametrize("content, message", [
    ("", "is empty"),
    ("\n  \n", "is empty"),
])
def test_empty_files_are_refused(tmp_path, content, message):
    path = tmp_path / "labels.jsonl"
    path.write_text(content)
    with pytest.raises(InvalidInput, match=message):
        load(path)


def test_unreadable_paths_are_refused(tmp_path):
    with pytest.raises(InvalidInput, match="Labels file not found"):
        load(tmp_path / "missing.jsonl")
    with pytest.raises(InvalidInput, match="not a regular file"):
        load(tmp_path)
    real = write_rows(tmp_path, json.dumps(GOOD))
    link = tmp_path / "link.jsonl"
    os.symlink(real, link)
    with pytest.raises(InvalidInput, match="symlink"):
        load(link)
    big = tmp_path / "big.jsonl"
    big.write_text((json.dumps(GOOD) + "\n") * 40_000)
    with pytest.raises(InvalidInput, match="larger than 1048576 bytes"):
        load(big)


def test_more_than_a_thousand_rows_is_refused(tmp_path):
    path = write_rows(tmp_path, *[json.dumps(GOOD)] * 1001)
    with pytest.raises(InvalidInput, match=r"more than 1000 rows \(line 1001\)"):
        load(path)


def test_ids_must_exist_in_the_corpus(tmp_path):
    path = write_rows(tmp_path, json.dumps(GOOD), json.dumps({"query": "x", "expected_ids": ["a"], "false_ids": ["ghost"]}))
    label_set = load(path)
    check_ids_exist(label_set, ["a", "b", "ghost"])
    with pytest.raises(InvalidInput, match=r"line 2: false_ids names IDs not in the corpus: ghost"):
        check_ids_exist(label_set, ["a", "b", "c"])
    with pytest.raises(InvalidInput, match=r"line 1: expected_ids names IDs not in the corpus: b"):
        check_ids_exist(label_set, ["a", "ghost"])
