"""Rows of tests/collectors/test_tamper_derived.py (issue 21): the audit's memos, the OTLP exporter's cursors, the search builder's lock.

Each kind is built, listed, edited and answered as tests/tamper_support.Kind describes.
"""
from __future__ import annotations

import json
from pathlib import Path

from tests import health_scenarios as scenarios
from tests.health_support import NOW_MS, copy_demo, obs
from tests.tamper_support import Built, audit_report, audited, builders_done, cache_env, cortex_data, memos_of

# -- the reviewer-config verdict memo (collectors.lifeos.reviewer_config): the whole audit report ------------------------


def build_config(folder: Path, variant: int) -> Built:
    from tests import hook_scenarios as hooks

    root = copy_demo(folder)
    (hooks.review_config_trailing_comma if variant else hooks.review_config_wrong_type)(root)
    return audited(folder, root)  # leaves the loader's verdict: reviewer-config-invalid


def config_verdicts(built: Built) -> dict[str, Path]:
    from collectors.lifeos.reviewer_config import FORMAT

    return memos_of(built, ".verdict", FORMAT, lambda memo: "verdict")


def say_valid(path: Path) -> None:
    """The loader's error forgotten: the memo says the config it is keyed to is valid."""
    memo = json.loads(path.read_bytes())
    memo["verdict"] = None
    path.write_text(json.dumps(memo))


# -- the clean-corpus-load memo (collectors.lifeos.corpus): the whole audit report ---------------------------------------


def build_corpus(folder: Path, variant: int) -> Built:
    from tests import hook_scenarios as hooks
    from tests.health_support import HOUR_MS, NOW_MS, set_mtimes

    root = copy_demo(folder)
    if variant:
        hooks.write_note(root, "seed-order.md", "---\nid: knowledge-seed-order\ntitle: Seed order\n"
                         "created: 2026-02-14\n---\nOrder the seeds by the end of January.\n")
        set_mtimes(root, NOW_MS - HOUR_MS)  # older than the racy margin: the memo is trusted
    return audited(folder, root)  # leaves the memo of a clean load


def corpus_verdicts(built: Built) -> dict[str, Path]:
    from collectors.lifeos.corpus import FORMAT

    return memos_of(built, ".verdict", FORMAT, lambda memo: "corpus")


def count_more(path: Path) -> None:
    """One record and one file more than the load found, the listing it is bound to untouched."""
    memo = json.loads(path.read_bytes())
    memo["records"], memo["count"] = memo["records"] + 1, memo["count"] + 1
    path.write_text(json.dumps(memo))


# -- the hot-content memo (collectors.lifeos.hot_content_memo): the whole audit report -----------------------------------


def build_hot_content(folder: Path, variant: int) -> Built:
    from tests import hot_content_scenarios as hc

    root = copy_demo(folder)
    for change in ((hc.principal_injection,) if variant else (hc.principal_imperative, hc.da_duplicate)):
        change(root)
    return audited(folder, root)  # leaves one memo per hot file


def content_memos(built: Built) -> dict[str, Path]:
    from collectors.lifeos.hot_content_memo import FORMAT

    return memos_of(built, ".content", FORMAT, lambda memo: Path(memo["file"]).name)


def one_more_of_each(path: Path) -> None:
    """Every kind's total one higher (still a valid memo for the same text)."""
    from collectors.lifeos.hot_content_memo import KINDS as FLAGS

    memo = json.loads(path.read_bytes())
    for flag in FLAGS:
        memo["judged"][flag][0] += 1
    path.write_text(json.dumps(memo, ensure_ascii=False))


# -- the OTLP exporter's cursors (collectors.readers.exportcursors): what --otlp sends, and the audit report -------------
# A cursor is both position and the cumulative duration histogram. Damage must look exactly like its absence: the
# log is read in full, so every operation is sent again (a receiver can drop the duplicates; none is ever lost) and
# the histogram, counted from the whole log, is the same as with the cursor; the metrics, logs and report never move.


def build_exported(folder: Path, variant: int) -> Built:
    root = copy_demo(folder)
    built = Built(root, cache_env(folder))
    exported(built)  # the demo's operations delivered: the cursors moved past them
    for minutes in range(1 + variant):  # then new operations, which an intact cursor alone sends
        scenarios.append(obs(root) / "memory-retrievals.jsonl",
                         scenarios.retrieval_row(NOW_MS - (minutes + 1) * 60_000, returned_count=5 + minutes))
    return built


def export_cursors(built: Built) -> dict[str, Path]:
    """The delivered log cursors in the cache's otlp folder (as collectors.readers.exportcursors names them)."""
    from collectors.readers.cursors import FORMAT

    return memos_of(built, ".json", FORMAT, lambda cursor: cursor["aggregate"], kind="otlp")


def exported(built: Built) -> dict:
    """One `--otlp` run to a loopback receiver: the report, the metrics and logs bodies and the spans, minus what
    differs on every run (the run's duration, the spans' random ids)."""
    from tests.otlp_support import Receiver

    with Receiver() as receiver:
        report = audit_report(Built(built.root, {**built.env, "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.url},
                                    built.names), extra=("--otlp",))
    bodies = {signal: [json.loads(body) for body in receiver.bodies(signal)] for signal in ("metrics", "logs",
                                                                                            "traces")}
    for request in bodies["metrics"]:
        for resource in request["resourceMetrics"]:
            for scope in resource["scopeMetrics"]:
                scope["metrics"] = [metric for metric in scope["metrics"] if "run_duration" not in metric["name"]]
    spans = sorted((span for request in bodies.pop("traces") for resource in request["resourceSpans"]
                    for scope in resource["scopeSpans"] for span in scope["spans"]),
                   key=lambda span: (span["startTimeUnixNano"], span["name"]))
    for span in spans:
        span.pop("traceId"), span.pop("spanId")
    return {"report": report, **bodies, "spans": spans}


# -- the search cache's builder lock (cortex.searchcache.builder): it holds no answer, only a flock ---------------


def builder_lock(built: Built) -> dict[str, Path]:
    return {"lock": next((Path(built.env["CORTEX_CACHE_DIR"]) / "search").rglob("search.sqlite-build.lock"))}


def scribble(path: Path) -> None:
    path.write_bytes(b'{"pid": 1, "building": true}\n')  # nothing reads it: a lock is only ever flock()ed


def read_answers(built: Built) -> dict:
    return {"search": cortex_data(built, "search", "the"), "get": cortex_data(built, "get", "knowledge-frost-dates")}


# -- the search cache's summary (cortex.searchcache.summary): recall, search and get answers ---------------------


def build_summarised(folder: Path, variant: int) -> Built:
    """A searched tree whose builder is done, searched once more: the warm call leaves the summary."""
    built = Built(copy_demo(folder), {**cache_env(folder), "CORTEX_NOW": "2026-11-29T12:00:00Z"})
    assert cortex_data(built, "search", "the" if variant else "frost")[0] == 0  # fills the database (a builder)
    builders_done(built)
    assert cortex_data(built, "search", "the")[0] == 0  # warm from the rows: leaves their summary
    return built


def search_summary(built: Built) -> dict[str, Path]:
    return {"summary": next((Path(built.env["CORTEX_CACHE_DIR"]) / "search").rglob("search.sqlite-summary"))}


def another_generation(path: Path) -> None:
    """Resealed, whole and of this root, but bound to a generation the database never had."""
    import marshal

    from cortex.searchcache.summary import MAGIC, SEAL_BYTES, seal

    data = path.read_bytes()
    (schema, root, _generation), paths, keys, files = marshal.loads(data[len(MAGIC) + SEAL_BYTES:])
    payload = marshal.dumps(((schema, root, "0" * 32), paths, keys, files), 4)
    path.write_bytes(MAGIC + seal(payload) + payload)


def summarised_answers(built: Built) -> dict:
    from tests.tamper_support import run

    recalled = run(["-m", "cortex", "recall", "frost dates for the garden", "--root", str(built.root)], built.env)
    return {**read_answers(built), "recall": recalled.stdout, "recall_code": recalled.returncode}


# -- the search cache's listing memo (cortex.searchcache.summary.remembered_files): recall, search and get answers -----


def build_listed(folder: Path, variant: int) -> Built:
    """A summarised tree whose folders last changed long ago: the warm call leaves the listing memo too."""
    import os

    built = Built(copy_demo(folder), {**cache_env(folder), "CORTEX_NOW": "2026-11-29T12:00:00Z"})
    assert cortex_data(built, "search", "the" if variant else "frost")[0] == 0  # fills the database (a builder)
    builders_done(built)
    for path, _dirs, _files in os.walk(built.root):  # aged past the racy margin: a listing may be remembered
        os.utime(path, ns=(1_700_000_000 * 10**9,) * 2)
    assert cortex_data(built, "search", "the")[0] == 0  # warm: leaves the listing memo
    return built


def search_listing(built: Built) -> dict[str, Path]:
    return {"listing": next((Path(built.env["CORTEX_CACHE_DIR"]) / "search").rglob("search.sqlite-listing"))}


def one_note_fewer(path: Path) -> None:
    """Resealed, whole and of this root, but a note fewer and its folders' keys from another time."""
    import marshal

    from cortex.searchcache.summary import LISTING_MAGIC, SEAL_BYTES, seal

    root, read_ns, folders, keys, files = marshal.loads(path.read_bytes()[len(LISTING_MAGIC) + SEAL_BYTES:])
    payload = marshal.dumps((root, read_ns, folders, [(*key[:4], key[4] - 1) for key in keys],
                             files.split("\0", 1)[1]), 4)
    path.write_bytes(LISTING_MAGIC + seal(payload, LISTING_MAGIC) + payload)
