"""Core hot-memory format: THE parser and entry validator for PRINCIPAL_MEMORY.md / DA_MEMORY.md.

Every reader (writer, renderer, auditor, restore) uses this module; never write a second
marker parser. Stdlib only. The model (compatible with the reference MemoryWriter):
- markers are structural only as whole trimmed lines;
- every line after the frontmatter whose trimmed text starts with a valid prefix is an
  entry, wherever it stands (inside the block or orphaned), first-seen de-duplicated,
  so a file with disordered markers loses nothing;
- any other non-blank line between a BEGIN marker and the next END marker is *unparsed*: a
  hand edit that is not an entry (`- PREFERENCE: x`, `PREFRENCE: x`, `PREFERENCE:x`). It is
  reported with its line and the rule it breaks (`cortex hot read`, the auditor), and the next
  write drops it and records it (memory-writes.jsonl `dropped`, reason "unparsed");
- everything else is body, preserved verbatim.
"""
from __future__ import annotations

from cortex.core.frontmatter import frontmatter_span, split_lines
from cortex.core.jscompat import js_len, js_trim

TYPE_CHECKING = False  # annotations only: `re` (~10M instructions, with enum) loads with the first pattern compiled
if TYPE_CHECKING:
    import re

BEGIN_MARKER = "<!-- BEGIN ENTRIES -->"
END_MARKER = "<!-- END ENTRIES -->"
PREFIXES = ("NAME", "ROLE", "RELATION", "PREFERENCE", "RULE")
_PREFIX_HEADS = tuple(f"{prefix}: " for prefix in PREFIXES)  # an entry starts with one of these exactly
PROVENANCE_TAGS = ("~explicit", "~deduced", "~inferred")
MAX_ENTRIES = 48
MAX_CHARS_PER_ENTRY = 256
CAP_CHARS = MAX_ENTRIES * MAX_CHARS_PER_ENTRY
CONSOLIDATE_AT = 39  # ~80% of the cap: the reviewer consolidates before adding (seed 002 §3)
MAX_HOT_FILE_BYTES = 1 << 20  # a hot file's read bound (render, recall)
SECTIONS = (("principal", "PRINCIPAL MEMORY"), ("da", "DA MEMORY"))  # each hot file's label and block title


# Each parse needs the fence, the line split and the prefixes: plain string searches, not patterns compiled by
# every prompt's render (three cost it ~1.3M instructions; tests compare them with the patterns they replace).
def frontmatter_length(content: str) -> int:
    """The length of the leading frontmatter: `---` fences on their own lines (LF or CRLF), as the pattern
    `---\\r?\\n[\\s\\S]*?\\r?\\n---\\r?\\n` matches it at the start; 0 when there is none. (The corpus's block
    (cortex.core.frontmatter) but for one whose closing fence ends the text without a line end.)"""
    span = frontmatter_span(content)
    return span[2] if span is not None and content[span[2] - 1] == "\n" else 0


def prefix_length(text: str) -> int:
    """The length of the entry prefix `text` starts with ("RULE: " is 6), 0 when it starts with none."""
    for head in _PREFIX_HEADS:
        if text.startswith(head):
            return len(head)
    return 0


# Plain classes, not named tuples: no caller uses them as tuples, and the hooks that import this module (render,
# recall) would pay ~0.4M instructions a class to define them, with collections to import.
class ParsedMemoryFile:
    """A hot file split up. frontmatter: str; body_lines, entries: tuple[str, ...]; unparsed: tuple[tuple[int, str,
    str], ...], each non-blank line inside the entry block that is not an entry as (line, text, rule): its 1-based
    line in the file, its trimmed text and the entry rule it breaks, named without quoting it. (Plain tuples: the
    prompt hook imports this module, and a record class costs it start-up for a case it rarely meets.)"""

    __slots__ = ("frontmatter", "body_lines", "entries", "unparsed")

    def __init__(self, frontmatter: str, body_lines: tuple, entries: tuple, unparsed: tuple = ()) -> None:
        self.frontmatter, self.body_lines, self.entries, self.unparsed = frontmatter, body_lines, entries, unparsed


class MarkerCheck:
    """The managed-block markers found. begins, ends: int; inverted: bool."""

    __slots__ = ("begins", "ends", "inverted")

    def __init__(self, begins: int, ends: int, inverted: bool) -> None:
        self.begins, self.ends, self.inverted = begins, ends, inverted

    @property
    def ok(self) -> bool:
        return self.begins == 1 and self.ends == 1 and not self.inverted


class Validation:
    """Entries kept and dropped. accepted: tuple[str, ...]; dropped: tuple[dict, ...] ({"entry", "reason"} each)."""

    __slots__ = ("accepted", "dropped")

    def __init__(self, accepted: tuple, dropped: tuple = ()) -> None:
        self.accepted, self.dropped = accepted, dropped

    def count(self, reason: str) -> int:
        return sum(1 for row in self.dropped if row["reason"] == reason)


def parse_memory_content(content: str) -> ParsedMemoryFile:
    raw = content[:frontmatter_length(content)]
    # A "frontmatter" that swallowed a marker is a mis-closed fence: demote it so every
    # entry is recovered from the body instead of hidden inside frontmatter.
    valid = bool(raw) and BEGIN_MARKER not in raw and END_MARKER not in raw
    frontmatter = raw.replace("\r\n", "\n") if valid else ""
    after = content[len(raw):] if valid else content
    first_line = raw.count("\n") + 1 if valid else 1
    body: list[str] = []
    entries: list[str] = []
    unparsed: list[tuple[int, str, str]] = []
    seen: set[str] = set()
    in_block = False
    for number, line in enumerate(split_lines(after), start=first_line):
        trimmed = js_trim(line)
        if trimmed in (BEGIN_MARKER, END_MARKER):
            in_block = trimmed == BEGIN_MARKER
            continue
        if trimmed and prefix_length(trimmed):
            if trimmed not in seen:
                seen.add(trimmed)
                entries.append(trimmed)
            continue
        if in_block and trimmed:
            unparsed.append((number, trimmed, unparsed_rule(trimmed)))
            continue
        body.append(line)
    while body and not js_trim(body[-1]):
        body.pop()
    return ParsedMemoryFile(frontmatter, tuple(body), tuple(entries), tuple(unparsed))


def _rule_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A list marker, and a word before a colon: compiled when a line first needs them (`re` keeps them), not by
    every render."""
    import re

    return re.compile(r"(?:[-*+•]|\d+[.)])\s*"), re.compile(r"([A-Za-z_]+)(\s*):(\s?)")


def unparsed_rule(trimmed: str) -> str:
    """Which entry rule a non-entry line breaks, named without quoting the line."""
    list_marker, word_colon = _rule_patterns()
    marker = list_marker.match(trimmed)
    if marker and marker.end() and prefix_length(trimmed[marker.end():]):
        return "a list marker stands before the prefix (an entry starts with the prefix itself)"
    word = word_colon.match(trimmed)
    if word is None:
        return "no NAME, ROLE, RELATION, PREFERENCE or RULE prefix followed by ': '"
    prefix, space_before, space_after = word.groups()
    if prefix.upper() in PREFIXES and prefix != prefix.upper():
        return f"the prefix must be upper case ({prefix.upper()}: )"
    if prefix in PREFIXES and space_before:
        return "a space before the colon (the prefix is followed by ': ' directly)"
    if prefix in PREFIXES and not space_after:
        return "no space after the colon (the prefix is followed by ': ')"
    from cortex.core.spelling import nearest

    near = nearest(prefix.upper(), PREFIXES, cutoff=0.7)
    hint = f"; did you mean {near[0]}?" if near else ""
    return f"not one of the prefixes NAME, ROLE, RELATION, PREFERENCE, RULE{hint}"


def check_markers(content: str) -> MarkerCheck:
    lines = [js_trim(line) for line in content.split("\n")]
    begins = lines.count(BEGIN_MARKER)
    ends = lines.count(END_MARKER)
    begin_at = lines.index(BEGIN_MARKER) if begins else -1
    end_at = lines.index(END_MARKER) if ends else -1
    return MarkerCheck(begins, ends, begin_at != -1 and end_at != -1 and end_at < begin_at)


def entry_problem(entry: str) -> str | None:
    """Why a trimmed, non-empty entry is invalid ("malformed" / "overlength"), or None."""
    if "\r" in entry or "\n" in entry:
        return "malformed"
    prefix = prefix_length(entry)
    if not prefix:
        return "malformed"
    if BEGIN_MARKER in entry or END_MARKER in entry:
        return "malformed"
    # The 256-character cap counts everything after the prefix, provenance tag included
    # (the reference MemoryWriter's rule; JavaScript string length).
    if js_len(entry[prefix:]) > MAX_CHARS_PER_ENTRY:
        return "overlength"
    return None


def validate_entries(entries: list[str] | tuple[str, ...]) -> Validation:
    """Trim, validate and case-sensitively de-duplicate a submitted list (order kept)."""
    accepted: list[str] = []
    dropped: list[dict] = []
    seen: set[str] = set()
    for raw in entries:
        entry = js_trim(raw)
        if not entry:
            continue
        problem = entry_problem(entry)
        if problem:
            dropped.append({"entry": entry, "reason": problem})
        elif entry in seen:
            dropped.append({"entry": entry, "reason": "duplicate"})
        else:
            seen.add(entry)
            accepted.append(entry)
    return Validation(tuple(accepted), tuple(dropped))


def read_diagnostics(content: str) -> dict:
    """What `cortex hot read` and the auditor report for a file's current content."""
    parsed = parse_memory_content(content)
    return diagnostics(parsed, validate_entries(parsed.entries))


def diagnostics(parsed: ParsedMemoryFile, validation: Validation) -> dict:
    """read_diagnostics of a file already parsed, its entries validated (the auditor shares one parse per file)."""
    unparsed = [{"entry": text, "reason": "unparsed", "line": line, "rule": rule} for line, text, rule in parsed.unparsed]
    return {
        "entries": list(validation.accepted),
        "count": len(validation.accepted),
        "chars_used": sum(js_len(entry) for entry in validation.accepted),
        "cap_entries": MAX_ENTRIES,
        "cap_chars": CAP_CHARS,
        "dropped_invalid": [row for row in validation.dropped if row["reason"] != "duplicate"] + unparsed,
    }


def _writer_patterns():  # the writer's only (`re` keeps them compiled): `hot render` never compiles them
    import re

    return (re.compile(r"^last_updated:[^\n]*$", re.M), re.compile(r"^last_updated_by:[^\n]*$", re.M),
            re.compile(r"\n---\n\Z"))


def _set_frontmatter_field(frontmatter: str, pattern: re.Pattern, key: str, value: str) -> str:
    line = f"{key}: {value}"
    if pattern.search(frontmatter):
        return pattern.sub(lambda _match: line, frontmatter, count=1)
    return _writer_patterns()[2].sub(lambda _match: f"\n{line}\n---\n", frontmatter, count=1)


def serialize_memory_content(
    parsed: ParsedMemoryFile, entries: list[str] | tuple[str, ...], updated_by: str, updated_at: str
) -> str:
    """The one canonical shape: frontmatter → body → BEGIN → entries → END → newline.

    Used by the hot writer, restore and init. There are no self-heal branches: a single
    write converges any disordered file and a repeat write is byte-identical apart from the
    stamp. A file without frontmatter stays without (nothing is invented); otherwise
    last_updated / last_updated_by are replaced, or added before the closing fence.
    """
    frontmatter = parsed.frontmatter
    if frontmatter:
        last_updated, last_updated_by, _fence = _writer_patterns()
        frontmatter = _set_frontmatter_field(frontmatter, last_updated, "last_updated", updated_at)
        frontmatter = _set_frontmatter_field(frontmatter, last_updated_by, "last_updated_by", updated_by)
    out = [frontmatter]
    if parsed.body_lines:
        out.append("\n".join(parsed.body_lines) + "\n\n")
    out.append(BEGIN_MARKER + "\n")
    if entries:
        out.append("\n".join(entries) + "\n")
    out.append(END_MARKER + "\n")
    return "".join(out)
