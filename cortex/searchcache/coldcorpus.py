"""Search cache loader's cold corpus: the records of a call that found no trusted entry; made by cortex.searchcache.loader and cortex.searchcache.cached.

It answers exactly as without a cache (the uncached work and answer); closing it hands the
files it read to the builder (cortex.searchcache.builder).
"""
from __future__ import annotations

import os
import time

from cortex.core.corpus import Corpus, check_unique_ids, parsed_files
from cortex.core.records import CortexRecord
from cortex.core.timestamps import iso_from_ms
from cortex.searchcache.builder import BuildJob, submit
from cortex.searchcache.entries import file_key, trusted


def read_cold(root: str, files: tuple[str, ...], infos: list[os.stat_result] | None) -> tuple[list[CortexRecord], list]:
    """Every file read as the uncached loader reads it, in its order, with its errors: (records, fresh), fresh
    being (path, stat key, read_ns, records) of each file aged past the racy margin, for the builder."""
    read_ns = time.time_ns()  # after every key was taken (the limits' lstat), before any file is read
    records: list[CortexRecord] = []
    fresh = []
    for file_no, (path, parsed) in enumerate(parsed_files(files, root)):
        records.extend(parsed)
        key = file_key(files, infos, file_no)
        if trusted(key, read_ns, key):
            fresh.append((path, key, read_ns, parsed))
    check_unique_ids(records, root)
    return records, fresh


def cold_without_store(root: str, files: tuple[str, ...], infos, path: str, clock, builds: list | None) -> ColdCorpus:
    """The first call of a cache: the uncached reads, handed to the builder, which creates the database."""
    records, fresh = read_cold(root, files, infos)
    job = BuildJob(path, root, iso_from_ms(clock()), fresh, []) if fresh else None
    return ColdCorpus(root, files, records, job, builds)


class ColdCorpus:
    """The Corpus interface over records read exactly as without a cache (a call that found no trusted
    entry: the uncached work and answer); closing it hands the files to the builder."""

    __slots__ = ("root", "files", "records", "_job", "_builds")
    full = Corpus.full
    rank = Corpus.rank
    rank_page = Corpus.rank_page

    def __init__(self, root: str, files: tuple[str, ...], records: list[CortexRecord], job: BuildJob | None,
                 builds: list | None) -> None:
        self.root, self.files, self.records, self._job, self._builds = root, files, records, job, builds

    @property
    def rows(self) -> list[CortexRecord]:
        return self.records

    def close(self) -> None:
        job, self._job = self._job, None
        if job is not None:
            submit(job, self._builds)
