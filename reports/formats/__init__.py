"""Report stage: the output-format registry. Called by the CLI to list and load formats.

A format is a module in this package exposing

    render(report, out, *, tty=False, verbose=False, environ=None)

where `report` is the frozen, typed reports.report.Report the run built once (or
reports.report.from_document built from a stored line), `out` a text stream, `tty` whether
it is a terminal, `verbose` the -v flag and `environ` the environment mapping (for formats
such as `github` that write beside stdout); a format ignores what it does not use. A format
reads everything from the report: each finding's catalogue entry (`finding.entry`: check
key, meaning, fix, threshold name, collector) is already joined, the clock is `now_ms`
(integer milliseconds), the order of severities is reports.severity, and the plain JSON
data is `report.document()`. So a format never imports health.judge.catalogue, never parses a
timestamp and keeps no severity order of its own (tests/reports/test_report_value.py checks). Its module
name is the `--format` value, except where FORMAT_MODULES maps a name that is not a valid
module name (`health+json` → health_json.py, `otlp-json` → otlp_json.py). A format may also
define `render_live(report, out, *, layout, environ, stderr)`, which the CLI calls instead
after a run of its own (otlp-json: what only a live run has, the memory operations since its
cursor). Modules are listed without importing them
and only the chosen one is imported, so adding a format is a one-file change and costs the
others nothing. importlib is not imported (__import__ does its work here): the status line imports
`reports.formats.statusline` and the audit its format, and neither pays for it. The package folder is listed with
os.scandir rather than pkgutil.iter_modules, which imports inspect (with ast, dis and
tokenize: about 4 ms of every run that parses a command line).
"""
from __future__ import annotations

# --format name → module name, where they differ
FORMAT_MODULES = {"health+json": "health_json", "otlp-json": "otlp_json"}
_NAME_OF_MODULE = {module: name for name, module in FORMAT_MODULES.items()}


def names() -> list[str]:
    import os

    modules = (entry.name[:-3] for folder in __path__ for entry in os.scandir(folder) if entry.name.endswith(".py"))
    return sorted(_NAME_OF_MODULE.get(name, name) for name in modules if not name.startswith("_"))


def load(name: str):
    """The module of format `name` (a --format value); KeyError for an unknown one."""
    import sys

    if name not in names():
        raise KeyError(name)
    module = f"{__name__}.{FORMAT_MODULES.get(name, name)}"
    __import__(module)  # importlib.import_module's answer, without loading importlib (and warnings) for it
    return sys.modules[module]
