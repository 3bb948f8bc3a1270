"""Core: the version of this install, for `cortex --version`, `cortex-health --version` and the report.

`installed()` is what the installed distribution's metadata says (importlib.metadata, loaded
only when asked: it costs more start-up than a whole audit); `RELEASE` is the source's own
version, the single one pyproject.toml reads, which the report carries at no cost. A test
checks that the two agree.
"""
from __future__ import annotations

from cortex import __version__ as RELEASE

DISTRIBUTION = "cortex-health"


def installed() -> str:
    """The installed distribution's version, or the source's release marked as not installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return f"{RELEASE} (not installed)"


def banner(program: str) -> str:
    """`cortex 0.1.0 (cortex-health)`: one line for --version."""
    return f"{program} {installed()} ({DISTRIBUTION})\n"
