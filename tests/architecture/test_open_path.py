"""One open path (issue 21): every module that opens a file reads it through cortex.core.safeio, or says why not.

Every file the project reads that it did not just create — evidence, canonical files and
derived state alike (cursors, memos, the checkpoint, run folders, the search cache) — is
opened without blocking, without following a symlink, refusing what is not a regular file,
and read with a bound: cortex.core.safeio (open_regular, read_bounded, iter_lines,
tail_lines). This test parses every module of the shipped packages, lists each call that
opens a file by another way, and fails on one that is not in the allow-list below, or on an
allow-list entry that no longer matches anything (so the list stays small and true).
"""
from __future__ import annotations

import ast
from pathlib import Path

from tests.health_support import REPO

PACKAGES = ("cortex", "collectors", "thresholds", "health", "reports")

# Attribute calls that open a file: os.open, io.open, Path.open, os.fdopen, Path.read_text / read_bytes,
# sqlite3.connect (and classmethods spelled like them, e.g. a store's .open, which opens a database).
OPENING_ATTRIBUTES = frozenset({"open", "fdopen", "read_text", "read_bytes", "connect"})

# (module, enclosing function, or "*" for the whole module) -> why it may open a file another way.
ALLOWED = {
    # the open helper itself
    ("cortex/core/safeio.py", "open_regular"): "the one open path",
    # files the process creates itself (O_EXCL, never through a symlink), appends and writes
    ("cortex/core/durable.py", "_written_temp"): "creates its own temp file",
    ("cortex/core/durable.py", "append_line"): "appends one line (non-blocking, no symlink, regular files only)",
    ("cortex/core/durable.py", "fsync_dir"): "a folder opened only to fsync it, never read",
    ("collectors/readers/exportcursors.py", "Staging.__init__"): "the cursor folder opened only to flock it, never read",
    ("cortex/core/flocks.py", "try_exclusive"): "a lock file or folder opened only to flock it, never read",
    ("cortex/searchcache/builder.py", "_child"): "os.devnull as the detached builder's standard streams",
    # sqlite opens a database by name, never through our fd: both callers first open or probe it and its
    # side files (-wal, -shm, -journal) as safeio does (no symlink, non-blocking, regular files only)
    ("cortex/searchcache/store.py", "Store._open_checked"): "creates or opens the cache it owns, probed, then sqlite",
    ("collectors/lifeos/search_cache.py", "_query"): "sqlite reads the database collect() probed as evidence",
    ("cortex/write/locks.py", "_write_new"): "creates the lock file",
    ("collectors/lifeos/probe/sandbox.py", "_write"): "creates a file of the probe's throw-away copy (O_EXCL, no symlink)",
    ("cortex/benchmark/output.py", "write_new_report"): "creates the result file and writes it",
    ("reports/schema.py", "write_schema"): "writes the generated JSON Schema",
    ("reports/formats/github.py", "append_summary"): "appends to $GITHUB_STEP_SUMMARY",
    ("cortex/cli.py", "main"): "os.devnull as stdout after a closed pipe",
    ("health/cli.py", "_silence_stdout"): "os.devnull as stdout after a closed pipe",
    ("health/gatechild.py", "_child"): "os.devnull as the child's stdin, and text wrappers over fds 1 and 2",
    ("health/gatedetach.py", "_detached"): "os.devnull as the detached check's standard streams",
    ("cortex/core/flocks.py", "wait_free"): "a lock file or folder opened only to wait on its flock, never read",
    ("health/serve.py", "check_once"): "os.devnull as a sink for the check's output",
}


def allowed(module: str, scope: str) -> bool:
    return (module, scope) in ALLOWED or (module, "*") in ALLOWED


def _name(call: ast.Call) -> str | None:
    """How the call opens a file (`open()`, `os.open`, `.read_text` ...), or None when it does not."""
    func = call.func
    if isinstance(func, ast.Name) and func.id == "open":
        return "open()"
    if isinstance(func, ast.Attribute) and func.attr in OPENING_ATTRIBUTES:
        owner = func.value.id if isinstance(func.value, ast.Name) else "…"
        if owner[:1].isupper() and owner != "Path":
            return None  # one of our classes (Store.open): the module that defines it is scanned for its opens
        return f"{owner}.{func.attr}"
    return None


class _Finder(ast.NodeVisitor):
    def __init__(self) -> None:
        self.scope: list[str] = []
        self.found: list[tuple[str, int, str]] = []  # (enclosing function, line, how)

    def _nested(self, node) -> None:
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _nested

    def visit_Call(self, node: ast.Call) -> None:
        how = _name(node)
        if how is not None:
            self.found.append((".".join(self.scope) or "<module>", node.lineno, how))
        self.generic_visit(node)


def opening_calls() -> dict[str, list[tuple[str, int, str]]]:
    """Every module of the shipped packages that opens a file, with where and how."""
    found = {}
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            finder = _Finder()
            finder.visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
            if finder.found:
                found[path.relative_to(REPO).as_posix()] = finder.found
    return found


def test_every_file_is_opened_through_the_one_open_path():
    calls = opening_calls()
    bypassing = [f"{module}:{line} {how} in {scope}" for module, found in calls.items()
                 for scope, line, how in found if not allowed(module, scope)]
    assert bypassing == [], "open these through cortex.core.safeio (or allow-list them, saying why):\n" + "\n".join(
        bypassing)


def test_the_allow_list_names_only_calls_that_exist():
    calls = opening_calls()
    used = {(module, name) for module, found in calls.items() for scope, _line, _how in found for name in (scope, "*")}
    assert sorted(set(ALLOWED) - used) == []


def test_the_finder_sees_each_way_of_opening_a_file():
    source = ("import os, sqlite3\nfrom pathlib import Path\n"
              "def a(p):\n    return open(p).read()\n"
              "def b(p):\n    return os.open(p, os.O_RDONLY)\n"
              "class C:\n    def c(self, p):\n        return Path(p).read_text() + Path(p).read_bytes().decode()\n"
              "def d(p):\n    return sqlite3.connect(p)\n"
              "def e(p):\n    with Path(p).open() as handle:\n        return handle.read()\n"
              "def f(p):\n    return Store.open(p)  # ours: its own module is scanned\n")
    finder = _Finder()
    finder.visit(ast.parse(source))
    assert [(scope, how) for scope, _line, how in finder.found] == [
        ("a", "open()"), ("b", "os.open"), ("C.c", "….read_text"), ("C.c", "….read_bytes"),
        ("d", "sqlite3.connect"), ("e", "….open")]
