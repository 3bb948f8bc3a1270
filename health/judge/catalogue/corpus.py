"""Help data: canonical corpus ids (health.judge.rules.corpus). Part of the catalogue read by explain and -v."""
from health.judge.catalogue import CRITICAL, Check, Ok, Problem, checks_of

CORPUS_INTEGRITY = Check(
    "corpus:integrity", "the canonical corpus (KNOWLEDGE/ and M/*_MEMORY.md) loads as `cortex search` and "
    "`cortex recall` load it")
CORPUS_LOADS = Ok("corpus-loads", CORPUS_INTEGRITY)
CORPUS_INTEGRITY_ERROR = Problem(
    "corpus-integrity-error", CRITICAL, CORPUS_INTEGRITY,
    "A canonical file breaks an integrity rule of the read contract, so the whole corpus is refused: every "
    "`cortex search`, `timeline`, `get` and `export` exits 4 (integrity_error) and the `cortex recall` hook "
    "prints nothing on every prompt. Retrieval is dead until the file is fixed. The finding names the file, "
    "the line, the field and the rule (timestamp, duplicate-id, malformed-jsonl, unknown-field, "
    "required-string, symlink, not-regular, utf8, control-character, a corpus limit ...), never the value.",
    ("a hand-written note with an impossible date (`created: 2026-02-30`) or a date without a zone",
     "two notes with the same `id:` (a copied file)", "a JSONL line that is not one JSON object",
     "a symlink or a non-UTF-8 file below LIFEOS/MEMORY/KNOWLEDGE"),
    "Open the file at detail.file, line detail.line, and fix detail.field so it follows the rule (a valid "
    "ISO date such as 2026-02-28, a unique id, one JSON object per line); `cortex status` confirms the "
    "corpus loads again (exit 0).")

CHECKS = checks_of(CORPUS_LOADS, CORPUS_INTEGRITY_ERROR)
