#!/usr/bin/env python3
"""Bench: wall time and peak RSS of `cortex status|search|rebuild` on generated corpora, and `cortex benchmark` per-query latency.

Run by hand (not by the test suite): `python bench/bench_search.py --help`.

It generates deterministic corpora (seeded) of English memory records with 200-800-word
bodies, runs each command as a real subprocess several times, and prints the median wall
time and the peak resident set size of each (from wait4's rusage, so it is that child's
own peak). On the 1,500-record corpus it also runs `cortex benchmark` over generated labels
and prints its per-query latency and the ratio of the production (Unicode/CJK) tokenizer's
ranking time to the ASCII tokenizer's.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

GENERATOR_VERSION = 2  # bump when the generated text changes, so cached corpora are rebuilt
RECORDS_PER_FILE = 500  # JSONL files stay far below the 8 MiB per-file limit
LABELS = 20

SUBJECTS = ["I", "We", "The team", "Maria", "The on-call engineer", "The reviewer", "Our customer", "The agent",
            "Jonas", "The release manager", "The database", "The build", "My manager", "The new intern"]
VERBS = ["decided to move", "noticed", "rewrote", "measured", "reviewed", "postponed", "documented", "migrated",
         "fixed", "tested", "discussed", "benchmarked", "replaced", "simplified", "rolled back", "approved",
         "refactored", "deployed", "archived", "monitored", "questioned", "scheduled", "estimated", "split up"]
ADJECTIVES = ["slow", "flaky", "new", "old", "nightly", "shared", "private", "critical", "small", "expensive",
              "manual", "automatic", "local", "remote", "weekly", "noisy", "stale", "fragile", "reliable",
              "temporary", "legacy", "experimental", "quarterly", "encrypted", "incremental"]
NOUNS = ["backup", "deployment", "query", "index", "dashboard", "migration", "budget", "report", "meeting",
         "release", "pipeline", "cache", "alert", "schedule", "invoice", "roadmap", "test suite", "database",
         "service", "config", "checklist", "contract", "runbook", "incident", "review", "snapshot", "server",
         "laptop", "calendar", "proposal", "dependency", "workflow", "API", "certificate", "queue", "cluster"]
PREPOSITIONS = ["for", "after", "before", "during", "because of", "despite", "with", "without", "around", "behind"]
TIMES = ["on Monday", "last week", "yesterday", "this morning", "before the holidays", "in March", "at 02:00",
         "after lunch", "every Friday", "next quarter", "in the retro", "during the incident", "on the train"]
CONNECTIVES = ["However,", "Then", "Afterwards", "Meanwhile,", "In the end", "As a result,", "Later", "Also,",
               "Honestly,", "For the record,", "Next time", "To be safe,"]
FILLERS = ("the a of to and in that it is was for on with as at by this be are from or not have had but "
           "they we you all one there their what so up out if about who get which go me when make can like "
           "time no just him know take people into year your good some could them see other than then now "
           "look only come its over think also back use two how our work first well way even new want because "
           "any these give day most us").split()
TOPIC_WORDS = ("kestrel marigold halcyon tundra juniper obsidian saffron meridian quartz willow falcon "
               "cobalt lantern harbor summit cedar aurora ember glacier heron maple nimbus onyx pepper "
               "quill raven sable thistle umber vesper wren yarrow zephyr acorn basil cinder dune fjord").split()
TYPOGRAPHY = ["\u2014", "\u201cnoted\u201d", "it\u2019s", "caf\u00e9", "na\u00efve", "r\u00e9sum\u00e9", "\u2026", "co\u00f6perate"]


def sentence(rng: random.Random, topic_terms: list[str]) -> str:
    words = [rng.choice(SUBJECTS), rng.choice(VERBS), "the", rng.choice(ADJECTIVES), rng.choice(NOUNS)]
    if rng.random() < 0.6:
        words += [rng.choice(PREPOSITIONS), "the", rng.choice(ADJECTIVES), rng.choice(NOUNS)]
    if rng.random() < 0.5:
        words.append(rng.choice(TIMES))
    if rng.random() < 0.7:
        words += rng.choices(FILLERS, k=rng.randint(3, 9))
    if topic_terms and rng.random() < 0.25:
        words.insert(rng.randint(2, len(words)), rng.choice(topic_terms))
    text = " ".join(words)
    if rng.random() < 0.3:
        text = rng.choice(CONNECTIVES) + " " + text[0].lower() + text[1:]
    return text + rng.choice([".", ".", ".", "!", "?"])


def body(rng: random.Random, topic_terms: list[str], typographic: bool) -> str:
    target = 200 + int(600 * rng.betavariate(1.1, 2.9))  # 200-800 words, mean ~360 (fits 50,000 under 128 MiB)
    parts: list[str] = []
    count = 0
    while count < target:
        paragraph = " ".join(sentence(rng, topic_terms) for _ in range(rng.randint(3, 6)))
        parts.append(paragraph)
        count += len(paragraph.split())
    words = " ".join(parts).split(" ")[:target]
    if typographic:  # real notes carry em dashes, curly quotes and accented words
        for _ in range(rng.randint(1, 4)):
            words.insert(rng.randrange(len(words)), rng.choice(TYPOGRAPHY))
    return " ".join(words)


def topic_of(index: int) -> str:
    """Three records share each topic, so a label can expect all of them within the top 5."""
    first = TOPIC_WORDS[(index // 3) % len(TOPIC_WORDS)]
    second = TOPIC_WORDS[(index // 3 // len(TOPIC_WORDS)) % len(TOPIC_WORDS)]
    return f"{first}{second}"


def generate(directory: Path, records: int, seed: int, typographic_share: float) -> None:
    rng = random.Random(seed)
    knowledge = directory / "KNOWLEDGE"
    knowledge.mkdir(parents=True, exist_ok=True)
    handle = None
    for index in range(records):
        if index % RECORDS_PER_FILE == 0:
            if handle:
                handle.close()
            handle = open(knowledge / f"notes-{index // RECORDS_PER_FILE:04d}.jsonl", "w", encoding="utf-8")
        topic = topic_of(index)
        day = 1 + index % 28
        row = {
            "id": f"rec-{index:06d}",
            "type": rng.choice(["memory", "decision", "knowledge", "incident", "idea"]),
            "title": f"{topic.capitalize()} {rng.choice(NOUNS)} notes",
            "created": f"2025-{1 + index % 12:02d}-{day:02d}T09:00:00Z",
            "updated": f"2026-{1 + index % 5:02d}-{day:02d}T09:00:00Z",
            "source": rng.choice(["claude", "codex", "hermes"]),
            "content": body(rng, [topic], rng.random() < typographic_share),
        }
        handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    handle.close()


def labels_for(records: int, seed: int) -> list[dict]:
    rng = random.Random(seed + 1)
    topics = sorted({topic_of(i) for i in range(records)})
    labels = []
    for topic in rng.sample(topics, min(LABELS, len(topics))):
        ids = [f"rec-{i:06d}" for i in range(records) if topic_of(i) == topic]
        labels.append({"id": topic, "query": f"{topic} {rng.choice(NOUNS)} {rng.choice(ADJECTIVES)}", "expected_ids": ids})
    return labels


def corpus(workdir: Path, records: int, seed: int, typographic_share: float) -> Path:
    directory = workdir / f"corpus-{records}-s{seed}-t{typographic_share}-g{GENERATOR_VERSION}"
    done = directory / ".complete"
    if not done.exists():
        started = time.perf_counter()
        generate(directory, records, seed, typographic_share)
        done.write_text("ok\n")
        print(f"  generated {records:,} records in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return directory


def run_once(args: list[str], env: dict) -> tuple[float, int, str, int]:
    """(wall seconds, peak RSS bytes, stdout, exit code) of one child process."""
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "cortex", *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    proc.stdout.close()
    return wall, usage.ru_maxrss * 1024, out.decode("utf-8"), proc.returncode


def measure(name: str, args: list[str], env: dict, runs: int) -> dict:
    walls, peaks = [], []
    for _ in range(runs):
        wall, peak, out, code = run_once(args, env)
        if code != 0:
            raise SystemExit(f"{name} failed with exit {code}: {out[:500]}")
        walls.append(wall)
        peaks.append(peak)
    return {"command": name, "median_s": statistics.median(walls), "min_s": min(walls), "max_s": max(walls),
            "peak_rss_mib": max(peaks) / 2**20, "runs": runs}


def corpus_bytes(directory: Path) -> int:
    return sum(p.stat().st_size for p in (directory / "KNOWLEDGE").iterdir())


def bench_commands(directory: Path, records: int, runs: int, env: dict) -> list[dict]:
    root = ["--memory-root", str(directory)]
    rows = [measure("status", ["status", *root], env, runs)]
    for query in ("nightly backup migration", "kestrelmarigold deployment", "flaky test suite after the incident"):
        rows.append(measure(f"search '{query}'", ["search", query, *root], env, runs))
    rows.append(measure("rebuild --from-canonical", ["rebuild", "--from-canonical", *root], env, runs))
    return rows


def bench_benchmark(directory: Path, records: int, seed: int, samples: int, env: dict) -> dict:
    labels_path = directory / "bench-labels.jsonl"
    labels_path.write_text("".join(json.dumps(label) + "\n" for label in labels_for(records, seed)))
    wall, peak, out, code = run_once(
        ["benchmark", "--labels", str(labels_path), "--memory-root", str(directory), "--samples", str(samples)], env
    )
    if code != 0:
        raise SystemExit(f"benchmark failed with exit {code}: {out[:500]}")
    report = json.loads(out)["data"]
    production, ascii_run = report["tokenizers"]
    return {
        "wall_s": wall, "peak_rss_mib": peak / 2**20, "labels": report["labels"], "samples": samples,
        "configs": {c["name"]: {"median_ms": c["median_latency_ms"], "p95_ms": c["p95_latency_ms"],
                                "recall_at_k": c["recall_at_k"], "injected_tokens": c["injected_tokens"]}
                    for c in report["configs"]},
        "tokenizers": {t["name"]: {"median_ms": t["median_ranking_ms"], "mean_ms": t["mean_ranking_ms"],
                                   "p95_ms": t["p95_ranking_ms"], "recall_at_k": t["recall_at_k"]}
                       for t in (production, ascii_run)},
        "tokenizer_latency_ratio": report["tokenizer_latency_ratio"],
        "corpus_tokenizations": report["measurements"]["corpus_tokenizations"],
        "ranking_runs": report["measurements"]["ranking_runs"],
    }


def print_commands(records: int, size: int, rows: list[dict]) -> None:
    print(f"\n{records:,} records, {size / 2**20:.1f} MiB of canonical JSONL")
    print(f"  {'command':44} {'median':>9} {'min':>9} {'max':>9} {'peak RSS':>10}")
    for row in rows:
        print(f"  {row['command']:44} {row['median_s']:8.3f}s {row['min_s']:8.3f}s {row['max_s']:8.3f}s {row['peak_rss_mib']:8.1f}MiB")


def print_benchmark(result: dict) -> None:
    print(f"\ncortex benchmark, {result['labels']} labels x {result['samples']} samples "
          f"(wall {result['wall_s']:.1f} s, peak RSS {result['peak_rss_mib']:.1f} MiB)")
    for name, c in result["configs"].items():
        print(f"  {name:16} per-query median {c['median_ms']:8.2f} ms  p95 {c['p95_ms']:8.2f} ms  "
              f"recall@5 {c['recall_at_k']:.3f}  injected tokens {c['injected_tokens']}")
    for name, t in result["tokenizers"].items():
        print(f"  ranking with {name:19} median {t['median_ms']:8.2f} ms  mean {t['mean_ms']:8.2f} ms  p95 {t['p95_ms']:8.2f} ms")
    print(f"  tokenizer ratio (production / ascii, median ranking time): {result['tokenizer_latency_ratio']:.3f}")
    print(f"  ranking runs {result['ranking_runs']}, corpus tokenizations {result['corpus_tokenizations']:g}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--sizes", default="1500,50000", help="comma-separated corpus sizes in records (default: 1500,50000; at most 50000)")
    parser.add_argument("--runs", type=int, default=5, help="subprocess runs per command on corpora up to 5,000 records (default: 5)")
    parser.add_argument("--large-runs", type=int, default=3, help="runs per command on larger corpora (default: 3)")
    parser.add_argument("--samples", type=int, default=5, help="cortex benchmark --samples on the smallest corpus (default: 5)")
    parser.add_argument("--seed", type=int, default=7, help="generator seed (default: 7)")
    parser.add_argument("--typographic-share", type=float, default=0.2,
                        help="share of records with em dashes, curly quotes or accented words (default: 0.2; 0 = pure ASCII)")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/cortex-bench"), help="where corpora are generated and cached")
    parser.add_argument("--skip-benchmark", action="store_true", help="do not run cortex benchmark")
    parser.add_argument("--json", type=Path, help="also write all numbers to this JSON file")
    options = parser.parse_args(argv)
    sizes = sorted(int(size) for size in options.sizes.split(","))
    if any(size < 3 or size > 50_000 for size in sizes):
        parser.error("sizes must be between 3 and 50000 records (the canonical corpus limit)")
    env = {k: v for k, v in os.environ.items() if not k.startswith("CORTEX_")}
    env["CORTEX_NOW"] = "2026-06-01T00:00:00Z"
    env["CORTEX_CACHE"] = "off"  # the per-record path itself; bench_cache.py measures the search cache
    options.workdir.mkdir(parents=True, exist_ok=True)
    results: dict = {"python": sys.version.split()[0], "cpus": os.cpu_count(), "seed": options.seed,
                     "typographic_share": options.typographic_share, "corpora": {}}
    for records in sizes:
        directory = corpus(options.workdir, records, options.seed, options.typographic_share)
        runs = options.runs if records <= 5000 else options.large_runs
        rows = bench_commands(directory, records, runs, env)
        print_commands(records, corpus_bytes(directory), rows)
        results["corpora"][records] = {"bytes": corpus_bytes(directory), "commands": rows}
    if not options.skip_benchmark:
        directory = corpus(options.workdir, sizes[0], options.seed, options.typographic_share)
        result = bench_benchmark(directory, sizes[0], options.seed, options.samples, env)
        print_benchmark(result)
        results["benchmark"] = {"records": sizes[0], **result}
    if options.json:
        options.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
