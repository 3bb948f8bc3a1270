"""Write path: the closed allow-list of files a proposal may target, per kind; used by cortex.write.proposals.

Paths are relative to LIFEOS. A proposal's target_file is normalised (`~/…`, an absolute
path inside this LIFEOS, `LIFEOS/…` or `USER/…`) and then pinned, as the reference does:
a single-file kind always gets its one canonical file (a hallucinated path cannot mis-file
the edit); the identity kind must name one of its two files; anything else is refused.
Stored target_file values are ROOT-relative, e.g. LIFEOS/USER/PRINCIPAL/PRINCIPAL_IDENTITY.md.
"""
from __future__ import annotations

import os
import posixpath
from types import MappingProxyType

from cortex.layout import Layout
from cortex.write.refusals import Refusal

PROPOSAL_TARGETS = MappingProxyType({
    "identity": ("USER/PRINCIPAL/PRINCIPAL_IDENTITY.md", "USER/DIGITAL_ASSISTANT/DA_IDENTITY.md"),
    "style": ("USER/PRINCIPAL/WRITINGSTYLE.md",),
    "definition": ("USER/DEFINITIONS.md",),
    "canonical-content": ("USER/CANONICAL_CONTENT.md",),
    "resume": ("USER/PRINCIPAL/RESUME.md",),
    "operational-rule": ("USER/CONFIG/OPERATIONAL_RULES.md",),
    "projects": ("USER/PROJECTS.md",),
    "contacts": ("USER/CONTACTS.md",),
})


def lifeos_relative(layout: Layout, supplied: str) -> str | None:
    """The supplied path relative to LIFEOS (posix form), or None when it points elsewhere."""
    path = supplied
    if path == "~" or path.startswith("~/"):
        path = os.path.expanduser(path)
    if os.path.isabs(path):
        relative = os.path.relpath(os.path.normpath(path), layout.lifeos)
        if relative.startswith(".."):
            return None
        path = relative.replace(os.sep, "/")
    path = posixpath.normpath(path)
    if path.startswith("LIFEOS/"):
        path = path[len("LIFEOS/"):]
    if path.startswith("../") or path == "..":
        return None
    return path


def infer_kind(relative: str | None) -> str | None:
    return next((kind for kind, files in PROPOSAL_TARGETS.items() if relative in files), None)


def pin_target(layout: Layout, kind: str | None, supplied: str) -> tuple[str, str]:
    """(kind, LIFEOS-relative file) for a proposal, or Refusal(EINVAL_ITEM)."""
    relative = lifeos_relative(layout, supplied)
    kind = kind or infer_kind(relative)
    if kind is None:
        raise Refusal("EINVAL_ITEM", "target_file is not a known proposal target and no target_kind was given")
    allowed = PROPOSAL_TARGETS[kind]
    if len(allowed) == 1:
        return kind, allowed[0]
    if relative in allowed:
        return kind, relative
    raise Refusal("EINVAL_ITEM", f"target_file is not an allowed {kind!r} target ({', '.join(allowed)})")


def stored_form(relative: str) -> str:
    return f"LIFEOS/{relative}"
