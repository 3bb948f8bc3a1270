"""Help data: review-state finding ids (health.judge.rules.review_state). Part of the catalogue read by explain and -v."""
from health.judge.catalogue import CRITICAL, WARN, Check, Ok, Problem, checks_of

STATE = "O/review-state.json"

REVIEW_STATE_FILE = Check("review-state:file", "the reviewer cadence state is present and parseable")
STATE_READABLE = Ok("state-readable", REVIEW_STATE_FILE)
STATE_MISSING = Problem(
    "state-missing", WARN, REVIEW_STATE_FILE,
    f"{STATE} does not exist: the reviewer cadence hook has never run.",
    ("a new install", "the cadence Stop hook is not registered", "the file was deleted"),
    "Register the cadence hook (`cortex review fire` on Stop; `cortex-health setup claude-code` prints the "
    "settings.json block) and end a session; it creates the file.")
STATE_CORRUPT = Problem(
    "state-corrupt", CRITICAL, REVIEW_STATE_FILE,
    f"{STATE} cannot be used: unreadable, not a JSON object, or last_review_at is not a valid timestamp.",
    ("a torn write", "a hand edit", "the file replaced by a symlink or a directory"),
    "Fix the JSON (the reason names the problem) or delete the file so the hook recreates it; the "
    "cadence restarts from zero.")

REVIEW_STATE_LAST_REVIEW = Check("review-state:last-review", "the reviewer fired recently")
REVIEW_FRESH = Ok("review-fresh", REVIEW_STATE_LAST_REVIEW)
REVIEW_STALE = Problem(
    "review-stale", WARN, REVIEW_STATE_LAST_REVIEW,
    "last_review_at is missing or older than reviewer_stale_ms (7 days by default): the autonomic "
    "loop may be stuck.",
    ("no sessions in that period", "the cadence never reaches its turn threshold",
     "the reviewer fires but never records its run"),
    "Check turn_count_since_last_review and pending_review in the state file and the reviewer's Stop "
    "hook; end a session to fire a review.", threshold="reviewer_stale_ms")
REVIEW_FUTURE = Problem(
    "review-future", WARN, REVIEW_STATE_LAST_REVIEW,
    "last_review_at lies after the audit's now and cannot prove a recent review.",
    ("clock skew", "a wrong --now or CORTEX_HEALTH_NOW", "a hand edit"),
    "Fix the clock or the injected --now; the next review rewrites the timestamp.")

CHECKS = checks_of(STATE_READABLE, STATE_MISSING, STATE_CORRUPT, REVIEW_FRESH, REVIEW_STALE, REVIEW_FUTURE)
