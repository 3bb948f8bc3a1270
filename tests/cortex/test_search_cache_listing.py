"""The search cache's listing memo (cortex.searchcache.summary.remembered_files): a warm call takes the files of the
last walk while every folder it listed keeps its stat key and had aged past the racy margin; any name added,
removed or renamed, in any of them, and the call walks again. The answers are always the uncached ones.

Commands run in-process (cortex.cli.run); times are set with os.utime, never by sleeping.
"""
from __future__ import annotations

import io
import marshal
import os
from pathlib import Path

import pytest

from cortex.cli import run
from cortex.core.corpusfiles import canonical_files
from cortex.searchcache.summary import LISTING_MAGIC, SEAL_BYTES, remembered_files, seal

NOW = "2026-06-01T00:00:00Z"
OLD_NS = 1_700_000_000 * 10**9


def note(path: Path, words: str) -> None:
    path.write_text(f"---\nid: {path.stem}\ntitle: {words}\ncreated: 2026-01-01T00:00:00Z\n---\n{words} tea\n")
    os.utime(path, ns=(OLD_NS, OLD_NS))


def age(memory: Path) -> None:
    """Every folder of the tree last changed long ago (its ctime moves, its mtime goes back)."""
    for folder, _dirs, _files in os.walk(memory):
        os.utime(folder, ns=(OLD_NS, OLD_NS))


@pytest.fixture
def tree(tmp_path):
    memory = tmp_path / "MEMORY"
    (memory / "KNOWLEDGE" / "deep").mkdir(parents=True)
    for n in range(6):
        note(memory / "KNOWLEDGE" / ("deep" if n % 2 else "") / f"n{n}.md", f"green {n}")
    note(memory / "PRINCIPAL_MEMORY.md", "principal")
    (memory / "OBSERVABILITY").mkdir()  # where recall logs: a folder made by the first one would change the root's
    age(memory)
    return memory


def environ(tmp_path, **extra) -> dict:
    return {"CORTEX_NOW": NOW, "HOME": str(tmp_path), "CORTEX_CACHE_DIR": str(tmp_path / "cache"), **extra}


def answers(memory, env) -> list:
    out = []
    for argv in (["search", "green tea"], ["status"], ["recall", "green tea", "--limit", "3"]):
        err = io.StringIO()
        out.append((run([*argv, "--memory-root", str(memory)], environ=env, stderr=err), err.getvalue()))
    return out


def listing_of(env) -> Path:
    return next(Path(env["CORTEX_CACHE_DIR"]).rglob("search.sqlite")).with_name("search.sqlite-listing")


def warm(memory, env) -> Path:
    """Fill the cache (in-process builder): the calls with a database leave the listing memo; its path."""
    for _ in range(2):
        assert run(["search", "tea", "--memory-root", str(memory)], environ=env)[0] == 0
    return listing_of(env)


def test_a_warm_call_remembers_the_files_of_aged_folders(tree, tmp_path):
    env = environ(tmp_path)
    listing = warm(tree, env)
    real = os.path.realpath(tree)
    assert remembered_files(str(listing.with_name("search.sqlite")), real) == canonical_files(real)
    assert answers(tree, env) == answers(tree, environ(tmp_path, CORTEX_CACHE="off"))


def _added(tree):
    note(tree / "KNOWLEDGE" / "deep" / "new.md", "green added")


def _renamed(tree):
    os.rename(tree / "KNOWLEDGE" / "n0.md", tree / "KNOWLEDGE" / "n0-renamed.md")


CHANGES = {
    "a note added": _added,
    "a note removed": lambda tree: os.unlink(tree / "KNOWLEDGE" / "deep" / "n1.md"),
    "a note renamed": _renamed,
    "a folder added": lambda tree: (tree / "KNOWLEDGE" / "more").mkdir() or note(
        tree / "KNOWLEDGE" / "more" / "m.md", "green more"),
    "a hot file added": lambda tree: note(tree / "DA_MEMORY.md", "assistant"),
    "a note hidden": lambda tree: os.rename(tree / "KNOWLEDGE" / "n2.md", tree / "KNOWLEDGE" / "_n2.md"),
}


@pytest.mark.parametrize("aged", [True, False], ids=["aged-again", "just-changed"])
@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_changed_folder_is_listed_again(tree, tmp_path, change, aged):
    """A name added, removed or renamed moves the folder's ctime, even when its mtime is set back: the memo is not
    believed and the answers are the uncached ones; a new memo is left once the folders have aged."""
    env = environ(tmp_path)
    listing = warm(tree, env)
    real = os.path.realpath(tree)
    db = str(listing.with_name("search.sqlite"))
    before = remembered_files(db, real)
    CHANGES[change](tree)
    if aged:
        age(tree)
    assert remembered_files(db, real) is None
    assert answers(tree, env) == answers(tree, environ(tmp_path, CORTEX_CACHE="off"))
    assert remembered_files(db, real) == (canonical_files(real) if aged else None) != before


def test_a_file_edited_in_place_is_read_again_with_the_listing_believed(tree, tmp_path):
    env = environ(tmp_path)
    listing = warm(tree, env)
    edited = tree / "KNOWLEDGE" / "deep" / "n3.md"
    edited.write_text(edited.read_text().replace("green 3", "green 3 oolong"))
    os.utime(edited, ns=(OLD_NS + 10**9, OLD_NS + 10**9))
    real = os.path.realpath(tree)
    assert remembered_files(str(listing.with_name("search.sqlite")), real) == canonical_files(real)
    assert answers(tree, env) == answers(tree, environ(tmp_path, CORTEX_CACHE="off"))
    assert run(["search", "oolong", "--memory-root", str(tree)], environ=env)[1]["data"]["items"][0]["id"] == "n3"


def test_no_listing_is_remembered_while_a_folder_may_change_in_its_timestamp_tick(tree, tmp_path):
    os.utime(tree / "KNOWLEDGE" / "deep")  # changed just now: within the racy margin
    env = environ(tmp_path)
    assert not warm(tree, env).exists()
    assert answers(tree, env) == answers(tree, environ(tmp_path, CORTEX_CACHE="off"))


def _resealed(path: Path, change) -> None:
    data = path.read_bytes()
    payload = marshal.dumps(change(*marshal.loads(data[len(LISTING_MAGIC) + SEAL_BYTES:])), 4)
    path.write_bytes(LISTING_MAGIC + seal(payload, LISTING_MAGIC) + payload)


DAMAGE = {
    "cut": lambda path: path.write_bytes(path.read_bytes()[:-9]),
    "a flipped byte": lambda path: path.write_bytes(path.read_bytes()[:-3] + b"\x00" + path.read_bytes()[-2:]),
    "another root": lambda path: _resealed(path, lambda root, *rest: (root + "-other", *rest)),
    "listed in the racy margin": lambda path: _resealed(
        path, lambda root, read_ns, folders, keys, files: (root, OLD_NS + 10**9, folders, keys, files[:-5])),
    "a folder key of another time": lambda path: _resealed(
        path, lambda root, read_ns, folders, keys, files: (root, read_ns, folders, [
            (*key[:4], key[4] - 1) for key in keys], files.split("\0", 1)[1])),
    "a folder not a string": lambda path: _resealed(
        path, lambda root, read_ns, folders, keys, files: (root, read_ns, [0] * len(folders), keys, "")),
    "files not a string": lambda path: _resealed(
        path, lambda root, read_ns, folders, keys, files: (root, read_ns, folders, keys, files.split("\0"))),
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_or_foreign_listing_is_not_believed(tree, tmp_path, damage):
    env = environ(tmp_path)
    listing = warm(tree, env)
    DAMAGE[damage](listing)
    assert remembered_files(str(listing.with_name("search.sqlite")), os.path.realpath(tree)) is None
    assert answers(tree, env) == answers(tree, environ(tmp_path, CORTEX_CACHE="off"))
