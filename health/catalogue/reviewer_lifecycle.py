"""Help data: reviewer lifecycle finding ids (health.rules.reviewer_lifecycle). Part of the catalogue read by explain and -v."""
from health.catalogue import Check, Problem

STARTS = "O/reviewer-starts.jsonl"

CHECKS = (
    Check("reviewer-lifecycle:runs", "every started reviewer run reached its terminal row",
          ok=("reviewer-runs-complete",), problems=(
        Problem(
            "reviewer-interrupted", "warn",
            f"A recent reviewer run wrote its started row ({STARTS}) but no terminal row, and its holder is gone "
            "or it ran past the inference timeout plus reviewer_run_grace_ms: that review was lost.",
            ("the reviewer process was killed (machine asleep, out of memory, session closed)",
             "inference hung past its timeout"),
            "Read O/reviewer-runs/<runId>/ of the runs the finding lists; the next fire starts a new review. "
            "Raise inference_timeout_seconds if the model is slow.", threshold="reviewer_run_grace_ms"),
        Problem(
            "reviewer-interrupted-repeatedly", "critical",
            "The last 3 started reviewer runs all ended without a terminal row: every review is lost between "
            "start and completion.",
            ("the reviewer is killed each time (a sandbox, an OOM killer, a short-lived session)",
             "the inference command never returns"),
            "Run `cortex review run` by hand and watch it finish; fix what kills it before the next fire.",
            threshold="reviewer_run_grace_ms"),
    )),
    Check("reviewer-lifecycle:spawn", "the newest review a fire spawned actually started",
          ok=("reviewer-spawn-started",), problems=(
        Problem(
            "reviewer-never-started", "critical",
            "reviewer-fires.jsonl says a fire spawned a review, but no started row followed within "
            "reviewer_run_grace_ms: the reviewer dies before it begins.",
            ("the Python running the hook cannot import cortex (a moved or broken virtual environment)",
             "the memory root is not writable by the detached reviewer"),
            "Run the command a fire runs (`python -m cortex review run --memory-root M`) by hand and read its "
            "error; the next fire retries.", threshold="reviewer_run_grace_ms"),
    )),
)
