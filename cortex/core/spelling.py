"""Core: the closest known spelling of a mistyped word, as the hint both CLIs append to a usage error.

Used by cortex.invocation (options), cortex.commands.hot (labels), health.parser (options,
threshold names), health.explain (finding ids) and health.setup_snippets (targets). difflib is
imported only when a hint is asked for: never on a good command line.
"""
from __future__ import annotations

TYPE_CHECKING = False  # annotations only: collections.abc costs every hook's start-up ~0.4M instructions
if TYPE_CHECKING:
    from collections.abc import Iterable


def nearest(word: str, known: Iterable[str], n: int = 1, cutoff: float = 0.6) -> list[str]:
    """Up to `n` known spellings at least `cutoff` alike to `word`, the closest first."""
    import difflib

    return difflib.get_close_matches(word, list(known), n=n, cutoff=cutoff)


def did_you_mean(word: str, known: Iterable[str], cutoff: float = 0.6) -> str:
    """`; did you mean X?` for the nearest known spelling at least `cutoff` alike, or ''."""
    near = nearest(word, known, cutoff=cutoff)
    return f"; did you mean {near[0]}?" if near else ""
