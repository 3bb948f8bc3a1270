"""Help data: search cache finding ids (health.rules.search_cache). Part of the catalogue read by explain and -v."""
from health.catalogue import Check, Problem

CHECKS = (
    Check("search-cache:state", "the derived search cache, if any, reads and last verified clean",
          ok=("search-cache-off", "search-cache-absent", "search-cache-present"), problems=(
        Problem(
            "search-cache-unreadable", "warn",
            "The memory root's search cache (outside the tree, under CORTEX_CACHE_DIR or XDG_CACHE_HOME/cortex) "
            "cannot be read. Reads stay correct: the next one replaces it; it is never a source of truth.",
            ("a damaged or truncated file", "a file written by another program", "a permission change"),
            "Run `cortex cache clear` (or just any read: it rebuilds the cache), then `cortex cache verify`."),
        Problem(
            "search-cache-verify-failed", "warn",
            "The last `cortex cache verify` found cached entries that differ from the canonical files, or sqlite's "
            "quick_check failed. Verify removed those entries; answers are re-read from the files.",
            ("a file changed without changing its size, mtime or ctime (clock stepped back, a copy that kept "
             "times)", "disk damage in the cache file"),
            "Run `cortex cache clear` and `cortex cache verify`; if it fails again, check the disk and the clock, "
            "and set CORTEX_CACHE=off meanwhile."),
    )),
)
