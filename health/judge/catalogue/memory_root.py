"""Help data: the memory-root finding ids (health.judge.rules.memory_root). Part of the catalogue read by explain and -v."""
from health.judge.catalogue import CRITICAL, Check, Ok, Problem, checks_of

MEMORY_ROOT_TREE = Check("memory-root:tree", "ROOT holds the LifeOS memory tree (LIFEOS/MEMORY)")
MEMORY_ROOT_PRESENT = Ok("memory-root-present", MEMORY_ROOT_TREE)
MEMORY_ROOT_MISSING = Problem(
    "memory-root-missing", CRITICAL, MEMORY_ROOT_TREE,
    "ROOT/LIFEOS/MEMORY does not exist, so the audit has no memory tree to read; the per-file findings "
    "that follow it all have this one cause.",
    ("--root names the home folder or LIFEOS/MEMORY instead of the .claude folder above it",
     "`cortex init` has not run for this root", "the tree was moved or deleted"),
    "Pass --root the .claude folder that holds LIFEOS/MEMORY (the message names one when it found it "
    "nearby), or create the tree with `cortex init --root DIR`.")

CHECKS = checks_of(MEMORY_ROOT_PRESENT, MEMORY_ROOT_MISSING)
