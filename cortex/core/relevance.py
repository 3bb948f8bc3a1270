"""Prompt stage (stdlib only): which ranked records a prompt hook may inject; used by cortex.hot.retrieval and the benchmark.

`cortex recall` runs on every prompt, and a prompt is a sentence, not a query: its "and",
"in" and "what" match almost every note. So the hook ranks only the prompt's content terms
(STOPWORDS removed: a record must share at least one other term to score at all) and injects
a record only when its BM25 score clears the relevance floor: at least `min_share` of the
best record's score (a note that merely shares a common verb with the prompt scores far
below the note the prompt is about) and at least `min_score`. The absolute `min_score` is
off by default: a BM25 score has no fixed scale (a word in every note of a small corpus
scores near 0, the same word among 50,000 notes near 10), so a fixed floor would silence a
new user's two-note memory; set it for a large corpus. `cortex search` is the read contract
and keeps ranking every term, as the reference does.
"""
from __future__ import annotations

import math

from cortex.errors import InvalidInput

# (option, environment variable, default, upper bound). The defaults are the strictest that lose no expected
# record on the three labelled sets (fixtures/recall, fixtures/cjk, fixtures/bench-demo: docs/benchmarks.md):
# a relevant note can score a sixth of the best one (a CJK bigram or two), so the share stays low; an absolute
# floor up to 1.5 changes nothing there, and any at all hides a word every note of a tiny corpus holds.
SETTINGS = {"min_score": ("--min-score", "CORTEX_RECALL_MIN_SCORE", 0.0, math.inf),
            "min_share": ("--min-share", "CORTEX_RECALL_MIN_SHARE", 0.15, 1.0)}

# English function words (NLTK's list, and the pieces `[a-z0-9]+` makes of contractions:
# don't -> don, t). Content words, digits and every non-English term are kept.
STOPWORDS = frozenset("""
a about above after again against ain all am an and any are aren as at be because been before being below
between both but by can couldn d did didn do does doesn doing don down during each few for from further had
hadn has hasn have haven having he her here hers herself him himself his how i if in into is isn it its itself
just ll m ma me mightn more most mustn my myself needn no nor not now o of off on once only or other our ours
ourselves out over own re s same shan she should shouldn so some such t than that the their theirs them
themselves then there these they this those through to too under until up ve very was wasn we were weren what
when where which while who whom why will with won wouldn y you your yours yourself yourselves
""".split())


class Floor:
    """The relevance floor: min_score (a BM25 score >= 0), min_share (0 to 1, of the best record's score). (Not a
    named tuple: nothing uses it as one, and its class cost every prompt ~0.4M instructions.)"""

    __slots__ = ("min_score", "min_share")

    def __init__(self, min_score: float, min_share: float) -> None:
        self.min_score, self.min_share = min_score, min_share


DEFAULT_FLOOR = Floor(*(default for _option, _env, default, _high in SETTINGS.values()))


def content_terms(terms: list[str]) -> list[str]:
    """The terms of a prompt that can make a record relevant: every term but the stopwords, in order."""
    return [term for term in terms if term not in STOPWORDS]


def floor_from(options: dict, environ) -> Floor:
    """Each setting from its option, else its variable, else its default; invalid_input if it is not a number in
    range written in ASCII digits."""
    values = []
    for option, variable, default, high in SETTINGS.values():
        values.append(_setting(option, options.get(option), high) if options.get(option) is not None
                      else _setting(variable, environ.get(variable), high) if (environ.get(variable) or "").strip()
                      else default)
    return Floor(*values)


def _setting(name: str, raw: str, high: float) -> float:
    from cortex.core.numbers import ascii_decimal  # here: a prompt without a floor setting parses no number

    value = ascii_decimal(raw.strip())
    if value is None or not math.isfinite(value) or not 0 <= value <= high:
        bound = "" if high == math.inf else f" and <= {high:g}"
        raise InvalidInput(f"{name} must be a number >= 0{bound} in ASCII digits, got {raw[:40]!r}")
    return float(value)


def relevant(ranked: list, floor: Floor) -> list:
    """The ranked rows (best first) that clear the floor."""
    if not ranked:
        return []
    cut = max(floor.min_score, floor.min_share * ranked[0].score)
    return [row for row in ranked if row.score >= cut]
