"""health.judge.catalogue reads template ids and slot values without `re`, as the patterns it replaced (SLOTS)."""
from __future__ import annotations

import re

from hypothesis import given, strategies as st

from health.judge.catalogue import SLOTS, _fits, _parts

_CHARS = st.sampled_from(list("{}az_AZ09.- -:/é٣\n\t\u3000\x1c"))


@given(st.lists(st.sampled_from(["{", "}", "{file}", "{a}", "{}", "{{x}}", "{A}", "a", "-", ":", "é", "{x", "x}"]),
                max_size=8).map("".join) | st.text(_CHARS, max_size=12))
def test_parts_are_the_pattern_s_split(template):
    assert _parts(template) == tuple(re.split(r"\{([a-z]+)\}", template))


@given(st.sampled_from(sorted(SLOTS)), st.text(_CHARS, max_size=8) | st.text(max_size=6))
def test_each_slot_fits_what_its_pattern_matches(slot, value):
    assert _fits(slot, value) == (re.fullmatch(SLOTS[slot], value) is not None)
