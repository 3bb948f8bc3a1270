"""Reviewer stage: the memory-review.json config (pydantic) and its loader; used by `review run` and `review fire`.

ROOT/LIFEOS/USER/CONFIG/memory-review.json. An absent file means the documented defaults
(a fresh install has none); a file that exists must be valid in full — unreadable, not JSON,
an unknown key, a wrong type ("8" is not 8, true is not 1) or an out-of-range value is a
ConfigError naming the file and the field, never a silent fallback (`inference_command`
absent means `claude -p`; null is a wrong type). CORTEX_REVIEWER_COMMAND
(a shell-style command line) overrides `inference_command`. Every decoded key and string
crosses the privacy boundary before validation, so neither an error message nor the
dry-run's echo of the command can show a private span.
"""
from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, StrictStr, ValidationError, field_validator

from cortex.errors import InvalidInput
from cortex.layout import Layout
from cortex.review.reviewdefaults import (  # noqa: F401 - ConfigError, CONFIG_NAME, COMMAND_ENV and config_path re-exported
    COMMAND_ENV, CONFIG_NAME, DEFAULT_INFERENCE_COMMAND, DEFAULT_MIN_MINUTES_BETWEEN, DEFAULT_TURN_THRESHOLD, ConfigError,
    command_override, config_path)
from cortex.core.privatejson import KeyCollision, strip_private_json
from cortex.core.safeio import UnsafeFile, read_bounded
from cortex.core.strictjson import loads_strict

MAX_CONFIG_BYTES = 65_536
_ENV_NAME = r"^[A-Za-z_][A-Za-z0-9_]*$"

Number = StrictInt | StrictFloat
EnvName = Annotated[StrictStr, Field(pattern=_ENV_NAME, max_length=256)]
Arg = Annotated[StrictStr, Field(min_length=1, max_length=4096)]


class ReviewConfig(BaseModel):
    """Cadence, curation and inference settings of the memory reviewer."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    schema_version: Literal[1]
    turn_threshold: StrictInt = Field(default=DEFAULT_TURN_THRESHOLD, ge=1, le=10_000, description="turns in one session before a review")
    min_minutes_between: Number = Field(default=DEFAULT_MIN_MINUTES_BETWEEN, ge=0, le=525_600, description="global minimum gap between reviews")
    idle_threshold: StrictInt = Field(default=2, ge=0, le=10_000,
                                      description="accepted and validated for compatibility; the cadence does not use it")
    confidence_threshold: Number = Field(default=0.70, ge=0, le=1, description="proposals at or above are auto-approved")
    notes: Optional[StrictStr] = Field(default=None, max_length=4096)
    inference_command: list[Arg] = Field(default_factory=lambda: list(DEFAULT_INFERENCE_COMMAND), min_length=1,
                                         max_length=256, description="argv of the model call (default claude -p, "
                                         "found on PATH): prompt on stdin, JSON on stdout")
    inference_timeout_seconds: Number = Field(default=180, gt=0, le=3600)
    pass_env: list[EnvName] = Field(default_factory=list, max_length=256,
                                    description="credential-like variables the inference command may still see")
    transcript_dir: Optional[Annotated[StrictStr, Field(min_length=1, max_length=4096)]] = Field(
        default=None, description="where session transcripts live (default ~/.claude/projects)")

    @field_validator("min_minutes_between", "confidence_threshold", "inference_timeout_seconds")
    @classmethod
    def _finite(cls, value: float) -> float:
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError("must be a finite number")
        return value


DEFAULTS = ReviewConfig(schema_version=1)


def _describe(error: ValidationError) -> str:
    problems = []
    for row in error.errors(include_input=False, include_url=False)[:5]:
        where = ".".join(str(part) for part in row["loc"]) or "(top level)"
        problems.append(f"{where}: {row['msg']}")
    more = error.error_count() - len(problems)
    return "; ".join(problems) + (f" (and {more} more)" if more > 0 else "")


def _first_field(error: ValidationError) -> str | None:
    """The key of the first problem (`turn_threshold`, `pass_env.0`), or None at the top level."""
    rows = error.errors(include_input=False, include_url=False)
    return ".".join(str(part) for part in rows[0]["loc"]) or None if rows else None


def load_config(layout: Layout, environ) -> ReviewConfig:
    """The validated config with the environment override applied; ConfigError otherwise."""
    path = config_path(layout)
    shown = layout.display(path)
    try:
        data = read_bounded(path, MAX_CONFIG_BYTES)
    except FileNotFoundError:
        config = DEFAULTS
    except (UnsafeFile, OSError) as error:
        raise ConfigError(f"{shown} is not readable: {error}").at(file=path, rule="unreadable") from None
    else:
        try:
            text = data.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:
            raise ConfigError(f"{shown} is not valid UTF-8").at(file=path, rule="utf8") from None
        try:
            value = strip_private_json(loads_strict(text, what=shown))
        except InvalidInput as error:
            raise ConfigError(error.message).at(file=path, line=error.line, rule="json") from None
        except KeyCollision as error:
            raise ConfigError(f"{shown} is invalid: {error}").at(file=path, rule="json") from None
        try:
            config = ReviewConfig.model_validate(value)
        except ValidationError as error:
            raise ConfigError(f"{shown} is invalid: {_describe(error)}").at(file=path, field=_first_field(error),
                                                                            rule="schema") from None
    return with_command_override(config, environ)


def with_command_override(config: ReviewConfig, environ) -> ReviewConfig:
    argv = command_override(environ)
    return config if argv is None else config.model_copy(update={"inference_command": argv})
