"""Core privacy boundary: recognises `<private>` openers and closers in every spelling; used by cortex.core.privacy.

A tag is judged by what it normalises to, one character at a time (see `fold`): NFKC,
full Unicode case folding, combining marks and invisible characters removed, whitespace
kept as a space. So `＜private＞`, `<PRİVATE>`, `<private` + a combining mark, `<pri​vate>`
(zero-width space) and `<prⅳate>` (roman numeral four) all count.

  * the ASCII shapes the reference's regular expression accepts are well-formed tags, and so
    is any other spelling whose folded body has the same shape (`＜private＞`, `<PRİVATE>`),
    unless a control or format character hides inside it;
  * any other opener-like text (its folded body starts with "private") is malformed: the
    caller suppresses everything from it on (fail closed);
  * any text whose folded body is `/private`, optionally followed by whitespace and
    attributes, and that ends in something that folds to `>` is a closer.
"""
from __future__ import annotations

from cortex.core.jscompat import JS_WS, JS_WS_CLASS
from cortex.core.patterns import compiled


# Every character whose fold contains "<" or ">" (Unicode 14; tests recompute both from
# unicodedata): ASCII, ≮ ≯ (an overlay mark on the ASCII sign), small forms, full width.
OPENING_BRACKETS = "<\u226e\ufe64\uff1c"
CLOSING_BRACKETS = ">\u226f\ufe65\uff1e"


OPEN, CLOSE, MALFORMED = "open", "close", "malformed"

# The reference's pattern: ASCII case folding (the inline `(?ai)`: re.ASCII | re.IGNORECASE), JS whitespace,
# attributes after whitespace.
_W = JS_WS_CLASS
_ASCII_TAG = rf"(?ai)<{_W}*(/?){_W}*private\b(?:{_W}+[^<>]*?)?{_W}*>"
_CLOSER_HEAD, _FOLDED_OPENER = r" */ *private(?: |\Z)", r" *private(?: [^<>]*)?\Z"

_HEAD_CHARS = 9  # "/private" plus the character that must be whitespace or the end
# Default-ignorable letters that render as nothing (the Hangul fillers); marks and the
# C* categories are dropped by category.
_FILLERS = frozenset("\u115f\u1160\u3164\uffa0")
_DROPPED_CATEGORIES = frozenset(["Mn", "Mc", "Me", "Cc", "Cf", "Cn", "Co", "Cs"])

# Each pattern costs ~0.4-3 ms to compile (a class beyond Latin-1 builds a full charset map; the ASCII tag): compiled
# on the first text that needs it (cortex.core.patterns), not by every importer (each cortex command, the auditor).


def might_hold_tags(text: str) -> bool:
    """The fast path: False means no character of `text` can start a tag."""
    if "<" in text:
        return True
    return not text.isascii() and ("\uff1c" in text or "\ufe64" in text or "\u226e" in text)


_FOLDED: dict[str, str] = {}  # fold's answers beyond ASCII (unicodedata's normalisations), bounded
_FOLDED_SIZE = 4096


def fold(ch: str) -> str:
    """What one character is for tag recognition: '' (invisible), ' ' (whitespace) or its folded text."""
    if ch in JS_WS:
        return " "
    if ch.isascii():  # ASCII's control characters (category Cc) are U+0000-U+001F and U+007F
        return "" if ch < " " or ch == "\x7f" else ch.lower()
    found = _FOLDED.get(ch)
    if found is None:
        if len(_FOLDED) >= _FOLDED_SIZE:
            _FOLDED.clear()  # bounded and simple: the next characters refill it
        found = _FOLDED[ch] = _fold_beyond_ascii(ch)
    return found


def _fold_beyond_ascii(ch: str) -> str:
    import unicodedata  # here: only a non-ASCII character near a bracket needs it (a hook's `<!--` never does)

    if ch in _FILLERS:
        return ""
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", ch).casefold())
    kept = (" " if c.isspace() else c for c in decomposed
            if unicodedata.category(c) not in _DROPPED_CATEGORIES and c not in _FILLERS)
    return "".join(kept)


def _folded_head(text: str, start: int, stop: int) -> str:
    """The fold of text[start:stop], up to _HEAD_CHARS visible characters."""
    pieces: list[str] = []
    visible = 0
    position = start
    while position < stop and visible < _HEAD_CHARS:
        piece = fold(text[position])
        position += 1
        if piece:
            pieces.append(piece)
            visible += len(piece) - piece.count(" ")
    return "".join(pieces)


def _is_folded_opener(body: str) -> bool:
    """A well-formed opener in another spelling: its fold has the reference's shape, nothing hidden inside."""
    import unicodedata

    if any(unicodedata.category(ch) in ("Cc", "Cf") for ch in body if ch not in JS_WS):
        return False  # a control or format character inside a tag is an evasion: fail closed
    return compiled(_FOLDED_OPENER).match("".join(fold(ch) for ch in body)) is not None


# A class of brackets beyond Latin-1 costs ~2.7M instructions to compile (paid by any hot file holding `<!--` and an
# em dash): str.find per bracket instead, each bracket's last find kept ([bracket, from, first at/after it or -1]),
# so a text scanned forward is searched once per bracket. Functions, not a class: a class costs every importer.
def _brackets(text: str, brackets: str) -> list[list]:
    return [[bracket, 0, text.find(bracket)] for bracket in brackets]


def _first(text: str, found: list[list], start: int, stop: int | None = None) -> int:
    """The first position in [start, stop) holding one of the brackets, or -1 (a class search's answer)."""
    best = -1
    for item in found:
        bracket, since, at = item
        if start < since or 0 <= at < start:  # not known from what was found before
            at = item[2] = text.find(bracket, start)
            item[1] = start
        if at >= 0 and (best < 0 or at < best):
            best = at
    return best if stop is None or best < stop else -1


class TagScanner:
    """Classifies the tag candidates of one text; remembers the next closing bracket (linear time)."""

    def __init__(self, text: str):
        self.text = text
        self.ascii = text.isascii()
        self._closing_at = -1  # the next closing bracket at or after the last position asked for
        self._openings = self._closings = None  # beyond ASCII: made when first needed (_brackets)

    def next_opening(self, start: int, stop: int | None = None) -> int:
        """The first opening bracket at or after `start` (and before `stop`), or -1."""
        if self.ascii:
            return self.text.find("<", start) if stop is None else self.text.find("<", start, stop)
        if self._openings is None:
            self._openings = _brackets(self.text, OPENING_BRACKETS)
        return _first(self.text, self._openings, start, stop)

    def _closing_after(self, position: int) -> int:
        if self._closing_at <= position and self._closing_at != len(self.text):
            if self.ascii:  # the one closing bracket ASCII holds
                found = self.text.find(">", position + 1)
            else:
                if self._closings is None:
                    self._closings = _brackets(self.text, CLOSING_BRACKETS)
                found = _first(self.text, self._closings, position + 1)
            self._closing_at = found if found >= 0 else len(self.text)
        return self._closing_at

    def classify(self, start: int) -> tuple[str | None, int]:
        """(OPEN | CLOSE | MALFORMED | None, end) for the candidate at `start` (an opening bracket)."""
        text = self.text
        first = fold(text[start + 1]) if start + 1 < len(text) else ""
        if first and first[0] not in " p/":  # the common case: `<b>`, `<!--`, `1 < 2`
            return None, start
        stop = self._closing_after(start)
        match = compiled(_ASCII_TAG).match(text, start)
        if match and match.end() == stop + 1:
            return (CLOSE if match.group(1) else OPEN), match.end()
        head = _folded_head(text, start + 1, stop)
        if head.replace(" ", "").startswith("private"):
            if stop < len(text) and _is_folded_opener(text[start + 1 : stop]):
                return OPEN, stop + 1
            return MALFORMED, start
        if stop < len(text) and compiled(_CLOSER_HEAD).match(head) and self.next_opening(start + 1, stop) < 0:
            return CLOSE, stop + 1
        return None, start
