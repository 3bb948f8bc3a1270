"""Mutations of the demo tree, one per finding: each takes the copied root and returns extra CLI args."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

from cortex.core.corpus import load_canonical_records
from cortex.core.digest import canonical_corpus_digest
from cortex.core.timestamps import iso_from_ms
from tests.health_support import DAY_MS, HOUR_MS, NOW_MS, hot, jsonl, memory, obs

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


# ---- one function per scenario -------------------------------------------------------------

def reviewer_missing(root):
    (obs(root) / "reviewer-runs.jsonl").unlink()
    shutil.rmtree(obs(root) / "reviewer-runs")


def reviewer_failed(root):
    append(obs(root) / "reviewer-runs.jsonl", failure(NOW_MS - HOUR_MS))


def reviewer_command_missing(root):
    append(obs(root) / "reviewer-runs.jsonl", failure(
        NOW_MS - HOUR_MS, "inference command not found: claude is not on PATH (/usr/bin:/bin): install Claude Code, "
        "or name another command in inference_command (memory-review.json) or CORTEX_REVIEWER_COMMAND",
        parse_ok=None))


def reviewer_malformed_line(root):
    log = obs(root) / "reviewer-runs.jsonl"
    lines = log.read_text().splitlines()
    lines.insert(2, '{"ts": "2026-11-26T10:00:00Z", "ok": tru')
    log.write_text("\n".join(lines) + "\n")


def reviewer_run_dir_parse_error(root):
    run_dir(root, NOW_MS - 30 * MINUTE_MS, parse_error=True)


def reviewer_row_parse_failed(root):
    append(obs(root) / "reviewer-runs.jsonl", failure(NOW_MS - HOUR_MS, "reviewer output was not JSON", parse_ok=False))


def reviewer_row_timeout(root):
    append(obs(root) / "reviewer-runs.jsonl", failure(NOW_MS - HOUR_MS, "Inference TIMEOUT after 300000ms"))


def reviewer_run_dir_stuck(root):
    run_dir(root, NOW_MS - 11 * MINUTE_MS)


def reviewer_extra_key(root):
    append(obs(root) / "reviewer-runs.jsonl", success(NOW_MS - HOUR_MS, note="hand-edited"))


def reviewer_bad_skip(root):
    append(obs(root) / "reviewer-runs.jsonl", {"ts": iso_from_ms(NOW_MS - HOUR_MS), "ok": True,
           "runId": run_id(NOW_MS - HOUR_MS - MINUTE_MS), "exchanges": 2, "inference_duration_ms": 0,
           "parse_ok": True, "skipped": True})


def reviewer_totals_wrong(root):
    row = success(NOW_MS - HOUR_MS)
    row["dispatch_summary"]["total"] = 2
    append(obs(root) / "reviewer-runs.jsonl", row)


def reviewer_impossible_date(root):
    append(obs(root) / "reviewer-runs.jsonl", success(NOW_MS - HOUR_MS, ts="2026-02-30T10:00:00Z"))


def reviewer_log_is_directory(root):
    (obs(root) / "reviewer-runs.jsonl").unlink()
    (obs(root) / "reviewer-runs.jsonl").mkdir()


def reviewer_future(root):
    set_reviewer(root, [success(NOW_MS + 2 * HOUR_MS)])


def reviewer_stale(root):
    set_reviewer(root, [success(NOW_MS - 8 * DAY_MS)])


def reviewer_failing(root):
    t = NOW_MS - 10 * HOUR_MS
    set_reviewer(root, [success(t), failure(t + HOUR_MS), failure(t + 2 * HOUR_MS), failure(t + 3 * HOUR_MS),
                        success(t + 4 * HOUR_MS)])


def reviewer_eat_cap(root):
    t = NOW_MS - 5 * HOUR_MS
    capped = failure(t, "1 dispatch failed")
    capped["dispatch_summary"] = {"total": 1, "by_type": {"memory": 1}, "succeeded": 0, "failed": 1,
                                  "failures": [{"type": "memory", "error": "EAT_CAP: DA_MEMORY.md is at 48/48"}],
                                  "proposals_auto_applied": 0, "proposals_auto_apply_failed": 0}
    set_reviewer(root, [success(t - HOUR_MS), capped, success(t + HOUR_MS)])


def retrieval_malformed_line(root):
    append(obs(root) / "memory-retrievals.jsonl", "[1, 2]", retrieval_row(NOW_MS - HOUR_MS))


def retrieval_invalid_last(root):
    append(obs(root) / "memory-retrievals.jsonl", retrieval_row(NOW_MS - HOUR_MS, returned_count=-1))


def retrieval_no_file(root):
    (obs(root) / "memory-retrievals.jsonl").unlink()


def retrieval_empty(root):
    (obs(root) / "memory-retrievals.jsonl").write_text("\n")


def retrieval_future(root):
    append(obs(root) / "memory-retrievals.jsonl", retrieval_row(NOW_MS + HOUR_MS))


def retrieval_stale(root):
    (obs(root) / "memory-retrievals.jsonl").write_text(jsonl([retrieval_row(NOW_MS - 25 * HOUR_MS)]))


def proposals_missing(root):
    (obs(root) / "pending-proposals.jsonl").unlink()


def proposals_null_line(root):
    append(obs(root) / "pending-proposals.jsonl", "null")


def proposals_backlog(root):
    append(obs(root) / "pending-proposals.jsonl", *[{"id": f"p{i}", "status": "pending"} for i in range(9)])


def observability_missing(root):
    shutil.rmtree(obs(root))


def observability_bytes(root):
    archive = obs(root) / "archive"
    archive.mkdir()
    with open(archive / "2026-10.log", "wb") as handle:
        handle.truncate(256 * 1024 * 1024 + 1)  # sparse: no disk used
    utime(archive / "2026-10.log", NOW_MS - HOUR_MS)


def observability_age(root):
    utime(obs(root) / "memory-writes.jsonl", NOW_MS - 31 * DAY_MS)


def observability_symlink(root):
    os.symlink("/dev/zero", obs(root) / "zero.log")


def index_missing(root):
    (root / "LIFEOS" / "CORTEX_INDEX_POLICY.json").unlink()


def index_bad_policy(root):
    (root / "LIFEOS" / "CORTEX_INDEX_POLICY.json").write_text(
        '{"schema": "lifeos-cortex-index-policy/v1", "policy": "index-v2"}')


def index_manifest_extra_key(root):
    write_manifest(root, builder="hand")


def index_manifest_escaping_path(root):
    write_manifest(root, index_path="../KNOWLEDGE/frost-dates.md")


def index_manifest_symlink(root):
    real = write_manifest(root)
    moved = real.with_name("real-manifest.json")
    real.rename(moved)
    os.symlink(moved.name, real)


def index_file_missing(root):
    write_manifest(root)
    (memory(root) / "INDEX" / "bm25-v1.json").unlink()


def index_manifest_outside(root):
    outside = write_manifest(root)
    target = root.parent / "elsewhere-manifest.json"
    outside.rename(target)
    shutil.copy(memory(root) / "INDEX" / "bm25-v1.json", root.parent / "bm25-v1.json")
    return ["--index-manifest", str(target)]


def index_canonical_mismatch(root):
    write_manifest(root, canonical_sha256="0" * 64)


def index_bytes_mismatch(root):
    write_manifest(root)
    with open(memory(root) / "INDEX" / "bm25-v1.json", "a") as handle:
        handle.write(" ")


def index_corpus_edited(root):
    write_manifest(root)
    record = memory(root) / "KNOWLEDGE" / "frost-dates.md"
    record.write_text(record.read_text().replace("April 20", "April 25"))


def index_freshness_unparseable(root):
    write_manifest(root, indexed_at="last tuesday")


def index_freshness_future(root):
    write_manifest(root, indexed_ms=NOW_MS + DAY_MS)


def index_stale(root):
    write_manifest(root, indexed_ms=NOW_MS - 8 * DAY_MS)


def principal_missing(root):
    hot(root, "principal").unlink()


def da_missing(root):
    hot(root, "da").unlink()


def principal_inverted(root):
    path = hot(root, "principal")
    text = path.read_text().replace("<!-- BEGIN ENTRIES -->", "@@B@@").replace("<!-- END ENTRIES -->", "<!-- BEGIN ENTRIES -->")
    path.write_text(text.replace("@@B@@", "<!-- END ENTRIES -->"))


def da_double_end(root):
    path = hot(root, "da")
    path.write_text(path.read_text() + "<!-- END ENTRIES -->\n")


def principal_overlength(root):
    path = hot(root, "principal")
    path.write_text(path.read_text().replace("<!-- END ENTRIES -->",
                                             "PREFERENCE: " + "very long " * 30 + "\n<!-- END ENTRIES -->"))


def da_cap(root):
    hot(root, "da").write_text(entries_file(46))


def principal_directory(root):
    hot(root, "principal").unlink()
    hot(root, "principal").mkdir()


def state_missing(root):
    (obs(root) / "review-state.json").unlink()


def state_not_json(root):
    (obs(root) / "review-state.json").write_text('{"last_review_at": ')


def state_bad_timestamp(root):
    (obs(root) / "review-state.json").write_text('{"last_review_at": "2026-13-01T00:00:00Z"}')


def review_stale(root):
    (obs(root) / "review-state.json").write_text(json.dumps({"last_review_at": iso_from_ms(NOW_MS - 8 * DAY_MS)}))


def review_never(root):
    (obs(root) / "review-state.json").write_text('{"last_review_at": null, "turn_count_since_last_review": 2}')


def review_future(root):
    (obs(root) / "review-state.json").write_text(json.dumps({"last_review_at": iso_from_ms(NOW_MS + DAY_MS)}))


def config_negative(root):
    config = root.parent / "health.json"
    config.write_text('{"thresholds": {"proposal_backlog": -1}}')
    return ["--config", str(config)]


def memory_tree_missing(root):
    """ROOT without LIFEOS/MEMORY (LIFEOS/ still there, so the layout is LifeOS)."""
    shutil.rmtree(root / "LIFEOS" / "MEMORY")


def config_misspelt_name(root):
    """A misspelt name in a config file stays a finding (on the command line it is a usage error)."""
    config = root.parent / "health.json"
    config.write_text('{"thresholds": {"retreival_stale_ms": 5}}')
    return ["--config", str(config)]


def config_not_json(root):
    config = root.parent / "health.json"
    config.write_text("proposal_backlog = 3\n")
    return ["--config", str(config)]


def health_log_directory(root):
    (obs(root) / "memory-health.jsonl").mkdir()


def search_cache_built(root):
    """A search cache for the tree (where the audit, with the same environment, looks for it)."""
    _search_cache(root)


def _search_cache(root) -> str:
    from cortex.cli import run

    for current, _dirs, files in os.walk(memory(root) / "KNOWLEDGE"):
        for name in files:  # older than the cache's racy margin, whatever the real clock says
            os.utime(os.path.join(current, name), ns=(1_700_000_000 * 10**9,) * 2)
    code, out = run(["search", "memory", "--memory-root", str(memory(root))], environ=os.environ)
    assert code == 0, out
    code, out = run(["cache", "status", "--memory-root", str(memory(root))], environ=os.environ)
    assert out["data"]["entries"] > 0, out
    return out["data"]["path"]


def search_cache_wrong(root):
    """A cached value that differs from its file (right checksum), found by `cortex cache verify`."""
    import sqlite3
    import zlib

    from cortex.cli import run

    path = _search_cache(root)
    data = bytes([0, 0, 0, 0, 7, 0, 0, 0])
    with sqlite3.connect(path) as db:
        db.execute("UPDATE postings SET data=?, crc=? WHERE (term, file) IN (SELECT term, file FROM postings LIMIT 1)",
                   (data, zlib.crc32(data)))
    code, out = run(["cache", "verify", "--memory-root", str(memory(root))], environ=os.environ)
    assert out["data"]["ok"] is False, out


def search_cache_garbage(root):
    path = _search_cache(root)
    with open(path, "r+b") as handle:
        handle.write(b"this is not a database" * 10)
