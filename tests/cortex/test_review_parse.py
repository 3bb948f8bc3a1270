"""Parsing the reviewer's answer: what is tolerated, what is repaired, and what rejects the batch (with exact errors)."""
from __future__ import annotations

import json

import pytest

from cortex.hot.hotmemory import MAX_CHARS_PER_ENTRY, entry_problem
from cortex.core.jscompat import js_len
from cortex.layout import Layout
from cortex.review.reviewoutput import OutputRejected, fit_entry, parse_output


def answer(*items) -> bytes:
    return json.dumps({"items": list(items)}).encode()


def memory(actor="principal", entries=("NAME: Ada ~explicit",), **extra) -> dict:
    return {"type": "memory", "actor": actor, "op": "set", "entries": list(entries), **extra}


def rejected(raw: bytes, **kwargs) -> list[str]:
    with pytest.raises(OutputRejected) as caught:
        parse_output(raw, **kwargs)
    return caught.value.errors


@pytest.mark.parametrize("wrap", ["{}", "  \n{}\n\n", "```json\n{}\n```", "\n```\n{}\n```\n", "```JSON\n{}```"])
def test_whitespace_and_one_fence_are_tolerated(wrap):
    parsed = parse_output(wrap.replace("{}", json.dumps({"items": [memory()]})).encode())
    assert parsed.items == ({"type": "memory", "actor": "principal", "op": "set", "entries": ["NAME: Ada ~explicit"]},)


@pytest.mark.parametrize("wrap", [
    "Here are the items:\n```json\n{}\n```",
    "Sure! Based on the transcript:\n\n```\n{}\n```\n\nLet me know if anything is off.",
    "I kept one fact.\n   ```JSON\n{}\n   ```\nDone.",
])
def test_prose_around_exactly_one_fenced_json_block_is_accepted(wrap):
    parsed = parse_output(wrap.replace("{}", json.dumps({"items": [memory()]})).encode())
    assert parsed.items[0]["entries"] == ["NAME: Ada ~explicit"]


@pytest.mark.parametrize("raw, expected", [
    ("First:\n```json\n{}\n```\nor rather:\n```json\n{}\n```", "the answer holds 2 fenced blocks"),
    ("Here:\n```json\n{}\n", "opens a fenced block that is never closed"),
    ("Here:\n```json\n{}\n```json\n", "opens a fenced block that is never closed"),
    ("In Python:\n```python\n{}\n```", "fenced block is not marked json"),
    ("Here:\n```json\nitems: none\n```", "the answer must be valid JSON"),
    ("Here is {} as you asked", "the answer must be valid JSON"),  # no fence: prose is not searched for JSON
    ("{}\nHope this helps!", "the answer must be valid JSON"),
])
def test_ambiguous_or_non_json_answers_around_prose_are_still_refused(raw, expected):
    errors = rejected(raw.replace("{}", json.dumps({"items": [memory()]})).encode())
    assert expected in errors[0] and 'reply with one JSON object {"items": [...]}' in errors[0]


@pytest.mark.parametrize("raw, expected", [
    (b"", "the answer is empty"),
    (b"Sure, here you go", "the answer must be valid JSON"),
    (b'{"items": [1,]}', "the answer must be valid JSON"),
    (b'{"items": [], "items": []}', "duplicate key 'items'"),
    (b'{"items": [{"type": "memory", "confidence": NaN}]}', "non-finite number NaN"),
    (b"\xff\xfe", "not valid UTF-8"),
])
def test_not_json_is_rejected_with_the_reason(raw, expected):
    assert expected in rejected(raw)[0]


def test_schema_errors_name_the_item_and_field_without_values():
    errors = rejected(answer(memory(rationale="ok", extra_key="SECRET-VALUE"),
                             {"type": "idea", "title": "", "content": "x"},
                             {"type": "proposal", "target_file": "PROJECTS.md", "edit": "e", "confidence": 1.5,
                              "rationale": "r"}))
    assert "items.0.extra_key: Extra inputs are not permitted" in errors
    assert any(error.startswith("items.1.title:") for error in errors)
    assert any(error.startswith("items.2.confidence:") for error in errors)
    assert not any("SECRET-VALUE" in error for error in errors)


def test_unknown_top_level_keys_and_types_are_rejected():
    assert rejected(b'{"items": [], "notes": "x"}') == ["notes: Extra inputs are not permitted"]
    assert "items.0" in rejected(answer({"type": "diary", "text": "x"}))[0]
    assert rejected(b"[]")[0].startswith("(top level)")


def test_entries_need_a_valid_prefix_and_one_item_per_file():
    errors = rejected(answer(memory(entries=["NAME: Ada", "likes tea"]), memory(entries=["ROLE: x"])))
    assert errors[0].startswith("items.0.entries.1: must start with NAME, ROLE, RELATION, PREFERENCE or RULE")
    assert errors[1].startswith("items.1: a second memory item for principal")


def test_a_proposal_aimed_at_a_file_its_kind_does_not_allow_is_rejected(tmp_path):
    layout = Layout.from_claude_root(str(tmp_path))
    proposal = {"type": "proposal", "target_kind": "identity", "target_file": "USER/NOTES.md", "edit": "e",
                "confidence": 0.5, "rationale": "r"}
    assert rejected(answer(proposal), layout=layout)[0].startswith("items.0.target_file: target_file is not an allowed")


def test_an_overlong_list_is_a_cap_violation_not_a_parse_error():
    entries = [f"PREFERENCE: fact {i}" for i in range(50)] + ["PREFERENCE: fact 0"]  # duplicates do not count
    parsed = parse_output(answer(memory(entries=entries)))
    [cap] = parsed.cap_violations
    assert (cap.index, cap.actor, cap.count) == (0, "principal", 50)
    assert cap.message.startswith("items.0: EAT_CAP: the principal list has 50 entries") and "trim 2" in cap.message


def test_privacy_spans_are_stripped_from_items():
    parsed = parse_output(answer({"type": "idea", "title": "T", "content": "keep <private>drop</private> this"}))
    assert parsed.items[0]["content"] == "keep  this"


def test_the_session_becomes_provenance_of_notes_and_proposals_only():
    parsed = parse_output(answer(memory(), {"type": "idea", "title": "T", "content": "c"}), session="abc-123")
    assert "source_session" not in parsed.items[0] and parsed.items[1]["source_session"] == "abc-123"


@pytest.mark.parametrize("tag", ["~explicit", "~deduced", "~inferred", None])
def test_fit_entry_cuts_at_a_word_boundary_and_keeps_the_tag(tag):
    entry = "PREFERENCE: " + " ".join(f"word{i}" for i in range(80)) + (f" {tag}" if tag else "")
    fitted = fit_entry(entry)
    assert entry_problem(fitted) is None and js_len(fitted[len("PREFERENCE: "):]) <= MAX_CHARS_PER_ENTRY
    body = fitted.removesuffix(f" {tag}") if tag else fitted
    assert body.split()[-1].startswith("word") and body + " " in entry + " "  # whole words only
    assert fitted.endswith(tag) if tag else True


def test_fit_entry_counts_like_javascript_and_leaves_short_entries_alone():
    assert fit_entry("NAME: Ada") == "NAME: Ada"
    astral = "NAME: " + "😀" * 200  # 400 UTF-16 units, no spaces: a hard cut
    assert js_len(fit_entry(astral)[len("NAME: "):]) == 256
    assert fit_entry("no prefix " * 50) == "no prefix " * 50  # not ours to repair: the prefix check rejects it


def test_an_overlong_entry_in_an_answer_is_repaired_and_counted():
    long_entry = "RULE: " + "x " * 400 + "~explicit"
    parsed = parse_output(answer(memory(entries=["NAME: Ada", long_entry])))
    assert parsed.truncated == 1 and parsed.items[0]["entries"][1].endswith(" ~explicit")
