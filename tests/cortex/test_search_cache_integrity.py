"""Issue 21, defects 1-5: the search cache is a hint, never a source of truth.

A stored value moved or swapped to another key (file, sequence, term), another file or another
root fails its checksum and is rebuilt; the auditor opens the database as it opens any evidence
file (bounded, non-blocking: a FIFO never hangs it), escapes its path in sqlite's URI, and
changes nothing (no -wal/-shm left behind); `cortex cache clear` refuses a folder at the
database path precisely. Read commands run through the real CLI in-process (cortex.cli.run),
the auditor as a subprocess (a hang is what one test is about).
"""
from __future__ import annotations

import io
import json
import os
import shutil
import sqlite3
import subprocess
import sys

import pytest

from cortex.cli import run
from tests.health_support import REPO, clean_env, copy_demo, memory, run_cli

NOW = "2026-06-01T00:00:00Z"
OLD_NS = 1_700_000_000 * 10**9


def rows(*ids: str, word: str) -> str:
    return "".join(json.dumps({"id": i, "type": "memory", "title": f"{word} {i}", "created": "2026-01-01T00:00:00Z",
                               "updated": "2026-01-02T00:00:00Z", "content": f"green {word} notes about {i}"}) + "\n"
                   for i in ids)


def make_tree(base, words=("coffee", "tea", "cocoa"), prefix=""):
    """Three files of two records each (same sizes whatever the words of equal length), aged past the racy margin."""
    memory_root = base / "MEMORY"
    (memory_root / "KNOWLEDGE").mkdir(parents=True)
    for n, word in enumerate(words):
        path = memory_root / "KNOWLEDGE" / f"n{n}.jsonl"
        path.write_text(rows(f"{prefix}a{n}", f"{prefix}b{n}", word=word))
        os.utime(path, ns=(OLD_NS, OLD_NS + n))
    return memory_root


@pytest.fixture
def tree(tmp_path):
    return make_tree(tmp_path)


def env(tmp_path, **extra) -> dict:
    return {"CORTEX_NOW": NOW, "HOME": str(tmp_path), "CORTEX_CACHE_DIR": str(tmp_path / "cache"), **extra}


def call(memory_root, environ, *argv):
    err = io.StringIO()
    code, out = run([*argv, "--memory-root", str(memory_root)], environ=environ, stderr=err)
    return code, out, err.getvalue()


def uncached(memory_root, environ, *argv):
    return call(memory_root, {**environ, "CORTEX_CACHE": "off"}, *argv)[:2]


def db_of(memory_root, environ) -> str:
    code, out, _ = call(memory_root, environ, "cache", "status")
    assert code == 0, out
    return out["data"]["path"]


def file_ids(db: sqlite3.Connection) -> dict[str, int]:
    return {os.path.basename(path): file_id for file_id, path in db.execute("SELECT id, path FROM files")}


def tamper(path: str, *statements) -> None:
    with sqlite3.connect(path) as db:
        ids = file_ids(db)
        for statement in statements:
            db.execute(statement.format(**{name.split(".")[0]: value for name, value in ids.items()}))


def assert_rebuilt_and_same(memory_root, environ, argv, expected) -> None:
    """The tampered cache never gives the answer: the uncached one, one note, and a clean cache after."""
    code, out, err = call(memory_root, environ, *argv)
    assert (code, out) == expected
    assert err.count("\n") == 1 and "search cache" in err
    assert call(memory_root, environ, *argv)[:2] == expected
    verdict = call(memory_root, environ, "cache", "verify")[1]["data"]
    assert verdict["ok"] is True and verdict["verification"]["checked"] == 3


# -- defect 1: a value is bound to its key and to its file's identity ------------------------------------------------


@pytest.mark.parametrize("argv,statements", [
    # a posting moved to another file: the file's records would be found for a word they do not hold
    (("search", "coffee"), ["UPDATE postings SET file={n1} WHERE file={n0} AND term='coffee'"]),
    # postings of two files swapped (each file's own rows exchanged)
    (("search", "tea"), ["UPDATE postings SET file=-1 WHERE file={n1}", "UPDATE postings SET file={n1} WHERE file={n2}",
                         "UPDATE postings SET file={n2} WHERE file=-1"]),
    # a posting moved to another term of the same file
    (("search", "coffee"), ["UPDATE postings SET term='-' WHERE file={n0} AND term='coffee'",
                            "UPDATE postings SET term='coffee' WHERE file={n0} AND term='green'",
                            "UPDATE postings SET term='green' WHERE file={n0} AND term='-'"]),
    (("search", "coffee"), ["UPDATE postings SET term='coffee' WHERE file={n1} AND term='tea'"]),
    # a content row moved to another file: get would give another record's content
    (("get", "a1"), ["DELETE FROM contents WHERE file={n1} AND seq=0",
                     "UPDATE contents SET file={n1} WHERE file={n0} AND seq=0"]),
    # the two contents of one file swapped
    (("get", "a1", "b1"), ["UPDATE contents SET seq=-1 WHERE file={n1} AND seq=0",
                           "UPDATE contents SET seq=0 WHERE file={n1} AND seq=1",
                           "UPDATE contents SET seq=1 WHERE file={n1} AND seq=-1"]),
    # two files' facts (ids, heads) swapped with their checksums
    (("get", "a1"), ["UPDATE files SET facts=(SELECT facts FROM files WHERE id={n2}),"
                     " crc=(SELECT crc FROM files WHERE id={n2}) WHERE id={n1}"]),
    # a file's whole row given another file's path and identity
    (("get", "a0"), ["DELETE FROM files WHERE id={n0}",
                     "UPDATE files SET path=replace(path, 'n1.jsonl', 'n0.jsonl'), ino=(SELECT 0) WHERE id={n1}"]),
], ids=["posting-to-other-file", "postings-swapped", "posting-to-other-term", "posting-renamed",
        "content-to-other-file", "contents-swapped", "facts-swapped", "row-renamed"])
def test_a_moved_or_swapped_value_is_rebuilt_never_believed(tree, tmp_path, argv, statements):
    environ = env(tmp_path)
    expected = uncached(tree, environ, *argv)
    call(tree, environ, "search", "green")  # every file indexed
    path = db_of(tree, environ)
    if "ino=(SELECT 0)" in statements[-1]:  # the renamed row also takes the file's real stat key
        info = os.stat(tree / "KNOWLEDGE" / "n0.jsonl")
        statements = [statements[0], statements[1].replace(
            "ino=(SELECT 0)", f"dev={info.st_dev}, ino={info.st_ino}, size={info.st_size}, "
                              f"mtime_ns={info.st_mtime_ns}, ctime_ns={info.st_ctime_ns}")]
    tamper(path, *statements)
    assert_rebuilt_and_same(tree, environ, argv, expected)


def test_postings_of_terms_in_two_files_or_more_are_merged_per_term_after_the_build(tree, tmp_path):
    environ = env(tmp_path)
    call(tree, environ, "search", "green")
    with sqlite3.connect(db_of(tree, environ)) as db:
        merged = {term for (term,) in db.execute("SELECT term FROM merged")}
        assert db.execute("SELECT count(*) FROM stale").fetchone()[0] == 0
    assert {"green", "notes", "about"} <= merged and not merged & {"coffee", "tea", "cocoa", "a0"}


@pytest.mark.parametrize("statements", [
    ["UPDATE merged SET data = zeroblob(length(data)) WHERE term='green'"],  # damaged
    ["UPDATE merged SET term='-' WHERE term='green'", "UPDATE merged SET term='green' WHERE term='notes'",
     "UPDATE merged SET term='notes' WHERE term='-'"],  # two terms' rows swapped
    ["UPDATE merged SET data = substr(data, 1, 12) WHERE term='green'", "UPDATE merged SET crc=0 WHERE term='green'"],
    ["UPDATE merged SET data = 'text' WHERE term='green'"],
], ids=["damaged", "swapped", "cut", "text"])
def test_a_damaged_merged_row_is_rebuilt_never_believed(tree, tmp_path, statements):
    environ = env(tmp_path)
    expected = uncached(tree, environ, "search", "green notes")
    call(tree, environ, "search", "green")
    tamper(db_of(tree, environ), *statements)
    assert_rebuilt_and_same(tree, environ, ("search", "green notes"), expected)


def test_without_merged_rows_the_per_file_rows_answer(tree, tmp_path):
    environ = env(tmp_path)
    expected = uncached(tree, environ, "search", "green notes")
    call(tree, environ, "search", "green")
    tamper(db_of(tree, environ), "DELETE FROM merged")
    assert call(tree, environ, "search", "green notes") == (*expected, "")


def test_rows_moved_between_the_caches_of_two_roots_are_rebuilt(tmp_path):
    """Two roots whose files have the same names, sizes and record counts: one cache's values (checksums
    and all) put under the other's keys are refused, for search and for get."""
    one = make_tree(tmp_path / "one", words=("coffee", "tea", "cocoa"), prefix="x")
    two = make_tree(tmp_path / "two", words=("sugary", "pie", "jelly"), prefix="y")
    for name in ("n0", "n1", "n2"):  # the same identity where it can be: size and times
        assert (one / "KNOWLEDGE" / f"{name}.jsonl").stat().st_size == (two / "KNOWLEDGE" / f"{name}.jsonl").stat().st_size
    environ = env(tmp_path)
    for root in (one, two):
        call(root, environ, "search", "green")
    path_one, path_two = db_of(one, environ), db_of(two, environ)
    expected = {argv: uncached(one, environ, *argv) for argv in (("search", "pie"), ("get", "xa1"))}
    with sqlite3.connect(path_one) as db:
        db.execute("ATTACH DATABASE ? AS other", (path_two,))
        ids_one = file_ids(db)
        ids_two = {os.path.basename(p): i for i, p in db.execute("SELECT id, path FROM other.files")}
        for name, file_id in ids_one.items():  # every posting and content of two, under one's file ids
            db.execute("DELETE FROM postings WHERE file=?", (file_id,))
            db.execute("INSERT INTO postings SELECT term, ?, data, crc FROM other.postings WHERE file=?",
                       (file_id, ids_two[name]))
            db.execute("DELETE FROM contents WHERE file=? AND seq=1", (file_id,))
            db.execute("INSERT INTO contents SELECT ?, seq, content, crc FROM other.contents WHERE file=? AND seq=1",
                       (file_id, ids_two[name]))
    assert_rebuilt_and_same(one, environ, ("search", "pie"), expected["search", "pie"])
    with sqlite3.connect(path_one) as db:
        db.execute("ATTACH DATABASE ? AS other", (path_two,))
        ids_one, ids_two = file_ids(db), {os.path.basename(p): i for i, p in db.execute("SELECT id, path FROM other.files")}
        db.execute("UPDATE files SET facts=(SELECT facts FROM other.files WHERE id=?), crc=(SELECT crc FROM other.files"
                   " WHERE id=?) WHERE id=?", (ids_two["n1.jsonl"], ids_two["n1.jsonl"], ids_one["n1.jsonl"]))
    assert_rebuilt_and_same(one, environ, ("get", "xa1"), expected["get", "xa1"])


def test_another_roots_whole_cache_in_place_changes_no_answer(tmp_path):
    one = make_tree(tmp_path / "one", words=("coffee", "tea", "cocoa"), prefix="x")
    two = make_tree(tmp_path / "two", words=("sugary", "pie", "jelly"), prefix="y")
    environ = env(tmp_path)
    for root in (one, two):
        call(root, environ, "search", "green")
    path_one, path_two = db_of(one, environ), db_of(two, environ)
    shutil.copyfile(path_two, path_one)
    for argv in (("search", "pie"), ("search", "tea"), ("get", "xa1")):
        assert call(one, environ, *argv)[:2] == uncached(one, environ, *argv)
    assert call(one, environ, "cache", "verify")[1]["data"]["ok"] is True


# -- defects 2-4: the auditor reads the cache like evidence, and changes nothing -------------------------------------


def built_cache(root, environ) -> str:
    """The demo tree's search cache, filled by a real search (files aged past the racy margin); its path."""
    for current, _dirs, files in os.walk(memory(root) / "KNOWLEDGE"):
        for name in files:
            os.utime(os.path.join(current, name), ns=(OLD_NS, OLD_NS))
    code, out = run(["search", "memory", "--memory-root", str(memory(root))], environ=environ)
    assert code == 0, out
    code, out = run(["cache", "status", "--memory-root", str(memory(root))], environ=environ)
    assert out["data"]["entries"] > 0, out
    return out["data"]["path"]


def audit_evidence(root, environ) -> dict:
    result = run_cli("--json", root=root, env=environ, timeout=60)
    return result.report["evidence"]["search_cache"]


def listing(folder) -> dict[str, int]:
    return {name: os.lstat(os.path.join(folder, name)).st_size for name in sorted(os.listdir(folder))}


@pytest.mark.parametrize("odd", ["a?b", "c#d", "e%20f", "g%3Fh?i#j"])
def test_the_audit_escapes_the_database_path(tmp_path, odd):
    root = copy_demo(tmp_path)
    cache_dir = tmp_path / odd / "cache"
    environ = clean_env(CORTEX_CACHE_DIR=str(cache_dir))
    built_cache(root, environ)
    before = sorted(os.listdir(tmp_path)), sorted(os.listdir(tmp_path / odd))
    evidence = audit_evidence(root, environ)
    assert evidence["state"] == "present" and evidence["entries"] > 0, evidence
    assert (sorted(os.listdir(tmp_path)), sorted(os.listdir(tmp_path / odd))) == before  # no stray file beside it


def test_two_audits_change_nothing_and_report_the_same_size(tmp_path):
    root = copy_demo(tmp_path)
    environ = clean_env(CORTEX_CACHE_DIR=str(tmp_path / "cache"))
    path = built_cache(root, environ)
    code, out = run(["cache", "status", "--memory-root", str(memory(root))], environ=environ)
    folder = os.path.dirname(path)
    before = listing(folder)
    first, second = audit_evidence(root, environ), audit_evidence(root, environ)
    assert listing(folder) == before  # no -wal, no -shm, nothing resized
    assert first["bytes"] == second["bytes"] == out["data"]["bytes"] == sum(before.values())
    assert first["state"] == second["state"] == "present"


@pytest.mark.parametrize("kind", ["fifo", "wal-fifo", "symlink", "directory"])
def test_the_audit_never_hangs_on_what_sits_at_the_database_path(tmp_path, kind):
    root = copy_demo(tmp_path)
    environ = clean_env(CORTEX_CACHE_DIR=str(tmp_path / "cache"))
    path = built_cache(root, environ)
    if kind == "wal-fifo":  # a live writer's WAL and shared memory, the WAL a FIFO
        shutil.copyfile(path, path + "-shm")
        os.mkfifo(path + "-wal")
    else:
        os.unlink(path)
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "symlink":
            os.symlink(tmp_path / "elsewhere.sqlite", path)
        else:
            os.mkdir(path)
    try:
        evidence = audit_evidence(root, environ)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the audit hangs on a {kind} at the cache's database path")
    assert evidence["state"] == "unreadable" and evidence["status"] == "unreadable", evidence
    assert path in json.dumps(evidence)
    # and the read commands still answer, without the cache
    search = [sys.executable, "-m", "cortex", "search", "memory", "--memory-root", str(memory(root))]
    done = subprocess.run(search, capture_output=True, text=True, env=environ, cwd=REPO, timeout=60,
                          stdin=subprocess.DEVNULL)
    off = subprocess.run(search, capture_output=True, text=True, env={**environ, "CORTEX_CACHE": "off"}, cwd=REPO,
                         timeout=60, stdin=subprocess.DEVNULL)
    assert (done.returncode, done.stdout) == (off.returncode, off.stdout)


# -- defect 5: clear names a path it cannot remove -------------------------------------------------------------------


def test_clear_refuses_a_folder_at_the_database_path_precisely(tree, tmp_path):
    environ = env(tmp_path)
    call(tree, environ, "search", "tea")
    path = db_of(tree, environ)
    os.unlink(path)
    os.makedirs(os.path.join(path, "inside"))
    code, out, _ = call(tree, environ, "cache", "clear")
    assert (code, out["error"]["code"]) == (4, "integrity_error")
    assert path in out["error"]["message"]
    assert os.path.isdir(os.path.join(path, "inside"))  # nothing of it removed
