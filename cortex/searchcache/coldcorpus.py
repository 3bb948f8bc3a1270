"""Search cache loader's cold corpus: the records of a call that found no trusted entry; made by cortex.searchcache.loader.

It answers exactly as without a cache (the uncached work and answer); closing it hands the
files it read to the builder (cortex.searchcache.builder).
"""
from __future__ import annotations

from cortex.core.corpus import Corpus
from cortex.core.records import CortexRecord
from cortex.searchcache.builder import BuildJob, submit


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
