"""Reviewer stage: memory-review.json's documented defaults and the command override, stdlib only; used by reviewconfig and `review fire`.

A fresh install has no memory-review.json, and `review fire` runs on every Stop: it reads
these defaults without importing pydantic. A config file that exists is always validated in
full by cortex.review.reviewconfig (a test keeps these values equal to the model's defaults).
"""
from __future__ import annotations

import os
import shlex

from cortex.errors import InvalidInput
from cortex.layout import Layout

CONFIG_NAME = "memory-review.json"
COMMAND_ENV = "CORTEX_REVIEWER_COMMAND"
DEFAULT_TURN_THRESHOLD = 8
DEFAULT_MIN_MINUTES_BETWEEN = 30


class ConfigError(InvalidInput):
    """memory-review.json (or CORTEX_REVIEWER_COMMAND) is broken: exit 4 with the reason."""


def config_path(layout: Layout) -> str:
    return os.path.join(layout.user, "CONFIG", CONFIG_NAME)


def config_absent(layout: Layout) -> bool:
    """True only when nothing at all is at the config path (a broken link or a folder is not absent)."""
    try:
        os.lstat(config_path(layout))
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return False


def command_override(environ) -> list[str] | None:
    """CORTEX_REVIEWER_COMMAND as argv (None when unset or empty); ConfigError when it is not a command line."""
    raw = environ.get(COMMAND_ENV, "")
    if not raw:
        return None  # empty means unset
    try:
        argv = shlex.split(raw)
    except ValueError as error:
        raise ConfigError(f"{COMMAND_ENV} is not a valid command line: {error}").at(field=COMMAND_ENV,
                                                                                  rule="command-line") from None
    if not argv:
        raise ConfigError(f"{COMMAND_ENV} names no program").at(field=COMMAND_ENV, rule="command-line")
    return argv
