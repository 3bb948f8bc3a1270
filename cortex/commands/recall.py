"""Prompt command: `cortex recall [PROMPT] [--limit K]` for a UserPromptSubmit hook; registered with the CLI.

Prints a bounded <lifeos-recall> context block (nothing when no record clears the relevance gate:
content terms only, a score floor, cortex.core.relevance) and appends
one row to O/memory-retrievals.jsonl. Without PROMPT the Claude Code hook payload on stdin
supplies `prompt`. A hot path: stdlib only, no envelope; on any error stdout stays empty,
one line goes to stderr, no row is written and the exit code is 0. Prints nothing and
records nothing in a subagent session.
"""
from __future__ import annotations

import time

from cortex.core import gcpause
from cortex.errors import InvalidInput
from cortex.hookinput import is_subagent, payload_text, read_hook_payload
from cortex.invocation import CommandSpec, Invocation
from cortex.layout import Layout
from cortex.core.relevance import floor_from
from cortex.hot.retrieval import DEFAULT_LIMIT, MAX_LIMIT, log_recall, recall


def recall_command(inv: Invocation) -> tuple[int, str]:
    """The collector held off for the whole answer (cortex.core.gcpause: a short-lived hook)."""
    with gcpause.paused():
        return _recall(inv, time.perf_counter())


def _recall(inv: Invocation, started: float) -> tuple[int, str]:
    if is_subagent(inv):
        return 0, ""
    if len(inv.positionals) > 1:
        raise InvalidInput("recall takes one PROMPT (quote it), or the hook payload on stdin")
    limit = inv.count_option("--limit", DEFAULT_LIMIT, MAX_LIMIT)
    query = inv.positionals[0] if inv.positionals else payload_text(read_hook_payload(inv.stdin), "prompt")
    if query is None:
        raise InvalidInput("recall needs a PROMPT argument or a hook payload with prompt on stdin")
    layout = Layout.from_memory_root(inv.requested_memory_root())
    now = inv.now_ms()
    from cortex.searchcache.loader import load_corpus  # here, not at import: `recall --help` needs no sqlite3

    floor = floor_from(inv.options, inv.environ)
    corpus = load_corpus(layout.memory_root, inv.environ, inv.now_ms, index=True, notes=inv.notices, builds=inv.builds)
    try:
        result = recall(layout, query, limit, now, corpus, floor)
    finally:
        corpus.close()
    log_recall(layout, result, now, round((time.perf_counter() - started) * 1000, 3))
    return 0, result.block


COMMANDS = [CommandSpec(
    "recall", recall_command, value_options=frozenset({"--limit", "--min-score", "--min-share"}), enveloped=False,
    error_exit=0, usage="cortex recall [PROMPT] [--limit K] [--min-score S] [--min-share F]",
    option_help=(("PROMPT", "default: the `prompt` of Claude Code's hook JSON on stdin"),
                 ("--limit K", "at most K records (default 5)"),
                 ("", "Only records sharing a word with the prompt other than a stopword (and, in, what...) and"),
                 ("", "clearing the relevance floor are printed:"),
                 ("--min-score S", "BM25 score at least S (default 0: off; CORTEX_RECALL_MIN_SCORE)"),
                 ("--min-share F", "at least F of the best record's score (0-1, default 0.15;\nCORTEX_RECALL_MIN_SHARE)")),
    example="cortex recall 'what tea do I like' --limit 3")]
