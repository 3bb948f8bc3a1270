"""Builders of the demo tree's evidence rows and files, shared by every scenario module."""
import hashlib
import json
import os
import shutil
from pathlib import Path

from cortex.core.corpus import load_canonical_records
from cortex.core.digest import canonical_corpus_digest
from cortex.core.timestamps import iso_from_ms
from tests.health_support import DAY_MS, NOW_MS, jsonl, memory, obs


MINUTE_MS = 60_000


def run_id(ms: int) -> str:
    iso = iso_from_ms(ms)  # 2026-11-29T12:00:00.000Z
    return iso[:13] + "-" + iso[14:16] + "-" + iso[17:19] + "-" + iso[20:23] + "Z"


def success(ms: int, **changes) -> dict:
    row = {"ts": iso_from_ms(ms), "ok": True, "runId": run_id(ms - MINUTE_MS), "transcript": "projects/t.jsonl",
           "exchanges": 4, "inference_duration_ms": 1200, "parse_ok": True,
           "dispatch_summary": {"total": 1, "by_type": {"memory": 1}, "succeeded": 1, "failed": 0, "failures": [],
                                "proposals_auto_applied": 0, "proposals_auto_apply_failed": 0}}
    row.update(changes)
    return row


def failure(ms: int, error: str = "dispatch crashed", **changes) -> dict:
    row = {"ts": iso_from_ms(ms), "ok": False, "runId": run_id(ms - MINUTE_MS), "transcript": "projects/t.jsonl",
           "exchanges": 4, "inference_duration_ms": 900, "parse_ok": True, "error": error}
    row.update(changes)
    return row


def set_reviewer(root: Path, rows: list) -> None:
    """Rewrite reviewer-runs.jsonl and give every row (dict) its run directory."""
    (obs(root) / "reviewer-runs.jsonl").write_text(jsonl(rows))
    runs = obs(root) / "reviewer-runs"
    shutil.rmtree(runs)
    runs.mkdir()
    for row in rows:
        if isinstance(row, dict) and isinstance(row.get("runId"), str):
            (runs / row["runId"]).mkdir(exist_ok=True)
            (runs / row["runId"] / "run.json").write_text("{}\n")


def append(path: Path, *rows) -> None:
    with open(path, "a") as handle:
        handle.write(jsonl(rows))


def run_dir(root: Path, ms: int, parse_error: bool = False) -> Path:
    folder = obs(root) / "reviewer-runs" / run_id(ms)
    folder.mkdir()
    if parse_error:
        (folder / "parse-error.txt").write_text("Unexpected token } in JSON at position 912\n")
    return folder


def retrieval_row(ms: int, **changes) -> dict:
    row = {"ts": iso_from_ms(ms), "query_hash": "abc123", "returned_count": 2, "duration_ms": 9.5}
    row.update(changes)
    return row


def write_manifest(root: Path, indexed_ms: int = NOW_MS - DAY_MS, **changes) -> Path:
    """A valid adopted-index manifest (real canonical digest, real index bytes), then `changes`."""
    index_dir = memory(root) / "INDEX"
    index_dir.mkdir(exist_ok=True)
    index_bytes = b'{"postings": {"frost": ["knowledge-frost-dates"]}}\n'
    (index_dir / "bm25-v1.json").write_bytes(index_bytes)
    manifest = {
        "schema": "lifeos-cortex-index/v1",
        "canonical_sha256": canonical_corpus_digest(load_canonical_records(str(memory(root)))),
        "index_path": "bm25-v1.json",
        "index_sha256": hashlib.sha256(index_bytes).hexdigest(),
        "indexed_at": iso_from_ms(indexed_ms),
    }
    manifest.update(changes)
    path = index_dir / "index-manifest.json"
    path.write_text(json.dumps(manifest))
    return path


def entries_file(count: int, extra: str = "") -> str:
    lines = [f"PREFERENCE: preference number {i} ~explicit" for i in range(count)]
    return "---\nname: DA_MEMORY\n---\n\n<!-- BEGIN ENTRIES -->\n" + "\n".join(lines) + "\n" + extra + "<!-- END ENTRIES -->\n"


def utime(path: Path, ms: int) -> None:
    os.utime(path, ns=(ms * 1_000_000, ms * 1_000_000))
