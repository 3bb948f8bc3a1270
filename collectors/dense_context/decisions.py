"""Collect stage (Dense Context): decision records in CONTEXT/decisions and each project's decisions/. Called through the layout's collector list.

A record is `NNNN-title.md` whose first non-blank line is `# DR-NNNN: <Title>` with the
file's number; each folder numbers from 0001 without gaps or duplicates. AGENTS.md,
AGENTS.local.md, index.md and README.md are folder indexes, not records.
"""
from __future__ import annotations

import os
import re
from collections import Counter, namedtuple

from collectors.dense_context.layout import DenseLayout
from collectors.dense_context.tree import MAX_LISTED, is_dir, list_dir, read_head
from collectors.readers.fsprobe import describe_os_error
from cortex.core.privacy import strip_private_content
from cortex.core.safeio import UnsafeFile
from collectors.evidence import EvidenceStatus

NOT_RECORDS = frozenset(["AGENTS.md", "AGENTS.local.md", "index.md", "README.md"])
_NAME = re.compile(r"(\d{4})-[^/]+\.md\Z")
_TITLE = re.compile(r"# DR-(\d{4}): \S")
MAX_HEAD = 4096


class DecisionProblem(namedtuple("DecisionProblem", "kind path line detail")):
    """One decision-record problem.

    kind: str (misnamed | title | numbering); path: str (the file for misnamed and title, the folder for
    numbering, under CONTEXT); line: int | None; detail: str.
    """

    __slots__ = ()


class DecisionsEvidence(namedtuple("DecisionsEvidence", "status folders records problems problems_total")):
    """Every decision folder.

    status: EvidenceStatus; folders, records, problems_total: int; problems: tuple[DecisionProblem, ...].
    """

    __slots__ = ()


def title_line(path: str) -> tuple[int | None, str]:
    """(line number, text) of the first non-blank line, or (None, why it cannot be read)."""
    try:
        text = strip_private_content(read_head(path, MAX_HEAD).decode("utf-8", errors="replace"))
    except UnsafeFile as error:
        return None, f"unreadable: {error}"
    except OSError as error:
        return None, f"unreadable: {describe_os_error(error)}"
    for number, line in enumerate(text.splitlines()[:200], 1):
        if line.strip():
            return number, line.strip()
    return None, "the file is empty"


def check_folder(folder: str, layout: DenseLayout) -> tuple[int, list[DecisionProblem]]:
    entries = list_dir(folder)
    rel = layout.rel(folder)
    if isinstance(entries, str):
        return 0, [DecisionProblem("numbering", rel, None, f"folder unreadable: {entries}")]
    problems, numbers = [], []
    for entry in entries:
        if entry.name in NOT_RECORDS or entry.name.startswith(".") or is_dir(entry):
            continue
        name = _NAME.match(entry.name)
        if not name:
            problems.append(DecisionProblem("misnamed", f"{rel}/{entry.name}", None, "not named NNNN-title.md"))
            continue
        numbers.append(int(name.group(1)))
        line, text = title_line(entry.path)
        title = _TITLE.match(text) if line else None
        if title is None or title.group(1) != name.group(1):
            problems.append(DecisionProblem("title", f"{rel}/{entry.name}", line,
                                            f"first line {text[:120]!r} is not '# DR-{name.group(1)}: <Title>'"))
    seen = set(numbers)
    gaps = [n for n in range(1, max(numbers, default=0) + 1) if n not in seen]
    doubled = sorted(n for n, times in Counter(numbers).items() if times > 1)
    if gaps or doubled:
        detail = "; ".join(part for part in (
            gaps and "missing " + ", ".join(f"{n:04d}" for n in gaps[:20]),
            doubled and "duplicated " + ", ".join(f"{n:04d}" for n in doubled[:20])) if part)
        problems.append(DecisionProblem("numbering", rel, None, detail))
    return len(numbers), problems


def decision_folders(layout: DenseLayout) -> list[str]:
    found = [os.path.join(layout.context, "decisions")]
    entries = list_dir(layout.projects)
    for entry in [] if isinstance(entries, str) else entries:
        if is_dir(entry) and not entry.name.startswith("."):
            found.append(os.path.join(entry.path, "decisions"))
    return [folder for folder in found if os.path.lexists(folder)]


def collect(layout: DenseLayout) -> DecisionsEvidence:
    folders = decision_folders(layout)
    records, listed, total = 0, [], 0
    for folder in folders:
        count, problems = check_folder(folder, layout)
        records += count
        total += len(problems)
        listed.extend(problems[:max(0, MAX_LISTED - len(listed))])
    return DecisionsEvidence(EvidenceStatus.OK, len(folders), records, tuple(listed), total)
