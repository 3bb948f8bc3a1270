"""Write path: the field rules of typed items (bounds, privacy stripping, injection checks); used by cortex.write.items.

Every text field is first passed through the privacy boundary, then checked; the stored
value is the stripped one. Rules (refusals, never repairs):
- the canonical text rule of the corpus loader (no control characters other than tab/LF/CR,
  no lone surrogates) — anything else would make the written record unreadable;
- no frontmatter injection (a line that is `---`) and no HTML-comment injection (`<!--`, `-->`);
- single-line fields also refuse CR, LF, U+2028 and U+2029;
- required fields must not be empty after stripping;
- lengths are counted as JavaScript does (UTF-16 code units), like the reference.
"""
from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BeforeValidator, Field

from cortex.core.corpusfiles import assert_canonical_text
from cortex.errors import IntegrityError
from cortex.core.jscompat import js_len, js_trim
from cortex.core.privacy import strip_private_content

MAX_FREE_TEXT = 65_536
MAX_METADATA = 1_024
MAX_TARGET_PATH = 4_096
MAX_RELATED = 64
MAX_SLUG = 256
MAX_HOT_ENTRIES = 48
MAX_OBSERVED_SESSIONS = 1_000_000

_FRONTMATTER_LINE = re.compile(r"(?:\A|\n)[ \t]*---[ \t]*(?:\r?\n|\r|\Z)")
_COMMENT = re.compile(r"<!--|-->")
_LINE_BREAKS = re.compile("[\r\n\u2028\u2029]")
_SLUG = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*\Z")
# Session IDs are opaque tokens (UUIDs, "telegram:123"): no spaces, no YAML indicators, no quotes.
_SESSION = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/@+=-]*\Z")


def _strip_private(value):
    return strip_private_content(value) if isinstance(value, str) else value


def _checked(value: str, *, limit: int, single_line: bool, required: bool) -> str:
    if js_len(value) > limit:
        raise ValueError(f"exceeds {limit} characters")
    try:
        assert_canonical_text(value, "field")
    except IntegrityError:
        raise ValueError("contains control characters or malformed Unicode") from None
    if single_line and _LINE_BREAKS.search(value):
        raise ValueError("must be a single line")
    if _FRONTMATTER_LINE.search(value):
        raise ValueError("contains frontmatter injection (a '---' line)")
    if _COMMENT.search(value):
        raise ValueError("contains HTML-comment injection ('<!--' or '-->')")
    if required and not js_trim(value):
        raise ValueError("is empty after private content was removed")
    return value


def _text(limit: int, *, single_line: bool, required: bool = True, trim: bool = False):
    def check(value: str) -> str:
        value = _checked(value, limit=limit, single_line=single_line, required=required)
        return js_trim(value) if trim else value

    return Annotated[str, BeforeValidator(_strip_private), Field(max_length=limit), AfterValidator(check)]


def _session(value: str) -> str | None:
    value = js_trim(_checked(value, limit=MAX_METADATA, single_line=True, required=False))
    if not value:
        return None  # emptied by private stripping: no session rather than an ambiguous one
    if not _SESSION.match(value):
        raise ValueError("must be an opaque token of letters, digits and ._:/@+=- (no spaces, quotes or YAML syntax)")
    return value


def _slug(value: str) -> str:
    value = _checked(value, limit=MAX_SLUG, single_line=True, required=True)
    if not _SLUG.match(value):
        raise ValueError("must start with a letter or digit and contain only letters, digits, '.', '_' and '-'")
    return value


def _target_path(value: str) -> str:
    if strip_private_content(value) != value:
        raise ValueError("contains private boundary markup")
    return _checked(value, limit=MAX_TARGET_PATH, single_line=True, required=True)


FreeText = _text(MAX_FREE_TEXT, single_line=False)
Title = _text(MAX_METADATA, single_line=True, trim=True)
HotEntry = _text(MAX_METADATA, single_line=True)
SessionId = Annotated[str, BeforeValidator(_strip_private), Field(max_length=MAX_METADATA), AfterValidator(_session)]
Slug = Annotated[str, BeforeValidator(_strip_private), Field(max_length=MAX_SLUG), AfterValidator(_slug)]
TargetPath = Annotated[str, Field(max_length=MAX_TARGET_PATH), AfterValidator(_target_path)]
Confidence = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]
RelatedType = Literal["supports", "contradicts", "extends", "part-of", "instance-of", "caused-by", "preceded-by", "related"]
