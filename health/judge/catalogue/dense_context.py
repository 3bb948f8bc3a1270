"""Help data: Dense Context finding ids (health.judge.rules.dense_context). Part of the catalogue read by explain and -v.

`{path}` stands for a path under context/ (or <project>/<folder>, <project>/<id>, <project>).
"""
from health.judge.catalogue import CRITICAL, WARN, Check, Ok, Problem, checks_of

REGEN = "Rebuild the indexes with the Cortex memory-index job (or let the server rebuild them); never edit index.md by hand."


CAPS = ("dc_status_max_lines", "dc_status_max_bytes", "dc_agents_max_lines", "dc_agents_max_bytes")


def P(id, severity, check, meaning, causes, fix, threshold=None):  # noqa: N802 - reads like the Problem rows it builds
    """A Problem; `threshold` is one name or a tuple of names (the first is the main one)."""
    names = (threshold,) if isinstance(threshold, str) or threshold is None else tuple(threshold)
    return Problem(id, severity, check, meaning, tuple(causes), fix, names[0], also_thresholds=names[1:])


DC_STRUCTURE_FILES = Check("dc-structure:files", "the root AGENTS.md and each project's AGENTS.md, mission.md, "
                           "STATUS.md exist")
DC_STRUCTURE_OK = Ok("dc-structure-ok", DC_STRUCTURE_FILES)
DC_ROOT_AGENTS_MISSING = P(
    "dc-root-agents-missing", CRITICAL, DC_STRUCTURE_FILES,
    "context/AGENTS.md, the entry point of the whole tree, is missing or "
    "not a regular file (or there is no context/ folder).", ["cortex init never ran", "the file was deleted or "
    "replaced by a symlink"], "Restore context/AGENTS.md (cortex init creates it) as a regular file.")
DC_PROJECT_FILE_MISSING = P(
    "dc-project-file-missing:{path}", WARN, DC_STRUCTURE_FILES,
    "A project lacks one of AGENTS.md, mission.md or STATUS.md, so a "
    "fresh session cannot resume it.", ["a project created by hand instead of the project-init skill",
    "a file was deleted or replaced by a symlink"], "Create the named file (project-init writes all three).")
DC_FOLDER_UNREADABLE = P(
    "dc-folder-unreadable:{path}", WARN, DC_STRUCTURE_FILES,
    "An atom folder, a project or projects/ could not be listed, so its "
    "atoms were not audited; a symlink is never followed (it could lead outside the tree).", ["permissions",
    "a file where a folder is expected", "a folder replaced by a symlink"], "Fix the folder's permissions or "
    "type; move a symlinked folder's content back into the tree and remove the link.")

DC_CAPS_SIZE = Check("dc-caps:size", "AGENTS.md, STATUS.md and ISSUES.md stay within their line and byte caps")
DC_CAPS_OK = Ok("dc-caps-ok", DC_CAPS_SIZE)
DC_CAP_EXCEEDED = P(
    "dc-cap-exceeded:{path}", WARN, DC_CAPS_SIZE,
    "A capped file is over its cap: STATUS.md and ISSUES.md 80 lines or "
    "6 KB, AGENTS.md 120 lines or 8 KB (the context-injection budget).", ["the status-md-guard hook is not "
    "installed", "the file was edited outside the agent"], "Shrink the file: keep pointers, move durable facts "
    "to atoms or decision records, delete resolved issues.", CAPS)
DC_CAP_PRESSURE = P(
    "dc-cap-pressure:{path}", WARN, DC_CAPS_SIZE,
    "A capped file is at 90 % or more of a cap; the next edit may be refused "
    "by the guard hook.", ["STATUS.md growing with project age instead of state", "an AGENTS.md listing files "
    "one by one"], "Trim the file now, before the guard refuses an edit.", CAPS)
DC_CAP_UNREADABLE = P(
    "dc-cap-unreadable:{path}", WARN, DC_CAPS_SIZE,
    "A capped file could not be measured (symlink, not a regular file, "
    "unreadable).", ["a symlink or folder with the file's name", "permissions"],
    "Make it a readable regular file.")

DC_ATOMS_FRONTMATTER = Check("dc-atoms:frontmatter", "every atom has valid YAML frontmatter with the required fields")
DC_ATOMS_OK = Ok("dc-atoms-ok", DC_ATOMS_FRONTMATTER)
DC_ATOM_UNREADABLE = P(
    "dc-atom-unreadable:{path}", WARN, DC_ATOMS_FRONTMATTER,
    "An atom file cannot be read (symlink, not a regular file, invalid "
    "UTF-8, unreadable).", ["a symlink or folder named like an atom", "a binary file"],
    "Replace it with a regular UTF-8 Markdown file.")
DC_FRONTMATTER_INVALID = P(
    "dc-frontmatter-invalid:{path}", WARN, DC_ATOMS_FRONTMATTER,
    "The atom's frontmatter is missing or is not valid YAML; the "
    "generator still reads it key by key, but it must be fixed.", ["an unquoted list item with a comma, ': ' or "
    "braces", "no --- block"], "Quote the offending value (the reason names the line) so the block parses.")
DC_FIELD_MISSING = P(
    "dc-field-missing:{path}", WARN, DC_ATOMS_FRONTMATTER,
    "Required frontmatter fields are missing or empty (EXP: id, date, "
    "project, summary, tags; K adds evidence; PAT adds source-experiments).", ["an atom written by hand",
    "a template left half filled"], "Add the named fields.")
DC_SUMMARY_TOO_LONG = P(
    "dc-summary-too-long:{path}", WARN, DC_ATOMS_FRONTMATTER,
    "The summary is over 300 characters.", ["the conclusion pasted into "
    "the summary"], "Shorten the summary to one sentence; keep detail in the body.")
DC_ID_MISMATCH = P(
    "dc-id-mismatch:{path}", WARN, DC_ATOMS_FRONTMATTER,
    "The frontmatter id differs from the file name.", ["a copied atom whose id "
    "was not changed", "a renamed file"], "Make the id and the file name agree.")
DC_PROJECT_MISMATCH = P(
    "dc-project-mismatch:{path}", WARN, DC_ATOMS_FRONTMATTER,
    "The frontmatter project differs from the project folder.",
    ["an atom moved between projects"], "Set project to the folder's name.")
DC_DUPLICATE_ID = P(
    "dc-duplicate-id:{path}", CRITICAL, DC_ATOMS_FRONTMATTER,
    "Two atoms of one project carry the same id, so references and the "
    "index are ambiguous.", ["a copied atom", "two sessions numbering in parallel"],
    "Renumber one atom and update every reference to it.")

DC_REFERENCES_CHAIN = Check("dc-references:chain", "every referenced atom exists and knowledge keeps valid evidence")
DC_REFERENCES_OK = Ok("dc-references-ok", DC_REFERENCES_CHAIN)
DC_DANGLING_REF = P(
    "dc-dangling-ref:{path}", WARN, DC_REFERENCES_CHAIN,
    "evidence, links, source-experiments or a status target names an atom "
    "that does not exist in the project.", ["a deleted or renumbered atom", "a typo in the id"],
    "Point the reference at an existing atom or remove it.")
DC_CONTRADICTION = P(
    "dc-contradiction:{path}", WARN, DC_REFERENCES_CHAIN,
    "Every evidence atom of a knowledge entry or pattern is invalidated, "
    "superseded or deprecated, so its claim has no standing evidence.", ["experiments re-run and superseded "
    "without revisiting what cited them"], "Re-validate the entry against current experiments, or mark it "
    "deprecated/invalidated.")

DC_INDEX_DRIFT = Check("dc-index:drift", "each index.md lists every atom, in the table its status puts it in")
DC_INDEXES_CURRENT = Ok("dc-indexes-current", DC_INDEX_DRIFT)
DC_INDEX_STALE = P(
    "dc-index-stale:{path}", WARN, DC_INDEX_DRIFT,
    "The index misses atoms, lists atoms that no longer exist, or has atoms in "
    "the wrong table (active / superseded-deprecated / invalid).", ["the index rebuild job is disabled "
    "(memoryIndexRegenEnabled)", "the Cortex server is not running"], REGEN)
DC_INDEX_MISSING = P(
    "dc-index-missing:{path}", WARN, DC_INDEX_DRIFT,
    "A folder has atoms but no index.md.", ["the index job never ran for "
    "this project"], REGEN)
DC_INDEX_UNRECOGNISED = P(
    "dc-index-unrecognised:{path}", WARN, DC_INDEX_DRIFT,
    "An index.md lists atoms but in a format this auditor does not "
    "know (no Active / Superseded / Invalidated table), or cannot be read; its drift is unknown.",
    ["a hand-written index", "a generator version this auditor predates"], REGEN)

DC_ACCESS_LOG_TRACKING = Check("dc-access-log:tracking", "the access tracker is running and atoms are being read")
DC_ACCESS_LOGS_OK = Ok("dc-access-logs-ok", DC_ACCESS_LOG_TRACKING)
DC_ACCESS_LOG_MISSING = P(
    "dc-access-log-missing:{path}", WARN, DC_ACCESS_LOG_TRACKING,
    "A project with atoms has no access log (or no valid row).",
    ["the memory-ref-tracker hook is not installed"], "Install the memory-ref-tracker post-tool hook.")
DC_ACCESS_LOG_UNREADABLE = P(
    "dc-access-log-unreadable:{path}", WARN, DC_ACCESS_LOG_TRACKING,
    "The access log cannot be read (symlink, not a regular file, "
    "escapes the project).", ["a symlinked _meta folder", "permissions"], "Make it a regular file in _meta/.")
DC_ACCESS_LOG_STALE = P(
    "dc-access-log-stale:{path}", WARN, DC_ACCESS_LOG_TRACKING,
    "The newest access row is older than the newest atom by more than "
    "dc_access_log_stale_ms while atoms keep being added.", ["the tracker hook stopped running"],
    "Check that the memory-ref-tracker hook runs after Read and Grep.", "dc_access_log_stale_ms")
DC_ACCESS_LOG_MALFORMED = P(
    "dc-access-log-malformed:{path}", WARN, DC_ACCESS_LOG_TRACKING,
    "Access-log rows that are not {file, tool, ts} objects; they are "
    "counted and named by line, never skipped.", ["a hand-edited log", "a torn write"],
    "Remove or repair the named lines.")
DC_STALE_SHARE = P(
    "dc-stale-share:{path}", WARN, DC_ACCESS_LOG_TRACKING,
    "More than dc_stale_share percent of a project's active atoms are stale "
    "candidates (older than 30 days, never referenced).", ["atoms written and never read again",
    "the tracker hook not logging reads"], "Run consolidate, merge or deprecate unused atoms.", "dc_stale_share")

DC_DECISIONS_RECORDS = Check("dc-decisions:records", "decision records are NNNN-title.md with a matching DR title, "
    "numbered without gaps")
DC_DECISIONS_OK = Ok("dc-decisions-ok", DC_DECISIONS_RECORDS)
DC_DECISION_MISNAMED = P(
    "dc-decision-misnamed:{path}", WARN, DC_DECISIONS_RECORDS,
    "A file in decisions/ is not named NNNN-title.md.", ["a draft left "
    "in the folder"], "Rename it NNNN-title.md with the next free number.")
DC_DECISION_TITLE = P(
    "dc-decision-title:{path}", WARN, DC_DECISIONS_RECORDS,
    "A decision record's first line is not '# DR-NNNN: <Title>' with the "
    "file's number.", ["a renumbered file", "a template title"], "Fix the title line.")
DC_DECISION_NUMBERING = P(
    "dc-decision-numbering:{path}", WARN, DC_DECISIONS_RECORDS,
    "Decision numbers in a folder have gaps or duplicates, or the "
    "folder could not be listed (a symlinked folder is never followed).", ["a deleted record", "two records "
    "written in parallel", "a decisions folder replaced by a symlink"], "Renumber so the folder counts from "
    "0001; replace a symlinked folder with the folder itself.")

CHECKS = checks_of(DC_STRUCTURE_OK, DC_ROOT_AGENTS_MISSING, DC_PROJECT_FILE_MISSING, DC_FOLDER_UNREADABLE, DC_CAPS_OK,
                   DC_CAP_EXCEEDED, DC_CAP_PRESSURE, DC_CAP_UNREADABLE, DC_ATOMS_OK, DC_ATOM_UNREADABLE,
                   DC_FRONTMATTER_INVALID, DC_FIELD_MISSING, DC_SUMMARY_TOO_LONG, DC_ID_MISMATCH, DC_PROJECT_MISMATCH,
                   DC_DUPLICATE_ID, DC_REFERENCES_OK, DC_DANGLING_REF, DC_CONTRADICTION, DC_INDEXES_CURRENT,
                   DC_INDEX_STALE, DC_INDEX_MISSING, DC_INDEX_UNRECOGNISED, DC_ACCESS_LOGS_OK, DC_ACCESS_LOG_MISSING,
                   DC_ACCESS_LOG_UNREADABLE, DC_ACCESS_LOG_STALE, DC_ACCESS_LOG_MALFORMED, DC_STALE_SHARE,
                   DC_DECISIONS_OK, DC_DECISION_MISNAMED, DC_DECISION_TITLE, DC_DECISION_NUMBERING)
