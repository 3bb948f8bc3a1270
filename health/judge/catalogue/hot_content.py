"""Help data: hot-memory content finding ids (health.judge.rules.hot_content). Part of the catalogue read by explain and -v.

`{label}` is principal (PRINCIPAL_MEMORY.md) or da (DA_MEMORY.md). Each meaning quotes the
curation rule (seed 002 §2.4, §3) and says what the detector matches and where it errs; the
precision and recall measured on the labelled set are in docs/hot-content.md.
"""
from health.judge.catalogue import CRITICAL, WARN, Check, Ok, Problem, checks_of

HOT_CONTENT_DECLARATIVE = Check(
    "hot-content:declarative", "hot-memory entries are facts about the person, not commands to the assistant")
HOT_ENTRIES_DECLARATIVE = Ok("hot-entries-declarative:{label}", HOT_CONTENT_DECLARATIVE)
HOT_ENTRY_IMPERATIVE = Problem(
    "hot-entry-imperative:{label}", WARN, HOT_CONTENT_DECLARATIVE,
    "Rule: hot entries are declarative facts, never instructions (PREFERENCE: prefers terse responses, not "
    "RULE: Always be terse); an instruction reloaded into every prompt is obeyed as a command. Matched: a "
    "body opening with a base-form command verb (Use, Reply, Avoid, Be...), always/never/please + a verb, "
    "do not/don't + a verb, 'you must/should/need to', '<answers|responses> must', and 请/务必/不要/你必须, "
    "してください, 하세요. False positives: a fact opening with a word that is also a verb (\"Answer key "
    "author\"), a quoted command (\"says 'never give up'\"); NAME entries are never judged. Missed: commands "
    "without these shapes (\"terse answers only\").",
    ("the reviewer (or a hand edit) stored a request as an order", "an older reviewer prompt without the rule",
     "a RULE: entry used for a preference"),
    "Rephrase the entries the finding lists as facts about the person (`PREFERENCE: prefers replies in "
    "Portuguese ~explicit`) with `cortex hot set LABEL`, or let the next review rewrite them.")

HOT_CONTENT_INJECTION = Check(
    "hot-content:injection", "no hot-memory entry is shaped like a prompt injection or a command to run")
HOT_ENTRIES_NO_INJECTION = Ok("hot-entries-no-injection:{label}", HOT_CONTENT_INJECTION)
HOT_ENTRY_INJECTION = Problem(
    "hot-entry-injection:{label}", CRITICAL, HOT_CONTENT_INJECTION,
    "Rule: memory is injected into every prompt, so an entry must never carry instructions to the model. "
    "Matched: 'ignore/disregard previous instructions', requests to reveal or override the system prompt, "
    "prompt markup (<system>, </lifeos-memory>, [INST], <|im_start|>), 'you are now DAN' style persona "
    "switches, a download piped into a shell (curl ... | sh), base64 -d, rm -rf /, powershell -enc, "
    "Unicode tag characters and bidi overrides, and the Chinese and Japanese forms (忽略之前的指令). A "
    "match preceded by never/not/don't is left alone. False positives: a fact quoting an attack "
    "(\"teaches how 'ignore previous instructions' works\"); facts about security work without these "
    "shapes stay quiet.",
    ("a transcript carried an injection attempt the reviewer copied", "a poisoned note or web page quoted in "
     "a conversation", "a hand edit or a compromised tool wrote the file"),
    "Open the file at the line the finding gives, remove the entry (`cortex hot set LABEL` with the list "
    "without it, or restore a snapshot from before it: `cortex hot snapshots LABEL`), and find where it came "
    "from (memory-writes.jsonl names each write's author).")

HOT_CONTENT_DUPLICATES = Check("hot-content:duplicates", "no hot-memory entry repeats another")
HOT_ENTRIES_DISTINCT = Ok("hot-entries-distinct:{label}", HOT_CONTENT_DUPLICATES)
HOT_ENTRIES_DUPLICATE = Problem(
    "hot-entries-duplicate:{label}", WARN, HOT_CONTENT_DUPLICATES,
    "Rule: merge duplicates, and supersede rather than stack (\"works at A\" then \"works at B\": the old "
    "entry goes). Matched: entries equal after NFKC, case folding, spacing and the provenance tag; NAME "
    "twice; the same single-valued fact twice (works at, lives in, based in, married to, reports to, time "
    "zone, 住在, 就职于); near duplicates (same prefix, 80 % of the same terms, at least 4 each). False "
    "positives: two genuinely different facts with most words in common (\"lives in Porto\" for the person "
    "and one of the same prefix about a relative).",
    ("a review that added a fact without removing the one it replaces", "hand edits", "two reviews "
     "stating the same fact in different case or spacing"),
    "Keep one entry per fact (the newest for a superseded one) with `cortex hot set LABEL`; the finding "
    "lists each repeated entry with the line of the one it repeats.")

HOT_CONTENT_EPHEMERA = Check("hot-content:ephemera", "hot-memory entries hold no ephemera")
HOT_ENTRIES_DURABLE = Ok("hot-entries-durable:{label}", HOT_CONTENT_EPHEMERA)
HOT_ENTRY_EPHEMERAL = Problem(
    "hot-entry-ephemeral:{label}", WARN, HOT_CONTENT_EPHEMERA,
    "Rule: never save session state, task progress or TODOs, commit SHAs, PR numbers, branch names, "
    "environment-dependent failures (\"X is not installed\") or anything stale within 7 days. Matched: hex "
    "commit hashes (7-40 characters, letters and digits), PR #N, issue #N, owner/repo#N, feature/... and "
    "origin/... branch names, TODO/FIXME/WIP, today/tomorrow/this week (今天/明天/本周), 'in this "
    "session', 'not installed', and a date from today to 7 days ahead (2026-12-01, 3 Dec, 12月3日; never "
    "one next to birthday/anniversary/every/since). False positives: a hex-looking word (\"cafe123\"), an "
    "apartment written #12, a date that is a durable fact.",
    ("the reviewer stored task progress from a working session", "a hand edit noting a TODO"),
    "Remove the entries the finding lists (`cortex hot set LABEL`); keep task state in the task tracker "
    "and durable knowledge in KNOWLEDGE records.")

HOT_CONTENT_CAPACITY = Check(
    "hot-content:capacity", "each hot-memory file is below the reviewer's consolidate-first line")
HOT_CAP_HEADROOM = Ok("hot-cap-headroom:{label}", HOT_CONTENT_CAPACITY)
HOT_CAP_PRESSURE = Problem(
    "hot-cap-pressure:{label}", WARN, HOT_CONTENT_CAPACITY,
    "Rule: at 39 entries (about 80 % of the 48-entry cap) the reviewer must consolidate before adding. "
    "The file holds 39 or more valid entries but fewer than cap_pressure; the message gives the trend "
    "over the health history (entries then and now, per day, days to the cap at that rate) when "
    "memory-health.jsonl has earlier runs. From cap_pressure on, cap-pressure:{label} reports the file "
    "instead (one finding per problem). False positives: none in the count; a steady file just above 39 "
    "that the reviewer keeps consolidating is healthy, the trend says so.",
    ("the reviewer adds without consolidating", "many short-lived facts", "duplicates"),
    "Consolidate: merge related entries, retire outdated ones, move detail to KNOWLEDGE records "
    "(`cortex hot set LABEL`), or run a review (`cortex review run`).")

CHECKS = checks_of(HOT_ENTRIES_DECLARATIVE, HOT_ENTRY_IMPERATIVE, HOT_ENTRIES_NO_INJECTION, HOT_ENTRY_INJECTION,
                   HOT_ENTRIES_DISTINCT, HOT_ENTRIES_DUPLICATE, HOT_ENTRIES_DURABLE, HOT_ENTRY_EPHEMERAL,
                   HOT_CAP_HEADROOM, HOT_CAP_PRESSURE)
