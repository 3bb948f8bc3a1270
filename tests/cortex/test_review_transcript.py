"""Transcript extraction: text exchanges only, the last N, cut, privacy-stripped, streamed whatever the size."""
from __future__ import annotations

import json
import tracemalloc

from cortex.review.transcript import MAX_LINE_BYTES, MAX_MESSAGE_CHARS, newest_transcript, recent_exchanges


def lines(path, *rows) -> str:
    path.write_text("".join((row if isinstance(row, str) else json.dumps(row)) + "\n" for row in rows))
    return str(path)


def user(content, **extra) -> dict:
    return {"type": "user", "message": {"role": "user", "content": content}, **extra}


def assistant(*texts, **extra) -> dict:
    return {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": t} for t in texts]},
            **extra}


def test_an_exchange_is_user_text_and_the_assistant_text_until_the_next_user_text(tmp_path):
    path = lines(tmp_path / "t.jsonl",
                 user("first question"), assistant("part one"),
                 user([{"type": "tool_result", "tool_use_id": "x", "content": "tool noise"}]),
                 assistant("part two"), {"type": "summary", "summary": "ignored"}, "not json at all {",
                 user([{"type": "image", "source": {}}, {"type": "text", "text": "second question"}]),
                 assistant("answer two"), user("unanswered question"))
    exchanges = recent_exchanges(path)
    assert [(e.user, e.assistant) for e in exchanges] == [("first question", "part one\npart two"),
                                                          ("second question", "answer two")]


def test_sidechain_and_meta_entries_are_not_the_conversation(tmp_path):
    path = lines(tmp_path / "t.jsonl", user("caveat", isMeta=True), user("main question"),
                 user("subagent task", isSidechain=True), assistant("subagent reply", isSidechain=True),
                 assistant("main reply"))
    assert [(e.user, e.assistant) for e in recent_exchanges(path)] == [("main question", "main reply")]


def test_only_the_last_n_are_kept_and_each_message_is_cut(tmp_path):
    rows = []
    for i in range(30):
        rows += [user(f"question {i} " + "q" * 3000), assistant(f"answer {i}")]
    exchanges = recent_exchanges(lines(tmp_path / "t.jsonl", *rows), 20)
    assert len(exchanges) == 20 and exchanges[0].user.startswith("question 10 ")
    assert all(len(e.user) == MAX_MESSAGE_CHARS for e in exchanges)


def test_private_spans_are_stripped_before_the_cut(tmp_path):
    secret = "<private>" + "s" * 5000 + "</private>"
    path = lines(tmp_path / "t.jsonl", user(secret + "visible tail"), assistant("reply <private>hidden</private>ok"),
                 user("open <private>never closed"), assistant("fine"))
    exchanges = recent_exchanges(path)
    assert exchanges[0].user == "visible tail" and exchanges[0].assistant == "reply ok"
    assert len(exchanges) == 1  # the unclosed span hides the later reply too: spans cross messages


def test_a_huge_transcript_is_streamed_with_flat_memory(tmp_path):
    path = tmp_path / "big.jsonl"
    filler = json.dumps(user("x" * 60_000)) + "\n" + json.dumps(assistant("y" * 60_000)) + "\n"
    with open(path, "w") as handle:
        handle.write(json.dumps({"type": "user", "message": {"content": "z" * (5 * 1024 * 1024)}}) + "\n")  # skipped
        for _ in range(300):  # ~36 MB
            handle.write(filler)
        handle.write(json.dumps(user("last question")) + "\n" + json.dumps(assistant("last answer")) + "\n")
    tracemalloc.start()
    exchanges = recent_exchanges(str(path), 5)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert exchanges[-1].user == "last question" and len(exchanges) == 5
    assert peak < MAX_LINE_BYTES + 2 * 1024 * 1024, peak  # one bounded line at a time, never the ~40 MB file


def test_newest_transcript_looks_one_folder_deep_and_skips_symlinks(tmp_path):
    (tmp_path / "p" / "deeper").mkdir(parents=True)
    lines(tmp_path / "p" / "a.jsonl", user("x"))
    lines(tmp_path / "p" / "deeper" / "too-deep.jsonl", user("x"))
    (tmp_path / "link.jsonl").symlink_to(tmp_path / "p" / "a.jsonl")
    assert newest_transcript(str(tmp_path)) == str(tmp_path / "p" / "a.jsonl")
    assert newest_transcript(str(tmp_path / "absent")) is None
