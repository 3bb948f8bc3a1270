"""Evaluate stage rule: ROOT holds LIFEOS/MEMORY (collectors.lifeos.memory_root). Used by the evaluator via health.judge.checks."""
from __future__ import annotations

from collectors.evidence import EvidenceStatus
from collectors.lifeos.memory_root import MemoryRootEvidence
from health.judge.catalogue.memory_root import MEMORY_ROOT_MISSING, MEMORY_ROOT_PRESENT
from health.judge.model import Finding
from health.judge.rules import Context

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Iterator


def judge(evidence: MemoryRootEvidence, _ctx: Context) -> Iterator[Finding]:
    if evidence.status is EvidenceStatus.OK:
        yield MEMORY_ROOT_PRESENT.at(message=f"The LifeOS memory tree is at {evidence.expected}.", path=evidence.expected)
        return
    hint = (f" A LifeOS tree is at {evidence.nearby}: use --root {evidence.nearby}." if evidence.nearby
            else " Pass --root the .claude folder that holds LIFEOS/MEMORY, or create one with `cortex init --root DIR`.")
    yield MEMORY_ROOT_MISSING.at(
        message=f"No LifeOS memory tree at {evidence.expected}: every check below reads "
        f"from it, so their findings follow from this one.{hint}",
        path=evidence.expected, nearby=evidence.nearby)
