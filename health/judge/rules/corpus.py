"""Evaluate stage rule: the canonical corpus as the read commands load it. Used by the evaluator through health.judge.checks.

One integrity error in one canonical file makes every `cortex search` exit 4 and every
`cortex recall` print nothing: retrieval is dead until the file is fixed, so it is critical,
named by file, line and rule (never the value; the message is the read commands' own).
"""
from __future__ import annotations

import os

from collectors.lifeos.corpus import CorpusEvidence
from health.judge.catalogue.corpus import CORPUS_INTEGRITY_ERROR, CORPUS_LOADS
from health.judge.model import EvidenceStatus, Finding
from health.judge.rules import Context

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Iterator


def _place(ev: CorpusEvidence, root_display) -> str:
    if ev.file is None:
        return ""
    parts = [root_display(ev.file) + (f":{ev.line}" if ev.line else "")]
    if ev.field:
        parts.append(f"field {ev.field}")
    if ev.rule:
        parts.append(f"rule {ev.rule}")
    return " [" + ", ".join(parts) + "]"


def judge(ev: CorpusEvidence, ctx: Context) -> Iterator[Finding]:
    if ev.status is EvidenceStatus.MISSING:
        return  # no memory root: memory-root-missing is the one finding for it
    if ev.status is EvidenceStatus.OK:
        yield CORPUS_LOADS.at(
            message=f"The canonical corpus loads as search and recall load it: {ev.records} "
            f"record(s) in {ev.files} file(s).", records=ev.records, files=ev.files, path=ev.memory)
        return
    root = os.path.dirname(os.path.dirname(ev.memory))

    def shown(path: str) -> str:
        relative = os.path.relpath(path, root)
        return path if relative.startswith("..") else relative

    yield CORPUS_INTEGRITY_ERROR.at(
        message=f"The canonical corpus fails its integrity rules, so `cortex search` exits 4 and `cortex recall` "
        f"returns nothing on every prompt (retrieval is dead until it is fixed): {ev.message}"
        f"{_place(ev, shown)}.", code=ev.code, reason=ev.message,
        file=shown(ev.file) if ev.file else None, line=ev.line, field=ev.field, rule=ev.rule,
        path=ev.file or ev.memory)
