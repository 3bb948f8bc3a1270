"""The search cache changes nothing: random corpora through random edits, every read command's answer
with the cache on (kept across the edits), off, and cold (a new cache each call), compared.

Edits between calls: add, delete, modify, same-size rewrite with the old mtime put back,
rename, symlink swap, permission change, invalid UTF-8. File times are set with os.utime
into the past (so entries are trusted and used), never with sleeps; commands run in-process.
"""
from __future__ import annotations

import json
import os
import shutil
import sqlite3
import tempfile
from array import array
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from cortex.cli import run

NOW = "2026-06-01T00:00:00Z"
PAST_NS = 1_700_000_000 * 10**9  # 2023: far older than any entry written during the test
WORDS = ["alpha", "beta", "gamma", "delta", "tea", "green", "backup", "nightly", "库", "数据库", "café", "the"]
QUERIES = ["alpha beta", "tea", "库", "the green café", "backup nightly gamma delta alpha"]

record = st.fixed_dictionaries({
    "id": st.sampled_from([f"r{i}" for i in range(12)]),
    "type": st.sampled_from(["memory", "note"]),
    "words": st.lists(st.sampled_from(WORDS), min_size=1, max_size=8),
    "day": st.integers(1, 28),
    "valid_until": st.sampled_from([None, None, None, "2026-01-01T00:00:00Z", "2027-01-01T00:00:00Z"]),
    "related": st.lists(st.sampled_from([f"r{i}" for i in range(12)]), max_size=2),
})
a_file = st.tuples(st.sampled_from(["jsonl", "md"]), st.lists(record, min_size=1, max_size=3))
EDITS = ["add", "delete", "modify", "same_size", "rename", "symlink", "chmod", "invalid_utf8"]
# What befalls the summary of the file facts (cortex.searchcache.summary), or the merged postings
# (cortex.searchcache.merged), after the warm calls of a step.
FATES = ["kept", "deleted", "truncated", "flipped", "older", "folder", "merged-dropped", "merged-flipped"]
edit = st.tuples(st.sampled_from(EDITS), st.integers(0, 50), a_file, st.sampled_from(FATES))


def render(kind: str, records: list[dict]) -> str:
    if kind == "md":
        first = records[0]
        return (f"---\nid: {first['id']}\ntype: {first['type']}\ncreated: 2026-01-{first['day']:02d}T00:00:00Z\n"
                + "".join(f"related:\n  - slug: {slug}\n" for slug in first["related"][:1])
                + f"---\n{' '.join(first['words'])}\n")
    rows = []
    for r in records:
        row = {"id": r["id"], "type": r["type"], "title": r["words"][0], "created": f"2026-01-{r['day']:02d}T00:00:00Z",
               "updated": f"2026-02-{r['day']:02d}T00:00:00Z", "content": " ".join(r["words"]), "related": r["related"]}
        if r["valid_until"]:
            row["valid_until"] = r["valid_until"]
        rows.append(json.dumps(row, ensure_ascii=False))
    return "\n".join(rows) + "\n"


class Tree:
    def __init__(self, base: Path) -> None:
        self.memory = base / "LIFEOS" / "MEMORY"
        self.knowledge = self.memory / "KNOWLEDGE"
        self.knowledge.mkdir(parents=True)
        self.tick = 0

    def files(self) -> list[Path]:
        return sorted(p for p in self.knowledge.iterdir() if not p.name.startswith("."))

    def age(self, path: Path, mtime_ns: int | None = None) -> None:
        """A past mtime (each change a new one), so the cache may trust what it reads."""
        self.tick += 1
        os.utime(path, ns=(PAST_NS, mtime_ns if mtime_ns is not None else PAST_NS + self.tick * 10**9),
                 follow_symlinks=False)

    def write(self, name: str, text: str | bytes) -> None:
        path = self.knowledge / name
        path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
        self.age(path)

    def apply(self, kind: str, pick: int, new_file: tuple, _fate: str = "kept") -> None:
        files = self.files()
        target = files[pick % len(files)] if files else None
        if kind == "add" or target is None:
            self.write(f"f{self.tick}.{new_file[0]}", render(*new_file))
        elif kind == "delete":
            target.unlink()
        elif kind == "modify" and not target.is_symlink():
            with open(target, "a", encoding="utf-8") as handle:
                handle.write("\n" if target.suffix == ".jsonl" else " beta\n")
            self.age(target)
        elif kind == "same_size" and not target.is_symlink():
            before = target.stat()
            data = target.read_bytes()
            swapped = data.replace(b"alpha", b"gamma", 1) if b"alpha" in data else data.replace(b"a", b"e", 1)
            target.write_bytes(swapped)
            os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))  # same size, same mtime: only ctime tells
        elif kind == "rename":
            target.rename(target.with_name(f"renamed{self.tick}{target.suffix}"))
            self.tick += 1
        elif kind == "symlink" and len(files) > 1:
            other = files[(pick + 1) % len(files)]
            target.unlink()
            target.symlink_to(other.name)
        elif kind == "chmod" and not target.is_symlink():
            os.chmod(target, 0o400 if target.stat().st_mode & 0o200 else 0o600)
        elif kind == "invalid_utf8" and not target.is_symlink():
            data = target.read_bytes()
            before = target.stat()
            target.write_bytes(data[:-2] + b"\xff\n")  # same size
            os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))


def befall(cache: Path, fate: str, older: bytes | None) -> None:
    """Do `fate` to the summary beside the kept cache's database (when there is one), or to its merged rows."""
    if fate.startswith("merged-"):
        for path in cache.rglob("search.sqlite"):
            with sqlite3.connect(path) as db:
                db.execute("DELETE FROM merged" if fate == "merged-dropped" else  # the per-file rows answer
                           "UPDATE merged SET data = substr(data, 1, 4) || substr(data, 6) || x'00'")  # damage (and text)
        return
    found = list(cache.rglob("search.sqlite-summary"))
    for path in found:
        if fate == "deleted":
            path.unlink()
        elif fate == "truncated":
            os.truncate(path, path.stat().st_size // 2)
        elif fate == "flipped":
            data = bytearray(path.read_bytes())
            data[len(data) * 2 // 3] ^= 0x01
            path.write_bytes(bytes(data))
        elif fate == "older" and older is not None:  # a summary of an earlier generation: sealed, but stale
            path.write_bytes(older)
        elif fate == "folder":
            path.unlink()
            path.mkdir()


def assert_merged_rows_agree(cache: Path) -> None:
    """Every merged row that passes its checksum (one the loader would believe) is its term's per-file rows,
    merged (entry-id order): derived state never disagrees. (A row damaged by a fate stays until read.)"""
    from cortex.searchcache.merged import merged_crc

    for path in cache.rglob("search.sqlite"):
        with sqlite3.connect(path) as db:
            for term, data, crc in db.execute("SELECT term, data, crc FROM merged"):
                if type(data) is not bytes or merged_crc(term, data) != crc:
                    continue
                files, seqs, tfs = array("I"), array("I"), array("I")
                for file_id, pairs in db.execute("SELECT file, data FROM postings WHERE term=? ORDER BY file", (term,)):
                    pairs = array("I", pairs)
                    for seq, tf in zip(pairs[0::2], pairs[1::2]):
                        files.append(file_id)
                        seqs.append(seq)
                        tfs.append(tf)
                assert files.tobytes() + seqs.tobytes() + tfs.tobytes() == data, term


def summary_bytes(cache: Path) -> bytes | None:
    found = [path for path in cache.rglob("search.sqlite-summary") if path.is_file()]
    return found[0].read_bytes() if found else None


def answers(memory: Path, environ: dict) -> list:
    root = ["--memory-root", str(memory)]
    out = [run(["status", *root], environ=environ)]
    for query in QUERIES:
        out.append(run(["search", query, *root], environ=environ))
    out.append(run(["search", "alpha tea", "--type", "note", "--page-size", "2", "--page", "2", "--recency", "1", *root],
                   environ=environ))
    for page, size in (("1", "1"), ("2", "2"), ("3", "1")):  # a page's head of the order (no recency: top-k)
        out.append(run(["search", "alpha tea green", "--page", page, "--page-size", size, *root], environ=environ))
    out.append(run(["search", "alpha", "--expand", "r1", "--max-nodes", "5", *root], environ=environ))
    out.append(run(["timeline", "--anchor", "2026-01-15T00:00:00Z", "--before", "3", "--after", "3", *root],
                   environ=environ))
    out.append(run(["get", "r1", "r2", *root], environ=environ))
    out.append(run(["export", "r3", *root], environ=environ))
    out.append(run(["recall", "alpha green 库 tea", "--limit", "3", *root], environ=environ))
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(start=st.lists(a_file, min_size=1, max_size=4), edits=st.lists(edit, min_size=1, max_size=5))
def test_every_read_command_answers_the_same_with_the_cache_on_off_and_cold(start, edits):
    base = Path(tempfile.mkdtemp(prefix="cache-prop-"))
    try:
        tree = Tree(base / "tree")
        for kind, records in start:
            tree.write(f"f{tree.tick}.{kind}", render(kind, records))
        common = {"CORTEX_NOW": NOW, "HOME": str(base)}
        kept = {**common, "CORTEX_CACHE_DIR": str(base / "kept")}
        off = {**common, "CORTEX_CACHE": "off"}
        cold_calls = 0
        older = None
        for step in [None, *edits]:
            if step is not None:
                tree.apply(*step)
            expected = answers(tree.memory, off)
            for _ in range(2):  # the first call may fill the cache, the second must use it (and leave a summary)
                assert answers(tree.memory, kept) == expected, step
            assert_merged_rows_agree(base / "kept")
            if step is not None:  # the summary fresh, stale (edited files), missing or damaged: the same answers
                befall(base / "kept", step[3], older)
                assert answers(tree.memory, kept) == expected, step
                for folder in (base / "kept").rglob("search.sqlite-summary"):
                    if folder.is_dir():
                        folder.rmdir()
            older = summary_bytes(base / "kept") or older
            cold_calls += 1
            assert answers(tree.memory, {**common, "CORTEX_CACHE_DIR": str(base / f"cold{cold_calls}")}) == expected
    finally:
        shutil.rmtree(base, ignore_errors=True)
