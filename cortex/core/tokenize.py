"""Core tokenizer: the lexical terms BM25 ranks on; called by cortex.core.search, `cortex search` and the benchmark.

Two tokenizers live here:

* `ascii_terms` — the reference's tokenizer: lowercase `[a-z0-9]+` runs. Kept by name
  because the benchmark measures the production tokenizer against it.
* `unicode_terms` — the production tokenizer (`terms`). Text is NFKC-normalised and
  case-folded; a term is then a maximal run of Unicode letters/digits (plus the combining
  marks that continue it, so Devanagari or Hebrew words are not cut at every vowel sign),
  except that every stretch of Han, Hiragana, Katakana or Hangul becomes overlapping
  bigrams (a lone character stays one term): those scripts do not put spaces between words.

On ASCII text `unicode_terms` runs the reference's own code, so ASCII corpora rank exactly
as before. Two more fast paths give the general algorithm's result for less: ASCII words
among typographic punctuation (— “ ” … no-break spaces), and Latin-only text (café). The tests
check every fast path against `general_terms(fold(text))`, the general algorithm.
"""
from __future__ import annotations

from _operator import add  # operator's own: its Python module costs 2.5M instructions

# Only text beyond ASCII needs cortex.core.unicode_tables (its patterns, `re`, enum, functools and unicodedata: ~20M
# instructions to import): the functions that meet such text import it there, so an ASCII prompt's hook loads none.
_ASCII_BLANKS = str.maketrans({chr(code): " " for code in range(128) if not (chr(code).isdigit() or chr(code).islower())})


def ascii_terms(text: str) -> list[str]:
    """The reference tokenizer: lowercase `[a-z0-9]+` runs."""
    from cortex.core import unicode_tables as tables

    return tables.ascii_term().findall(text.lower())


def unicode_terms(text: str) -> list[str]:
    """The production tokenizer; identical to `ascii_terms` on ASCII-only text."""
    if text.isascii():
        # The reference's `[a-z0-9]+` runs, found by blanking every other ASCII character and
        # splitting (C loops, a third faster than the pattern); tests prove the two equal.
        return text.lower().translate(_ASCII_BLANKS).split()
    from cortex.core import unicode_tables as tables

    first = tables.beyond_ascii_words().search(text)
    if first is None:
        # ASCII words among typographic punctuation: folding could only change separators.
        return tables.ascii_term().findall(text.lower())
    if tables.beyond_latin_words().search(text, first.start()) is None:
        # Latin letters only, before and after folding: no mark, no CJK, one lookup-table class.
        return tables.latin_run().findall(fold(text))
    return general_terms(fold(text))


terms = unicode_terms  # the tokenizer search and the benchmark use by default

# Word bytes, lowered, kept; every other byte a space: ASCII text's terms are this translation's space-separated runs.
_ASCII_WORD_BYTES = bytes(b + 32 if 65 <= b <= 90 else b if 48 <= b <= 57 or 97 <= b <= 122 else 32 for b in range(256))
_MARKS = bytes(32 if b == 32 else 97 for b in range(256))  # a word byte becomes `a`: a term starts at each ` a`
_UNSURE = 1  # term_counts' byte for a character it cannot fold alone (a control character: in no record)
_UNSURE_BYTE = bytes([_UNSURE])


def counting_terms(query_terms: list[str]) -> list[tuple[str, bytes]]:
    """The query's terms as term_counts takes them: (term, its Latin-1 bytes); a term beyond Latin-1 is in no text
    term_counts answers for."""
    counted = []
    for term in query_terms:
        try:
            counted.append((term, term.encode("latin-1")))
        except UnicodeEncodeError:
            continue
    return counted


def term_counts(text: str, counted: list[tuple[str, bytes]]) -> tuple[int, dict[str, int]] | None:
    """(len(terms(text)), {term: terms(text).count(term)} for each counted term that occurs), found without making
    the list of terms (a string per word: most of a search's cost) where a term is the fold of one character at a
    time: ASCII text, and Latin-1 text among plain separators (every path of unicode_terms but the general one,
    where no character folds into several or beyond Latin-1). None for any other text: the caller tokenizes it.
    Tests compare the two on every path."""
    if text.isascii():
        words = text.encode("ascii").translate(_ASCII_WORD_BYTES)
    else:
        from cortex.core import unicode_tables as tables

        try:
            data = text.encode("latin-1")
        except UnicodeEncodeError:  # beyond Latin-1: only separators may be, each then a `?` (a space)
            if tables.beyond_latin1_separators().search(text) is not None:
                return None
            data = text.encode("latin-1", "replace")
        words = data.translate(tables.latin1_word_bytes(_ASCII_WORD_BYTES, _UNSURE))
        if words.find(_UNSURE_BYTE) >= 0:  # (find: bytes' `in` tries its operand as an integer first, raising)
            return None
    marks = words.translate(_MARKS)
    length = marks.count(b" a") + (marks[:1] == b"a")
    padded = b" " + words + b" "
    found: dict[str, int] = {}
    for term, encoded in counted:
        key = b" " + encoded + b" "
        n = padded.count(key)
        if n:
            if padded.find(b" " + encoded + key) >= 0:  # the term twice, one separator apart: count() shared it
                n = words.split().count(encoded)
            found[term] = n
    return length, found


def fold(text: str) -> str:
    """NFKC, case-fold, NFKC again (case folding can leave a string un-normalised)."""
    import unicodedata

    from cortex.core import unicode_tables as tables

    if not unicodedata.is_normalized("NFKC", text):
        text = unicodedata.normalize("NFKC", tables.fullwidth_punctuation().sub(" ", text))
    text = text.casefold()
    return text if unicodedata.is_normalized("NFKC", text) else unicodedata.normalize("NFKC", text)


def general_terms(folded: str) -> list[str]:
    """The general algorithm on folded text, no shortcut: what every fast path must agree with."""
    from cortex.core import unicode_tables as tables

    marked = _has_marks(folded)
    if marked and tables.variation_selectors().search(folded):
        # A variation selector picks a glyph, not a word; left in, it would split a Han stretch.
        folded = tables.variation_selectors().sub("", folded)
        marked = _has_marks(folded)
    if not _has_cjk(folded):
        return (tables.marked_run() if marked else tables.simple_run()).findall(folded)
    out: list[str] = []
    for match in (tables.marked_cjk_or_word() if marked else tables.cjk_or_word()).finditer(folded):
        piece = match.group()
        if match.lastindex and len(piece) > 1:
            out.extend(map(add, piece[:-1], piece[1:]))  # overlapping bigrams
        else:
            out.append(piece)
    return out


def is_lone_cjk(term: str) -> bool:
    """A one-character Han/Kana/Hangul term: in text it is mostly inside bigrams, so search counts it in the text."""
    return len(term) == 1 and not term.isascii() and _has_cjk(term)  # no ASCII character is CJK


def cjk_characters(folded: str) -> list[str]:
    """Every Han/Kana/Hangul character of folded text, in order: the lone-CJK terms a record can match."""
    from cortex.core import unicode_tables as tables

    found = tables.cjk_bmp().findall(folded)
    if tables.supplementary().search(folded):
        found += tables.cjk_supplementary().findall(folded)
    return found


def prepare() -> None:
    """Build the lazy tables now (the benchmark calls this so no timed ranking pays for it)."""
    from cortex.core import unicode_tables as tables

    tables.prepare()


def _has_marks(text: str) -> bool:
    import unicodedata

    from cortex.core import unicode_tables as tables

    if tables.bmp_marks().search(text):
        return True
    if not tables.supplementary().search(text):
        return False
    # Supplementary-plane marks are rare and a class of them is slow: check those characters one by one.
    return any(unicodedata.category(char)[0] == "M" for char in tables.supplementary().findall(text))


def _has_cjk(text: str) -> bool:
    from cortex.core import unicode_tables as tables

    return bool(tables.cjk_bmp().search(text)
                or (tables.supplementary().search(text) and tables.cjk_supplementary().search(text)))
