"""Merged postings after an edit: the builder splices the edited files into each term's merged row
(cortex.searchcache.merged.splice_merged) and the result is the row a full merge makes from the per-file rows."""
from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from cortex.cli import run
from cortex.searchcache.store import Store

NOW = "2026-06-01T00:00:00Z"
PAST_NS = 1_700_000_000 * 10**9  # far older than the racy margin: the cache trusts what it reads


def _write(path: Path, ids: list[str], words: str, tick: int) -> None:
    rows = [json.dumps({"id": record_id, "type": "note", "title": record_id, "created": "2026-01-02T00:00:00Z",
                        "updated": "2026-01-03T00:00:00Z", "content": f"{words} {record_id}", "related": []})
            for record_id in ids]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    os.utime(path, ns=(PAST_NS, PAST_NS + tick * 10**9))


def _merged(db_path: Path) -> dict[str, tuple[bytes, int]]:
    with sqlite3.connect(db_path) as db:
        return {term: (data, crc) for term, data, crc in db.execute("SELECT term, data, crc FROM merged")}


def _remerged(db_path: Path) -> dict[str, tuple[bytes, int]]:
    store = Store.open(str(db_path), [])
    try:
        store.merge(everything=True)
    finally:
        store.close()
    return _merged(db_path)


@pytest.fixture
def cached(tmp_path):
    knowledge = tmp_path / "MEMORY" / "KNOWLEDGE"
    knowledge.mkdir(parents=True)
    for n in range(5):
        _write(knowledge / f"f{n}.jsonl", [f"r{n}a", f"r{n}b"], f"alpha tea shared{n % 2} green", n)
    environ = {"CORTEX_NOW": NOW, "HOME": str(tmp_path), "CORTEX_CACHE_DIR": str(tmp_path / "cache")}

    def search() -> dict:
        return run(["search", "alpha tea", "--memory-root", str(tmp_path / "MEMORY")], environ=environ)

    search()  # the call reads, the builder stores and merges
    search()
    [db_path] = (tmp_path / "cache").rglob("search.sqlite")
    return knowledge, search, db_path


def test_an_edit_splices_the_merged_rows_into_what_a_full_merge_makes(cached):
    knowledge, search, db_path = cached
    before = _merged(db_path)
    assert {"alpha", "tea", "green", "shared0", "shared1"} <= set(before)  # terms of two files or more
    _write(knowledge / "f1.jsonl", ["r1a", "r1c"], "alpha green shared0", 20)  # tea and shared1 leave this file
    (knowledge / "f3.jsonl").unlink()  # shared1 is now in one file: its row goes
    _write(knowledge / "f9.jsonl", ["r9a"], "tea fresh newword", 21)
    answer = search()
    after = _merged(db_path)
    assert after != before and "shared1" not in after and "alpha" in after
    assert after == _remerged(db_path)  # the same rows, byte for byte, as from every per-file row
    assert search() == answer


def test_a_damaged_merged_row_is_merged_again_from_the_per_file_rows(cached):
    knowledge, search, db_path = cached
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE merged SET data = data || x'00000000' WHERE term = 'alpha'")  # fails its checksum
    _write(knowledge / "f0.jsonl", ["r0a"], "alpha tea", 30)
    search()
    after = _merged(db_path)
    assert "alpha" in after and after == _remerged(db_path)


def test_the_write_itself_keeps_each_touched_terms_merged_row_spliced(cached):
    """Within the write's transaction (no merge after it): the rows of the edited file's terms are already the full
    merge's, and only a term that had no row (one file before) waits in the stale list."""
    from cortex.core.corpus import parse_file
    from cortex.searchcache.entries import index_records, new_entry, stat_key

    knowledge, _search, db_path = cached
    path = knowledge / "f2.jsonl"
    _write(path, ["r2a"], "alpha green lonely", 40)
    records = parse_file(str(path), str(knowledge.parent))
    lengths, postings = index_records(records)
    store = Store.open(str(db_path), [])
    try:
        root = store.meta()["root"]
        store.write([new_entry(str(path), stat_key(os.lstat(path)), PAST_NS + 50 * 10**9, records, lengths, postings)],
                    {"written_at": NOW, "root": root})
        with sqlite3.connect(db_path) as db:
            stale = {row[0] for row in db.execute("SELECT term FROM stale")}
    finally:
        store.close()
    written = _merged(db_path)
    assert "alpha" in written and "tea" in written and "lonely" not in written
    assert stale == {"lonely", "r2a", "r2b"}  # terms of one file, before or after: no row, left to the builder
    assert written == {term: row for term, row in _remerged(db_path).items() if term in written}
