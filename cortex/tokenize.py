"""Core tokenizer: the lexical terms BM25 ranks on (lowercase `[a-z0-9]+` runs)."""
from __future__ import annotations

import re

_TERM = re.compile(r"[a-z0-9]+")


def terms(text: str) -> list[str]:
    return _TERM.findall(text.lower())
