"""Core Markdown frontmatter: the leading `---` block and its `key: value` fields; used by cortex.core.corpus and the recall hook.

Read with string searches, not patterns: a recall reads the two hot files' `last_updated` on every prompt,
and compiling the patterns would load `re` with enum and functools (~18M instructions). Each function is
the pattern it replaced (named in its docstring; tests/cortex/test_hook_parsing_equivalents.py compares
the two on generated text).
"""
from __future__ import annotations

from cortex.core.jscompat import JS_LINE_TERMINATORS, JS_WS, js_trim

_QUOTES = ("'", '"')


def split_lines(text: str) -> list[str]:
    """`text` split at LF and CRLF (a lone CR stays in its line), as re.split(r"\\r?\\n") splits it."""
    lines = text.split("\n")
    return [line[:-1] if line.endswith("\r") else line for line in lines[:-1]] + lines[-1:]


def frontmatter_span(content: str) -> tuple[int, int, int] | None:
    """(start, stop, end) where `---\\r?\\n([\\s\\S]*?)\\r?\\n---(?:\\r?\\n|\\Z)` matches at the start of `content`:
    the fields are content[start:stop], the whole block content[:end]; None when it does not match."""
    if content.startswith("---\n"):
        start = 4
    elif content.startswith("---\r\n"):
        start = 5
    else:
        return None
    fence = content.find("\n---", start)  # the closing fence's newline comes after the opening's
    while fence != -1:
        after = fence + 4
        if content.startswith("\n", after):
            end = after + 1
        elif content.startswith("\r\n", after):
            end = after + 2
        elif after == len(content):
            end = after
        else:
            fence = content.find("\n---", fence + 1)
            continue
        return start, fence - 1 if fence > start and content[fence - 1] == "\r" else fence, end
    return None


def frontmatter_fields(content: str) -> dict[str, str]:
    """Each frontmatter line `([A-Za-z0-9_]+):<JS whitespace>*(<no line terminator>*)\\Z` as key: its scalar (the
    value trimmed, one quote taken off each end); a later line wins."""
    span = frontmatter_span(content)
    fields: dict[str, str] = {}
    if span is not None:
        for line in split_lines(content[span[0]:span[1]]):
            key, colon, value = line.partition(":")
            if colon and key.isascii() and key.replace("_", "a").isalnum():
                value = value.lstrip(JS_WS)
                if not any(terminator in value for terminator in JS_LINE_TERMINATORS):
                    fields[key] = scalar(value)
    return fields


def scalar(value: str) -> str:
    """`value` trimmed, then re.sub(r"\\A[\\"']|[\\"']\\Z", "", ...): a quote off each end."""
    value = js_trim(value)
    if value[:1] in _QUOTES:
        value = value[1:]
    return value[:-1] if value[-1:] in _QUOTES else value
