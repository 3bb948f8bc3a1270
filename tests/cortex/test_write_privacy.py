"""Seeded private canaries never reach disk (nor stdout) through any write surface."""
from __future__ import annotations

import json

from tests.write_support import all_bytes_under, run_in_process, tree  # noqa: F401 (fixture)

from cortex.capture import ingest_capture_envelope


def secret(n: int) -> str:
    return f"<private>CANARY-{n:02d}</private>"


def test_private_spans_never_reach_disk_or_stdout(tree, tmp_path):
    outputs = []

    def call(*args, stdin=""):
        result = run_in_process(tree, *args, stdin=stdin)
        outputs.append(json.dumps(result.envelope))
        return result

    assert call("hot", "set", "principal", stdin=f"NAME: Ada {secret(1)}\n<private>\nRULE: CANARY-02\n</private>\n"
                                                  f"ROLE: dev <PRIVATE class='x'>CANARY-03</PRIVATE>\n").code == 0
    memory = {"type": "memory", "actor": "da", "op": "set", "entries": [f"ROLE: helper {secret(4)}"],
              "rationale": f"why {secret(5)}"}
    assert call("remember", json.dumps(memory), "--adapter", "claude", "--allow-write").code == 0
    idea = {"type": "idea", "title": f"Garden {secret(6)}", "content": f"Prune. {secret(7)} Water.",
            "source_session": f"s1{secret(8)}", "related": [{"slug": f"garden{secret(9)}ing", "type": "extends"}]}
    written = call("remember", json.dumps(idea), "--adapter", "hermes", "--allow-write")
    assert written.code == 0
    knowledge = {"type": "knowledge", "entity_type": "person", "name": f"Sam {secret(10)}",
                 "content": "Friend. <private>CANARY-11 unclosed opener suppresses the rest"}
    assert call("remember", json.dumps(knowledge), "--adapter", "codex", "--allow-write").code == 0
    proposal = {"type": "proposal", "target_file": "DEFINITIONS.md", "target_kind": "definition",
                "edit": f"Focus means no meetings. {secret(12)}", "confidence": 0.9,
                "rationale": f"Said twice {secret(13)}", "source_session": f"s2{secret(14)}"}
    proposed = call("propose", json.dumps(proposal), "--adapter", "subagent", "--allow-write")
    assert call("proposals", "approve", proposed.data["result"]["detail"]["id"]).code == 0
    refused = call("remember", json.dumps({**idea, secret(15): "x"}), "--adapter", "claude", "--allow-write")
    assert refused.code == 5
    assert call("remember", json.dumps({"type": f"memory{secret(16)}"}), "--adapter", "claude", "--allow-write").code == 5
    record = call("get", written.data["result"]["detail"]["id"]).data["items"][0]
    assert record["title"] == "Garden" and record["related"] == ["gardening"] and record["provenance"]["session"] == "s1"

    captured = tmp_path / "captured.json"
    envelope = {"source": "telegram", "channel": "dm", "timestamps": {"captured_at": "2026-01-02T00:00:00Z"},
                "session_id": f"chat-1{secret(17)}", "content": f"See you at 8. {secret(18)}"}
    ingest_capture_envelope(envelope, lambda clean: captured.write_text(clean.model_dump_json()))

    leaks = [(str(path), n) for path, data in all_bytes_under(tmp_path) for n in range(1, 19)
             if f"CANARY-{n:02d}".encode() in data]
    assert leaks == []
    assert not any("CANARY" in output for output in outputs)
    assert b"Focus means no meetings." in (tree.lifeos / "USER" / "DEFINITIONS.md").read_bytes()
    assert b"See you at 8." in captured.read_bytes()
