"""Reviewer stage: memory-review.json's documented defaults and the command override, stdlib only; used by reviewconfig, `review fire` and `cortex init`.

`cortex init` writes DEFAULT_CONFIG_TEXT (never over an existing file), and `review fire` runs
on every Stop: an absent file, or one that is byte for byte that text, means these defaults
and needs no pydantic. Any other config file is validated in full by
cortex.review.reviewconfig (a test keeps these values equal to the model's defaults and the
text valid for the model).
"""
from __future__ import annotations

import os

from cortex.core.safeio import read_bounded
from cortex.errors import InvalidInput
from cortex.layout import Layout

CONFIG_NAME = "memory-review.json"
COMMAND_ENV = "CORTEX_REVIEWER_COMMAND"
DEFAULT_TURN_THRESHOLD = 8
DEFAULT_MIN_MINUTES_BETWEEN = 30
DEFAULT_INFERENCE_COMMAND = ("claude", "-p")  # Claude Code's print mode, found on the PATH the hook runs with
DEFAULT_CONFIG_TEXT = """\
{
  "schema_version": 1,
  "turn_threshold": 8,
  "min_minutes_between": 30,
  "idle_threshold": 2,
  "confidence_threshold": 0.7,
  "inference_command": ["claude", "-p"],
  "inference_timeout_seconds": 180,
  "pass_env": []
}
"""


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


def uses_defaults(layout: Layout) -> bool:
    """True when the config is absent or exactly DEFAULT_CONFIG_TEXT; anything else (unreadable too) must be validated."""
    if config_absent(layout):
        return True
    expected = DEFAULT_CONFIG_TEXT.encode("utf-8")
    try:
        return read_bounded(config_path(layout), len(expected)) == expected
    except OSError:  # a link, a folder, a bigger file: the full loader says what is wrong
        return False


def command_override(environ) -> list[str] | None:
    """CORTEX_REVIEWER_COMMAND as argv (None when unset or empty); ConfigError when it is not a command line."""
    raw = environ.get(COMMAND_ENV, "")
    if not raw:
        return None  # empty means unset
    import shlex  # only when the variable is set

    try:
        argv = shlex.split(raw)
    except ValueError as error:
        raise ConfigError(f"{COMMAND_ENV} is not a valid command line: {error}").at(field=COMMAND_ENV,
                                                                                  rule="command-line") from None
    if not argv:
        raise ConfigError(f"{COMMAND_ENV} names no program").at(field=COMMAND_ENV, rule="command-line")
    return argv
