"""A template id's slot values are read back by hand-written tests, each the same as its pattern in SLOTS."""
from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from health.judge.catalogue import SLOTS, _readable

# The characters the patterns tell apart, with Unicode spaces, letters and digits outside ASCII among them.
ALPHABET = st.sampled_from("aZz09_.- \t\n\r\x0b\x0c\x1c\x85\xa0\u2003\u3000é\u0663Kſ/:") | st.characters()


@pytest.mark.parametrize("slot", sorted(SLOTS))
@settings(max_examples=400, deadline=None)
@given(value=st.text(ALPHABET, max_size=8))
@example(value="")
@example(value="review-12")
@example(value="review-")
@example(value="-1")
@example(value="a\n")
@example(value="Stop hook.sh")
def test_each_slot_reads_what_its_pattern_matches(slot, value):
    assert _readable(slot, value) == (re.fullmatch(SLOTS[slot], value) is not None)
