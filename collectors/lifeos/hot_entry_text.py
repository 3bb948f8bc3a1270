"""Collect stage helper: one hot-memory entry taken apart for the content detectors (collectors.lifeos.hot_patterns, hot_ephemera, hot_duplicates).

An entry is `PREFIX: body ~tag` (seed 002 §2.3-2.4). The detectors read the body without its
provenance tag, and show an entry with its invisible characters spelt out, so a report never
carries a bidi override or a Unicode tag character that would hide or reorder what it says.
Stdlib only.
"""
from __future__ import annotations

from cortex.core.patterns import compiled
from cortex.hot.hotmemory import PROVENANCE_TAGS, prefix_length

SHOWN_CHARS = 160
_INVISIBLE = ("Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp")


class Entry:
    """line: int, 1-based line of the file; text: str, the trimmed entry; prefix: str (NAME, ROLE, ...); body: str,
    what follows `PREFIX: `, its provenance tag removed.
    """

    __slots__ = ("line", "text", "prefix", "body")

    def __init__(self, line, text, prefix, body) -> None:
        self.line, self.text, self.prefix, self.body = line, text, prefix, body


def split_entry(line: int, text: str) -> Entry:
    length = prefix_length(text)
    prefix = text[:length - 2] if length else ""  # the word before ": "
    body = text[length:]
    return Entry(line, text, prefix, untagged(body))


def untagged(body: str) -> str:
    """`body` without its closing provenance tag, stripped: what the pattern \\s*(?:~explicit|~deduced|~inferred)\\s*$
    replaced by nothing, then strip(), gives (tests/collectors/test_hot_entry_text.py compares the two), without `re`."""
    text = body.rstrip()
    tag = next((tag for tag in PROVENANCE_TAGS if text.endswith(tag)), None)
    return text[:-len(tag)].strip() if tag else text.lstrip()


def folded(text: str) -> str:
    """NFKC, case-folded, whitespace collapsed, trailing punctuation dropped: how two entries are compared."""
    import unicodedata  # here, not at import: only duplicate detection folds, and a warm run's memo skips it

    return compiled(r"\s+").sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip().rstrip(" .。!！;；,，")


def shown(text: str, limit: int = SHOWN_CHARS) -> str:
    """The entry as a report may show it: control, format and unassigned characters as \\uXXXX, cut to `limit`."""
    if text.isprintable():  # no control, format or unassigned character: the common case
        return text if len(text) <= limit else text[:limit] + "…"
    import unicodedata  # only for an entry with an invisible character (the common case above needs none)

    out = []
    for char in text:
        if unicodedata.category(char) in _INVISIBLE:
            code = ord(char)
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
        else:
            out.append(char)
    visible = "".join(out)
    return visible if len(visible) <= limit else visible[:limit] + "…"
