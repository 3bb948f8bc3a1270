"""Help data: retrieval finding ids (health.judge.rules.retrieval). Part of the catalogue read by explain and -v."""
from health.judge.catalogue import WARN, Check, Ok, Problem, checks_of

LOG = "O/memory-retrievals.jsonl"

RETRIEVAL_LATEST = Check("retrieval:latest", "a valid retrieval row proves memory was read recently")
RETRIEVAL_FRESH = Ok("retrieval-fresh", RETRIEVAL_LATEST)
RETRIEVAL_MISSING = Problem(
    "retrieval-missing", WARN, RETRIEVAL_LATEST,
    f"No retrieval has been recorded: {LOG} is absent or has no rows, so nothing proves memory is read.",
    ("the retrieval hook (UserPromptSubmit) is not registered, or does not log",
     "a new install where no prompt has been submitted yet", "the log was rotated away"),
    "Register the retrieval hook (`cortex recall`) in settings.json (`cortex-health setup claude-code` prints "
    "the block) and submit a prompt; a row "
    f"appears in {LOG}.", threshold="retrieval_stale_ms")
RETRIEVAL_EVIDENCE_MALFORMED = Problem(
    "retrieval-evidence-malformed", WARN, RETRIEVAL_LATEST,
    f"{LOG} has malformed lines, is unreadable, or its last row is not exactly "
    "{ts, query_hash, returned_count, duration_ms[, top_score]}.",
    ("a torn or concurrent write", "a hand edit",
     "a retrieval hook of another version writing a different row shape"),
    "Repair or remove the lines the finding names (keep a copy); make sure a single hook version writes "
    "the log and that it is a regular file.")
RETRIEVAL_FUTURE = Problem(
    "retrieval-future", WARN, RETRIEVAL_LATEST,
    "The latest retrieval timestamp lies after the audit's now and cannot prove freshness.",
    ("clock skew between machines sharing the tree", "a wrong --now or CORTEX_HEALTH_NOW"),
    "Fix the system clock or the injected --now; the next retrieval writes a correct timestamp.")
RETRIEVAL_STALE = Problem(
    "retrieval-stale", WARN, RETRIEVAL_LATEST,
    "The latest retrieval is older than retrieval_stale_ms (24 hours by default).",
    ("no session in that period", "the retrieval hook stopped running or logging"),
    "Submit a prompt and check that a new row appears; if none does, run the hook command by hand to see "
    "its error. Raise retrieval_stale_ms on machines used less than daily.",
    threshold="retrieval_stale_ms")

CHECKS = checks_of(RETRIEVAL_FRESH, RETRIEVAL_MISSING, RETRIEVAL_EVIDENCE_MALFORMED, RETRIEVAL_FUTURE,
                   RETRIEVAL_STALE)
