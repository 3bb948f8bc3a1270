"""Help data: index finding ids (health.judge.rules.index). Part of the catalogue read by explain and -v."""
from health.judge.catalogue import CRITICAL, WARN, Check, Ok, Problem, checks_of

INDEX_INTEGRITY = Check("index:integrity", "the index policy is explicit and any adopted index matches the corpus")
INDEX_NO_INDEX_V1 = Ok("index-no-index-v1", INDEX_INTEGRITY)
INDEX_VERIFIED = Ok("index-verified", INDEX_INTEGRITY)
INDEX_EVIDENCE_MISSING = Problem(
    "index-evidence-missing", WARN, INDEX_INTEGRITY,
    "Neither an index manifest (M/INDEX/index-manifest.json) nor the policy marker "
    "(ROOT/LIFEOS/CORTEX_INDEX_POLICY.json) exists: the index state is ambiguous.",
    ("an install that predates the policy marker", "the marker was deleted"),
    "For the default no-index setup write ROOT/LIFEOS/CORTEX_INDEX_POLICY.json with exactly "
    '{"schema": "lifeos-cortex-index-policy/v1", "policy": "no-index-v1"}.')
INDEX_MANIFEST_INVALID = Problem(
    "index-manifest-invalid", CRITICAL, INDEX_INTEGRITY,
    "The index manifest or policy marker is invalid: wrong keys or schema, a bad digest field, an "
    "index_path that leaves the manifest's folder, a symlink, a missing index file, or a malformed marker.",
    ("a hand-edited manifest or marker", "an index built by another tool or version",
     "the index file deleted while the manifest stayed"),
    "Rebuild the index with the tool that adopted it, or remove the manifest to go back to the no-index "
    "policy; the finding's reason names the exact problem.")
INDEX_INTEGRITY_MISMATCH = Problem(
    "index-integrity-mismatch", CRITICAL, INDEX_INTEGRITY,
    "The adopted index does not match: the canonical corpus digest or the index file's SHA-256 differs "
    "from the manifest, so search may return stale or wrong results.",
    ("canonical records edited after the index was built", "the index file changed or was truncated",
     "the canonical corpus fails its own integrity check"),
    "Rebuild the index from the canonical files and rewrite the manifest (`cortex rebuild "
    "--from-canonical` proves the records rebuild); never edit the index by hand.")

INDEX_FRESHNESS = Check("index:freshness", "an adopted index was built recently")
INDEX_FRESH = Ok("index-fresh", INDEX_FRESHNESS)
INDEX_FRESHNESS_INVALID = Problem(
    "index-freshness-invalid", WARN, INDEX_FRESHNESS,
    "The manifest's indexed_at is not a valid timestamp or lies in the future, so freshness cannot be "
    "measured.",
    ("a hand-edited manifest", "clock skew when the index was built"),
    "Rebuild the index so the manifest carries a correct indexed_at.")
INDEX_STALE = Problem(
    "index-stale", WARN, INDEX_FRESHNESS,
    "The adopted index is older than index_stale_ms (7 days by default).",
    ("the periodic index rebuild stopped", "the machine was off"),
    "Rebuild the index and rewrite its manifest; schedule the rebuild.", threshold="index_stale_ms")

CHECKS = checks_of(INDEX_NO_INDEX_V1, INDEX_VERIFIED, INDEX_EVIDENCE_MISSING, INDEX_MANIFEST_INVALID,
                   INDEX_INTEGRITY_MISMATCH, INDEX_FRESH, INDEX_FRESHNESS_INVALID, INDEX_STALE)
