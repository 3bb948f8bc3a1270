"""Collect stage (Dense Context): the evidence chain between atoms. Called through the layout's collector list.

A reference is an atom id (EXP-NNN, K-NNN, PAT-NNN) in `evidence`, `links` or
`source-experiments`, or the target of a status (`superseded:EXP-012`); other items (a file
name, a note) are not references. A reference resolves within its project; one into an atom
folder that could not be listed is unknown, not dangling (that folder is its own finding). A knowledge
entry or pattern whose `evidence` atoms are all invalidated, superseded or deprecated is a
contradiction; when only some are, the evidence says which (as `consolidate` reports them).
"""
from __future__ import annotations

from collections import namedtuple

from collectors.dense_context.layout import DenseLayout
from collectors.dense_context.tree import ATOM_ID, MAX_LISTED, REF_FIELDS, Atom, Project, analysed, scanned_tree
from collectors.evidence import EvidenceStatus

FAILED = ("invalidated", "superseded", "deprecated")
FOLDER_OF = {"EXP": "experiments", "K": "knowledge", "PAT": "patterns"}  # where an id's atom lives


class Dangling(namedtuple("Dangling", "path line field target")):
    """A reference to no atom. path: str; line: int | None; field: str; target: str."""

    __slots__ = ()


class Contradiction(namedtuple("Contradiction", "path line failed evidence")):
    """An entry whose evidence failed.

    path: str; line: int | None; failed: tuple[str, ...] (evidence atoms that failed, with their status);
    evidence: int (atom references in `evidence`).
    """

    __slots__ = ()


class ReferencesEvidence(namedtuple("ReferencesEvidence", "status references dangling dangling_total contradictions "
                                           "contradictions_total partial partial_total")):
    """Every reference between atoms.

    status: EvidenceStatus; references: int; dangling: tuple[Dangling, ...]; contradictions: tuple[Contradiction,
    ...] (all evidence failed); partial: tuple[Contradiction, ...] (some evidence failed); *_total: int (exact).
    """

    __slots__ = ()


def references(atom: Atom) -> list[tuple[str, str]]:
    """(field, target) for every atom id the atom names."""
    found = []
    for name in REF_FIELDS:
        value = atom.fields.get(name)
        for item in value if isinstance(value, list) else [value] if isinstance(value, str) else []:
            if isinstance(item, str) and ATOM_ID.match(item.strip()):
                found.append((name, item.strip()))
    _, sep, target = atom.status.partition(":")
    if sep and ATOM_ID.match(target.strip().upper()):
        found.append(("status", target.strip().upper()))
    return found


def failed_status(status: str) -> bool:
    return status.split(":", 1)[0].strip() in FAILED


def project_references(layout: DenseLayout, project: Project) -> tuple:
    """(references, dangling, contradictions, partial contradictions, [exact totals]) of one project."""
    dangling: list[Dangling] = []
    full: list[Contradiction] = []
    partial: list[Contradiction] = []
    totals = [0, 0, 0]
    count = 0
    by_id = {atom.id: atom for atom in project.atoms if atom.id}
    by_id.update({atom.stem: atom for atom in project.atoms if atom.stem not in by_id})
    for atom in project.atoms:
        refs = references(atom)
        count += len(refs)
        for field, target in refs:
            if target not in by_id and FOLDER_OF[target.split("-", 1)[0]] not in project.unlisted:
                totals[0] += 1
                if totals[0] <= MAX_LISTED:
                    dangling.append(Dangling(atom.rel, atom.lines.get(field), field, target))
        if atom.folder == "experiments":
            continue
        evidence = [target for field, target in refs if field == "evidence" and target in by_id]
        failed = tuple(f"{t} ({by_id[t].status})" for t in evidence if failed_status(by_id[t].status))
        if failed:
            which, index = (full, 1) if len(failed) == len(evidence) else (partial, 2)
            totals[index] += 1
            if totals[index] <= MAX_LISTED:
                which.append(Contradiction(atom.rel, atom.lines.get("evidence"), failed, len(evidence)))
    return count, dangling, full, partial, totals


def collect(layout: DenseLayout) -> ReferencesEvidence:
    count, lists, totals = 0, ([], [], []), [0, 0, 0]
    for _, (refs, *found, counts) in analysed(layout, "dc_references"):
        count += refs
        for kept, more in zip(lists, found):
            kept.extend(more[:max(0, MAX_LISTED - len(kept))])
        totals = [a + b for a, b in zip(totals, counts)]
    status = EvidenceStatus.UNREADABLE if scanned_tree(layout).unreadable else EvidenceStatus.OK
    return ReferencesEvidence(status, count, tuple(lists[0]), totals[0], tuple(lists[1]), totals[1], tuple(lists[2]),
                              totals[2])
