"""The search cache's summary in columns (cortex.searchcache.summary, cortex.searchcache.rows): a warm call where no
file changed makes a per-file object only for what its answer shows; its rows behave as a list of rows; a sealed
summary whose columns disagree is not used (the answers are the uncached ones).

Commands run in-process (cortex.cli.run); file times are set with os.utime, never by sleeping.
"""
from __future__ import annotations

import io
import json
import marshal
import os
import sys
from pathlib import Path

import pytest

from cortex.cli import run
from cortex.core.corpus import enumerate_canonical_corpus
from cortex.core.records import active_records
from cortex.searchcache.cached import CachedCorpus
from cortex.searchcache.loader import load_corpus
from cortex.searchcache.rows import Rows
from cortex.searchcache.summary import MAGIC, SEAL_BYTES, seal

NOW = "2026-06-01T00:00:00Z"
OLD_NS = 1_700_000_000 * 10**9
FILES = 12


@pytest.fixture
def tree(tmp_path):
    memory = tmp_path / "MEMORY"
    (memory / "KNOWLEDGE").mkdir(parents=True)
    for n in range(FILES):
        path = memory / "KNOWLEDGE" / f"n{n:02}.jsonl"
        rows = [{"id": f"r{n}-{seq}", "type": "memory", "title": f"tea {n} {seq}", "created": "2026-01-01T00:00:00Z",
                 "updated": "2026-01-02T00:00:00Z", "content": f"green tea notes {n} " + "leaf " * (n + seq)}
                for seq in range(n % 3)]  # 0, 1 or 2 records: empty files share their start with the next
        if n == 7:
            rows[0]["valid_until"] = "2026-03-01T00:00:00Z"  # expired at NOW: a validity window in the columns
        path.write_text("".join(json.dumps(row) + "\n" for row in rows))
        os.utime(path, ns=(OLD_NS, OLD_NS + n))
    return memory


def environ(tmp_path, **extra) -> dict:
    return {"CORTEX_NOW": NOW, "HOME": str(tmp_path), "CORTEX_CACHE_DIR": str(tmp_path / "cache"), **extra}


def answers(memory, env) -> list:
    out = []
    for argv in (["search", "tea leaf"], ["search", "green", "--page-size", "2"], ["get", "r4-0", "r5-1"],
                 ["export", "r2-1"], ["timeline", "--anchor", "r4-0"], ["status"],
                 ["recall", "green tea leaf", "--limit", "3"]):
        err = io.StringIO()
        out.append((run([*argv, "--memory-root", str(memory)], environ=env, stderr=err), err.getvalue()))
    return out


def summarised(memory, env) -> str:
    """Fill the cache (in-process builder), then a warm call from the rows leaves the summary; its path."""
    for _ in range(2):
        assert run(["search", "tea", "--memory-root", str(memory)], environ=env)[0] == 0
    found = list(Path(env["CORTEX_CACHE_DIR"]).rglob("search.sqlite-summary"))
    assert len(found) == 1
    return str(found[0])


def loaded(memory, env) -> CachedCorpus:
    corpus = load_corpus(str(memory), env, lambda: 0, index=True, notes=[])
    assert isinstance(corpus, CachedCorpus)
    return corpus


def test_a_warm_recall_makes_objects_only_for_the_files_it_shows(tree, tmp_path):
    env = environ(tmp_path)
    summarised(tree, env)
    corpus = loaded(tree, env)
    try:
        assert isinstance(corpus.rows, Rows) and corpus.facts == [None] * FILES
        valid = active_records(corpus.rows, 1_780_000_000_000)  # a window in the columns: tested row by row
        assert [row.id for row in valid] == [row.id for row in corpus.rows if row.id != "r7-0"]
        corpus.facts = [None] * FILES  # (the test's own iteration made them) as loaded
        ranked = corpus.rank(corpus.rows, "leaf", limit=3)
        shown = corpus.full([row.record for row in ranked])
        plain = enumerate_canonical_corpus(str(tree))
        assert [(record.id, row.score) for record, row in zip(shown, ranked)] == [
            (row.record.id, row.score) for row in plain.rank(plain.rows, "leaf", limit=3)]
        made = [file_no for file_no, facts in enumerate(corpus.facts) if facts is not None]
        assert made == sorted({row.record.file_no for row in ranked}) and len(made) < 3  # only the files shown
    finally:
        corpus.close()


def test_the_rows_of_the_columns_are_the_rows_of_the_database(tree, tmp_path):
    env = environ(tmp_path)
    summary = summarised(tree, env)
    from_columns = loaded(tree, env)
    os.unlink(summary)
    from_rows = loaded(tree, env)  # the database's rows (and a summary written again on close)
    try:
        assert isinstance(from_columns.rows, Rows) and type(from_rows.rows) is list
        listed = from_rows.rows
        assert len(from_columns.rows) == len(listed)
        fields = ("id", "type", "title", "created", "updated", "path", "related", "valid_until_ms", "length",
                  "file_no", "seq")
        def view(row):
            return tuple(getattr(row, name) for name in fields)
        assert [view(row) for row in from_columns.rows] == [view(row) for row in listed]
        for index in (0, 5, -1, -len(listed)):
            assert view(from_columns.rows[index]) == view(listed[index])
        assert [view(row) for row in from_columns.rows[2:6]] == [view(row) for row in listed[2:6]]
        for index in (len(listed), -len(listed) - 1):
            with pytest.raises(IndexError):
                from_columns.rows[index]
    finally:
        from_columns.close()
        from_rows.close()


def _reseal(path: str, change) -> None:
    with open(path, "rb") as handle:
        data = handle.read()
    head, paths, keys, columns = marshal.loads(data[len(MAGIC) + SEAL_BYTES:])
    payload = marshal.dumps(change(head, paths, keys, list(columns)), 4)
    with open(path, "wb") as handle:
        handle.write(MAGIC + seal(payload) + payload)


def _column(index, value):
    def change(head, paths, keys, columns):
        columns[index] = value(columns[index])
        return head, paths, keys, tuple(columns)
    return change


def _keys(change):
    def changed(head, paths, keys, columns):
        return head, paths, marshal.dumps(change(marshal.loads(keys)), 2), tuple(columns)
    return changed


DISAGREEING = {
    "paths-one-short": lambda head, paths, keys, columns: (head, paths.rsplit("\0", 1)[0], keys, tuple(columns)),
    "keys-one-short": _keys(lambda columns: [*columns[:4], columns[4][:-1]]),
    "keys-changed": _keys(lambda columns: [[-1] + columns[0][1:], *columns[1:]]),
    "keys-not-marshal": lambda head, paths, keys, columns: (head, paths, b"\xff" + keys[1:], tuple(columns)),
    "keys-a-str": lambda head, paths, keys, columns: (head, paths, "keys", tuple(columns)),
    "columns-short": lambda head, paths, keys, columns: (head, paths, keys, tuple(columns[:-1])),
    "entry-ids-odd-bytes": _column(0, lambda value: value + b"\x00"),
    "seeds-a-list": _column(1, lambda value: ["seed"]),
    "indexed-a-str": _column(2, lambda value: "x" * len(value)),
    "counts-one-more": _column(3, lambda value: value[:-4] + (int.from_bytes(value[-4:], sys.byteorder) + 1).to_bytes(
        4, sys.byteorder)),
    "ids-a-tuple": _column(4, tuple),
    "lengths-cut": _column(5, lambda value: value[:-4]),
    "bounds-short": _column(6, lambda value: ([None], [None])),
    "heads-short": _column(7, lambda value: value[:-1]),
    "heads-of-another-type": _column(7, lambda value: ["heads"] * len(value)),
    "an-id-of-another-type": _column(4, lambda value: [1] + value[1:]),
}


@pytest.mark.parametrize("damage", sorted(DISAGREEING))
def test_a_sealed_summary_whose_columns_disagree_is_not_used(tree, tmp_path, damage):
    env = environ(tmp_path)
    uncached = answers(tree, environ(tmp_path, CORTEX_CACHE="off"))
    summary = summarised(tree, env)
    assert answers(tree, env) == uncached
    _reseal(summary, DISAGREEING[damage])
    if damage.startswith(("keys-", "paths-")) and damage != "keys-a-str":  # a changed file: keys compared one by one
        edited = tree / "KNOWLEDGE" / "n04.jsonl"
        edited.write_text(edited.read_text().replace("green", "GREEN"))
        os.utime(edited, ns=(OLD_NS, OLD_NS + 40))
        uncached = answers(tree, environ(tmp_path, CORTEX_CACHE="off"))
    assert answers(tree, env) == uncached
