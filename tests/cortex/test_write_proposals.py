"""`cortex proposals list|approve|reject`: exact pending counts, atomic status changes, idempotent apply."""
from __future__ import annotations

import json

import pytest

from tests.write_support import run_in_process, schema_validator, tree  # noqa: F401 (fixture)

STYLE = {"type": "proposal", "target_file": "WRITINGSTYLE.md", "target_kind": "style",
         "edit": "Prefers short sentences.", "confidence": 0.7, "rationale": "Observed repeatedly."}


def propose(tree, item=STYLE):
    result = run_in_process(tree, "propose", json.dumps(item), "--adapter", "claude", "--allow-write")
    assert result.code == 0, result.envelope
    return result.data["result"]["detail"]["id"]


def queue_rows(tree):
    return [json.loads(line) for line in (tree.obs / "pending-proposals.jsonl").read_text().splitlines() if line]


def pending_count(tree):
    """Exactly the auditor's rule: rows whose status is exactly "pending"."""
    return sum(1 for row in queue_rows(tree) if row.get("status") == "pending")


def test_list_counts_and_filters(tree):
    first, second, third = propose(tree), propose(tree), propose(tree)
    assert tree.cortex("proposals", "reject", second).code == 0
    listed = tree.cortex("proposals", "list")
    assert listed.code == 0
    assert listed.data["pending"] == 2 == pending_count(tree)
    assert listed.data["counts"] == {"pending": 2, "rejected": 1}
    only = tree.cortex("proposals", "list", "--status", "pending").data
    assert [row["id"] for row in only["items"]] == [first, third] and only["total"] == 2


def test_approve_applies_the_edit_then_marks_the_row(tree):
    proposal_id = propose(tree)
    result = tree.cortex("proposals", "approve", proposal_id, "--adapter", "hermes")
    assert result.code == 0 and result.data["applied"] == "appended" and result.data["status"] == "approved"
    target = tree.lifeos / "USER" / "PRINCIPAL" / "WRITINGSTYLE.md"
    assert target.read_text() == "Prefers short sentences.\n"
    (row,) = queue_rows(tree)
    schema_validator("lifeos-cortex-proposal-row-v1.schema.json").validate(row)
    assert row["status"] == "approved" and row["decided_by"] == "cortex-cli:hermes" and row["decided_at"] == tree.now
    assert pending_count(tree) == 0
    assert tree.rows("proposal-decisions.jsonl")[0]["applied"] == "appended"


def test_approving_an_edit_that_is_already_present_does_not_duplicate_it(tree):
    target = tree.lifeos / "USER" / "PRINCIPAL" / "WRITINGSTYLE.md"
    target.write_text("# Style\n\nPrefers short sentences.\n")
    result = tree.cortex("proposals", "approve", propose(tree))
    assert result.code == 0 and result.data["applied"] == "already-present"
    assert target.read_text() == "# Style\n\nPrefers short sentences.\n"


def test_an_existing_target_gets_the_edit_as_its_own_paragraph(tree):
    target = tree.lifeos / "USER" / "PRINCIPAL" / "WRITINGSTYLE.md"
    target.write_text("# Style\n- plain words")
    assert tree.cortex("proposals", "approve", propose(tree)).code == 0
    assert target.read_text() == "# Style\n- plain words\n\nPrefers short sentences.\n"


def test_decided_rows_cannot_be_decided_again_and_unknown_ids_are_not_found(tree):
    proposal_id = propose(tree)
    assert tree.cortex("proposals", "reject", proposal_id).code == 0
    again = tree.cortex("proposals", "approve", proposal_id)
    assert again.code == 5 and again.error["message"].startswith("ENOT_PENDING:")
    assert tree.cortex("proposals", "approve", "prop-nope").code == 3
    assert not (tree.lifeos / "USER" / "PRINCIPAL" / "WRITINGSTYLE.md").exists()


def test_malformed_lines_are_preserved_and_reported_never_dropped(tree):
    proposal_id = propose(tree)
    path = tree.obs / "pending-proposals.jsonl"
    path.write_bytes(b"not json\n" + path.read_bytes() + b"null\n")
    listed = tree.cortex("proposals", "list")
    assert listed.data["malformed_lines"] == [1, 3] and listed.data["pending"] == 1
    assert tree.cortex("proposals", "reject", proposal_id).code == 0
    lines = path.read_bytes().split(b"\n")
    assert lines[0] == b"not json" and lines[2] == b"null" and json.loads(lines[1])["status"] == "rejected"


def test_a_hand_edited_row_cannot_redirect_an_approval(tree, tmp_path):
    proposal_id = propose(tree)
    path = tree.obs / "pending-proposals.jsonl"
    row = json.loads(path.read_text())
    row["target_file"] = str(tmp_path / "evil.md")
    path.write_text(json.dumps(row) + "\n")
    result = tree.cortex("proposals", "approve", proposal_id)
    assert result.code == 4 and result.error["code"] == "integrity_error"
    assert not (tmp_path / "evil.md").exists()
    assert pending_count(tree) == 1


def test_duplicate_ids_are_an_integrity_error(tree):
    propose(tree)
    path = tree.obs / "pending-proposals.jsonl"
    path.write_bytes(path.read_bytes() * 2)
    proposal_id = queue_rows(tree)[0]["id"]
    assert tree.cortex("proposals", "reject", proposal_id).code == 4
    assert pending_count(tree) == 2


@pytest.mark.parametrize("args", [
    ("proposals",), ("proposals", "list", "extra"), ("proposals", "list", "--status", "maybe"),
    ("proposals", "approve"), ("proposals", "approve", "a", "b"), ("proposals", "reject", "x", "--status", "pending"),
])
def test_proposals_usage_is_strict(tree, args):
    assert tree.cortex(*args).code == 4
