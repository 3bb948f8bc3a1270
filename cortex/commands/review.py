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


COMMANDS = [
    CommandSpec("review replay", review_replay),
    CommandSpec("review run", review_run, value_options=frozenset({"--input", "--turns"}),
                flag_options=frozenset({"--dry-run"})),
]
