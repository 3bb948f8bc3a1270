"""Test helper (issue 21): tamper with derived state and compare the answer with the one given without it.

Derived state (a cache, a cursor, a memo, a checkpoint, a marker) is a hint, never a source of
truth. A kind of derived state is one `Kind` row: how to build a tree that holds it, which
files it is, what a valid edit of it looks like, and the answer it must never change (through
the real CLI, with timeouts, so a hang fails instead of stalling the suite). Every tamper below
is applied to every kind:

  edited     still valid (JSON, sqlite), other values       truncated  cut to half its size
  swapped    the same kind's file from another tree          fifo       a FIFO in its place
  directory  a folder in its place                           symlink    a link to the other tree's file
  newer      its mtime a year after its source's

A tamper that damages the state must give the answer of the tree with that state deleted; one
that does not (newer) must give the answer of the intact tree; and for a pure cache the two are
the same. Some derived state is also a witness (the history checkpoint records the head a cut
tail would lose; a replay marker, that a replay happened), so deleting it changes the verdict:
damage must then look exactly like its absence, never better. A link is never followed to
write: the other tree's file stays as it was.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.health_support import NOW, NOW_MS, REPO, clean_env

TIMEOUT_S = 20  # per command: a hang fails the case instead of stalling the suite
YEAR_NS = 365 * 24 * 3600 * 10**9
DAMAGING = ("edited", "truncated", "swapped", "fifo", "directory", "symlink")
HARMLESS = ("newer",)
TAMPERS = DAMAGING + HARMLESS


@dataclass(frozen=True)
class Built:
    """A tree holding derived state: its root, the environment its commands run with, and any names an answer needs."""

    root: Path
    env: dict[str, str]
    names: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Kind:
    """One kind of derived state (one row of the table in tests/collectors/test_tamper_derived.py)."""

    name: str
    build: Callable[[Path, int], Built]  # (an empty folder, variant 0 or 1) -> a tree with this state; 1 differs
    files: Callable[[Built], dict[str, Path]]  # label -> file; a label names the same file in every tree
    edit: Callable[[Path], None]  # rewrite the file into other valid content
    answer: Callable[[Built], Any]  # what the state must never change; leaves the tree as it found it
    cache: bool = True  # False: also a witness (deleting it changes the answer), so harmless tampers keep the intact one
    leftovers: Callable[[Built], list[Path]] = lambda built: []  # files that go with it (sqlite's -wal, -shm)
    movable: bool = False  # the state does not depend on where the tree is: each case copies one tree built once
    xfail: Mapping[str, str] = field(default_factory=dict)  # tamper -> reason, for a fix landing on another branch


def remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif os.path.lexists(path):
        path.unlink()


def snapshot(files: dict[str, Path]) -> dict[str, bytes]:
    return {label: path.read_bytes() for label, path in files.items()}


def restore(files: dict[str, Path], saved: dict[str, bytes], leftovers: list[Path]) -> None:
    for path in leftovers:
        remove(path)
    for label, path in files.items():
        remove(path)
        path.write_bytes(saved[label])
        path.chmod(0o600)


def tamper(name: str, kind: Kind, path: Path, other: Path) -> None:
    """Apply tamper `name` to `path`; `other` is the same kind's file in another tree."""
    if name == "edited":
        kind.edit(path)
    elif name == "truncated":
        os.truncate(path, path.stat().st_size // 2)
    elif name == "swapped":
        path.write_bytes(other.read_bytes())
    elif name == "newer":
        later = NOW_MS * 1_000_000 + YEAR_NS
        os.utime(path, ns=(later, later))
    else:
        path.unlink()
        {"fifo": os.mkfifo, "directory": os.mkdir, "symlink": lambda p: os.symlink(other, p)}[name](path)


def run(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    """A command of ours in a subprocess: never a traceback, never past TIMEOUT_S."""
    done = subprocess.run([sys.executable, *argv], capture_output=True, text=True, env=env, cwd=REPO,
                          timeout=TIMEOUT_S, stdin=subprocess.DEVNULL)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def audit_report(built: Built, *, publish: bool = False, extra: tuple[str, ...] = ()) -> dict:
    """The whole audit report (published to the health log only when asked; `extra` options) minus its timing."""
    now = built.names.get("now", NOW)
    done = run(["-m", "health", "--root", str(built.root), "--now", now, "--json",
                *(() if publish else ("--no-write",)), *extra], built.env)
    assert done.returncode in (0, 1, 2), done.stderr
    report = json.loads(done.stdout)
    report.pop("duration_ms", None)
    return report


def cortex_data(built: Built, *argv: str) -> tuple[int, Any]:
    """A cortex command's exit code and envelope data (or error code)."""
    done = run(["-m", "cortex", *argv, "--root", str(built.root)], built.env)
    envelope = json.loads(done.stdout)
    return done.returncode, envelope["data"] if envelope["ok"] else envelope["error"]["code"]


def builders_done(built: Built) -> None:
    """Block until no detached search-cache builder of the tree's cache folder runs (each holds its lock)."""
    import fcntl

    for lock in (Path(built.env["CORTEX_CACHE_DIR"]) / "search").rglob("*-build.lock"):
        fd = os.open(lock, os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        finally:
            os.close(fd)


def copied(template: Built, built_in: Path, folder: Path) -> Built:
    """The tree `template` (built in folder `built_in`) copied into `folder`, its paths moved along."""
    shutil.copytree(built_in, folder, symlinks=True, dirs_exist_ok=True)

    def moved(text: str) -> str:
        return text.replace(str(built_in), str(folder))

    return Built(Path(moved(str(template.root))), {key: moved(value) for key, value in template.env.items()},
                 template.names)


def check(kind: Kind, name: str, folder: Path, other: Built, template: tuple[Built, Path] | None = None) -> None:
    """Build (or copy the `template` of a movable kind), then compare the answer after tamper `name` with the one it
    must equal."""
    built = copied(*template, folder) if template else kind.build(folder, 0)
    files = kind.files(built)
    saved = snapshot(files)
    for path in [*files.values(), *kind.leftovers(built)]:
        remove(path)
    deleted = kind.answer(built)
    restore(files, saved, kind.leftovers(built))
    expected = deleted
    if name in HARMLESS and not kind.cache:
        expected = kind.answer(built)
        restore(files, saved, kind.leftovers(built))
    others = kind.files(other)
    before = snapshot(others)
    for label, path in files.items():
        tamper(name, kind, path, others[label])
    answer = kind.answer(built)
    assert answer == expected, f"{kind.name}, {name}: the answer changed\n" + difference(expected, answer)
    assert snapshot(others) == before, f"{kind.name}, {name}: the other tree's state was written through"


def difference(expected: Any, found: Any) -> str:
    import difflib

    lines = [json.dumps(value, indent=1, sort_keys=True, default=str).splitlines() for value in (expected, found)]
    return "\n".join(list(difflib.unified_diff(*lines, "expected", "found", lineterm=""))[:60])


def cache_env(folder: Path) -> dict[str, str]:
    """The environment of a tree built in `folder`: its caches in folder/cache."""
    return clean_env(CORTEX_CACHE_DIR=str(folder / "cache"))


def audited(folder: Path, root: Path) -> Built:
    """The tree at `root`, audited once: it holds the audit's cursors and memos."""
    built = Built(root, cache_env(folder))
    audit_report(built)  # leaves the cursors and memos of this tree
    return built


def memos_of(built: Built, suffix: str, fmt: str, label: Callable[[dict], str], kind: str = "audit") -> dict[str, Path]:
    """The files with `suffix` in the cache's `kind` folder that are memos of format `fmt`, by `label(memo)`."""
    found = {}
    for path in sorted((Path(built.env["CORTEX_CACHE_DIR"]) / kind).rglob(f"*{suffix}")):
        memo = json.loads(path.read_bytes())
        if memo["format"] == fmt:
            found[label(memo)] = path
    return found
