"""Help data: kept dispatch failures (health.rules.dispatch_failures). Part of the catalogue read by explain and -v."""
from health.catalogue import Check, Problem

CHECKS = (
    Check("reviewer-dispatch:kept", "no reviewer item waits for a replay after a failed dispatch",
          ok=("reviewer-dispatch-none-kept",), problems=(
        Problem(
            "reviewer-dispatch-failed", "warn",
            "The reviewer produced items the governed write path refused (a lock held too long, a full disk, a "
            "governance refusal other than the suspect-write guards); they were kept in "
            "O/reviewer-runs/<runId>/failed-items.json instead of being dropped, and are not replayed yet.",
            ("a hot-memory lock held by a stuck writer", "EAT_CAP: the target file was full",
             "a proposal aimed at a file that changed"),
            "Fix the refusal the finding's codes name, then run `cortex review replay RUN_ID` for each run listed "
            "(detail.runs); it re-validates and dispatches them and writes replayed.json when all went through."),
    )),
)
