"""Search cache ranking: BM25 from stored postings, term by term; called by cortex.searchcache.cached.CachedCorpus.rank.

Only the postings of the query's terms are read. The statistics (n, total length, df) are
those of `rows` (the narrowed, valid records) plus the uncached `extra` records, and each
record's score adds the same per-term values as cortex.core.search.score_bm25 (its
length_norms and term_score), in the same query-term order, so the floats (and so the
envelopes) are identical to an uncached ranking. A term's postings come in chunks of three
columns (file numbers, seqs, tfs): a per-file row or a term's merged row (cortex.searchcache.merged);
each record appears at most once per term, so the chunks' order changes no sum.
"""
from __future__ import annotations

import heapq
import math
from _functools import partial  # functools' and operator's own: their Python modules load collections
from _bisect import bisect_right  # bisect.py re-exports it: 0.4M instructions less
from _operator import lt
from itertools import chain, compress

from cortex.core.lightstdlib import array_type
from cortex.core.search import Ranked, idf_of, length_norms, order_ranked, scored_matches, tokenized_matches
from cortex.core.tokenize import is_lone_cjk, terms
from cortex.searchcache.entries import LONE, Row

array = array_type()  # without collections (cortex.core.lightstdlib)


def rank_postings(rows, query: str, facts_of, flat, postings_of, extra: list = (), everything: bool = False,
                  limit: int | None = None, counted: bool = False):
    """`facts_of(file_no)`: a file's entries.FileFacts (made only for the files a row is ranked from);
    `flat()`: (where each file's records start in the corpus's order, every record's token count in that order,
    as flat_lengths gives them); `postings_of(keys)` yields (key, file numbers, seqs, tfs) chunks;
    `everything` says `rows` is the whole corpus (no membership test needed); `limit`: only the best
    that many (the head of the full order); `counted`: (that list, how many rows scored above 0)."""
    query_terms = list(dict.fromkeys(terms(query)))
    lone = {term for term in query_terms if is_lone_cjk(term)}
    found = _postings(postings_of, query_terms, lone)
    if everything:
        bases, lengths = flat()
        total_length = sum(lengths)
    else:
        allowed = {}
        for row in rows:
            allowed.setdefault(row.facts.file_no, set()).add(row.seq)
        total_length = sum(row.length for row in rows)
        found = {term: [_kept(chunk, allowed) for chunk in chunks] for term, chunks in found.items()}
    extra = list(extra)
    extra_matches, extra_length = tokenized_matches(extra, query_terms)
    n = len(rows) + len(extra)
    avg = (total_length + extra_length) / max(1, n)
    df = {term: sum(len(chunk[1]) for chunk in found[term]) for term in query_terms}
    for _record, _length, frequencies in extra_matches:
        for term in frequencies:
            df[term] += 1
    idfs = {term: idf_of(n, df[term]) for term in query_terms}
    if everything:
        ranked, positives = _score_flat(facts_of, bases, lengths, query_terms, found, idfs, avg, extra_matches, limit)
    else:
        scores = _score_per_file(facts_of, query_terms, found, idfs, avg)
        extra_ranked = scored_matches(extra_matches, query_terms, idfs, avg)  # the uncached records, as search scores
        positive = [score for total in scores.values() for score in total if score > 0]
        floor, positives = _floor(positive, len(positive), extra_ranked, limit)
        ranked = [Ranked(Row(facts_of(file_no), seq), score) for file_no, total in scores.items()
                  for seq, score in enumerate(total) if score > floor]
        ranked += [row for row in extra_ranked if row.score > floor]
    order_ranked(ranked)
    if limit is not None:
        ranked = ranked[:limit]
    return (ranked, len(ranked) if positives is None else positives) if counted else ranked


def _score_per_file(facts_of, query_terms: list[str], found: dict, idfs: dict, avg: float) -> dict[int, list]:
    """Per file holding a query term, each record's score (a list indexed by its place in the file)."""
    scores: dict[int, list[float]] = {}
    norms: dict[int, list[float]] = {}
    for term in query_terms:  # term by term: each record's sum is added up in query-term order
        idf = idfs[term]
        for file_nos, seqs, tfs in found[term]:
            for file_no, seq, tf in zip(file_nos, seqs, tfs):
                if file_no not in scores:
                    facts = facts_of(file_no)
                    scores[file_no] = [0.0] * len(facts.ids)
                    norms[file_no] = length_norms(facts.lengths, avg)
                total, norm = scores[file_no], norms[file_no]
                # term_score(idf, tf, norm) written out: this loop runs once per posting (350,000 times for a
                # prompt at 50,000 records) and the call costs a third of it; test_search_cache_properties
                # and test_the_inlined_score_is_term_score keep the two the same expression.
                total[seq] += idf * tf * 2.5 / (tf + norm[seq])
    return scores


def flat_lengths(files: list) -> tuple[list[int], array]:
    """Where each file's records start in the corpus's order, and every record's token count in that order."""
    bases, lengths = [], array("i")
    for facts in files:
        bases.append(len(lengths))
        lengths.extend(facts.lengths)
    return bases, lengths


def _score_flat(facts_of, bases: list[int], lengths: array, query_terms: list[str], found: dict, idfs: dict,
                avg: float, extra_matches: list, limit: int | None) -> tuple[list, int | None]:
    """_score_per_file's sums for the whole corpus in one list (the order of flat_lengths), then the Ranked
    rows above the cut and _floor's count. One list and one set of norms for all records: no list, norms
    call or dictionary lookup per file and term (a warm recall at 1,500 one-record files meets each file
    once per term)."""
    total = [0.0] * len(lengths)
    distinct = list(set(lengths))  # one norm per distinct length (the same floats): a few dozen, not one per record
    norm = list(map(dict(zip(distinct, length_norms(distinct, avg))).__getitem__, lengths))
    for term in query_terms:  # term by term: each record's sum is added up in query-term order
        idf = idfs[term]
        for file_nos, seqs, tfs in found[term]:
            for file_no, seq, tf in zip(file_nos, seqs, tfs):
                place = bases[file_no] + seq  # term_score written out, as in _score_per_file
                total[place] += idf * tf * 2.5 / (tf + norm[place])
    extra_ranked = scored_matches(extra_matches, query_terms, idfs, avg)
    # Every sum is of positive terms: exactly 0.0 where no query term matched.
    floor, positives = _floor(total, len(total) - total.count(0.0), extra_ranked, limit)
    ranked = []
    for place in compress(range(len(total)), map(partial(lt, floor), total)):  # score > floor, found at C speed
        file_no = bisect_right(bases, place) - 1  # the last file starting at or before it (empty files share)
        ranked.append(Ranked(Row(facts_of(file_no), place - bases[file_no]), total[place]))
    ranked += [row for row in extra_ranked if row.score > floor]
    return ranked, positives


def _floor(scores: list[float], positive: int, extra_ranked: list[Ranked],
           limit: int | None) -> tuple[float, int | None]:
    """A score every one of the best `limit` rows beats (0 when all are wanted), and how many rows scored
    above 0 (None when all are wanted: they are all kept): only the rows that can make the cut become
    Ranked tuples, and ties at the cut all stay in, so the order is the full one. `scores`: the corpus's scores
    (any of them 0), `positive` of them above 0."""
    if limit is None:
        return 0.0, None
    extra = [row.score for row in extra_ranked]
    positive += len(extra)
    if positive <= limit:
        return 0.0, positive
    return math.nextafter(heapq.nlargest(limit, chain(scores, extra))[-1], -math.inf), positive


def _postings(postings_of, query_terms: list[str], lone: set[str]) -> dict[str, list]:
    """Per query term, its (file numbers, seqs, tfs) chunks; a lone CJK term's count replaces its token count
    where the record's text is not ASCII (as cortex.core.search.tokenized_matches does)."""
    found: dict[str, list] = {term: [] for term in query_terms}
    lone_found: dict[str, list] = {term: [] for term in lone}
    for key, file_nos, seqs, tfs in postings_of(query_terms + [LONE + term for term in lone]):
        (lone_found[key[1:]] if key.startswith(LONE) else found[key]).append((file_nos, seqs, tfs))
    for term, chunks in lone_found.items():
        if chunks:
            merged = {(file_no, seq): tf for chunk in found[term] for file_no, seq, tf in zip(*chunk)}
            merged.update(((file_no, seq), tf) for chunk in chunks for file_no, seq, tf in zip(*chunk))
            found[term] = [([place[0] for place in merged], [place[1] for place in merged], list(merged.values()))]
    return found


def _kept(chunk: tuple, allowed: dict) -> tuple[list, list, list]:
    """The postings of a chunk whose record is among the rows ranked (`allowed`: file number -> seqs)."""
    kept = [(file_no, seq, tf) for file_no, seq, tf in zip(*chunk) if seq in allowed.get(file_no, ())]
    return [one[0] for one in kept], [one[1] for one in kept], [one[2] for one in kept]
