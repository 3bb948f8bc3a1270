"""Help data: observability finding ids (health.judge.rules.observability). Part of the catalogue read by explain and -v."""
from health.judge.catalogue import WARN, Check, Ok, Problem, checks_of

OBSERVABILITY_EVIDENCE = Check("observability:evidence", "observability logs exist and every one could be measured")
OBSERVABILITY_EVIDENCE_PRESENT = Ok("observability-evidence-present", OBSERVABILITY_EVIDENCE)
OBSERVABILITY_EVIDENCE_MISSING = Problem(
    "observability-evidence-missing", WARN, OBSERVABILITY_EVIDENCE,
    "There is no *.jsonl or *.log file under O (or O is missing or unreadable): nothing is being logged.",
    ("a new install", "the observability folder was deleted, moved or replaced by a file",
     "logging hooks are not registered"),
    "Restore M/OBSERVABILITY as a directory and register the LifeOS hooks; each writes its log there.")
OBSERVABILITY_EVIDENCE_INCOMPLETE = Problem(
    "observability-evidence-incomplete", WARN, OBSERVABILITY_EVIDENCE,
    "Some logs under O were refused (symlinks, FIFOs, devices) or some folders were unreadable; bytes "
    "and age leave them out.",
    ("a log replaced by a symlink (for example to /dev/null)", "permissions on a subfolder"),
    "Replace the refused entries the finding lists with regular files (or remove them) and fix the "
    "folder permissions.")

OBSERVABILITY_BYTES = Check("observability:bytes", "observability logs stay under the size limit")
OBSERVABILITY_BYTES_OK = Ok("observability-bytes-ok", OBSERVABILITY_BYTES)
OBSERVABILITY_BYTES_EXCEEDED = Problem(
    "observability-bytes-exceeded", WARN, OBSERVABILITY_BYTES,
    "Observability logs under O take more than observability_max_bytes (256 MiB by default) in total.",
    ("no log rotation", "a hook logging far more than usual (a loop, debug output)"),
    "Rotate or archive old logs out of O (compress them elsewhere), find the log that grew fastest, and "
    "raise observability_max_bytes only if the volume is expected.", threshold="observability_max_bytes")

OBSERVABILITY_AGE = Check("observability:age", "no observability log is older than the retention limit")
OBSERVABILITY_AGE_OK = Ok("observability-age-ok", OBSERVABILITY_AGE)
OBSERVABILITY_AGE_EXCEEDED = Problem(
    "observability-age-exceeded", WARN, OBSERVABILITY_AGE,
    "The oldest observability log was last modified longer ago than observability_max_age_ms (30 days "
    "by default): retention is not being applied.",
    ("no retention job", "an abandoned log that nothing writes any more"),
    "Archive or delete logs older than the retention period (detail.oldest names the oldest); schedule "
    "the rotation.", threshold="observability_max_age_ms")

CHECKS = checks_of(OBSERVABILITY_EVIDENCE_PRESENT, OBSERVABILITY_EVIDENCE_MISSING, OBSERVABILITY_EVIDENCE_INCOMPLETE,
                   OBSERVABILITY_BYTES_OK, OBSERVABILITY_BYTES_EXCEEDED, OBSERVABILITY_AGE_OK,
                   OBSERVABILITY_AGE_EXCEEDED)
