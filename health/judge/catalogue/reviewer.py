"""Help data: reviewer finding ids (health.judge.rules.reviewer). Part of the catalogue read by explain and -v."""
from health.judge.catalogue import CRITICAL, WARN, Check, Ok, Problem, checks_of

LOG = "O/reviewer-runs.jsonl"
FAILING_RUNS = 3  # of the last collectors.lifeos.reviewer.HISTORY terminal rows: health.judge.rules.reviewer warns at this many

REVIEWER_LATEST_RUN = Check("reviewer:latest-run", "the latest reviewer run succeeded (or was a valid skip) recently")
REVIEWER_FRESH = Ok("reviewer-fresh", REVIEWER_LATEST_RUN)
REVIEWER_EVIDENCE_MISSING = Problem(
    "reviewer-evidence-missing", WARN, REVIEWER_LATEST_RUN,
    f"No reviewer run has been recorded: {LOG} is absent or has no row, and no run directory is newer.",
    ("the memory reviewer has never fired on this machine (a new install)",
     "the Stop hook that fires the reviewer is not registered in settings.json",
     "the log was rotated away or deleted"),
    "Check that the reviewer's Stop hook (`cortex review fire`) is registered in settings.json "
    "(`cortex-health setup claude-code` prints the block), or run `cortex review run` once; end a session "
    f"normally; the next review appends a terminal row to {LOG}. If the log was rotated, restore its "
    "latest rows.")
REVIEWER_LATEST_FAILED = Problem(
    "reviewer-latest-failed", CRITICAL, REVIEWER_LATEST_RUN,
    "The latest reviewer run ended with ok false (not a timeout, output not rejected): its inference "
    "command or its dispatch failed, so nothing from that session was curated.",
    ("a dispatch error: a write refused by governance, a lock held too long, a full disk",
     "the inference command failed (not logged in, an invalid API key, a credential withheld by pass_env): "
     "the error quotes the first line it printed on stderr",
     "a reviewer bug after an update"),
    f"Read `error` in the latest row of {LOG} and the files in O/reviewer-runs/<runId>/; fix the cause. "
    "The next successful review clears this finding.")
REVIEWER_COMMAND_MISSING = Problem(
    "reviewer-command-missing", CRITICAL, REVIEWER_LATEST_RUN,
    "The latest reviewer run could not start its inference command (the model call, `claude -p` unless "
    "memory-review.json or CORTEX_REVIEWER_COMMAND names another): the program is not installed or not on "
    "the PATH the Stop hook gives the reviewer, so no session is curated.",
    ("Claude Code (`claude`) is not installed on this machine",
     "the agent's hooks run with a PATH that lacks the folder holding the command",
     "inference_command names a program that was moved, renamed or removed"),
    "Install Claude Code (`claude` on the hooks' PATH), or name another command in inference_command "
    "(LIFEOS/USER/CONFIG/memory-review.json, an absolute path is safest) or CORTEX_REVIEWER_COMMAND; then "
    "run `cortex review run` once. The next successful review clears this finding.")
REVIEWER_LATEST_PARSE_FAILED = Problem(
    "reviewer-latest-parse-failed", CRITICAL, REVIEWER_LATEST_RUN,
    "The reviewer's latest output could not be used: its row has parse_ok false, a newer run directory "
    f"holds parse-error.txt, or {LOG} has malformed lines (an older success cannot stand in for them).",
    ("the model returned non-JSON or truncated output",
     "a hand edit or a torn write left a broken line in the log",
     "two writers appended to the log at the same time"),
    "Read parse-error.txt in the newest run directory, or the line numbers in the finding; repair or "
    "remove the broken lines (keep a copy) and let the next review run.")
REVIEWER_LATEST_TIMED_OUT = Problem(
    "reviewer-latest-timed-out", CRITICAL, REVIEWER_LATEST_RUN,
    "The latest reviewer run did not finish: its row reports a timeout, or a run directory newer than "
    "the latest row has had no terminal row for longer than the grace period.",
    ("inference took longer than the reviewer's own timeout (slow or rate-limited model)",
     "the reviewer process was killed (machine asleep, out of memory, session closed)",
     "the reviewer is still running but stuck"),
    "Check whether a reviewer process is still running and what O/reviewer-runs/<runId>/ reached. If it "
    "died, the next Stop hook fires a new run. Raise reviewer_run_grace_ms only if runs legitimately take "
    "longer.", threshold="reviewer_run_grace_ms")
REVIEWER_EVIDENCE_INVALID = Problem(
    "reviewer-evidence-invalid", CRITICAL, REVIEWER_LATEST_RUN,
    "Reviewer evidence cannot be trusted: the log or the run folder is unreadable (a directory, FIFO, "
    "symlink or permission error), or the latest row lacks the exact success or skip shape (unknown keys, "
    "totals that do not add up, an impossible timestamp).",
    ("a hand-edited row, or one written by another reviewer version",
     "the log replaced by a symlink or a directory",
     "permissions changed on the observability folder"),
    f"Compare the latest row of {LOG} with the documented shape (the finding's reason names the "
    "problem); restore a regular, readable file; upgrade LifeOS and cortex-health together when the row "
    "shape changes.")
REVIEWER_FUTURE = Problem(
    "reviewer-future", WARN, REVIEWER_LATEST_RUN,
    "The latest reviewer timestamp lies after the audit's now, so it cannot prove the reviewer ran "
    "recently.",
    ("clock skew between machines sharing the tree", "a wrong --now or CORTEX_HEALTH_NOW",
     "a hand-edited ts"),
    "Fix the system clock (timedatectl, NTP) or the injected --now; the next review writes a correct "
    "timestamp.")
REVIEWER_STALE = Problem(
    "reviewer-stale", WARN, REVIEWER_LATEST_RUN,
    "The latest reviewer run is older than reviewer_stale_ms (7 days by default): the memory loop has "
    "curated nothing for that long.",
    ("no session ended in that period (the machine was idle)",
     "the Stop hook no longer fires the reviewer (removed, or the cadence is never reached)",
     "the reviewer fails before it can write a row"),
    "If the machine was in use, check the reviewer's Stop hook and the turn counts in "
    "O/review-state.json, then end a session to fire a review. Raise reviewer_stale_ms if reviews are "
    "meant to be rarer.", threshold="reviewer_stale_ms")

REVIEWER_RECENT_RUNS = Check("reviewer:recent-runs", "few of the last 5 reviewer runs failed and none hit EAT_CAP")
REVIEWER_HEALTHY = Ok("reviewer-healthy", REVIEWER_RECENT_RUNS)
REVIEWER_FAILING = Problem(
    "reviewer-failing", WARN, REVIEWER_RECENT_RUNS,
    "3 or more of the last 5 terminal reviewer runs failed: even when the latest one succeeded, the "
    "reviewer is unreliable.",
    ("intermittent inference timeouts or rate limits", "a dispatch failure that recurs for one memory type"),
    f"Read `error` of the failed runs the finding lists (detail.runs) in {LOG} and fix the recurring "
    "cause; the finding clears once fewer than 3 of the last 5 runs failed.", fixed=FAILING_RUNS)
REVIEWER_EAT_CAP = Problem(
    "reviewer-eat-cap", CRITICAL, REVIEWER_RECENT_RUNS,
    "A recent reviewer run dropped a fact because a hot-memory file was full (a dispatch failure "
    "carrying EAT_CAP): memory was lost.",
    ("PRINCIPAL_MEMORY.md or DA_MEMORY.md at 48 of 48 entries",
     "consolidation not keeping up with new facts"),
    "Consolidate the full hot-memory file (merge or retire entries) so it has headroom, then review the "
    "affected session again if you can. Act on cap-pressure before the cap is reached.")

REVIEWER_REFUSED_WRITES = Check(
    "reviewer:refused-writes", "the writes the reviewer's dispatch attempts are not refused (the latest run with "
    "items, and the last 5 runs together)")
REVIEWER_WRITES_ACCEPTED = Ok("reviewer-writes-accepted", REVIEWER_REFUSED_WRITES)
REVIEWER_WRITES_REFUSED = Problem(
    "reviewer-writes-refused", WARN, REVIEWER_REFUSED_WRITES,
    "The reviewer runs and parses items, but the governed write path refuses them: the latest run with items "
    "had every write refused, or more than reviewer_refused_share of the items of the last 5 runs were. "
    "A run whose every item a suspect-write guard stopped still counts as a success in reviewer-runs.jsonl, "
    "so nothing else reports it; memory silently stops being curated. The finding counts the refusal codes.",
    ("ESUSPECT_EROSION / ESUSPECT_SHRINK: the model returns shorter hot-memory lists than the file holds "
     "(it drops entries it was shown), and the guard refuses each", "EAT_CAP: the hot file is full",
     "EINVAL_ITEM or a proposal target that does not exist: the model's items do not fit the contract"),
    f"Read dispatch_summary.skips and .failures of the runs in {LOG} (detail.runs) and the reviewer-runs/"
    "<runId>/ folders; for guard refusals, consolidate the hot file or check the reviewer's model and "
    "prompt; items kept in failed-items.json can be dispatched again with `cortex review replay RUN_ID`.",
    threshold="reviewer_refused_share")

CHECKS = checks_of(REVIEWER_FRESH, REVIEWER_EVIDENCE_MISSING, REVIEWER_LATEST_FAILED, REVIEWER_COMMAND_MISSING,
                   REVIEWER_LATEST_PARSE_FAILED, REVIEWER_LATEST_TIMED_OUT, REVIEWER_EVIDENCE_INVALID,
                   REVIEWER_FUTURE, REVIEWER_STALE, REVIEWER_HEALTHY, REVIEWER_FAILING, REVIEWER_EAT_CAP,
                   REVIEWER_WRITES_ACCEPTED, REVIEWER_WRITES_REFUSED)
