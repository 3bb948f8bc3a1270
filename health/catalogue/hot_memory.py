"""Help data: hot-memory finding ids (health.rules.hot_memory). Part of the catalogue read by explain and -v.

`{label}` is principal (USER/PRINCIPAL/PRINCIPAL_MEMORY.md) or da
(USER/DIGITAL_ASSISTANT/DA_MEMORY.md).
"""
from health.catalogue import Check, Problem

CHECKS = (
    Check("hot-memory:file", "each hot-memory file exists and is readable",
          ok=("{label}-memory-present",), problems=(
        Problem(
            "{label}-memory-missing", "critical",
            "A hot-memory file is missing: the assistant starts every session without that memory.",
            ("the file was deleted or moved", "ROOT points at the wrong folder"),
            "Restore the file from a snapshot or backup (LifeOS keeps snapshots before each write); check --root "
            "or CLAUDE_CONFIG_DIR."),
        Problem(
            "markers-unreadable:{label}", "critical",
            "A hot-memory file exists but cannot be read: a directory, FIFO, symlink, invalid UTF-8, larger than "
            "1 MiB, or a permission error.",
            ("the file replaced by a symlink or a directory", "an editor saved it in another encoding",
             "permissions changed"),
            "Make it a regular UTF-8 file readable by the user that runs the agent; restore from a snapshot if "
            "the content is damaged."),
    )),
    Check("hot-memory:markers", "each hot-memory file has one BEGIN and one END marker, in order",
          ok=("markers-ok:{label}",), problems=(
        Problem(
            "markers-corrupt:{label}", "critical",
            "The entry markers are not exactly one whole-line <!-- BEGIN ENTRIES --> followed by one "
            "<!-- END ENTRIES -->: readers may load nothing.",
            ("a hand edit that duplicated, removed or swapped a marker", "a merge conflict resolved by hand"),
            "Edit the file so it holds exactly one BEGIN line and, after it, one END line (detail.begins, "
            "detail.ends and detail.inverted say what is wrong); keep every entry line between them."),
    )),
    Check("hot-memory:entries", "every hot-memory entry is valid",
          ok=("entries-valid:{label}",), problems=(
        Problem(
            "pending-silent-loss:{label}", "warn",
            "Some on-disk entries fail validation (no NAME|ROLE|RELATION|PREFERENCE|RULE prefix followed by "
            "\": \", or longer than 256 characters): the next curation write erases them silently.",
            ("a hand-added entry without a valid prefix", "an entry that grew past 256 characters"),
            "Fix the entries the finding lists (detail.dropped): add a valid prefix or shorten them, before the "
            "next review rewrites the file."),
        Problem(
            "hot-entries-unparsed:{file}", "warn",
            "Lines between <!-- BEGIN ENTRIES --> and <!-- END ENTRIES --> of PRINCIPAL_MEMORY.md or DA_MEMORY.md are "
            "not entries (`- PREFERENCE: x`, `PREFRENCE: x`, `PREFERENCE:x`): the assistant does not load them, "
            "`cortex hot read` lists them in dropped_invalid, and the next write drops these lines (each recorded in "
            "memory-writes.jsonl with reason unparsed; the snapshot keeps the old file). The finding gives each "
            "line's number and the rule it breaks.",
            ("a hand edit in the style of a Markdown list", "a misspelt or lower-case prefix",
             "a missing space after the colon", "a note or comment typed inside the entry block"),
            "Rewrite each listed line as PREFIX: fact (NAME, ROLE, RELATION, PREFERENCE or RULE, a colon and a "
            "space) or move it above the BEGIN marker, before the next review writes the file."),
    )),
    Check("hot-memory:capacity", "each hot-memory file has headroom below the 48-entry cap",
          ok=("cap-ok:{label}",), problems=(
        Problem(
            "cap-pressure:{label}", "warn",
            "A hot-memory file holds cap_pressure (46 by default) or more valid entries of its 48: the next "
            "facts will hit EAT_CAP and be dropped.",
            ("many new facts and no consolidation", "duplicate or overlapping entries"),
            "Consolidate: merge related entries, retire outdated ones, move detail to KNOWLEDGE records.",
            threshold="cap_pressure"),
    )),
)
