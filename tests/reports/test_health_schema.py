"""The published JSON Schema is generated from the pydantic model, and every CLI output obeys it."""
from __future__ import annotations

import json

import jsonschema
import pytest

from health.judge.model import EvidenceStatus, Overall, Severity
from reports.schema import generated_schema, schema_text
from tests import health_scenarios as s
from tests.health_support import SCHEMA_FILE, copy_demo, run_cli

VALIDATOR = jsonschema.Draft202012Validator(json.loads(SCHEMA_FILE.read_text()))


def test_shipped_schema_equals_generated():
    assert SCHEMA_FILE.read_text() == schema_text()
    jsonschema.Draft202012Validator.check_schema(generated_schema())


@pytest.mark.parametrize("mutate,args,code", [
    (lambda root: None, [], 0),
    (s.reviewer_eat_cap, [], 2),
    (s.principal_overlength, [], 1),
    (s.observability_missing, [], 1),
    (lambda root: None, ["--bogus"], 3),
])
def test_cli_output_validates(tmp_path, mutate, args, code):
    root = copy_demo(tmp_path)
    mutate(root)
    result = run_cli(*args, root=root)
    assert result.code == code
    VALIDATOR.validate(result.report)


def test_schema_rejects_a_report_with_an_ok_finding(tmp_path):
    report = run_cli(root=copy_demo(tmp_path)).report
    report["findings"].append({"id": "x", "severity": "ok", "message": "m", "detail": {}})
    with pytest.raises(jsonschema.ValidationError):
        VALIDATOR.validate(report)


def test_closed_sets_match_the_schema():
    defs = generated_schema()["$defs"]
    assert set(defs["EvidenceEntry"]["properties"]["status"]["enum"]) == {m.value for m in EvidenceStatus}
    assert set(generated_schema()["properties"]["overall"]["enum"]) == {m.value for m in Overall}
    assert set(defs["FindingEntry"]["properties"]["severity"]["enum"]) == {m.value for m in Severity} - {"ok"}
