"""Core read commands: status, search, timeline, get, export and rebuild --from-canonical.

Read-only for the memory tree: nothing here opens a file in it for writing. status, search,
timeline, get and export read through the derived search cache (cortex.searchcache, outside
the tree); rebuild --from-canonical never does.
"""
from __future__ import annotations

import math

from cortex.errors import InvalidInput, NotFound
from cortex.invocation import CommandSpec, Invocation
from cortex.core.jscompat import js_len, js_number
from cortex.core.records import CortexRecord, active_records
from cortex.core.timestamps import iso_from_ms, parse_timestamp_ms

QUERY_CHARS = 2048
QUERY_TERMS = 64
PAGE_SIZE = 100
GRAPH_NODES = 100
GRAPH_TOKENS = 50_000
MAX_IDS = 100
MAX_NAMED_IDS = 10
MAX_NAMED_ID_CHARS = 200
MAX_SAFE_INTEGER = 2**53 - 1
FILTER_OPTIONS = frozenset({"--type", "--source", "--session", "--from", "--to", "--page", "--page-size"})


def _bounded_int(value: str | None, fallback: int, low: int, high: int) -> int | None:
    if value is None:
        return fallback
    number = js_number(value)
    if not math.isfinite(number) or number != int(number) or not low <= number <= high:
        return None
    return int(number)


def _filtered(records: list[CortexRecord], inv: Invocation) -> list[CortexRecord]:
    kind, source, session = inv.option("--type"), inv.option("--source"), inv.option("--session")
    start_raw, end_raw = inv.option("--from"), inv.option("--to")
    start = parse_timestamp_ms(start_raw) if start_raw else None
    end = parse_timestamp_ms(end_raw) if end_raw else None
    if (start_raw and start is None) or (end_raw and end is None):
        raise InvalidInput("Invalid date filter")
    return [
        r
        for r in records
        if (not kind or r.type == kind)
        and (not source or r.source == source)
        and (not session or r.session == session)
        and (start is None or r.created_ms >= start)
        and (end is None or r.created_ms <= end)
    ]


def _page_bounds(inv: Invocation) -> tuple[int | None, int | None]:
    return _bounded_int(inv.option("--page"), 1, 1, MAX_SAFE_INTEGER), _bounded_int(inv.option("--page-size"), 10, 1,
                                                                                     PAGE_SIZE)


def _paged(rows: list, inv: Invocation, message: str, card=None, total: int | None = None) -> dict:
    """One page of `rows` (`total` of them in all, when `rows` is only a head); `card` turns a row into its
    card, for the page's rows only."""
    page, size = _page_bounds(inv)
    if page is None or size is None:
        raise InvalidInput(message)
    items = rows[(page - 1) * size : page * size]
    return {"items": items if card is None else [card(row) for row in items],
            "total": len(rows) if total is None else total, "page": page, "page_size": size}


def status(inv: Invocation) -> dict:
    if inv.positionals:
        raise InvalidInput("status accepts no positional arguments")
    if not inv.caching():  # count as corpus() would read, keeping no record's text
        from cortex.core.corpus import count_canonical_records

        root, records = inv.loaded(count_canonical_records)
    else:
        corpus = inv.read_corpus(index=False)
        root, records = corpus.root, len(corpus.rows)
    # The search cache is derived, never an index of the contract: `indexes` stays empty.
    return {"canonical": {"root": root, "records": records}, "mode": "local-read-only", "indexes": []}


def rebuild(inv: Invocation) -> dict:
    if not inv.flag("--from-canonical") or inv.positionals:
        raise InvalidInput("rebuild requires --from-canonical")
    from cortex.core.digest import rebuild_digests  # hashlib (OpenSSL) only for the command that hashes

    records = inv.corpus().records
    # Reconstruct every record from its serialised view alone, then digest that view.
    canonical, rebuilt = rebuild_digests(records, lambda view: CortexRecord(**_record_fields(view)))
    return {
        "format": "lifeos-cortex-canonical-rebuild/v1",
        "canonical_digest": canonical,
        "rebuilt_digest": rebuilt,
        "equivalent": canonical == rebuilt,
        "records": len(records),
        "indexes": [],
    }


def _record_fields(view: dict) -> dict:
    provenance = view["provenance"]
    return {
        "id": view["id"], "type": view["type"], "title": view["title"], "created": view["created"],
        "updated": view["updated"], "source": provenance["source"], "session": provenance["session"],
        "path": provenance["path"], "content": view["content"], "related": list(view["related"]),
        "valid_from": view["valid_from"], "valid_until": view["valid_until"],
    }


def search(inv: Invocation) -> dict:
    if len(inv.positionals) != 1:
        raise InvalidInput("search requires exactly one query")
    from cortex.core.search import apply_recency, expand_graph, to_card  # ranking and the tokenizer's patterns:
    from cortex.core.tokenize import terms  # only for the commands that rank or show cards (not status, rebuild)

    corpus = inv.read_corpus(index=True)
    valid = active_records(corpus.rows, inv.now_ms())
    query = inv.positionals[0]
    query_terms = terms(query)
    if js_len(query) > QUERY_CHARS or len(query_terms) > QUERY_TERMS or not query_terms:
        raise InvalidInput("Query exceeds length/term limits or has no searchable terms")
    narrowed = _filtered(valid, inv)
    recency = js_number(inv.option("--recency") or "0")
    if not math.isfinite(recency) or recency < 0:
        raise InvalidInput("--recency must be non-negative")
    # Ranking uses `terms` too (cortex.core.search's default): query limit and ranking agree.
    page_number, size = _page_bounds(inv)
    total = None
    if recency == 0 and page_number is not None and size is not None and page_number * size < len(narrowed):
        # Only this page's head of the order is built and sorted (a common word matches most of a large corpus).
        ranked, total = corpus.rank_page(narrowed, query, page_number * size)
    else:
        ranked = apply_recency(corpus.rank(narrowed, query), recency)
    page = _paged(ranked, inv, f"page must be positive and page-size at most {PAGE_SIZE}",
                  lambda row: to_card(row.record, row.score), total)
    expand = inv.option("--expand")
    if expand:
        nodes = _bounded_int(inv.option("--max-nodes"), 10, 1, GRAPH_NODES)
        tokens = _bounded_int(inv.option("--max-tokens"), 2000, 1, GRAPH_TOKENS)
        if nodes is None or tokens is None:
            raise InvalidInput("graph budgets exceed limits")
        expansion = expand_graph(valid, expand, nodes, tokens)
        if expansion is None:
            raise _not_found(f"Expansion root not found: {expand}", expand, inv, corpus.rows)
        page["expansion"] = expansion
    return page


def timeline(inv: Invocation) -> dict:
    if inv.positionals:
        raise InvalidInput("timeline accepts no positional arguments")
    from cortex.core.search import to_card
    rows = inv.read_corpus(index=False).rows
    valid = active_records(rows, inv.now_ms())
    anchor_value = inv.option("--anchor")
    if not anchor_value:
        raise InvalidInput("timeline requires --anchor ID-or-date")
    narrowed = _filtered(valid, inv)
    before = _bounded_int(inv.option("--before"), 5, 0, PAGE_SIZE)
    after = _bounded_int(inv.option("--after"), 5, 0, PAGE_SIZE)
    if before is None or after is None:
        raise InvalidInput("before and after must be bounded non-negative integers")
    ordered = sorted(narrowed, key=lambda r: (r.created_ms, r.id))
    anchor_record = next((r for r in valid if r.id == anchor_value), None)
    if anchor_record is None:
        anchor_ms = parse_timestamp_ms(anchor_value)
        if anchor_ms is None:
            raise _not_found(f"Timeline anchor not found: {anchor_value}", anchor_value, inv, rows)
        anchor_date = iso_from_ms(anchor_ms)
    else:
        anchor_ms, anchor_date = anchor_record.created_ms, anchor_record.created
    prior = [r for r in ordered if r.created_ms < anchor_ms]
    prior = prior[len(prior) - before :] if before else []
    center = [anchor_record] if anchor_record is not None and any(r.id == anchor_record.id for r in ordered) else []
    later = [r for r in ordered if r.created_ms > anchor_ms][:after]
    page = _paged([to_card(r, 0) for r in prior + center + later], inv, "invalid page")
    page["anchor"] = {"id": anchor_record.id if anchor_record else None, "date": anchor_date}
    return page


def _selected(inv: Invocation) -> dict:
    if not inv.positionals or len(inv.positionals) > MAX_IDS:
        raise InvalidInput(f"{inv.command} requires one or more explicit IDs (maximum {MAX_IDS})")
    corpus = inv.read_corpus(index=True)
    by_id = {r.id: r for r in active_records(corpus.rows, inv.now_ms())}
    chosen = [by_id.get(record_id) for record_id in inv.positionals]
    missing = list(dict.fromkeys(record_id for record_id, record in zip(inv.positionals, chosen) if record is None))
    if missing:
        # The reference's message, then the ids (bounded): which ones to fix, and which exist but are not valid now.
        every = {r.id: r for r in corpus.rows}
        named = ", ".join(record_id[:MAX_NAMED_ID_CHARS] + _invalid_now(every.get(record_id), inv.now_ms())
                          for record_id in missing[:MAX_NAMED_IDS])
        more = f" and {len(missing) - MAX_NAMED_IDS} more" if len(missing) > MAX_NAMED_IDS else ""
        raise NotFound(f"One or more records were not found: {named}{more}")
    return {"format": "lifeos-cortex-export/v1", "items": [record.to_json() for record in corpus.full(chosen)]}


def _invalid_now(record, now: int) -> str:
    """` (expired: valid until ...)` or ` (not valid yet: valid from ...)` for a record outside its window, else ''."""
    if record is None or record.is_valid_at(now):
        return ""
    if record.valid_until_ms is not None and now >= record.valid_until_ms:
        return f" (expired: valid until {record.valid_until})"
    return f" (not valid yet: valid from {record.valid_from})"


def _not_found(message: str, record_id: str, inv: Invocation, rows: list) -> NotFound:
    """The reference's not_found message, saying so when the id names a record that is not valid now."""
    record = next((r for r in rows if r.id == record_id), None)
    return NotFound(message + _invalid_now(record, inv.now_ms()))


_SEARCH = frozenset({"--recency", "--expand", "--max-nodes", "--max-tokens"}) | FILTER_OPTIONS
_TIMELINE = frozenset({"--anchor", "--before", "--after"}) | FILTER_OPTIONS

COMMANDS = [
    CommandSpec("status", status, usage="cortex status", example="cortex status --root ~/.claude"),
    CommandSpec("search", search, value_options=_SEARCH,
                usage="cortex search QUERY [filters] [--page N] [--page-size N] [--recency W] "
                      "[--expand ID --max-nodes N --max-tokens N]",
                option_help=(("--type T --source S --session ID --from DATE --to DATE", "filters"),
                             ("--page N (from 1) --page-size N (1-100, default 10)", ""),
                             ("--recency W", "add W x updated time to the score (default 0)"),
                             ("--expand ID", "also walk `related` links from ID within --max-nodes/--max-tokens")),
                example="cortex search 'green tea' --page-size 5"),
    CommandSpec("timeline", timeline, value_options=_TIMELINE,
                usage="cortex timeline --anchor ID_OR_DATE [--before N] [--after N] [filters as search]",
                option_help=(("--anchor ID_OR_DATE", "a record id or a date (2026-01-01 or an ISO date-time)"),
                             ("--before N --after N", "records on each side (0-100, default 5)")),
                example="cortex timeline --anchor 2026-06-01 --before 3 --after 3"),
    CommandSpec("get", _selected, usage="cortex get ID [ID ...]",
                example="cortex get idea-memory-as-a-garden-20260101T120000Z-3f9a1c2e"),
    CommandSpec("export", _selected, usage="cortex export ID [ID ...]", example="cortex export ID1 ID2"),
    CommandSpec("rebuild", rebuild, flag_options=frozenset({"--from-canonical"}), usage="cortex rebuild --from-canonical",
                example="cortex rebuild --from-canonical"),
]
