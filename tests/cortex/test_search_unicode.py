"""Search with the Unicode/CJK tokenizer: the ASCII guarantee, Chinese and mixed queries, term limits."""
from __future__ import annotations

import math
import re

from hypothesis import given, settings, strategies as st

from cortex.core.corpus import enumerate_canonical_corpus
from cortex.core.records import CortexRecord, active_records
from cortex.core.search import rank_bm25, to_card
from cortex.core.timestamps import parse_timestamp_ms
from cortex.core.tokenize import ascii_terms, terms
from tests.cortex_helpers import base_env, cortex, jsonl, row

NOW = "2026-06-01T00:00:00Z"

WORDS = ["fox", "Dog", "cat", "the", "a", "RUN", "runs", "x1", "42", "b2b", "naps", "over", "lazy"]
SEPARATORS = [" ", "  ", ", ", ". ", "-", "_", "/", "\n", "!", "'"]


def record(record_id: str, title: str, content: str) -> CortexRecord:
    return CortexRecord(id=record_id, type="memory", title=title, created=NOW, updated=NOW, source="canonical",
                        session=None, path="KNOWLEDGE/x.jsonl", content=content, related=[])


ascii_words = st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(SEPARATORS)), max_size=30).map(
    lambda pairs: "".join(word + sep for word, sep in pairs)
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(ascii_words, ascii_words), min_size=1, max_size=12), ascii_words)
def test_ascii_corpora_rank_identically_under_both_tokenizers(texts, query):
    records = [record(f"r{i:02d}", title, content) for i, (title, content) in enumerate(texts)]
    new = rank_bm25(records, query, tokenizer=terms)
    old = rank_bm25(records, query, tokenizer=ascii_terms)
    assert [(r.record.id, r.score) for r in new] == [(r.record.id, r.score) for r in old]  # ids, order, exact scores


def write_ascii_corpus(root):
    rows = [
        row("a1", "The quick brown fox jumps over the lazy dog. Fox-trot at 9:30!", title="Fox notes"),
        row("a2", "a fox and another FOX and a third fox; dog_food is x1", title="Foxes"),
        row("a3", "nothing about animals here at all, just words " * 6, title="Other"),
        row("a4", "the dog sleeps; the cat naps (b2b)", title="Dog"),
        row("a5", "fox fox fox", valid_until="2026-02-01T00:00:00Z"),
    ] + [row(f"n{i:02d}", f"note {i} about dogs and foxes, item {i} of 30", title=f"Note {i}") for i in range(30)]
    jsonl(root / "KNOWLEDGE" / "rows.jsonl", *rows)
    return root


def test_cli_search_on_ascii_corpus_equals_the_ascii_tokenizer_ranking(tmp_path):
    root = write_ascii_corpus(tmp_path / "M")
    records = active_records(enumerate_canonical_corpus(str(root)).records, parse_timestamp_ms(NOW))
    for query, page_args in [("fox dog", []), ("FOX", ["--page", "2", "--page-size", "3"]), ("dog_food x1", []),
                             ("note 7 item", ["--page-size", "100"]), ("b2b cat", [])]:
        code, envelope = cortex("search", query, *page_args, "--memory-root", str(root), env=base_env(CORTEX_NOW=NOW))
        assert code == 0
        expected = [to_card(r.record, r.score) for r in rank_bm25(records, query, tokenizer=ascii_terms)]
        size = int(page_args[page_args.index("--page-size") + 1]) if "--page-size" in page_args else 10
        page = int(page_args[page_args.index("--page") + 1]) if "--page" in page_args else 1
        data = envelope["data"]
        assert data["total"] == len(expected)
        assert data["items"] == expected[(page - 1) * size : page * size]


def han_bigrams(text: str) -> list[str]:
    """Independent transcription for pure Han text: bigrams of each stretch, a lone character kept."""
    out = []
    for stretch in re.findall(r"[\u4e00-\u9fff]+", text):
        out.extend([stretch] if len(stretch) == 1 else [stretch[i : i + 2] for i in range(len(stretch) - 1)])
    return out


def bm25(docs: dict[str, list[str]], query: list[str]) -> dict[str, float]:
    n, avg = len(docs), sum(len(t) for t in docs.values()) / len(docs)
    scores = {}
    for doc_id, words in docs.items():
        score = 0.0
        for term in dict.fromkeys(query):
            df = sum(1 for w in docs.values() if term in w)
            tf = words.count(term)
            if tf:
                score += math.log(1 + (n - df + 0.5) / (df + 0.5)) * tf * 2.5 / (tf + 1.5 * (0.25 + 0.75 * len(words) / avg))
        if score > 0:
            scores[doc_id] = score
    return scores


CHINESE = {
    "zh1": ("向量索引", "向量索引需要评测证据，召回率必须高于基线。"),
    "zh2": ("检索笔记", "向量检索按语义召回，全文检索按词频打分。"),
    "zh3": ("咖啡", "只喝燕麦奶拿铁，不加糖。"),
    "zh4": ("召回率", "召回率和误召回率都要报告，召回率最重要。"),
}


def chinese_corpus(root):
    jsonl(root / "KNOWLEDGE" / "zh.jsonl", *[row(i, content, title=title) for i, (title, content) in CHINESE.items()])
    jsonl(root / "KNOWLEDGE" / "en.jsonl",
          row("en1", "Photo backups run nightly with restic to the NAS.", title="Backups"),
          row("en2", "Coffee: oat milk flat white.", title="Coffee"))
    return root


def test_chinese_query_returns_chinese_records_ranked_by_bm25(tmp_path):
    root = chinese_corpus(tmp_path / "M")
    code, envelope = cortex("search", "向量索引的召回率", "--memory-root", str(root), env=base_env(CORTEX_NOW=NOW))
    assert code == 0
    docs = {i: han_bigrams(f"{title} {content}") for i, (title, content) in CHINESE.items()}
    docs.update({"en1": [], "en2": []})  # no Han text: length 0, but they count in N and the average
    docs["en1"] = ascii_terms("Backups Photo backups run nightly with restic to the NAS.")
    docs["en2"] = ascii_terms("Coffee Coffee: oat milk flat white.")
    expected = bm25(docs, han_bigrams("向量索引的召回率"))
    ranked = sorted(expected.items(), key=lambda kv: (-kv[1], kv[0]))
    items = envelope["data"]["items"]
    assert [item["id"] for item in items] == [doc_id for doc_id, _ in ranked]
    assert [item["score"] for item in items] == [round(score, 6) for _, score in ranked]
    assert {item["id"] for item in items} == {"zh1", "zh2", "zh4"}


def test_mixed_query_finds_english_and_chinese_records(tmp_path):
    root = chinese_corpus(tmp_path / "M")
    jsonl(root / "KNOWLEDGE" / "mixed.jsonl", row("mix1", "照片备份改用 restic，每晚增量备份。", title="备份"))
    code, envelope = cortex("search", "restic 备份", "--memory-root", str(root), env=base_env(CORTEX_NOW=NOW))
    assert code == 0
    ids = [item["id"] for item in envelope["data"]["items"]]
    assert ids[0] == "mix1"  # matches both the English and the Chinese term
    assert set(ids) == {"mix1", "en1"}


def test_chinese_query_that_the_ascii_tokenizer_rejected_is_accepted(tmp_path):
    root = chinese_corpus(tmp_path / "M")
    assert ascii_terms("咖啡") == []
    code, envelope = cortex("search", "咖啡", "--memory-root", str(root), env=base_env(CORTEX_NOW=NOW))
    assert (code, [i["id"] for i in envelope["data"]["items"]]) == (0, ["zh3"])
    code, envelope = cortex("search", "。，！", "--memory-root", str(root), env=base_env(CORTEX_NOW=NOW))
    assert (code, envelope["error"]["message"]) == (4, "Query exceeds length/term limits or has no searchable terms")


def test_query_term_limit_counts_bigrams(tmp_path):
    root = chinese_corpus(tmp_path / "M")
    sixty_five = "向量索引需要评测证据" * 6 + "召回率必须"  # 65 Han characters: 64 bigrams
    assert len(sixty_five) == 65 and len(terms(sixty_five)) == 64
    assert cortex("search", sixty_five, "--memory-root", str(root), env=base_env(CORTEX_NOW=NOW))[0] == 0
    code, envelope = cortex("search", sixty_five + "高", "--memory-root", str(root), env=base_env(CORTEX_NOW=NOW))
    assert (code, envelope["error"]["code"]) == (4, "invalid_input")
