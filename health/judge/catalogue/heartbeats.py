"""Help data: heartbeat finding ids (health.judge.rules.heartbeats). Part of the catalogue read by explain and -v."""
from health.judge.catalogue import CRITICAL, WARN, Check, Ok, Problem, checks_of

BEAT = "LIFEOS/MEMORY/STATE/delta-surface-heartbeat"

HEARTBEATS_DELTA_SURFACE = Check(
    "heartbeats:delta-surface", "the memory surface ran within delta_surface_lag_ms of the newest memory-system write")
DELTA_SURFACE_ALIVE = Ok("delta-surface-alive", HEARTBEATS_DELTA_SURFACE)
DELTA_SURFACE_NO_WRITES = Ok("delta-surface-no-writes", HEARTBEATS_DELTA_SURFACE)
DELTA_SURFACE_DEAD = Problem(
    "delta-surface-dead", CRITICAL, HEARTBEATS_DELTA_SURFACE,
    f"memory-writes.jsonl shows writes by the memory system, but the surface heartbeat ({BEAT}) is absent "
    "or older than the newest such write by more than delta_surface_lag_ms: curation writes memory nobody "
    "sees (the 5-day silent failure of the reference).",
    ("the prompt hook (MemoryTurnStart, or `cortex hot render`) was de-registered or fails",
     "the hook runs but cannot write its heartbeat (permissions on LIFEOS/MEMORY/STATE)",
     "a subagent flag set for the main session"),
    "Check the prompt hook's registration in settings.json and run it by hand (`cortex hot render`); "
    "its next run writes the heartbeat.", threshold="delta_surface_lag_ms")
DELTA_SURFACE_CHECK_ERROR = Problem(
    "delta-surface-check-error", WARN, HEARTBEATS_DELTA_SURFACE,
    "The surface liveness check could not read memory-writes.jsonl or the surface heartbeat (a symlink, a "
    "directory, a permission error): the surface is not proven alive.",
    ("the heartbeat or the log replaced by a symlink or a directory", "permissions changed"),
    "Restore regular, readable files (the finding names the path and why it was refused).")

HEARTBEATS_AGENT_ACTIVITY = Check(
    "heartbeats:agent-activity", "the agent's transcripts can be read to tell activity from idleness")
AGENT_ACTIVE = Ok("agent-active", HEARTBEATS_AGENT_ACTIVITY)
AGENT_IDLE = Ok("agent-idle", HEARTBEATS_AGENT_ACTIVITY)
AGENT_ACTIVITY_UNREADABLE = Problem(
    "agent-activity-unreadable", WARN, HEARTBEATS_AGENT_ACTIVITY,
    "The transcript folder (ROOT/projects, or transcript_dir of memory-review.json) exists but cannot be "
    "read: hook silence cannot be judged against what the agent did.",
    ("permissions on the folder", "the path is a file, not a folder"),
    "Make the folder readable by the auditor, or point transcript_dir at the right place.",
    threshold="agent_activity_window_ms")

HEARTBEATS_HOOK = Check(
    "heartbeats:hook", "each registered hook (render, recall, fire, gate) ran for every recent user turn")
HOOK_ALIVE = Ok("hook-alive:{hook}", HEARTBEATS_HOOK)
HOOK_AGENT_IDLE = Ok("hook-agent-idle:{hook}", HEARTBEATS_HOOK)
HOOK_SILENT = Problem(
    "hook-silent:{hook}", CRITICAL, HEARTBEATS_HOOK,
    "The agent had user turns newer than this hook's last heartbeat by more than hook_silence_ms: the hook "
    "is registered but did not run (render: the surface heartbeat; recall: memory-retrievals.jsonl; fire: "
    "reviewer-fires.jsonl; gate: memory-health.jsonl).",
    ("the hook's program fails before it writes (a moved virtual environment, a broken install)",
     "a subagent flag silences render, recall and fire",
     "the agent runs with other settings than the audited ROOT/settings.json"),
    "Run the hook's command by hand with the settings' environment and read its stderr; the finding gives "
    "the turns since, the newest turn and the last heartbeat.", threshold="hook_silence_ms")

CHECKS = checks_of(DELTA_SURFACE_ALIVE, DELTA_SURFACE_NO_WRITES, DELTA_SURFACE_DEAD, DELTA_SURFACE_CHECK_ERROR,
                   AGENT_ACTIVE, AGENT_IDLE, AGENT_ACTIVITY_UNREADABLE, HOOK_ALIVE, HOOK_AGENT_IDLE, HOOK_SILENT)
