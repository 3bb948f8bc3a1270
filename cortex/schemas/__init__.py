"""Published JSON Schemas, generated from the pydantic models (`python -m cortex.schemas` rewrites them)."""
from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).parent


def generated() -> dict[str, dict]:
    """File name → schema, for every schema this package publishes."""
    from cortex.benchmark.schema import benchmark_json_schema
    from cortex.capture import capture_envelope_json_schema
    from cortex.envelope import envelope_json_schema
    from cortex.write.items import item_json_schema
    from cortex.write.proposalrows import proposal_row_json_schema
    from cortex.hot.writerows import memory_write_row_json_schema

    return {
        "lifeos-cortex-v1.schema.json": envelope_json_schema(),
        "lifeos-cortex-benchmark-v1.schema.json": benchmark_json_schema(),
        "lifeos-cortex-item-v1.schema.json": item_json_schema(),
        "lifeos-cortex-proposal-row-v1.schema.json": proposal_row_json_schema(),
        "lifeos-cortex-memory-write-row-v1.schema.json": memory_write_row_json_schema(),
        "lifeos-cortex-capture-envelope-v1.schema.json": capture_envelope_json_schema(),
    }


def render(schema: dict) -> str:
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def write_all() -> list[Path]:
    written = []
    for name, schema in generated().items():
        path = HERE / name
        path.write_text(render(schema), encoding="utf-8")
        written.append(path)
    return written
