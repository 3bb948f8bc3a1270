"""Scenarios of the index policy, its manifest and the corpus it summarises."""
import os
import shutil

from tests.health_support import DAY_MS, NOW_MS, memory
from tests.health_scenarios.rows import write_manifest


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
