"""Write path: the one type registry that routes a typed item to its writer; used by remember/propose and the reviewer.

memory    → the hot-memory writer (set-overwrite, PRINCIPAL_MEMORY.md or DA_MEMORY.md by actor)
idea      → a new canonical record under KNOWLEDGE/Ideas/
knowledge → a new canonical record under KNOWLEDGE/People|Companies|Research/
proposal  → a pending row in O/pending-proposals.jsonl
The registry is a read-only mapping: a new type is a reviewed code change, never a runtime
mutation. `add` validates (privacy stripping included) before anything is touched.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Callable

from cortex.write.hotwriter import write_entries
from cortex.write.items import validate_item
from cortex.write.notes import write_record
from cortex.write.proposals import enqueue
from cortex.write.writecontext import WriteContext


@dataclass(frozen=True)
class Route:
    command: str  # the only CLI verb that may carry this type
    write_mode: str
    load_timing: str
    write: Callable[[WriteContext, object, str], dict]


def _memory(ctx: WriteContext, item, source: str) -> dict:
    result = write_entries(ctx, item.actor, list(item.entries), updated_by=f"cortex-remember:{source}")
    if item.rationale is not None:
        result["rationale"] = item.rationale
    return {"path": result["file"], "detail": result}


def _record(ctx: WriteContext, item, source: str) -> dict:
    result = write_record(ctx, item, source=source)
    return {"path": result["path"], "detail": result}


def _proposal(ctx: WriteContext, item, source: str) -> dict:
    result = enqueue(ctx, item)
    return {"path": result["path"], "detail": result}


REGISTRY = MappingProxyType({
    "memory": Route("remember", "set-overwrite", "always", _memory),
    "idea": Route("remember", "create", "on-relevance", _record),
    "knowledge": Route("remember", "create", "on-relevance", _record),
    "proposal": Route("propose", "queue", "surface-only", _proposal),
})


def types_for(command: str) -> tuple[str, ...]:
    return tuple(name for name, route in REGISTRY.items() if route.command == command)


def add(ctx: WriteContext, value: object, *, source: str) -> dict:
    """Validate and persist one typed item; raises Refusal (governance) or CortexError."""
    item = validate_item(value)
    route = REGISTRY[item.type]
    written = route.write(ctx, item, source)
    return {"ok": True, "type": item.type, "write_mode": route.write_mode, **written}
