"""Core command `cortex benchmark`: the labeled retrieval benchmark; registered in cortex.commands, run by cortex.cli.

    cortex benchmark --labels FILE [--memory-root DIR] [--output PATH] [--samples N] [--top-k K]
                     [--min-score S] [--min-share F]   (the recall hook's floor, as for `cortex recall`)

The report (`lifeos-cortex-benchmark/v1`) is the envelope's `data`: stdout keeps the
one-envelope-per-call contract every `cortex` command has, so callers read exit code +
envelope as for any other command, and failures are ordinary envelopes. `--output` writes
the same report, bare, to MEMORY/BENCHMARKS/ (see cortex.benchmark.output).
"""
from __future__ import annotations

import json
import re
import sys

from cortex.benchmark.assemble import RunContext, build_report, qualified
from cortex.benchmark.instruments import ProcessProbe, file_bytes, tree_bytes
from cortex.benchmark.labels import check_ids_exist, read_labels
from cortex.benchmark.output import memory_directory, plan_output, write_new_report
from cortex.benchmark.progress import progress_bar
from cortex.benchmark.recallhook import injections
from cortex.benchmark.recallhook import report as recall_report
from cortex.benchmark.runner import TokenizerMeter, run_samples
from cortex.commands.read import QUERY_CHARS, QUERY_TERMS
from cortex.core.corpus import enumerate_canonical_corpus, pin_canonical_root
from cortex.core.digest import canonical_corpus_digest
from cortex.errors import InvalidInput
from cortex.invocation import CommandSpec, Invocation
from cortex.core.records import active_records
from cortex.core.relevance import floor_from
from cortex.core.search import rank_bm25, to_card
from cortex.core.timestamps import iso_from_ms, now_ms
from cortex.core.tokenize import ascii_terms, prepare, terms

DEFAULT_SAMPLES = 25
MAX_SAMPLES = 1000
DEFAULT_TOP_K = 5
MAX_TOP_K = 100  # the search page-size cap: a page can never disclose more
_COUNT = re.compile(r"[1-9][0-9]{0,5}\Z")


def _count(inv: Invocation, option: str, default: int, high: int) -> int:
    raw = inv.option(option)
    if raw is None:
        return default
    if not _COUNT.match(raw) or int(raw) > high:
        raise InvalidInput(f"{option} must be an integer from 1 to {high} (got {raw!r})")
    return int(raw)


def _command_line(inv: Invocation) -> list[str]:
    """The invocation as typed: benchmark takes options only, kept in the order given."""
    words = ["cortex", inv.command]
    for name, value in inv.options.items():
        words.extend([name] if value is True else [name, value])
    return words


def benchmark(inv: Invocation) -> dict:
    if inv.positionals:
        raise InvalidInput("benchmark accepts no positional arguments")
    labels_path = inv.option("--labels")
    if not labels_path:
        raise InvalidInput("benchmark requires --labels FILE")
    samples = _count(inv, "--samples", DEFAULT_SAMPLES, MAX_SAMPLES)
    top_k = _count(inv, "--top-k", DEFAULT_TOP_K, MAX_TOP_K)
    # Refuse a bad --output before any work: a refusal must cost nothing and write nothing.
    memory_dir = memory_directory(pin_canonical_root(inv.requested_memory_root()))
    output_value = inv.option("--output")
    output_path = plan_output(output_value, memory_dir) if output_value else None
    label_set = read_labels(labels_path, tokenizer=terms, max_query_chars=QUERY_CHARS, max_query_terms=QUERY_TERMS)
    corpus = inv.corpus()
    check_ids_exist(label_set, (record.id for record in corpus.records))
    now = inv.now_ms()
    prepare()  # lazy Unicode tables are built now, outside every timed ranking
    production, reference = TokenizerMeter("unicode-cjk-bigram", terms), TokenizerMeter("ascii", ascii_terms)
    probe = ProcessProbe()
    disk_before = tree_bytes(memory_dir)
    total = samples * len(label_set.labels)
    with progress_bar(sys.stderr, total, "cortex benchmark") as advance:
        measured = run_samples(
            corpus.records, label_set.labels, now_ms=now, samples=samples, top_k=top_k,
            production=production, reference=reference, probe=probe, advance=advance,
        )
    disk_growth = tree_bytes(memory_dir) - disk_before
    floor = floor_from(inv.options, inv.environ)
    recall_ids = injections(corpus.records, label_set.labels, now_ms=now, top_k=top_k, floor=floor)
    context = RunContext(
        command=_command_line(inv),
        generated_at=iso_from_ms(now_ms()),
        validity_at=iso_from_ms(now),
        samples=samples,
        top_k=top_k,
        corpus=corpus,
        memory_dir=memory_dir,
        active_records=len(active_records(corpus.records, now)),
        corpus_digest=canonical_corpus_digest(corpus.records),
        labels=label_set,
        output_path=output_path,
        recall_hook=recall_report(label_set.labels, *recall_ids, floor),
        recall_ids=recall_ids,
        production_paths={
            "loader": qualified(enumerate_canonical_corpus),
            "validity": qualified(active_records),
            "ranker": qualified(rank_bm25),
            "card_builder": qualified(to_card),
            "tokenizer": qualified(terms),
            "digest": qualified(canonical_corpus_digest),
        },
    )
    report = build_report(context, measured, probe, file_bytes(corpus.files), disk_growth)
    if output_value:
        write_new_report(output_value, memory_dir, json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    return report


COMMANDS = [
    CommandSpec(
        "benchmark",
        benchmark,
        value_options=frozenset({"--labels", "--output", "--samples", "--top-k", "--min-score", "--min-share"}),
        usage="cortex benchmark --labels FILE [--output PATH] [--samples N] [--top-k K] [--min-score S] [--min-share F]",
        option_help=(("--labels FILE", "JSONL rows {query, expected_ids, expected_order?, false_ids?}"),
                     ("--output PATH", "also write the report under MEMORY/BENCHMARKS/ (never overwrites)"),
                     ("--samples N (1-1000, default 25) --top-k K (1-100, default 5)", ""),
                     ("--min-score S --min-share F", "the recall hook's floor (as `cortex recall`; data.recall_hook\n"
                                                     "compares what the hook injects with and without it)")),
        example="cortex benchmark --labels fixtures/cjk/MEMORY/BENCHMARKS/cortex-retrieval-cjk-v1.jsonl "
                "--memory-root fixtures/cjk/MEMORY",
    )
]
