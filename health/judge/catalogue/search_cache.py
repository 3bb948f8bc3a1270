"""Help data: search cache finding ids (health.judge.rules.search_cache). Part of the catalogue read by explain and -v."""
from health.judge.catalogue import WARN, Check, Ok, Problem, checks_of

SEARCH_CACHE_STATE = Check("search-cache:state", "the derived search cache, if any, reads and last verified clean")
SEARCH_CACHE_OFF = Ok("search-cache-off", SEARCH_CACHE_STATE)
SEARCH_CACHE_ABSENT = Ok("search-cache-absent", SEARCH_CACHE_STATE)
SEARCH_CACHE_PRESENT = Ok("search-cache-present", SEARCH_CACHE_STATE)
SEARCH_CACHE_UNREADABLE = Problem(
    "search-cache-unreadable", WARN, SEARCH_CACHE_STATE,
    "The memory root's search cache (outside the tree, under CORTEX_CACHE_DIR or XDG_CACHE_HOME/cortex) "
    "cannot be read. Reads stay correct: the next one replaces it; it is never a source of truth.",
    ("a damaged or truncated file", "a file written by another program", "a permission change"),
    "Run `cortex cache clear` (or just any read: it rebuilds the cache), then `cortex cache verify`.")
SEARCH_CACHE_VERIFY_FAILED = Problem(
    "search-cache-verify-failed", WARN, SEARCH_CACHE_STATE,
    "The last `cortex cache verify` found cached entries that differ from the canonical files, or sqlite's "
    "quick_check failed. Verify removed those entries; answers are re-read from the files.",
    ("a file changed without changing its size, mtime or ctime (clock stepped back, a copy that kept "
     "times)", "disk damage in the cache file"),
    "Run `cortex cache clear` and `cortex cache verify`; if it fails again, check the disk and the clock, "
    "and set CORTEX_CACHE=off meanwhile.")

CHECKS = checks_of(SEARCH_CACHE_OFF, SEARCH_CACHE_ABSENT, SEARCH_CACHE_PRESENT, SEARCH_CACHE_UNREADABLE,
                   SEARCH_CACHE_VERIFY_FAILED)
