"""Help data: reviewer lifecycle finding ids (health.judge.rules.reviewer_lifecycle). Part of the catalogue read by explain and -v."""
from health.judge.catalogue import CRITICAL, WARN, Check, Ok, Problem, checks_of

STARTS = "O/reviewer-starts.jsonl"

REVIEWER_LIFECYCLE_RUNS = Check("reviewer-lifecycle:runs", "every started reviewer run reached its terminal row")
REVIEWER_RUNS_COMPLETE = Ok("reviewer-runs-complete", REVIEWER_LIFECYCLE_RUNS)
REVIEWER_INTERRUPTED = Problem(
    "reviewer-interrupted", WARN, REVIEWER_LIFECYCLE_RUNS,
    f"A recent reviewer run wrote its started row ({STARTS}) but no terminal row, and its holder is gone "
    "or it ran past the inference timeout plus reviewer_run_grace_ms: that review was lost.",
    ("the reviewer process was killed (machine asleep, out of memory, session closed)",
     "inference hung past its timeout"),
    "Read O/reviewer-runs/<runId>/ of the runs the finding lists; the next fire starts a new review. "
    "Raise inference_timeout_seconds if the model is slow.", threshold="reviewer_run_grace_ms")
REVIEWER_INTERRUPTED_REPEATEDLY = Problem(
    "reviewer-interrupted-repeatedly", CRITICAL, REVIEWER_LIFECYCLE_RUNS,
    "The last 3 started reviewer runs all ended without a terminal row: every review is lost between "
    "start and completion.",
    ("the reviewer is killed each time (a sandbox, an OOM killer, a short-lived session)",
     "the inference command never returns"),
    "Run `cortex review run` by hand and watch it finish; fix what kills it before the next fire.",
    threshold="reviewer_run_grace_ms")

REVIEWER_LIFECYCLE_SPAWN = Check("reviewer-lifecycle:spawn", "the newest review a fire spawned actually started")
REVIEWER_SPAWN_STARTED = Ok("reviewer-spawn-started", REVIEWER_LIFECYCLE_SPAWN)
REVIEWER_NEVER_STARTED = Problem(
    "reviewer-never-started", CRITICAL, REVIEWER_LIFECYCLE_SPAWN,
    "reviewer-fires.jsonl says a fire spawned a review, but no started row followed within "
    "reviewer_run_grace_ms: the reviewer dies before it begins.",
    ("the Python running the hook cannot import cortex (a moved or broken virtual environment)",
     "the memory root is not writable by the detached reviewer"),
    "Run the command a fire runs (`python -m cortex review run --memory-root M`) by hand and read its "
    "error; the next fire retries.", threshold="reviewer_run_grace_ms")

CHECKS = checks_of(REVIEWER_RUNS_COMPLETE, REVIEWER_INTERRUPTED, REVIEWER_INTERRUPTED_REPEATEDLY,
                   REVIEWER_SPAWN_STARTED, REVIEWER_NEVER_STARTED)
