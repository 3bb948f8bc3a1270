"""The private-tag recogniser under hypothesis: every spelling that normalises to a tag counts, nothing else changes."""
from __future__ import annotations

import functools
import re
import sys
import unicodedata

import pytest
from hypothesis import given, settings, strategies as st

# No per-example deadline: the machine is shared and the first example builds the spelling table.

from cortex.core.jscompat import JS_WS, JS_WS_CLASS
from cortex.core.privacy import PrivateStream, strip_private_content
from cortex.core.privatetags import CLOSING_BRACKETS, OPENING_BRACKETS, fold

CANARY = "zqxcanary7731"
WORD = "private"
INVISIBLES = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u034f", "\u180e", "\u3164", "\x00"]
MARKS = ["\u0301", "\u0307", "\u0338", "\u20dd", "\ufe0f", "\u0903"]
SPACES = [" ", "\t", "\n", "\u00a0", "\u2003", "\u3000"]


@functools.lru_cache(maxsize=None)
def spellings() -> dict[str, tuple[str, ...]]:
    """Every character (BMP and plane 1) whose fold is a piece of '/private', by piece: the normalisation variants."""
    found: dict[str, list[str]] = {}
    for code in range(0x30000):
        if 0xD800 <= code <= 0xDFFF:
            continue
        folded = fold(chr(code))
        if folded and (folded in WORD or folded == "/"):
            found.setdefault(folded, []).append(chr(code))
    return {piece: tuple(chars) for piece, chars in found.items()}


def test_the_bracket_tables_hold_every_character_that_folds_to_a_bracket():
    opening, closing = set(), set()
    for code in range(sys.maxunicode + 1):
        if 0xD800 <= code <= 0xDFFF:
            continue
        folded = fold(chr(code))
        if "<" in folded:
            opening.add(chr(code))
        if ">" in folded:
            closing.add(chr(code))
    assert opening == set(OPENING_BRACKETS) and closing == set(CLOSING_BRACKETS)


def test_every_letter_of_the_tag_has_many_spellings():
    table = spellings()
    assert all(len(table[letter]) >= 30 for letter in WORD)
    assert "\u0130" in table["i"] and "\uff50" in table["p"] and "\u2173" in table["iv"] and "\uff0f" in table["/"]


@st.composite
def spelled(draw, word: str) -> str:
    """`word` with each piece drawn from its spellings, invisibles and marks sprinkled between."""
    table = spellings()
    out, position = [], 0
    while position < len(word):
        pieces = [p for p in table if p != "/" and word.startswith(p, position)] if word[position] != "/" else ["/"]
        piece = draw(st.sampled_from(sorted(pieces)))
        out.append(draw(st.sampled_from(table[piece])))
        out.append(draw(st.text(st.sampled_from(INVISIBLES + MARKS), max_size=2)))
        position += len(piece)
    return "".join(out)


attributes = st.text(st.characters(blacklist_characters=OPENING_BRACKETS + CLOSING_BRACKETS), max_size=12)
spaces = st.text(st.sampled_from(SPACES), max_size=2)


@st.composite
def opener(draw) -> str:
    if draw(st.booleans()):
        return draw(st.sampled_from(["<private>", "<PRIVATE a=1>", "< private >", "<private\t>", "<Private class='x'>"]))
    attrs = (draw(st.sampled_from(SPACES)) + draw(attributes)) if draw(st.booleans()) else ""
    end = draw(st.sampled_from(list(CLOSING_BRACKETS) + [""]))  # a missing bracket is an unclosed opener
    return draw(st.sampled_from(OPENING_BRACKETS)) + draw(spaces) + draw(spelled(WORD)) + attrs + draw(spaces) + end


@st.composite
def closer(draw) -> str:
    if draw(st.booleans()):
        return draw(st.sampled_from(["</private>", "</PRIVATE>", "</ private >", "< / private x=1>"]))
    return (draw(st.sampled_from(OPENING_BRACKETS)) + draw(spaces) + draw(spelled("/")) + draw(spaces)
            + draw(spelled(WORD)) + draw(spaces) + draw(st.sampled_from(CLOSING_BRACKETS)))


anything = st.text(max_size=40)
no_tag_start = st.text(st.characters(blacklist_characters=OPENING_BRACKETS), max_size=40)


@settings(max_examples=300, deadline=None)
@given(anything, opener(), no_tag_start, st.one_of(closer(), st.just("")), anything)
def test_a_canary_inside_any_spelling_of_a_span_never_survives(before, opening, inside, closing, after):
    assert CANARY not in strip_private_content(f"{before}{opening}{inside}{CANARY}{inside}{closing}{after}")


@settings(max_examples=200, deadline=None)
@given(anything, opener(), opener(), closer(), st.one_of(closer(), st.just("")), anything)
def test_nested_spans_hide_the_canary_until_the_outer_span_closes(before, outer, inner, first, second, after):
    text = f"{before}{outer}a{inner}b{first}{CANARY}{second}{after}"
    assert CANARY not in strip_private_content(text)


@settings(max_examples=200, deadline=None)
@given(no_tag_start, opener(), no_tag_start)
def test_text_before_the_first_span_is_kept(before, opening, after):
    assert strip_private_content(f"{before}{opening}{CANARY}{after}").startswith(before)


@settings(deadline=None)
@given(st.text(st.characters(blacklist_characters=OPENING_BRACKETS), max_size=300))
def test_text_without_anything_tag_like_is_returned_unchanged(text):
    assert strip_private_content(text) is text


@settings(deadline=None)
@given(st.lists(st.one_of(st.text(st.characters(blacklist_characters=OPENING_BRACKETS), max_size=20),
                          st.sampled_from(["<b>", "</b>", "<a href='x'>", "1 < 2", "<!-- note -->", "<p", "<privat>",
                                           "</privately>", "<pri>", "＜b＞", "≮x"])), max_size=12))
def test_markup_that_is_not_a_private_tag_is_kept(parts):
    text = "".join(parts)
    assert strip_private_content(text) == text


# The recogniser before issue 10 (ASCII spellings only): for ASCII text the new one must agree.
_W = JS_WS_CLASS
_OLD_OPENER = re.compile(rf"<{_W}*private\b(?:{_W}+[^<>]*?)?{_W}*>\Z", re.ASCII | re.IGNORECASE)
_OLD_TAG = re.compile(rf"<{_W}*(/?){_W}*private\b(?:{_W}+[^<>]*?)?{_W}*>", re.ASCII | re.IGNORECASE)


def _old_strip(text: str) -> str:
    start = text.find("<")
    while start >= 0:
        close = text.find(">", start + 1)
        candidate = text[start: close + 1] if close >= 0 else text[start:]
        body = candidate[1:-1] if close >= 0 else candidate[1:]
        body = "".join(ch for ch in body if ch not in JS_WS and unicodedata.category(ch) != "Cc").lower()
        if body.startswith("private") and not _OLD_OPENER.match(candidate):
            text = text[:start]
            break
        start = text.find("<", start + 1)
    output, cursor, depth = [], 0, 0
    for match in _OLD_TAG.finditer(text):
        if depth == 0:
            output.append(text[cursor: match.start()])
        depth = max(depth - 1, 0) if match.group(1) == "/" else depth + 1
        cursor = match.end()
    if depth == 0:
        output.append(text[cursor:])
    return "".join(output)


ascii_tokens = st.sampled_from(["<", ">", "/", "private", "PRIVATE", "Private", " ", "\t", "\n", "a", "x=1", "=", "'",
                                "<private>", "</private>", "<privately>", "-", "y", "pri", "vate"])


@settings(max_examples=500, deadline=None)
@given(st.lists(ascii_tokens, max_size=25))
def test_ascii_text_is_stripped_exactly_as_before(tokens):
    text = "".join(tokens)
    assert strip_private_content(text) == _old_strip(text)


@settings(deadline=None)
@given(st.text(max_size=200))
def test_stripping_never_grows_text(text):
    assert len(strip_private_content(text)) <= len(text)


stream_tokens = st.one_of(opener().filter(lambda t: t[-1] in CLOSING_BRACKETS), closer(),
                          st.text(st.characters(blacklist_characters=OPENING_BRACKETS), min_size=1, max_size=8))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(stream_tokens, max_size=5), max_size=6))
def test_a_stream_of_messages_is_stripped_like_their_concatenation(messages):
    texts = ["".join(tokens) for tokens in messages]
    stream = PrivateStream()
    assert "".join(stream.strip(text) for text in texts) == strip_private_content("".join(texts))


@pytest.mark.parametrize("text, expected", [
    ("a ＜private＞x＜／private＞ b", "a  b"),  # a well-formed opener in another spelling opens a span
    ("a ﹤private﹥x b", "a "),
    ("a <PR\u0130VATE>x</private> b", "a  b"),  # a well-formed opener in another spelling opens a span
    ("a <private\u0301>x</private> b", "a  b"),  # a well-formed opener in another spelling opens a span
    ("a <pr\u2173ate>x b", "a "),
    ("a ≮private>x b", "a "),
    ("a <private>x＜／ＰＲＩＶＡＴＥ＞ b", "a  b"),
    ("a <private>x</pri\u200bvate\u0301> b", "a  b"),
    ("a <private>x</private-> b", "a "),
    ("a ＜private data-x=1＞x b", "a "),  # opened and never closed
    ("a ＜private\u200b＞x＜/private＞ b", "a "),  # a format character hidden inside: fail closed
    ("a ＜privately＞x b", "a "),
    ("a ＜/private＞ b", "a  b"),
    ("a </privately> b", "a </privately> b"),
])
def test_normalisation_variants(text, expected):
    assert strip_private_content(text) == expected


def test_a_span_crosses_the_messages_of_a_stream():
    stream = PrivateStream()
    parts = [stream.strip(t) for t in ("hi <private>a", f"{CANARY}", f"{CANARY}</private> bye", "later")]
    assert parts == ["hi ", "", " bye", "later"]
    stream = PrivateStream()
    assert [stream.strip(t) for t in ("a <privately", "</private> b", "c")] == ["a ", "", ""]  # fail closed


@given(st.text(st.sampled_from(list(OPENING_BRACKETS + CLOSING_BRACKETS + "aé p/")), max_size=24),
       st.lists(st.integers(0, 26), max_size=6))
def test_the_next_opening_bracket_is_the_pattern_s_search(text, starts):
    """TagScanner.next_opening (beyond ASCII: each bracket's next place kept) agrees with a search for any of the
    four, asked for positions in any order."""
    from cortex.core.privatetags import TagScanner

    scanner, pattern = TagScanner(text), re.compile(f"[{OPENING_BRACKETS}]")
    for start in sorted(starts)[:3] + starts:
        match = pattern.search(text, start)
        assert scanner.next_opening(start) == (match.start() if match else -1)


@settings(deadline=None)
@given(text=st.text(st.sampled_from(OPENING_BRACKETS + CLOSING_BRACKETS + "ab é—\n")),
       spans=st.lists(st.tuples(st.integers(0, 40), st.none() | st.integers(0, 40)), max_size=12),
       closing=st.booleans())
def test_the_bracket_finder_finds_what_the_class_search_finds(text, spans, closing):
    """_first, asked in any order, is the search with the class of its brackets (the first in [start, stop))."""
    from cortex.core.privatetags import _brackets, _first

    brackets = CLOSING_BRACKETS if closing else OPENING_BRACKETS
    found, pattern = _brackets(text, brackets), re.compile(f"[{brackets}]")
    for start, stop in spans:
        match = pattern.search(text, start) if stop is None else pattern.search(text, start, stop)
        assert _first(text, found, start, stop) == (match.start() if match else -1), (start, stop)
