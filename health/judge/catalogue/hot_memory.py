"""Help data: hot-memory finding ids (health.judge.rules.hot_memory). Part of the catalogue read by explain and -v.

`{label}` is principal (USER/PRINCIPAL/PRINCIPAL_MEMORY.md) or da
(USER/DIGITAL_ASSISTANT/DA_MEMORY.md).
"""
from health.judge.catalogue import CRITICAL, WARN, Check, Ok, Problem, checks_of

HOT_MEMORY_FILE = Check("hot-memory:file", "each hot-memory file exists and is readable")
MEMORY_PRESENT = Ok("{label}-memory-present", HOT_MEMORY_FILE)
MEMORY_MISSING = Problem(
    "{label}-memory-missing", CRITICAL, HOT_MEMORY_FILE,
    "A hot-memory file is missing: the assistant starts every session without that memory.",
    ("the file was deleted or moved", "ROOT points at the wrong folder"),
    "Restore the file from a snapshot or backup (LifeOS keeps snapshots before each write); check --root "
    "or CLAUDE_CONFIG_DIR.")
MARKERS_UNREADABLE = Problem(
    "markers-unreadable:{label}", CRITICAL, HOT_MEMORY_FILE,
    "A hot-memory file exists but cannot be read: a directory, FIFO, symlink, invalid UTF-8, larger than "
    "1 MiB, or a permission error.",
    ("the file replaced by a symlink or a directory", "an editor saved it in another encoding",
     "permissions changed"),
    "Make it a regular UTF-8 file readable by the user that runs the agent; restore from a snapshot if "
    "the content is damaged.")

HOT_MEMORY_MARKERS = Check("hot-memory:markers", "each hot-memory file has one BEGIN and one END marker, in order")
MARKERS_OK = Ok("markers-ok:{label}", HOT_MEMORY_MARKERS)
MARKERS_CORRUPT = Problem(
    "markers-corrupt:{label}", CRITICAL, HOT_MEMORY_MARKERS,
    "The entry markers are not exactly one whole-line <!-- BEGIN ENTRIES --> followed by one "
    "<!-- END ENTRIES -->: readers may load nothing.",
    ("a hand edit that duplicated, removed or swapped a marker", "a merge conflict resolved by hand"),
    "Edit the file so it holds exactly one BEGIN line and, after it, one END line (detail.begins, "
    "detail.ends and detail.inverted say what is wrong); keep every entry line between them.")

HOT_MEMORY_ENTRIES = Check("hot-memory:entries", "every hot-memory entry is valid")
ENTRIES_VALID = Ok("entries-valid:{label}", HOT_MEMORY_ENTRIES)
PENDING_SILENT_LOSS = Problem(
    "pending-silent-loss:{label}", WARN, HOT_MEMORY_ENTRIES,
    "Some on-disk entries fail validation (no NAME|ROLE|RELATION|PREFERENCE|RULE prefix followed by "
    "\": \", or longer than 256 characters): the next curation write erases them silently.",
    ("a hand-added entry without a valid prefix", "an entry that grew past 256 characters"),
    "Fix the entries the finding lists (detail.dropped): add a valid prefix or shorten them, before the "
    "next review rewrites the file.")
HOT_ENTRIES_UNPARSED = Problem(
    "hot-entries-unparsed:{file}", WARN, HOT_MEMORY_ENTRIES,
    "Lines between <!-- BEGIN ENTRIES --> and <!-- END ENTRIES --> of PRINCIPAL_MEMORY.md or DA_MEMORY.md are "
    "not entries (`- PREFERENCE: x`, `PREFRENCE: x`, `PREFERENCE:x`): the assistant does not load them, "
    "`cortex hot read` lists them in dropped_invalid, and the next write drops these lines (each recorded in "
    "memory-writes.jsonl with reason unparsed; the snapshot keeps the old file). The finding gives each "
    "line's number and the rule it breaks.",
    ("a hand edit in the style of a Markdown list", "a misspelt or lower-case prefix",
     "a missing space after the colon", "a note or comment typed inside the entry block"),
    "Rewrite each listed line as PREFIX: fact (NAME, ROLE, RELATION, PREFERENCE or RULE, a colon and a "
    "space) or move it above the BEGIN marker, before the next review writes the file.")

HOT_MEMORY_CAPACITY = Check("hot-memory:capacity", "each hot-memory file has headroom below the 48-entry cap")
CAP_OK = Ok("cap-ok:{label}", HOT_MEMORY_CAPACITY)
CAP_PRESSURE = Problem(
    "cap-pressure:{label}", WARN, HOT_MEMORY_CAPACITY,
    "A hot-memory file holds cap_pressure (46 by default) or more valid entries of its 48: the next "
    "facts will hit EAT_CAP and be dropped.",
    ("many new facts and no consolidation", "duplicate or overlapping entries"),
    "Consolidate: merge related entries, retire outdated ones, move detail to KNOWLEDGE records.",
    threshold="cap_pressure")

CHECKS = checks_of(MEMORY_PRESENT, MEMORY_MISSING, MARKERS_UNREADABLE, MARKERS_OK, MARKERS_CORRUPT, ENTRIES_VALID,
                   PENDING_SILENT_LOSS, HOT_ENTRIES_UNPARSED, CAP_OK, CAP_PRESSURE)
