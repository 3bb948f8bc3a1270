"""Core CLI plumbing: is the root a command was given the folder it names? Used by cortex.invocation, init and the writers.

--root names the .claude folder that holds LIFEOS/, --memory-root the LIFEOS/MEMORY folder; a
folder of the other kind given in their place is refused (or explained) saying what to pass.
"""
from __future__ import annotations

import os

from cortex.errors import IntegrityError
from cortex.layout import KNOWLEDGE, LIFEOS, MEMORY_PARTS, OBSERVABILITY


def _claude_folder_message(memory_root: str) -> str | None:
    if not os.path.isdir(os.path.join(memory_root, *MEMORY_PARTS)):
        return None
    return (f"{memory_root} looks like a .claude folder, not a memory root (it holds LIFEOS/MEMORY): use --root "
            f"{memory_root} or --memory-root {os.path.join(memory_root, *MEMORY_PARTS)}")


def explained(error: IntegrityError, memory_root: str) -> IntegrityError:
    """The same error, saying so when the memory root is really a .claude folder (evidence logs read as corpus)."""
    message = _claude_folder_message(memory_root)
    return error if message is None else IntegrityError(f"{message} ({error.message})")


def lifeos_folder_problem(root: str) -> str | None:
    """Why `root`, given as --root, is (inside) a LIFEOS tree rather than the folder that holds one, or None."""
    parts = os.path.normpath(root).split(os.sep)
    for index in range(len(parts) - 1, 0, -1):
        tree = os.sep.join(parts[:index + 1])
        # the folder itself named LIFEOS, or below a LIFEOS folder that holds a tree (MEMORY/ or USER/)
        if parts[index] == LIFEOS and (index == len(parts) - 1 or any(
                os.path.isdir(os.path.join(tree, name)) for name in (MEMORY_PARTS[1], "USER"))):
            holder = os.sep.join(parts[:index]) or os.sep
            return (f"{root} is {'a' if index == len(parts) - 1 else 'inside a'} {LIFEOS} folder; --root names "
                    f"the folder that holds {LIFEOS}/ (the .claude folder): use --root {holder}")
    return None


def refuse_memory_root_as_root(root: str) -> None:
    """--root names the .claude folder; a LIFEOS/MEMORY folder given there is integrity_error saying what to pass."""
    if os.path.isdir(os.path.join(root, LIFEOS)):
        return
    if os.path.basename(os.path.normpath(root)) == LIFEOS:  # LIFEOS itself: its memory is one level down
        raise IntegrityError(f"{root} is a {LIFEOS} folder, not a .claude folder: use --root "
                             f"{os.path.dirname(os.path.normpath(root))} or --memory-root "
                             f"{os.path.join(root, *MEMORY_PARTS[1:])}")
    if any(os.path.isdir(os.path.join(root, name)) for name in (KNOWLEDGE, OBSERVABILITY)):
        claude = os.path.dirname(os.path.dirname(root))
        raise IntegrityError(f"{root} looks like a memory root (LIFEOS/MEMORY), not a .claude folder: use "
                             f"--memory-root {root} or --root {claude}")


def refuse_claude_folder(memory_root: str) -> None:
    """Writers: a .claude folder (no OBSERVABILITY of its own) given as the memory root is integrity_error saying what to pass."""
    message = _claude_folder_message(memory_root)
    if message is not None and not os.path.isdir(os.path.join(memory_root, OBSERVABILITY)):
        raise IntegrityError(message)
