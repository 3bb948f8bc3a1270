"""Issue 25: no call pays for the search cache. A call reads the files it has no entry for as an uncached
call does; the console entry point builds their entries after the answer is printed, in one detached
child holding the cache's build lock (never two at once); in-process callers build before run returns.
"""
from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import time

import pytest

from cortex.core.corpus import parse_file, pinned_files
from cortex.searchcache import builder
from tests.cortex.test_search_cache import OLD_NS, cache_status, env, rows
from tests.health_support import REPO


@pytest.fixture
def tree(tmp_path):
    memory = tmp_path / "MEMORY"
    (memory / "KNOWLEDGE").mkdir(parents=True)
    for n in range(4):
        path = memory / "KNOWLEDGE" / f"n{n}.jsonl"
        path.write_text(rows(*(f"r{n}-{i}" for i in range(20)), word="tea" if n % 2 else "coffee"))
        os.utime(path, ns=(OLD_NS, OLD_NS + n))
    return memory


def cortex(memory, environ, *argv) -> subprocess.CompletedProcess:
    """The console entry point as a hook runs it: returns once the answer is out and the output closed."""
    return subprocess.run([sys.executable, "-m", "cortex", *argv, "--memory-root", str(memory)], capture_output=True,
                          text=True, env={**os.environ, **environ, "PYTHONPATH": str(REPO)}, cwd=REPO, timeout=120,
                          stdin=subprocess.DEVNULL)


def lock_of(memory, environ) -> str:
    return cache_status(memory, environ)["path"] + builder.LOCK_SUFFIX


def wait_for_builder(memory, environ) -> None:
    """Block (no sleep) until no builder holds this cache's lock."""
    fd = os.open(lock_of(memory, environ), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    finally:
        os.close(fd)


@pytest.mark.parametrize("argv", [("search", "tea"), ("recall", "green tea notes"), ("status",), ("get", "r1-3")])
def test_the_call_answers_uncached_and_a_detached_child_builds_the_cache(tree, tmp_path, argv):
    environ = env(tmp_path)
    off = cortex(tree, {**environ, "CORTEX_CACHE": "off"}, *argv)
    first = cortex(tree, environ, *argv)
    assert (first.returncode, first.stdout, first.stderr) == (off.returncode, off.stdout, off.stderr)
    wait_for_builder(tree, environ)
    status = cache_status(tree, environ)
    assert (status["entries"], status["indexed"]) == (4, 4)  # complete after one call
    warm = cortex(tree, environ, *argv)
    assert (warm.returncode, warm.stdout, warm.stderr) == (off.returncode, off.stdout, off.stderr)


def test_a_second_builder_never_starts_while_one_holds_the_lock(tree, tmp_path):
    environ = env(tmp_path)
    off = cortex(tree, {**environ, "CORTEX_CACHE": "off"}, "search", "tea")
    os.makedirs(os.path.dirname(lock_of(tree, environ)), mode=0o700)
    holder = builder.take_lock(cache_status(tree, environ)["path"])
    assert holder is not None
    try:
        for _ in range(2):  # each call answers, and leaves the work to the builder that holds the lock
            done = cortex(tree, environ, "search", "tea")
            assert (done.returncode, done.stdout) == (off.returncode, off.stdout)
        assert cache_status(tree, environ)["indexed"] == 0
    finally:
        os.close(holder)
    cortex(tree, environ, "search", "tea")
    wait_for_builder(tree, environ)
    assert cache_status(tree, environ)["indexed"] == 4


def test_a_builder_that_dies_midway_keeps_what_it_stored(tree, tmp_path, monkeypatch):
    """The builder commits every FLUSH_EVERY_S: one killed (a reboot, an OOM) leaves the files it had done."""
    environ = env(tmp_path)
    root, files = pinned_files(str(tree))
    read_ns = time.time_ns()
    fresh = []
    for path in files:
        info = os.lstat(path)
        fresh.append((path, (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns), read_ns,
                      parse_file(path, root)))
    fresh[2] = (*fresh[2][:3], [object()])  # a value the indexer cannot take: the build ends there
    from cortex.searchcache.location import db_path

    job = builder.BuildJob(db_path(environ, root), root, "2026-06-01T00:00:00.000Z", fresh, [])
    monkeypatch.setattr(builder, "FLUSH_EVERY_S", 0.0)
    with pytest.raises(AttributeError):
        builder.build(job)
    assert cache_status(tree, environ)["indexed"] == 2
    expected = cortex(tree, {**environ, "CORTEX_CACHE": "off"}, "search", "coffee tea")
    assert cortex(tree, environ, "search", "coffee tea").stdout == expected.stdout
    wait_for_builder(tree, environ)
    assert cache_status(tree, environ)["indexed"] == 4
    assert json.loads(cortex(tree, environ, "cache", "verify").stdout)["data"]["ok"] is True
