"""Collect stage: the canonical corpus loaded exactly as `cortex search` and `cortex recall` load it. Called through health.checks.

Retrieval dies with one bad note: a duplicate id or an impossible date makes every search exit 4
and every recall print nothing. So the auditor loads the corpus in-process through the read
commands' own path (cortex.invocation.Invocation: the loader, its limits, its error mapping),
read-only, in the environment the hooks get (the settings' env over the auditor's): through
the search cache when one exists for this root (warm, that costs little; its trusted entries
are verified as for any read), else straight from the files, as an uncached read does (no
cache is created for it). An integrity error is kept with what it knows of its place (file,
line, field, rule: cortex.errors), never a value.
"""
from __future__ import annotations

import os
from collections import namedtuple

from collectors.agent_settings import hook_environment
from collectors.evidence import EvidenceStatus
from collectors.layout import Layout
from collectors.text import clip
from cortex.errors import CortexError
from cortex.searchcache.location import db_location


class CorpusEvidence(namedtuple(
        "CorpusEvidence", "status memory cached records files code message file line field rule",
        defaults=(False, None, None, None, None, None, None, None, None))):
    """status: EvidenceStatus (ok: loaded; malformed: refused; missing: no memory root); memory: str; cached: bool,
    loaded through the search cache; records, files: int | None; code, message: str | None, the error the read
    commands answer; file: str | None, the file at fault (absolute); line: int | None; field, rule: str | None.
    """

    __slots__ = ()


def _absolute(memory: str, file: str | None) -> str | None:
    return None if file is None else file if os.path.isabs(file) else os.path.join(memory, file)


def collect(layout: Layout) -> CorpusEvidence:
    from cortex.invocation import Invocation  # the read commands' own loading and error mapping

    if not os.path.isdir(layout.memory):
        return CorpusEvidence(EvidenceStatus.MISSING, layout.memory)  # memory-root-missing says it once
    environ = hook_environment(layout.settings.env, layout.environ)
    location = db_location(environ, layout.memory)
    cached = location is not None and os.path.isfile(location)
    reader = Invocation("search", {}, [], environ, memory_root_override=layout.memory)
    try:
        corpus = reader.read_corpus(index=False) if cached else reader.corpus()
        return CorpusEvidence(EvidenceStatus.OK, layout.memory, cached, len(corpus.rows), len(corpus.files))
    except CortexError as error:
        return CorpusEvidence(EvidenceStatus.MALFORMED, layout.memory, cached, code=error.code,
                              message=clip(error.message), file=clip(_absolute(layout.memory, error.file)),
                              line=error.line, field=clip(error.field), rule=error.rule)
    finally:
        reader.release()
