"""Core privacy boundary: strips `<private …>…</private>` spans before anything reads text.

Called by every canonical read (corpus: every decoded string of a record), by the hot-memory
readers (cortex.hot.hotinput), by typed-item persistence and by the reviewer (transcripts are
stripped as one stream, see PrivateStream). Tags are recognised by cortex.core.privatetags in
every spelling that normalises to one. Fail-closed: anything that normalises to the start
of a private opening tag but is not well-formed (control or format characters inside it, a
longer name, a missing `>`) suppresses the rest of the string.
Nesting is handled by depth counting, orphan closers are removed.
"""
from __future__ import annotations

from cortex.core.privatetags import MALFORMED, OPEN, TagScanner, might_hold_tags


def strip_private_spans(text: str, depth: int = 0) -> tuple[str, int, bool]:
    """(public text, spans still open at the end, whether a malformed opener cut the rest).

    `depth` is the number of spans already open before `text` starts (a stream's state).
    """
    if not might_hold_tags(text):
        return (text if depth == 0 else ""), depth, False
    scanner = TagScanner(text)
    output: list[str] = []
    cursor = 0
    start = scanner.next_opening(0)
    while start >= 0:
        kind, end = scanner.classify(start)
        if kind is None:
            start = scanner.next_opening(start + 1)
            continue
        if depth == 0:
            output.append(text[cursor:start])
        if kind == MALFORMED:
            return "".join(output), depth, True
        depth = depth + 1 if kind == OPEN else max(depth - 1, 0)
        cursor = end
        start = scanner.next_opening(end)
    if depth == 0:
        output.append(text[cursor:])
    return "".join(output), depth, False


def strip_private_content(text: str) -> str:
    """Return `text` without private spans; see the module docstring for the rules."""
    if not might_hold_tags(text):  # the common case, checked before any call
        return text
    return strip_private_spans(text)[0]


class PrivateStream:
    """Strips a sequence of texts as one: a span opened in one text closes in a later one.

    After a malformed opener everything that follows is suppressed, as in a single string.
    """

    def __init__(self) -> None:
        self.depth = 0
        self.cut = False

    def strip(self, text: str) -> str:
        if self.cut:
            return ""
        public, self.depth, self.cut = strip_private_spans(text, self.depth)
        return public
