"""Search cache loader: the corpus of the read commands and `cortex recall`, from the search cache or fresh reads.

Called through cortex.invocation.Invocation.read_corpus and cortex.hot.retrieval. The
files, the metadata limits and their order are cortex.core.corpus's. With a database, the
cached corpus (cortex.searchcache.cached) takes each file from its trusted entry or a fresh
read. Without one (just installed, after `cortex cache clear`) the call reads the files as an
uncached call does and leaves creating the database to the builder: it loads no sqlite and no
cache reader, so the first call costs what an uncached one does.
"""
from __future__ import annotations

import os
import time

from cortex.core.corpus import canonical_files_stats, enumerate_canonical_corpus, pinned_root
from cortex.searchcache.location import db_path

TYPE_CHECKING = False  # annotations only
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping


def load_corpus(root: str, environ: Mapping[str, str], clock: Callable[[], int], *, index: bool, notes: list[str],
                builds: list | None = None):
    """The corpus of `root`: a CachedCorpus; a ColdCorpus when no file has a trusted entry (the uncached
    reads, handed to the builder on close); a plain Corpus when there is no usable cache.
    `index` asks for entries that can rank and give content (search, recall, get, export); `builds`, when
    given, receives the build work instead of it running at close (builder.submit)."""
    root_real = pinned_root(root)
    path = db_path(environ, root_real)
    if path is None:
        return enumerate_canonical_corpus(root_real)
    remembered, folders, read_ns = None, None, 0
    if os.path.lexists(path):  # a database: the listing memo beside it may hold the files (summary.remembered_files)
        from cortex.searchcache.summary import remembered_files

        remembered, folders, read_ns = remembered_files(path, root_real), [], time.time_ns()
    files, infos = canonical_files_stats(root_real, remembered, folders)
    if folders and index:  # walked by names: remembered for the next call (the audit leaves the folder as it is)
        from cortex.searchcache.summary import remember_files

        remember_files(path, root_real, read_ns, folders, files)
    if not os.path.lexists(path):  # no database yet (installed, cleared): creating one (its schema, sqlite's syncs)
        from cortex.searchcache.coldcorpus import cold_without_store

        return cold_without_store(root_real, tuple(files), infos, path, clock, builds)  # is the builder's work
    from cortex.searchcache.cached import load_cached  # sqlite and the cache's readers: only with a database

    return load_cached(root_real, tuple(files), infos, path, clock, notes, builds, index)
