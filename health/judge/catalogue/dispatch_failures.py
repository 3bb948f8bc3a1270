"""Help data: kept dispatch failures (health.judge.rules.dispatch_failures). Part of the catalogue read by explain and -v."""
from health.judge.catalogue import WARN, Check, Ok, Problem, checks_of

REVIEWER_DISPATCH_KEPT = Check("reviewer-dispatch:kept", "no reviewer item waits for a replay after a failed dispatch")
REVIEWER_DISPATCH_NONE_KEPT = Ok("reviewer-dispatch-none-kept", REVIEWER_DISPATCH_KEPT)
REVIEWER_DISPATCH_FAILED = Problem(
    "reviewer-dispatch-failed", WARN, REVIEWER_DISPATCH_KEPT,
    "The reviewer produced items the governed write path refused (a lock held too long, a full disk, a "
    "governance refusal other than the suspect-write guards); they were kept in "
    "O/reviewer-runs/<runId>/failed-items.json instead of being dropped, and are not replayed yet.",
    ("a hot-memory lock held by a stuck writer", "EAT_CAP: the target file was full",
     "a proposal aimed at a file that changed"),
    "Fix the refusal the finding's codes name, then run `cortex review replay RUN_ID` for each run listed "
    "(detail.runs); it re-validates and dispatches them and writes replayed.json when all went through.")

CHECKS = checks_of(REVIEWER_DISPATCH_NONE_KEPT, REVIEWER_DISPATCH_FAILED)
