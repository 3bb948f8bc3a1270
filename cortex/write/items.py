"""Write path: the typed items (memory, idea, knowledge, proposal) as pydantic models; used by remember/propose.

These models are the single source of truth for the item shapes: validation, the published
JSON Schema (lifeos-cortex-item-v1.schema.json) and the documentation all come from here.
Every model forbids unknown fields and is strict (no coercion: "0.5" is not a number, true
is not a number). Field rules live in cortex.write.itemfields; `validate_item` turns a JSON value
into an item or a Refusal(EINVAL_ITEM) whose message never echoes the submitted values.
"""
from __future__ import annotations

from typing import Annotated, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter, ValidationError, field_validator, model_validator

from cortex.write.itemfields import (
    MAX_HOT_ENTRIES, MAX_OBSERVED_SESSIONS, MAX_RELATED, Confidence, FreeText, HotEntry, RelatedType, SessionId, Slug,
    TargetPath, Title,
)
from cortex.core.privacy import strip_private_content
from cortex.write.refusals import Refusal
from cortex.core.timestamps import parse_timestamp_ms

ProposalKind = Literal[
    "identity", "style", "definition", "canonical-content", "resume", "operational-rule", "projects", "contacts"
]


def require_coherent_window(model):
    """valid_from must be strictly before valid_until (shared by items and capture envelopes)."""
    if model.valid_from is not None and model.valid_until is not None:
        if parse_timestamp_ms(model.valid_from) >= parse_timestamp_ms(model.valid_until):
            raise ValueError("valid_from must be before valid_until")
    return model

class _Item(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class RelatedLink(_Item):
    """A typed cross-link to another knowledge note, by slug."""

    slug: Slug
    type: RelatedType


class _Note(_Item):
    """Fields shared by idea and knowledge records."""

    content: FreeText = Field(description="body of the record (free text, up to 65,536 characters)")
    source_session: Optional[SessionId] = Field(default=None, description="session the item was captured in")
    confidence: Optional[Confidence] = None
    related: list[RelatedLink] = Field(default_factory=list, max_length=MAX_RELATED)
    valid_from: Optional[str] = Field(default=None, description="inclusive validity start (strict timestamp)")
    valid_until: Optional[str] = Field(default=None, description="exclusive validity end (strict timestamp)")

    @field_validator("related")
    @classmethod
    def _unique_slugs(cls, links: list[RelatedLink]) -> list[RelatedLink]:
        slugs = [link.slug for link in links]
        if len(set(slugs)) != len(slugs):
            raise ValueError("related slugs must be unique")
        return links

    @field_validator("valid_from", "valid_until")
    @classmethod
    def _timestamp(cls, value: Optional[str]) -> Optional[str]:
        if value is not None and parse_timestamp_ms(value) is None:
            raise ValueError("must be YYYY-MM-DD or an ISO date-time with Z or ±HH:MM")
        return value

    @model_validator(mode="after")
    def _coherent_window(self):
        return require_coherent_window(self)


class MemoryItem(_Item):
    """The full desired entry list of one hot-memory file (set-overwrite: omitted entries are forgotten)."""

    type: Literal["memory"]
    actor: Literal["principal", "da"]
    op: Literal["set"]
    entries: list[HotEntry] = Field(min_length=1, max_length=MAX_HOT_ENTRIES)
    rationale: Optional[FreeText] = None


class IdeaItem(_Note):
    """A captured thought or insight; becomes a new record under KNOWLEDGE/Ideas/."""

    type: Literal["idea"]
    title: Title


class KnowledgeItem(_Note):
    """An entity note (person, company, research); becomes a new record under KNOWLEDGE/<People|Companies|Research>/."""

    type: Literal["knowledge"]
    entity_type: Literal["person", "company", "research"]
    name: Title


class ProposalItem(_Item):
    """A low-confidence edit to a curated file, queued for the principal's approval."""

    type: Literal["proposal"]
    target_file: TargetPath = Field(description="file the edit is for; pinned to the kind's allowed files")
    target_kind: Optional[ProposalKind] = Field(default=None, description="inferred from target_file when absent")
    edit: FreeText
    confidence: Confidence
    rationale: FreeText
    observed_across_sessions: StrictInt = Field(default=1, ge=1, le=MAX_OBSERVED_SESSIONS)
    source_session: Optional[SessionId] = None


TypedItem = Annotated[Union[MemoryItem, IdeaItem, KnowledgeItem, ProposalItem], Field(discriminator="type")]
_ADAPTER = TypeAdapter(TypedItem)
MAX_REPORTED_ERRORS = 5
_TAGS = ("memory", "idea", "knowledge", "proposal")


def _where(location: tuple) -> str:
    parts = [strip_private_content(str(part))[:64] for part in location]
    return ".".join(parts) or "item"


def describe(error: ValidationError) -> str:
    """A precise message naming fields and rules, never the submitted values."""
    problems = []
    for row in error.errors(include_input=False, include_url=False)[:MAX_REPORTED_ERRORS]:
        location = row["loc"][1:] if row["loc"] and row["loc"][0] in _TAGS else row["loc"]
        # Some pydantic messages quote the offending value (an unknown tag): strip and bound them.
        message = strip_private_content(row["msg"].removeprefix("Value error, "))[:300]
        problems.append(f"{_where(location)}: {message}")
    more = error.error_count() - len(problems)
    return "; ".join(problems) + (f" (and {more} more)" if more > 0 else "")


def validate_item(value: object) -> MemoryItem | IdeaItem | KnowledgeItem | ProposalItem:
    try:
        return _ADAPTER.validate_python(value)
    except ValidationError as error:
        raise Refusal("EINVAL_ITEM", describe(error)) from None


def item_json_schema() -> dict:
    schema = _ADAPTER.json_schema()
    schema["title"] = "lifeos-cortex/v1 typed item"
    return schema
