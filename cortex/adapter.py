"""Adapter API (called by harness integrations): `create_cortex_adapter(name)`, the in-process Cortex per identity.

The returned object is immutable. status/search/timeline/get/export are read-only.
remember/propose write only when that one call passes exactly `allow_write=True` (the
object `True`, not a truthy value); naming the adapter grants nothing, and any other
option refuses the call (write_refused, exit 5) before anything is touched. Every method
runs the same contract as the CLI and returns (exit code, envelope).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Mapping

from cortex.envelope_data import failure
from cortex.invocation import ADAPTERS


def _invalid(command: str, message: str) -> tuple[int, dict]:
    return 4, failure(command, "invalid_input", message)


def _serialised(item: object) -> str | None:
    try:
        return json.dumps(item, allow_nan=False, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return None


@dataclass(frozen=True, slots=True)
class CortexAdapter:
    name: str
    memory_root: str | None = None
    environ: Mapping[str, str] | None = None

    def _run(self, args: list[str]) -> tuple[int, dict]:
        from cortex.cli import run

        return run(args + ["--adapter", self.name], environ=self.environ, memory_root=self.memory_root)

    def _read(self, command: str, *args: object, options: tuple[str, ...] = ()) -> tuple[int, dict]:
        if not all(isinstance(arg, str) for arg in args):
            return _invalid(command, "Adapter read arguments must be strings")
        if any(arg.startswith("--") for arg in args):
            return _invalid(command, "Adapter read arguments must not look like options")  # no option smuggling
        return self._run([command, *options, *args])

    def status(self) -> tuple[int, dict]:
        return self._read("status")

    def search(self, query: str) -> tuple[int, dict]:
        return self._read("search", query)

    def timeline(self, anchor: str) -> tuple[int, dict]:
        return self._read("timeline", anchor, options=("--anchor",))

    def get(self, *ids: str) -> tuple[int, dict]:
        return self._read("get", *ids)

    def export(self, *ids: str) -> tuple[int, dict]:
        return self._read("export", *ids)

    def remember(self, item: object, **options: object) -> tuple[int, dict]:
        return self._write("remember", item, options)

    def propose(self, item: object, **options: object) -> tuple[int, dict]:
        return self._write("propose", item, options)

    def _write(self, command: str, item: object, options: dict) -> tuple[int, dict]:
        if set(options) != {"allow_write"} or options["allow_write"] is not True:
            return 5, failure(command, "write_refused", "Adapter writes require exactly allow_write=True on the call")
        payload = _serialised(item)
        if payload is None:
            return _invalid(command, "Adapter input must be JSON-serializable (finite numbers, string keys)")
        return self._run([command, payload, "--allow-write"])


def create_cortex_adapter(
    name: str, *, memory_root: str | None = None, environ: Mapping[str, str] | None = None
) -> CortexAdapter:
    """The immutable in-process adapter for one recognised identity."""
    if name not in ADAPTERS:
        raise ValueError(f"adapter must be one of: {', '.join(ADAPTERS)}")
    return CortexAdapter(name, memory_root, environ)
