"""Prompt stage (stdlib only): BM25 recall over the canonical corpus plus the hot entries, and its evidence row; used by `cortex recall`.

The corpus is the read contract's (cortex.core.corpus: KNOWLEDGE/ and M/*_MEMORY.md), valid
now, plus every valid entry of the two hot files as its own record (they live under
LIFEOS/USER, outside the memory root). The answer is a bounded context block: at most
`limit` results that clear the relevance gate (cortex.core.relevance: content terms only, a
score floor), each snippet cut, the whole block capped. One row is appended to
O/memory-retrievals.jsonl per recall: {ts, query_hash, returned_count, duration_ms,
top_score?} — the query itself is never stored, only the sha256 of its UTF-8 text (after
private spans are removed, so a private span cannot be confirmed by hashing guesses).
"""
from __future__ import annotations

import os

from cortex.core.sha256 import sha256_hex
from cortex.core.corpus import EPOCH_ISO, enumerate_canonical_corpus
from cortex.core.durable import append_line
from cortex.core.frontmatter import frontmatter_fields, frontmatter_span
from cortex.hot.hotinput import hot_text
from cortex.hot.hotmemory import MAX_HOT_FILE_BYTES, SECTIONS, parse_memory_content, validate_entries
from cortex.core.jsjson import dumps
from cortex.evidencerows import RetrievalRow
from cortex.layout import Layout, OBSERVABILITY, RETRIEVALS_LOG
from cortex.core.privacy import strip_private_content
from cortex.core.records import CortexRecord, active_records
from cortex.core.relevance import DEFAULT_FLOOR, Floor, content_terms, relevant
from cortex.core.safeio import read_bounded
from cortex.core.safepaths import memory_dir
from cortex.core.search import Ranked, round6
from cortex.core.timestamps import iso_from_ms, parse_timestamp_ms
from cortex.core.tokenize import terms

LOG_NAME = RETRIEVALS_LOG
DEFAULT_LIMIT = 5
MAX_LIMIT = 20
MAX_QUERY_CHARS = 8_192  # a pasted log is a prompt too: search its beginning, never refuse it
MAX_QUERY_TERMS = 64
MAX_SNIPPET_CHARS = 600
MAX_BLOCK_CHARS = 4_000


class Recall:
    """What a recall found: the block to print, how many cards, the best score, the query's hash.

    block: str; returned: int; top_score: float | None; query_hash: str. (Not a named tuple: nothing uses it
    as one, and its class would cost every prompt ~0.4M instructions.)
    """

    __slots__ = ("block", "returned", "top_score", "query_hash")

    def __init__(self, block: str, returned: int, top_score: float | None, query_hash: str) -> None:
        self.block, self.returned, self.top_score, self.query_hash = block, returned, top_score, query_hash


def hot_records(layout: Layout) -> list[CortexRecord]:
    """One record per valid hot entry; a missing hot file contributes nothing."""
    records = []
    for label, title in SECTIONS:
        path = layout.hot_file(label)
        try:
            text = hot_text(read_bounded(path, MAX_HOT_FILE_BYTES))
        except FileNotFoundError:
            continue
        updated = frontmatter_fields(text).get("last_updated") or EPOCH_ISO
        stamp = updated if parse_timestamp_ms(updated) is not None else EPOCH_ISO
        stamp_ms = parse_timestamp_ms(stamp)
        shown = layout.display(path)  # once per file: a relative path costs ~10 system-free steps per call
        for entry in validate_entries(parse_memory_content(text).entries).accepted:
            digest = sha256_hex(entry.encode("utf-8"))[:16]
            record = CortexRecord(id=f"hot:{label}:{digest}", type="memory", title=title, created=stamp, updated=stamp,
                                  source="hot-memory", session=None, path=shown, content=entry, related=[],
                                  created_ms=stamp_ms, updated_ms=stamp_ms)
            records.append(record)
    return records


def bounded_query(query: str) -> str:
    """The text searched: private spans removed, cut, and at most MAX_QUERY_TERMS distinct content terms
    (stopwords dropped: cortex.core.relevance)."""
    text = strip_private_content(query)[:MAX_QUERY_CHARS]
    return " ".join(content_terms(list(dict.fromkeys(terms(text))))[:MAX_QUERY_TERMS])


def _snippet(record: CortexRecord) -> str:
    """The content without its frontmatter, each whitespace run one space (the patterns `\\A---...---` and `\\s+`,
    as string operations: tests/cortex/test_hook_parsing_equivalents.py), cut."""
    span = frontmatter_span(record.content)
    body = " ".join((record.content[span[2]:] if span else record.content).split())
    return body if len(body) <= MAX_SNIPPET_CHARS else body[: MAX_SNIPPET_CHARS - 1].rstrip() + "…"


def _block(ranked) -> tuple[str, int]:
    parts, used = [], 0
    for number, row in enumerate(ranked, start=1):
        part = f"[{number}] {row.record.title} ({row.record.path}; score {round6(row.score)})\n{_snippet(row.record)}"
        if used + len(part) > MAX_BLOCK_CHARS:
            break
        parts.append(part)
        used += len(part)
    if not parts:
        return "", 0
    return "<lifeos-recall>\n" + "\n\n".join(parts) + "\n</lifeos-recall>\n", len(parts)


def recall(layout: Layout, query: str, limit: int, now_ms: int, corpus=None, floor: Floor = DEFAULT_FLOOR) -> Recall:
    """`corpus`: the read corpus (cached or not, cortex.searchcache); by default the files are parsed.
    Only records that reach `floor` (cortex.core.relevance) are injected."""
    stripped = strip_private_content(query)
    searched = bounded_query(stripped)
    corpus = enumerate_canonical_corpus(layout.memory_root) if corpus is None else corpus
    rows = active_records(corpus.rows, now_ms)
    ranked = relevant(corpus.rank(rows, searched, hot_records(layout), limit=limit), floor) if searched else []
    ranked = [Ranked(record, row.score) for record, row in zip(corpus.full([row.record for row in ranked]), ranked)]
    block, returned = _block(ranked)
    top = round6(ranked[0].score) if returned else None
    return Recall(block, returned, top, sha256_hex(stripped.encode("utf-8")))


def log_recall(layout: Layout, result: Recall, now_ms: int, duration_ms: float) -> None:
    row = RetrievalRow(iso_from_ms(now_ms), result.query_hash, result.returned, duration_ms, result.top_score).as_row()
    directory = memory_dir(layout.memory_root, OBSERVABILITY)
    append_line(os.path.join(directory, LOG_NAME), dumps(row).encode("utf-8"))
