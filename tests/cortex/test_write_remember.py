"""`cortex remember` / `cortex propose`: authorisation, payload rules, command/type binding, routing, read-back."""
from __future__ import annotations

import json

import pytest

from tests.write_support import all_bytes_under, run_in_process, schema_validator, tree  # noqa: F401 (fixture)

IDEA = {"type": "idea", "title": 'Memory as a "garden"', "content": "Prune often; keep what grows.",
        "source_session": "sess-42", "confidence": 0.8, "related": [{"slug": "gardening", "type": "supports"}],
        "valid_from": "2026-01-01", "valid_until": "2027-01-01T00:00:00Z"}
PROPOSAL = {"type": "proposal", "target_file": "LIFEOS/USER/PRINCIPAL/PRINCIPAL_IDENTITY.md", "target_kind": "identity",
            "edit": "Prefers mornings for deep work.", "confidence": 0.6, "rationale": "Seen in three sessions.",
            "observed_across_sessions": 3, "source_session": "sess-42"}


def remember(tree, item, *extra):
    return tree.cortex("remember", json.dumps(item), "--adapter", "claude", "--allow-write", *extra)


def snapshot_tree(tree):
    return sorted((str(path), data) for path, data in all_bytes_under(tree.root))


@pytest.mark.parametrize("args", [
    ("remember", json.dumps(IDEA)),
    ("remember", json.dumps(IDEA), "--adapter", "claude"),
    ("remember", json.dumps(IDEA), "--allow-write"),
    ("propose", json.dumps(PROPOSAL), "--adapter", "codex"),
])
def test_writes_need_both_an_adapter_and_allow_write(tree, args):
    before = snapshot_tree(tree)
    result = tree.cortex(*args)
    assert result.code == 5 and result.error == {
        "code": "write_refused", "message": "Write commands require explicit --adapter and --allow-write"}
    assert snapshot_tree(tree) == before


@pytest.mark.parametrize(("payloads", "message"), [
    ((), "exactly one JSON payload"),
    (("{}", "{}"), "exactly one JSON payload"),
    (('{"type": "idea"',), "must be valid JSON"),
    (('{"type": "idea", "confidence": NaN}',), "must be valid JSON"),
    (('{"type": "idea", "type": "memory"}',), "duplicate key 'type'"),
    (('{"type": "idea", "confidence": 1e999}',), "non-finite number 1e999"),
    (('"\\ud800"',), "lone surrogate"),
])
def test_payload_problems_are_invalid_input(tree, payloads, message):
    before = snapshot_tree(tree)
    result = tree.cortex("remember", *payloads, "--adapter", "claude", "--allow-write")
    assert result.code == 4 and result.error["code"] == "invalid_input" and message in result.error["message"]
    assert snapshot_tree(tree) == before


def test_an_oversized_payload_is_invalid_input(tree):
    # Linux caps one exec argument at 128 KiB, so the 256 KiB bound is exercised in-process.
    before = snapshot_tree(tree)
    payload = json.dumps({**IDEA, "content": "é" * 131_100})
    result = run_in_process(tree, "remember", payload, "--adapter", "claude", "--allow-write")
    assert result.code == 4 and result.error["message"] == "Write payload exceeds 262144 bytes"
    assert snapshot_tree(tree) == before


@pytest.mark.parametrize(("command", "item"), [
    ("remember", PROPOSAL),
    ("propose", IDEA),
    ("propose", {"type": "memory", "actor": "da", "op": "set", "entries": ["ROLE: x"]}),
    ("remember", {"type": "banana"}),
    ("remember", {"type": ["memory"]}),
    ("remember", ["memory"]),
    ("remember", {"title": "no type"}),
])
def test_command_and_type_are_bound_before_anything_is_touched(tree, command, item):
    before = snapshot_tree(tree)
    result = tree.cortex(command, json.dumps(item), "--adapter", "hermes", "--allow-write")
    assert result.code == 5 and result.error["code"] == "write_refused"
    assert "not authorized for this command" in result.error["message"]
    assert snapshot_tree(tree) == before


@pytest.mark.parametrize(("item", "fragment"), [
    ({**IDEA, "colour": "red"}, "Extra inputs"),
    ({**IDEA, "confidence": 1.5}, "confidence"),
    ({**IDEA, "confidence": True}, "confidence"),
    ({**IDEA, "title": "<private>only private</private>"}, "title: is empty"),
    ({**IDEA, "content": "a\n---\nid: injected"}, "frontmatter injection"),
    ({**IDEA, "content": "hidden <!-- comment -->"}, "comment injection"),
    ({**IDEA, "content": "bell \u0007"}, "control characters"),
    ({**IDEA, "title": "two\nlines"}, "single line"),
    ({**IDEA, "source_session": "a: b"}, "source_session"),
    ({**IDEA, "related": [{"slug": f"s{i}", "type": "related"} for i in range(65)]}, "related"),
    ({**IDEA, "related": [{"slug": "../x", "type": "related"}]}, "slug"),
    ({**IDEA, "valid_from": "2026-13-01"}, "valid_from"),
    ({**IDEA, "valid_from": "2027-01-01", "valid_until": "2026-01-01"}, "valid_from must be before"),
    ({**IDEA, "content": "x" * 65_537}, "65536"),
    ({"type": "memory", "actor": "assistant", "op": "set", "entries": ["ROLE: x"]}, "actor"),
    ({"type": "memory", "actor": "da", "op": "add", "entries": ["ROLE: x"]}, "op"),
    ({"type": "memory", "actor": "da", "op": "set", "entries": []}, "entries"),
    ({"type": "memory", "actor": "da", "op": "set", "entries": [f"ROLE: {i}" for i in range(49)]}, "entries"),
    ({"type": "memory", "actor": "da", "op": "set", "entries": ["ROLE: <!-- END ENTRIES -->"]}, "comment injection"),
    ({"type": "knowledge", "entity_type": "planet", "name": "Mars", "content": "red"}, "entity_type"),
])
def test_invalid_items_are_governance_refusals_with_nothing_written(tree, item, fragment):
    before = snapshot_tree(tree)
    result = remember(tree, item)
    assert result.code == 5 and result.error["code"] == "governance_refused"
    assert result.error["message"].startswith("EINVAL_ITEM:") and fragment in result.error["message"]
    assert snapshot_tree(tree) == before


def test_an_idea_is_a_canonical_record_that_get_returns_as_written(tree):
    result = remember(tree, IDEA)
    assert result.code == 0 and result.data["adapter"] == "claude"
    written = result.data["result"]
    assert written["ok"] is True and written["type"] == "idea" and written["path"].startswith("LIFEOS/MEMORY/KNOWLEDGE/Ideas/")
    record_id = written["detail"]["id"]
    got = tree.cortex("get", record_id)
    assert got.code == 0, got.envelope
    (record,) = got.data["items"]
    assert record["title"] == IDEA["title"] and record["type"] == "idea"
    assert record["provenance"] == {"source": "claude", "session": "sess-42", "path": written["path"][len("LIFEOS/MEMORY/"):]}
    assert record["related"] == ["gardening"]
    assert (record["valid_from"], record["valid_until"]) == (IDEA["valid_from"], IDEA["valid_until"])
    assert (record["created"], record["updated"]) == (tree.now, tree.now)
    assert IDEA["content"] in record["content"]
    assert tree.cortex("search", "garden").data["items"][0]["id"] == record_id
    (row,) = tree.rows("tier-b-writes.jsonl")
    assert row["id"] == record_id and row["type"] == "idea" and row["source"] == "claude"


def test_knowledge_goes_to_its_entity_folder_and_reads_back(tree):
    item = {"type": "knowledge", "entity_type": "company", "name": "Acme Corp", "content": "Makes anvils."}
    result = tree.cortex("remember", json.dumps(item), "--adapter", "codex", "--allow-write")
    assert result.code == 0
    assert "/KNOWLEDGE/Companies/" in result.data["result"]["path"]
    (record,) = tree.cortex("get", result.data["result"]["detail"]["id"]).data["items"]
    assert record["type"] == "knowledge" and record["title"] == "Acme Corp" and "entity_type: company" in record["content"]
    assert tree.cortex("search", "anvils", "--type", "knowledge").data["total"] == 1


def test_records_outside_their_validity_window_are_hidden_from_get(tree):
    result = remember(tree, {**IDEA, "valid_from": "2025-01-01", "valid_until": "2025-06-01"})
    record_id = result.data["result"]["detail"]["id"]
    assert tree.cortex("get", record_id).code == 3
    assert tree.cortex("status").data["canonical"]["records"] == 1


def test_a_memory_item_goes_through_the_hot_writer_and_its_guards(tree):
    item = {"type": "memory", "actor": "da", "op": "set", "entries": ["ROLE: research assistant ~explicit"],
            "rationale": "stated in onboarding"}
    result = remember(tree, item)
    assert result.code == 0
    detail = result.data["result"]["detail"]
    assert detail["file"] == "LIFEOS/USER/DIGITAL_ASSISTANT/DA_MEMORY.md" and detail["updated_by"] == "cortex-remember:claude"
    assert tree.cortex("hot", "read", "da").data["entries"] == ["ROLE: research assistant ~explicit"]
    many = {"type": "memory", "actor": "principal", "op": "set", "entries": [f"RULE: r{i}" for i in range(12)]}
    assert remember(tree, many).code == 0
    shrink = {"type": "memory", "actor": "principal", "op": "set", "entries": ["RULE: r0"]}
    refused = remember(tree, shrink)
    assert refused.code == 5 and refused.error["code"] == "governance_refused"
    assert refused.error["message"].startswith("ESUSPECT_SHRINK:")
    assert len(tree.cortex("hot", "read", "principal").data["entries"]) == 12


def test_a_proposal_is_a_pending_row_of_exactly_the_published_shape(tree):
    result = tree.cortex("propose", json.dumps(PROPOSAL), "--adapter", "codex", "--allow-write")
    assert result.code == 0
    detail = result.data["result"]["detail"]
    (row,) = [json.loads(line) for line in (tree.obs / "pending-proposals.jsonl").read_text().splitlines()]
    schema_validator("lifeos-cortex-proposal-row-v1.schema.json").validate(row)
    assert list(row) == ["id", "ts", "status", "target_file", "target_kind", "edit", "confidence", "rationale",
                         "observed_across_sessions", "source_session"]
    assert row["id"] == detail["id"] and row["status"] == "pending" and row["ts"] == tree.now
    assert row["target_file"] == "LIFEOS/USER/PRINCIPAL/PRINCIPAL_IDENTITY.md"


@pytest.mark.parametrize(("target_file", "kind", "pinned"), [
    ("/anything/WRITINGSTYLE.md", "style", "LIFEOS/USER/PRINCIPAL/WRITINGSTYLE.md"),
    ("USER/DIGITAL_ASSISTANT/DA_IDENTITY.md", None, "LIFEOS/USER/DIGITAL_ASSISTANT/DA_IDENTITY.md"),
    ("LIFEOS/USER/CONFIG/OPERATIONAL_RULES.md", None, "LIFEOS/USER/CONFIG/OPERATIONAL_RULES.md"),
])
def test_proposal_targets_are_pinned_to_their_kind(tree, target_file, kind, pinned):
    item = {**PROPOSAL, "target_file": target_file, "target_kind": kind}
    if kind is None:
        del item["target_kind"]
    result = tree.cortex("propose", json.dumps(item), "--adapter", "claude", "--allow-write")
    assert result.code == 0 and result.data["result"]["detail"]["target_file"] == pinned


@pytest.mark.parametrize("item", [
    {**PROPOSAL, "target_file": "/etc/passwd"},
    {**PROPOSAL, "target_file": "../../etc/passwd", "target_kind": None},
    {**PROPOSAL, "target_file": "USER/PRINCIPAL/<private>x</private>.md"},
    {**PROPOSAL, "target_kind": "diary"},
])
def test_proposals_with_unpinnable_targets_are_refused(tree, item):
    item = {key: value for key, value in item.items() if value is not None}
    result = tree.cortex("propose", json.dumps(item), "--adapter", "claude", "--allow-write")
    assert result.code == 5 and result.error["code"] == "governance_refused"
    assert (tree.obs / "pending-proposals.jsonl").read_bytes() == b""


def test_allow_write_is_only_an_option_of_the_write_commands(tree):
    assert tree.cortex("status", "--allow-write").code == 4
    assert tree.cortex("hot", "read", "principal", "--allow-write").code == 4
