"""The published write-path schemas are exactly what the pydantic models generate, and they validate real data."""
from __future__ import annotations

import json

import pytest

from tests.write_support import SCHEMAS, schema_validator

from cortex.schemas import generated, render

WRITE_SCHEMAS = ("lifeos-cortex-item-v1.schema.json", "lifeos-cortex-proposal-row-v1.schema.json",
                 "lifeos-cortex-memory-write-row-v1.schema.json", "lifeos-cortex-capture-envelope-v1.schema.json")


@pytest.mark.parametrize("name", WRITE_SCHEMAS)
def test_shipped_schema_equals_the_generated_one(name):
    assert (SCHEMAS / name).read_text() == render(generated()[name])


def test_the_item_schema_describes_all_four_types_and_their_bounds():
    schema = json.loads((SCHEMAS / "lifeos-cortex-item-v1.schema.json").read_text())
    assert set(schema["discriminator"]["mapping"]) == {"memory", "idea", "knowledge", "proposal"}
    memory = schema["$defs"]["MemoryItem"]
    assert memory["additionalProperties"] is False and memory["properties"]["entries"]["maxItems"] == 48
    validator = schema_validator("lifeos-cortex-item-v1.schema.json")
    validator.validate({"type": "memory", "actor": "principal", "op": "set", "entries": ["NAME: Ada"]})
    assert not validator.is_valid({"type": "memory", "actor": "principal", "op": "set", "entries": ["NAME: Ada"], "x": 1})
    assert not validator.is_valid({"type": "proposal", "target_file": "a", "edit": "e", "confidence": 2, "rationale": "r"})
