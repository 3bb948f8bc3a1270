"""Report stage format `text`: a readable rich table (severity, id, message, measured vs threshold).

Chosen by the CLI on a terminal or with --format text. rich is imported here only. Without
a terminal the table is plain text at a fixed width (120, or COLUMNS), which the golden-file
tests compare; a report without findings is then written without rich (plain_lines) when its
lines are plain ASCII that rich would print unchanged. A finding id is never wrapped (it is what a user pastes into `explain`); below
120 columns the empty Measured/Threshold columns are dropped; -v lines and the ok: list wrap at
word boundaries with a hanging indent.
With -v every finding also gets its evidence, its threshold and source, and the fix from
the finding's catalogue entry (reports.hints), the same text `cortex-health explain ID` prints.
"""
from __future__ import annotations

from collections.abc import Mapping

from reports.report import Report
from reports.units import human_bytes, human_value
from reports.severity import worst_first

TYPE_CHECKING = False  # typing costs a text run ~2 ms; TextIO is only an annotation
if TYPE_CHECKING:
    from typing import TextIO

__all__ = ["human_bytes", "human_value", "render"]

STYLE = {"critical": "bold red", "warn": "yellow", "ok": "green", "unknown": "magenta"}
PLAIN_WIDTH = 120
MIN_MESSAGE = 24  # narrower than this, the findings are a list instead of a table


def finding_rows(report: Report) -> list[tuple[str, str, str, str, str]]:
    rows = []
    for item in worst_first(report.findings):
        unit = item.detail.get("unit")
        rows.append((item.severity, item.id, item.message, human_value(item.detail.get("measured"), unit),
                     human_value(item.detail.get("threshold"), unit)))
    return rows


def findings_table(rows: list[tuple[str, str, str, str, str]], width: int = PLAIN_WIDTH):
    """The table, or None when the ids (never wrapped) leave the message less than MIN_MESSAGE columns."""
    from rich.table import Table
    from rich.text import Text

    columns = ["Severity", "ID", "Message", "Measured", "Threshold"]
    keep = [i for i in range(5) if i < 3 or width >= PLAIN_WIDTH or any(row[i] for row in rows)]
    fixed = sum(max([len(columns[i])] + [len(row[i]) for row in rows]) + 3 for i in keep if i != 2) + 4
    if width - fixed < MIN_MESSAGE:
        return None
    table = Table(show_lines=False, expand=False)
    for i in keep:  # only the message wraps
        table.add_column(columns[i], no_wrap=i != 2, overflow="fold")
    for row in rows:
        # Text, not markup: messages quote file content and may contain brackets.
        cells = [Text(row[0].upper(), style=STYLE[row[0]]), *(Text(value) for value in row[1:])]
        table.add_row(*(cells[i] for i in keep))
    return table


def finding_list(rows: list[tuple[str, str, str, str, str]], width: int) -> list[tuple[str, str]]:
    """The narrow layout: `SEVERITY id` on its own line, the message (and measured vs threshold) below it."""
    lines = []
    for severity, finding_id, message, measured, threshold in rows:
        lines.append((f"{severity.upper()} {finding_id}", STYLE[severity]))  # a line of its own: never wrapped
        limits = ", ".join(part for part in (measured and f"measured {measured}",
                                             threshold and f"threshold {threshold}") if part)
        lines.append((wrapped("  " + message + (f" ({limits})" if limits else ""), width, 2), ""))
    return lines


KEEP = "\ue000"  # stands for a space inside an id while wrapping (textwrap never breaks at it)


def whole(finding_id: str) -> str:
    return finding_id.replace(" ", KEEP)


def wrapped(line: str, width: int, indent: int) -> str:
    """`line` wrapped at word boundaries to `width`, continuation lines indented by `indent` (ids stay whole)."""
    import textwrap

    return textwrap.fill(line, width=max(width, indent + 20), subsequent_indent=" " * indent,
                         break_long_words=False, break_on_hyphens=False).replace(KEEP, " ")


def plain_width(environ: Mapping[str, str] | None) -> int:
    """COLUMNS when it is a sane ASCII number (a narrow pipe, the tests), else PLAIN_WIDTH."""
    from cortex.core.numbers import ascii_int

    given = ascii_int((environ or {}).get("COLUMNS", "").strip(), 40, 1000)
    return given or PLAIN_WIDTH


def plain_lines(report: Report, width: int) -> list[str] | None:
    """What render prints without a terminal for a report with no findings, read without rich (its import is most
    of a text run: about 150M instructions): each line as rich prints it when it is printable ASCII without markup
    and none rich would wrap. None for anything else (findings, a long or unusual line), which rich renders."""
    if report.findings:
        return None
    overall = report.overall
    header = f"cortex-health {overall.upper()}  {_tally(report)}"  # render's markup, without colour
    unwrapped = [header, _root_line(report), _nothing_found(overall)]
    wrapped_lines = _listed(report, width)  # printed with soft_wrap: never wrapped by rich
    last = [f"reason: {report.reason}"] if report.reason else []
    if any("[" in part or "\\" in part for part in (overall, str(report.ts))) or \
            not all(_plain(line) and len(line) < width for line in unwrapped + last) or \
            not all(part.isascii() and part.isprintable() for line in wrapped_lines for part in line.split("\n")):
        return None
    return unwrapped + wrapped_lines + last


def _tally(report: Report) -> str:
    counts = report.counts
    return f"critical {counts.critical}, warn {counts.warn}, ok {counts.ok}  at {report.ts}"


def _root_line(report: Report) -> str:
    return f"root: {report.root or '(not resolved)'}"


def _nothing_found(overall: str) -> str:
    """The line of a report without findings: an unknown verdict found nothing because it could not look."""
    return "No problems found." if overall == "ok" else \
        "Nothing was checked: the verdict is unknown (see the reason below)."


def _listed(report: Report, width: int) -> list[str]:
    """The skipped and ok lists, each wrapped with a hanging indent (printed as they are)."""
    lines = []
    if report.skipped:
        lines.append(wrapped("skipped (not checked): " + ", ".join(report.skipped), width, 4))
    if report.ok_summary:
        lines.append(wrapped("ok: " + ", ".join(map(whole, report.ok_summary)), width, 4))
    return lines


def _plain(line: str) -> bool:
    """Printable ASCII without a leading or trailing space (which rich's wrapping could treat otherwise)."""
    return line.isascii() and line.isprintable() and line == line.strip()


def render(report: Report, out: TextIO, *, tty: bool = False, verbose: bool = False,
           environ: Mapping[str, str] | None = None) -> None:
    lines = None if tty or verbose else plain_lines(report, plain_width(environ))
    if lines is not None:
        out.write("".join(line + "\n" for line in lines))
    else:
        render_rich(report, out, tty=tty, verbose=verbose, environ=environ)


def render_rich(report: Report, out: TextIO, *, tty: bool = False, verbose: bool = False,
                environ: Mapping[str, str] | None = None) -> None:
    from rich.console import Console

    console = Console(file=out, force_terminal=tty, color_system="auto" if tty else None,
                      width=None if tty else plain_width(environ), highlight=False, emoji=False)
    width = console.width
    overall = report.overall
    console.print(f"cortex-health [{STYLE.get(overall, 'bold')}]{overall.upper()}[/]  {_tally(report)}", markup=True)
    console.print(_root_line(report), markup=False)
    if report.findings:
        rows = finding_rows(report)
        table = findings_table(rows, width)
        if table is not None:
            console.print(table)
        else:
            for line, style in finding_list(rows, width):
                console.print(line, style=style or None, markup=False, soft_wrap=True)
    else:
        console.print(_nothing_found(overall), markup=False)
    if verbose:
        from reports.hints import finding_block

        for item in worst_first(report.findings):
            console.print("", markup=False)
            for number, line in enumerate(finding_block(item, report)):
                line = line.replace(item.id, whole(item.id), 1) if number == 0 else line
                indent = 2 if number == 0 else len(line) - len(line.lstrip()) + 11  # under the text after `fix:`
                console.print(wrapped(line, width, indent), markup=False, soft_wrap=True)
    for line in _listed(report, width):
        console.print(line, markup=False, soft_wrap=True)
    if report.reason:
        console.print(f"reason: {report.reason}", markup=False)
