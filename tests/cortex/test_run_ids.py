"""cortex.reviewrows.run_id_parts reads a reviewer run id as the regular expression it replaced."""
from __future__ import annotations

import re

from hypothesis import given, strategies as st

from cortex.reviewrows import run_id_parts

_PATTERN = re.compile(r"(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z\Z", re.ASCII)
_FORM = "2026-10-01T10-00-00-000Z"


@st.composite
def _ids(draw):
    chars = list(_FORM)
    for _ in range(draw(st.integers(0, 3))):  # a character changed, dropped or added
        at = draw(st.integers(0, len(chars)))
        what = draw(st.sampled_from(["-", "T", "Z", "0", "9", "a", "٣", "\n", " ", "z", ""]))
        chars[at:at + draw(st.integers(0, 1))] = [what]
    return "".join(chars)


@given(_ids() | st.text(max_size=30))
def test_run_id_parts_is_the_pattern(run_id):
    match = _PATTERN.match(run_id)
    assert run_id_parts(run_id) == (match.groups() if match else None)


def test_a_run_id_and_its_parts():
    assert run_id_parts(_FORM) == ("2026-10-01", "10", "00", "00", "000")
    assert run_id_parts(_FORM + "\n") is None and run_id_parts("２026-10-01T10-00-00-000Z") is None
