"""The JSONL reader's plain-line path gives exactly the exact reader's records, or its error, on any file."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from cortex.core.corpus import count_canonical_records, enumerate_canonical_corpus, exact_jsonl, parse_jsonl
from cortex.core.jsonlrows import plain_records
from cortex.errors import IntegrityError

GOOD = {"id": "r1", "type": "memory", "title": "Tea", "created": "2026-01-01T00:00:00Z",
        "updated": "2026-01-02T00:00:00.000Z", "source": "codex", "content": "Green tea, every morning."}


def line_of(**changes) -> str:
    row = {**GOOD, **changes}
    return json.dumps({key: value for key, value in row.items() if value is not _GONE}, ensure_ascii=False)


_GONE = object()
# Lines of every kind the reader meets: plain rows, escapes, tags in any spelling, control characters raw and
# escaped, DEL and C1, blank and indented lines, broken JSON, each field wrong in each way.
LINES = [
    line_of(), line_of(id="r2"), line_of(id="r3", content="caf\u00e9 \u2014 \u201cquoted\u201d"),
    line_of(id="r4", content="line one\nline two\t\"quoted\" back\\slash"),
    json.dumps({**GOOD, "id": "r5", "content": "caf\u00e9"}),  # \u00e9 escaped (ensure_ascii)
    line_of(id="r6", content="a <private>secret</private> b"), line_of(id="r7", content="x < y"),
    line_of(id="r8", content="\uff1cprivate\uff1e hidden \uff1c/private\uff1e"), line_of(id="r9", content="\u226e"),
    line_of(id="r10", content="\\u003cprivate>not a tag in the raw line"),
    json.dumps({**GOOD, "id": "r11", "content": "<private>x</private>"}).replace("<", "\\u003c"),
    line_of(id="r12", content="bell \x07"), json.dumps({**GOOD, "id": "r13", "content": "bell \x07"}),
    line_of(id="r14", content="del \x7f"), line_of(id="r15", content="c1 \x85"), line_of(id="r16", content="nbsp \xa0"),
    line_of(id="r17", content="<private>\x07</private> hidden control"), line_of(id="r18", content="\\b \\f"),
    json.dumps({**GOOD, "id": "r19", "content": "back\bspace"}), json.dumps({**GOOD, "id": "r20", "content": "\f"}),
    line_of(id="r21", related=["r1", "r2"]), line_of(id="r22", related=[]), line_of(id="r23", related=[" "]),
    line_of(id="r24", related="r1"), line_of(id="r25", related=[1]), line_of(id="r26", source_kind="human"),
    line_of(id="r27", source_kind=""), line_of(id="r28", source=None), line_of(id="r29", source=_GONE),
    line_of(id="r30", source_session="s1"), line_of(id="r31", source_session=7), line_of(id="r32", valid_from=None),
    line_of(id="r33", valid_from="2026-01-01", valid_until="2026-02-01"), line_of(id="r34", valid_until=5),
    line_of(id="r35", valid_from="2026-03-01", valid_until="2026-02-01"), line_of(id="r36", created="yesterday"),
    line_of(id="r37", updated="2025-01-01T00:00:00Z"), line_of(id="r38", title=" "), line_of(id="r39", type=3),
    line_of(id="r40", content=_GONE), line_of(id="r41", extra=1), line_of(id=" "), line_of(id="\u3000"),
    line_of(id="r42", title="\ufeffTitle"), line_of(id="r43", content="surrogate \\ud800 escaped"),
    line_of(id="r44", created="2026-01-01T00:00:00+01:00"), "[1, 2]", "{", "}", "{}", "{\"id\": NaN}", "null",
    " " + line_of(id="r45"), line_of(id="r46") + " ", line_of(id="r47") + "\r", "\t", "   ", "\x0b", "\x0c",
    "\ufeff", line_of(id="r48") + " x", "{\"a\":\n1}", line_of(id="r49", content="\x00"), "\x01",
    line_of(id="r50", content="\U0001f600 \u4e2d\u6587"), "{" * 3000 + "}" * 3000,
    # raw control characters (json.dumps escapes them): in a private span, in a string, between tokens
    line_of(id="r51", content="<private>CTRL</private> hidden").replace("CTRL", "\x07"),
    line_of(id="r52", content="\uff1cprivate\uff1eCTRL\uff1c/private\uff1e").replace("CTRL", "\x0b"),
    line_of(id="r53", content="CTRL").replace("CTRL", "\x01"), line_of(id="r54").replace(", ", ",\x0c"),
    line_of(id="r55", content="<private>CTRL</private>").replace("CTRL", "\x7f"),
    line_of(id="r56", valid_from=""), line_of(id="r57", related=None), line_of(id="r58", source_kind=None),
    line_of(id="r59", source_session=None), line_of(id="r60", valid_from="2026-13-01"), line_of(id="r61", source=""),
    line_of(id="r62", valid_from="2026-01-01", valid_until="2026-01-01"), line_of(id="r63", updated="2025-12-31"),
    line_of(id="r64", source_kind="k", source="s"), line_of(id="r65", source_kind="k", source=None),
    line_of(id="r66", content="<private>x</private>", created="never"),
]


def outcome(read, data: bytes):
    try:
        return "ok", read(data)
    except IntegrityError as error:
        return "error", str(error), error.file, error.line, error.field, error.rule


def assert_same(data: bytes) -> None:
    def fast(raw: bytes):
        return parse_jsonl_bytes(raw)

    assert outcome(fast, data) == outcome(lambda raw: exact_jsonl(raw, "K/notes.jsonl"), data)


def parse_jsonl_bytes(data: bytes):
    """parse_jsonl's own steps on bytes (plain_records, then the exact reader when it is unsure)."""
    try:
        records = plain_records(data, "K/notes.jsonl")
        if records is not None:
            return records
    except (IntegrityError, ValueError, RecursionError, StopIteration):
        pass
    return exact_jsonl(data, "K/notes.jsonl")


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(LINES), max_size=8), st.sampled_from(["\n", "\r\n"]), st.booleans(), st.booleans(),
       st.sampled_from([b"", b"\xef\xbb\xbf", b"\xff", b"\xc3"]))
def test_any_file_reads_as_the_exact_reader_reads_it(lines, newline, trailing, bom, junk):
    text = newline.join(lines) + (newline if trailing else "")
    data = (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8", "surrogatepass")
    assert_same(data)
    assert_same(data + junk)  # invalid UTF-8 at the end: the file's error comes before any line's


def test_each_line_alone_and_after_a_good_one():
    for line in LINES:
        for text in (line, line + "\n", GOOD_LINE + "\n" + line, line + "\r\n" + GOOD_LINE, "\n\n" + line + "\n"):
            assert_same(text.encode("utf-8", "surrogatepass"))


GOOD_LINE = line_of(id="good")


def test_plain_lines_take_the_plain_path():
    """The usual file never reaches the exact reader (which would read it twice)."""
    data = "\n".join(line_of(id=f"r{n}", content=f"caf\u00e9 \u2014 x\\y {n}\nnext") for n in range(5)).encode() + b"\n"
    assert plain_records(data, "K/notes.jsonl") is not None
    for unsure in (b"\x7f", " " + GOOD_LINE, "\t"):
        raw = unsure if isinstance(unsure, bytes) else unsure.encode()
        assert plain_records(data + raw, "K/notes.jsonl") is None


def test_parse_jsonl_reads_files_through_the_plain_path(tmp_path):
    path = tmp_path / "notes.jsonl"
    path.write_text(GOOD_LINE + "\n" + line_of(id="r6", content="a <private>secret</private> b") + "\n",
                    encoding="utf-8")
    records = parse_jsonl(str(path), str(tmp_path))
    assert [record.id for record in records] == ["good", "r6"]
    assert records[1].content == "a  b"


def _loaded(load, root: str):
    try:
        return "ok", load(root)
    except IntegrityError as error:
        return "error", str(error), error.file, error.line, error.field, error.rule


@pytest.mark.parametrize("files", [
    {"a.jsonl": GOOD_LINE + "\n" + line_of(id="b") + "\n", "b.md": "---\nid: c\n---\nbody\n"},
    {"a.jsonl": GOOD_LINE + "\n", "b.jsonl": line_of(id="x") + "\n" + GOOD_LINE + "\n"},  # the repeat in b.jsonl
    {"a.jsonl": GOOD_LINE + "\n" + line_of(id="y") + "\n" + GOOD_LINE + "\n"},  # the repeat in its own file
    {"a.md": "---\nid: good\n---\nx\n", "b.jsonl": GOOD_LINE + "\n"},
    {"a.jsonl": GOOD_LINE + "\n" + line_of(id="z", created="never") + "\n"},
    {"a.jsonl": "", "b.md": "---\ntitle: no id\n---\nbody\n"},
])
def test_counting_records_is_loading_them_without_the_records(tmp_path, files):
    """`status` counts with count_canonical_records: the same root and number, or the same error, as a load."""
    knowledge = tmp_path / "KNOWLEDGE"
    knowledge.mkdir()
    for name, text in files.items():
        (knowledge / name).write_text(text, encoding="utf-8")
    loaded = _loaded(enumerate_canonical_corpus, str(tmp_path))
    if loaded[0] == "ok":
        loaded = ("ok", (loaded[1].root, len(loaded[1].records)))
    assert _loaded(count_canonical_records, str(tmp_path)) == loaded
