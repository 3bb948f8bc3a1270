"""Report stage format `health+json`: the IETF "Health Check Response Format for HTTP APIs" (application/health+json).

Chosen with --format health+json (the registry maps that name to this module). Status is
pass / warn / fail (critical and unknown are fail); `checks` is keyed
`component:measurement` from health.catalogue, each an array with one object per id the
run reported for it (componentId is the hot-memory label or the collector): status, time,
and for non-ok ids output, observedValue and observedUnit when the finding measured one.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TextIO

STATUS = {"ok": "pass", "warn": "warn", "critical": "fail", "unknown": "fail"}


def check_key(finding_id: str) -> tuple[str, str, str]:
    """(check key, componentId, componentType) of an id; unknown ids keep their own name."""
    from health.catalogue.find import lookup

    match = lookup(finding_id)
    if match is None:
        return f"{finding_id}:status", finding_id, "component"
    return match.check.key, match.component, "component" if match.collector else "system"


def entry(finding_id: str, status: str, time: str, finding: Mapping[str, Any] | None) -> tuple[str, dict]:
    key, component, kind = check_key(finding_id)
    item: dict[str, Any] = {"componentId": component, "componentType": kind, "status": status, "time": time}
    if finding is not None:
        detail = finding.get("detail") or {}
        if isinstance(detail.get("measured"), (int, float)) and not isinstance(detail.get("measured"), bool):
            item["observedValue"] = detail["measured"]
            if detail.get("unit"):
                item["observedUnit"] = detail["unit"]
        item["output"] = f"{finding_id}: {finding['message']}"
    return key, item


def response(document: Mapping[str, Any]) -> dict[str, Any]:
    time = document.get("ts")
    checks: dict[str, list[dict]] = {}
    rows = [(f["id"], STATUS.get(f["severity"], "fail"), f) for f in document.get("findings") or ()]
    rows += [(finding_id, "pass", None) for finding_id in document.get("ok_summary") or ()]
    for finding_id, status, finding in rows:
        key, item = entry(finding_id, status, time, finding)
        checks.setdefault(key, []).append(item)
    body: dict[str, Any] = {
        "status": STATUS.get(document.get("overall"), "fail"),
        "version": "1",
        "serviceId": "cortex-health",
        "description": f"Health of the LifeOS memory tree at {document.get('root')}",
    }
    problems = [f"{f['id']}: {f['message']}" for f in document.get("findings") or ()]
    if document.get("reason"):
        problems.insert(0, document["reason"])
    if problems:
        body["output"] = "; ".join(problems)
    skipped = sorted(name for name, item in (document.get("evidence") or {}).items()
                     if isinstance(item, Mapping) and item.get("status") == "skipped")
    if skipped:
        body["notes"] = [f"not checked (skipped): {', '.join(skipped)}"]
    body["checks"] = dict(sorted(checks.items()))
    return body


def render(document: dict[str, Any], out: TextIO, *, tty: bool = False, verbose: bool = False,
           environ: Mapping[str, str] | None = None) -> None:
    out.write(json.dumps(response(document), ensure_ascii=False, separators=(",", ":")) + "\n")
