"""Report stage: human units for measured values and thresholds (ms, bytes, count).

Used by the text format, the verbose hints and `cortex-health explain`. Stdlib only;
human_ms is the rules' own (reports.vocabulary), so messages and tables agree.
"""
from __future__ import annotations

from cortex.core.numbers import finite_number
from reports.vocabulary import human_ms

TYPE_CHECKING = False  # typing costs a text run ~2 ms; Any is only an annotation
if TYPE_CHECKING:
    from typing import Any

__all__ = ["human_bytes", "human_ms", "human_value", "threshold_value"]


def human_bytes(size: float) -> str:
    for factor, unit in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if size >= factor:
            return f"{size / factor:.1f} {unit}"
    return f"{int(size)} B"


def human_value(value: Any, unit: str | None) -> str:
    if value is None:
        return ""
    if unit == "ms" and finite_number(value):
        return human_ms(value)
    if unit == "bytes" and finite_number(value):
        return human_bytes(value)
    return str(value)


def threshold_value(value: Any, unit: str | None) -> str:
    """A threshold in both forms, the short one first: `2h (7200000 ms)`, `256MiB (268435456 bytes)`, `46`."""
    from thresholds.quantities import both_forms

    if not finite_number(value):
        return str(value)
    return both_forms(value, unit or "count")
