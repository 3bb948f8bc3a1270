"""Inputs: the audit's "now", resolved once from --now, CORTEX_HEALTH_NOW or real time. Used by health.run and health.gate.

--now wins over CORTEX_HEALTH_NOW; both use the strict timestamp grammar. An unparseable
value is kept as a problem (the evaluator reports `cortex-clock-invalid`) and real time is
used so every other check still runs: no age comparison is ever silently switched off.
"""
from __future__ import annotations

from cortex.core.timestamps import now_ms
from thresholds.clocksource import ENV_NOW, supplied_now  # noqa: F401  (ENV_NOW re-exported)

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping


class Clock:
    """The audit's now.

    now_ms: int; source: str (cli | env | system); given: str | None (the raw value that was supplied);
    problem: str | None (set when `given` was unusable and real time was used).
    """

    __slots__ = ("now_ms", "source", "given", "problem")

    def __init__(self, now_ms, source, given=None, problem=None) -> None:
        self.now_ms, self.source, self.given, self.problem = now_ms, source, given, problem


def resolve_clock(cli_now: str | None, environ: Mapping[str, str], system: Callable[[], int] = now_ms) -> Clock:
    supplied = supplied_now(cli_now, environ)  # the one rule, shared with the status line
    if supplied is None:
        return Clock(system(), "system")
    source, given, parsed, problem = supplied
    if parsed is None:
        return Clock(system(), source, given[:200], problem)
    return Clock(parsed, source, given)


def stamp_ms(cli_now: str | None, environ: Mapping[str, str]) -> int:
    """The injected clock's now, else the system's: for the report printed when the audit cannot run, whatever
    else is broken (an unreadable --now included)."""
    try:
        return resolve_clock(cli_now, environ).now_ms
    except Exception:  # noqa: BLE001
        return now_ms()
