"""Help data: reviewer config ids (health.judge.rules.reviewer_config). Part of the catalogue read by explain and -v."""
from health.judge.catalogue import CRITICAL, Check, Ok, Problem, checks_of

REVIEWER_CONFIG = Check(
    "reviewer:config", "LIFEOS/USER/CONFIG/memory-review.json (and CORTEX_REVIEWER_COMMAND) load as the "
    "reviewer's hooks load them")
REVIEWER_CONFIG_VALID = Ok("reviewer-config-valid", REVIEWER_CONFIG)
REVIEWER_CONFIG_INVALID = Problem(
    "reviewer-config-invalid", CRITICAL, REVIEWER_CONFIG,
    "The reviewer's own loader refuses memory-review.json, or CORTEX_REVIEWER_COMMAND in the hooks' "
    "environment is not a command line: `cortex review fire` exits 1 on every Stop and `cortex review "
    "run` exits 4, so turns are not counted and no review runs. The finding names the field or the line.",
    ("a syntax error (a trailing comma, a missing quote)", "an unknown key or a typo in a key name",
     "a value of the wrong type or out of range (\"8\" instead of 8, a negative timeout)",
     "an unbalanced quote in CORTEX_REVIEWER_COMMAND"),
    "Fix the field or line the finding names (the README lists every key with its default), or delete the "
    "file to use the defaults; `cortex review run --dry-run` shows the loader's verdict.")

CHECKS = checks_of(REVIEWER_CONFIG_VALID, REVIEWER_CONFIG_INVALID)
