"""Report stage: the frozen, typed report every format renders. Built by reports.document and from_document below.

Used by every reports.formats module, reports.hints, reports.measurements, health.run,
health.cli, the status line and the dashboard. A run builds it once (health.run) and hands
the same value to every format, to publication and to the CLI; a report read back from
memory-health.jsonl (the status line, the dashboard) or printed by a child check goes
through from_document, the one function that turns plain report data into this value.
Every finding and every passed id is already joined to its catalogue entry (the catalogue's
Match, which reports/ carries and reads but never imports: check key and summary, meaning,
causes, fix, the threshold it compares with, its collector), the time is kept as integer
milliseconds (`now_ms`) beside the ISO `ts`, and the one severity order is reports.severity.

Immutable all the way down: records are named tuples, mappings read-only views
(types.MappingProxyType) and lists tuples, so no format can change what the next one or the
published line sees; `document()` gives the plain JSON data back, key for key and in order,
for the json-ish outputs (reports.reportjson writes it byte for byte as before). Stdlib only
(its schema id comes from the stored line's format, collectors.healthlog.format) and cheap to
import (no dataclasses, no typing at run time): the status line's fast path
builds one from the newest published line without loading the catalogue.
"""
from __future__ import annotations

from collectors.healthlog import REPORT_SCHEMA as SCHEMA_ID  # a stored line is a report: one schema id
from cortex.core.namedtuples import namedtuple  # collections.namedtuple, without collections

from _collections_abc import mappingproxy as MappingProxyType  # types.MappingProxyType, without importing types (~0.6M)

TYPE_CHECKING = False  # typing costs the status line milliseconds
if TYPE_CHECKING:
    from collections.abc import Mapping
    from collections.abc import Callable
    from typing import Any



def frozen(value: Any) -> Any:
    """JSON data made read-only, deeply: dicts become read-only views, lists tuples."""
    if isinstance(value, (dict, MappingProxyType)):
        return MappingProxyType({key: frozen(item) for key, item in value.items()})
    if type(value) in (list, tuple):
        return tuple(frozen(item) for item in value)
    return value


def plain(value: Any) -> Any:
    """The JSON data of a frozen value: read-only views back to dicts, tuples to lists."""
    if isinstance(value, (dict, MappingProxyType)):
        return {key: plain(item) for key, item in value.items()}
    if type(value) in (list, tuple):
        return [plain(item) for item in value]
    return value


class Threshold(namedtuple("Threshold", "name value source origin unit")):
    """One effective threshold: value, source (default | config | env | cli), origin (variable, file or flag), unit."""

    __slots__ = ()

    def entry(self) -> dict[str, Any]:
        return {"value": self.value, "source": self.source, "origin": self.origin, "unit": self.unit}


class Finding(namedtuple("Finding", "id severity message detail entry")):
    """A warn or critical result: `detail` (read-only) may hold measured/threshold/unit; `entry` its catalogue Match.

    `entry` is None for an id the catalogue does not know, and on the status line's fast path
    (built without the catalogue: it shows ids only).
    """

    __slots__ = ()

    def problem_entry(self):
        """The catalogue's Problem for this id (meaning, causes, fix, threshold name), or None."""
        return self.entry.problem if self.entry is not None else None

    def document(self) -> dict[str, Any]:
        return {"id": self.id, "severity": self.severity, "message": self.message, "detail": plain(self.detail)}


class Passed(namedtuple("Passed", "id entry")):
    """An id reported ok, joined to its catalogue Match like a Finding."""

    __slots__ = ()


class Counts(namedtuple("Counts", "critical warn ok", defaults=(0, 0, 0))):
    __slots__ = ()


_FIELDS = "ts now_ms overall counts thresholds evidence findings passed root duration_ms reason version"


class Report(namedtuple("Report", _FIELDS, defaults=(None,))):
    """One cortex-health run, typed and frozen. `overall` ok | warn | critical | unknown (the auditor could not run).

    ts: the audit's now, ISO 8601 UTC; now_ms: the same instant in integer milliseconds (None
    only for a hand-made document whose ts is not a timestamp); thresholds: Threshold rows in
    report order; evidence: collector name -> its read-only evidence; findings: the non-ok
    results, report order; passed: the ok ids; duration_ms: collect + evaluate; version: the
    cortex-health release that wrote it (None for lines written before it was recorded).
    """

    __slots__ = ()

    @property
    def ok_summary(self) -> tuple[str, ...]:
        return tuple(item.id for item in self.passed)

    def threshold(self, name: str | None) -> Threshold | None:
        return next((item for item in self.thresholds if item.name == name), None)

    def status(self, collector: str) -> str | None:
        """The evidence status of one collector (ok, missing, skipped...), None when it did not report."""
        item = self.evidence.get(collector)
        return item.get("status") if isinstance(item, MappingProxyType) else None

    @property
    def skipped(self) -> tuple[str, ...]:
        """Collectors left out by --only/--skip, in report order: never counted as ok."""
        return tuple(name for name in self.evidence if self.status(name) == "skipped")

    def document(self, *, views: bool = False) -> dict[str, Any]:
        """The plain JSON data of this report, keys in the published order (reports.schema.HealthReport).

        `views`: the evidence as it is kept (read-only views, tuples), not copied out: for reports.reportjson, whose
        checks copy it anyway.
        """
        return {
            "schema": SCHEMA_ID,
            "ts": self.ts,
            "overall": self.overall,
            "counts": self.counts._asdict(),
            "thresholds": {item.name: item.entry() for item in self.thresholds},
            "evidence": self.evidence if views else plain(self.evidence),
            "findings": [item.document() for item in self.findings],
            "ok_summary": list(self.ok_summary),
            "root": self.root,
            "duration_ms": self.duration_ms,
            "reason": self.reason,
            **({} if self.version is None else {"version": self.version}),  # optional: older lines lack it
        }


def from_document(document: Mapping[str, Any], *, lookup: Callable[[str], Any] | None = None) -> Report:
    """The typed report of plain report data: a published line, a child check's JSON, a test's document.

    Absent keys take their empty value, so partial documents render as they always did.
    `lookup` joins each id to its catalogue entry (health.judge.catalogue.find.lookup, passed in by the caller
    so reports/ imports nothing from health/); without it (the status line) every entry is None and
    the catalogue is never loaded.
    """
    from cortex.core.timestamps import parse_timestamp_ms

    counts = document.get("counts") or {}
    thresholds = document.get("thresholds") or {}
    return Report(
        ts=document.get("ts"),
        now_ms=parse_timestamp_ms(document.get("ts")) if isinstance(document.get("ts"), str) else None,
        overall=document.get("overall"),
        counts=Counts(*(counts.get(key) or 0 for key in Counts._fields)),
        thresholds=tuple(_threshold(name, entry) for name, entry in thresholds.items()),
        evidence=frozen(document.get("evidence") or {}),
        findings=tuple(Finding(item.get("id"), item.get("severity"), item.get("message", ""),
                               frozen(item.get("detail") or {}), _entry(lookup, item.get("id")))
                       for item in document.get("findings") or ()),
        passed=tuple(Passed(item, _entry(lookup, item)) for item in document.get("ok_summary") or ()),
        root=document.get("root"),
        duration_ms=document.get("duration_ms"),
        reason=document.get("reason"),
        version=document.get("version"),
    )


def _threshold(name: str, entry: Any) -> Threshold:
    if not isinstance(entry, dict):
        return Threshold(name, None, None, None, None)
    return Threshold(name, entry.get("value"), entry.get("source"), entry.get("origin"), entry.get("unit"))


def _entry(lookup: Callable[[str], Any] | None, finding_id: Any) -> Any:
    """The catalogue Match of `finding_id`, or None."""
    return lookup(finding_id) if lookup is not None and isinstance(finding_id, str) else None
