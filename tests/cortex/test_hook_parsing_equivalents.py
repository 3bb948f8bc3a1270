"""The hooks' string searches agree with the patterns they replaced (hotmemory, frontmatter, retrieval, privatetags,
reviewstate)."""
from __future__ import annotations

import re
import unicodedata

from hypothesis import given, strategies as st

from cortex.core.frontmatter import frontmatter_fields, frontmatter_span, scalar
from cortex.core.jscompat import JS_DOT, JS_WS, JS_WS_CLASS, js_trim
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


# cortex.core.corpus's patterns before cortex.core.frontmatter, and the recall snippet's
_FENCED = re.compile(r"---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|\Z)")
_FIELD = re.compile(rf"([A-Za-z0-9_]+):{JS_WS_CLASS}*({JS_DOT}*)\Z")
_QUOTES = re.compile(r"\A[\"']|[\"']\Z")
_FIELD_PIECES = st.sampled_from(["---", "\n", "\r", "\r\n", "\n---\n", "---\r\n", "\n---", "id", "A_9", "é", "-", ":", ": ",
                                 " ", "\t", "\xa0", "\u2028", "\u2029", "\u3000", "'", '"', "x", "last_updated"])
_FIELD_TEXTS = st.lists(_FIELD_PIECES, max_size=18).map("".join) | st.text(max_size=30)


def _pattern_fields(content):
    match = _FENCED.match(content)
    fields = {}
    if match:
        for line in re.split(r"\r?\n", match.group(1)):
            field = _FIELD.match(line)
            if field:
                fields[field.group(1)] = _QUOTES.sub("", js_trim(field.group(2)))
    return fields


@given(_FIELD_TEXTS)
def test_frontmatter_span_is_the_pattern_s_match(text):
    match = _FENCED.match(text)
    assert frontmatter_span(text) == ((match.start(1), match.end(1), match.end()) if match else None)


@given(_FIELD_TEXTS)
def test_frontmatter_fields_are_the_patterns_fields(text):
    assert frontmatter_fields(text) == _pattern_fields(text)


@given(st.text(alphabet=st.sampled_from("'\" a\t\u3000é"), max_size=6) | st.text(max_size=8))
def test_a_scalar_loses_the_quotes_the_pattern_takes_off(value):
    assert scalar(value) == _QUOTES.sub("", js_trim(value))


@given(st.text(alphabet=st.sampled_from(JS_WS + "\x1c\x1d\x1e\x1f\x85\u180eab"), max_size=12) | st.text(max_size=20))
def test_the_snippet_s_whitespace_runs_are_the_pattern_s(text):
    assert " ".join(text.split()) == re.sub(r"\s+", " ", text).strip()


def test_every_whitespace_character_is_one_for_both():
    for code in range(0x110000):
        ch = chr(code)
        assert ch.isspace() == bool(re.fullmatch(r"\s", ch)), hex(code)


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
