"""Help data: the memory-root finding ids (health.rules.memory_root). Part of the catalogue read by explain and -v."""
from health.catalogue import Check, Problem

CHECKS = (
    Check("memory-root:tree", "ROOT holds the LifeOS memory tree (LIFEOS/MEMORY)",
          ok=("memory-root-present",), problems=(
        Problem(
            "memory-root-missing", "critical",
            "ROOT/LIFEOS/MEMORY does not exist, so the audit has no memory tree to read; the per-file findings "
            "that follow it all have this one cause.",
            ("--root names the home folder or LIFEOS/MEMORY instead of the .claude folder above it",
             "`cortex init` has not run for this root", "the tree was moved or deleted"),
            "Pass --root the .claude folder that holds LIFEOS/MEMORY (the message names one when it found it "
            "nearby), or create the tree with `cortex init --root DIR`."),
    )),
)
