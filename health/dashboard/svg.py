"""Dashboard stage: small server-rendered SVG charts (time series against a threshold). Called by health.dashboard.pages.

Hand-written rather than a plotting library: the charts are a few polylines, dots, a dashed
threshold and labelled axes, which matplotlib or pygal would draw at the cost of a heavy
import (hundreds of ms per process), style attributes a strict Content-Security-Policy
blocks, or scripts; here every colour is a presentation attribute and every text passes
through html.escape. A value that was not measured is a gap, never a zero.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

WIDTH, HEIGHT = 560, 170
LEFT, RIGHT, TOP, BOTTOM = 64, 12, 22, 28
COLOURS = ("#1f6feb", "#d97706", "#b91c1c", "#15803d", "#7c3aed")


@dataclass(frozen=True)
class Series:
    name: str
    points: Sequence[tuple[float, float | None]]  # (time ms, value or None when not measured)
    colour: str = COLOURS[0]


def _ticks(low: float, high: float, unit: str) -> list[float]:
    if high <= low:
        return [low]
    step = (high - low) / 4
    if unit == "count":  # whole numbers only
        step = float(max(1, math.ceil(step)))
    return [low + step * i for i in range(5) if low + step * i <= high]


def _label(value: float, unit: str) -> str:
    if unit == "bytes":
        for size, name in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
            if abs(value) >= size:
                return f"{value / size:.1f} {name}"
        return f"{value:.0f} B"
    if unit == "hours":
        return f"{value:.1f} h"
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"


def _time_label(ms: float) -> str:
    from cortex.core.timestamps import iso_from_ms

    return iso_from_ms(int(ms))[5:16].replace("T", " ")


def chart(title: str, series: Sequence[Series], *, unit: str = "count", threshold: float | None = None,
          threshold_name: str = "threshold", y_labels: dict[float, str] | None = None, step: bool = False) -> str:
    """One chart as an <svg> element (role img, titled); empty data gives a chart saying so."""
    values = [v for s in series for _, v in s.points if v is not None]
    times = [t for s in series for t, v in s.points if v is not None]
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" viewBox="0 0 {WIDTH} {HEIGHT}" '
            f'width="{WIDTH}" height="{HEIGHT}" aria-label="{escape(title)}"><title>{escape(title)}</title>'
            f'<text x="{LEFT}" y="14" font-size="12" font-weight="bold" fill="#111">{escape(title)}</text>')
    if not values:
        return head + (f'<text x="{LEFT}" y="{HEIGHT // 2}" font-size="12" fill="#555">not measured in this '
                       f'window</text></svg>')
    low = min(0.0, *values)
    high = max(values + ([threshold] if threshold is not None else []) + [1.0])
    start, end = min(times), max(times)
    span, plot_w, plot_h = (end - start) or 1.0, WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(t: float) -> float:
        return LEFT + (t - start) / span * plot_w if end > start else LEFT + plot_w / 2

    def y(v: float) -> float:
        return TOP + plot_h - (v - low) / ((high - low) or 1.0) * plot_h

    parts = [head, f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{LEFT + plot_w}" y2="{TOP + plot_h}" stroke="#999"/>']
    for tick in (list(y_labels) if y_labels else _ticks(low, high, unit)):
        text = y_labels[tick] if y_labels else _label(tick, unit)
        parts.append(f'<line x1="{LEFT}" y1="{y(tick):.1f}" x2="{LEFT + plot_w}" y2="{y(tick):.1f}" stroke="#eee"/>'
                     f'<text x="{LEFT - 4}" y="{y(tick) + 4:.1f}" font-size="10" text-anchor="end" fill="#555">'
                     f'{escape(text)}</text>')
    parts.append(f'<text x="{LEFT}" y="{HEIGHT - 8}" font-size="10" fill="#555">{escape(_time_label(start))}</text>'
                 f'<text x="{LEFT + plot_w}" y="{HEIGHT - 8}" font-size="10" text-anchor="end" fill="#555">'
                 f'{escape(_time_label(end))}</text>')
    if threshold is not None:
        parts.append(f'<line class="threshold" x1="{LEFT}" y1="{y(threshold):.1f}" x2="{LEFT + plot_w}" '
                     f'y2="{y(threshold):.1f}" stroke="#b91c1c" stroke-dasharray="5 4"/>'
                     f'<text x="{LEFT + plot_w}" y="{y(threshold) - 3:.1f}" font-size="10" text-anchor="end" '
                     f'fill="#b91c1c">{escape(threshold_name)} {escape(_label(threshold, unit))}</text>')
    for index, item in enumerate(series):
        parts.append(_polylines(item, x, y, step))
        parts.append(f'<text x="{LEFT + 8 + index * 110}" y="{TOP + 10}" font-size="10" fill="{item.colour}">'
                     f'{escape(item.name)}</text>')
    return "".join(parts) + "</svg>"


def _polylines(item: Series, x, y, step: bool) -> str:
    """One polyline per run of measured points (a gap where a value is missing), dots when a run is one point."""
    runs: list[list[tuple[float, float]]] = [[]]
    for t, v in sorted(item.points, key=lambda point: point[0]):  # time order, whatever the log order
        if v is None:
            if runs[-1]:
                runs.append([])
            continue
        if step and runs[-1]:
            runs[-1].append((x(t), runs[-1][-1][1]))
        runs[-1].append((x(t), y(v)))
    out = []
    for run in runs:
        if len(run) == 1:
            out.append(f'<circle cx="{run[0][0]:.1f}" cy="{run[0][1]:.1f}" r="2.5" fill="{item.colour}"/>')
        elif run:
            coords = " ".join(f"{px:.1f},{py:.1f}" for px, py in run)
            out.append(f'<polyline class="series" points="{coords}" fill="none" stroke="{item.colour}" '
                       f'stroke-width="1.5"/>')
    return "".join(out)
