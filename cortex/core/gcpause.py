"""Core: the garbage collector paused while a command starts (cortex.cli.main, health.cli.main) and while the corpus loader parses.

Loading a command creates tens of thousands of long-lived objects (modules, functions, classes,
records, catalogue entries) and hardly any garbage, yet the collector walks them again and
again while they appear: about 4 ms of a 60 ms audit. The entry point pauses collection, and
resumes it once the command's code is loaded, with everything that exists by then frozen out
of later collections (gc.freeze): the command's own work, however large, runs with the
collector on as usual. A hook that lives a tenth of a second and keeps little (`cortex recall`)
holds the collector off for its whole run instead (`with paused()`): what it makes is freed by
reference counting, and the collector's walks over it cost a warm recall ~17M instructions.
"""
from __future__ import annotations

import gc


def pause() -> None:
    gc.disable()


def resume() -> None:
    """Idempotent: the first call freezes what start-up created; later calls change nothing."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


class paused:  # noqa: N801 - used as a statement: `with paused():`
    """The collector off for a block that makes many objects and no reference cycle (a corpus's records: strings,
    tuples, lists, dicts of them; a short-lived hook's whole answer), back on after it as it was (an in-process
    caller goes on as it was). Collecting every 700 new objects while 50,000 records appear is about a sixth of a
    corpus load; refcounting frees them either way."""

    __slots__ = ("enabled",)

    def __enter__(self) -> None:
        self.enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *_exc) -> None:
        if self.enabled:
            gc.enable()
