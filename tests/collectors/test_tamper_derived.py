"""Derived state never lies (issue 21): every kind of derived state, edited, cut, swapped, replaced or touched.

One row of KINDS per kind of derived state (tests/tamper_support.py says what each tamper does
and what the answer must equal). A new cache, cursor, memo, checkpoint or marker joins by one row.
"""
from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from tests import health_scenarios as scenarios
from tests.health_support import copy_demo, obs
from tests.tamper_kinds import (another_generation, build_config, build_corpus, build_exported, build_hot_content,
                                build_listed, build_summarised, builder_lock, config_verdicts, content_memos,
                                corpus_verdicts, count_more, export_cursors, exported, one_more_of_each,
                                one_note_fewer, read_answers, say_valid, scribble, search_listing, search_summary,
                                summarised_answers)
from tests.tamper_support import (TAMPERS, Built, Kind, audit_report, audited, builders_done, cache_env, check,
                                  cortex_data, memos_of, run)

# -- audit cursors (collectors.readers.cursors): the whole audit report ------------------------------------------------


def build_backlog(folder: Path, variant: int) -> Built:
    root = copy_demo(folder)
    if variant == 0:
        scenarios.proposals_backlog(root)  # proposal-backlog-high: a lowered pending count must not hide it
    return audited(folder, root)


def cursors(built: Built) -> dict[str, Path]:
    """The log cursors alone: the audit folder also holds the memos of the rows below (other suffixes, formats)."""
    from collectors.readers.cursors import FORMAT

    return memos_of(built, ".json", FORMAT, lambda cursor: cursor["aggregate"])


def zero_counts(path: Path) -> None:
    """Every count the cursor carries set to 0 (the pending count of a backlog among them)."""
    def zeroed(value):
        if isinstance(value, dict):
            return {key: zeroed(item) for key, item in value.items()}
        if isinstance(value, list):
            return [zeroed(item) for item in value]
        return 0 if type(value) is int else value

    cursor = json.loads(path.read_bytes())
    cursor["state"], cursor["scan"] = zeroed(cursor["state"]), zeroed(cursor["scan"])
    path.write_text(json.dumps(cursor, separators=(",", ":")))


# -- tail-stamp memos (collectors.readers.tailstamps): the whole audit report --------------------------------------------


def build_history(folder: Path, variant: int) -> Built:
    from tests.collectors.test_health_tailstamps import with_history

    return audited(folder, with_history(copy_demo(folder), rows=30 + variant))


def memos(built: Built) -> dict[str, Path]:
    from collectors.readers.tailstamps import FORMAT

    return memos_of(built, ".stamps", FORMAT, lambda memo: Path(memo["log"]).name)


def flip_newest_stamp(path: Path) -> None:
    """The newest instant a minute later, the oldest made the newest: still valid instants."""
    memo = json.loads(path.read_bytes())
    known = sorted((value, key) for key, value in memo["stamps"].items() if value)
    (newest, newest_key), (_, oldest_key) = known[-1], known[0]
    memo["stamps"][newest_key] = newest[:15] + str((int(newest[15]) + 1) % 10) + newest[16:]
    memo["stamps"][oldest_key] = newest
    path.write_text(json.dumps(memo, separators=(",", ":")))


# -- the history checkpoint (collectors.healthlog.chain): the chain's facts and the next link ------------------------


def build_chain(folder: Path, variant: int) -> Built:
    from tests.ops_support import publish_runs

    root = copy_demo(folder)
    publish_runs(root, [5, 4, 3, 2, 1] if variant else [3, 2, 1])
    return Built(root, cache_env(folder))


def checkpoints(built: Built) -> dict[str, Path]:
    return {"checkpoint": obs(built.root) / "memory-health.checkpoint"}


def reseal_another_seq(path: Path) -> None:
    """A forger's edit: seq one ahead, written whole by Checkpoint.text (its seal recomputed)."""
    from collectors.healthlog.chain import Checkpoint

    row = json.loads(path.read_bytes())
    row["seq"] += 1
    path.write_text(Checkpoint(*(row[name] for name in ("seq", "head", "ts", "line", "start", "end"))).text())


def chain_answer(built: Built) -> dict:
    """What the log says (the audit's head and line count, --verify's), whether the audit calls it intact, and the
    link the next publication chains with; the log is cut back to where it was afterwards."""
    log = obs(built.root) / "memory-health.jsonl"
    report = audit_report(built)
    evidence = report["evidence"]["health_history"]
    size = log.stat().st_size
    audit_report(built, publish=True)
    link = json.loads(log.read_bytes().splitlines()[-1])["chain"]
    verified = json.loads(run(["-m", "health", "history", "--root", str(built.root), "--verify", "--json"],
                              built.env).stdout)
    os.truncate(log, size)
    return {"head_seq": evidence["head_seq"], "lines": evidence["lines"], "next_link": link,
            "intact": "health-history-intact" in report["ok_summary"],
            "verified": (verified["head_seq"], verified["lines"])}


# -- the replay marker of a reviewer run folder (collectors.lifeos.dispatch_failures): the whole audit report -----------


def build_replayed(folder: Path, variant: int) -> Built:
    """A review whose item met a held lock (kept in failed-items.json), replayed once the lock was gone."""
    import socket
    import time

    from cortex.core.timestamps import iso_from_ms
    from tests.review_support import chat, program, write_transcript
    from tests.write_support import entries, make_tree

    tree = make_tree(folder)
    if variant:
        assert tree.hot_set("principal", entries(2, "other")).code == 0  # other kept items
    lock = Path(str(tree.principal) + ".lock")
    lock.write_text(json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "token": "t",
                                "ts": iso_from_ms(int(time.time() * 1000))}))
    transcript = write_transcript(tree.home / "sess.jsonl", chat(2))
    tree.cortex("review", "run", "--input", str(transcript), CORTEX_REVIEWER_COMMAND=program("curate"),
                CORTEX_LOCK_WAIT_MS="0")
    lock.unlink()
    [row] = tree.rows("reviewer-runs.jsonl")
    assert tree.cortex("review", "replay", row["runId"]).code == 0
    return Built(tree.root, cache_env(folder), {"run": row["runId"], "now": tree.now})


def markers(built: Built) -> dict[str, Path]:
    return {"replayed": obs(built.root) / "reviewer-runs" / built.names["run"] / "replayed.json"}


def count_another(path: Path) -> None:
    marker = json.loads(path.read_bytes())
    marker["replayed"] += 1
    path.write_text(json.dumps(marker))


# -- the search cache (cortex.searchcache): search and get answers, and the audit apart from the cache's check ----


def build_searched(folder: Path, variant: int) -> Built:
    built = Built(copy_demo(folder), {**cache_env(folder), "CORTEX_NOW": "2026-11-29T12:00:00Z"})
    assert cortex_data(built, "search", "the")[0] == 0  # its detached builder creates and fills the cache
    builders_done(built)
    return built


def search_db(built: Built) -> dict[str, Path]:
    return {"db": next((Path(built.env["CORTEX_CACHE_DIR"]) / "search").rglob("search.sqlite"))}


def sqlite_leftovers(built: Built) -> list[Path]:
    db = search_db(built)["db"]
    return [db.with_name(db.name + suffix) for suffix in ("-wal", "-shm", "-journal")]


def swap_two_files_contents(path: Path) -> None:
    """The content rows of the first two files trade places; each keeps the checksum of its own value."""
    with sqlite3.connect(path) as db:
        for source, target in ((1, -1), (2, 1), (-1, 2)):
            db.execute("UPDATE contents SET file = ? WHERE file = ?", (target, source))
    db.close()


def search_answer(built: Built) -> dict:
    report = audit_report(built)
    report["evidence"].pop("search_cache")
    report["findings"] = [f for f in report["findings"] if not f["id"].startswith("search-cache-")]
    report["ok_summary"] = [name for name in report["ok_summary"] if not name.startswith("search-cache-")]
    for field in ("overall", "counts"):  # the cache's own finding may move them; the rest must not
        report.pop(field)
    return {"search": cortex_data(built, "search", "the"), "get": cortex_data(built, "get", "knowledge-frost-dates"),
            "audit": report}


KINDS = [
    Kind("audit-cursors", build_backlog, cursors, zero_counts, audit_report),
    Kind("tail-stamp-memos", build_history, memos, flip_newest_stamp, audit_report),
    Kind("history-checkpoint", build_chain, checkpoints, reseal_another_seq, chain_answer, cache=False, movable=True),
    Kind("replay-marker", build_replayed, markers, count_another, audit_report, cache=False, movable=True),
    Kind("search-cache", build_searched, search_db, swap_two_files_contents, search_answer,
         leftovers=sqlite_leftovers),
    Kind("reviewer-config-verdict", build_config, config_verdicts, say_valid, audit_report),
    Kind("corpus-load-memo", build_corpus, corpus_verdicts, count_more, audit_report),
    Kind("hot-content-memo", build_hot_content, content_memos, one_more_of_each, audit_report),
    Kind("otlp-export-cursors", build_exported, export_cursors, zero_counts, exported, cache=False),
    Kind("search-builder-lock", build_searched, builder_lock, scribble, read_answers),
    Kind("search-summary", build_summarised, search_summary, another_generation, summarised_answers),
    Kind("search-listing", build_listed, search_listing, one_note_fewer, summarised_answers),
]


def cases() -> list:
    return [pytest.param(kind, name, id=f"{kind.name}-{name}",
                         marks=[pytest.mark.xfail(strict=True, reason=kind.xfail[name])] if name in kind.xfail else [])
            for kind in KINDS for name in TAMPERS]


@pytest.fixture(scope="module")
def others(tmp_path_factory) -> dict[str, Built]:
    """Each kind built once more, differently: what a swap brings in and a link points at."""
    return {kind.name: kind.build(tmp_path_factory.mktemp(kind.name), 1) for kind in KINDS}


@pytest.fixture(scope="module")
def templates(tmp_path_factory) -> dict[str, tuple[Built, Path]]:
    """The tree of each movable kind, built once: its cases copy it."""
    folders = {kind.name: tmp_path_factory.mktemp(f"{kind.name}-template") for kind in KINDS if kind.movable}
    return {kind.name: (kind.build(folders[kind.name], 0), folders[kind.name]) for kind in KINDS if kind.movable}


@pytest.mark.parametrize("kind, name", cases())
def test_tampered_derived_state_changes_no_answer(kind, name, tmp_path, others, templates):
    check(kind, name, tmp_path, others[kind.name], templates.get(kind.name))


def test_every_kind_is_built_with_its_state(tmp_path, others):
    """The table is not vacuous: each build leaves the files its row names, and each edit changes them."""
    import shutil

    for kind in KINDS:
        files = kind.files(others[kind.name])
        assert files and all(path.is_file() for path in files.values()), kind.name
        for label, path in files.items():
            copy = shutil.copyfile(path, tmp_path / f"{kind.name}-{label}".replace("/", "-"))
            kind.edit(copy)
            assert copy.read_bytes() != path.read_bytes(), kind.name


def test_every_file_in_the_cache_folder_is_a_row_of_its_own(tmp_path):
    """What the audit, both exporters and the read commands leave in the cache folder is claimed, file by file, by
    exactly one row: a new kind of derived state cannot hide there untested (nor a row pick another's files)."""
    from tests import hook_scenarios as hooks
    from tests import hot_content_scenarios as hc

    root = copy_demo(tmp_path)
    hooks.review_config_wrong_type(root)
    hc.principal_imperative(root)
    built = audited(tmp_path, root)
    run(["-m", "health", "--root", str(root), "--now", "2026-11-29T12:00:00Z", "--no-write", "--format",
         "otlp-json"], built.env)
    exported(built)
    searched = Built(root, {**built.env, "CORTEX_NOW": "2026-11-29T12:00:00Z"})
    assert cortex_data(searched, "search", "the")[0] == 0
    builders_done(searched)  # the next search is warm
    assert cortex_data(searched, "search", "the")[0] == 0  # warm: leaves the summary and the listing memo
    rows = {kind.files.__name__: kind.name for kind in KINDS}
    claimed: dict[Path, list[str]] = {}
    for files in (cursors, memos, config_verdicts, corpus_verdicts, content_memos, export_cursors, search_db,
                  builder_lock, search_summary, search_listing):
        assert files.__name__ in rows, f"{files.__name__} picks derived files but no row tampers with them"
        for path in files(built).values():
            claimed.setdefault(path, []).append(rows[files.__name__])
    side = set(sqlite_leftovers(Built(root, built.env)))
    found = {path for path in Path(built.env["CORTEX_CACHE_DIR"]).rglob("*") if path.is_file() and path not in side}
    assert found == set(claimed), f"unclaimed: {sorted(found - set(claimed))}"
    assert all(len(names) == 1 for names in claimed.values()), claimed
    assert {name for names in claimed.values() for name in names} == {  # each row's files were made here
        "audit-cursors", "tail-stamp-memos", "reviewer-config-verdict", "corpus-load-memo", "hot-content-memo",
        "otlp-export-cursors", "search-cache", "search-builder-lock", "search-summary", "search-listing"}
    assert len(export_cursors(built)) == 6  # three logs, for each of the two destinations (--otlp, otlp-json)
