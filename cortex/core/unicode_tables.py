"""Core tokenizer tables: the character classes cortex.core.tokenize needs, built from unicodedata on first use.

Building them from the running Python's Unicode database (rather than pasting ranges)
keeps them consistent with `str.isalnum`, NFKC and case folding, which the tokenizer also
uses. Every table is cached and built on first need: Latin text with typographic
punctuation pays about 6 ms once per process, other scripts about 15 ms, CJK text 25 ms.

One performance fact shapes this module: `re` matches a class made only of BMP ranges with
a lookup table, but walks the ranges one by one as soon as the class reaches past U+FFFF.
So BMP and supplementary-plane parts are kept in separate classes.
"""
from __future__ import annotations

import functools
import re
import unicodedata

TYPE_CHECKING = False  # typing costs the recall hook milliseconds
if TYPE_CHECKING:
    from collections.abc import Iterable

# Letter/digit blocks of the four CJK scripts (NFKC has already folded halfwidth and
# compatibility forms into these).
CJK_BMP = (
    "\u1100-\u11ff"  # Hangul Jamo
    "\u3005-\u3007"  # 々 〆 〇
    "\u3021-\u3029\u3038-\u303c"  # Hangzhou numerals, 〸〹〺 〻 〼
    "\u3041-\u3096\u309d-\u309f"  # Hiragana (without the combining voicing marks)
    "\u30a1-\u30fa\u30fc-\u30ff"  # Katakana (ー included, ・ excluded)
    "\u3131-\u318e"  # Hangul compatibility Jamo
    "\u31f0-\u31ff"  # Katakana phonetic extensions
    "\u3400-\u4dbf\u4e00-\u9fff"  # Han: extension A, unified ideographs
    "\ua960-\ua97f\uac00-\ud7a3\ud7b0-\ud7ff"  # Hangul Jamo ext-A, syllables, Jamo ext-B
    "\uf900-\ufaff"  # Han compatibility ideographs
    "\uff66-\uff9f\uffa0-\uffdc"  # halfwidth Katakana and Hangul
)
CJK_SUPPLEMENTARY = "\U0001aff0-\U0001b16f\U00020000-\U0003134f"  # Kana ext/supplement, Han ext B-G

# Outside the BMP, combining marks exist only in plane 1 and in the variation selectors
# supplement (tests/cortex/test_tokenize.py checks that against a scan of all of Unicode).
SUPPLEMENTARY_MARK_SCAN = (range(0x10000, 0x20000), range(0xE0100, 0xE01F0))
# Where typographic punctuation lives: Latin-1 punctuation, general punctuation to misc
# symbols and arrows, CJK punctuation, small/vertical forms, full-width forms.
TYPOGRAPHIC_SCAN = (range(0x80, 0xC0), range(0x2000, 0x2C00), range(0x3000, 0x3040), range(0xFE10, 0xFE70), range(0xFF00, 0xFFF0))
LATIN_LIMIT = 0x300  # below U+0300: Latin-1, Latin Extended-A/B, IPA, spacing modifiers; no mark, no CJK


def ranges_of(codes: Iterable[int]) -> tuple[tuple[int, int], ...]:
    ranges: list[tuple[int, int]] = []
    for code in codes:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    return tuple(ranges)


def class_of(ranges: Iterable[tuple[int, int]]) -> str:
    """The inside of a regex character class for `ranges`."""
    return "".join(re.escape(chr(a)) + ("-" + re.escape(chr(b)) if b > a else "") for a, b in ranges)


def _is_mark(char: str) -> bool:
    return unicodedata.category(char)[0] == "M"


@functools.cache
def mark_ranges() -> tuple[tuple[int, int], ...]:
    """Combining marks (category M*) in the BMP."""
    return ranges_of(code for code in range(0x300, 0x10000) if _is_mark(chr(code)))


@functools.cache
def supplementary_mark_ranges() -> tuple[tuple[int, int], ...]:
    return ranges_of(code for scan in SUPPLEMENTARY_MARK_SCAN for code in scan if _is_mark(chr(code)))


def is_plain_separator(char: str) -> bool:
    """True when `char` separates words and folding cannot turn it into (part of) a word.

    Such characters (dashes, curly quotes, ellipses, no-break spaces, bullets, CJK and
    full-width punctuation...) split runs exactly like ASCII punctuation does, before and
    after NFKC + case folding; so ASCII words around them tokenize as plain ASCII.
    """
    if char.isalnum() or _is_mark(char) or unicodedata.category(char) == "Cs":
        return False
    return not any(c.isalnum() or _is_mark(c) for c in fold_char(char))


@functools.cache
def separator_ranges() -> tuple[tuple[int, int], ...]:
    return ranges_of(code for scan in TYPOGRAPHIC_SCAN for code in scan if is_plain_separator(chr(code)))


@functools.cache
def bmp_marks() -> re.Pattern[str]:
    return re.compile(f"[{class_of(mark_ranges())}]")


def _marks() -> str:
    return f"[{class_of(mark_ranges())}]|[{class_of(supplementary_mark_ranges())}]"


@functools.cache
def beyond_ascii_words() -> re.Pattern[str]:
    """A character that is neither ASCII nor a plain separator: the text needs real folding."""
    return re.compile(f"[^\\x00-\\x7f{class_of(separator_ranges())}]")


def fold_char(char: str) -> str:
    """cortex.core.tokenize.fold for one character: NFKC, case-fold, NFKC."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", char).casefold())


@functools.cache
def latin_safe_ranges() -> tuple[tuple[int, int], ...]:
    """Characters below U+0300 whose folding stays below U+0300 (so it brings no mark and no CJK).

    Not µ (folds to Greek mu), not the spacing accents ´ ¨ ¯ ¸ (fold to combining marks),
    not İ (folds to i + combining dot), not ¼ ½ ¾ (fold through the fraction slash).
    """
    return ranges_of(code for code in range(LATIN_LIMIT) if all(ord(c) < LATIN_LIMIT for c in fold_char(chr(code))))


@functools.cache
def beyond_latin_words() -> re.Pattern[str]:
    """A character that is neither Latin-safe nor a plain separator: the text needs the general algorithm."""
    return re.compile(f"[^{class_of(latin_safe_ranges())}{class_of(separator_ranges())}]")


@functools.cache
def latin_run() -> re.Pattern[str]:
    """`[^\\W_]+` on text below U+0300, as one lookup-table class (faster than `\\w`)."""
    return re.compile(f"[{class_of(ranges_of(c for c in range(LATIN_LIMIT) if chr(c).isalnum()))}]+")


@functools.cache
def marked_run() -> re.Pattern[str]:
    """A letter/digit run continued by combining marks (Devanagari vowel signs, Hebrew points...)."""
    return re.compile(f"[^\\W_](?:[^\\W_]|{_marks()})*")


WORD_START = f"[^\\W_{CJK_BMP}{CJK_SUPPLEMENTARY}]"  # a letter/digit that is not CJK


def _class_ranges(spec: str) -> list[tuple[int, int]]:
    """Parse the 'a-b' ranges of a class body written as above."""
    chars = list(spec)
    assert len(chars) % 3 == 0 and all(chars[i + 1] == "-" for i in range(0, len(chars), 3))
    return [(ord(chars[i]), ord(chars[i + 2])) for i in range(0, len(chars), 3)]


@functools.cache
def _cjk_stretch() -> str:
    """Group 1 of the CJK patterns: a stretch of CJK *letters/digits* (unassigned code points in
    these blocks are not letters, and separate like any other non-word character)."""
    def letters(spec: str) -> str:
        return class_of(ranges_of(c for a, b in _class_ranges(spec) for c in range(a, b + 1) if chr(c).isalnum()))

    return f"((?:[{letters(CJK_BMP)}]|[{letters(CJK_SUPPLEMENTARY)}])+)"


@functools.cache
def cjk_or_word() -> re.Pattern[str]:
    return re.compile(f"{_cjk_stretch()}|{WORD_START}+")


@functools.cache
def marked_cjk_or_word() -> re.Pattern[str]:
    return re.compile(f"{_cjk_stretch()}|{WORD_START}(?:{WORD_START}|{_marks()})*")


# cortex.core.tokenize's patterns beyond its ASCII fast path: compiled here, on the first text that needs one.
@functools.cache
def ascii_term() -> re.Pattern[str]:
    """The reference's term: `[a-z0-9]+`."""
    return re.compile(r"[a-z0-9]+")


@functools.cache
def simple_run() -> re.Pattern[str]:
    """Letters and digits: `\\w` without `_`."""
    return re.compile(r"[^\W_]+")


@functools.cache
def supplementary() -> re.Pattern[str]:
    return re.compile("[\U00010000-\U0010ffff]")


@functools.cache
def variation_selectors() -> re.Pattern[str]:
    return re.compile("[\ufe00-\ufe0f]|[\U000e0100-\U000e01ef]")


@functools.cache
def cjk_supplementary() -> re.Pattern[str]:
    return re.compile(f"[{CJK_SUPPLEMENTARY}]")


@functools.cache
def cjk_bmp() -> re.Pattern[str]:
    return re.compile(f"[{CJK_BMP}]")


@functools.cache
def fullwidth_punctuation() -> re.Pattern[str]:
    """Full-width punctuation and the ideographic space separate words before and after NFKC
    alike; blanking them first lets typical CJK text pass NFKC's quick check (5x faster)."""
    return re.compile("[\u3000\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]")


@functools.cache
def beyond_latin1_separators() -> re.Pattern[str]:
    """A character from U+0100 on that is not a plain separator (a letter, a mark, CJK)."""
    return re.compile(f"[^\\x00-\\xff{class_of(separator_ranges())}]")


@functools.cache
def latin1_word_bytes(ascii_word_bytes: bytes, unsure: int) -> bytes:
    """Each Latin-1 character as tokenize.term_counts reads it: `ascii_word_bytes` below 0x80, above it its fold
    when that is one letter or digit below U+0100, a space when its fold holds none (a separator), else `unsure`
    (µ, ß, ½, ¨: folds beyond one Latin-1 character, or the general algorithm's)."""
    beyond = beyond_latin_words()
    table = bytearray(ascii_word_bytes)
    for code in range(0x80, 0x100):
        folded = fold_char(chr(code))
        if beyond.match(chr(code)):
            table[code] = unsure
        elif not any(char.isalnum() for char in folded):
            table[code] = 32
        elif len(folded) == 1 and ord(folded) < 0x100:
            table[code] = ord(folded)
        else:
            table[code] = unsure
    table[unsure] = unsure
    return bytes(table)


def prepare() -> None:
    """Build every table now (about 70 ms), so no later tokenization pays for one."""
    for build in (bmp_marks, beyond_ascii_words, beyond_latin_words, latin_run, marked_run, cjk_or_word, marked_cjk_or_word,
                  cjk_bmp, fullwidth_punctuation):
        build()
