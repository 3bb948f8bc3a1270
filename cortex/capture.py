"""Capture boundary (called by capture surfaces): the CaptureEnvelope and `ingest_capture_envelope(input, consumer)`.

A capture surface (claude, hermes, codex, a subagent, a messaging channel) describes what
it captured as an envelope: source, channel, timestamps.captured_at (+ optional source_at),
optional valid_from/valid_until, optional session_id and content. `ingest_capture_envelope`
validates it, strips private spans from every text field, and hands the consumer only that
sanitised copy; the caller's input is never passed on. Invalid envelopes are InvalidInput.
"""
from __future__ import annotations

from typing import Annotated, Callable, Optional, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictStr, ValidationError, model_validator

from cortex.errors import InvalidInput
from cortex.write.items import describe, require_coherent_window
from cortex.core.jscompat import js_trim
from cortex.core.privacy import strip_private_content
from cortex.core.timestamps import parse_timestamp_ms

T = TypeVar("T")


def _timestamp(value: str) -> str:
    if parse_timestamp_ms(value) is None:
        raise ValueError("must be YYYY-MM-DD or an ISO date-time with Z or ±HH:MM")
    return value


def _label(value: str) -> str:
    if not js_trim(value):
        raise ValueError("must not be empty")
    return value


Timestamp = Annotated[StrictStr, AfterValidator(_timestamp)]
Label = Annotated[StrictStr, Field(max_length=1024), AfterValidator(_label)]


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class CaptureTimestamps(_Frozen):
    captured_at: Timestamp
    source_at: Optional[Timestamp] = None


class CaptureEnvelope(_Frozen):
    """One captured piece of content, source-neutral."""

    source: Label = Field(description="who captured it: claude, hermes, codex, subagent, telegram, …")
    channel: Label = Field(description="how it arrived: session, transcript, dm, webhook, …")
    timestamps: CaptureTimestamps
    valid_from: Optional[Timestamp] = None
    valid_until: Optional[Timestamp] = None
    session_id: Optional[Annotated[StrictStr, Field(max_length=1024)]] = None
    content: Annotated[StrictStr, Field(max_length=1_048_576)]

    @model_validator(mode="after")
    def _coherent_window(self):
        return require_coherent_window(self)


def _validated(value: object) -> CaptureEnvelope:
    try:
        return CaptureEnvelope.model_validate(value)
    except ValidationError as error:
        raise InvalidInput(f"invalid capture envelope: {describe(error)}") from None


def create_capture_envelope(value: object) -> CaptureEnvelope:
    """Validate `value` (a mapping or an envelope) and return a new, privacy-stripped envelope.

    Stripping happens after validation and the result is validated again, so a field that
    only held private text (an empty source, say) is refused rather than passed on.
    """
    raw = value.model_dump() if isinstance(value, CaptureEnvelope) else value
    envelope = _validated(raw)
    stripped = envelope.model_dump()
    for key in ("source", "channel", "session_id", "content"):
        if stripped[key] is not None:
            stripped[key] = strip_private_content(stripped[key])
    if stripped["session_id"] is not None and not js_trim(stripped["session_id"]):
        stripped["session_id"] = None
    return _validated(stripped)


def ingest_capture_envelope(value: object, consumer: Callable[[CaptureEnvelope], T]) -> T:
    """The single capture boundary: the consumer only ever sees the sanitised envelope."""
    return consumer(create_capture_envelope(value))
