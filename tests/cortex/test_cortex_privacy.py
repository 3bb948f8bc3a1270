"""The privacy boundary: stripping rules, and seeded canaries that must never reach any output."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, strategies as st

from cortex.core.privacy import strip_private_content
from tests.cortex_helpers import cortex, jsonl, md, row, write

CANARY = "zqxcanary7731"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("public <private>never</private> public", "public  public"),
        ("a <PRIVATE>x</Private> b", "a  b"),
        ("a < private  data-x='1' >x</ private > b", "a  b"),
        ("a <private>x<private>y</private>z</private> b", "a  b"),
        ("a <private>x<private>y</private>still private", "a "),
        ("a </private> b", "a  b"),
        ("a <private>unclosed", "a "),
        ("a <private unclosed-bracket rest", "a "),
        ("a <pri\u0000vate>x</private> b", "a "),
        ("a <pri\u200bvate>x</private> b", "a "),
        ("a <ｐｒｉｖａｔｅ>x</private> b", "a  b"),  # a full-width spelling of a well-formed opener is one
        ("a <privately>x b", "a "),
        ("<p>html</p> <b>kept</b>", "<p>html</p> <b>kept</b>"),
        ("no tags", "no tags"),
        ("1 < 2 and 3 > 2", "1 < 2 and 3 > 2"),
    ],
)
def test_strip_rules(text, expected):
    assert strip_private_content(text) == expected


@given(st.text(alphabet=st.characters(blacklist_characters="<>"), max_size=50),
       st.text(alphabet=st.characters(blacklist_characters="<>"), max_size=50),
       st.sampled_from(["<private>", "<PRIVATE a=1>", "< private >", "<private\t>"]),
       st.sampled_from(["</private>", "</PRIVATE>", "</ private >", ""]))
def test_canary_inside_any_span_never_survives(before, after, opener, closer):
    out = strip_private_content(f"{before}{opener}{CANARY}{closer}{after}")
    assert CANARY not in out
    assert out.startswith(before)


@given(st.text(max_size=200))
def test_stripping_never_grows_text_and_is_idempotent(text):
    once = strip_private_content(text)
    assert len(once) <= len(text)
    assert strip_private_content(once) == once


def _canary_corpus(tmp_path):
    m = tmp_path / "M"
    write(m / "KNOWLEDGE" / "a.md",
          f"---\nid: rec-a\ntitle: Alpha <private>{CANARY} title</private>\ncreated: 2026-01-01\n---\n"
          f"alpha public text <private>{CANARY} body</private> more alpha\n<private attr=1>{CANARY}\n"
          f"nested <private>x <private>{CANARY}</private> y</private>\n")
    jsonl(m / "KNOWLEDGE" / "b.jsonl",
          row("rec-b", f"alpha beta <private>{CANARY}</private>", title=f"Beta <private>{CANARY}</private>"))
    md(m / "KNOWLEDGE" / "c.md", f"alpha <private>{CANARY}", id="rec-c", created="2026-01-02")
    return m


def test_canaries_never_reach_any_command_output(tmp_path):
    m = _canary_corpus(tmp_path)
    outputs = []
    for args in (["status"], ["search", "alpha"], ["search", CANARY], ["search", "alpha", "--expand", "rec-a"],
                 ["timeline", "--anchor", "rec-a"], ["get", "rec-a", "rec-b", "rec-c"],
                 ["export", "rec-a", "rec-b", "rec-c"], ["rebuild", "--from-canonical"]):
        code, env = cortex(*args, "--memory-root", str(m))
        outputs.append(json.dumps(env))
        assert CANARY not in json.dumps(env), args
    export = json.loads(outputs[6])["data"]["items"]
    assert {item["id"]: item["title"] for item in export} == {"rec-a": "Alpha", "rec-b": "Beta ", "rec-c": "KNOWLEDGE/c.md"}
    # private text does not influence ranking either: the canary term matches nothing
    assert json.loads(outputs[2])["data"]["total"] == 0


def test_private_text_does_not_count_in_token_estimates(tmp_path):
    m = tmp_path / "M"
    jsonl(m / "KNOWLEDGE" / "r.jsonl", row("r1", "abcd" + f"<private>{'x' * 400}</private>"))
    code, env = cortex("search", "abcd", "--memory-root", str(m))
    assert env["data"]["items"][0]["est_tokens"] == 1


def test_decoded_json_can_keep_its_keys_as_written():
    from cortex.core.privatejson import strip_private_json

    # keys=False (the corpus, which refuses unknown keys anyway): every string at every depth, keys untouched
    value = {"a<private>k</private>": ["x\u003cprivate>v</private>y", 1, None], "b": {"c": "<private>z</private>"}}
    assert strip_private_json(value, keys=False) == {
        "a<private>k</private>": ["xy", 1, None], "b": {"c": ""}}
