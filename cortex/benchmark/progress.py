"""Benchmark progress: a rich progress bar on stderr when stderr is a terminal; called by `cortex benchmark`.

stdout carries the one JSON envelope and nothing else; a pipe or file on stderr gets no
bar (and rich is never imported), so logs stay clean.
"""
from __future__ import annotations

import contextlib
from typing import Callable, Iterator, TextIO


@contextlib.contextmanager
def progress_bar(stream: TextIO, total: int, description: str) -> Iterator[Callable[[], None]]:
    """Yield `advance()`; draws on `stream` only if it is a TTY."""
    if not _is_tty(stream):
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(file=stream), transient=True) as progress:
        task = progress.add_task(description, total=total)
        yield lambda: progress.advance(task)


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # closed or file-like without a descriptor
        return False
