"""Help data: health-history finding ids (health.judge.rules.health_history). Part of the catalogue read by explain and -v."""
from health.judge.catalogue import CRITICAL, WARN, Check, Ok, Problem, checks_of

LOG = "O/memory-health.jsonl"

HEALTH_HISTORY_CHAIN = Check("health-history:chain", "the health log's hash chain and checkpoint are intact")
HEALTH_HISTORY_INTACT = Ok("health-history-intact", HEALTH_HISTORY_CHAIN)
HEALTH_HISTORY_TAMPERED = Problem(
    "health-history-tampered", CRITICAL, HEALTH_HISTORY_CHAIN,
    f"A line of {LOG} no longer matches the hash chain (edited, inserted, deleted or reordered), the log "
    "is shorter than its checkpoint (memory-health.checkpoint) records, or the checkpoint cannot be "
    "used: the record of whether the memory loop was alive was rewritten.",
    ("a hand edit or a tool that rewrote the log", "the log restored from an older backup or truncated",
     "log rotation that moved the log but not the checkpoint", "a disk or filesystem fault"),
    "Run `cortex-health history --verify` to see the first broken line and what broke. Keep the evidence: "
    "move the log and memory-health.checkpoint aside together (e.g. into an archive folder outside "
    "OBSERVABILITY); the next run starts a new chain. Until then every audit reports this.")
HEALTH_HISTORY_UNCHAINED = Problem(
    "health-history-unchained", WARN, HEALTH_HISTORY_CHAIN,
    f"Lines of {LOG} written after the chain started carry no chain link, the checkpoint is missing, or "
    "the log cannot be read (not a regular file), so part of the history (or a cut tail) is not covered.",
    ("another tool (an older cortex-health, the reference LifeOS) appended reports",
     "a line added by hand", "memory-health.checkpoint deleted", "the log replaced by a symlink or a folder"),
    "Append reports only with this cortex-health; the next published run chains over the unchained lines "
    "and rewrites the checkpoint. `cortex-health history --verify` lists them.")

CHECKS = checks_of(HEALTH_HISTORY_INTACT, HEALTH_HISTORY_TAMPERED, HEALTH_HISTORY_UNCHAINED)
