"""Evaluate stage rule (Dense Context): atom frontmatter. Used through health.judge.rules.dense_context.RULES."""
from __future__ import annotations

from collections.abc import Iterator

from collectors.dense_context.atoms import AtomsEvidence
from health.judge.catalogue.dense_context import (DC_ATOM_UNREADABLE, DC_ATOMS_OK, DC_DUPLICATE_ID, DC_FIELD_MISSING,
                                            DC_FRONTMATTER_INVALID, DC_ID_MISMATCH, DC_PROJECT_MISMATCH,
                                            DC_SUMMARY_TOO_LONG)
from health.judge.model import Finding
from health.judge.rules import Context

# kind → (its problem, what is wrong); a duplicate id is the one critical kind
KINDS = {"duplicate-id": (DC_DUPLICATE_ID, "the same id is used twice in the project"),
         "unreadable": (DC_ATOM_UNREADABLE, "cannot be read"),
         "frontmatter-invalid": (DC_FRONTMATTER_INVALID, "frontmatter is not valid YAML"),
         "field-missing": (DC_FIELD_MISSING, "required frontmatter fields are missing"),
         "summary-too-long": (DC_SUMMARY_TOO_LONG, "summary is too long"),
         "id-mismatch": (DC_ID_MISMATCH, "id does not match the file name"),
         "project-mismatch": (DC_PROJECT_MISMATCH, "project does not match its folder")}


def judge(ev: AtomsEvidence, ctx: Context) -> Iterator[Finding]:
    for item in ev.problems:
        detail = dict(path=item.path, line=item.line, reason=item.detail, total_of_kind=ev.totals[item.kind])
        problem, text = KINDS[item.kind]
        message = f"{item.path}{f':{item.line}' if item.line else ''}: {text} ({item.detail})."
        yield problem.at(item.path, message=message, **detail)
    if not ev.problems:
        yield DC_ATOMS_OK.at(message=f"{ev.atoms} atom(s) in {ev.projects} project(s) have valid frontmatter.")
