"""Agent-hook command helper: the gate's check, detached after the hook returns. Used by health.gate.

A Stop hook runs after every answer: the gate returns at once and its check runs in a forked
child that leaves the gate's session and its pipes (no standing process: it exits when the
check is done). One check per tree at a time: the gate takes an flock on the folder it
publishes to before it forks; the child inherits it and keeps it until it exits, and a gate
that finds it held starts nothing (the check running covers this Stop). The child judges as
`cortex-health gate --wait` does, deadline included, and records its failures the same way.
The gate hands its own judge and summary line in (this helper never imports health.gate back).
"""
from __future__ import annotations

import os
import sys

from health.runoptions import Options

TYPE_CHECKING = False  # typing costs the Stop hook milliseconds
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence


def publish_folder(options: Options, environ: Mapping[str, str]) -> str | None:
    """The folder the check publishes to (O of a LifeOS tree; else the root itself), or None when neither is one."""
    from collectors.readers.paths import health_log_path, resolve_root

    root = resolve_root(options.root, environ)
    for folder in (os.path.dirname(health_log_path(root)), os.path.abspath(os.path.expanduser(root))):
        if os.path.isdir(folder):
            return folder
    return None


def detach(argv: Sequence[str], environ: Mapping[str, str], options: Options, timeout: float, started: float,
           folder: str, judge: Callable, summary: Callable) -> str | None:
    """Start the check in a detached child holding the folder's lock (none when a check of this tree runs
    already); the newest published report's line, or None."""
    lock = _lock(folder)
    if lock is not None:
        for stream in (sys.stdout, sys.stderr):  # nothing buffered may be written twice
            try:
                stream.flush()
            except (AttributeError, OSError, ValueError):
                pass
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child leaves through os._exit; its effects are tested
            _detached(judge, argv, environ, options, timeout, started)
        os.close(lock)  # the child holds the lock (the same open file) until it exits
    return _newest_line(options, environ, summary)


def _lock(folder: str) -> int | None:
    """An exclusive flock on the publish folder (opened only to lock it), or None when it is held or cannot be taken."""
    from cortex.core.flocks import try_exclusive

    return try_exclusive(folder, os.O_RDONLY | os.O_DIRECTORY)


def _detached(judge: Callable, argv: Sequence[str], environ: Mapping[str, str], options: Options, timeout: float,
              started: float) -> None:
    code = 0
    try:
        os.setsid()  # a hook runner that kills the gate's process group does not end the check
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):  # the hook's pipes close now: the agent stops waiting
            os.dup2(null, fd)
        _message, failure, options = judge(argv, environ, options, timeout, started)
        if failure is not None:
            from health.gatefailures import record

            record(failure, options, environ)
    except BaseException:  # noqa: BLE001 - nothing to print to; the missing report is the evidence
        code = 1
    finally:
        os._exit(code)


def _newest_line(options: Options, environ: Mapping[str, str], summary: Callable) -> str | None:
    """The summary line of the newest report published for this root (None when ok, absent or unreadable)."""
    from collectors.readers.paths import health_log_path, resolve_root
    from collectors.healthlog.read import newest_report

    document, _problem = newest_report(health_log_path(resolve_root(options.root, environ)))
    return summary(document) if document is not None else None
