"""Help data: index finding ids (health.rules.index). Part of the catalogue read by explain and -v."""
from health.catalogue import Check, Problem

CHECKS = (
    Check("index:integrity", "the index policy is explicit and any adopted index matches the corpus",
          ok=("index-no-index-v1", "index-verified"), problems=(
        Problem(
            "index-evidence-missing", "warn",
            "Neither an index manifest (M/INDEX/index-manifest.json) nor the policy marker "
            "(ROOT/LIFEOS/CORTEX_INDEX_POLICY.json) exists: the index state is ambiguous.",
            ("an install that predates the policy marker", "the marker was deleted"),
            "For the default no-index setup write ROOT/LIFEOS/CORTEX_INDEX_POLICY.json with exactly "
            '{"schema": "lifeos-cortex-index-policy/v1", "policy": "no-index-v1"}.'),
        Problem(
            "index-manifest-invalid", "critical",
            "The index manifest or policy marker is invalid: wrong keys or schema, a bad digest field, an "
            "index_path that leaves the manifest's folder, a symlink, a missing index file, or a malformed marker.",
            ("a hand-edited manifest or marker", "an index built by another tool or version",
             "the index file deleted while the manifest stayed"),
            "Rebuild the index with the tool that adopted it, or remove the manifest to go back to the no-index "
            "policy; the finding's reason names the exact problem."),
        Problem(
            "index-integrity-mismatch", "critical",
            "The adopted index does not match: the canonical corpus digest or the index file's SHA-256 differs "
            "from the manifest, so search may return stale or wrong results.",
            ("canonical records edited after the index was built", "the index file changed or was truncated",
             "the canonical corpus fails its own integrity check"),
            "Rebuild the index from the canonical files and rewrite the manifest (`cortex rebuild "
            "--from-canonical` proves the records rebuild); never edit the index by hand."),
    )),
    Check("index:freshness", "an adopted index was built recently",
          ok=("index-fresh",), problems=(
        Problem(
            "index-freshness-invalid", "warn",
            "The manifest's indexed_at is not a valid timestamp or lies in the future, so freshness cannot be "
            "measured.",
            ("a hand-edited manifest", "clock skew when the index was built"),
            "Rebuild the index so the manifest carries a correct indexed_at."),
        Problem(
            "index-stale", "warn",
            "The adopted index is older than index_stale_ms (7 days by default).",
            ("the periodic index rebuild stopped", "the machine was off"),
            "Rebuild the index and rewrite its manifest; schedule the rebuild.", threshold="index_stale_ms"),
    )),
)
