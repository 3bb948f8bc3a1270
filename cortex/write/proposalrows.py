"""Write path: the shape of one row of O/pending-proposals.jsonl; used by cortex.write.proposals and published as a schema.

Exactly the keys the auditor and the reference read: id, ts, status, target_file,
target_kind, edit, confidence, rationale, observed_across_sessions, source_session; a
decided row adds decided_at and decided_by. Pending means status is exactly "pending".
"""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from cortex.evidencerows import PROPOSAL_STATUSES
from cortex.write.itemfields import MAX_OBSERVED_SESSIONS, Confidence, FreeText, SessionId
from cortex.write.items import ProposalKind

ProposalStatus = Literal[PROPOSAL_STATUSES]  # the auditor's predicate (cortex.evidencerows) shares the names


class ProposalRow(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, title="lifeos-cortex/v1 pending-proposals row")

    id: StrictStr = Field(min_length=1, max_length=128)
    ts: StrictStr = Field(description="when the proposal was queued (core clock, ISO 8601 UTC)")
    status: ProposalStatus
    target_file: StrictStr = Field(description="ROOT-relative pinned target, e.g. LIFEOS/USER/PRINCIPAL/PRINCIPAL_IDENTITY.md")
    target_kind: ProposalKind
    edit: FreeText
    confidence: Confidence
    rationale: FreeText
    observed_across_sessions: StrictInt = Field(ge=1, le=MAX_OBSERVED_SESSIONS)
    source_session: Optional[SessionId]
    decided_at: Optional[StrictStr] = None
    decided_by: Optional[StrictStr] = None

    def to_row(self) -> dict:
        row = self.model_dump()
        for key in ("decided_at", "decided_by"):
            if row[key] is None:
                del row[key]
        return row
