"""collectors.lifeos.hot_entry_text.untagged takes the provenance tag off as the pattern it replaced did."""
from __future__ import annotations

import re

from hypothesis import given, strategies as st

from collectors.lifeos.hot_entry_text import untagged

_TAG = re.compile(r"\s*(?:~explicit|~deduced|~inferred)\s*$")
_PIECES = st.sampled_from(["~explicit", "~deduced", "~inferred", "~", "explicit", " ", "\n", "\t", "\u3000", "\x1c",
                           "\u200b", "a", "é", "Note", "~explicitx", "x~deduced"])


@given(st.lists(_PIECES, max_size=8).map("".join) | st.text(max_size=20))
def test_untagged_is_the_pattern_s_sub(body):
    assert untagged(body) == _TAG.sub("", body).strip()


def test_an_entry_s_tag():
    assert untagged("likes green tea ~explicit") == "likes green tea"
    assert untagged("a ~inferred\n") == "a" and untagged("a ~inferred b") == "a ~inferred b"
