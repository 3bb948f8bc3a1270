"""Issue 10, defects 1-3 through the real CLIs: private text in JSONL metadata, hot files and odd spellings never surfaces."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cortex_helpers import base_env, cortex, write
from tests.health_support import run_cli
from tests.review_support import program, write_transcript
from tests.write_support import REPO, make_tree

CANARY = "zqxcanary"  # every planted secret starts with it
HEALTH_FORMATS = ("json", "health+json", "text", "github", "nagios", "prometheus", "statusline")


def escaped(text: str) -> str:
    """`text` as a JSON string literal with every '<' written as an escape the raw-line strip cannot see."""
    return json.dumps(text).replace("<", "\\u003c")


def jsonl_line(**fields: str | list[str]) -> str:
    return "{" + ",".join(f'"{key}":' + (escaped(value) if isinstance(value, str) else
                                          "[" + ",".join(escaped(item) for item in value) + "]")
                          for key, value in fields.items()) + "}\n"


def record(**changes) -> dict:
    fields = dict(id="b1", type="memory", title="Beta", created="2026-01-01T00:00:00Z",
                  updated="2026-01-01T00:00:00Z", content="alpha public words")
    fields.update(changes)
    return fields


def no_canary(*texts: str) -> None:
    for text in texts:
        assert CANARY not in text, text[text.find(CANARY) - 200: text.find(CANARY) + 50]


# --- defect 1: every decoded string of a JSONL record crosses the boundary -----------------------

def test_escaped_private_spans_in_jsonl_metadata_never_surface(tmp_path):
    m = tmp_path / "M"
    write(m / "KNOWLEDGE" / "b.jsonl", jsonl_line(**record(
        title=f"Beta <private>{CANARY}title</private>", source=f"web<private>{CANARY}source</private>",
        source_session=f"s1<private>{CANARY}session</private>", related=[f"c<private>{CANARY}rel</private>1"],
        type=f"memory<private>{CANARY}type</private>")) + jsonl_line(**record(
        id="b2", title=f"Gamma ＜private＞{CANARY}fullwidth＜／private＞", source_kind=f"<\u0070rivate>{CANARY}kind</private>x")))
    outputs = []
    for args in (["search", "alpha"], ["search", f"{CANARY}title"], ["timeline", "--anchor", "b1"], ["get", "b1", "b2"],
                 ["export", "b1", "b2"], ["status"], ["rebuild", "--from-canonical"]):
        code, envelope = cortex(*args, "--memory-root", str(m))
        assert code == 0, envelope
        outputs.append(json.dumps(envelope, ensure_ascii=False))
    no_canary(*outputs)
    assert json.loads(outputs[1])["data"]["total"] == 0  # a word only in a private title ranks nothing
    items = {item["id"]: item for item in json.loads(outputs[4])["data"]["items"]}
    assert (items["b1"]["title"], items["b1"]["type"], items["b1"]["related"]) == ("Beta ", "memory", ["c1"])
    assert items["b1"]["provenance"] == {"source": "web", "session": "s1", "path": "KNOWLEDGE/b.jsonl"}
    assert (items["b2"]["title"], items["b2"]["provenance"]["source"]) == ("Gamma ", "x")
    recall = subprocess.run([sys.executable, "-m", "cortex", "recall", "alpha"], capture_output=True, text=True,
                            env=base_env(CORTEX_MEMORY_ROOT=str(m), HOME=str(tmp_path)), cwd=REPO, timeout=60)
    assert "[1] Beta " in recall.stdout
    no_canary(recall.stdout, recall.stderr)


def test_the_digest_is_taken_over_the_stripped_record(tmp_path):
    secret, plain = tmp_path / "S", tmp_path / "P"
    write(secret / "KNOWLEDGE" / "b.jsonl", jsonl_line(**record(title=f"Beta <private>{CANARY}</private>")))
    write(plain / "KNOWLEDGE" / "b.jsonl", jsonl_line(**record(title="Beta ")))
    digests = [cortex("rebuild", "--from-canonical", "--memory-root", str(m))[1]["data"] for m in (secret, plain)]
    assert digests[0] == digests[1]


@pytest.mark.parametrize("created", [f"<private>{CANARY}</private>yesterday", f"{CANARY}-not-a-date"])
def test_timestamp_errors_name_the_record_and_field_never_the_value(tmp_path, created):
    m = tmp_path / "M"
    write(m / "KNOWLEDGE" / "b.jsonl", jsonl_line(**record(created=created)))
    code, envelope = cortex("status", "--memory-root", str(m))
    assert (code, envelope["error"]["code"]) == (4, "integrity_error")
    assert envelope["error"]["message"] == "Invalid created timestamp for b1 in KNOWLEDGE/b.jsonl"


def test_the_auditor_repeats_index_errors_without_content(tmp_path):
    from tests.health_scenarios import write_manifest
    from tests.health_support import copy_demo, memory

    root = copy_demo(tmp_path)
    write_manifest(root)
    write(memory(root) / "KNOWLEDGE" / "b.jsonl",
          jsonl_line(**record(created=f"<private>{CANARY}</private>yesterday", title=f"<private>{CANARY}</private>B")))
    report_path = tmp_path / "report.json"
    outputs = [run_cli(f"--format={name}", root=root) for name in HEALTH_FORMATS]
    outputs.append(run_cli("--format=text", "-v", f"--report-path={report_path}", root=root, write=True))
    index = outputs[0].report["findings"]
    assert any("Invalid created timestamp for b1 in KNOWLEDGE/b.jsonl" in json.dumps(f) for f in index)
    published = (memory(root) / "OBSERVABILITY" / "memory-health.jsonl").read_text()
    no_canary(*(r.stdout + r.stderr for r in outputs), report_path.read_text(), published)


# --- defect 2: private spans already inside a hot file ----------------------------------------

def legacy_hot_file() -> str:
    return ("---\nname: PRINCIPAL_MEMORY\n---\n\nA hand-edited note <private>" + CANARY + "-body</private> stays.\n\n"
            "<!-- BEGIN ENTRIES -->\n"
            f"NAME: Ada Lovelace <private>{CANARY}-name</private> ~explicit\n"
            "<private>\nRULE: " + CANARY + "-whole-entry ~explicit\n</private>\n"
            f"PREFERENCE: {'long ' * 60}<private>{CANARY}-dropped</private> ~explicit\n"
            "ROLE: mathematician ＜private＞" + CANARY + "-fullwidth＜／private＞\n"
            "<!-- END ENTRIES -->\n")


def outside_snapshots(root: Path) -> list[tuple[str, bytes]]:
    found = []
    for folder, _dirs, files in os.walk(root):
        if "memory-snapshots" not in folder:
            found += [(os.path.join(folder, name), Path(folder, name).read_bytes()) for name in files]
    return found


def test_private_spans_in_a_hot_file_never_leave_it(tmp_path):
    tree = make_tree(tmp_path)
    legacy = legacy_hot_file().encode("utf-8")
    tree.principal.write_bytes(legacy)
    transcript = write_transcript(tree.home / "s.jsonl", [("I like green tea", "Noted")])

    read = tree.cortex("hot", "read", "principal")
    assert read.code == 0 and read.data["entries"] == ["NAME: Ada Lovelace  ~explicit", "ROLE: mathematician"]
    assert [row["reason"] for row in read.data["dropped_invalid"]] == ["overlength"]
    dry = tree.cortex("review", "run", "--input", str(transcript), "--dry-run")
    assert dry.code == 0 and "NAME: Ada Lovelace" in dry.data["prompt"]
    report_path = tmp_path / "report.json"
    health = [run_cli(f"--format={name}", root=tree.root, now=tree.now) for name in HEALTH_FORMATS]
    health.append(run_cli("--format=text", "-v", f"--report-path={report_path}", root=tree.root, now=tree.now, write=True))
    assert "overlength" in health[0].stdout  # the dropped entry is still evidence, without its private part

    hot_set = tree.hot_set("principal", ["NAME: Ada Lovelace  ~explicit"], "--allow-drastic")
    assert hot_set.code == 0 and [e[:16] for e in hot_set.data["evictions"]] == ["PREFERENCE: long", "ROLE: mathematic"]
    [snapshot] = os.listdir(tree.obs / "memory-snapshots")
    assert (tree.obs / "memory-snapshots" / snapshot).read_bytes() == legacy  # byte for byte, never rewritten
    restore = tree.cortex("hot", "restore", "principal", snapshot)
    assert restore.code == 0 and restore.data["additions"] == ["ROLE: mathematician"]
    assert (tree.obs / "memory-snapshots" / snapshot).read_bytes() == legacy
    tree.principal.write_bytes(legacy)
    run = tree.cortex("review", "run", "--input", str(transcript), CORTEX_REVIEWER_COMMAND=program("curate"))
    assert run.code == 0, run.envelope

    outputs = [json.dumps(r.envelope, ensure_ascii=False) for r in (read, dry, hot_set, restore, run)]
    no_canary(*outputs, *(r.stdout + r.stderr for r in health))
    leaks = [path for path, data in outside_snapshots(tmp_path) if CANARY.encode() in data and "s.jsonl" not in path]
    assert leaks == []


def test_a_hot_file_with_an_unclosed_span_hides_the_rest_from_every_reader(tmp_path):
    tree = make_tree(tmp_path)
    tree.principal.write_text("<!-- BEGIN ENTRIES -->\nNAME: Ada\nRULE: <private>" + CANARY + "\n"
                              "PREFERENCE: " + CANARY + "-after\n<!-- END ENTRIES -->\n")
    read = tree.cortex("hot", "read", "principal")
    assert read.data["entries"] == ["NAME: Ada"] and read.data["markers"]["ends"] == 0
    render = subprocess.run([sys.executable, "-m", "cortex", "hot", "render"], capture_output=True, text=True,
                            env=tree.env(), cwd=REPO, timeout=60)
    no_canary(json.dumps(read.envelope), render.stdout, render.stderr)
    assert "NAME: Ada" in render.stdout


# --- defect 3: every spelling of a tag, and spans across transcript messages --------------------

SPELLINGS = [f"＜private＞{CANARY}＜／private＞", f"<PR\u0130VATE>{CANARY}</private>", f"<private\u0301>{CANARY}</private>",
             f"﹤private﹥{CANARY}", f"<pri\u200bvate>{CANARY}</private>", f"≮private>{CANARY}"]


@pytest.mark.parametrize("secret", SPELLINGS)
def test_every_spelling_of_a_tag_is_private_in_records_and_hot_set(tmp_path, secret):
    m = tmp_path / "M"
    write(m / "KNOWLEDGE" / "a.jsonl", jsonl_line(**record(id="a1", title=f"Alpha {secret}", content=f"alpha {secret}")))
    code, envelope = cortex("export", "a1", "--memory-root", str(m))
    assert code == 0 and envelope["data"]["items"][0]["title"] == "Alpha "
    no_canary(json.dumps(envelope, ensure_ascii=False))
    tree = make_tree(tmp_path / "t")
    result = tree.hot_set("principal", [f"NAME: Ada {secret}", "ROLE: pilot"])
    assert result.code == 0
    no_canary(json.dumps(result.envelope, ensure_ascii=False), tree.principal.read_text())


def test_a_span_opened_in_one_message_and_closed_in_a_later_one_never_reaches_the_prompt(tmp_path):
    tree = make_tree(tmp_path)
    transcript = write_transcript(tree.home / "s.jsonl", [
        ("I like green tea", "Noted <private>" + CANARY + "-assistant"),
        (CANARY + "-later ＜／private＞ and black coffee", "Noted, coffee"),
        ("Also <private>" + CANARY + "-second", "ok"), ("still " + CANARY + "</private> jasmine", "Noted, jasmine")])
    dry = tree.cortex("review", "run", "--input", str(transcript), "--dry-run")
    assert dry.code == 0 and dry.data["exchanges"] == 3
    prompt = dry.data["prompt"]
    assert "I like green tea" in prompt and "and black coffee" in prompt and "jasmine" in prompt
    no_canary(prompt)
    run = tree.cortex("review", "run", "--input", str(transcript), CORTEX_REVIEWER_COMMAND=program("curate"))
    assert run.code == 0, run.envelope
    no_canary(json.dumps(run.envelope, ensure_ascii=False))
    assert [p for p, data in outside_snapshots(tmp_path) if CANARY.encode() in data and "s.jsonl" not in p] == []
