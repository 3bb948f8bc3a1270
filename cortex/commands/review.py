"""Reviewer commands: `cortex review run [--input TRANSCRIPT] [--turns N] [--dry-run]` and `cortex review replay RUN_ID`; registered with the CLI.

Runs one memory review (cortex.review.reviewer) and answers with an envelope: data {runId,
run_dir, row, results} on success or skip; a failed run is an error envelope (exit 6,
review_failed; exit 4 for a broken config or transcript; exit 1 internal_error only for a
bug) after its terminal row was written.
`--dry-run` answers {dry_run, transcript, exchanges, prompt, …} and writes nothing.
`replay` dispatches a run's kept failed items again (cortex.review.reviewreplay): data {runId,
replayed, succeeded, failures, done}.
"""
from __future__ import annotations

from cortex.errors import InvalidInput
from cortex.invocation import CommandSpec, Invocation
from cortex.review.transcript import DEFAULT_TURNS, MAX_TURNS


def review_run(inv: Invocation) -> dict:
    from cortex.review.reviewer import ReviewRequest, dry_run, run_review

    if inv.positionals:
        raise InvalidInput("review run accepts no positional arguments")
    request = ReviewRequest(inv.option("--input"), inv.count_option("--turns", DEFAULT_TURNS, MAX_TURNS), inv.flag("--dry-run"))
    return dry_run(inv, request) if request.dry_run else run_review(inv, request)


def review_replay(inv: Invocation) -> dict:
    from cortex.review.reviewreplay import replay

    if len(inv.positionals) != 1:
        raise InvalidInput("review replay requires exactly one RUN_ID")
    return replay(inv, inv.positionals[0])


_CONFIG = """
Config: LIFEOS/USER/CONFIG/memory-review.json (cortex init writes the defaults; absent = them):
  inference_command    the model call, prompt on stdin, {"items": [...]} on stdout
                       (default ["claude", "-p"]: Claude Code, found on the hook's PATH)
  pass_env             credential-like variables (ANTHROPIC_*, *_API_KEY, *_TOKEN, ...) to hand
                       to the command (default none: the command gets none of them)
  turn_threshold, min_minutes_between   when `review fire` starts a review (8 turns, 30 min)
  confidence_threshold, inference_timeout_seconds, transcript_dir (default ROOT/projects)
  CORTEX_REVIEWER_COMMAND   a command line that overrides inference_command (absolute paths)
A failed run exits 6; its error quotes the first line the command printed on stderr."""

COMMANDS = [
    CommandSpec("review replay", review_replay, usage="cortex review replay RUN_ID",
                option_help=(("RUN_ID", "a run under OBSERVABILITY/reviewer-runs/ with failed-items.json\n"
                                        "(cortex-health reports reviewer-dispatch-failed naming it)"),),
                example="cortex review replay 2026-11-29T08-59-30-004Z"),
    CommandSpec("review run", review_run, value_options=frozenset({"--input", "--turns"}),
                flag_options=frozenset({"--dry-run"}), usage="cortex review run [--input TRANSCRIPT] [--turns N] [--dry-run]",
                option_help=(("--input TRANSCRIPT", "a .jsonl transcript (default: the newest under transcript_dir)"),
                             ("--turns N", "last N user->assistant exchanges (default 20)"),
                             ("--dry-run", "build the prompt, write nothing")),
                notes=_CONFIG, example="cortex review run --dry-run"),
]
