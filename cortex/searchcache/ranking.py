"""Search cache ranking: BM25 from stored postings, term by term; called by cortex.searchcache.loader.CachedCorpus.rank.

Only the postings of the query's terms are read. The statistics (n, total length, df) are
those of `rows` (the narrowed, valid records) plus the uncached `extra` records, and each
record's score adds the same per-term values as cortex.core.search.score_bm25 (its
length_norm and term_score), in the same query-term order, so the floats (and so the
envelopes) are identical to an uncached ranking.
"""
from __future__ import annotations

from cortex.core.search import Ranked, idf_of, length_norm, order_ranked, term_score, tokenized_matches
from cortex.core.tokenize import is_lone_cjk, terms
from cortex.searchcache.entries import LONE, Row

_SHIFT = 32  # a record's key: file_no << 32 | seq
_SEQ = (1 << _SHIFT) - 1


def rank_postings(rows: list, query: str, files: list, postings_of, extra: list = (), everything: bool = False) -> list[Ranked]:
    """`postings_of(keys)` yields (file_no, key, (seq, tf) pairs) for every file of `files`;
    `everything` says `rows` is the whole corpus (no membership test needed)."""
    query_terms = list(dict.fromkeys(terms(query)))
    lone = {term for term in query_terms if is_lone_cjk(term)}
    tfs: dict[str, dict[int, int]] = {term: {} for term in query_terms}
    lone_tfs: dict[str, dict[int, int]] = {term: {} for term in lone}
    for file_no, key, pairs in postings_of(query_terms + [LONE + term for term in lone]):
        target = lone_tfs[key[1:]] if key.startswith(LONE) else tfs[key]
        target.update(zip(map((file_no << _SHIFT).__or__, pairs[0::2]), pairs[1::2]))
    for term, counts in lone_tfs.items():
        tfs[term].update(counts)  # in text that is not ASCII a lone CJK term counts every occurrence
    if everything:
        total_length = sum(sum(facts.lengths) for facts in files)
        chosen = None
    else:
        chosen = {(row.facts.file_no << _SHIFT) | row.seq: row for row in rows}
        total_length = sum(row.length for row in rows)
        tfs = {term: {key: tf for key, tf in counts.items() if key in chosen} for term, counts in tfs.items()}
    extra = list(extra)
    extra_matches, extra_length = tokenized_matches(extra, query_terms)
    n = len(rows) + len(extra)
    avg = (total_length + extra_length) / max(1, n)
    df = {term: len(tfs[term]) for term in query_terms}
    for _record, _length, frequencies in extra_matches:
        for term in frequencies:
            df[term] += 1
    idfs = {term: idf_of(n, df[term]) for term in query_terms}
    scores: dict[int, float] = {}
    norms: dict[int, float] = {}
    for term in query_terms:
        idf = idfs[term]
        for key, tf in tfs[term].items():
            norm = norms.get(key)
            if norm is None:
                norm = norms[key] = length_norm(files[key >> _SHIFT].lengths[key & _SEQ], avg)
            scores[key] = scores.get(key, 0.0) + term_score(idf, tf, norm)
    if chosen is None:
        ranked = [Ranked(Row(files[key >> _SHIFT], key & _SEQ), score) for key, score in scores.items() if score > 0]
    else:
        ranked = [Ranked(chosen[key], score) for key, score in scores.items() if score > 0]
    for record, length, frequencies in extra_matches:
        score = 0.0
        norm = length_norm(length, avg)
        for term in query_terms:
            tf = frequencies.get(term, 0)
            if tf:
                score += term_score(idfs[term], tf, norm)
        if score > 0:
            ranked.append(Ranked(record, score))
    order_ranked(ranked)
    return ranked
