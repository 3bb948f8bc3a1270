"""Collect stage helper: entries of one hot-memory file that state the same thing twice. Used by collectors.lifeos.hot_content.

The curation contract (seed 002 §3): merge duplicates ("three entries saying one thing fold
into one"), and supersede rather than stack ("works at A" → "works at B" replaces the old
entry, never both). Found here, in file order, each against the first entry it repeats:
- the same entry after NFKC, case folding, whitespace and the provenance tag;
- NAME stated twice (a hot file is about one person);
- the same single-valued fact twice: where one works, lives, is based, whom one is married to
  or reports to, one's time zone (`ROLE: works at Acme` and `ROLE: works at Globex`);
- near duplicates: the same prefix and at least 80 % of the same terms (at least 4 terms each;
  Chinese, Japanese and Korean by character bigrams, cortex.core.tokenize).
"""
from __future__ import annotations

import re
from collections import namedtuple

from collectors.lifeos.hot_entry_text import Entry, folded

NEAR = 0.8
MIN_TERMS = 4
_SINGLE_VALUED = re.compile(
    r"^(?:(?:currently|now)\s+)?(?:works (?:at|for)|is employed (?:at|by)|employed (?:at|by)|lives in|lives at|"
    r"is based in|based in|is married to|married to|reports to|job title is|time ?zone is|is in the time ?zone|"
    r"home town is|hometown is)\b|^(?:住在|家住|就职于|任职于|工作于|时区(?:是|为))")
_STOP = frozenset("a an the of to in on at for and or with her his their its she he they is are was be by as from "
                  "that this who which ~explicit ~deduced ~inferred explicit deduced inferred".split())


class Duplicate(namedtuple("Duplicate", "entry first reason")):
    """entry: Entry, the later statement; first: Entry, the one it repeats; reason: str."""

    __slots__ = ()


def duplicates(entries: list[Entry]) -> list[Duplicate]:
    """Every entry that repeats an earlier one, with the earlier one and why."""
    from cortex.core.tokenize import terms  # the search tokenizer: one notion of a term in the project

    found: list[Duplicate] = []
    seen_exact: dict[str, Entry] = {}
    seen_single: dict[tuple[str, str], Entry] = {}
    first_name: Entry | None = None
    earlier: list[tuple[Entry, frozenset[str]]] = []
    for entry in entries:
        key = folded(f"{entry.prefix}: {entry.body}")
        single = _SINGLE_VALUED.match(folded(entry.body))
        words = frozenset(term for term in terms(entry.body) if term not in _STOP)
        if key in seen_exact:
            found.append(Duplicate(entry, seen_exact[key], "the same entry (case, spacing and provenance aside)"))
        elif entry.prefix == "NAME" and first_name is not None:
            found.append(Duplicate(entry, first_name, "NAME stated twice (supersede, don't stack)"))
        elif single and (entry.prefix, single.group(0)) in seen_single:
            found.append(Duplicate(entry, seen_single[(entry.prefix, single.group(0))],
                                   f"'{single.group(0)}' stated twice (supersede, don't stack)"))
        else:
            near = _near(entry, words, earlier)
            if near is not None:
                found.append(Duplicate(entry, near, "nearly the same terms (merge duplicates)"))
        seen_exact.setdefault(key, entry)
        if single:
            seen_single.setdefault((entry.prefix, single.group(0)), entry)
        if entry.prefix == "NAME" and first_name is None:
            first_name = entry
        earlier.append((entry, words))
    return found


def _near(entry: Entry, words: frozenset[str], earlier: list[tuple[Entry, frozenset[str]]]) -> Entry | None:
    if len(words) < MIN_TERMS:
        return None
    for other, other_words in earlier:
        if other.prefix == entry.prefix and len(other_words) >= MIN_TERMS:
            if len(words & other_words) / len(words | other_words) >= NEAR:
                return other
    return None
