"""The hooks' string searches agree with the patterns they replaced (hotmemory, privatetags, reviewstate)."""
from __future__ import annotations

import re
import unicodedata

from hypothesis import given, strategies as st

from cortex.core.privatetags import fold
from cortex.hot.hotmemory import frontmatter_length, prefix_length, split_lines

_FRONTMATTER = re.compile(r"---\r?\n[\s\S]*?\r?\n---\r?\n")
_PREFIX = re.compile(r"(NAME|ROLE|RELATION|PREFERENCE|RULE): ")
# Texts made of the pieces that matter to fences, line ends and prefixes.
_PIECES = st.sampled_from(["---", "\n", "\r", "\r\n", "-", " ", "x", "NAME", "RULE", "ROLE", "RELATION", "PREFERENCE",
                           ":", ": ", "name", "\n---\n", "---\r\n"])
_TEXTS = st.lists(_PIECES, max_size=14).map("".join) | st.text(max_size=30)


@given(_TEXTS)
def test_frontmatter_length_is_the_pattern_s_match(text):
    match = _FRONTMATTER.match(text)
    assert frontmatter_length(text) == (match.end() if match else 0)


@given(_TEXTS)
def test_split_lines_is_the_pattern_s_split(text):
    assert split_lines(text) == re.split(r"\r?\n", text)


@given(_TEXTS)
def test_prefix_length_is_the_pattern_s_match(text):
    match = _PREFIX.match(text)
    assert prefix_length(text) == (match.end() if match else 0)


def test_ascii_folds_without_unicodedata_as_with_it():
    for code in range(128):
        ch = chr(code)
        if ch in " \t\n\x0b\x0c\r":
            continue  # JavaScript whitespace folds to a space before anything else
        assert fold(ch) == ("" if unicodedata.category(ch) == "Cc" else ch.lower())


@given(st.text(alphabet=st.sampled_from("aZ09._-/ é\n"), max_size=130) | st.text(max_size=5))
def test_session_ids_are_judged_as_the_pattern_judged_them(value):
    from cortex.review.reviewstate import is_safe_session

    assert is_safe_session(value) == bool(re.match(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}\Z", value))


def test_session_id_length_limit():
    from cortex.review.reviewstate import is_safe_session

    assert is_safe_session("a" * 128) and not is_safe_session("a" * 129) and not is_safe_session("")
