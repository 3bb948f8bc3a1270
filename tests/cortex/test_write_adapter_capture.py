"""In-process adapter (immutable, per-call write opt-in) and the capture envelope boundary with its fixtures."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from tests.write_support import REPO, check_envelope, schema_validator, tree  # noqa: F401 (fixture)

from cortex.adapter import create_cortex_adapter
from cortex.capture import CaptureEnvelope, ingest_capture_envelope
from cortex.errors import InvalidInput

IDEA = {"type": "idea", "title": "Adapters", "content": "One contract for every harness."}
FIXTURES = sorted((REPO / "fixtures" / "capture").glob("*.json"))


def adapter(tree, name="claude"):
    return create_cortex_adapter(name, memory_root=str(tree.memory), environ=tree.env())


def test_the_adapter_is_immutable_and_names_are_checked(tree):
    cortex = adapter(tree)
    with pytest.raises(dataclasses.FrozenInstanceError):
        cortex.name = "codex"
    with pytest.raises((AttributeError, TypeError)):
        cortex.remember = lambda *a, **k: None
    with pytest.raises(ValueError):
        create_cortex_adapter("chatgpt")


def test_read_methods_follow_the_cli_contract(tree):
    cortex = adapter(tree, "subagent")
    code, envelope = cortex.status()
    assert code == 0 and check_envelope(envelope)["command"] == "status"
    code, written = cortex.remember(IDEA, allow_write=True)
    record_id = written["data"]["result"]["detail"]["id"]
    assert cortex.search("harness")[1]["data"]["items"][0]["id"] == record_id
    assert cortex.get(record_id)[1]["data"]["items"][0]["provenance"]["source"] == "subagent"
    assert cortex.export(record_id)[0] == 0
    assert cortex.timeline(record_id)[0] == 0
    assert cortex.get(42)[0] == 4 and cortex.search(None)[0] == 4


@pytest.mark.parametrize("options", [{}, {"allow_write": False}, {"allow_write": 1}, {"allow_write": "true"},
                                     {"allow_write": True, "force": True}, {"allowWrite": True}])
def test_writes_need_exactly_allow_write_true_on_the_call(tree, options):
    before = sorted(p.name for p in tree.memory.rglob("*"))
    code, envelope = adapter(tree).remember(IDEA, **options)
    assert code == 5 and check_envelope(envelope)["error"]["code"] == "write_refused"
    assert sorted(p.name for p in tree.memory.rglob("*")) == before


def test_write_methods_keep_the_command_type_binding(tree):
    cortex = adapter(tree, "codex")
    code, envelope = cortex.propose(IDEA, allow_write=True)
    assert code == 5 and envelope["error"]["code"] == "write_refused"
    code, envelope = cortex.remember(IDEA, allow_write=True)
    assert code == 0 and envelope["data"]["adapter"] == "codex"


@pytest.mark.parametrize("item", [{"type": "idea", "confidence": float("nan")}, {"type": "idea", "tags": {1, 2}}, object()])
def test_unserialisable_items_are_invalid_input(tree, item):
    code, envelope = adapter(tree).remember(item, allow_write=True)
    assert code == 4 and check_envelope(envelope)["error"]["code"] == "invalid_input"


def test_fixtures_cover_every_source_and_match_the_published_schema():
    sources = set()
    for path in FIXTURES:
        raw = json.loads(path.read_text())
        schema_validator("lifeos-cortex-capture-envelope-v1.schema.json").validate(raw)
        sources.add(raw["source"])
    assert {"claude", "hermes", "codex", "subagent", "telegram"} <= sources


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_the_consumer_only_sees_the_sanitised_envelope(path: Path):
    raw = json.loads(path.read_text())
    original = json.dumps(raw, sort_keys=True)
    seen = []
    returned = ingest_capture_envelope(raw, lambda envelope: seen.append(envelope) or "consumed")
    assert returned == "consumed"
    (envelope,) = seen
    assert isinstance(envelope, CaptureEnvelope) and envelope is not raw
    assert "CANARY" not in envelope.model_dump_json()
    assert "private" not in envelope.content.lower()
    assert (envelope.source, envelope.channel, envelope.timestamps.captured_at) == (
        raw["source"], raw["channel"], raw["timestamps"]["captured_at"])
    assert json.dumps(raw, sort_keys=True) == original  # the caller's input is never modified
    assert envelope.content.split()[0] == raw["content"].split()[0]  # public text survives
    with pytest.raises(ValueError):  # pydantic frozen model: the sanitised copy cannot be altered
        envelope.content = "changed"


BASE = {"source": "claude", "channel": "session", "timestamps": {"captured_at": "2026-01-01T00:00:00Z"}, "content": "x"}


@pytest.mark.parametrize("bad", [
    {**BASE, "timestamps": {}},
    {**BASE, "timestamps": {"captured_at": "2026-01-01T00:00:00"}},
    {**BASE, "extra": 1},
    {**BASE, "valid_from": "2026-02-01", "valid_until": "2026-01-01"},
    {**BASE, "content": 42},
    {**BASE, "source": "<private>only private</private>"},
    "not an object",
])
def test_invalid_envelopes_never_reach_the_consumer(bad):
    called = []
    with pytest.raises(InvalidInput):
        ingest_capture_envelope(bad, called.append)
    assert called == []
