"""Help data: lock finding ids (health.judge.rules.locks). Part of the catalogue read by explain and -v."""
from health.judge.catalogue import WARN, Check, Ok, Problem, checks_of

LOCKS_HOLDER = Check("locks:holder", "every held write lock has a live holder within its limits")
LOCKS_FREE = Ok("locks-free", LOCKS_HOLDER)
LOCK_HELD = Ok("lock-held:{file}", LOCKS_HOLDER)
LOCK_STALE = Problem(
    "lock-stale:{file}", WARN, LOCKS_HOLDER,
    "A write lock's holder is provably dead on this host, or cannot be verified (another host, no valid "
    "stamp) and the lock is older than lock_stale_ms: writes to that file wait or are refused until it is "
    "broken.",
    ("a writer was killed while it held the lock", "a lock copied from another machine",
     "a hand-made or truncated lock file"),
    "Run `cortex-health fix --dry-run` to see the repair, then `cortex-health fix`: it breaks a lock whose "
    "holder is dead on this host and logs it to memory-locks.jsonl. Remove an unverifiable lock by hand "
    "only after checking no writer runs on its host.", threshold="lock_stale_ms")
LOCK_HELD_LONG = Problem(
    "lock-held-long:{file}", WARN, LOCKS_HOLDER,
    "A live process has held a write lock longer than lock_held_ms: every other writer to that file is "
    "refused (ELOCK_HELD) meanwhile.",
    ("a writer stuck on a slow disk or a hung pipe", "a debugger paused inside a write"),
    "Find the process by the pid in the finding (`ps -p PID`), let it finish or stop it; its lock then "
    "goes stale and the next writer (or `cortex-health fix`) breaks it.", threshold="lock_held_ms")

LOCKS_CONTENTION = Check("locks:contention", "few lock collisions in the last 24 h")
LOCK_CONTENTION_OK = Ok("lock-contention-ok", LOCKS_CONTENTION)
LOCK_CONTENTION = Problem(
    "lock-contention", WARN, LOCKS_CONTENTION,
    "memory-locks.jsonl shows more than lock_contention_per_day contended or recovered lock events in the "
    "last 24 h: writers keep colliding or keep dying while holding a lock.",
    ("several sessions reviewing at once", "a writer that crashes inside the lock"),
    "Read the events in O/memory-locks.jsonl (reason and lock); raise min_minutes_between in "
    "memory-review.json if reviews overlap.", threshold="lock_contention_per_day")

CHECKS = checks_of(LOCKS_FREE, LOCK_HELD, LOCK_STALE, LOCK_HELD_LONG, LOCK_CONTENTION_OK, LOCK_CONTENTION)
