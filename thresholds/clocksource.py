"""Inputs: which "now" was supplied (--now over CORTEX_HEALTH_NOW) and whether it parses; used by thresholds.clock and health.statusline.

Dataclass-free and stdlib only, because the status line's fast path imports it: one rule
for every path, with the problem text the cortex-clock-invalid finding carries.
"""
from __future__ import annotations

from cortex.core.timestamps import GRAMMAR, parse_timestamp_ms

ENV_NOW = "CORTEX_HEALTH_NOW"


def supplied_now(cli_now, environ) -> tuple[str, str, int | None, str | None] | None:
    """(source cli|env, the raw value, its milliseconds or None, the problem or None); None when no clock was given."""
    for source, given in (("cli", cli_now), ("env", environ.get(ENV_NOW))):
        if given is None:
            continue
        parsed = parse_timestamp_ms(given)
        if parsed is None:
            origin = "--now" if source == "cli" else ENV_NOW
            return source, given, None, f"{origin} is not a valid timestamp ({GRAMMAR})"
        return source, given, parsed, None
    return None
