"""Report stage: the OTLP ExportTraceServiceRequest of memory operations. Used by reports.otlp.live.

One span per operation row (collectors.lifeos.memory_operations), following the GenAI semantic
conventions for memory operations: named by `gen_ai.operation.name` (search_memory,
create_memory, update_memory, and the custom review_memory and fire_review), kind INTERNAL
(the memory system runs on this host, beside the agent), start and end from the row,
`gen_ai.memory.store.id` (a digest of the audited root), `gen_ai.memory.record.count` where
the row counts records, and `error.type` with status ERROR for a failed operation. Each span
is its own trace: the rows carry no parent. Ids are random. The rows keep no query text (a
recall logs only the SHA-256 of its query), so `gen_ai.memory.query.text` is never set,
whatever OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT says.
"""
from __future__ import annotations

from reports.otlp.encode import SCOPE, attributes, random_id

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from collectors.lifeos.memory_operations import Operation

INTERNAL = 1  # Span.SpanKind.SPAN_KIND_INTERNAL
STATUS_ERROR = 2  # Status.StatusCode.STATUS_CODE_ERROR


def span(operation: Operation, store: str) -> dict:
    found = {"traceId": random_id(16), "spanId": random_id(8), "name": operation.name, "kind": INTERNAL,
             "startTimeUnixNano": str(operation.start_ns), "endTimeUnixNano": str(operation.end_ns),
             "attributes": attributes((("gen_ai.operation.name", operation.name), ("gen_ai.memory.store.id", store),
                                       ("gen_ai.memory.record.count", operation.records),
                                       ("error.type", operation.error), *operation.extra))}
    if operation.error is not None:
        found["status"] = {"code": STATUS_ERROR}
    return found


def traces_request(resource: dict[str, str], operations: Iterable[Operation], store: str) -> dict:
    return {"resourceSpans": [{"resource": {"attributes": attributes(resource)},
                               "scopeSpans": [{"scope": SCOPE, "spans": [span(item, store) for item in operations]}]}]}
