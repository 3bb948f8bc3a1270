"""The search cache's own rules: the racy-file rule, private files, damage and foreign versions rebuilt
with at most one note, unusable locations, concurrent callers, `cortex cache`, and rebuild never using it.

Commands run in-process (cortex.cli.run); file times are set with os.utime, never by sleeping.
"""
from __future__ import annotations

import io
import json
import os
import sqlite3
import stat
import threading

import pytest

from cortex.cli import run

NOW = "2026-06-01T00:00:00Z"
OLD_NS = 1_700_000_000 * 10**9


def rows(*ids: str, word: str = "tea") -> str:
    return "".join(json.dumps({"id": i, "type": "memory", "title": f"{word} {i}", "created": "2026-01-01T00:00:00Z",
                               "updated": "2026-01-02T00:00:00Z", "content": f"green {word} notes about {i}"}) + "\n"
                   for i in ids)


@pytest.fixture
def tree(tmp_path):
    memory = tmp_path / "MEMORY"
    (memory / "KNOWLEDGE").mkdir(parents=True)
    for n in range(3):
        path = memory / "KNOWLEDGE" / f"n{n}.jsonl"
        path.write_text(rows(f"a{n}", f"b{n}", word="tea" if n else "coffee"))
        os.utime(path, ns=(OLD_NS, OLD_NS + n))
    return memory


def env(tmp_path, **extra) -> dict:
    return {"CORTEX_NOW": NOW, "HOME": str(tmp_path), "CORTEX_CACHE_DIR": str(tmp_path / "cache"), **extra}


def call(memory, environ, *argv):
    err = io.StringIO()
    code, out = run([*argv, "--memory-root", str(memory)], environ=environ, stderr=err)
    return code, out, err.getvalue()


def cache_status(memory, environ) -> dict:
    code, out, _ = call(memory, environ, "cache", "status")
    assert code == 0, out
    return out["data"]


def db_file(memory, environ) -> str:
    return cache_status(memory, environ)["path"]


def test_aged_files_are_cached_private_and_fresh_ones_are_not_until_they_age(tree, tmp_path):
    environ = env(tmp_path)
    uncached = call(tree, {**environ, "CORTEX_CACHE": "off"}, "search", "tea")
    assert call(tree, environ, "search", "tea") == uncached
    status = cache_status(tree, environ)
    assert (status["entries"], status["indexed"], status["source_of_truth"]) == (3, 3, False)
    assert stat.S_IMODE(os.stat(status["path"]).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(os.path.dirname(status["path"])).st_mode) == 0o700
    fresh = tree / "KNOWLEDGE" / "new.jsonl"
    fresh.write_text(rows("c1"))  # mtime now: within the racy margin of any read now
    assert call(tree, environ, "search", "tea") == call(tree, {**environ, "CORTEX_CACHE": "off"}, "search", "tea")
    assert cache_status(tree, environ)["entries"] == 3
    os.utime(fresh, ns=(OLD_NS, OLD_NS + 10))
    call(tree, environ, "search", "tea")
    assert cache_status(tree, environ)["entries"] == 4


def test_same_size_rewrite_within_the_racy_margin_is_read_again(tree, tmp_path):
    environ = env(tmp_path)
    path = tree / "KNOWLEDGE" / "n1.jsonl"
    path.write_text(rows("a1", "b1", word="tea"))
    before = path.stat()
    first = call(tree, environ, "search", "tea")
    path.write_text(rows("a1", "b1", word="pie"))  # same size
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    second = call(tree, environ, "search", "pie")
    assert second == call(tree, {**environ, "CORTEX_CACHE": "off"}, "search", "pie")
    assert second[1]["data"]["total"] == 2 and first[1]["data"]["total"] == 4


def test_status_keeps_indexes_empty_and_rebuild_never_touches_the_cache(tree, tmp_path):
    environ = env(tmp_path)
    code, out, _ = call(tree, environ, "rebuild", "--from-canonical")
    assert code == 0 and out["data"]["equivalent"] is True
    assert not (tmp_path / "cache").exists()
    code, out, _ = call(tree, environ, "status")
    assert out["data"]["indexes"] == [] and out["data"]["canonical"]["records"] == 6


@pytest.mark.parametrize("damage", ["garbage", "truncated", "blob"])
def test_a_damaged_cache_is_rebuilt_with_one_note_and_the_same_answer(tree, tmp_path, damage):
    environ = env(tmp_path)
    expected = call(tree, {**environ, "CORTEX_CACHE": "off"}, "search", "tea")
    call(tree, environ, "search", "tea")
    path = db_file(tree, environ)
    if damage == "garbage":
        with open(path, "r+b") as handle:
            handle.write(b"not a database at all" * 50)
    elif damage == "truncated":
        size = os.path.getsize(path)
        os.truncate(path, size // 2 + 100)
    else:
        with sqlite3.connect(path) as db:
            db.execute("UPDATE files SET facts = substr(facts, 1, length(facts) - 3) || x'000000'")
    code, out, err = call(tree, environ, "search", "tea")
    assert (code, out) == expected[:2]
    assert err.count("\n") <= 1 and ("search cache" in err or damage == "truncated")
    assert call(tree, environ, "search", "tea")[:2] == expected[:2]
    assert cache_status(tree, environ)["entries"] == 3  # rebuilt


def test_a_foreign_version_is_replaced_silently(tree, tmp_path):
    environ = env(tmp_path)
    call(tree, environ, "search", "tea")
    with sqlite3.connect(db_file(tree, environ)) as db:
        db.execute("UPDATE meta SET value='cortex-search-cache/0' WHERE key='schema'")
    code, out, err = call(tree, environ, "status")
    assert code == 0 and err == ""
    from cortex.searchcache.store import SCHEMA_VERSION

    assert cache_status(tree, environ)["schema"] == SCHEMA_VERSION


@pytest.mark.parametrize("where", ["file", "dbdir"])
def test_an_unusable_location_means_no_cache_not_a_failure(tree, tmp_path, where):
    environ = env(tmp_path)
    expected = call(tree, {**environ, "CORTEX_CACHE": "off"}, "search", "tea")
    if where == "file":
        (tmp_path / "cache").write_text("a file where the cache folder should be")
    else:
        os.makedirs(db_file(tree, environ))  # a folder where the database should be
    assert call(tree, environ, "search", "tea") == expected
    assert call(tree, environ, "status")[0] == 0


def test_verify_finds_a_wrong_entry_and_removes_it(tree, tmp_path):
    environ = env(tmp_path)
    call(tree, environ, "search", "tea")
    code, out, _ = call(tree, environ, "cache", "verify")
    assert code == 0 and out["data"]["ok"] is True and out["data"]["verification"]["checked"] == 3
    from cortex.searchcache.entries import identity, posting_crc

    with sqlite3.connect(db_file(tree, environ)) as db:  # a wrong value with a right checksum
        data = bytes([1, 0, 0, 0, 9, 0, 0, 0])
        file_id, path, *key, read_ns = db.execute(
            "SELECT id, path, dev, ino, size, mtime_ns, ctime_ns, read_ns FROM files WHERE id=(SELECT min(file)"
            " FROM postings WHERE term='tea')").fetchone()
        db.execute("UPDATE postings SET data=?, crc=? WHERE term='tea' AND file=?",
                   (data, posting_crc(data, "tea", identity(path, tuple(key), read_ns)), file_id))
    code, out, _ = call(tree, environ, "cache", "verify")
    assert out["data"]["ok"] is False and out["data"]["verification"]["mismatched_count"] == 1
    assert cache_status(tree, environ)["entries"] == 2
    assert cache_status(tree, environ)["last_verification"]["ok"] is False


def test_clear_removes_the_roots_cache(tree, tmp_path):
    environ = env(tmp_path)
    call(tree, environ, "status")
    path = db_file(tree, environ)
    code, out, _ = call(tree, environ, "cache", "clear")
    assert code == 0 and out["data"]["removed"] is True and not os.path.exists(path)
    assert cache_status(tree, environ)["exists"] is False
    assert call(tree, {**environ, "CORTEX_CACHE": "off"}, "cache", "status")[1]["data"]["enabled"] is False


def test_concurrent_callers_all_get_the_uncached_answer(tree, tmp_path):
    environ = env(tmp_path)
    expected = {q: call(tree, {**environ, "CORTEX_CACHE": "off"}, "search", q)[:2] for q in ("tea", "coffee")}
    results, failures = [], []

    def worker(query: str) -> None:
        for _ in range(6):
            try:
                results.append((query, call(tree, environ, "search", query)[:2]))
            except Exception as error:  # noqa: BLE001 - reported below
                failures.append(error)

    threads = [threading.Thread(target=worker, args=(q,)) for q in ("tea", "coffee", "tea", "coffee")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures
    assert len(results) == 24 and all(answer == expected[query] for query, answer in results)
    code, out, _ = call(tree, environ, "cache", "verify")
    assert out["data"]["ok"] is True


def test_the_inlined_score_is_term_score():
    """cortex.searchcache.ranking writes term_score out in its loop: the same value, bit for bit."""
    import inspect

    from cortex.core.search import term_score
    from cortex.searchcache import ranking

    assert "idf * tf * 2.5 / (tf + norm[seq])" in inspect.getsource(ranking._score_per_file)
    assert "idf * tf * 2.5 / (tf + norm[place])" in inspect.getsource(ranking._score_flat)
    assert "idf * tf * 2.5 / (tf + norm)" in inspect.getsource(term_score)
    for idf, tf, norm in ((0.1, 1, 0.7), (3.3, 17, 2.25), (1e-9, 4000, 0.375)):
        assert (lambda seq: idf * tf * 2.5 / (tf + [norm][seq]))(0) == term_score(idf, tf, norm)


def test_concurrent_processes_share_the_cache_safely(tree, tmp_path):
    """Two real processes filling and reading one cache at once: every answer is the uncached one."""
    import subprocess
    import sys

    environ = {**os.environ, **env(tmp_path)}
    expected = call(tree, {**environ, "CORTEX_CACHE": "off"}, "search", "tea")[1]
    script = ("import json, sys\nfrom cortex.cli import run\n"
              "print(json.dumps([run(['search', 'tea', '--memory-root', sys.argv[1]])[1] for _ in range(4)]))")
    children = [subprocess.Popen([sys.executable, "-c", script, str(tree)], stdout=subprocess.PIPE, env=environ)
                for _ in range(3)]
    answers = [json.loads(child.communicate(timeout=120)[0]) for child in children]
    assert all(child.returncode == 0 for child in children)
    assert all(answer == expected for batch in answers for answer in batch)
    assert call(tree, environ, "cache", "verify")[1]["data"]["ok"] is True


def test_files_without_an_entry_are_ranked_as_uncached_and_stored_after_the_answer(tree, tmp_path):
    """A call with some files cached and some not (a new file, a CJK one) counts the query's terms in
    the fresh ones as the uncached path does: the answers never change, and the files it read are
    indexed once it has answered (in-process: before run returns), so the next call is warm."""
    environ = env(tmp_path)
    off = {**environ, "CORTEX_CACHE": "off"}
    call(tree, environ, "search", "tea")
    assert cache_status(tree, environ)["indexed"] == 3
    cjk = tree / "KNOWLEDGE" / "n3.jsonl"
    cjk.write_text(rows("c3", word="茶") + rows("d3", word="tea 茶会"))
    os.utime(cjk, ns=(OLD_NS, OLD_NS + 3))
    queries = (("search", "tea"), ("search", "green notes about b1 coffee tea a2 c3 d3"), ("search", "茶"),
               ("search", "会"), ("search", "tea", "--limit", "2"), ("recall", "green tea"), ("get", "c3", "a1"))
    indexed = []
    for argv in queries:
        assert call(tree, environ, *argv) == call(tree, off, *argv), argv
        indexed.append(cache_status(tree, environ)["indexed"])
    assert indexed == [4] * len(queries)


def test_the_auditor_and_cache_status_count_the_same_files(tree, tmp_path):
    """One definition of the cache's size (cortex.searchcache.location.cache_bytes) for both."""
    from collectors.lifeos import search_cache
    from collectors.lifeos.layout import Layout
    from cortex.searchcache.location import cache_bytes

    environ = env(tmp_path)
    call(tree, environ, "search", "tea")
    status = cache_status(tree, environ)
    layout = Layout.for_root(str(tmp_path / "root"), environ=environ)._replace(memory=str(tree))
    assert search_cache.collect(layout).bytes == status["bytes"] > 0
    side = tmp_path / "side" / "search.sqlite"  # the database and every side file: WAL, shared memory, journal
    side.parent.mkdir()
    for suffix, size in (("", 10), ("-wal", 20), ("-shm", 40), ("-journal", 80), ("-other", 160)):
        side.with_name(side.name + suffix).write_bytes(b"x" * size)
    assert cache_bytes(str(side)) == 150


def test_the_summary_is_written_by_a_warm_call_used_while_current_and_replaced_after_a_write(tree, tmp_path):
    """cortex.searchcache.summary: one sealed file beside the database, bound to its generation."""
    environ = env(tmp_path)
    off = {**environ, "CORTEX_CACHE": "off"}
    uncached = call(tree, off, "search", "tea")
    assert call(tree, environ, "search", "tea") == uncached  # cold: fills the database, no summary yet
    summary = db_file(tree, environ) + "-summary"
    assert not os.path.exists(summary)
    assert call(tree, environ, "search", "tea") == uncached  # warm from the rows: leaves their summary
    first = os.lstat(summary)
    assert stat.S_IMODE(first.st_mode) == 0o600 and first.st_size > 0
    with open(summary, "rb") as handle:
        written = handle.read()
    assert call(tree, environ, "search", "tea") == uncached  # warm from the summary: nothing rewritten
    assert os.lstat(summary).st_mtime_ns == first.st_mtime_ns
    edited = tree / "KNOWLEDGE" / "n1.jsonl"
    edited.write_text(rows("a1", "b1", "z1", word="tea"))
    os.utime(edited, ns=(OLD_NS, OLD_NS + 20))
    assert call(tree, environ, "search", "tea") == call(tree, off, "search", "tea")  # the edit read; the builder stores it
    assert call(tree, environ, "search", "tea") == call(tree, off, "search", "tea")  # a new generation: a new summary
    with open(summary, "rb") as handle:
        assert handle.read() != written
    assert call(tree, environ, "cache", "clear")[0] == 0
    assert not os.path.exists(summary)
