"""Prompt stage (stdlib only): render both hot-memory files as the <lifeos-memory> block; used by `cortex hot render`.

Runs before every prompt, so it reads exactly two small files with bounds, uses the shared
hot-memory parser (reader and writer never diverge) and renders entries only — no help
comments, no frontmatter. Any problem raises; the command turns that into silence.

  <lifeos-memory>
  ## PRINCIPAL MEMORY [n/48 entries · c/12288 chars]
  NAME: …
  ## DA MEMORY [n/48 entries · c/12288 chars]
  …
  </lifeos-memory>
"""
from __future__ import annotations

from cortex.errors import IntegrityError
from cortex.hot.hotinput import hot_text
from cortex.hot.hotmemory import CAP_CHARS, MAX_ENTRIES, MAX_HOT_FILE_BYTES, SECTIONS, read_diagnostics
from cortex.layout import Layout
from cortex.core.safeio import UnsafeFile, read_bounded



def _entries(layout: Layout, label: str) -> tuple[list[str], int]:
    path = layout.hot_file(label)
    shown = layout.display(path)
    try:
        data = read_bounded(path, MAX_HOT_FILE_BYTES)
    except FileNotFoundError:
        raise IntegrityError(f"{shown} does not exist (run `cortex init`)").at(file=path, rule="missing") from None
    except (UnsafeFile, OSError) as error:
        raise IntegrityError(f"{shown} is not readable: {error}").at(file=path, rule="unreadable") from None
    try:
        text = hot_text(data, shown)
    except UnicodeDecodeError:
        raise IntegrityError(f"{shown} is not valid UTF-8").at(file=path, rule="utf8") from None
    except IntegrityError as error:  # control characters: where the file is, the message says what
        raise error.at(file=path) from None
    diagnostics = read_diagnostics(text)
    return diagnostics["entries"], diagnostics["chars_used"]


def render_memory(layout: Layout) -> str:
    sections = []
    for label, title in SECTIONS:
        entries, chars = _entries(layout, label)
        header = f"## {title} [{len(entries)}/{MAX_ENTRIES} entries · {chars}/{CAP_CHARS} chars]"
        sections.append("\n".join([header, *entries]))
    return "<lifeos-memory>\n" + "\n\n".join(sections) + "\n</lifeos-memory>\n"
