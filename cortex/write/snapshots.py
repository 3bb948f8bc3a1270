"""Write path: the ring of the 30 newest snapshots per hot file in O/memory-snapshots/; used by the hot writer.

A snapshot is the exact prior bytes of a hot file, taken under that file's lock before
every write. Names are `<BASE>__<UTC stamp>__<sequence>.md`; the ring is ordered by the
sequence number (not the stamp), so an injected or skewed clock can never make a new
snapshot look old. The ring is trimmed *before* a snapshot is added, so it never holds
more than 30 files even if a writer dies in between; each snapshot is created whole
(temp, fsync, link) or not at all.
"""
from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass

from cortex.core.checkpoints import reached
from cortex.core.durable import create_file
from cortex.errors import IntegrityError, NotFound
from cortex.layout import HOT_FILES, OBSERVABILITY, SNAPSHOTS_DIR
from cortex.core.safeio import UnsafeFile, read_bounded
from cortex.core.safepaths import memory_dir

RING = 30
MAX_SNAPSHOT_BYTES = 1 << 20
_NAME = re.compile(r"(PRINCIPAL_MEMORY|DA_MEMORY)__(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)__(\d{6,})\.md\Z", re.ASCII)


def base_name(label: str) -> str:
    return HOT_FILES[label][-1].removesuffix(".md")


def label_of(base: str) -> str:
    return next(label for label in HOT_FILES if base_name(label) == base)


@dataclass(frozen=True)
class Snapshot:
    name: str
    label: str
    taken_at: str  # the stamp as written in the name
    sequence: int
    bytes: int

    def to_json(self) -> dict:
        return {"name": self.name, "file": self.label, "taken_at": self.taken_at, "sequence": self.sequence, "bytes": self.bytes}


def snapshot_dir(memory_root: str) -> str:
    return memory_dir(memory_root, OBSERVABILITY, SNAPSHOTS_DIR)


def list_snapshots(directory: str, label: str | None = None) -> list[Snapshot]:
    """Oldest first. Files that are not ours (other names, temp files) are ignored; symlinks refused."""
    found = []
    with os.scandir(directory) as entries:
        for entry in entries:
            match = _NAME.match(entry.name)
            if not match or (label is not None and match.group(1) != base_name(label)):
                continue
            info = entry.stat(follow_symlinks=False)
            if not stat.S_ISREG(info.st_mode):
                raise IntegrityError(f"Snapshot is not a regular file: {entry.path}")
            found.append(Snapshot(entry.name, label_of(match.group(1)), match.group(2), int(match.group(3)), info.st_size))
    return sorted(found, key=lambda snap: (snap.sequence, snap.name))


def take_snapshot(memory_root: str, label: str, content: bytes, now_iso: str) -> str:
    """Trim the ring to 29, then add `content` as the newest snapshot; returns its name."""
    directory = snapshot_dir(memory_root)
    ring = list_snapshots(directory, label)
    for stale in ring[: max(0, len(ring) - (RING - 1))]:
        try:
            os.unlink(os.path.join(directory, stale.name))
        except FileNotFoundError:
            pass
    reached("ring-trimmed")
    stamp = now_iso.replace(":", "-").replace(".", "-")
    sequence = (ring[-1].sequence if ring else 0) + 1
    while True:
        name = f"{base_name(label)}__{stamp}__{sequence:06d}.md"
        try:
            create_file(os.path.join(directory, name), content)
            return name
        except FileExistsError:
            sequence += 1  # a concurrent or earlier writer took this number


def read_snapshot(memory_root: str, label: str, name: str) -> bytes:
    match = _NAME.match(name)
    if not match or match.group(1) != base_name(label):
        raise NotFound(f"No {label} snapshot named {name!r} (see `cortex hot snapshots {label}`)")
    try:
        return read_bounded(os.path.join(snapshot_dir(memory_root), name), MAX_SNAPSHOT_BYTES)
    except FileNotFoundError:
        raise NotFound(f"Snapshot not found: {name}") from None
    except UnsafeFile as error:
        raise IntegrityError(f"Snapshot is not a readable regular file: {name} ({error})") from None
