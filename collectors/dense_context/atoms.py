"""Collect stage (Dense Context): each atom's frontmatter against the seed's contract. Called through the layout's collector list.

Per atom: unreadable file, frontmatter that is not valid YAML, required fields missing (EXP:
id, date, project, summary, tags; K: those plus evidence; PAT: those plus
source-experiments), a summary over 300 characters, an id that is not the file name, a
project that is not the folder. Per project: the same id in two files.
"""
from __future__ import annotations

from collections import Counter, namedtuple

from collectors.dense_context.layout import DenseLayout
from collectors.dense_context.tree import MAX_LISTED, Atom, Project, analysed, scanned_tree
from collectors.readers.text import clip
from collectors.evidence import EvidenceStatus

BASE_FIELDS = ("id", "date", "project", "summary", "tags")
REQUIRED = {"experiments": BASE_FIELDS, "knowledge": BASE_FIELDS + ("evidence",),
            "patterns": BASE_FIELDS + ("source-experiments",)}
MAX_SUMMARY = 300
KINDS = ("unreadable", "frontmatter-invalid", "field-missing", "summary-too-long", "id-mismatch",
         "project-mismatch", "duplicate-id")


class AtomProblem(namedtuple("AtomProblem", "kind path line detail")):
    """One atom problem.

    kind: str (one of KINDS); path: str (under CONTEXT; duplicate-id: <project>/<id>); line: int | None;
    detail: str.
    """

    __slots__ = ()


class AtomsEvidence(namedtuple("AtomsEvidence", "status atoms projects problems totals")):
    """Every atom's frontmatter.

    status: EvidenceStatus; atoms, projects: int; problems: tuple[AtomProblem, ...] (at most MAX_LISTED per
    kind); totals: dict (kind → count).
    """

    __slots__ = ()


def empty(value: object) -> bool:
    return value is None or value == "" or value == []


def problems_of(atom: Atom) -> list[AtomProblem]:
    if atom.problem and atom.problem.startswith("unreadable"):
        return [AtomProblem("unreadable", atom.rel, None, atom.problem)]
    found = []
    if atom.problem:
        found.append(AtomProblem("frontmatter-invalid", atom.rel, atom.problem_line, atom.problem))
        if not atom.lines:
            return found  # no frontmatter at all: nothing more to say
    fields, lines = atom.fields, atom.lines
    missing = [name for name in REQUIRED[atom.folder] if empty(fields.get(name))]
    if missing:
        found.append(AtomProblem("field-missing", atom.rel, 1, f"missing or empty: {', '.join(missing)}"))
    summary = fields.get("summary")
    if isinstance(summary, str) and len(summary) > MAX_SUMMARY:
        found.append(AtomProblem("summary-too-long", atom.rel, lines.get("summary"),
                                 f"{len(summary)} characters (at most {MAX_SUMMARY})"))
    if atom.id is not None and atom.id != atom.stem:
        found.append(AtomProblem("id-mismatch", atom.rel, lines.get("id"), f"id {clip(atom.id, 80)} in file {atom.stem}.md"))
    project = fields.get("project")
    if isinstance(project, str) and project and project != atom.project:
        found.append(AtomProblem("project-mismatch", atom.rel, lines.get("project"),
                                 f"project {clip(project, 80)} in folder projects/{atom.project}"))
    return found


def duplicates(atoms: tuple[Atom, ...]) -> list[AtomProblem]:
    where: dict[str, list[Atom]] = {}
    for atom in atoms:
        if atom.id is not None:
            where.setdefault(atom.id, []).append(atom)
    return [AtomProblem("duplicate-id", f"{same[0].project}/{atom_id}", same[0].lines.get("id"),
                        "id in " + ", ".join(a.rel for a in same))
            for atom_id, same in where.items() if len(same) > 1]


def project_problems(layout: DenseLayout, project: Project) -> tuple[list[AtomProblem], dict]:
    """(problems, at most MAX_LISTED per kind; exact totals per kind) of one project."""
    totals = dict.fromkeys(KINDS, 0)
    listed = []
    for problem in [p for atom in project.atoms for p in problems_of(atom)] + duplicates(project.atoms):
        totals[problem.kind] += 1
        if totals[problem.kind] <= MAX_LISTED:
            listed.append(problem)
    return listed, totals


def collect(layout: DenseLayout) -> AtomsEvidence:
    totals = dict.fromkeys(KINDS, 0)
    listed: list[AtomProblem] = []
    listed_per_kind: Counter[str] = Counter()
    count = projects = 0
    for project, (found, counts) in analysed(layout, "dc_atoms"):
        count += project.atom_count
        projects += 1
        for problem in found:
            if listed_per_kind[problem.kind] < MAX_LISTED:
                listed_per_kind[problem.kind] += 1
                listed.append(problem)
        for kind, n in counts.items():
            totals[kind] += n
    status = EvidenceStatus.UNREADABLE if scanned_tree(layout).unreadable else EvidenceStatus.OK
    return AtomsEvidence(status, count, projects, tuple(listed), totals)
