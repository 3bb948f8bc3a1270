#!/usr/bin/env python3
"""Bench: the cost of the privacy boundary per call (fast path, HTML-like text, tags, non-ASCII text).

Run by hand (not by the test suite): `python bench/bench_privacy.py --help`. Prints the
median microseconds per strip_private_content call for each kind of text, and the cost of
parsing one JSONL record row (which strips every decoded string).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cortex.core import jsonlrows  # noqa: E402
from cortex.core.privacy import strip_private_content  # noqa: E402

TEXTS = {
    "title, no tag (fast path)": "Weekly review of the backup pipeline",
    "2 KB prose, no tag (fast path)": "We reviewed the nightly backup and the flaky deployment. " * 36,
    "2 KB CJK prose, no tag": "我们检查了夜间备份和不稳定的部署。" * 120,
    "340 chars HTML-like (40 '<')": "<!-- note --> a <b>bold</b> text " * 10,
    "2 KB with 10 private spans": ("public words <private>secret words</private> " * 10) + "x" * 1500,
    "full-width opener": "public ＜private＞secret",
}


def per_call_us(function, repeat: int, number: int) -> float:
    return statistics.median(timeit.repeat(function, repeat=repeat, number=number)) / number * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=20_000, help="calls per timing (default: 20000)")
    parser.add_argument("--repeat", type=int, default=5, help="timings; the median is printed (default: 5)")
    args = parser.parse_args(argv)
    for name, text in TEXTS.items():
        print(f"{per_call_us(lambda: strip_private_content(text), args.repeat, args.number):9.3f} us  {name}")
    row = json.dumps({"id": "r1", "type": "memory", "title": "Weekly review", "created": "2026-01-01T00:00:00Z",
                      "updated": "2026-01-01T00:00:00Z", "source": "canonical", "related": ["a", "b"],
                      "content": "We reviewed the nightly backup. " * 20})
    print(f"{per_call_us(lambda: jsonlrows.jsonl_row(row, 'r.jsonl', 1), args.repeat, args.number // 4):9.3f} us  "
          "one JSONL record row parsed (every decoded string stripped)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
