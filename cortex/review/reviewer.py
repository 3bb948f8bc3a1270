"""Reviewer stage: one memory review end to end (transcript → prompt → inference → parse → dispatch → evidence); called by `cortex review run`.

Order matters for the evidence: once the memory root is pinned, the run directory exists,
and whatever happens next — a broken config, an unreadable transcript, a timeout, a
rejected answer, a failed write, a bug — ends in exactly one terminal row. `--dry-run`
builds the prompt and writes nothing at all.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from cortex.review.childenv import inference_environment
from cortex.write.dispatch import dispatch
from cortex.errors import CortexError
from cortex.review.failurecause import explained
from cortex.review.inference import InferenceError, run_inference
from cortex.core.jsjson import dumps
from cortex.layout import Layout
from cortex.review.reviewconfig import ReviewConfig, load_config
from cortex.review.reviewinput import ReviewRequest, gather, session_of
from cortex.review.reviewoutput import OutputRejected, ParsedOutput, parse_output
from cortex.review.reviewprompt import corrective_prompt
from cortex.review.reviewreplay import keep_failed
from cortex.review.reviewruns import (ReviewRun, append_terminal_row, failure_row, open_run, record_start, skip_row,
                               success_row)
from cortex.review.reviewstate import read_state, state_lock, write_state
from cortex.core.safepaths import memory_dir
from cortex.core.timestamps import iso_from_ms, now_ms, parse_timestamp_ms
from cortex.write.writecontext import WriteContext

__all__ = ["ReviewFailed", "ReviewRequest", "dry_run", "run_review"]


class ReviewFailed(CortexError):
    """The run ended with a failure row (its error is the message): exit 6, never 1 (internal_error)."""

    code = "review_failed"
    exit_code = 6


@dataclass
class Progress:
    """What the run has established so far: the failure row reports it."""

    transcript: str | None = None
    exchanges: int = 0
    duration_ms: float = 0.0
    parse_ok: bool | None = None
    notes: list[str] = field(default_factory=list)


def clock_ms(environ) -> int:
    """The core clock now (CORTEX_NOW pins it; Invocation validated it already)."""
    pinned = parse_timestamp_ms(environ.get("CORTEX_NOW") or "")
    return now_ms() if pinned is None else pinned


def dry_run(inv, request: ReviewRequest) -> dict:
    ctx = WriteContext.from_invocation(inv)
    memory_dir(ctx.layout.memory_root, create=False)
    config = load_config(ctx.layout, inv.environ)
    material = gather(ctx, config, request, inv.environ)
    return {"dry_run": True, "transcript": material.transcript, "exchanges": len(material.exchanges),
            "skipped": material.skip_reason is not None, "reason": material.skip_reason,
            "inference_command": config.inference_command, "prompt": material.prompt,
            "prompt_chars": len(material.prompt) if material.prompt else 0}


def _ask(run: ReviewRun, config: ReviewConfig, prompt: str, environ, progress: Progress, name: str) -> bytes:
    env = inference_environment(environ, config.pass_env)
    try:
        answer = run_inference(list(config.inference_command), prompt, env, config.inference_timeout_seconds, run.path)
    except InferenceError as error:
        progress.duration_ms = round(progress.duration_ms + error.duration_ms, 3)
        if error.stderr:
            run.save_model_text(f"{name}-stderr.txt", error.stderr.decode("utf-8", "replace"))
        error.message = explained(error, list(config.inference_command), environ, config.pass_env)
        raise
    progress.duration_ms = round(progress.duration_ms + answer.duration_ms, 3)
    run.save_model_text(f"{name}.txt", answer.stdout.decode("utf-8", "replace"))
    if answer.stderr:
        run.save_model_text(f"{name}-stderr.txt", answer.stderr.decode("utf-8", "replace"))
    return answer.stdout


def _parsed(raw: bytes, session: str | None, layout: Layout) -> ParsedOutput | list[str]:
    try:
        return parse_output(raw, session=session, layout=layout)
    except OutputRejected as rejected:
        return rejected.errors


def curate(run: ReviewRun, config: ReviewConfig, prompt: str, session: str | None, environ,
           progress: Progress) -> ParsedOutput | None:
    """Ask, parse, and retry once with the exact errors; None when both answers were rejected."""
    first = _parsed(_ask(run, config, prompt, environ, progress, "output"), session, run.layout)
    if isinstance(first, ParsedOutput) and not first.cap_violations:
        return first
    errors = first if isinstance(first, list) else [cap.message for cap in first.cap_violations]
    run.save("attempt-1-errors.txt", "\n".join(errors) + "\n")
    retry = corrective_prompt(prompt, errors)
    run.save("prompt-retry.txt", retry)
    second = _parsed(_ask(run, config, retry, environ, progress, "output-retry"), session, run.layout)
    if isinstance(second, ParsedOutput):
        return second
    if isinstance(first, ParsedOutput):
        return first  # the retry made it worse: the first answer stands, its cap overflow is refused at dispatch
    run.save("parse-error.txt", "attempt 1:\n" + "\n".join(errors) + "\n\nattempt 2 (after the corrective retry):\n"
             + "\n".join(second) + "\n")
    progress.notes.append(second[0])
    return None


def _review(run: ReviewRun, ctx: WriteContext, request: ReviewRequest, environ, progress: Progress) -> tuple[dict, dict]:
    config = load_config(ctx.layout, environ)
    material = gather(ctx, config, request, environ)
    progress.transcript, progress.exchanges = material.transcript, len(material.exchanges)
    if material.skip_reason is not None:
        return skip_row(run, clock_ms(environ), material.transcript, material.skip_reason), {}
    run.save("prompt.txt", material.prompt)
    parsed = curate(run, config, material.prompt, session_of(material.transcript), environ, progress)
    if parsed is None:
        progress.parse_ok = False
        raise ReviewFailed(f"parse: the answer was rejected twice ({progress.notes[-1]}); see parse-error.txt")
    progress.parse_ok = True
    summary = dispatch(ctx, parsed.items, config.confidence_threshold)
    run.save("dispatch.json", _json(summary.results, parsed))
    keep_failed(run, parsed.items, summary)  # kept for `cortex review replay`, never dropped
    end = clock_ms(environ)
    if not summary.ok:
        codes = sorted({problem["code"] for problem in summary.failures})
        error = f"dispatch: {len(summary.failures)} problem(s): {', '.join(codes)}"
        return failure_row(run, end, material.transcript, progress.exchanges, progress.duration_ms, True, error,
                           summary.to_row()), {"results": summary.results}
    return success_row(run, end, material.transcript, progress.exchanges, progress.duration_ms,
                       summary.to_row()), {"results": summary.results, "truncated_entries": parsed.truncated}


def _json(results: list[dict], parsed: ParsedOutput) -> str:
    return dumps({"results": results, "truncated_entries": parsed.truncated,
                  "cap_violations": [cap.message for cap in parsed.cap_violations]}) + "\n"


def _finish_state(ctx: WriteContext, run: ReviewRun, row: dict) -> str | None:
    """pending_review clears on success or skip; last_review_at becomes at least this run's start
    (a fired run moves it by the start-up delay, a manual run stamps it)."""
    try:
        with state_lock(ctx):
            state = read_state(ctx)
            last = parse_timestamp_ms(state.last_review_at)
            if last is None or last < run.run_ms:
                state.last_review_at = iso_from_ms(run.run_ms)
            state.pending_review = row["ok"] is not True
            write_state(ctx, state)
        return None
    except (CortexError, OSError) as error:
        return f"review-state.json not updated: {getattr(error, 'message', error)}"


def run_review(inv, request: ReviewRequest) -> dict:
    ctx = WriteContext.from_invocation(inv)
    memory_dir(ctx.layout.memory_root, create=False)  # no memory root, no run: nothing to record into
    run = open_run(ctx.layout, ctx.now_ms)
    record_start(ctx, run)
    progress = Progress()
    failure: CortexError | None = None
    try:
        row, extra = _review(run, ctx, request, inv.environ, progress)
    except InferenceError as error:
        failure = ReviewFailed(error.message)
    except CortexError as error:
        failure = error
    except Exception as error:  # noqa: BLE001 - a bug still ends the run with its terminal row
        failure = CortexError(f"internal error: {type(error).__name__}: {error}")  # a bug: internal_error, exit 1
    if failure is not None:
        row, extra = failure_row(run, clock_ms(inv.environ), progress.transcript, progress.exchanges,
                                 progress.duration_ms, progress.parse_ok, failure.message), {}
    append_terminal_row(ctx.layout, row)
    warning = _finish_state(ctx, run, row)
    where = ctx.layout.display(run.path)
    if failure is not None:
        # The same error class (and so the same exit code), with where to look.
        failure.message = f"review {run.run_id} failed: {failure.message} (evidence: {where})"
        raise failure
    if row["ok"] is not True:
        raise ReviewFailed(f"review {run.run_id} failed: {row['error']} (evidence: {where})")
    return {"runId": run.run_id, "run_dir": where, "row": row, **extra, "warnings": [warning] if warning else []}
