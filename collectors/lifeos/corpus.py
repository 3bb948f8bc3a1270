"""Collect stage: the canonical corpus loaded exactly as `cortex search` and `cortex recall` load it. Called through health.judge.checks.

Retrieval dies with one bad note: a duplicate id or an impossible date makes every search exit 4
and every recall print nothing. So the auditor loads the corpus in-process through the read
commands' own path (cortex.invocation.Invocation: the loader, its limits, its error mapping),
read-only, in the environment the hooks get (the settings' env over the auditor's): through
the search cache when one exists for this root (its trusted entries are verified as for any
read), else straight from the files, as an uncached read does (no cache is created for it).
An integrity error is kept with what it knows of its place (file, line, field, rule:
cortex.errors), never a value.

A clean load is remembered beside the log cursors (derived data: 0600, sealed as a cursor is,
never a source of truth: a seal that does not match, such as an edited count, means loading
again), bound to the release (whose loader may refuse other things) and to every canonical
file's device, inode, size, mtime and ctime as the loader lists them, and trusted only under
the search cache's racy-file rule (each file's mtime older than the load by RACY_MARGIN_NS).
An unchanged corpus then costs a listing and an lstat per file, not a parse; any change, an
error, or no memo means loading it again.
"""
from __future__ import annotations

import os
import time

from collectors.readers.settings import hook_environment
from collectors.evidence import EvidenceStatus
from collectors.lifeos.layout import Layout
from collectors.readers.memos import DAMAGED, cursor_path, load_sealed, save_cursor
from collectors.readers.text import clip
from cortex import __version__
from cortex.errors import CortexError
from cortex.searchcache.location import db_location
from cortex.core.hookjson import dumps

NAME = "cortex-health-corpus-verdict/1"  # the memo's file: one per source, whichever release wrote it
FORMAT = f"{NAME};{__version__}"  # a release may change what the loader refuses
RACY_MARGIN_NS = 2_000_000_000  # cortex.searchcache.entries' racy-file rule: a younger file is read again


class CorpusEvidence:
    """status: EvidenceStatus (ok: loaded; malformed: refused; missing: no memory root); memory: str; records, files:
    int | None; code, message: str | None, the error the read commands answer; file: str | None, the file at fault
    (absolute); line: int | None; field, rule: str | None. How it was read (the search cache, the files, the memo)
    is left out on purpose: derived data never changes the report.
    """

    __slots__ = ("status", "memory", "records", "files", "code", "message", "file", "line", "field", "rule")

    def __init__(self, status, memory, records=None, files=None, code=None, message=None, file=None, line=None,
                 field=None, rule=None) -> None:
        self.status, self.memory, self.records, self.files, self.code = status, memory, records, files, code
        self.message, self.file, self.line, self.field, self.rule = message, file, line, field, rule


def _absolute(memory: str, file: str | None) -> str | None:
    return None if file is None else file if os.path.isabs(file) else os.path.join(memory, file)


def listing(memory: str) -> list | None:
    """[root, [path, dev, ino, size, mtime_ns, ctime_ns] per canonical file] as the loader lists them, or None when
    listing fails (the full load then reports why, with the read commands' own error)."""
    from cortex.core.corpusfiles import canonical_files, check_limits, pin_canonical_root, require_utf8_name

    try:
        require_utf8_name(memory)
        real = pin_canonical_root(memory)
        files = canonical_files(real)
        infos = check_limits(files, real)
    except (CortexError, OSError):
        return None
    return [real, [[path, i.st_dev, i.st_ino, i.st_size, i.st_mtime_ns, i.st_ctime_ns] for path, i in zip(files, infos)]]


def _remembered(where: str, files: list) -> dict | None:
    try:
        memo = load_sealed(where)  # a seal that does not match (edited counts) means loading again
        if memo["format"] != FORMAT or memo["files"] != files:
            return None
        if any(entry[4] >= memo["read_ns"] - RACY_MARGIN_NS for entry in files[1]):
            return None  # a file that may have changed within its timestamp tick: load it again
        counts = (memo["records"], memo["count"])
        return memo if all(type(value) is int and value >= 0 for value in counts) else None
    except DAMAGED:
        return None


def load(layout: Layout, environ) -> CorpusEvidence:
    """The read commands' own load: through the search cache when one exists, else from the files."""
    from cortex.invocation import Invocation  # the read commands' own loading and error mapping

    location = db_location(environ, layout.memory)
    cached = location is not None and os.path.isfile(location)
    reader = Invocation("search", {}, [], environ, memory_root_override=layout.memory)
    try:
        corpus = reader.read_corpus(index=False) if cached else reader.corpus()
        return CorpusEvidence(EvidenceStatus.OK, layout.memory, len(corpus.rows), len(corpus.files))
    except CortexError as error:
        return CorpusEvidence(EvidenceStatus.MALFORMED, layout.memory, code=error.code,
                              message=clip(error.message), file=clip(_absolute(layout.memory, error.file)),
                              line=error.line, field=clip(error.field), rule=error.rule)
    finally:
        reader.release()


def collect(layout: Layout) -> CorpusEvidence:
    if not os.path.isdir(layout.memory):
        return CorpusEvidence(EvidenceStatus.MISSING, layout.memory)  # memory-root-missing says it once
    read_ns = time.time_ns()
    files = listing(layout.memory) if layout.cursors else None
    where = cursor_path(layout.cursors, layout.memory, NAME, 0, ".verdict") if files else None
    memo = _remembered(where, files) if where else None
    if memo is not None:
        return CorpusEvidence(EvidenceStatus.OK, layout.memory, memo["records"], memo["count"])
    evidence = load(layout, hook_environment(layout.settings.env, layout.environ))
    if where and evidence.status is EvidenceStatus.OK:
        save_cursor(where, dumps({"format": FORMAT, "files": files, "read_ns": read_ns,
                                  "records": evidence.records, "count": evidence.files}).encode())
    return evidence
