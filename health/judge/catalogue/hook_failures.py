"""Help data: hook failure ids (health.judge.rules.hook_failures). Part of the catalogue read by explain and -v.

`{hook}` is render (`cortex hot render`), recall (`cortex recall`), fire (`cortex review fire`)
or gate (`cortex-health gate`).
"""
from health.judge.catalogue import CRITICAL, WARN, Check, Ok, Problem, checks_of

HOOKS_FAILURES = Check(
    "hooks:failures", "no hook has failed since its last successful run (O/hook-failures.jsonl against each "
    "hook's heartbeat)")
HOOK_FAILURES_NONE = Ok("hook-failures-none", HOOKS_FAILURES)
HOOK_RECOVERED = Ok("hook-recovered:{hook}", HOOKS_FAILURES)
HOOK_FAILING = Problem(
    "hook-failing:{hook}", CRITICAL, HOOKS_FAILURES,
    "The hook's newest run could not do its job and it has not succeeded since: it recorded the failure in "
    "LIFEOS/MEMORY/OBSERVABILITY/hook-failures.jsonl (code, reason, file and field at fault) and exited as "
    "always, so the agent goes on without that part of the memory loop (render: no memory block; recall: "
    "no retrieval; fire: no turn counted, no review; gate: no published verdict).",
    ("a canonical note the corpus loader refuses (an impossible date, a duplicate id): recall stops",
     "a broken memory-review.json or CORTEX_REVIEWER_COMMAND: review fire exits 1 on every Stop",
     "an unreadable hot file or memory folder (permissions, a symlink, invalid UTF-8)",
     "the gate's check did not finish within its deadline, or could not publish its report"),
    "Fix what the finding names (detail.file, detail.line, detail.field, detail.reason), then run the hook's "
    "command by hand (detail.command) to confirm; its next successful run turns this into "
    "hook-recovered. `cortex-health explain corpus-integrity-error` and `explain reviewer-config-invalid` "
    "cover the two most common causes.")
HOOK_FAILURES_LOG_INVALID = Problem(
    "hook-failures-log-invalid", WARN, HOOKS_FAILURES,
    "LIFEOS/MEMORY/OBSERVABILITY/hook-failures.jsonl exists but cannot be read, or holds rows that are not "
    "the hooks' failure rows: a hook failure may be hidden.",
    ("the log replaced by a symlink, a directory or a FIFO", "a hand edit or another program wrote to it"),
    "Make it a regular file again; move a damaged log aside (the hooks start a new one at their next "
    "failure).")

CHECKS = checks_of(HOOK_FAILURES_NONE, HOOK_RECOVERED, HOOK_FAILING, HOOK_FAILURES_LOG_INVALID)
