"""Core ranking: BM25 over canonical records, progressive-disclosure cards and graph expansion.

Called by `cortex search`, `cortex recall` and the benchmark. Each record is tokenized
exactly once per ranking (the reference tokenized twice). A one-character CJK query term
(`库`) would only match a record where that character stands alone, since longer stretches
become bigrams; its term frequency is therefore the number of times the character occurs
in the record's folded text. ASCII and multi-character terms rank exactly as before.
"""
from __future__ import annotations

import math
from _operator import attrgetter  # operator's own: its Python module costs 2.5M instructions

from cortex.core.lightstdlib import count_items  # Counter's tally without collections
from cortex.core.namedtuples import namedtuple
from cortex.core.records import CortexRecord
from cortex.core.tokenize import counting_terms, fold, is_lone_cjk, term_counts, terms as default_terms

TYPE_CHECKING = False  # typing costs the recall hook milliseconds
if TYPE_CHECKING:
    from collections.abc import Callable

_tuple_new = tuple.__new__
K1_TERM = 1.5  # tf saturation (k1)
B = 0.75  # length normalisation
_COUNT_DIRECTLY = 4  # query terms up to which list.count beats a Counter (measured: 4 vs 8 µs at 3 terms)
_COUNT_IN_BYTES = 16  # query terms up to which a scan of the text per term beats a list of its terms


def _new_ranked(_cls, record, score):
    return _tuple_new(_cls, (record, score))


class Ranked(namedtuple("Ranked", ("record", "score"), new=_new_ranked)):
    """A record (or cached head) and its score; a tuple, since a 50,000-record query builds one per match.

    record: CortexRecord | RecordHead; score: float.
    """

    __slots__ = ()


_BY_ID = attrgetter("record.id")
_BY_SCORE = attrgetter("score")


def order_ranked(ranked: list[Ranked]) -> None:
    """Best first, ties by id: two stable sorts (id, then score descending) without a key tuple per row."""
    ranked.sort(key=_BY_ID)
    ranked.sort(key=_BY_SCORE, reverse=True)


def round6(value: float) -> float:
    """Number(value.toFixed(6)): half-up on the exact binary value.

    In integers (a float is exactly n / d, d a power of two), not decimal: importing decimal costs
    the recall hook ~1.3 ms. int / int is correctly rounded, as float(Decimal) is, so the two agree
    to the bit (tests compare them, signed zeros included)."""
    if not math.isfinite(value) or abs(value) >= 1e21:  # no score; decimal's own answer (an error past 28 digits)
        from decimal import ROUND_HALF_UP, Decimal

        return float(Decimal(value).quantize(Decimal("0.000001"), rounding=ROUND_HALF_UP))
    numerator, denominator = abs(value).as_integer_ratio()
    micros, rest = divmod(numerator * 1_000_000, denominator)
    if 2 * rest >= denominator:  # half-up: away from zero on a tie
        micros += 1
    return math.copysign(micros / 1_000_000, value)


def est_tokens(record: CortexRecord) -> int:
    return record.est_tokens


def to_card(record, score: float) -> dict:
    """The card of a CortexRecord or a cached RecordHead (both carry est_tokens)."""
    return {
        "id": record.id,
        "type": record.type,
        "created": record.created,
        "updated": record.updated,
        "provenance": record.provenance,
        "score": round6(score),
        "est_tokens": record.est_tokens,
    }


def idf_of(n: int, df: int) -> float:
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


def length_norms(lengths, avg: float) -> list[float]:
    """Each record's share of the tf denominator: k1 * (1 - b + b * length / avg), as the reference writes it."""
    mean = max(1, avg)
    return [K1_TERM * (0.25 + B * length / mean) for length in lengths]


def length_norm(length: int, avg: float) -> float:
    return length_norms((length,), avg)[0]


def term_score(idf: float, tf: int, norm: float) -> float:
    return idf * tf * 2.5 / (tf + norm)


def rank_bm25(
    records: list[CortexRecord], query: str, tokenizer: Callable[[str], list[str]] = default_terms
) -> list[Ranked]:
    """Records with score > 0, best first, ties by id; statistics over `records` only."""
    query_terms = list(dict.fromkeys(tokenizer(query)))
    matches, total_length = tokenized_matches(records, query_terms, tokenizer)
    return score_bm25(query_terms, matches, len(records), total_length)


def tokenized_matches(records: list[CortexRecord], query_terms: list[str],
                      tokenizer: Callable[[str], list[str]] = default_terms,
                      lengths: list[int] | None = None) -> tuple[list[tuple], int]:
    """(record, length, {term: tf}) for each record holding a query term, and the total length of all;
    `lengths`, when given, receives every record's length in order (the search cache's unindexed files)."""
    wanted = set(query_terms)
    lone = [term for term in query_terms if is_lone_cjk(term)]
    # The production tokenizer's counts, found in the record's bytes without a string per word (term_counts):
    # for up to _COUNT_IN_BYTES terms, one scan of the text each beats tokenizing it.
    counted = counting_terms(list(wanted)) if tokenizer is default_terms and len(wanted) <= _COUNT_IN_BYTES else None
    total_length = 0
    matches: list[tuple[CortexRecord, int, dict[str, int]]] = []
    for record in records:
        text = f"{record.title} {record.content}"
        tally = None if counted is None else term_counts(text, counted)
        if tally is not None:
            length, frequencies = tally
        else:
            words = tokenizer(text)
            length = len(words)
            if len(wanted) <= _COUNT_DIRECTLY:  # a few C-level scans beat hashing every word into a Counter
                frequencies = {term: n for term in wanted if (n := words.count(term))}
            else:
                counts = count_items(words)
                frequencies = {term: counts[term] for term in wanted if term in counts}
        total_length += length
        if lengths is not None:
            lengths.append(length)
        if lone and not text.isascii():
            folded = fold(text)
            frequencies.update({term: n for term in lone if (n := folded.count(term))})
        if frequencies:
            matches.append((record, length, frequencies))
    return matches, total_length


def score_bm25(query_terms: list[str], matches: list[tuple], n: int, total_length: int) -> list[Ranked]:
    """BM25 over `n` records of `total_length` terms in all; `matches` are (record, length, {term: tf})
    for the records holding a query term. The search cache scores term by term with the same
    three formulas in the same order, so its floats are these, bit for bit."""
    df = dict.fromkeys(query_terms, 0)
    for _record, _length, frequencies in matches:
        for term in frequencies:
            df[term] += 1
    avg = total_length / max(1, n)
    idf = {term: idf_of(n, df[term]) for term in query_terms}
    ranked = scored_matches(matches, query_terms, idf, avg)
    order_ranked(ranked)
    return ranked


def scored_matches(matches: list[tuple], query_terms: list[str], idf: dict[str, float], avg: float) -> list[Ranked]:
    """Ranked(record, score) of each match (record, length, {term: tf}) whose BM25 score is positive, unordered:
    the terms are added in query-term order, as the search cache's term-by-term sums are."""
    ranked: list[Ranked] = []
    for record, length, frequencies in matches:
        score = 0.0
        norm = length_norm(length, avg)
        for term in query_terms:
            tf = frequencies.get(term, 0)
            if tf:
                score += term_score(idf[term], tf, norm)
        if score > 0:
            ranked.append(Ranked(record, score))
    return ranked


def apply_recency(ranked: list[Ranked], weight: float) -> list[Ranked]:
    """Add weight·updated_ms/1e13 to each score and re-order (lexical relevance stays primary)."""
    if weight == 0:
        return ranked  # each score + 0.0 is that score: the same list in the same order
    adjusted = [Ranked(row.record, row.score + weight * row.record.updated_ms / 1e13) for row in ranked]
    order_ranked(adjusted)
    return adjusted


def expand_graph(records: list[CortexRecord], start_id: str, max_nodes: int, max_tokens: int) -> dict | None:
    """Breadth-first over `related` from `start_id` within node and token budgets."""
    by_id = {record.id: record for record in records}
    start = by_id.get(start_id)
    if start is None:
        return None
    queue = [start]
    head = 0
    seen: set[str] = set()
    items: list[dict] = []
    spent = 0
    while head < len(queue) and len(items) < max_nodes:
        current = queue[head]
        head += 1
        if current.id in seen:
            continue
        seen.add(current.id)
        card = to_card(current, 0)
        if spent + card["est_tokens"] > max_tokens:
            break
        items.append(card)
        spent += card["est_tokens"]
        for linked_id in current.related:
            linked = by_id.get(linked_id)
            if linked is not None and linked_id not in seen:
                queue.append(linked)
    return {"items": items, "est_tokens": spent, "truncated": head < len(queue)}
