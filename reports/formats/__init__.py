"""Report stage: the output-format registry. Called by the CLI to list and load formats.

A format is a module in this package exposing `render(document, out, *, tty)`; its module
name is the `--format` value. Modules are listed without importing them and only the
chosen one is imported, so adding a format is a one-file change and costs nothing to the
others (the text format's rich import never touches the JSON path).
"""
from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType


def names() -> list[str]:
    return sorted(info.name for info in pkgutil.iter_modules(__path__) if not info.name.startswith("_"))


def load(name: str) -> ModuleType:
    if name not in names():
        raise KeyError(name)
    return importlib.import_module(f"{__name__}.{name}")
