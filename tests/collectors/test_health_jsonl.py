"""The streaming JSONL reader: every malformed shape is named with its line, nothing blocks or hangs."""
from __future__ import annotations

import os

import pytest

from collectors.readers.jsonl import MAX_REPORTED_LINES, scan_jsonl
from health.judge.model import EvidenceStatus
from cortex.core.strictjson import parse_object


def scan(path, **kwargs):
    rows = []
    result = scan_jsonl(str(path), lambda line, row: rows.append((line, row)), **kwargs)
    return result, rows


@pytest.mark.parametrize("raw,reason", [
    (b"null", "not a JSON object (null)"),
    (b"[1]", "not a JSON object (array)"),
    (b'"text"', "not a JSON object (string)"),
    (b'{"a": NaN}', "non-finite number NaN"),
    (b'{"a": -Infinity}', "non-finite number -Infinity"),
    (b'{"a": 1, "a": 2}', "duplicate key 'a'"),
    (b'{"a": "\xff"}', "invalid UTF-8 at byte 7"),
    (b"[" * 100_000, "invalid JSON: nested too deeply"),
    (b'{"a": ' + b"9" * 5000 + b"}", "invalid JSON: number too long"),
])
def test_parse_object_names_the_reason(raw, reason):
    assert parse_object(raw) == reason


def test_malformed_lines_are_numbered_and_good_rows_still_visited(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"n": 1}\n\nnull\n{"n": 2}\r\n{bad\n{"n": 3}')
    result, rows = scan(path)
    assert [line for line, _ in rows] == [1, 4, 6]
    assert [(m.line, m.reason.split(":")[0]) for m in result.malformed] == [(3, "not a JSON object (null)"),
                                                                             (5, "invalid JSON")]
    assert result.status is EvidenceStatus.MALFORMED and result.rows == 3


def test_over_long_line_is_malformed_not_loaded(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"n": 1}\n' + b'{"pad": "' + b"x" * 3000 + b'"}\n{"n": 2}\n')
    result, rows = scan(path, max_line_bytes=1024)
    assert [line for line, _ in rows] == [1, 3]
    assert result.malformed[0].line == 2 and "longer than 1024 bytes" in result.malformed[0].reason


def test_malformed_list_is_bounded_but_total_is_exact(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_text("x\n" * 500)
    result, _ = scan(path)
    assert len(result.malformed) == MAX_REPORTED_LINES and result.malformed_total == 500


@pytest.mark.parametrize("make,status,reason", [
    (lambda p: None, EvidenceStatus.MISSING, None),
    (lambda p: p.mkdir(), EvidenceStatus.UNREADABLE, "not a regular file (directory)"),
    (lambda p: os.mkfifo(p), EvidenceStatus.UNREADABLE, "not a regular file (FIFO)"),
    (lambda p: os.symlink("/dev/zero", p), EvidenceStatus.UNREADABLE, "is a symlink (evidence must be a regular file)"),
])
def test_non_regular_paths_are_refused_without_blocking(tmp_path, make, status, reason):
    path = tmp_path / "log.jsonl"
    make(path)
    result, rows = scan(path)
    assert (result.status, result.file.reason, rows) == (status, reason, [])


def test_symlinked_folder_escaping_the_anchor_is_refused(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "log.jsonl").write_text('{"n": 1}\n')
    anchor = tmp_path / "M"
    anchor.mkdir()
    os.symlink(outside, anchor / "O")
    result, rows = scan(anchor / "O" / "log.jsonl", anchor=str(anchor))
    assert result.status is EvidenceStatus.UNREADABLE and "resolves outside" in result.file.reason and rows == []


def test_escapes_agrees_with_comparing_the_two_realpaths(tmp_path):
    """The shortcut for paths plainly below the anchor answers as resolving both paths does, symlinks or not."""
    from cortex.core.safepaths import is_within
    from collectors.readers.fsprobe import escapes

    outside, anchor = tmp_path / "outside", tmp_path / "M"
    (outside / "deep").mkdir(parents=True)
    (anchor / "O" / "runs").mkdir(parents=True)
    (anchor / "O" / "log.jsonl").write_text("{}\n")
    os.symlink(outside, anchor / "out")  # leads outside
    os.symlink(anchor / "O", anchor / "alias")  # leads inside
    os.symlink(anchor, tmp_path / "M-link")  # the anchor itself reached through a symlink
    os.symlink(anchor / "O" / "log.jsonl", anchor / "O" / "linked.jsonl")
    names = ["O/log.jsonl", "O/runs", "O", "O/absent/x.jsonl", "O/log.jsonl/x", "out/x.jsonl", "out/deep",
             "alias/log.jsonl", "O/../out/x", "O/./log.jsonl", "O//log.jsonl", "O/linked.jsonl", "../outside/deep"]
    for base in (anchor, tmp_path / "M-link"):
        for anchor_text in (str(base), str(base) + "/"):
            for name in names:
                path = f"{base}/{name}"
                expected = not is_within(os.path.realpath(anchor_text), os.path.realpath(path))
                assert (escapes(path, anchor_text) is not None) == expected, (path, anchor_text)
    assert "resolves outside" in escapes(f"{anchor}/out/deep", str(anchor))
