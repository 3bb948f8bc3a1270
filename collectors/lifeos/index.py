"""Collect stage: index evidence, the adopted-index manifest or the no-index policy marker.

Called through the check list (health.judge.checks). A manifest, when present, supersedes the marker and is
verified byte for byte: the canonical corpus digest of M and the index file's SHA-256 are
recomputed. The marker alone is the healthy no-index-v1 state, proven without hashing.
"""
from __future__ import annotations

import os

from collectors.readers.fsprobe import probe_file
from collectors.lifeos.layout import Layout
from collectors.readers.text import brief
from cortex.core.patterns import compiled
from cortex.core.safeio import UnsafeFile, open_regular, read_bounded
from cortex.core.sha256 import sha256_for
from cortex.core.timestamps import parse_timestamp_ms
from collectors.evidence import EvidenceStatus
from cortex.core.strictjson import parse_object

MANIFEST_SCHEMA = "lifeos-cortex-index/v1"
MANIFEST_KEYS = frozenset(["schema", "canonical_sha256", "index_path", "index_sha256", "indexed_at"])
POLICY = {"schema": "lifeos-cortex-index-policy/v1", "policy": "no-index-v1"}
MAX_MANIFEST_BYTES = 1 << 20

ABSENT, NO_INDEX, VERIFIED, MISMATCH, INVALID = "absent", "no-index-v1", "verified", "mismatch", "invalid"


class IndexEvidence:
    """status: EvidenceStatus; verdict: str, absent | no-index-v1 | verified | mismatch | invalid; manifest: str;
    policy: str; problem: str | None; index_path: str | None; canonical_sha256: str | None, measured;
    manifest_canonical_sha256: object; index_sha256: str | None, measured; manifest_index_sha256: object;
    index_bytes: int | None; records: int | None; indexed_at: object; indexed_at_ms: int | None.
    """

    __slots__ = ("status", "verdict", "manifest", "policy", "problem", "index_path", "canonical_sha256",
                 "manifest_canonical_sha256", "index_sha256", "manifest_index_sha256", "index_bytes", "records",
                 "indexed_at", "indexed_at_ms")

    def __init__(self, status, verdict, manifest, policy, problem=None, index_path=None, canonical_sha256=None,
                 manifest_canonical_sha256=None, index_sha256=None, manifest_index_sha256=None, index_bytes=None,
                 records=None, indexed_at=None, indexed_at_ms=None) -> None:
        self.status, self.verdict, self.manifest, self.policy, self.problem = status, verdict, manifest, policy, problem
        self.index_path, self.canonical_sha256 = index_path, canonical_sha256
        self.manifest_canonical_sha256, self.index_sha256 = manifest_canonical_sha256, index_sha256
        self.manifest_index_sha256, self.index_bytes, self.records = manifest_index_sha256, index_bytes, records
        self.indexed_at, self.indexed_at_ms = indexed_at, indexed_at_ms


def read_json_object(path: str, anchor: str, limit: int) -> dict | str:
    """The object in `path` or why it cannot be one (refused, unreadable, malformed)."""
    state = probe_file(path, anchor)
    if state.status is not EvidenceStatus.OK:
        return f"{state.status.value}: {state.reason or 'no file'}"
    try:
        data = read_bounded(path, limit)
    except (UnsafeFile, OSError) as error:
        return f"unreadable: {error}"
    row = parse_object(data.strip())
    return row if isinstance(row, dict) else f"malformed: {row}"


def _sha256_hex():  # compiled on first use (cortex.core.patterns): a tree without an index manifest never needs it
    return compiled(r"[0-9a-f]{64}\Z")


def sha256_of(path: str) -> tuple[str, int]:
    size = 0
    fd = open_regular(path)
    try:
        digest = sha256_for(os.fstat(fd).st_size)()
        while chunk := os.read(fd, 1 << 20):
            digest.update(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    return digest.hexdigest(), size


def index_path_problem(relative: object) -> str | None:
    if not isinstance(relative, str) or not relative:
        return "index_path must be a non-empty string"
    if "\x00" in relative or os.path.isabs(relative) or ".." in relative.replace("\\", "/").split("/"):
        return "index_path must be relative to the manifest's folder and stay in it"
    return None


def manifest_problem(manifest: dict) -> str | None:
    if set(manifest) != MANIFEST_KEYS:
        return f"manifest keys must be exactly {sorted(MANIFEST_KEYS)}"
    if manifest["schema"] != MANIFEST_SCHEMA:
        return f"schema must be {MANIFEST_SCHEMA!r}"
    for key in ("canonical_sha256", "index_sha256"):
        if not isinstance(manifest[key], str) or not _sha256_hex().match(manifest[key]):
            return f"{key} must be 64 lowercase hex digits"
    return index_path_problem(manifest["index_path"])


def canonical_digest(memory: str) -> tuple[str | None, int | None, str | None]:
    """(digest, record count, problem) of the canonical corpus under M."""
    from cortex.core.corpus import load_canonical_records  # heavy and only needed with a manifest
    from cortex.core.digest import canonical_corpus_digest
    from cortex.errors import CortexError

    try:
        records = load_canonical_records(memory)
    except CortexError as error:
        return None, None, f"canonical corpus failed integrity: {error.message}"
    return canonical_corpus_digest(records), len(records), None


def verify_manifest(layout: Layout) -> IndexEvidence:
    base = dict(manifest=layout.manifest, policy=layout.policy)
    manifest = read_json_object(layout.manifest, layout.memory, MAX_MANIFEST_BYTES)
    if isinstance(manifest, str):
        return IndexEvidence(EvidenceStatus.MALFORMED, INVALID, problem=f"manifest {manifest}", **base)
    problem = manifest_problem(manifest)
    if problem:
        return IndexEvidence(EvidenceStatus.MALFORMED, INVALID, problem=problem, **base)
    folder = os.path.dirname(layout.manifest)
    index_path = os.path.join(folder, manifest["index_path"])
    state = probe_file(index_path, folder)
    if state.status is not EvidenceStatus.OK:
        return IndexEvidence(EvidenceStatus.MALFORMED, INVALID, index_path=index_path,
                             problem=f"index file {state.status.value}: {state.reason or 'no file'}", **base)
    try:
        index_sha, size = sha256_of(index_path)
    except OSError as error:  # swapped or unreadable after the probe
        return IndexEvidence(EvidenceStatus.MALFORMED, INVALID, index_path=index_path,
                             problem=f"index file unreadable: {error}", **base)
    canonical, records, corpus_problem = canonical_digest(layout.memory)
    differs = [name for name, measured, claimed in (
        ("canonical", canonical, manifest["canonical_sha256"]), ("index", index_sha, manifest["index_sha256"]))
        if measured != claimed]
    problem = corpus_problem or (f"{' and '.join(differs)} digest differs from the manifest" if differs else None)
    return IndexEvidence(
        EvidenceStatus.OK, MISMATCH if problem else VERIFIED, problem=problem, index_path=index_path,
        canonical_sha256=canonical, manifest_canonical_sha256=manifest["canonical_sha256"], index_sha256=index_sha,
        manifest_index_sha256=manifest["index_sha256"], index_bytes=size, records=records,
        indexed_at=brief(manifest["indexed_at"]), indexed_at_ms=parse_timestamp_ms(manifest["indexed_at"]), **base)


def read_policy(layout: Layout) -> IndexEvidence:
    base = dict(manifest=layout.manifest, policy=layout.policy)
    marker = read_json_object(layout.policy, os.path.dirname(layout.policy), 64 * 1024)
    if isinstance(marker, str):
        return IndexEvidence(EvidenceStatus.MALFORMED, INVALID, problem=f"policy marker {marker}", **base)
    if marker != POLICY or set(marker) != set(POLICY):
        return IndexEvidence(EvidenceStatus.MALFORMED, INVALID, problem=f"policy marker must be exactly {POLICY}", **base)
    return IndexEvidence(EvidenceStatus.OK, NO_INDEX, **base)


def collect(layout: Layout) -> IndexEvidence:
    if os.path.lexists(layout.manifest):
        return verify_manifest(layout)
    if os.path.lexists(layout.policy):
        return read_policy(layout)
    return IndexEvidence(EvidenceStatus.MISSING, ABSENT, layout.manifest, layout.policy)

