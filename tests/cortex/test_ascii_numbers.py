"""Numbers in options, environment overrides, config strings and timestamps: ASCII digits 0-9 only.

Python's int()/float()/\\d take `１０` (full-width), `٣` (Arabic-Indic) and `²`; the reference's
number parsing (JavaScript) takes none of them. Each is refused precisely, never an internal error.
"""
from __future__ import annotations

import json
import re

import pytest
from hypothesis import example, given, strategies as st

from cortex.core.numbers import ascii_decimal, ascii_int
from tests.cortex_helpers import base_env, cortex, md
from tests.health_support import NOW, clean_env, copy_demo, run_cli
from tests.review_support import hook
from tests.write_support import tree  # noqa: F401 (fixture)

FULL_WIDTH_TEN = "１０"
ORACLE = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)
NUMBERISH = st.text(st.sampled_from("0123456789+-.eE _１０٣²\u00a0xn"), max_size=12)


@given(NUMBERISH)
@example("1_000")
@example(" 5")
@example("nan")
@example("1.")
@example(".5")
@example("1e")
def test_ascii_decimal_is_exactly_the_ascii_grammar(text):
    value = ascii_decimal(text)
    if ORACLE.fullmatch(text):
        assert value == float(text)
    else:
        assert value is None


@given(NUMBERISH | st.text(st.sampled_from("0123456789"), min_size=1, max_size=5000))
def test_ascii_int_takes_plain_digits_in_range_only(text):
    value = ascii_int(text, 1, 600_000)
    expected = int(text) if text.isascii() and text.isdigit() and 1 <= int(text) <= 600_000 else None
    assert value == expected


# --- cortex ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("value", [FULL_WIDTH_TEN, "²", "٣", "1" * 5000, "1_0", " 10"])
def test_lock_wait_budget_accepts_ascii_digits_only(tree, value):
    result = tree.hot_set("principal", ["NAME: x"], CORTEX_LOCK_WAIT_MS=value)
    assert result.code == 4 and result.error == {
        "code": "invalid_input", "message": "CORTEX_LOCK_WAIT_MS must be an integer from 0 to 600000 in ASCII digits"}


def test_hook_counts_accept_ascii_digits_only(tree):
    limited = hook(tree, "recall", "q", "--limit", FULL_WIDTH_TEN)
    assert limited.code == 0 and limited.stdout == "" and "--limit must be an integer" in limited.stderr
    turns = hook(tree, "review", "run", "--turns", "²", "--dry-run")
    assert turns.code == 4 and "--turns must be an integer from 1" in json.loads(turns.stdout)["error"]["message"]


@pytest.fixture
def corpus(tmp_path):
    md(tmp_path / "MEMORY" / "KNOWLEDGE" / "ok.md", id="a1", type="memory", title="T",
       created="2026-01-01T00:00:00Z", updated="2026-01-01T00:00:00Z")
    return str(tmp_path / "MEMORY")


@pytest.mark.parametrize("args", [("search", "body", "--page", "１"), ("search", "body", "--page-size", FULL_WIDTH_TEN),
                                  ("timeline", "--anchor", "a1", "--before", "٣"),
                                  ("search", "body", "--recency", "１")])
def test_read_options_accept_ascii_digits_only(corpus, args):
    code, envelope = cortex(*args, "--memory-root", corpus)
    assert code == 4 and envelope["error"]["code"] == "invalid_input"


def test_timestamps_accept_ascii_digits_only(tmp_path, corpus):
    code, envelope = cortex("search", "body", "--memory-root", corpus, env=base_env(CORTEX_NOW="２０２６-01-01"))
    assert code == 4 and envelope["error"]["message"] == "CORTEX_NOW is not a valid timestamp: ２０２６-01-01"
    md(tmp_path / "MEMORY" / "KNOWLEDGE" / "wide.md", id="a2", type="memory", title="T",
       created="２０２６-01-01", updated="2026-01-01T00:00:00Z")
    code, envelope = cortex("status", "--memory-root", corpus)
    assert code == 4 and envelope["error"]["code"] == "integrity_error" and "created" in envelope["error"]["message"]


# --- cortex-health --------------------------------------------------------------------------------

def _threshold_reason(result):
    finding = result.finding("cortex-threshold-invalid")
    return finding["detail"]["source"], finding["detail"]["reason"], finding["detail"]["in_force"]


def test_threshold_from_each_source_accepts_ascii_digits_only(tmp_path):
    root = copy_demo(tmp_path)
    note = "not a decimal number: only the ASCII digits 0-9 count"
    cli = run_cli("--threshold", f"cap_pressure={FULL_WIDTH_TEN}", root=root)
    assert _threshold_reason(cli) == ("cli", note, 46) and cli.code == 2
    env = run_cli(root=root, env=clean_env(CORTEX_CAP_PRESSURE=FULL_WIDTH_TEN))
    assert _threshold_reason(env) == ("env", note, 46)
    config = tmp_path / "c.json"
    config.write_text(json.dumps({"thresholds": {"cap_pressure": "٤٠"}}, ensure_ascii=False))
    assert _threshold_reason(run_cli("--config", str(config), root=root)) == ("config", "not a JSON number", 46)


def test_a_config_integer_beyond_any_float_is_a_finding_not_an_internal_error(tmp_path):
    config = tmp_path / "c.json"
    config.write_text('{"thresholds": {"cap_pressure": 1' + "0" * 400 + "}}")
    result = run_cli("--config", str(config), root=copy_demo(tmp_path))
    assert result.report["overall"] == "critical" and result.code == 2
    assert _threshold_reason(result) == ("config", "not finite", 46)


def test_health_now_accepts_ascii_digits_only(tmp_path):
    result = run_cli(root=copy_demo(tmp_path), now="２０２６-11-29T12:00:00Z")
    assert result.finding("cortex-clock-invalid")["severity"] == "critical"


def test_history_last_accepts_ascii_digits_only(tmp_path):
    result = run_cli("history", "--root", str(copy_demo(tmp_path)), "--last", FULL_WIDTH_TEN, root=None, now=None,
                     write=True)
    assert result.code == 3
    assert "argument --last: expected a whole number in ASCII digits, got '１０'" in result.stderr


def test_gate_timeout_accepts_ascii_digits_only(tmp_path):
    result = run_cli("gate", "--root", str(copy_demo(tmp_path)), "--timeout", "５", root=None, now=None, write=True)
    assert result.code == 0  # the gate never blocks the agent; it says why on stderr
    assert "argument --timeout: expected a number of seconds in ASCII digits, got '５'" in result.stderr


@pytest.mark.parametrize("flag", ["--max-age", "--timeout"])
def test_statusline_durations_accept_ascii_digits_only(tmp_path, flag):
    result = run_cli("statusline", "--root", str(tmp_path), flag, f"{FULL_WIDTH_TEN}m", "--now", NOW, "--refresh",
                     root=None, now=None, write=True)
    assert result.stdout == f"mem ? usage: {flag}: expected a duration like 90s, 30m, 2h or 1d, got '１０m'\n"


def test_dashboard_numbers_are_ascii_digits_only():
    from health.serve import build_parser

    for argv in (["--port", "８７６５"], ["--window", "1_0"], ["--refresh", "²"]):
        with pytest.raises(Exception) as refused:
            build_parser().parse_args(argv)
        assert "expected a whole number in ASCII digits" in str(refused.value), argv
    assert build_parser().parse_args(["--port", "0", "--window", "10"]).window == 10
