"""bench/bench_search.py: its --help works and its corpus generator is deterministic and within bounds.

The numbers themselves are measured by running the script, never by timed tests.
"""
from __future__ import annotations

import importlib.util
import json

from cortex.core.corpus import enumerate_canonical_corpus
from tests.bench_support import bench_help, bench_script

SCRIPT = bench_script("bench_search")


def load_script():
    spec = importlib.util.spec_from_file_location("bench_search", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_help_describes_the_script():
    out = bench_help("bench_search")
    assert "--sizes" in out and "--typographic-share" in out and "peak resident set size" in out


def test_generated_corpus_is_deterministic_valid_and_200_to_800_words(tmp_path):
    bench = load_script()
    bench.generate(tmp_path / "a", 60, seed=3, typographic_share=0.5)
    bench.generate(tmp_path / "b", 60, seed=3, typographic_share=0.5)
    files = sorted(p.name for p in (tmp_path / "a" / "KNOWLEDGE").iterdir())
    assert files == ["notes-0000.jsonl"]
    assert (tmp_path / "a" / "KNOWLEDGE" / files[0]).read_bytes() == (tmp_path / "b" / "KNOWLEDGE" / files[0]).read_bytes()
    records = enumerate_canonical_corpus(str(tmp_path / "a")).records
    assert len(records) == 60
    for record in records:
        words = len(record.content.split(" "))
        assert 200 <= words <= 800 + 4  # typographic insertions add at most four
    assert any(not record.content.isascii() for record in records)
    labels = bench.labels_for(60, seed=3)
    assert all(len(label["expected_ids"]) == 3 for label in labels)
    known = {record.id for record in records}
    assert all(set(label["expected_ids"]) <= known for label in labels)
    assert json.loads(json.dumps(labels)) == labels
