"""search, timeline, get/export and rebuild: ranking, cards, filters, bounds and validity."""
from __future__ import annotations

import hashlib
import json
import math

import pytest

from tests.cortex_helpers import base_env, cortex, jsonl, row

NOW = "2026-06-01T00:00:00Z"


def run(m, *args, now=NOW):
    return cortex(*args, "--memory-root", str(m), env=base_env(CORTEX_NOW=now))


def bm25(docs: dict[str, str], query: str) -> dict[str, float]:
    """An independent, literal transcription of the contract's BM25 formula."""
    import re

    toks = {i: re.findall(r"[a-z0-9]+", t.lower()) for i, t in docs.items()}
    n = len(docs)
    avg = sum(len(t) for t in toks.values()) / n
    out = {}
    for i, words in toks.items():
        score = 0.0
        for term in dict.fromkeys(re.findall(r"[a-z0-9]+", query.lower())):
            df = sum(1 for w in toks.values() if term in w)
            tf = words.count(term)
            if tf:
                idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
                score += idf * tf * 2.5 / (tf + 1.5 * (0.25 + 0.75 * len(words) / avg))
        if score > 0:
            out[i] = score
    return out


@pytest.fixture
def corpus(tmp_path):
    m = tmp_path / "M"
    rows = [
        row("r1", "the quick brown fox jumps over the lazy dog", title="Fox", type="idea", source="hermes",
            created="2026-01-01T00:00:00Z", updated="2026-01-05T00:00:00Z", related=["r2", "r3"]),
        row("r2", "a fox and another fox and a third fox", title="Foxes", source_session="s1",
            created="2026-01-02T00:00:00Z", updated="2026-01-02T00:00:00Z", related=["r4"]),
        row("r3", "nothing about animals here at all, just words " * 5, title="Other",
            created="2026-01-03T00:00:00Z", updated="2026-01-03T00:00:00Z"),
        row("r4", "the dog sleeps", title="Dog", created="2026-01-04T00:00:00Z", updated="2026-05-01T00:00:00Z"),
        row("expired", "fox fox fox", created="2026-01-01T00:00:00Z", updated="2026-01-01T00:00:00Z",
            valid_until="2026-02-01T00:00:00Z"),
        row("future", "fox fox fox", created="2026-01-01T00:00:00Z", updated="2026-01-01T00:00:00Z",
            valid_from="2027-01-01"),
    ]
    jsonl(m / "KNOWLEDGE" / "rows.jsonl", *rows)
    return m


def test_bm25_scores_order_and_cards(corpus):
    code, env = run(corpus, "search", "fox dog")
    assert code == 0
    data = env["data"]
    docs = {"r1": "Fox the quick brown fox jumps over the lazy dog", "r2": "Foxes a fox and another fox and a third fox",
            "r3": "Other " + "nothing about animals here at all, just words " * 5, "r4": "Dog the dog sleeps"}
    expected = bm25(docs, "fox dog")
    ranked = sorted(expected.items(), key=lambda kv: (-kv[1], kv[0]))
    assert [item["id"] for item in data["items"]] == [i for i, _ in ranked]
    for item in data["items"]:
        assert item["score"] == round(expected[item["id"]], 6)
        assert list(item) == ["id", "type", "created", "updated", "provenance", "score", "est_tokens"]
        assert "content" not in item and "title" not in item
    r1 = next(i for i in data["items"] if i["id"] == "r1")
    assert r1["est_tokens"] == math.ceil(len("the quick brown fox jumps over the lazy dog") / 4)
    assert (data["total"], data["page"], data["page_size"]) == (3, 1, 10)


def test_validity_window_hides_records_from_reads_but_not_from_status(corpus):
    assert "expired" not in {i["id"] for i in run(corpus, "search", "fox")[1]["data"]["items"]}
    assert run(corpus, "get", "expired")[0] == 3
    assert run(corpus, "get", "future")[0] == 3
    assert run(corpus, "get", "expired", now="2026-01-15T00:00:00Z")[0] == 0
    assert run(corpus, "get", "expired", now="2026-02-01T00:00:00Z")[0] == 3  # until is exclusive
    assert run(corpus, "get", "future", now="2027-01-01T00:00:00Z")[0] == 0  # from is inclusive
    assert run(corpus, "status")[1]["data"]["canonical"]["records"] == 6
    assert run(corpus, "rebuild", "--from-canonical")[1]["data"]["records"] == 6


def test_filters(corpus):
    ids = lambda *a: [i["id"] for i in run(corpus, "search", "fox dog", *a)[1]["data"]["items"]]
    assert ids("--type", "idea") == ["r1"]
    assert ids("--source", "hermes") == ["r1"]
    assert ids("--session", "s1") == ["r2"]
    assert set(ids("--from", "2026-01-02")) == {"r2", "r4"}
    assert ids("--to", "2026-01-01T00:00:00Z") == ["r1"]
    assert ids("--from", "2026-01-02T00:00:00+00:00", "--to", "2026-01-03") == ["r2"]
    for bad in ("2026-13-01", "2026-01-01T10:00", "soon"):
        code, env = run(corpus, "search", "fox", "--from", bad)
        assert (code, env["error"]["message"]) == (4, "Invalid date filter")


def test_recency_weight(corpus):
    base = run(corpus, "search", "dog")[1]["data"]["items"]
    assert [i["id"] for i in base] == ["r4", "r1"]
    heavy = run(corpus, "search", "dog", "--recency", "1000")[1]["data"]["items"]
    updated_ms = {"r4": 1777593600000, "r1": 1767571200000}
    for item, plain in zip(heavy, base, strict=True):
        assert item["id"] == plain["id"]
    assert heavy[0]["score"] == pytest.approx(base[0]["score"] + 1000 * updated_ms["r4"] / 1e13, abs=2e-6)
    for bad in ("-1", "NaN", "abc", "Infinity"):
        code, env = run(corpus, "search", "dog", "--recency", bad)
        assert (code, env["error"]["message"]) == (4, "--recency must be non-negative")


def test_pagination_bounds(corpus):
    data = run(corpus, "search", "fox dog", "--page", "2", "--page-size", "2")[1]["data"]
    assert (len(data["items"]), data["total"], data["page"], data["page_size"]) == (1, 3, 2, 2)
    assert run(corpus, "search", "fox", "--page-size", "100")[0] == 0
    for opt, value in (("--page", "0"), ("--page-size", "101"), ("--page", "1.5"), ("--page-size", "x")):
        code, env = run(corpus, "search", "fox", opt, value)
        assert (code, env["error"]["message"]) == (4, "page must be positive and page-size at most 100")


def test_query_limits(corpus):
    assert run(corpus, "search", "fox " * 64)[0] == 0
    for query in ("fox " * 65, "x" * 2049, "!!! ???"):
        code, env = run(corpus, "search", query)
        assert (code, env["error"]["message"]) == (4, "Query exceeds length/term limits or has no searchable terms")


def test_expansion(corpus):
    data = run(corpus, "search", "fox", "--expand", "r1")[1]["data"]
    assert [c["id"] for c in data["expansion"]["items"]] == ["r1", "r2", "r3", "r4"]
    assert data["expansion"]["truncated"] is False
    assert data["expansion"]["est_tokens"] == sum(c["est_tokens"] for c in data["expansion"]["items"])
    small = run(corpus, "search", "fox", "--expand", "r1", "--max-nodes", "2")[1]["data"]["expansion"]
    assert [c["id"] for c in small["items"]] == ["r1", "r2"] and small["truncated"] is True
    tokens = run(corpus, "search", "fox", "--expand", "r1", "--max-tokens", "12")[1]["data"]["expansion"]
    assert [c["id"] for c in tokens["items"]] == ["r1"] and tokens["truncated"] is True
    code, env = run(corpus, "search", "fox", "--expand", "expired")
    assert (code, env["error"]) == (3, {"code": "not_found", "message": "Expansion root not found: expired "
                                                                     "(expired: valid until 2026-02-01T00:00:00Z)"})
    for opt, value in (("--max-nodes", "101"), ("--max-tokens", "50001"), ("--max-nodes", "0")):
        assert run(corpus, "search", "fox", "--expand", "r1", opt, value)[1]["error"]["message"] == "graph budgets exceed limits"


def test_timeline(corpus):
    data = run(corpus, "timeline", "--anchor", "r2")[1]["data"]
    assert [c["id"] for c in data["items"]] == ["r1", "r2", "r3", "r4"]
    assert data["anchor"] == {"id": "r2", "date": "2026-01-02T00:00:00Z"}
    assert all(c["score"] == 0 for c in data["items"])
    data = run(corpus, "timeline", "--anchor", "r2", "--before", "0", "--after", "1")[1]["data"]
    assert [c["id"] for c in data["items"]] == ["r2", "r3"]
    data = run(corpus, "timeline", "--anchor", "2026-01-02T12:00:00+02:00")[1]["data"]
    assert data["anchor"] == {"id": None, "date": "2026-01-02T10:00:00.000Z"}
    assert [c["id"] for c in data["items"]] == ["r1", "r2", "r3", "r4"]
    data = run(corpus, "timeline", "--anchor", "r2", "--type", "idea")[1]["data"]
    assert [c["id"] for c in data["items"]] == ["r1"]  # the anchor is filtered out by --type
    assert run(corpus, "timeline", "--anchor", "nope")[0] == 3
    assert run(corpus, "timeline")[1]["error"]["message"] == "timeline requires --anchor ID-or-date"
    for value in ("101", "-1", "x"):
        assert run(corpus, "timeline", "--anchor", "r1", "--before", value)[0] == 4


def test_get_and_export_are_all_or_nothing(corpus):
    code, env = run(corpus, "get", "r1", "r4")
    assert code == 0 and [i["id"] for i in env["data"]["items"]] == ["r1", "r4"]
    assert env["data"]["format"] == "lifeos-cortex-export/v1"
    assert env["data"]["items"][0]["content"] == "the quick brown fox jumps over the lazy dog"
    code, env = run(corpus, "export", "r1", "missing")
    assert (code, env["error"]["code"], env["data"]) == (3, "not_found", None)
    assert run(corpus, "export", *["r1"] * 100)[0] == 0


def test_rebuild_digest_matches_the_published_definition(corpus, tmp_path):
    code, env = run(corpus, "rebuild", "--from-canonical")
    data = env["data"]
    exported = run(corpus, "export", "r1", "r2", "r3", "r4", now="2026-01-15T00:00:00Z")[1]["data"]["items"]
    assert data["equivalent"] is True and data["canonical_digest"] == data["rebuilt_digest"]
    assert data["format"] == "lifeos-cortex-canonical-rebuild/v1" and data["indexes"] == []
    # recompute independently from all six records
    all_items = run(corpus, "export", "r1", "r2", "r3", "r4", "expired", now="2026-01-15T00:00:00Z")[1]["data"]["items"]
    future = run(corpus, "export", "future", now="2027-06-01T00:00:00Z")[1]["data"]["items"]
    records = sorted(all_items + future, key=lambda r: r["id"])
    digest = hashlib.sha256(json.dumps(records, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()
    assert data["canonical_digest"] == digest
    assert len(exported) == 4
    # the digest does not depend on where the root lives
    moved = tmp_path / "moved"
    corpus.rename(moved)
    assert run(moved, "rebuild", "--from-canonical")[1]["data"]["canonical_digest"] == digest
