"""Evaluate stage rule (Dense Context): atom frontmatter. Used through health.rules.dense_context.RULES."""
from __future__ import annotations

from collections.abc import Iterator

from collectors.dense_context.atoms import AtomsEvidence
from health.findings import critical, ok, warn
from health.model import Finding
from health.rules import Context

TEXT = {"unreadable": "cannot be read", "frontmatter-invalid": "frontmatter is not valid YAML",
        "field-missing": "required frontmatter fields are missing", "summary-too-long": "summary is too long",
        "id-mismatch": "id does not match the file name", "project-mismatch": "project does not match its folder",
        "duplicate-id": "the same id is used twice in the project"}


def finding(kind: str, path: str, message: str, detail: dict) -> Finding:
    if kind == "duplicate-id":
        return critical(f"dc-duplicate-id:{path}", message, **detail)
    if kind == "unreadable":
        return warn(f"dc-atom-unreadable:{path}", message, **detail)
    if kind == "frontmatter-invalid":
        return warn(f"dc-frontmatter-invalid:{path}", message, **detail)
    if kind == "field-missing":
        return warn(f"dc-field-missing:{path}", message, **detail)
    if kind == "summary-too-long":
        return warn(f"dc-summary-too-long:{path}", message, **detail)
    if kind == "id-mismatch":
        return warn(f"dc-id-mismatch:{path}", message, **detail)
    return warn(f"dc-project-mismatch:{path}", message, **detail)


def judge(ev: AtomsEvidence, ctx: Context) -> Iterator[Finding]:
    for item in ev.problems:
        detail = dict(path=item.path, line=item.line, reason=item.detail, total_of_kind=ev.totals[item.kind])
        message = f"{item.path}{f':{item.line}' if item.line else ''}: {TEXT[item.kind]} ({item.detail})."
        yield finding(item.kind, item.path, message, detail)
    if not ev.problems:
        yield ok("dc-atoms-ok", f"{ev.atoms} atom(s) in {ev.projects} project(s) have valid frontmatter.")
