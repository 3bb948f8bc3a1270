"""Test helper for the privacy canary sweep: the `writes`, `errors` and `evidence` planters and PLANTERS,
the table of every family (the family tree and the other planters: tests/canary_families.py)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.canary_support import CLOSED_VARIANTS, JSON_VARIANTS
from tests.canary_families import SESSION, Family, plant_corpus, plant_hot, plant_loop

# --- remembered items, proposals, hot set stdin -----------------------------------------------

def plant_writes(family: Family) -> None:
    p = family.planter
    remember = []
    for v in CLOSED_VARIANTS + tuple(JSON_VARIANTS):
        remember.append({"type": "idea", "title": f"Sweep idea {p.json_span('remember idea title', v)}",
                         "content": f"sweep idea {p.json_span('remember idea content', v)} body"})
        # Its own item: a span the recogniser misses leaves spaces in the token, which refuses the item.
        remember.append({"type": "idea", "title": "Sweep idea with a session", "content": "sweep",
                         "source_session": f"{SESSION}{p.json_span('remember idea source_session', v)}"})
    remember.append({"type": "knowledge", "entity_type": "person", "name": f"Sweep Person {p.span('remember knowledge name')}",
                     "content": f"sweep {p.span('remember knowledge content', 'unclosed')}"})
    remember.append({"type": "memory", "actor": "da", "op": "set", "entries": [
        f"ROLE: sweep assistant {n} {p.json_span('remember memory entry', v)} ~explicit"
        for n, v in enumerate(CLOSED_VARIANTS + tuple(JSON_VARIANTS))],
        "rationale": f"sweep {p.span('remember memory rationale')}"})
    family.remember = [p.dumps_line(item) for item in remember]
    family.propose = [p.dumps_line({"type": "proposal", "target_file": "PROJECTS.md", "target_kind": "projects",
                                    "edit": f"- sweep edit {n} {p.json_span('propose edit', v)}", "confidence": 0.5,
                                    "rationale": f"sweep {p.json_span('propose rationale', v)}"})
                      for n, v in enumerate(CLOSED_VARIANTS + tuple(JSON_VARIANTS))]
    family.hot_set_stdin = "".join(f"PREFERENCE: sweep stdin {p.span('hot set stdin entry', v)} ~explicit\n"
                                   for v in CLOSED_VARIANTS)
    family.hot_set_stdin += f"<private>\nRULE: {p.canary('hot set stdin multi-line span', 'multi-line')} ~explicit\n</private>\n"


# --- inputs whose errors could quote them -----------------------------------------------------

def plant_errors(family: Family) -> None:
    p = family.planter
    row = {"id": "sweep-bad-time", "type": "memory", "title": "Sweep bad time", "updated": "2026-01-02T00:00:00Z",
           "content": "sweep", "created": p.json_span("KNOWLEDGE/sweep-bad.jsonl created (error message)",
                                                      "json-escaped-brackets") + "2026-01-01T00:00:00Z"}
    p.write(family.tree.memory / "KNOWLEDGE" / "sweep-bad.jsonl", p.dumps_line(row) + "\n")
    config = {"schema_version": 1, p.span("reviewer config unknown key"): 1,
              "pass_env": [p.span("reviewer config pass_env value")]}
    p.write(family.tree.lifeos / "USER" / "CONFIG" / "memory-review.json", json.dumps(config, ensure_ascii=False))
    good = {"type": "user", "message": {"role": "user", "content": "sweep public question"}}
    broken = '{"type": "user", "message": {"content": "' + p.span("transcript malformed line") + '"'
    p.write(family.transcript, json.dumps(good) + "\n" + broken + "\n")
    p.write(family.labels, json.dumps({"query": "sweep", "expected_ids": ["sweep-public"]}) + "\n"
            + json.dumps({"query": 5, p.span("benchmark labels bad row key"): [p.span("benchmark labels bad row")]}) + "\n")
    # A manifest makes the auditor's index check load the (broken) corpus and report why.
    p.write(family.tree.memory / "INDEX" / "index-manifest.json", json.dumps(
        {"schema": "lifeos-cortex-index/v1", "canonical_sha256": "0" * 64, "index_path": "index.json",
         "index_sha256": "0" * 64, "indexed_at": f"2026-01-01T00:00:00Z{p.span('index manifest indexed_at')}"}))
    p.write(family.tree.memory / "INDEX" / "index.json", "{}")
    family.health_config = p.write(family.base / "health-config.json", json.dumps(
        {"thresholds": {f"sweep{p.span('health config threshold name')}": 5,
                        "reviewer_stale_ms": f"7{p.span('health config threshold value')}"}}, ensure_ascii=False))


# --- the auditor's own evidence (hand-edited or legacy logs) ------------------------------------

def plant_evidence(family: Family) -> None:
    p, obs = family.planter, family.tree.obs

    def jsonl(name: str, *rows: dict) -> None:
        p.write(obs / name, "".join(p.dumps_line(row) + "\n" for row in rows))

    jsonl("reviewer-runs.jsonl",
          {"ts": "2026-01-02T01:00:00.000Z", "ok": False, "runId": "2026-01-02T00-59-00-000Z",
           "transcript": f"projects/sweep{p.span('reviewer-runs.jsonl transcript')}.jsonl", "exchanges": 3,
           "inference_duration_ms": 10, "parse_ok": None,
           "error": f"inference failed {p.span('reviewer-runs.jsonl error')} then "
                    f"{p.json_span('reviewer-runs.jsonl error', 'json-escaped-brackets')}"},
          {"ts": f"2026-01-02T02:00:00.000Z{p.span('reviewer-runs.jsonl ts')}", "ok": True,
           "runId": f"run{p.json_span('reviewer-runs.jsonl runId', 'json-escaped-letter')}"})
    jsonl("memory-retrievals.jsonl",
          {"ts": f"{p.json_span('memory-retrievals.jsonl ts', 'json-escaped-brackets')}2026-01-02T01:00:00.000Z",
           "query_hash": f"abc{p.span('memory-retrievals.jsonl query_hash')}", "returned_count": 1, "duration_ms": 1})
    jsonl("reviewer-fires.jsonl",
          {"ts": "2026-01-02T01:00:00.000Z", "session": f"s{p.span('reviewer-fires.jsonl session')}", "turns": 1,
           "started": False, "reason": f"1/8 turns {p.span('reviewer-fires.jsonl reason')}", "pid": None,
           "duration_ms": 3.5})
    jsonl("memory-writes.jsonl",
          {"ts": "2026-01-02T01:00:00.000Z", "updated_by": f"sweep{p.span('memory-writes.jsonl updated_by')}",
           "file": "PRINCIPAL_MEMORY.md", "prior_count": 1, "new_count": 1, "ok": False,
           "error": f"EWRITE {p.span('memory-writes.jsonl error')}",
           "evictions": [f"PREFERENCE: {p.span('memory-writes.jsonl eviction')} ~explicit"]})
    jsonl("hook-failures.jsonl",  # a hand-edited failure log: the hooks' own writer strips spans, an editor need not
          {"ts": "2026-01-02T02:30:00.000Z", "hook": "recall", "code": "integrity_error",
           "reason": f"Invalid created timestamp {p.span('hook-failures.jsonl reason')} then "
                     f"{p.json_span('hook-failures.jsonl reason', 'json-escaped-brackets')}",
           "file": f"LIFEOS/MEMORY/KNOWLEDGE/sweep{p.span('hook-failures.jsonl file')}.md", "line": 4,
           "field": f"created{p.span('hook-failures.jsonl field')}", "rule": f"timestamp{p.span('hook-failures rule')}"},
          {"ts": "2026-01-02T02:31:00.000Z", "hook": "fire", "what": f"not a failure row {p.span('hook-failures bad row')}"})
    jsonl("pending-proposals.jsonl",
          {"id": f"prop-sweep{p.span('pending-proposals.jsonl id')}", "ts": "2026-01-02T01:00:00.000Z",
           "status": "pending", "target": "PROJECTS.md", "summary": f"sweep {p.span('pending-proposals.jsonl summary')}"})
    jsonl("memory-health.jsonl", {"overall": "warn", "findings": [  # not a report; the newest line is one
        {"id": f"sweep-finding{p.span('memory-health.jsonl malformed report finding id')}"}]}, _edited_report(family))
    stale_lock(obs / "sweep-dead.jsonl.lock", p.write, token=p.span("lock stamp token"))
    p.write(obs / "sweep-elsewhere.jsonl.lock", p.dumps_line(  # unverifiable and older than lock_stale_ms
        {"pid": 4242, "host": f"sweep-host{p.span('lock stamp host')}", "ts": "2026-01-02T01:00:00.000Z"}))
    p.write(obs / "review-state.json", p.dumps_line(
        {"last_review_at": f"{p.json_span('review-state.json last_review_at', 'json-escaped-brackets')}2026-01-01",
         "turn_count_since_last_review": f"3{p.span('review-state.json turn count')}", "pending_review": False}))


def stale_lock(path: Path, write=Path.write_text, token: str = "sweep") -> None:
    """A write lock of a finished child on this host, stamped before the sweep's time (so a reused pid is gone, too)."""
    import socket
    import subprocess

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    stamp = {"pid": child.pid, "host": socket.gethostname(), "ts": "2026-01-02T03:00:00.000Z", "token": token}
    write(path, json.dumps(stamp, ensure_ascii=False))


def _edited_report(family: Family) -> dict:
    """A real report of this tree whose finding ids, messages and hints were hand-edited to hold spans."""
    from tests.canary_support import run_health_in_process

    printed = run_health_in_process(["--root", str(family.tree.root), "--format", "json", "--no-write"],
                                    family.tree.env(CORTEX_HEALTH_NOW="2026-01-02T03:00:00.000Z")).stdout
    report = json.loads(printed)
    for finding in report["findings"]:
        finding["id"] = family.planter.span("memory-health.jsonl finding id") + finding["id"]  # first: the status
        # line shows at most 40 characters of an id
        finding["message"] += family.planter.span("memory-health.jsonl finding message")
    return report


PLANTERS = {"corpus": plant_corpus, "hot": plant_hot, "loop": plant_loop, "writes": plant_writes,
            "errors": plant_errors, "evidence": plant_evidence}
