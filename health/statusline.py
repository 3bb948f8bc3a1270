"""Status-line command (`cortex-health statusline`): one line from the newest published report. Called by health.cli.

The fast path: standard library only (no rich, pydantic or psutil; a test checks
sys.modules), never reads stdin, always exits 0 with exactly one line. It
reads the newest report from the end of O/memory-health.jsonl (collectors.healthlog.read), makes it
the typed report (reports.report.from_document, without the catalogue: one line shows ids
only) and marks it stale past --max-age, by the report's integer now_ms. A bad --now /
CORTEX_HEALTH_NOW shows the cortex-clock-invalid state, as the check reports it. --refresh
runs the check first in a child process bounded by --timeout. Also runnable as a script
(`python3 -I -S .../health/statusline.py`), which skips site-packages start-up entirely:
`--print-command` prints that command line. It runs through the one base (health.commands.base)
but keeps its own small parser: argparse alone (with the re, gettext and shutil it imports) costs
more than the rest of the line's start-up, which agents pay at every prompt.
"""
from __future__ import annotations

import os
import sys

if __name__ == "__main__":  # run as a script: make the packages beside health/ importable, shadow nothing
    _HERE = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
    sys.path.insert(0, os.path.dirname(_HERE))

from collectors.readers.paths import health_log_path, resolve_root  # noqa: E402
from cortex.core.numbers import ascii_decimal  # noqa: E402
from cortex.core.safeio import write_quietly  # noqa: E402
from health.commands.base import Call, Command, UsageError  # noqa: E402
from reports.formats.statusline import line  # noqa: E402
from reports.report import from_document  # noqa: E402
from thresholds.clocksource import supplied_now  # noqa: E402

DEFAULT_MAX_AGE_MS = 30 * 60_000
DEFAULT_TIMEOUT_S = 10.0
UNITS_MS = {"s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}
VALUED = ("--root", "--now", "--max-age", "--timeout", "--prefix")
SWITCHES = ("--refresh", "--ascii", "--print-command", "--help", "-h")
HELP = """usage: cortex-health statusline [--root ROOT] [--max-age DURATION] [--now TIME] [--refresh [--timeout S]]
                                [--ascii] [--prefix TEXT] [--print-command]

Print one line about the newest published health report (ROOT/LIFEOS/MEMORY/OBSERVABILITY/memory-health.jsonl), e.g.
`mem ✓ ok 4m`. Always exits 0 and never reads stdin.

  --root ROOT        audited ROOT (default: CORTEX_HEALTH_ROOT, CLAUDE_CONFIG_DIR, ~/.claude)
  --max-age DURATION a report older than this is stale: 90s, 30m (default), 2h, 1d, or seconds
  --now TIME         the clock (default: CORTEX_HEALTH_NOW, else real time)
  --refresh          run the check (and publish it) first, within --timeout seconds (default 10)
  --ascii            ASCII marks (+ ! x ?) instead of ✓ ▲ ✖ ?
  --prefix TEXT      the word in front (default: mem)
  --print-command    print the fastest command line for these options (python -I -S, no site-packages)
"""


def parse_args(argv: list[str]) -> dict[str, object]:
    options: dict[str, object] = {}
    items = list(argv)
    while items:
        item = items.pop(0)
        name, sep, value = item.partition("=")
        if name in VALUED:
            if not sep:
                if not items:
                    raise UsageError(f"{name} needs a value")
                value = items.pop(0)
            if name in options:
                raise UsageError(f"{name} given twice")
            options[name] = value
        elif item in SWITCHES:
            options[item] = True
        else:
            raise UsageError(f"unknown argument {item!r}")
    return options


def duration_ms(text: str, name: str) -> int:
    text = text.strip()
    scale = UNITS_MS.get(text[-1:], None)
    number = text[:-1] if scale else text
    parsed = ascii_decimal(number)
    if parsed is None:
        raise UsageError(f"{name}: expected a duration like 90s, 30m, 2h or 1d, got {text!r}")
    value = parsed * (scale or 1000)
    if not value > 0 or value == float("inf"):
        raise UsageError(f"{name}: must be greater than 0, got {text!r}")
    return int(value)


# A bad clock is the cortex-clock-invalid finding on every path; on one line that is its state.
CLOCK_INVALID = {"overall": "critical", "counts": {"critical": 1},
                 "findings": [{"id": "cortex-clock-invalid", "severity": "critical"}]}


def wall_clock_ms() -> int:
    import time

    return int(time.time() * 1000)


def refreshed(root: str, options: dict[str, object], environ) -> tuple[dict | None, str | None]:
    """Run the check in a child (which publishes as usual); its report, or why there is none."""
    import json
    import subprocess

    timeout = duration_ms(str(options.get("--timeout", DEFAULT_TIMEOUT_S)), "--timeout") / 1000
    argv = [sys.executable, "-m", "health", "--root", root, "--format", "json"]
    if "--now" in options:
        argv += ["--now", str(options["--now"])]
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              timeout=timeout, env=dict(environ), cwd=os.path.dirname(os.path.dirname(
                                  os.path.abspath(__file__))))
    except subprocess.TimeoutExpired:
        return None, f"refresh timed out after {timeout:g} s"
    except OSError as error:
        return None, f"refresh failed: {error.strerror or error}"
    try:
        return json.loads(done.stdout), None
    except ValueError:
        return None, f"refresh failed (exit {done.returncode})"


def fast_command(argv: list[str]) -> str:
    import shlex

    kept = [item for item in argv if item != "--print-command"]
    return " ".join(shlex.quote(part) for part in [sys.executable, "-I", "-S", os.path.abspath(__file__), *kept])


def status(options: dict[str, object], environ) -> str:
    prefix = str(options.get("--prefix", "mem"))
    ascii_marks = bool(options.get("--ascii"))
    max_age = duration_ms(str(options["--max-age"]), "--max-age") if "--max-age" in options else DEFAULT_MAX_AGE_MS
    supplied = supplied_now(options.get("--now"), environ)  # the check's own rule (thresholds.clock)
    if supplied is not None and supplied[2] is None and not options.get("--refresh"):  # a refresh reports it itself
        return line(from_document(CLOCK_INVALID), ascii=ascii_marks, prefix=prefix)
    now = supplied[2] if supplied is not None and supplied[2] is not None else wall_clock_ms()
    root = resolve_root(options.get("--root"), environ)
    if not os.path.isdir(root):  # a typo in --root is not "no health run"
        return line(None, ascii=ascii_marks, prefix=prefix, problem=f"no such root {root}")
    if options.get("--refresh"):
        document, problem = refreshed(root, options, environ)
    else:
        from collectors.healthlog.read import newest_report

        document, problem = newest_report(health_log_path(root))
    report = None if document is None else from_document(document)
    age = None if report is None or report.now_ms is None else now - report.now_ms
    return line(report, age_ms=age, max_age_ms=max_age, ascii=ascii_marks, prefix=prefix, problem=problem)


class StatuslineCommand(Command):
    """Always 0 with exactly one line: a usage or internal error is a line too."""

    name = "statusline"
    help_text = HELP.rstrip("\n")

    def parse(self, call: Call) -> dict[str, object]:
        options = parse_args(call.argv)
        if "--help" in options or "-h" in options:
            self.show_help(call)
        return options

    def show_help(self, call: Call):
        write_quietly(call.stdout, self.help_text + "\n")
        raise SystemExit(0)

    def run(self, options: dict[str, object], call: Call) -> int:
        text = fast_command(call.argv) if "--print-command" in options else status(options, call.environ)
        write_quietly(call.stdout, text + "\n")
        return 0

    def usage_error(self, message: str, call: Call) -> int:
        write_quietly(call.stdout, line(None, problem=f"usage: {message}") + "\n")
        return 0

    def internal_error(self, error: BaseException, call: Call) -> int:  # never a traceback, even on one line
        write_quietly(call.stdout, line(None, problem=f"internal error: {type(error).__name__}") + "\n")
        return 0


main = StatuslineCommand().main


if __name__ == "__main__":
    sys.exit(main())
