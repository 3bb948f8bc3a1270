"""Benchmark output: where a durable report may be written, and writing it without ever overwriting; called by `cortex benchmark`.

Rules (each refusal is invalid_input, exit 4, and nothing is written):
* the path must resolve under MEMORY/BENCHMARKS/ of the pinned memory root;
* the file name must be `cortex-benchmark-vN-<name>.json`;
* an existing file (or symlink) at that path is never replaced.
`plan_output` checks all of this before the benchmark runs, so a refusal costs nothing;
`write_new_report` checks again and creates the file exclusively, so a race cannot clobber.
"""
from __future__ import annotations

import os
import re

from cortex.errors import InvalidInput

REPORT_NAME = re.compile(r"cortex-benchmark-v[0-9]+-[A-Za-z0-9][A-Za-z0-9._-]*\.json\Z")
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def memory_directory(root_real: str) -> str:
    """The MEMORY directory of a pinned root, following the corpus loader's layouts.

    A root holding KNOWLEDGE/ is MEMORY itself; a root that only holds MEMORY/KNOWLEDGE/
    (the hermetic fixture layout) keeps MEMORY one level down.
    """
    if not os.path.exists(os.path.join(root_real, "KNOWLEDGE")) and os.path.isdir(
        os.path.join(root_real, "MEMORY", "KNOWLEDGE")
    ):
        return os.path.join(root_real, "MEMORY")
    return root_real


def benchmarks_directory(memory_dir: str) -> str:
    benchmarks = os.path.join(memory_dir, "BENCHMARKS")
    if os.path.islink(benchmarks):
        raise InvalidInput(f"--output refused: {benchmarks} is a symlink")
    if os.path.lexists(benchmarks) and not os.path.isdir(benchmarks):
        raise InvalidInput(f"--output refused: {benchmarks} is not a directory")
    return benchmarks


def plan_output(value: str, memory_dir: str) -> str:
    """The absolute, resolved path the report will be written to, or InvalidInput."""
    benchmarks = benchmarks_directory(memory_dir)
    requested = os.path.abspath(os.path.expanduser(value))
    name = os.path.basename(requested)
    target = os.path.join(os.path.realpath(os.path.dirname(requested)), name)
    if not target.startswith(benchmarks + os.sep):
        raise InvalidInput(f"--output must resolve under {benchmarks}{os.sep} (got {target})")
    if not REPORT_NAME.match(name):
        raise InvalidInput(f"--output file name must look like cortex-benchmark-vN-<name>.json (got {name!r})")
    if os.path.lexists(target):
        raise InvalidInput(f"--output refused: {target} already exists and reports are never overwritten")
    return target


def write_new_report(value: str, memory_dir: str, text: str) -> str:
    """Create the report file exclusively; returns its path."""
    target = plan_output(value, memory_dir)
    try:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        fd = os.open(target, _CREATE, 0o644)
    except FileExistsError:
        raise InvalidInput(f"--output refused: {target} already exists and reports are never overwritten") from None
    except OSError as error:
        raise InvalidInput(f"--output could not be created: {target} ({error.strerror or error})") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
    except BaseException:
        os.unlink(target)  # never leave a truncated report behind
        raise
    return target
