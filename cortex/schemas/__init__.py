"""Published JSON Schemas, generated from the pydantic models (`python -m cortex.schemas` rewrites them)."""
from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).parent
DRAFT = "https://json-schema.org/draft/2020-12/schema"


def generated() -> dict[str, dict]:
    """File name → schema, for every schema this package publishes (each names its draft and, as $id, its file)."""
    from cortex.benchmark.schema import BenchmarkReport
    from cortex.capture import CaptureEnvelope
    from cortex.envelope import envelope_json_schema
    from cortex.write.writerows import MemoryWriteRow
    from cortex.write.items import item_json_schema
    from cortex.write.proposalrows import ProposalRow

    schemas = {
        "lifeos-cortex-v1.schema.json": envelope_json_schema(),
        "lifeos-cortex-benchmark-v1.schema.json": BenchmarkReport.model_json_schema(by_alias=True),
        "lifeos-cortex-item-v1.schema.json": item_json_schema(),
        "lifeos-cortex-proposal-row-v1.schema.json": ProposalRow.model_json_schema(),
        "lifeos-cortex-memory-write-row-v1.schema.json": MemoryWriteRow.model_json_schema(),
        "lifeos-cortex-capture-envelope-v1.schema.json": CaptureEnvelope.model_json_schema(),
    }
    return {name: {"$schema": DRAFT, "$id": name, **schema} for name, schema in schemas.items()}


def render(schema: dict) -> str:
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def write_all() -> list[Path]:
    written = []
    for name, schema in generated().items():
        path = HERE / name
        path.write_text(render(schema), encoding="utf-8")
        written.append(path)
    return written
