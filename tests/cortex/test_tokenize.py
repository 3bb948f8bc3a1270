"""The production tokenizer: ASCII exactly as the reference, Unicode words, CJK bigrams."""
from __future__ import annotations

import re
import sys
import unicodedata

import pytest
from hypothesis import given, settings, strategies as st

from cortex.core import unicode_tables as tables
from cortex.core.tokenize import (ascii_terms, counting_terms, fold, general_terms, term_counts, terms,
                                   unicode_terms)

ascii_text = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=127), max_size=300)


def reference_terms(text: str) -> list[str]:
    """The reference tokenizer, transcribed independently: text.toLowerCase().match(/[a-z0-9]+/g)."""
    return re.findall(r"[a-z0-9]+", text.lower())


@given(ascii_text)
def test_ascii_text_gives_exactly_the_reference_tokens(text):
    assert unicode_terms(text) == reference_terms(text)
    assert ascii_terms(text) == reference_terms(text)


@given(ascii_text)
def test_the_unicode_path_itself_agrees_with_the_reference_on_ascii(text):
    # Bypass the fast path: the general NFKC/casefold/run machinery must not change ASCII either.
    assert general_terms(fold(text)) == reference_terms(text)


def test_production_default_is_the_unicode_tokenizer():
    import cortex.core.search

    assert terms is unicode_terms
    assert cortex.core.search.rank_bm25.__defaults__ == (unicode_terms,)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("向量索引", ["向量", "量索", "索引"]),
        ("中", ["中"]),  # a lone CJK character stays one term
        ("中。文", ["中", "文"]),  # punctuation ends a stretch
        ("用GPT模型做检索 BM25", ["用", "gpt", "模型", "型做", "做检", "检索", "bm25"]),
        ("東京に行く", ["東京", "京に", "に行", "行く"]),  # Han + Hiragana in one stretch
        ("カタカナ・ひらがな", ["カタ", "タカ", "カナ", "ひら", "らが", "がな"]),  # ・ separates
        ("ｶﾀｶﾅ", ["カタ", "タカ", "カナ"]),  # halfwidth Katakana folded by NFKC
        ("데이터베이스를 사용", ["데이", "이터", "터베", "베이", "이스", "스를", "사용"]),
        ("2024年3月", ["2024", "年", "3", "月"]),
        ("ＡＢＣ１２３，Ｘ", ["abc123", "x"]),  # full-width Latin folded by NFKC
        ("Straße ΣΊΣΥΦΟΣ", ["strasse", "σίσυφοσ"]),  # case folding, not just lowering
        ("café naïve", ["café", "naïve"]),  # one Unicode word, not "caf" + "na" + "ve"
        ("हिन्दी भाषा", ["हिन्दी", "भाषा"]),  # combining vowel signs stay inside the word
        ("葛\U000e0100城", ["葛城"]),  # variation selectors do not split a Han stretch
        ("“smart quotes” — and_underscores", ["smart", "quotes", "and", "underscores"]),
        ("ℌello 𝐰𝐨𝐫𝐥𝐝", ["hello", "world"]),
    ],
)
def test_unicode_examples(text, expected):
    assert unicode_terms(text) == expected


def test_ascii_tokenizer_sees_nothing_in_chinese():
    assert ascii_terms("向量索引的召回率") == []
    assert unicode_terms("向量索引的召回率") != []


cjk_char = st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF)


@given(st.text(alphabet=cjk_char, min_size=2, max_size=40))
def test_a_han_stretch_becomes_its_overlapping_bigrams(text):
    assert unicode_terms(text) == [text[i : i + 2] for i in range(len(text) - 1)]


@settings(max_examples=300)
@given(st.text(max_size=200))
def test_terms_are_nonempty_words_and_stable_under_retokenizing(text):
    result = unicode_terms(text)
    for term in result:
        assert term and not any(ch.isspace() for ch in term) and "_" not in term
    # A term is its own tokenization: queries built from terms find the same terms.
    for term in result:
        assert unicode_terms(term) == [term]


def test_mark_tables_cover_every_combining_mark_in_unicode():
    marks = {code for code in range(sys.maxunicode + 1) if unicodedata.category(chr(code))[0] == "M"}
    covered = {code for a, b in tables.mark_ranges() + tables.supplementary_mark_ranges() for code in range(a, b + 1)}
    assert covered == marks


def codes(ranges):
    return [code for a, b in ranges for code in range(a, b + 1)]


SEPARATORS = [chr(code) for code in codes(tables.separator_ranges())]
LATIN_SAFE = [chr(code) for code in codes(tables.latin_safe_ranges())]


def test_typographic_punctuation_is_among_the_plain_separators():
    for char in "\u2014\u2013\u201c\u201d\u2018\u2019\u2026\u00a0\u2022\u00b7\u00ab\u00bb\u3001\u3002\u300c\uff0c\uff1a":
        assert char in SEPARATORS, hex(ord(char))
    for char in "\u2122\u00bd\u00b2\u00a8\u00b4_\u3005\u2460":  # ™ ½ ² ¨ ´ fold into words or marks
        assert char not in SEPARATORS, hex(ord(char))


def test_a_plain_separator_never_composes_with_the_letter_before_it():
    for char in SEPARATORS:
        for letter in "aeiouncgsAZ0":
            assert fold(letter + char) == fold(letter) + fold(char), hex(ord(char))


def test_latin_run_is_exactly_letters_and_digits_below_u0300():
    run = tables.latin_run()
    for code in range(tables.LATIN_LIMIT):
        assert bool(run.fullmatch(chr(code))) == bool(re.fullmatch(r"[^\W_]", chr(code))), hex(code)


def test_latin_safe_characters_fold_within_the_latin_blocks():
    assert "\u00e9" in LATIN_SAFE and "\u00df" in LATIN_SAFE and "\u00aa" in LATIN_SAFE
    for char in "\u00b5\u00b4\u0130\u00bd":  # µ ´ İ ½ fold beyond U+0300
        assert char not in LATIN_SAFE


fast_path_alphabet = st.sampled_from(
    list("abcXYZ019 _-.,'\n") + SEPARATORS[:200:7] + LATIN_SAFE[128::5]
    + list("\u00b5\u00b4\u0130\u00bd\u2122\u0301\u0308\u4e2d\u6587\u3042\ud55c\u0928\u093f\u03a3\u0436\U0001f600\ufe0f\uff21\uffbf\u3097")
)


@settings(max_examples=500)
@given(st.text(alphabet=fast_path_alphabet, max_size=80))
def test_every_fast_path_agrees_with_the_general_algorithm(text):
    assert unicode_terms(text) == general_terms(fold(text))


def test_each_latin_character_and_separator_agrees_with_the_general_algorithm_in_context():
    for char in [chr(code) for code in range(0x80, tables.LATIN_LIMIT)] + SEPARATORS:
        for context in ("a{}b", "{}", "x {} y", "\u00e9{}\u00fc", "\u4e2d{}\u6587"):
            text = context.format(char)
            assert unicode_terms(text) == general_terms(fold(text)), (hex(ord(char)), context)


@settings(max_examples=300)
@given(st.text(max_size=80))
def test_arbitrary_text_agrees_with_the_general_algorithm(text):
    assert unicode_terms(text) == general_terms(fold(text))


@settings(max_examples=500)
@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_the_ascii_fast_path_finds_the_reference_runs(text):
    """ASCII text is split by blanking (C loops); the reference's `[a-z0-9]+` runs are the guarantee."""
    assert unicode_terms(text) == re.findall(r"[a-z0-9]+", text.lower())


def counted_by_list(text: str, query_terms: list[str]) -> tuple[int, dict[str, int]]:
    words = unicode_terms(text)
    return len(words), {term: words.count(term) for term in query_terms if term in words}


def assert_counts_agree(text: str, query_terms: list[str]) -> None:
    query_terms = [term for term in query_terms if unicode_terms(term) == [term]]  # what a query's terms are
    tally = term_counts(text, counting_terms(query_terms))
    if tally is not None:
        assert tally == counted_by_list(text, query_terms), (text, query_terms)


@settings(max_examples=500)
@given(st.text(alphabet=fast_path_alphabet, max_size=80), st.lists(st.text(alphabet=fast_path_alphabet, max_size=12),
                                                                     max_size=5))
def test_counting_terms_in_bytes_agrees_with_the_list_of_terms(text, queries):
    # query terms as search makes them (terms of a query), and the text's own terms (which do occur)
    query_terms = list(dict.fromkeys([t for q in queries for t in unicode_terms(q)] + unicode_terms(text)[:3]))
    assert_counts_agree(text, query_terms)
    assert_counts_agree(text + " " + text, query_terms)  # every term again, one separator apart


@settings(max_examples=300)
@given(st.lists(st.sampled_from(["tea", "Tea", "TEA", " ", "  ", ",", "-", "\u2014", "\u00e9", "caf\u00e9", "t", "ea",
                                 "tea2", "\u2019", "\u00a0", "\u00e0", "\u0101", "\u00b5", "\u2026"]), max_size=30))
def test_counting_repeated_terms_between_separators(pieces):
    text = "".join(pieces)
    for query_terms in (["tea"], ["tea", "caf\u00e9", "t"], ["ea", "tea2", "\u00e0"]):
        assert_counts_agree(text, query_terms)


def test_each_character_counts_as_the_list_counts_it():
    for char in [chr(code) for code in range(0, tables.LATIN_LIMIT)] + SEPARATORS:
        for context in ("tea{}tea", "{}", "caf\u00e9 {} tea", "\u00e9{}\u00fc tea", "TEA{}{}tea"):
            assert_counts_agree(context.format(char, char), ["tea", "caf\u00e9", char.lower(), "\u00fc"])


def test_counting_takes_the_bytes_path_for_prose():
    """The texts term_counts answers (the rest go to the list): ASCII, and Latin-1 among plain separators."""
    for text in ("Nightly backup, then the migration.", "It\u2019s \u201cnoted\u201d \u2014 backup\u2026",
                 "Caf\u00e9 na\u00efve r\u00e9sum\u00e9 \u2014 co\u00f6perate", "\u00c9T\u00c9 \u00aa\u00b2 \u00a0"):
        assert term_counts(text, counting_terms(["backup"])) is not None
    for text in ("\u4e2d\u6587 backup", "\u0101 backup", "\u00b5 backup", "\u0928\u093f backup", "Stra\u00dfe",
                 "\u00bd \u2014", "\x01 caf\u00e9"):
        assert term_counts(text, counting_terms(["backup"])) is None


def test_every_pair_of_latin1_characters_counts_as_the_list_counts_it():
    """term_counts folds one character at a time: no two Latin-1 characters fold together (NFKC composes a letter
    with a following mark only, and none of these is one)."""
    latin1 = [chr(code) for code in range(0x80, 0x100)] + list("aZ0 .")
    for first in latin1:
        for second in latin1:
            text = f"t{first}{second}e {second}{first}"
            assert_counts_agree(text, unicode_terms(text)[:4])


def test_no_plain_separator_lowers_into_an_ascii_letter_or_digit():
    """term_counts reads ASCII words among separators as the UTF-8 bytes of the text, every byte >= 0x80 a space:
    the `[a-z0-9]+` runs of text.lower() only if no separator lowers into one."""
    for char in SEPARATORS:
        if not char.isascii():
            assert not re.search(r"[a-z0-9]", char.lower()), hex(ord(char))
