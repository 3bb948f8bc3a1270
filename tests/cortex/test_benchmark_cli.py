"""`cortex benchmark` through the real CLI: the report in the envelope, its schema, counters, errors and output rules."""
from __future__ import annotations

import hashlib
import importlib
import json
import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from cortex.core.corpus import enumerate_canonical_corpus
from cortex.core.digest import canonical_corpus_digest
from cortex.schemas import HERE, generated, render
from tests.cortex_helpers import ROOT, base_env, cortex, jsonl, row

NOW = "2026-06-01T00:00:00Z"
DEMO = ROOT / "fixtures" / "bench-demo" / "MEMORY"
DEMO_LABELS = DEMO / "BENCHMARKS" / "cortex-retrieval-v1.jsonl"
CJK = ROOT / "fixtures" / "cjk" / "MEMORY"
CJK_LABELS = CJK / "BENCHMARKS" / "cortex-retrieval-cjk-v1.jsonl"
REPORT_SCHEMA = json.loads((HERE / "lifeos-cortex-benchmark-v1.schema.json").read_text(encoding="utf-8"))
REPORT = jsonschema.Draft202012Validator(REPORT_SCHEMA)


def bench(*args: str, cwd=None):
    return cortex("benchmark", *args, env=base_env(CORTEX_NOW=NOW), cwd=cwd)


def tree(path: Path) -> dict[str, bytes]:
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def demo_report():
    code, envelope = bench("--labels", str(DEMO_LABELS), "--memory-root", str(DEMO), "--samples", "3")
    assert code == 0, envelope
    return envelope["data"]


def test_shipped_report_schema_is_generated_from_the_models():
    assert render(generated()["lifeos-cortex-benchmark-v1.schema.json"]) == (HERE / "lifeos-cortex-benchmark-v1.schema.json").read_text()


def test_report_is_the_envelope_data_and_matches_the_published_schema(demo_report):
    REPORT.validate(demo_report)
    assert demo_report["schema"] == "lifeos-cortex-benchmark/v1"
    assert demo_report["vector_config"] is None
    assert (demo_report["top_k"], demo_report["samples"]) == (5, 3)
    assert demo_report["validity_at"] == "2026-06-01T00:00:00.000Z"


def test_both_configurations_share_one_ranking(demo_report):
    labels = demo_report["labels"]
    baseline, progressive = demo_report["configs"]
    assert (baseline["name"], baseline["execution_path"]) == ("bm25-baseline", "rank-full-records")
    assert (progressive["name"], progressive["execution_path"]) == ("progressive", "rank-cards-expand-selected")
    for key in ("recall_at_k", "mrr", "temporal_accuracy", "false_recall", "ranking_runs", "corpus_tokenizations"):
        assert baseline[key] == progressive[key], key
    for config in (baseline, progressive):
        assert len(config["latency_samples_ms"]) == labels * 3
        assert config["p95_latency_ms"] in config["latency_samples_ms"]
        assert config["shared_ranking"] is True
    # The cards page + one full record injects less than five full records on real notes.
    assert progressive["injected_tokens"] < baseline["injected_tokens"]
    assert demo_report["progressive_token_reduction"] == pytest.approx(1 - progressive["injected_tokens"] / baseline["injected_tokens"], abs=1e-6)
    assert sum(q["injected_tokens_progressive"] for q in demo_report["queries"]) == progressive["injected_tokens"]


def test_counters_show_exactly_one_corpus_tokenization_per_ranking(demo_report):
    labels, active = demo_report["labels"], demo_report["corpus"]["active_records"]
    m = demo_report["measurements"]
    assert m["ranking_runs"] == labels * 3
    assert m["query_tokenizations"] == labels * 3
    assert m["record_tokenizations"] == labels * 3 * active
    assert m["corpus_tokenizations"] == labels * 3
    assert demo_report["configs"][0]["ranking_runs"] == m["ranking_runs"]
    assert active == demo_report["corpus"]["records"] - 1  # the superseded USB-backup decision has expired


def test_process_and_disk_measurements(demo_report):
    for config in demo_report["configs"]:
        assert config["disk_growth_bytes"] == 0
        assert config["descendant_processes"] == 0
        assert config["peak_rss_bytes"] > 10 * 1024 * 1024
        assert config["corpus_disk_bytes"] == sum(p.stat().st_size for p in (DEMO / "KNOWLEDGE").rglob("*") if p.is_file())
    assert demo_report["corpus"]["disk_bytes"] == demo_report["configs"][0]["corpus_disk_bytes"]


def test_quality_metrics_agree_with_the_per_query_rows(demo_report):
    queries = demo_report["queries"]
    config = demo_report["configs"][0]
    assert config["recall_at_k"] == pytest.approx(sum(q["recall_at_k"] for q in queries) / len(queries))
    assert config["mrr"] == pytest.approx(sum(q["reciprocal_rank"] for q in queries) / len(queries))
    ordered = [q["temporal_accuracy"] for q in queries if q["temporal_accuracy"] is not None]
    assert len(ordered) == 2 and config["temporal_accuracy"] == pytest.approx(sum(ordered) / 2)
    assert config["false_recall"] == 0  # the expired record is never recalled: validity is applied
    for q in queries:
        assert len(q["returned_ids"]) <= 5
        assert q["line"] >= 1


def test_provenance_names_the_production_functions_and_digests(demo_report):
    provenance = demo_report["provenance"]
    records = enumerate_canonical_corpus(str(DEMO)).records
    assert provenance["corpus_digest"] == canonical_corpus_digest(records)
    assert provenance["labels_digest"] == hashlib.sha256(DEMO_LABELS.read_bytes()).hexdigest()
    assert provenance["labels_path"] == str(DEMO_LABELS)
    assert provenance["command"] == ["cortex", "benchmark", "--labels", str(DEMO_LABELS), "--memory-root", str(DEMO), "--samples", "3"]
    assert provenance["output_path"] is None
    expected = {"loader": "cortex.core.corpus.enumerate_canonical_corpus", "validity": "cortex.core.records.active_records",
                "ranker": "cortex.core.search.rank_bm25", "card_builder": "cortex.core.search.to_card",
                "tokenizer": "cortex.core.tokenize.unicode_terms", "digest": "cortex.core.digest.canonical_corpus_digest"}
    assert provenance["production"] == expected
    for dotted in list(expected.values()) + list(provenance["disclosure_paths"].values()):
        module, name = dotted.rsplit(".", 1)
        assert callable(getattr(importlib.import_module(module), name))
    # The command ranks through its corpus: rank_bm25 itself without a cache; the search cache's
    # postings ranker gives the same answers (tests/cortex/test_search_cache_properties.py).
    rank_bm25 = importlib.import_module("cortex.core.search").rank_bm25
    corpus = enumerate_canonical_corpus(str(DEMO))
    assert corpus.rank(corpus.rows, "memory review") == rank_bm25(corpus.records, "memory review") != []


def test_cjk_set_recall_is_zero_under_ascii_and_at_least_point_nine_under_unicode():
    code, envelope = bench("--labels", str(CJK_LABELS), "--memory-root", str(CJK), "--samples", "1")
    assert code == 0, envelope
    report = envelope["data"]
    production, ascii_run = report["tokenizers"]
    assert (production["name"], production["production"]) == ("unicode-cjk-bigram", True)
    assert (ascii_run["name"], ascii_run["production"]) == ("ascii", False)
    assert ascii_run["recall_at_k"] == 0
    assert production["recall_at_k"] >= 0.9
    assert report["configs"][0]["recall_at_k"] == production["recall_at_k"]
    assert ascii_run["queries_without_terms"] == report["labels"]
    chinese = [q for q in report["queries"] if q["id"].startswith("zh-")]
    assert len(chinese) >= 15
    records = enumerate_canonical_corpus(str(CJK)).records
    assert sum(1 for r in records if r.id.startswith("zh-")) >= 30


def test_top_k_and_samples_are_honoured(tmp_path):
    code, envelope = bench("--labels", str(DEMO_LABELS), "--memory-root", str(DEMO), "--samples", "2", "--top-k", "1")
    assert code == 0
    report = envelope["data"]
    assert report["top_k"] == 1 and report["measurements"]["latency_samples_per_query"] == 2
    assert all(len(q["returned_ids"]) <= 1 for q in report["queries"])
    assert len(report["configs"][1]["latency_samples_ms"]) == 2 * report["labels"]


@pytest.fixture
def memory(tmp_path):
    root = tmp_path / "MEMORY"
    shutil.copytree(DEMO, root)
    return root


def test_output_writes_the_same_report_and_never_overwrites(memory):
    target = memory / "BENCHMARKS" / "cortex-benchmark-v1-20260601.json"
    labels = str(memory / "BENCHMARKS" / "cortex-retrieval-v1.jsonl")
    code, envelope = bench("--labels", labels, "--memory-root", str(memory), "--samples", "1", "--output", str(target))
    assert code == 0
    written = target.read_bytes()
    assert json.loads(written) == envelope["data"]
    assert envelope["data"]["provenance"]["output_path"] == str(target)
    REPORT.validate(json.loads(written))
    code, envelope = bench("--labels", labels, "--memory-root", str(memory), "--samples", "1", "--output", str(target))
    assert (code, envelope["error"]["code"], envelope["data"]) == (4, "invalid_input", None)
    assert "already exists" in envelope["error"]["message"]
    assert target.read_bytes() == written


def test_output_creates_benchmarks_directory_and_accepts_relative_paths(tmp_path):
    memory = tmp_path / "M"
    jsonl(memory / "KNOWLEDGE" / "a.jsonl", row("a", "fox"), row("b", "dog"))
    (tmp_path / "labels.jsonl").write_text(json.dumps({"query": "fox", "expected_ids": ["a"]}) + "\n")
    code, envelope = bench("--labels", "labels.jsonl", "--memory-root", "M", "--samples", "1",
                           "--output", "M/BENCHMARKS/nightly/cortex-benchmark-v2-run.1.json", cwd=tmp_path)
    assert code == 0, envelope
    assert json.loads((memory / "BENCHMARKS" / "nightly" / "cortex-benchmark-v2-run.1.json").read_text()) == envelope["data"]


@pytest.mark.parametrize("relative, problem", [
    ("KNOWLEDGE/cortex-benchmark-v1-x.json", "must resolve under"),
    ("BENCHMARKS/../cortex-benchmark-v1-x.json", "must resolve under"),
    ("cortex-benchmark-v1-x.json", "must resolve under"),
    ("BENCHMARKS/report.json", "file name must look like"),
    ("BENCHMARKS/cortex-benchmark-1-x.json", "file name must look like"),
    ("BENCHMARKS/cortex-benchmark-v1-x.jsonl", "file name must look like"),
    ("BENCHMARKS/cortex-benchmark-v1-.json", "file name must look like"),
    ("BENCHMARKS/cortex-benchmark-vN-x.json", "file name must look like"),
])
def test_output_rules_refuse_with_exit_4_and_write_nothing(memory, tmp_path, relative, problem):
    before = tree(tmp_path)
    code, envelope = bench("--labels", str(DEMO_LABELS), "--memory-root", str(memory), "--output", str(memory / relative))
    assert (code, envelope["error"]["code"]) == (4, "invalid_input")
    assert problem in envelope["error"]["message"]
    assert tree(tmp_path) == before


def test_output_outside_the_root_and_through_symlinks_is_refused(memory, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    before = tree(tmp_path)
    code, envelope = bench("--labels", str(DEMO_LABELS), "--memory-root", str(memory),
                           "--output", str(outside / "cortex-benchmark-v1-x.json"))
    assert code == 4 and "must resolve under" in envelope["error"]["message"]
    (memory / "BENCHMARKS" / "escape").symlink_to(outside)
    code, envelope = bench("--labels", str(DEMO_LABELS), "--memory-root", str(memory),
                           "--output", str(memory / "BENCHMARKS" / "escape" / "cortex-benchmark-v1-x.json"))
    assert code == 4 and "must resolve under" in envelope["error"]["message"]
    (memory / "BENCHMARKS" / "escape").unlink()
    dangling = memory / "BENCHMARKS" / "cortex-benchmark-v1-link.json"
    dangling.symlink_to(outside / "target.json")
    code, envelope = bench("--labels", str(DEMO_LABELS), "--memory-root", str(memory), "--output", str(dangling))
    assert code == 4 and "already exists" in envelope["error"]["message"]
    dangling.unlink()
    assert tree(tmp_path) == before


def test_a_symlinked_benchmarks_directory_is_refused(tmp_path):
    memory = tmp_path / "M"
    jsonl(memory / "KNOWLEDGE" / "a.jsonl", row("a", "fox"))
    (tmp_path / "real").mkdir()
    (memory / "BENCHMARKS").symlink_to(tmp_path / "real")
    (tmp_path / "labels.jsonl").write_text(json.dumps({"query": "fox", "expected_ids": ["a"]}) + "\n")
    code, envelope = bench("--labels", str(tmp_path / "labels.jsonl"), "--memory-root", str(memory),
                           "--output", str(memory / "BENCHMARKS" / "cortex-benchmark-v1-x.json"))
    assert (code, envelope["error"]["message"]) == (4, f"--output refused: {memory / 'BENCHMARKS'} is a symlink")
    assert list((tmp_path / "real").iterdir()) == []


def test_a_bad_labels_row_is_a_clear_error_naming_its_line(tmp_path):
    labels = tmp_path / "labels.jsonl"
    labels.write_text(json.dumps({"query": "fox", "expected_ids": ["r1"]}) + "\n" + '{"query": "fox", "expected_ids": "r1"}\n')
    code, envelope = bench("--labels", str(labels), "--memory-root", str(DEMO))
    assert (code, envelope["ok"], envelope["data"]) == (4, False, None)
    assert envelope["error"] == {"code": "invalid_input", "message": f"Invalid labels file {labels}, line 2: expected_ids must be a non-empty list of record IDs"}


def test_labels_naming_unknown_records_are_refused(tmp_path):
    labels = tmp_path / "labels.jsonl"
    labels.write_text(json.dumps({"query": "fox", "expected_ids": ["pref-coffee", "nope"]}) + "\n")
    code, envelope = bench("--labels", str(labels), "--memory-root", str(DEMO))
    assert code == 4 and envelope["error"]["message"].endswith("line 1: expected_ids names IDs not in the corpus: nope")


@pytest.mark.parametrize("args, message", [
    ([], "benchmark requires --labels FILE"),
    (["--labels", str(DEMO_LABELS), "extra"], "benchmark accepts no positional arguments"),
    (["--labels", str(DEMO_LABELS), "--samples", "0"], "--samples must be an integer from 1 to 1000 (got '0')"),
    (["--labels", str(DEMO_LABELS), "--samples", "1001"], "--samples must be an integer from 1 to 1000 (got '1001')"),
    (["--labels", str(DEMO_LABELS), "--samples", "2.5"], "--samples must be an integer from 1 to 1000 (got '2.5')"),
    (["--labels", str(DEMO_LABELS), "--top-k", "101"], "--top-k must be an integer from 1 to 100 (got '101')"),
    (["--labels", str(DEMO_LABELS), "--top-k", "01"], "--top-k must be an integer from 1 to 100 (got '01')"),
    (["--labels", str(DEMO_LABELS), "--page", "1"], "Unknown option for benchmark: --page"),
    (["--labels", str(DEMO_LABELS), "--labels", str(DEMO_LABELS)], "Duplicate option: --labels"),
])
def test_invalid_invocations(args, message):
    code, envelope = cortex("benchmark", *args, "--memory-root", str(DEMO), env=base_env(CORTEX_NOW=NOW))
    assert (code, envelope["error"]) == (4, {"code": "invalid_input", "message": message})


def test_corpus_integrity_failure_is_integrity_error(tmp_path):
    memory = tmp_path / "M"
    (memory / "KNOWLEDGE").mkdir(parents=True)
    (memory / "KNOWLEDGE" / "bad.jsonl").write_text("{not json}\n")
    labels = tmp_path / "labels.jsonl"
    labels.write_text(json.dumps({"query": "fox", "expected_ids": ["a"]}) + "\n")
    code, envelope = bench("--labels", str(labels), "--memory-root", str(memory))
    assert (code, envelope["error"]["code"]) == (4, "integrity_error")


def test_progress_bar_only_when_stderr_is_a_terminal():
    # Not a terminal: cortex() already asserts stderr is empty; here stderr is a pseudo-terminal.
    controller, terminal = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "cortex", "benchmark", "--labels", str(DEMO_LABELS), "--memory-root", str(DEMO), "--samples", "2"],
        stdout=subprocess.PIPE, stderr=terminal, env=base_env(CORTEX_NOW=NOW, TERM="xterm", COLUMNS="100"),
    )
    os.close(terminal)
    drawn = b""
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        drawn += chunk
    stdout, _ = proc.communicate(timeout=120)
    os.close(controller)
    assert proc.returncode == 0
    assert b"cortex benchmark" in drawn
    lines = stdout.decode().split("\n")
    assert len(lines) == 2 and json.loads(lines[0])["ok"] is True


def test_importing_the_command_imports_no_heavy_dependency():
    # Every `cortex` call imports every command module; the benchmark's heavy imports wait until it runs.
    code = (
        "import sys, cortex.commands.benchmark;"
        "print(sorted(m for m in ('rich', 'psutil', 'pydantic') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
