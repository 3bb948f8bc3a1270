"""Benchmark disclosure: what each configuration would inject for one shared ranking; called by cortex.benchmark.runner.

Both configurations receive the *same* production ranking, so their retrieval quality is
identical by construction; what they differ in is how much they serialise. Payloads use
the production card builder and the production JSON writer, so the bytes are what
`cortex search` / `cortex get` would print.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from cortex.core.jsjson import dumps
from cortex.core.search import Ranked, to_card

EXPORT_FORMAT = "lifeos-cortex-export/v1"


def full_records(ranked: list[Ranked], top_k: int) -> str:
    """bm25-baseline: the top K full records, as `cortex export` would print them."""
    return dumps({"format": EXPORT_FORMAT, "items": [row.record.to_json() for row in ranked[:top_k]]})


def cards_then_selected(ranked: list[Ranked], top_k: int) -> str:
    """progressive: the top K cards (a search page), then only the first full record.

    The fetch reuses the ranked record object, as `cortex get` of that ID would return the
    same sanitised record; it triggers no second ranking or corpus read.
    """
    top = ranked[:top_k]
    page = {"items": [to_card(row.record, row.score) for row in top], "total": len(ranked), "page": 1, "page_size": top_k}
    fetched = {"format": EXPORT_FORMAT, "items": [top[0].record.to_json()] if top else []}
    return dumps({"search": page, "fetch": fetched})


@dataclass(frozen=True)
class Configuration:
    name: str
    execution_path: str
    disclose: Callable[[list[Ranked], int], str]

    @property
    def disclosure_path(self) -> str:
        return f"{self.disclose.__module__}.{self.disclose.__qualname__}"


CONFIGURATIONS = (
    Configuration("bm25-baseline", "rank-full-records", full_records),
    Configuration("progressive", "rank-cards-expand-selected", cards_then_selected),
)
