"""Property tests for the write path's pure rules: guards, canonical serialisation, item fields, strict JSON."""
from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from cortex.errors import CortexError, InvalidInput
from cortex.write.hotguards import cap_refusal, suspect_refusal
from cortex.hot.hotmemory import MAX_ENTRIES, check_markers, parse_memory_content, serialize_memory_content, validate_entries
from cortex.hot.hottemplate import template
from cortex.layout import Layout
from cortex.core.privacy import strip_private_content
from cortex.write.proposal_targets import PROPOSAL_TARGETS, pin_target
from cortex.write.refusals import Refusal
from cortex.core.strictjson import loads_strict

PREFIXES = ("NAME", "ROLE", "RELATION", "PREFERENCE", "RULE")
entry = st.builds(lambda p, body: f"{p}: {body}", st.sampled_from(PREFIXES),
                  st.text(st.characters(min_codepoint=33, max_codepoint=0x2FFF, blacklist_categories=("Cs", "Cc", "Zl", "Zp")),
                          min_size=1, max_size=40))


def oracle(prior: list[str], new: list[str]) -> str | None:
    evicted = [e for e in prior if e not in new]
    added = [e for e in new if e not in prior]
    if len(prior) >= 10 and (len(new) < 3 or (len(evicted) > len(prior) / 2 and not added)):
        return "ESUSPECT_SHRINK"
    if len(evicted) - len(added) >= 2:
        return "ESUSPECT_EROSION"
    return None


@given(st.lists(st.integers(0, 30), unique=True, max_size=20), st.lists(st.integers(0, 30), unique=True, max_size=20))
def test_suspect_guards_match_the_stated_rules(prior_ids, new_ids):
    prior = [f"RULE: {i}" for i in prior_ids]
    new = [f"RULE: {i}" for i in new_ids]
    evicted = sum(1 for e in prior if e not in new)
    added = sum(1 for e in new if e not in prior)
    refusal = suspect_refusal(len(prior), len(new), evicted, added)
    assert (refusal.reason if refusal else None) == oracle(prior, new)


@given(st.integers(0, 200))
def test_the_cap_refuses_exactly_above_48(count):
    refusal = cap_refusal([f"RULE: {i}" for i in range(count)])
    assert (refusal is not None) == (count > MAX_ENTRIES)
    if refusal:
        assert refusal.reason == "EAT_CAP" and refusal.detail["over_count"] == count - MAX_ENTRIES


@settings(max_examples=150)
@given(st.lists(entry, max_size=60), st.sampled_from(["principal", "da"]))
def test_serialise_then_parse_returns_exactly_the_accepted_entries(entries, label):
    accepted = list(validate_entries(entries).accepted)
    base = parse_memory_content(template(label, "2026-01-01T00:00:00.000Z"))
    text = serialize_memory_content(base, accepted, "prop-test", "2026-01-02T00:00:00.000Z")
    parsed = parse_memory_content(text)
    assert list(parsed.entries) == accepted
    assert check_markers(text).ok
    assert serialize_memory_content(parsed, accepted, "prop-test", "2026-01-02T00:00:00.000Z") == text
    assert "last_updated: 2026-01-02T00:00:00.000Z" in parsed.frontmatter


_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


@settings(max_examples=300)
@given(st.text(max_size=200), st.text(alphabet=st.characters(blacklist_characters="<>"), min_size=1, max_size=20))
def test_item_text_is_stored_only_when_safe_and_never_keeps_a_private_span(public, hidden):
    from cortex.write.items import validate_item

    content = f"{public}<private>SECRET{hidden}</private>{public}"
    try:
        item = validate_item({"type": "idea", "title": "t", "content": content})
    except Refusal:
        return
    stored = item.content
    assert f"SECRET{hidden}" not in stored
    assert strip_private_content(stored) == stored
    assert not _FORBIDDEN.search(stored)
    assert "<!--" not in stored and "-->" not in stored
    assert not any(line.strip(" \t") == "---" for line in re.split(r"\r?\n|\r", stored))


@given(st.text(max_size=300))
def test_strict_json_fails_only_with_invalid_input(text):
    try:
        loads_strict(text)
    except InvalidInput:
        pass


@given(st.one_of(st.sampled_from([None, *PROPOSAL_TARGETS]), st.text(max_size=10)), st.text(max_size=80))
def test_proposal_targets_are_always_pinned_into_the_allow_list(kind, supplied):
    layout = Layout.from_memory_root("/tmp/claude/LIFEOS/MEMORY")
    if kind is not None and kind not in PROPOSAL_TARGETS:
        return  # unknown kinds are refused by the item model before pinning
    try:
        pinned_kind, relative = pin_target(layout, kind, supplied)
    except CortexError:
        return
    assert relative in PROPOSAL_TARGETS[pinned_kind]
