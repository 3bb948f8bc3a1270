"""Inputs: the audit's "now", resolved once from --now, CORTEX_HEALTH_NOW or real time. Used by health.run and health.gate.

--now wins over CORTEX_HEALTH_NOW; both use the strict timestamp grammar. An unparseable
value is kept as a problem (the evaluator reports `cortex-clock-invalid`) and real time is
used so every other check still runs: no age comparison is ever silently switched off.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from cortex.timestamps import GRAMMAR, now_ms, parse_timestamp_ms

ENV_NOW = "CORTEX_HEALTH_NOW"


@dataclass(frozen=True)
class Clock:
    now_ms: int
    source: str  # cli | env | system
    given: str | None = None  # the raw value that was supplied
    problem: str | None = None  # set when `given` was unusable and real time was used


def resolve_clock(cli_now: str | None, environ: Mapping[str, str], system: Callable[[], int] = now_ms) -> Clock:
    for source, given in (("cli", cli_now), ("env", environ.get(ENV_NOW))):
        if given is None:
            continue
        parsed = parse_timestamp_ms(given)
        if parsed is None:
            origin = "--now" if source == "cli" else ENV_NOW
            return Clock(system(), source, given[:200],
                         f"{origin} is not a valid timestamp ({GRAMMAR})")
        return Clock(parsed, source, given)
    return Clock(system(), "system")
