"""Report stage: the pydantic report model, which *is* the published JSON Schema.

Used by the JSON output format and by publication (the memory-health.jsonl line). Run
`python -m reports.schema` to regenerate reports/schemas/cortex-health-report.schema.json;
a test checks the shipped file equals `generated_schema()`.
"""
from __future__ import annotations

import json
import os
import sys
from typing import Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_FILE = os.path.join(os.path.dirname(__file__), "schemas", "cortex-health-report.schema.json")
SCHEMA_URI = "https://json-schema.org/draft/2020-12/schema"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Counts(_Strict):
    critical: int = Field(ge=0)
    warn: int = Field(ge=0)
    ok: int = Field(ge=0)


class ThresholdEntry(_Strict):
    value: Union[int, float] = Field(gt=0, description="Effective value (a finite number > 0).")
    source: Literal["default", "config", "env", "cli"]
    origin: str | None = Field(description="The variable, config file or flag that set it; null for a default.")
    unit: Literal["ms", "bytes", "count"]


class FindingEntry(_Strict):
    id: str = Field(min_length=1, description="Public, stable finding id, e.g. reviewer-stale or cap-pressure:da.")
    severity: Literal["warn", "critical"]
    message: str
    detail: dict[str, Any] = Field(description="What was measured; `measured`/`threshold`/`unit` where a limit applies.")


class EvidenceEntry(BaseModel):
    model_config = ConfigDict(extra="allow")
    status: Literal["ok", "missing", "malformed", "unreadable", "error", "skipped"]


class ChainLink(_Strict):
    """The hash-chain link the auditor adds as the final key of each memory-health.jsonl line."""

    seq: int = Field(ge=1, description="Position in the chain, 1 for the first chained line.")
    prev: str = Field(pattern="^[0-9a-f]{64}$", description="SHA-256 (hex) of the previous line's exact bytes, "
                      "newline included; for seq 1, of every byte of the log before this line.")


class HealthReport(_Strict):
    """One cortex-health run. `overall` is the worst severity; `unknown` means the auditor could not run."""

    schema_: Literal["cortex-health/v1"] = Field(alias="schema")
    ts: str = Field(description="The audit's now (injected clock or real time), ISO 8601 UTC.")
    overall: Literal["ok", "warn", "critical", "unknown"]
    counts: Counts
    thresholds: dict[str, ThresholdEntry]
    evidence: dict[str, EvidenceEntry]
    findings: list[FindingEntry] = Field(description="Non-ok results only.")
    ok_summary: list[str] = Field(description="Ids of the checks that passed.")
    root: str | None
    duration_ms: float = Field(ge=0)
    reason: str | None = Field(description="Why the auditor could not run (overall unknown), else null.")
    version: str | None = Field(default=None, min_length=1, description="The cortex-health release that wrote "
                               "the report (absent from reports written before it was recorded).")
    chain: ChainLink | None = Field(default=None, description="Only on lines of memory-health.jsonl: the "
                                    "tamper-evidence link (absent from printed reports).")


def generated_schema() -> dict[str, Any]:
    schema = HealthReport.model_json_schema(by_alias=True, mode="serialization")
    return {"$schema": SCHEMA_URI, "$id": "cortex-health-report.schema.json", **schema}


def schema_text() -> str:
    return json.dumps(generated_schema(), indent=2, ensure_ascii=False) + "\n"


def report_json(document: dict[str, Any]) -> str:
    """The compact JSON of a validated report: stdout and the memory-health.jsonl line."""
    model = HealthReport.model_validate(document)
    absent = {name for name in ("version", "chain") if getattr(model, name) is None}  # optional: left out, never null
    return model.model_dump_json(by_alias=True, exclude=absent or None)


def write_schema(path: str = SCHEMA_FILE) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(schema_text())


if __name__ == "__main__":
    write_schema(sys.argv[1] if len(sys.argv) > 1 else SCHEMA_FILE)
