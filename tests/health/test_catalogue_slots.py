"""health.judge.catalogue reads template ids and slot values without `re`, as the patterns it replaced (SLOTS)."""
from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings, strategies as st

from health.judge.catalogue import SLOTS, _parts, _readable

_CHARS = st.sampled_from(list("{}az_AZ09.- -:/é٣\n\t\u3000\x1c"))


@given(st.lists(st.sampled_from(["{", "}", "{file}", "{a}", "{}", "{{x}}", "{A}", "a", "-", ":", "é", "{x", "x}"]),
                max_size=8).map("".join) | st.text(_CHARS, max_size=12))
def test_parts_are_the_pattern_s_split(template):
    assert _parts(template) == tuple(re.split(r"\{([a-z]+)\}", template))


# The characters the patterns tell apart, with Unicode spaces, letters and digits outside ASCII among them.
ALPHABET = st.sampled_from("aZz09_.- \t\n\r\x0b\x0c\x1c\x85\xa0\u2003\u3000é\u0663Kſ/:") | st.characters()


@pytest.mark.parametrize("slot", sorted(SLOTS))
@settings(max_examples=200, deadline=None)
@given(value=st.text(ALPHABET, max_size=8))
@example(value="")
@example(value="review-12")
@example(value="review-")
@example(value="-1")
@example(value="a\n")
@example(value="Stop hook.sh")
def test_each_slot_reads_what_its_pattern_matches(slot, value):
    assert _readable(slot, value) == (re.fullmatch(SLOTS[slot], value) is not None)
