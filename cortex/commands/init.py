"""Setup command: `cortex init [--root ROOT]` creates a fresh, healthy memory root; registered with the CLI.

ROOT defaults to CLAUDE_CONFIG_DIR, else ~/.claude. Creates the layout the auditor reads:
ROOT/LIFEOS/MEMORY/{KNOWLEDGE,OBSERVABILITY,STATE}, the no-index-v1 policy marker, the two
hot files from the template, the reviewer's LIFEOS/USER/CONFIG/memory-review.json with its
documented defaults and an empty O/pending-proposals.jsonl. Never overwrites an
existing file: each file is created whole with link(), an existing one is reported as kept.
ROOT, LIFEOS, LIFEOS/MEMORY and LIFEOS/USER may be aliases (symlinks); below them nothing may be.
"""
from __future__ import annotations

import os

from cortex.core.durable import create_file
from cortex.errors import InvalidInput
from cortex.hot.hottemplate import template
from cortex.invocation import CommandSpec, Invocation
from cortex.rootshape import lifeos_folder_problem
from cortex.core.jsjson import dumps
from cortex.review.reviewdefaults import CONFIG_NAME, DEFAULT_CONFIG_TEXT
from cortex.layout import HOT_FILES, HOT_LABELS, INDEX_POLICY, INDEX_POLICY_FILE, KNOWLEDGE, Layout, OBSERVABILITY, PENDING_PROPOSALS_LOG, STATE
from cortex.core.safepaths import DIR_MODE, check_regular_or_absent, pin_tree, real_subdir
from cortex.core.timestamps import iso_from_ms


def claude_root(inv: Invocation) -> str:
    chosen = inv.option("--root") or inv.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(
        inv.environ.get("HOME") or os.path.expanduser("~"), ".claude")
    return os.path.abspath(os.path.expanduser(chosen))


def _create(path: str, data: bytes, layout: Layout, created: list, kept: list) -> None:
    if check_regular_or_absent(path):
        kept.append(layout.display(path))
        return
    try:
        create_file(path, data)
        created.append(layout.display(path))
    except FileExistsError:
        kept.append(layout.display(path))  # created concurrently: still never overwritten


def _top_level(path: str) -> str:
    os.makedirs(path, mode=DIR_MODE, exist_ok=True)  # aliases at this level are followed on purpose
    return pin_tree(path, what=os.path.basename(path))


def init(inv: Invocation) -> dict:
    if inv.positionals:
        raise InvalidInput("init accepts no positional arguments")
    if inv.option("--memory-root"):
        raise InvalidInput("init takes --root (the folder that holds LIFEOS), not --memory-root")
    root = claude_root(inv)
    nested = lifeos_folder_problem(root)  # `--root ~/.claude/LIFEOS` would create LIFEOS/LIFEOS/
    if nested:
        raise InvalidInput(nested + ("" if inv.option("--root") else " (the root came from CLAUDE_CONFIG_DIR)"))
    layout = Layout.from_claude_root(root)
    now_iso = iso_from_ms(inv.now_ms())
    memory = _top_level(layout.memory_root)
    for folder in (KNOWLEDGE, OBSERVABILITY, STATE):
        real_subdir(memory, (folder,), create=True)
    user = _top_level(layout.user)
    lifeos = pin_tree(layout.lifeos, what="LIFEOS")
    created: list[str] = []
    kept: list[str] = []
    policy = (dumps(INDEX_POLICY) + "\n").encode("utf-8")
    _create(os.path.join(lifeos, INDEX_POLICY_FILE), policy, layout, created, kept)
    for label in HOT_LABELS:
        _user, folder, file_name = HOT_FILES[label]
        directory = real_subdir(user, (folder,), create=True)
        _create(os.path.join(directory, file_name), template(label, now_iso).encode("utf-8"), layout, created, kept)
    config = real_subdir(user, ("CONFIG",), create=True)
    _create(os.path.join(config, CONFIG_NAME), DEFAULT_CONFIG_TEXT.encode("utf-8"), layout, created, kept)
    _create(os.path.join(memory, OBSERVABILITY, PENDING_PROPOSALS_LOG), b"", layout, created, kept)
    return {"root": layout.root, "memory_root": layout.memory_root, "created": created, "kept": kept}


COMMANDS = [CommandSpec("init", init, value_options=frozenset({"--root"}), usage="cortex init [--root DIR]",
                        option_help=(("--root DIR", "default: $CLAUDE_CONFIG_DIR, else ~/.claude"),),
                        example="cortex init --root ~/.claude")]
