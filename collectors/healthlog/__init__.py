"""The auditor's own log, O/memory-health.jsonl and its checkpoint, in one place. Used by the health_history collector,
health.publish (the append), health.history (`history`, `--verify`), the status line, the gate and the dashboard.

  format  what a stored line must hold to be a report (plain data: the typed report is a floor up)
  chain   the hash-chain link that closes each line, and the sealed checkpoint of the head
  verify  the chain verified from the start or from the checkpoint (the collector, the append, --verify)
  append  the next line's link and checkpoint, decided under the log's lock (health.publish writes them)
  read    reports read back from the end of the log (the newest one, a bounded window of lines)
  runs    the last N runs, each a report or why its line is none (history, the dashboard)

It sits on the collectors floor, the lowest that every user may import: the collector that
verifies the chain is one of them. The line itself is the report's compact JSON
(reports.reportjson, which needs the typed report) with the chain spliced in as its last key,
so this package works on the line's text and on plain parsed data only.
"""

# The schema every report and every stored line names (reports.report.SCHEMA_ID, format checks it): here, not in
# format, so that the report model's import loads no line checker (a plain audit reads no line back).
REPORT_SCHEMA = "cortex-health/v1"
