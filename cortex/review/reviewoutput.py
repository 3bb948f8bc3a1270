"""Reviewer stage: parse and validate the model's answer {items:[…]}; used by the reviewer.

Tolerated: surrounding whitespace, one ```json fence, and prose around exactly one fenced block
marked json (or unmarked), a common model habit; more blocks, an unclosed one or one marked
as another language stay rejected (which JSON was meant is ambiguous). Repaired: an overlong hot entry is
cut at a word boundary, keeping its prefix and provenance tag (the reference's
deterministic truncation). Everything else that is wrong rejects the whole batch with exact,
value-free error messages that the corrective retry feeds back: bad JSON, unknown keys or
types, invalid item fields (the typed item models of cortex.write.items), a hot entry without a
valid prefix, two memory items for one file, a proposal aimed at a file its kind does not allow. A memory list over the 48-entry cap is not a
parse error: it is reported to the retry as EAT_CAP and, if it persists, refused by dispatch.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cortex.errors import InvalidInput
from cortex.hot.hotmemory import MAX_CHARS_PER_ENTRY, MAX_ENTRIES, PROVENANCE_TAGS, prefix_length, entry_problem, validate_entries
from cortex.write.itemfields import HotEntry
from cortex.write.items import IdeaItem, KnowledgeItem, MemoryItem, ProposalItem
from cortex.core.jscompat import js_len, js_trim
from cortex.layout import Layout
from cortex.write.proposal_targets import pin_target
from cortex.write.refusals import Refusal
from cortex.core.strictjson import loads_strict

MAX_ITEMS = 64
MAX_SUBMITTED_ENTRIES = 4 * MAX_ENTRIES  # past the cap but bounded: the cap check reports these
MAX_ERRORS = 20
_FENCE = re.compile(r"\A```[A-Za-z0-9_-]*[ \t]*\r?\n(.*?)\r?\n?```\Z", re.S)
_FENCE_LINE = re.compile(r"^ {0,3}```([^`\n]*)$", re.M)  # a line that opens or closes a fenced block
_ONE_OBJECT = 'reply with one JSON object {"items": [...]} and nothing else'
_TAGS = ("memory", "idea", "knowledge", "proposal")
_NOTE_TYPES = ("idea", "knowledge", "proposal")


class ReviewerMemoryItem(MemoryItem):
    """The memory item as the reviewer accepts it: over-cap lists reach the EAT_CAP check."""

    entries: list[HotEntry] = Field(min_length=1, max_length=MAX_SUBMITTED_ENTRIES)


ReviewerItem = Annotated[Union[ReviewerMemoryItem, IdeaItem, KnowledgeItem, ProposalItem], Field(discriminator="type")]


class ReviewerOutput(BaseModel):
    """The whole answer: exactly {"items": [...]}."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    items: list[ReviewerItem] = Field(max_length=MAX_ITEMS)


class OutputRejected(Exception):
    def __init__(self, errors: list[str]):
        super().__init__("; ".join(errors))
        self.errors = errors


@dataclass(frozen=True)
class CapViolation:
    index: int
    actor: str
    count: int

    @property
    def message(self) -> str:
        return (f"items.{self.index}: EAT_CAP: the {self.actor} list has {self.count} entries after de-duplication; "
                f"the cap is {MAX_ENTRIES}. Consolidate to at most {MAX_ENTRIES} (trim {self.count - MAX_ENTRIES}).")


@dataclass(frozen=True)
class ParsedOutput:
    items: tuple[dict, ...]  # the validated items as plain values, ready for the write path
    cap_violations: tuple[CapViolation, ...]
    truncated: int  # overlong entries cut to fit


def _js_head(text: str, units: int) -> str:
    """The longest prefix of `text` whose JavaScript length is at most `units`."""
    used = 0
    for index, char in enumerate(text):
        used += 2 if ord(char) > 0xFFFF else 1
        if used > units:
            return text[:index]
    return text


def fit_entry(entry: str) -> str:
    """Cut an overlong hot entry at a word boundary, keeping its prefix and provenance tag."""
    trimmed = js_trim(entry)
    prefix = prefix_length(trimmed)
    body = trimmed[prefix:] if prefix else ""
    if not prefix or js_len(body) <= MAX_CHARS_PER_ENTRY:
        return entry
    tag = next((tag for tag in PROVENANCE_TAGS if body.endswith(tag)), None)
    core = body[: -len(tag)].rstrip() if tag else body
    budget = MAX_CHARS_PER_ENTRY - (len(tag) + 1 if tag else 0)
    head = _js_head(core, budget)
    space = head.rfind(" ")
    if len(head) < len(core) and space > budget // 2:
        head = head[:space]  # a word boundary, unless that would throw away half the fact
    head = head.rstrip(" ,;:-")
    return f"{trimmed[:prefix]}{head}{' ' + tag if tag else ''}"


def unfenced(text: str) -> str:
    """The JSON text of an answer: itself, the inside of a fence that is all of it, or of the one fenced block in prose."""
    text = text.strip()
    match = _FENCE.match(text)
    if match:
        return match.group(1).strip()
    if text.startswith(("{", "[")):
        return text
    fences = list(_FENCE_LINE.finditer(text))
    if not fences:
        return text  # prose without a block: the JSON error says so
    if len(fences) > 2:
        raise OutputRejected([f"the answer holds {(len(fences) + 1) // 2} fenced blocks; {_ONE_OBJECT}"])
    if len(fences) == 1 or fences[1].group(1).strip():
        raise OutputRejected([f"the answer opens a fenced block that is never closed; {_ONE_OBJECT}"])
    if fences[0].group(1).strip().lower() not in ("", "json"):
        raise OutputRejected([f"the answer's fenced block is not marked json; {_ONE_OBJECT}"])
    return text[fences[0].end():fences[1].start()].strip()


def _prepared(value: object, session: str | None) -> tuple[object, int]:
    """Apply the tolerated repairs to the raw answer; returns (value, entries truncated)."""
    if not isinstance(value, dict) or not isinstance(value.get("items"), list):
        return value, 0
    truncated = 0
    items = []
    for item in value["items"]:
        if isinstance(item, dict) and item.get("type") == "memory" and isinstance(item.get("entries"), list):
            fitted = [fit_entry(entry) if isinstance(entry, str) else entry for entry in item["entries"]]
            truncated += sum(1 for old, new in zip(item["entries"], fitted) if old != new)
            item = {**item, "entries": fitted}
        if isinstance(item, dict) and item.get("type") in _NOTE_TYPES and "source_session" not in item and session:
            item = {**item, "source_session": session}  # provenance: the session the item came from
        items.append(item)
    return {**value, "items": items}, truncated


def _location(loc: tuple) -> str:
    parts = [str(part) for index, part in enumerate(loc) if not (index == 2 and part in _TAGS)]
    return ".".join(parts) or "(top level)"


def _schema_errors(error: ValidationError) -> list[str]:
    errors = []
    for row in error.errors(include_input=False, include_url=False)[:MAX_ERRORS]:
        errors.append(f"{_location(row['loc'])}: {row['msg'].removeprefix('Value error, ')[:300]}")
    more = error.error_count() - len(errors)
    return errors + ([f"(and {more} more errors)"] if more > 0 else [])


def _target_error(index: int, item: ProposalItem, layout: Layout) -> str | None:
    """A proposal aimed at a file no kind allows would fail at dispatch: let the retry fix it."""
    try:
        pin_target(layout, item.target_kind, item.target_file)
    except Refusal as refusal:
        return f"items.{index}.target_file: {refusal.message.removeprefix(refusal.reason + ': ')}"
    return None


def _semantic_errors(items: list, layout: Layout | None) -> tuple[list[str], list[CapViolation]]:
    errors: list[str] = []
    caps: list[CapViolation] = []
    actors: dict[str, int] = {}
    for index, item in enumerate(items):
        if isinstance(item, ProposalItem) and layout is not None:
            problem = _target_error(index, item, layout)
            if problem:
                errors.append(problem)
        if not isinstance(item, ReviewerMemoryItem):
            continue
        if item.actor in actors:
            errors.append(f"items.{index}: a second memory item for {item.actor} (items.{actors[item.actor]} is the "
                          "first); return one full list per file")
        actors.setdefault(item.actor, index)
        for number, entry in enumerate(item.entries):
            problem = entry_problem(js_trim(entry)) if js_trim(entry) else "malformed"
            if problem == "malformed":
                errors.append(f"items.{index}.entries.{number}: must start with NAME, ROLE, RELATION, PREFERENCE or "
                              "RULE followed by \": \" and hold one line without entry markers")
            elif problem == "overlength":
                errors.append(f"items.{index}.entries.{number}: longer than {MAX_CHARS_PER_ENTRY} characters after the prefix")
        accepted = len(validate_entries(item.entries).accepted)
        if accepted > MAX_ENTRIES:
            caps.append(CapViolation(index, item.actor, accepted))
    return errors[:MAX_ERRORS], caps


def parse_output(raw: bytes, *, session: str | None = None, layout: Layout | None = None) -> ParsedOutput:
    """The validated answer, or OutputRejected with every error (value-free) for the retry."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise OutputRejected(["the answer is not valid UTF-8"]) from None
    text = unfenced(text)
    if not text:
        raise OutputRejected(['the answer is empty; reply with one JSON object {"items": [...]}'])
    try:
        value = loads_strict(text, what="the answer")
    except InvalidInput as error:
        raise OutputRejected([f'{error.message}; reply with one JSON object {{"items": [...]}} and nothing else']) from None
    value, truncated = _prepared(value, session)
    try:
        output = ReviewerOutput.model_validate(value)
    except ValidationError as error:
        raise OutputRejected(_schema_errors(error)) from None
    errors, caps = _semantic_errors(list(output.items), layout)
    if errors:
        raise OutputRejected(errors)
    items = tuple(item.model_dump(mode="json", exclude_defaults=True) | {"type": item.type} for item in output.items)
    return ParsedOutput(items, tuple(caps), truncated)
