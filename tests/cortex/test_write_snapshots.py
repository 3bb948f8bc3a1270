"""Snapshot ring (30 newest per file) and `cortex hot snapshots|restore`."""
from __future__ import annotations

from tests.write_support import entries, run_in_process, tree  # noqa: F401 (fixture)

from cortex.hot.hotmemory import parse_memory_content
from cortex.write.snapshots import RING


def _snapshot_names(tree, prefix="PRINCIPAL_MEMORY__"):
    return sorted(p.name for p in (tree.obs / "memory-snapshots").glob(prefix + "*.md"))


def test_every_write_snapshots_the_prior_bytes_first(tree):
    template = tree.principal.read_bytes()
    first = tree.hot_set("principal", ["NAME: one"])
    assert first.code == 0
    snapshot = tree.obs / "memory-snapshots" / first.data["snapshot"]
    assert snapshot.read_bytes() == template
    after_first = tree.principal.read_bytes()
    second = tree.hot_set("principal", ["NAME: one", "ROLE: two"])
    assert (tree.obs / "memory-snapshots" / second.data["snapshot"]).read_bytes() == after_first


def test_the_ring_keeps_the_30_newest_per_file(tree):
    for i in range(RING + 5):
        result = run_in_process(tree, "hot", "set", "principal", stdin=f"NAME: version {i}\n")
        assert result.code == 0, result.envelope
    assert run_in_process(tree, "hot", "set", "da", stdin="ROLE: helper\n").code == 0
    names = _snapshot_names(tree)
    assert len(names) == RING
    assert len(_snapshot_names(tree, "DA_MEMORY__")) == 1
    listed = run_in_process(tree, "hot", "snapshots", "principal").data
    assert listed["total"] == RING and listed["ring"] == RING
    sequences = [item["sequence"] for item in listed["items"]]
    assert sequences == sorted(sequences, reverse=True) and sequences[0] == RING + 5
    newest = tree.obs / "memory-snapshots" / listed["items"][0]["name"]
    assert parse_memory_content(newest.read_text()).entries == (f"NAME: version {RING + 3}",)
    assert run_in_process(tree, "hot", "snapshots").data["total"] == RING + 1


def test_restore_puts_a_named_snapshot_back_as_an_explicit_snapshotted_undo(tree):
    assert tree.hot_set("principal", entries(4)).code == 0
    good = tree.hot_set("principal", entries(4) + ["ROLE: added"]).data["snapshot"]  # holds the 4-entry state
    assert tree.hot_set("principal", entries(4) + ["ROLE: added", "NAME: more"]).code == 0
    # The same net loss of 2 is refused as erosion for a set, but a restore names its snapshot: an explicit undo.
    assert tree.hot_set("principal", entries(4)).error["message"].startswith("ESUSPECT_EROSION:")
    restored = tree.cortex("hot", "restore", "principal", good)
    assert restored.code == 0, restored.envelope
    assert restored.data["evictions"] == ["ROLE: added", "NAME: more"] and restored.data["allow_drastic"] is False
    assert f"restored {good}: removed 2 entries, added 0" in restored.stderr
    assert f"cortex hot restore principal {restored.data['snapshot']}" in restored.stderr
    assert restored.data["restored_from"] == good and restored.data["updated_by"] == "cortex-restore"
    assert parse_memory_content(tree.principal.read_text()).entries == tuple(entries(4))
    undo = tree.obs / "memory-snapshots" / restored.data["snapshot"]
    assert len(parse_memory_content(undo.read_text()).entries) == 6  # the restore itself can be undone


def test_restore_recovers_an_unreadable_file_only_with_allow_drastic(tree):
    snap = tree.hot_set("principal", ["NAME: safe"]).data["snapshot"]
    tree.principal.write_bytes(b"\xff\xfe corrupted")
    assert tree.cortex("hot", "restore", "principal", snap).code == 4
    result = tree.cortex("hot", "restore", "principal", snap, "--allow-drastic")
    assert result.code == 0 and result.data["prior_count"] is None
    assert (tree.obs / "memory-snapshots" / result.data["snapshot"]).read_bytes() == b"\xff\xfe corrupted"
    assert tree.cortex("hot", "read", "principal").data["entries"] == []


def test_restore_rejects_unknown_or_foreign_snapshot_names(tree):
    snap = tree.hot_set("principal", ["NAME: x"]).data["snapshot"]
    assert tree.cortex("hot", "restore", "da", snap).code == 3
    assert tree.cortex("hot", "restore", "principal", "../../USER/PRINCIPAL/PRINCIPAL_MEMORY.md").code == 3
    assert tree.cortex("hot", "restore", "principal", snap.replace("000001", "000099")).code == 3
    assert tree.cortex("hot", "restore", "principal").code == 4


def test_snapshots_on_a_tree_without_writes_is_empty(tree):
    result = tree.cortex("hot", "snapshots")
    assert result.code == 0 and result.data == {"items": [], "total": 0, "ring": RING}
