"""Collect stage helper: the probe's throw-away copy of the install, and its removal. Used by collectors.lifeos.probe.collect.

A temporary folder `cortex-probe-<pid>-*` (0700) holding a `.claude` ROOT made of the install's
settings.json, reviewer config (memory-review.json), index policy and hot files (copied byte
for byte, bounded; a hot file that cannot be copied is replaced by the template), a small probe
corpus (one note naming a random token) instead of the user's corpus, a project folder (the
hooks' working folder) with a two-exchange transcript, and a stub inference program that
answers `{"items": []}`. The user's tree is only read. A folder left behind by a probe that
was killed outright (SIGKILL) is removed by the next probe, once its pid is gone.
"""
from __future__ import annotations

import json
import os
import secrets
import shutil
import sys
import tempfile
from collections import namedtuple

from cortex import layout as contract
from cortex.core.safeio import UnsafeFile, read_bounded
from cortex.hot.hottemplate import template
from cortex.review.reviewdefaults import CONFIG_NAME

PREFIX = "cortex-probe-"
MAX_COPY_BYTES = 1 << 20
STUB = 'import sys\nsys.stdin.read()\nsys.stdout.write(\'{"items": []}\\n\')\n'


class Sandbox(namedtuple("Sandbox", "folder root memory project transcript stub token session")):
    """folder: str, the temporary folder (removed afterwards); root: str, the copy's ROOT (.claude); memory: str,
    its LIFEOS/MEMORY; project: str, the hooks' working folder; transcript: str; stub: str, the stub inference
    program; token: str, the word only the probe note (and the probe's own write) contains; session: str.
    """

    __slots__ = ()

    @property
    def layout(self) -> contract.Layout:
        return contract.Layout.from_claude_root(self.root)


def _copy(source: str, target: str, limit: int = MAX_COPY_BYTES) -> bool:
    try:
        data = read_bounded(source, limit, follow_symlinks=True)
    except (OSError, UnsafeFile):
        return False
    _write(target, data)
    return True


def _write(path: str, data: bytes) -> None:
    """Create a file of the copy (never fsynced: the copy is thrown away)."""
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def make(real_root: str, now_iso: str) -> Sandbox:
    """A fresh copy of the install at `real_root` in a new temporary folder (the caller removes it)."""
    sweep_stale()
    folder = tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-")
    try:
        return _fill(folder, real_root, now_iso)
    except BaseException:  # a copy half made is removed here: the caller never learns its folder
        remove(folder)
        raise


def _fill(folder: str, real_root: str, now_iso: str) -> Sandbox:
    token = "cortexprobe" + secrets.token_hex(5)
    session = "cortex-probe-" + secrets.token_hex(4)
    root = os.path.join(folder, "claude")
    copy = contract.Layout.from_claude_root(root)
    real = contract.Layout.from_claude_root(real_root)
    for directory in (contract.KNOWLEDGE, contract.OBSERVABILITY, contract.STATE):
        os.makedirs(os.path.join(copy.memory_root, directory), mode=0o700)
    _copy(os.path.join(real_root, "settings.json"), os.path.join(root, "settings.json"))
    _copy(os.path.join(real.user, "CONFIG", CONFIG_NAME), os.path.join(copy.user, "CONFIG", CONFIG_NAME))
    if not _copy(real.index_policy, copy.index_policy, 65536):
        _write(copy.index_policy, (json.dumps(contract.INDEX_POLICY) + "\n").encode())
    for label in contract.HOT_LABELS:
        if not _copy(real.hot_file(label), copy.hot_file(label)):
            _write(copy.hot_file(label), template(label, now_iso).encode("utf-8"))
    _write(copy.pending_proposals, b"")
    _write(os.path.join(copy.knowledge, "cortex-probe.md"), _note(token, now_iso).encode("utf-8"))
    project = os.path.join(folder, "project")
    transcript = os.path.join(project, f"{session}.jsonl")
    _write(transcript, _transcript(token).encode("utf-8"))
    stub = os.path.join(folder, "stub_inference.py")
    _write(stub, STUB.encode())
    return Sandbox(folder, root, copy.memory_root, project, transcript, stub, token, session)


def _note(token: str, now_iso: str) -> str:
    return (f"---\nid: knowledge-cortex-probe\ntype: knowledge\ntitle: Cortex probe note {token}\n"
            f"created: {now_iso}\nupdated: {now_iso}\nsource_kind: conversation\n---\n"
            f"The synthetic probe looks for {token} to prove that recall finds a note.\n")


def _transcript(token: str) -> str:
    rows = []
    for user, assistant in ((f"What does the note about {token} say?", "It proves recall finds a note."),
                            ("Thanks, that is all for the probe.", "Noted.")):
        rows.append({"type": "user", "message": {"role": "user", "content": user}})
        rows.append({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text",
                                                                                          "text": assistant}]}})
    return "".join(json.dumps(row) + "\n" for row in rows)


def stub_command(sandbox: Sandbox) -> str:
    import shlex

    return shlex.join([sys.executable, sandbox.stub])


def remove(folder: str) -> bool:
    """Remove the probe's folder; whether it is gone."""
    shutil.rmtree(folder, ignore_errors=True)
    if os.path.lexists(folder):  # a hook left a folder without write permission: open it up and retry
        for current, directories, _files in os.walk(folder):
            for name in directories:
                try:
                    os.chmod(os.path.join(current, name), 0o700)
                except OSError:
                    pass
        shutil.rmtree(folder, ignore_errors=True)
    return not os.path.lexists(folder)


def sweep_stale() -> None:
    """Remove the folders of earlier probes of this user whose process is gone (killed before cleaning up)."""
    base = tempfile.gettempdir()
    try:
        entries = list(os.scandir(base))
    except OSError:
        return
    for entry in entries:
        pid = _owner_pid(entry.name)
        if pid is None or pid == os.getpid():
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if not entry.is_dir(follow_symlinks=False) or info.st_uid != os.getuid() or _alive(pid):
                continue
        except OSError:
            continue
        remove(entry.path)


def _owner_pid(name: str) -> int | None:
    if not name.startswith(PREFIX):
        return None
    digits = name[len(PREFIX):].split("-", 1)[0]
    return int(digits) if digits.isascii() and digits.isdigit() else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
