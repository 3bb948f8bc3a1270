"""The status line is one line of printable text whatever the options say (--prefix, --root, the report).

Decision: controls and format characters are replaced by a space rather than refused, so the
line still prints (a status bar that goes blank hides the health it exists to show).
"""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from hypothesis import given, strategies as st

from cortex.core.timestamps import iso_from_ms
from reports.formats.statusline import line
from reports.report import from_document
from tests.health_support import NOW_MS, REPO, clean_env, copy_demo
from tests.ops_support import publish_runs

HOSTILE = {
    "newline": ("mem\nsecond line", "mem second line"),
    "carriage-return": ("mem\roverwrite", "mem overwrite"),
    "ansi-escape": ("\x1b[31mmem\x1b[0m", "[31mmem [0m"),
    "osc-title": ("\x1b]0;pwned\x07mem", "]0;pwned mem"),
    "bidi-override": ("m\u202eem", "m em"),
    "zero-width": ("m\u200bem", "m em"),
    "line-separator": ("mem\u2028x", "mem x"),
    "next-line": ("mem\u0085x", "mem x"),
    "nul-like-delete": ("mem\x7f", "mem"),
}


def run_statusline(argv: list[bytes | str]) -> bytes:
    done = subprocess.run([sys.executable, "-m", "health", "statusline", *argv], capture_output=True,
                          env=clean_env(), cwd=REPO, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 0 and done.stderr == b""
    return done.stdout


def assert_one_printable_line(out: bytes) -> str:
    text = out.decode("utf-8")
    assert text.endswith("\n") and text.count("\n") == 1, repr(text)
    body = text[:-1]
    assert body.isprintable(), repr(body)
    return body


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_prefix_with_controls_prints_one_printable_line(tmp_path, case):
    prefix, shown = HOSTILE[case]
    root = copy_demo(tmp_path)
    publish_runs(root, [0])
    body = assert_one_printable_line(run_statusline(["--root", str(root), "--now", iso_from_ms(NOW_MS + 240_000),
                                                     "--prefix", prefix]))
    assert body == f"{shown} ✓ ok 4m"


def test_prefix_that_is_not_valid_utf8_still_prints_one_line(tmp_path):
    body = assert_one_printable_line(run_statusline([b"--root", str(tmp_path).encode(), b"--prefix", b"m\xffem"]))
    assert body == "m em ? no health run"


def test_option_text_echoed_in_a_problem_is_printable(tmp_path):
    body = assert_one_printable_line(run_statusline(["--root", str(tmp_path), "--bogus\n\x1b[2Jx"]))
    assert body.startswith("mem ? usage: unknown argument") and "\x1b" not in body


def test_a_root_with_a_newline_in_the_check_format_statusline(tmp_path):
    root = tmp_path / "a\nb"
    done = subprocess.run([sys.executable, "-m", "health", "--root", str(root), "--format", "statusline"],
                          capture_output=True, env=clean_env(), cwd=REPO, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 3
    assert assert_one_printable_line(done.stdout).startswith("mem ? unknown · root ")


def test_the_script_fast_path_sanitizes_too(tmp_path):
    script = os.path.join(REPO, "health", "statusline.py")
    done = subprocess.run([sys.executable, "-I", "-S", script, "--root", str(tmp_path), "--prefix", "a\nb"],
                          capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    assert assert_one_printable_line(done.stdout) == "a b ? no health run"


_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=()), max_size=30)
_DOCUMENT = st.fixed_dictionaries({
    "overall": st.sampled_from(["ok", "warn", "critical", "unknown", "bogus"]),
    "counts": st.fixed_dictionaries({"critical": st.integers(0, 3), "warn": st.integers(0, 3)}),
    "findings": st.lists(st.fixed_dictionaries({"id": _TEXT, "severity": st.sampled_from(["warn", "critical"])}),
                         max_size=2),
    "reason": _TEXT,
})


@given(document=st.none() | _DOCUMENT, prefix=_TEXT, problem=st.none() | _TEXT,
       age=st.none() | st.integers(-10**9, 10**9), ascii=st.booleans())
def test_any_line_is_one_printable_line(document, prefix, problem, age, ascii):
    report = None if document is None else from_document(document)
    text = line(report, age_ms=age, max_age_ms=30 * 60_000, ascii=ascii, prefix=prefix, problem=problem)
    assert text.isprintable() and "\n" not in text
