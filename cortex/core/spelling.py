"""Core: the closest known spelling of a mistyped word, as the hint both CLIs append to a usage error.

Used by cortex.invocation (options), cortex.commands.hot (labels) and health.parser (options,
threshold names). difflib is imported only when a hint is asked for: never on a good command line.
"""
from __future__ import annotations

from collections.abc import Iterable


def did_you_mean(word: str, known: Iterable[str], cutoff: float = 0.6) -> str:
    """`; did you mean X?` for the nearest known spelling at least `cutoff` alike, or ''."""
    import difflib

    near = difflib.get_close_matches(word, list(known), n=1, cutoff=cutoff)
    return f"; did you mean {near[0]}?" if near else ""
