"""Core privacy boundary: strips `<private …>…</private>` spans before anything reads text.

Called by every canonical read (corpus), by typed-item persistence and by the reviewer.
Fail-closed: anything that normalises to a private opening tag but is not well-formed
(control or format characters inside it, full-width letters, a missing `>`) suppresses
the rest of the string. Nesting is handled by depth counting, orphan closers are removed.
"""
from __future__ import annotations

import re
import unicodedata

from cortex.jscompat import JS_WS, JS_WS_CLASS

# ASCII case folding and JS whitespace, exactly as the reference's regular expressions.
_FLAGS = re.ASCII | re.IGNORECASE
_W = JS_WS_CLASS
_WELL_FORMED_OPENER = re.compile(rf"<{_W}*private\b(?:{_W}+[^<>]*?)?{_W}*>\Z", _FLAGS)
_TAG = re.compile(rf"<{_W}*(/?){_W}*private\b(?:{_W}+[^<>]*?)?{_W}*>", _FLAGS)


def _is_invisible(ch: str) -> bool:
    return ch in JS_WS or unicodedata.category(ch) in ("Cc", "Cf")


def _normalised_tag_body(candidate: str, closed: bool) -> str:
    body = candidate[1:-1] if closed else candidate[1:]
    body = unicodedata.normalize("NFKC", body)
    return "".join(ch for ch in body if not _is_invisible(ch)).lower()


def _fail_closed_cut(text: str) -> int:
    start = text.find("<")
    while start >= 0:
        close = text.find(">", start + 1)
        candidate = text[start : close + 1] if close >= 0 else text[start:]
        suspicious = _normalised_tag_body(candidate, close >= 0).startswith("private")
        if suspicious and not _WELL_FORMED_OPENER.match(candidate):
            return start
        start = text.find("<", start + 1)
    return len(text)


def strip_private_content(text: str) -> str:
    """Return `text` without private spans; see the module docstring for the rules."""
    if "<" not in text:
        return text
    text = text[: _fail_closed_cut(text)]
    output: list[str] = []
    cursor = 0
    depth = 0
    for match in _TAG.finditer(text):
        if depth == 0:
            output.append(text[cursor : match.start()])
        if match.group(1) == "/":
            if depth > 0:
                depth -= 1
        else:
            depth += 1
        cursor = match.end()
    if depth == 0:
        output.append(text[cursor:])
    return "".join(output)
