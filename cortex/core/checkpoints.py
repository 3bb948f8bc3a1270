"""Write path (test seam): named points inside every durable write; called by durable, locks and writers.

Production never installs a hook, so `reached` is a no-op. The crash-proof tests run a real
writer process that installs one, stop it at each named point and SIGKILL it there, which
is how "a crash at any point leaves the old or the new file" is proven point by point.
"""
from __future__ import annotations

TYPE_CHECKING = False  # annotations only: collections.abc costs every hook's start-up ~0.4M instructions
if TYPE_CHECKING:
    from collections.abc import Callable  # not typing: 6 ms of start-up

_hook: Callable[[str], None] | None = None


def install(hook: Callable[[str], None] | None) -> None:
    global _hook
    _hook = hook


def reached(name: str) -> None:
    if _hook is not None:
        _hook(name)
