"""Help data: hook latency finding ids (health.judge.rules.hook_latency). Part of the catalogue read by explain and -v.

`{hook}` is recall, fire or gate (render leaves no per-prompt log: `cortex-health probe` times it).
"""
from health.judge.catalogue import WARN, Check, Ok, Problem, checks_of

HOOK_LATENCY_TIMEOUT_MARGIN = Check(
    "hook-latency:timeout-margin", "each registered hook's p95 over the last 24 h is within half its timeout")
HOOK_LATENCY_OK = Ok("hook-latency-ok:{hook}", HOOK_LATENCY_TIMEOUT_MARGIN)
HOOK_LATENCY_NO_ROWS = Ok("hook-latency-no-rows:{hook}", HOOK_LATENCY_TIMEOUT_MARGIN)
HOOK_SLOW = Problem(
    "hook-slow:{hook}", WARN, HOOK_LATENCY_TIMEOUT_MARGIN,
    "The hook's 95th-percentile duration over the last 24 h of its rows (recall: memory-retrievals.jsonl, "
    "fire: reviewer-fires.jsonl, gate: the reports in memory-health.jsonl) is above half the timeout "
    "settings.json registers for it (its `timeout`, else Claude Code's 60 s). The agent kills a hook at its "
    "timeout and the prompt goes on without memory. Durations are measured inside the command: the "
    "interpreter's start-up is not in them, so the real margin is a little smaller. The gate returns at once "
    "and its check runs detached after the Stop hook: its durations are the check's, which a deadline "
    "(`--timeout`) ends with an overrun report, so a slow gate costs reports, not the agent's time.",
    ("a large corpus without the search cache (recall)", "a slow or busy disk, or a network file system",
     "a machine under heavy load", "a timeout set too low in settings.json"),
    "See which step is slow with `cortex-health probe` (it times the whole hook as the agent runs it); for "
    "recall build the search cache (`cortex cache status`) or lower `--limit`; otherwise raise the hook's "
    "`timeout` in settings.json above twice its p95.")

CHECKS = checks_of(HOOK_LATENCY_OK, HOOK_LATENCY_NO_ROWS, HOOK_SLOW)
