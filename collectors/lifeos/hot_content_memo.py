"""Collect stage helper: a hot file's content verdicts, remembered by the digest of its text beside the log cursors. Used by collectors.lifeos.hot_content.

Judging the entries costs the detectors' import (their patterns compile in about 20 ms) and
about 0.1 ms an entry, on every audit, a gate on every Stop among them; yet the verdicts
depend on the file's text and the detectors alone, and a hot file changes only when it is
written. The memo keeps, per hot file, a BLAKE2b digest of its text and of the detector
modules' size and mtime (an upgrade or an edit changes them), and the verdicts: line numbers,
the rules matched (short phrases that may quote an entry's first words, privacy-stripped as
the evidence is) and dates, never whole entries: the entries shown are taken from the file as
read now. Derived data in the cursors' folder (collectors.readers.memos: sealed, 0600, written
atomically, no fsync); a memo whose seal does not match (edited, even into other valid verdicts),
damaged, foreign, stale or absent, or no folder, means judging again.
"""
from __future__ import annotations

import os

from collectors.readers.memos import DAMAGED, cursor_path, load_sealed, save_cursor
from cortex.core.sha256 import blake2b
from cortex.core.hookjson import dumps

FORMAT = "cortex-health-hot-content/1"
KINDS = ("imperative", "injection", "duplicates", "ephemeral")
_DETECTORS = ("hot_patterns", "hot_ephemera", "hot_duplicates", "hot_entry_text", "hot_content")


def _detectors_stamp() -> str:
    import cortex.core

    paths = [os.path.join(os.path.dirname(__file__), f"{name}.py") for name in _DETECTORS]
    paths.append(os.path.join(os.path.dirname(cortex.core.__file__), "tokenize.py"))
    stamp = []
    for path in paths:
        try:
            info = os.stat(path)
            stamp.append(f"{info.st_size}:{info.st_mtime_ns}")
        except OSError:
            stamp.append("?")
    return ",".join(stamp)


def memo_key(text: str) -> str:
    return blake2b(f"{_detectors_stamp()}\0{text}".encode("utf-8", "surrogatepass"),
                           digest_size=16).hexdigest()


def where(folder: str | None, hot_file: str) -> str | None:
    return None if folder is None else cursor_path(folder, hot_file, FORMAT, 0, ".content")


def load(path: str | None, hot_file: str, key: str) -> dict | None:
    """The remembered verdicts for this text, when the memo is ours and valid; None means judging again."""
    if path is None:
        return None
    try:
        memo = load_sealed(path)  # a seal that does not match (edited verdicts) means judging again
        if memo["format"] != FORMAT or memo["file"] != hot_file or memo["key"] != key:
            return None
        judged = memo["judged"]
        if all(_valid_kind(judged[kind]) for kind in KINDS) and _valid_dated(judged["dated"]):
            return judged
    except DAMAGED:
        pass
    return None


def save(path: str | None, hot_file: str, key: str, judged: dict) -> None:
    if path is not None:
        data = {"format": FORMAT, "file": hot_file, "key": key, "judged": judged}
        save_cursor(path, dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def _line(value: object) -> bool:
    return type(value) is int and 0 <= value < 1 << 31


def _valid_kind(item: object) -> bool:
    if not (type(item) is list and len(item) == 2 and _line(item[0]) and type(item[1]) is list):
        return False
    if len(item[1]) > item[0] or bool(item[1]) != bool(item[0]):
        return False  # as verdicts() writes them: the first rows of the total, some whenever there are any
    return all(type(row) is list and len(row) == 3 and _line(row[0]) and type(row[1]) is str and len(row[1]) <= 500
               and (row[2] is None or _line(row[2])) for row in item[1])


def _valid_dated(item: object) -> bool:
    return type(item) is list and all(
        type(row) is list and len(row) == 2 and _line(row[0]) and type(row[1]) is list
        and all(type(date) is str and len(date) == 10 and date[4] == "-" and date[7] == "-" for date in row[1])
        for row in item)
