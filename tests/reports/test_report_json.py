"""The stdlib report writer (reports.reportjson) prints byte for byte what the pydantic model prints."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reports import schema
from reports.reportjson import report_json
from tests.health_support import copy_demo, run_cli

HEX = "ab" * 32
SCALARS = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=True, allow_infinity=True) | st.text()
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
                      max_leaves=8)


def _document(**changes) -> dict:
    document = {
        "schema": "cortex-health/v1", "ts": "2026-11-29T12:00:00.000Z", "overall": "warn",
        "counts": {"critical": 0, "warn": 1, "ok": 1},
        "thresholds": {"reviewer_stale_ms": {"value": 86400000, "source": "default", "origin": None, "unit": "ms"},
                       "ratio": {"value": 0.5, "source": "cli", "origin": "--threshold", "unit": "count"}},
        "evidence": {"reviewer": {"path": "x", "status": "ok", "rows": 3}},
        "findings": [{"id": "reviewer-stale", "severity": "warn", "message": "old — très", "detail": {"measured": 1.5}}],
        "ok_summary": ["index-ok"], "root": "/r", "duration_ms": 5, "reason": None,
    }
    document.update(changes)
    return document


def _both(document: dict) -> tuple[str | type, str | type]:
    def attempt(function):
        try:
            return function(document)
        except Exception as error:  # noqa: BLE001 - the comparison is of outcomes, errors included
            return type(error)
    return attempt(report_json), attempt(schema.report_json)


def test_the_demo_report_prints_the_same(tmp_path):
    document = run_cli(root=copy_demo(tmp_path)).report
    fast, model = _both(document)
    assert fast == model and isinstance(fast, str) and json.loads(fast) == json.loads(model)


@settings(max_examples=100, deadline=None)
@given(detail=st.dictionaries(st.text(), VALUES, max_size=4), extra=st.dictionaries(st.text(), VALUES, max_size=3))
def test_a_report_prints_as_its_document_does(detail, extra):
    """report_text(report) reads the evidence where the report keeps it: the same text as report_json(document())."""
    from reports.report import from_document
    from reports.reportjson import report_text

    report = from_document(_document(findings=[{"id": "a", "severity": "critical", "message": "m", "detail": detail}],
                                     evidence={"e": {"status": "missing", **extra}, "f": {"status": "ok"}}))
    try:
        text = report_text(report)
    except Exception as error:  # noqa: BLE001 - the comparison is of outcomes, errors included
        text = type(error)
    assert text == _both(report.document())[0]


@pytest.mark.parametrize("changes", [
    {}, {"chain": {"seq": 3, "prev": HEX}}, {"chain": None}, {"duration_ms": 1e-05}, {"duration_ms": 2.5},
    {"counts": {"critical": True, "warn": 0, "ok": 0}}, {"counts": {"critical": -1, "warn": 0, "ok": 0}},
    {"extra": 1}, {"overall": "bad"}, {"root": 3}, {"findings": [{"id": "", "severity": "warn", "message": "", "detail": {}}]},
    {"evidence": {"x": {"status": "gone"}}}, {"chain": {"seq": 0, "prev": HEX}}, {"ts": "\ud800"},
    {"thresholds": {"t": {"value": 0, "source": "default", "origin": None, "unit": "ms"}}},
])
def test_edge_documents_print_or_fail_the_same(changes):
    fast, model = _both(_document(**changes))
    assert fast == model


@settings(max_examples=150, deadline=None)
@given(detail=st.dictionaries(st.text(), VALUES, max_size=4), extra=st.dictionaries(st.text(), VALUES, max_size=3),
       duration=st.floats(min_value=0, allow_infinity=False) | st.integers(0, 2**40))
def test_random_details_print_the_same(detail, extra, duration):
    document = _document(duration_ms=duration,
                         findings=[{"id": "a", "severity": "critical", "message": "m", "detail": detail}],
                         evidence={"e": {"status": "missing", **{k: v for k, v in extra.items() if k != "status"}}})
    fast, model = _both(document)
    assert fast == model
