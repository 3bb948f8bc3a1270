"""Search cache ranking: BM25 from stored postings, term by term and file by file; called by cortex.searchcache.loader.CachedCorpus.rank.

Only the postings of the query's terms are read. The statistics (n, total length, df) are
those of `rows` (the narrowed, valid records) plus the uncached `extra` records, and each
record's score adds the same per-term values as cortex.core.search.score_bm25 (its
length_norms and term_score), in the same query-term order, so the floats (and so the
envelopes) are identical to an uncached ranking. Scores live in one list per file, indexed
by the record's place in it: no per-posting dictionary work.
"""
from __future__ import annotations

import heapq
import math
from array import array
from bisect import bisect_right

from cortex.core.search import Ranked, idf_of, length_norms, order_ranked, scored_matches, tokenized_matches
from cortex.core.tokenize import is_lone_cjk, terms
from cortex.searchcache.entries import LONE, Row


def rank_postings(rows: list, query: str, files: list, postings_of, extra: list = (), everything: bool = False,
                  limit: int | None = None, counted: bool = False):
    """`postings_of(keys)` yields (file_no, key, (seq, tf) pairs) for every file of `files`;
    `everything` says `rows` is the whole corpus (no membership test needed); `limit`: only the best
    that many (the head of the full order); `counted`: (that list, how many rows scored above 0)."""
    query_terms = list(dict.fromkeys(terms(query)))
    lone = {term for term in query_terms if is_lone_cjk(term)}
    found = _postings(postings_of, query_terms, lone)
    if everything:
        bases, lengths = _flat_lengths(files)
        total_length = sum(lengths)
    else:
        allowed = {}
        for row in rows:
            allowed.setdefault(row.facts.file_no, set()).add(row.seq)
        total_length = sum(row.length for row in rows)
        found = {term: {file_no: _kept(pairs, allowed.get(file_no, ())) for file_no, pairs in per_file.items()}
                 for term, per_file in found.items()}
    extra = list(extra)
    extra_matches, extra_length = tokenized_matches(extra, query_terms)
    n = len(rows) + len(extra)
    avg = (total_length + extra_length) / max(1, n)
    df = {term: sum(len(pairs) // 2 for pairs in found[term].values()) for term in query_terms}
    for _record, _length, frequencies in extra_matches:
        for term in frequencies:
            df[term] += 1
    idfs = {term: idf_of(n, df[term]) for term in query_terms}
    if everything:
        ranked, positives = _score_flat(files, bases, lengths, query_terms, found, idfs, avg, extra_matches, limit)
    else:
        scores = _score_per_file(files, query_terms, found, idfs, avg)
        extra_ranked = scored_matches(extra_matches, query_terms, idfs, avg)  # the uncached records, as search scores
        floor, positives = _floor([score for total in scores.values() for score in total if score > 0], extra_ranked,
                                  limit)
        ranked = [Ranked(Row(files[file_no], seq), score) for file_no, total in scores.items()
                  for seq, score in enumerate(total) if score > floor]
        ranked += [row for row in extra_ranked if row.score > floor]
    order_ranked(ranked)
    if limit is not None:
        ranked = ranked[:limit]
    return (ranked, len(ranked) if positives is None else positives) if counted else ranked


def _score_per_file(files: list, query_terms: list[str], found: dict, idfs: dict, avg: float) -> dict[int, list]:
    """Per file holding a query term, each record's score (a list indexed by its place in the file)."""
    scores: dict[int, list[float]] = {}
    norms: dict[int, list[float]] = {}
    for term in query_terms:  # term by term: each record's sum is added up in query-term order
        idf = idfs[term]
        for file_no, pairs in found[term].items():
            if file_no not in scores:
                scores[file_no] = [0.0] * len(files[file_no].ids)
                norms[file_no] = length_norms(files[file_no].lengths, avg)
            total, norm = scores[file_no], norms[file_no]
            # term_score(idf, tf, norm) written out: this loop runs once per posting (350,000 times for a
            # prompt at 50,000 records) and the call costs a third of it; test_search_cache_properties
            # and test_the_inlined_score_is_term_score keep the two the same expression.
            for seq, tf in zip(pairs[0::2], pairs[1::2]):
                total[seq] += idf * tf * 2.5 / (tf + norm[seq])
    return scores


def _flat_lengths(files: list) -> tuple[list[int], array]:
    """Where each file's records start in the corpus's order, and every record's token count in that order."""
    bases, lengths = [], array("i")
    for facts in files:
        bases.append(len(lengths))
        lengths.extend(facts.lengths)
    return bases, lengths


def _score_flat(files: list, bases: list[int], lengths: array, query_terms: list[str], found: dict, idfs: dict,
                avg: float, extra_matches: list, limit: int | None) -> tuple[list, int | None]:
    """_score_per_file's sums for the whole corpus in one list (the order of _flat_lengths), then the Ranked
    rows above the cut and _floor's count. One list and one set of norms for all records: no list, norms
    call or dictionary lookup per file and term (a warm recall at 1,500 one-record files meets each file
    once per term)."""
    total = [0.0] * len(lengths)
    norm = length_norms(lengths, avg)
    for term in query_terms:  # term by term: each record's sum is added up in query-term order
        idf = idfs[term]
        for file_no, pairs in found[term].items():
            base = bases[file_no]
            for seq, tf in zip(pairs[0::2], pairs[1::2]):
                place = base + seq  # term_score written out, as in _score_per_file
                total[place] += idf * tf * 2.5 / (tf + norm[place])
    extra_ranked = scored_matches(extra_matches, query_terms, idfs, avg)
    floor, positives = _floor([score for score in total if score > 0], extra_ranked, limit)
    ranked = []
    for place, score in enumerate(total):
        if score > floor:
            file_no = bisect_right(bases, place) - 1  # the last file starting at or before it (empty files share)
            ranked.append(Ranked(Row(files[file_no], place - bases[file_no]), score))
    ranked += [row for row in extra_ranked if row.score > floor]
    return ranked, positives


def _floor(positive: list[float], extra_ranked: list[Ranked], limit: int | None) -> tuple[float, int | None]:
    """A score every one of the best `limit` rows beats (0 when all are wanted), and how many rows scored
    above 0 (None when all are wanted: they are all kept): only the rows that can make the cut become
    Ranked tuples, and ties at the cut all stay in, so the order is the full one. `positive`: the corpus's
    scores above 0."""
    if limit is None:
        return 0.0, None
    positive += [row.score for row in extra_ranked]
    if len(positive) <= limit:
        return 0.0, len(positive)
    return math.nextafter(heapq.nlargest(limit, positive)[-1], -math.inf), len(positive)


def _postings(postings_of, query_terms: list[str], lone: set[str]) -> dict[str, dict[int, array]]:
    """Per query term, per file, its (seq, tf) pairs; a lone CJK term's count replaces its token count
    where the record's text is not ASCII (as cortex.core.search.tokenized_matches does)."""
    found: dict[str, dict[int, array]] = {term: {} for term in query_terms}
    lone_found: dict[str, dict[int, array]] = {term: {} for term in lone}
    for file_no, key, pairs in postings_of(query_terms + [LONE + term for term in lone]):
        (lone_found[key[1:]] if key.startswith(LONE) else found[key])[file_no] = pairs
    for term, per_file in lone_found.items():
        for file_no, pairs in per_file.items():
            merged = dict(zip(found[term].get(file_no, array("I"))[0::2], found[term].get(file_no, array("I"))[1::2]))
            merged.update(zip(pairs[0::2], pairs[1::2]))
            found[term][file_no] = array("I", [value for seq in sorted(merged) for value in (seq, merged[seq])])
    return found


def _kept(pairs: array, allowed) -> array:
    return array("I", [value for seq, tf in zip(pairs[0::2], pairs[1::2]) if seq in allowed for value in (seq, tf)])
