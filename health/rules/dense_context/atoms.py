"""Evaluate stage rule (Dense Context): atom frontmatter. Used through health.rules.dense_context.RULES."""
from __future__ import annotations

from collections.abc import Iterator

from collectors.dense_context.atoms import AtomsEvidence
from health.findings import critical, ok, warn
from health.model import Finding
from health.rules import Context

# kind → (severity, finding id prefix, what is wrong); a duplicate id is the one critical kind
KINDS = {"duplicate-id": (critical, "dc-duplicate-id", "the same id is used twice in the project"),
         "unreadable": (warn, "dc-atom-unreadable", "cannot be read"),
         "frontmatter-invalid": (warn, "dc-frontmatter-invalid", "frontmatter is not valid YAML"),
         "field-missing": (warn, "dc-field-missing", "required frontmatter fields are missing"),
         "summary-too-long": (warn, "dc-summary-too-long", "summary is too long"),
         "id-mismatch": (warn, "dc-id-mismatch", "id does not match the file name"),
         "project-mismatch": (warn, "dc-project-mismatch", "project does not match its folder")}


def judge(ev: AtomsEvidence, ctx: Context) -> Iterator[Finding]:
    for item in ev.problems:
        detail = dict(path=item.path, line=item.line, reason=item.detail, total_of_kind=ev.totals[item.kind])
        severity, prefix, text = KINDS[item.kind]
        message = f"{item.path}{f':{item.line}' if item.line else ''}: {text} ({item.detail})."
        yield severity(f"{prefix}:{item.path}", message, **detail)
    if not ev.problems:
        yield ok("dc-atoms-ok", f"{ev.atoms} atom(s) in {ev.projects} project(s) have valid frontmatter.")
