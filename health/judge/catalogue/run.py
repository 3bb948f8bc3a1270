"""Help data: ids about the run itself. Part of the catalogue; placed by health.judge.checks.

INPUTS (thresholds, config, clock: emitted by health.judge.rules.run_inputs) come first in the
report; OUTCOMES (collector errors and unjudged evidence: health.judge.evaluate; publication:
health.run; the deadline: health.gate) come after every collector's checks.
"""
from health.judge.catalogue import CRITICAL, WARN, Check, Ok, Problem, checks_of

CORTEX_THRESHOLDS = Check("cortex:thresholds", "every threshold override is a finite number > 0")
CORTEX_THRESHOLDS_VALID = Ok("cortex-thresholds-valid", CORTEX_THRESHOLDS)
CORTEX_THRESHOLD_INVALID = Problem(
    "cortex-threshold-invalid", CRITICAL, CORTEX_THRESHOLDS,
    "A threshold override (config file, CORTEX_* variable or --threshold) is not a finite number > 0 or "
    "names no threshold; the lower-precedence value stays in force so no comparison is disabled.",
    ("a typo in the threshold name", "a unit suffix or empty value (\"24h\", \"\")",
     "a quoted number in the config file"),
    "Correct the value the finding names (detail.origin says where it came from); `cortex-health "
    "--list-checks` shows every threshold and its effective value.")
CORTEX_CONFIG_INVALID = Problem(
    "cortex-config-invalid", CRITICAL, CORTEX_THRESHOLDS,
    "The --config file cannot be used (missing, unreadable, not JSON, or not exactly "
    "{\"thresholds\": {...}}); defaults stay in force.",
    ("a wrong path", "a syntax error", "extra top-level keys"),
    "Fix the file so it is exactly {\"thresholds\": {NAME: VALUE, ...}} or drop --config.")

CORTEX_CLOCK = Check("cortex:clock", "the audit's clock is valid")
CORTEX_CLOCK_VALID = Ok("cortex-clock-valid", CORTEX_CLOCK)
CORTEX_CLOCK_INVALID = Problem(
    "cortex-clock-invalid", CRITICAL, CORTEX_CLOCK,
    "--now or CORTEX_HEALTH_NOW is not a valid timestamp; real time was used so every age check still "
    "ran.",
    ("a date without a zone (\"2026-11-29T12:00\")", "a typo", "a variable left over from a test"),
    "Use YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS[.frac]] with Z or ±HH:MM (years 0100-9999 in UTC), "
    "or unset CORTEX_HEALTH_NOW.")

INPUTS = checks_of(CORTEX_THRESHOLDS_VALID, CORTEX_THRESHOLD_INVALID, CORTEX_CONFIG_INVALID, CORTEX_CLOCK_VALID,
                   CORTEX_CLOCK_INVALID)

CORTEX_COLLECTORS = Check("cortex:collectors", "every collector ran")
COLLECTOR_ERROR = Problem(
    "{collector}-collector-error", CRITICAL, CORTEX_COLLECTORS,
    "A collector raised an unexpected error; its evidence could not be judged (the others still ran).",
    ("a bug in the collector", "an unexpected file system state"),
    "Read detail.error; report it with the tree's shape (not its content) if it is a bug. The other "
    "findings of the run are still valid.")
EVIDENCE_UNJUDGED = Problem(
    "{collector}-evidence-unjudged", CRITICAL, CORTEX_COLLECTORS,
    "A collector produced evidence that no rule judged, so nothing vouches for it.",
    ("a collector added to the check list without its rule", "a check list assembled by hand"),
    "Give the collector's row in health/judge/checks.py its rule's judge (every row names collect, judge and "
    "catalogue entries).")

PUBLISH_REPORT_PATH = Check("publish:report-path", "the --report-path copy was written")
REPORT_PATH_REFUSED = Problem(
    "report-path-refused", CRITICAL, PUBLISH_REPORT_PATH,
    "--report-path / CORTEX_HEALTH_REPORT_PATH names a place the report must not go (a symlink, a "
    "directory, a missing folder, anything inside a LIFEOS/ tree); nothing was overwritten.",
    ("a path inside ~/.claude/LIFEOS (memory, hot files, reviewer config, locks)", "a typo in the folder"),
    "Point the report path at a regular file in an existing folder outside the LIFEOS/ tree.")
REPORT_WRITE_FAILED = Problem(
    "report-write-failed", CRITICAL, PUBLISH_REPORT_PATH,
    "The report could not be written atomically to --report-path.",
    ("a read-only or full file system", "permissions on the folder"),
    "Fix the folder's permissions or free space; the reason names the failing step.")

PUBLISH_HEALTH_LOG = Check("publish:health-log", "the report was appended to memory-health.jsonl")
HEALTH_LOG_APPEND_FAILED = Problem(
    "health-log-append-failed", WARN, PUBLISH_HEALTH_LOG,
    "The report could not be appended to O/memory-health.jsonl (Dense Context: <cortex home>/logs/"
    "cortex-health.jsonl, whose folder the auditor creates), so the status line and the history do not "
    "see this run.",
    ("the log replaced by a directory or symlink", "another run held the lock for more than 5 s",
     "a read-only or full file system", "the LifeOS OBSERVABILITY folder is missing (cortex init creates it)"),
    "Make memory-health.jsonl a regular writable file (or remove it so it is recreated); check for a stuck "
    "cortex-health process holding memory-health.jsonl.lock.")

PUBLISH_PROMETHEUS_TEXTFILE = Check("publish:prometheus-textfile", "the Prometheus textfile was written")
PROMETHEUS_TEXTFILE_REFUSED = Problem(
    "prometheus-textfile-refused", CRITICAL, PUBLISH_PROMETHEUS_TEXTFILE,
    "--prometheus-textfile names a place the metrics must not go (a symlink, a directory, a missing "
    "folder, anything inside a LIFEOS/ tree); nothing was overwritten.",
    ("a typo in the textfile directory", "a path inside ~/.claude/LIFEOS"),
    "Point it at PATH.prom in node_exporter's --collector.textfile.directory.")
PROMETHEUS_TEXTFILE_WRITE_FAILED = Problem(
    "prometheus-textfile-write-failed", CRITICAL, PUBLISH_PROMETHEUS_TEXTFILE,
    "The Prometheus textfile could not be written atomically, so node_exporter keeps serving older "
    "values.",
    ("permissions on the textfile directory", "a read-only or full file system"),
    "Give the user that runs cortex-health write access to the textfile directory (the write is a "
    "temporary file and a rename in that folder).")

PUBLISH_OTLP = Check("publish:otlp", "the --otlp export was accepted by every OTLP endpoint")
OTLP_EXPORT_FAILED = Problem(
    "otlp-export-failed", WARN, PUBLISH_OTLP,
    "`cortex-health --otlp` could not deliver one or more OTLP signals (metrics, logs, traces): the "
    "endpoint was refused by configuration, did not answer within its timeout, or answered with an HTTP "
    "status other than 2xx. The audit's own verdict is unaffected; the memory operations that were not "
    "delivered are sent with the next export (unless the receiver answered 400 or 413). detail.failures "
    "names each signal's endpoint (without user info or query) and its HTTP status or reason; request "
    "headers are never reported.",
    ("no OpenTelemetry Collector listening on the endpoint (default http://localhost:4318)",
     "a wrong OTEL_EXPORTER_OTLP_ENDPOINT, or a per-signal endpoint without its /v1/<signal> path",
     "a missing or expired token in OTEL_EXPORTER_OTLP_HEADERS (HTTP 401/403)",
     "plain http:// to a host other than loopback, or a protocol other than http/json",
     "a receiver slower than OTEL_EXPORTER_OTLP_TIMEOUT (milliseconds, default 10000)"),
    "Check the Collector is running (`cortex-health setup otel` prints a configuration for one on "
    "127.0.0.1:4318) and that the endpoint, headers and timeout variables are right (docs/otel.md); "
    "use https:// for a remote endpoint.")

GATE_DEADLINE = Check("gate:deadline", "the gate's check finished within its deadline")
HEALTH_CHECK_DEADLINE_EXCEEDED = Problem(
    "health-check-deadline-exceeded", WARN, GATE_DEADLINE,
    "`cortex-health gate` stopped the check at its --timeout: no evidence was judged in this run.",
    ("a very large observability tree or corpus to hash", "a slow or hung file system",
     "a --timeout shorter than the check needs"),
    "Run `cortex-health --format text` by hand to see how long the check takes (duration_ms) and raise "
    "the gate's --timeout (and the hook's timeout) above it.")

OUTCOMES = checks_of(COLLECTOR_ERROR, EVIDENCE_UNJUDGED, REPORT_PATH_REFUSED, REPORT_WRITE_FAILED,
                     HEALTH_LOG_APPEND_FAILED, PROMETHEUS_TEXTFILE_REFUSED, PROMETHEUS_TEXTFILE_WRITE_FAILED,
                     OTLP_EXPORT_FAILED, HEALTH_CHECK_DEADLINE_EXCEEDED)
