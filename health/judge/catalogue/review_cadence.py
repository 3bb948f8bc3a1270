"""Help data: review-cadence finding ids (health.judge.rules.review_cadence). Part of the catalogue read by explain and -v."""
from health.judge.catalogue import WARN, Check, Ok, Problem, checks_of

REVIEW_CADENCE_SKIPS = Check("review-cadence:skips", "the newest reviewer runs are not all skips")
REVIEWER_NOT_ALL_SKIPS = Ok("reviewer-not-all-skips", REVIEW_CADENCE_SKIPS)
REVIEWER_ALL_SKIPS = Problem(
    "reviewer-all-skips", WARN, REVIEW_CADENCE_SKIPS,
    "The last reviewer_all_skips reviewer runs (5 by default) were all skips: the reviewer runs but "
    "curates nothing.",
    ("no transcript is found (a wrong transcript_dir, a moved ~/.claude/projects)",
     "the transcripts hold no complete user→assistant exchange",
     "the reviewer's guard refuses every session"),
    "Read `error` (the skip reason) of the rows the finding lists in O/reviewer-runs.jsonl and fix it; "
    "`cortex review run --dry-run` shows what the next review would read.", threshold="reviewer_all_skips")

REVIEW_CADENCE_BACKLOG = Check("review-cadence:backlog", "turns waiting for a review stay within reach of the cadence")
REVIEW_BACKLOG_OK = Ok("review-backlog-ok", REVIEW_CADENCE_BACKLOG)
REVIEW_BACKLOG = Problem(
    "review-backlog", WARN, REVIEW_CADENCE_BACKLOG,
    "turn_count_since_last_review in O/review-state.json exceeds review_backlog_factor (4) times the "
    "turn threshold of memory-review.json: the reviewer reads only the last exchanges, so the older ones "
    "will never be curated.",
    ("reviews fail or never start while the fire hook keeps counting",
     "min_minutes_between holds every due review back"),
    "Fix the reviewer (see the reviewer findings), then run `cortex review run` on the affected "
    "transcripts; lower turn_threshold if sessions are long.", threshold="review_backlog_factor")

CHECKS = checks_of(REVIEWER_NOT_ALL_SKIPS, REVIEWER_ALL_SKIPS, REVIEW_BACKLOG_OK, REVIEW_BACKLOG)
