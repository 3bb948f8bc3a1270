"""Write path: the proposal queue O/pending-proposals.jsonl; used by propose and `cortex proposals list|approve|reject`.

The auditor counts rows whose status is exactly "pending", so every change to this file —
an append or a status change — happens under `pending-proposals.jsonl.lock` as one atomic
replace of the whole file: a crash leaves the old or the new queue, and the pending count
is exact at every instant. Lines we cannot parse are preserved byte for byte and reported,
never dropped; a parsed row crosses the privacy boundary (every key and string) before it is
listed, matched or applied. Approving applies the edit to its pinned target file first (idempotently:
an edit already present is not added twice) and then records the decision, so a crash in
between can be completed by approving again.
"""
from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass

from pydantic import ValidationError

from cortex.core.durable import replace_file
from cortex.errors import IntegrityError, NotFound
from cortex.write.items import ProposalItem, describe
from cortex.core.jsjson import dumps
from cortex.write.proposal_targets import pin_target, stored_form
from cortex.core.privatejson import strip_private_json
from cortex.write.proposalrows import ProposalRow
from cortex.write.refusals import Refusal
from cortex.core.safeio import UnsafeFile, read_bounded
from cortex.core.safepaths import check_regular_or_absent, memory_dir
from cortex.write.targetedit import append_edit
from cortex.write.writecontext import WriteContext
from cortex.layout import OBSERVABILITY, PENDING_PROPOSALS_LOG, PROPOSAL_DECISIONS_LOG as DECISIONS_LOG

MAX_QUEUE_BYTES = 32 * 1024 * 1024


@dataclass(frozen=True)
class Queue:
    lines: tuple[bytes, ...]  # raw lines without their newline, including blank and malformed ones
    rows: tuple[dict | None, ...]  # parsed object per line; None for blank or malformed

    @property
    def malformed_lines(self) -> list[int]:
        return [i + 1 for i, (line, row) in enumerate(zip(self.lines, self.rows)) if row is None and line.strip()]


def _reject_constant(name: str):
    raise ValueError(f"non-standard JSON constant {name}")


def _parse(line: bytes) -> dict | None:
    try:
        row = strip_private_json(json.loads(line.decode("utf-8"), parse_constant=_reject_constant))
    except (UnicodeDecodeError, ValueError, RecursionError):  # KeyCollision is a ValueError
        return None
    return row if isinstance(row, dict) else None


def queue_path(ctx: WriteContext, *, create: bool = True) -> str:
    return os.path.join(memory_dir(ctx.layout.memory_root, OBSERVABILITY, create=create), PENDING_PROPOSALS_LOG)


def load_queue(path: str) -> Queue:
    if not check_regular_or_absent(path):
        return Queue((), ())
    try:
        data = read_bounded(path, MAX_QUEUE_BYTES)
    except UnsafeFile as error:
        raise IntegrityError(f"Proposal queue is not readable: {error}") from None
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()  # the terminating newline, not an extra line
    return Queue(tuple(lines), tuple(_parse(line) for line in lines))


def _serialised(lines) -> bytes:
    return b"".join(line + b"\n" for line in lines)


def _new_id(ctx: WriteContext, taken: set) -> str:
    while True:
        candidate = f"prop-{ctx.now_ms:x}-{secrets.token_hex(3)}"
        if candidate not in taken:
            return candidate


def enqueue(ctx: WriteContext, item: ProposalItem) -> dict:
    kind, relative = pin_target(ctx.layout, item.target_kind, item.target_file)
    path = queue_path(ctx)
    with ctx.lock(path + ".lock"):
        queue = load_queue(path)
        taken = {row.get("id") for row in queue.rows if row}
        row = ProposalRow(
            id=_new_id(ctx, taken), ts=ctx.now_iso, status="pending", target_file=stored_form(relative),
            target_kind=kind, edit=item.edit, confidence=item.confidence, rationale=item.rationale,
            observed_across_sessions=item.observed_across_sessions, source_session=item.source_session,
        ).to_row()
        replace_file(path, _serialised(queue.lines + (dumps(row).encode("utf-8"),)))
    return {"id": row["id"], "status": "pending", "target_file": row["target_file"], "target_kind": kind,
            "path": ctx.layout.display(path)}


def list_queue(ctx: WriteContext, status: str | None = None) -> dict:
    path = queue_path(ctx, create=False)  # listing never creates anything
    exists = check_regular_or_absent(path)
    queue = load_queue(path)
    rows = [row for row in queue.rows if row is not None]
    counts: dict[str, int] = {}
    for row in rows:
        key = row.get("status") if isinstance(row.get("status"), str) else "(invalid)"
        counts[key] = counts.get(key, 0) + 1
    items = [row for row in rows if status is None or row.get("status") == status]
    return {"items": items, "total": len(items), "pending": counts.get("pending", 0), "counts": counts,
            "malformed_lines": queue.malformed_lines, "exists": exists}


def _well_formed(row: dict) -> ProposalRow:
    """Never apply a row that is not exactly a proposal (rows can be edited by hand)."""
    try:
        return ProposalRow.model_validate(row)
    except ValidationError as error:
        raise IntegrityError(f"Proposal {row.get('id')!r} is not a well-formed queue row: {describe(error)}") from None


def decide(ctx: WriteContext, proposal_id: str, decision: str, *, decided_by: str) -> dict:
    """Move one pending proposal to "approved" (applying its edit) or "rejected"."""
    path = queue_path(ctx)
    with ctx.lock(path + ".lock"):
        queue = load_queue(path)
        matches = [i for i, row in enumerate(queue.rows) if row is not None and row.get("id") == proposal_id]
        if not matches:
            raise NotFound(f"No proposal with id {proposal_id!r}")
        if len(matches) > 1:
            raise IntegrityError(f"Proposal id {proposal_id!r} appears on lines {', '.join(str(i + 1) for i in matches)}")
        index = matches[0]
        row = queue.rows[index]
        if row.get("status") != "pending":
            raise Refusal("ENOT_PENDING", f"proposal {proposal_id} is {row.get('status')!r}, not pending")
        applied = None
        if decision == "approved":
            proposal = _well_formed(row)
            applied = append_edit(ctx, proposal.target_file, proposal.edit, proposal.target_kind)
        updated = {**row, "status": decision, "decided_at": ctx.now_iso, "decided_by": decided_by}
        lines = list(queue.lines)
        lines[index] = dumps(updated).encode("utf-8")
        replace_file(path, _serialised(lines))
    warning = ctx.record(DECISIONS_LOG, {"id": proposal_id, "decision": decision, "decided_by": decided_by,
                                          "target_file": row.get("target_file"), "applied": applied})
    return {"id": proposal_id, "status": decision, "target_file": row.get("target_file"), "applied": applied,
            "warnings": [warning] if warning else []}
