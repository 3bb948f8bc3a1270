"""Benchmark instruments: count tokenizer work, sample this process (psutil) and measure disk; called by the benchmark runner and command.

These only measure; nothing here judges a number.
"""
from __future__ import annotations

import os
import stat
from typing import Callable, Iterable


class CountingTokenizer:
    """Wraps a tokenizer and counts what it is asked to tokenize.

    The ranker tokenizes the query and each record; the query is recognised by identity
    (set `query` before ranking), so the counts are observed calls, not a formula: a
    ranker that tokenized records twice, or a disclosure path that re-ranked, would show.
    """

    def __init__(self, tokenize: Callable[[str], list[str]]):
        self._tokenize = tokenize
        self.query: str | None = None
        self.query_calls = 0
        self.record_calls = 0

    def __call__(self, text: str) -> list[str]:
        if text is self.query:
            self.query_calls += 1
        else:
            self.record_calls += 1
        return self._tokenize(text)


class ProcessProbe:
    """Peak resident set size and the most descendant processes seen over `sample()` calls."""

    def __init__(self, pid: int | None = None):
        import psutil  # heavy; only the benchmark pays for it

        self._process = psutil.Process(pid)
        self.peak_rss_bytes = 0
        self.max_descendants = 0
        self.samples = 0
        self.sample()

    def sample(self) -> None:
        self.samples += 1
        self.peak_rss_bytes = max(self.peak_rss_bytes, self._process.memory_info().rss)
        self.max_descendants = max(self.max_descendants, len(self._process.children(recursive=True)))


def file_bytes(paths: Iterable[str]) -> int:
    """Total size of the given files (the canonical corpus on disk)."""
    return sum(os.lstat(path).st_size for path in paths)


def tree_bytes(top: str) -> int:
    """Total size of the regular files under `top`, never following symlinks.

    Measured before and after the run: growth means something wrote into the memory tree.
    """
    total = 0
    stack = [top]
    while stack:
        directory = stack.pop()
        try:
            with os.scandir(directory) as entries:
                for entry in entries:
                    info = entry.stat(follow_symlinks=False)
                    if stat.S_ISDIR(info.st_mode):
                        stack.append(entry.path)
                    elif stat.S_ISREG(info.st_mode):
                        total += info.st_size
        except FileNotFoundError:
            continue  # removed while we walked: it no longer occupies disk
    return total
