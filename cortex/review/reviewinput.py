"""Reviewer stage: what a review looks at — the transcript, its exchanges, the hot-memory snapshot and the prompt; used by the reviewer.

The transcript is the one given (--input, or the Stop hook's transcript_path), else the
newest *.jsonl under the configured transcript folder (default ROOT/projects, ROOT being the
folder that holds the memory root's LIFEOS/, as the auditor locates it). "Nothing to review" (no transcript, no complete exchange) is
a reason, not an error: the run ends as a skip.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from cortex.errors import IntegrityError
from cortex.hot.hotmemory import validate_entries
from cortex.write.hotwriter import read_prior, resolve_target
from cortex.layout import HOT_LABELS
from cortex.review.reviewconfig import ReviewConfig
from cortex.review.reviewprompt import Snapshot, build_prompt
from cortex.review.reviewstate import is_safe_session
from cortex.review.transcript import Exchange, check_transcript, newest_transcript, recent_exchanges, transcript_folder
from cortex.write.writecontext import WriteContext


@dataclass(frozen=True)
class ReviewRequest:
    transcript: str | None  # --input; else the newest transcript
    turns: int
    dry_run: bool


def transcript_dir(ctx: WriteContext, config: ReviewConfig, environ) -> str:
    return transcript_folder(ctx.layout.root, config.transcript_dir, environ)


def session_of(transcript: str) -> str | None:
    """Claude Code names a transcript <session-id>.jsonl: that id is the items' provenance."""
    stem = os.path.basename(transcript).removesuffix(".jsonl")
    return stem if is_safe_session(stem) else None


def hot_snapshots(ctx: WriteContext) -> list[Snapshot]:
    snapshots = []
    for label in HOT_LABELS:
        target = resolve_target(ctx, label)
        prior = read_prior(target)
        if prior.parsed is None:
            raise IntegrityError(f"Hot memory file is {prior.problem}: {ctx.layout.display(target.path)}")
        snapshots.append(Snapshot(label, validate_entries(prior.parsed.entries).accepted))
    return snapshots


@dataclass(frozen=True)
class Material:
    transcript: str | None
    exchanges: list[Exchange]
    prompt: str | None
    skip_reason: str | None


def gather(ctx: WriteContext, config: ReviewConfig, request: ReviewRequest, environ) -> Material:
    """Transcript, exchanges and prompt — or why there is nothing to review."""
    if request.transcript is not None:
        transcript = check_transcript(request.transcript)
    else:
        folder = transcript_dir(ctx, config, environ)
        transcript = newest_transcript(folder)
        if transcript is None:
            return Material(None, [], None, f"no transcript found under {folder}")
    exchanges = recent_exchanges(transcript, request.turns)
    if not exchanges:
        return Material(transcript, [], None, "the transcript holds no complete user→assistant text exchange")
    prompt = build_prompt(hot_snapshots(ctx), exchanges, config.confidence_threshold)
    return Material(transcript, exchanges, prompt, None)
