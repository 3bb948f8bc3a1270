"""Collect stage: where the audited tree keeps its evidence. Built by health.run, read by collectors.

ROOT is a LifeOS config directory; M = ROOT/LIFEOS/MEMORY, O = M/OBSERVABILITY. Every name
comes from cortex.layout (its Layout: the writers' own paths); this adds only the auditor's
choices (an explicit --index-manifest, absolute paths from ROOT) and the one reading of the
agent's settings.json and of the reviewer's memory-review.json that every collector of
the audit shares.
"""
from __future__ import annotations

import os

from collectors.readers.settings import SettingsFile, live_settings
from collectors.readers.jsonl import review_config
from collectors.readers.paths import HEALTH_LOG_NAME, resolve_root
from cortex import layout as contract
from cortex.core.namedtuples import namedtuple  # collections.namedtuple, without collections

from _collections_abc import mappingproxy as MappingProxyType  # types.MappingProxyType, without importing types (~0.6M)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["HEALTH_LOG_NAME", "Layout", "resolve_root"]


class _Once:
    """functools.cached_property, without functools (it imports collections: ~10M instructions an audit): the first
    read computes the value and keeps it in the instance's __dict__, where every later read finds it."""

    def __init__(self, compute) -> None:
        self.compute, self.__doc__ = compute, compute.__doc__

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.compute(instance)
        return value


_PATHS = 6  # root .. hot_files: what identifies a Layout (equality, hash, repr); environ and cursors do not


class Layout(namedtuple("Layout", "root memory observability policy manifest hot_files environ cursors now_ms name",
                        defaults=(MappingProxyType({}), None, None, None))):
    """The audited tree's paths, the auditor's environment and where its log cursors live.

    root, memory (M), observability (O), policy, manifest: str; hot_files: tuple[tuple[str, str], ...] of
    (label, path); environ: Mapping[str, str], the auditor's environment (PATH, HOME, subagent flags), injected,
    never read globally; cursors: str | None, the private folder of this tree's log cursors (collectors.readers.cursors),
    None reads every log in full; now_ms: int | None, the audit's clock, for a collector that measures over a
    window ending now (collectors.lifeos.hook_latency); name: str | None, the layout's name as its spec says (health.layouts),
    set by the audit's inputs. No __slots__: the cached readings below live in the instance's
    __dict__.
    """

    # Equality, hash and repr leave out environ (it may hold secrets, and a dict cannot be hashed) and cursors.
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Layout) and self[:_PATHS] == other[:_PATHS]

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self[:_PATHS])

    def __repr__(self) -> str:
        return "Layout(" + ", ".join(f"{name}={value!r}" for name, value in zip(self._fields[:_PATHS], self)) + ")"

    @classmethod
    def for_root(cls, root: str, manifest: str | None = None, environ: Mapping[str, str] | None = None) -> "Layout":
        root = os.path.abspath(os.path.expanduser(root))
        core = contract.Layout.from_claude_root(root)  # the writers' own paths
        return cls(
            root=root,
            memory=core.memory_root,
            observability=core.observability,
            policy=core.index_policy,
            manifest=os.path.abspath(manifest) if manifest else core.index_manifest,
            hot_files=tuple((label, core.hot_file(label)) for label in contract.HOT_LABELS),
            environ=dict(environ or {}),
        )

    def evidence(self, name: str) -> str:
        """A file directly under O."""
        return os.path.join(self.observability, name)

    @_Once
    def settings(self) -> SettingsFile:
        """The effective ROOT/settings.json, parsed on first use and then shared: a Layout is built per audit,
        so install and heartbeats judge one reading of it."""
        return live_settings(self.root, self.environ)

    @_Once
    def hot_texts(self) -> dict:
        """Each hot file's path -> (its FileState, text, parse, validated entries; the last three None when it cannot
        be read), read once per audit: the hot_memory and hot_content collectors judge one reading of it
        (collectors.readers.hotfile)."""
        from collectors.readers.hotfile import read_hot_text  # the hot-memory parser: only the hot collectors need it

        return {path: read_hot_text(path) for _label, path in self.hot_files}

    @_Once
    def review_config(self) -> dict:
        """The reviewer's memory-review.json, read once per audit for every collector that consults it."""
        return review_config(self.root)

    @property
    def health_log(self) -> str:
        return self.evidence(HEALTH_LOG_NAME)

