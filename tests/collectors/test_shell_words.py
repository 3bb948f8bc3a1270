"""The hook commands' words: collectors.readers.settings.shell_words is shlex.split, without shlex for plain words."""
from __future__ import annotations

import re
import shlex

import pytest
from hypothesis import given, settings, strategies as st

from collectors.readers.settings import is_assignment, shell_words

# Spaces, tabs, newlines, quotes, backslashes, comment and variable marks, a non-ASCII letter and a control character.
_ALPHABET = st.sampled_from(list("ab/._-=$#{}:~ \t\n\r\x0b\x0c'\"\\é\x00"))


def _split(command: str) -> list[str] | str:
    try:
        return shlex.split(command)
    except ValueError as error:
        return str(error)


def _words(command: str) -> list[str] | str:
    try:
        return shell_words(command)
    except ValueError as error:
        return str(error)


@settings(max_examples=500, deadline=None)
@given(st.text(_ALPHABET, max_size=30))
def test_shell_words_are_shlex_split(command):
    assert _words(command) == _split(command)


@pytest.mark.parametrize("command", ["cortex recall", "  /usr/bin/cortex   hot render  ", "A=1 B=2 cortex-health gate",
                                     "cortex review fire # not a comment to shlex.split", "", "   ",
                                     "'cortex' recall", "cortex\trecall", 'say "two words"', "a\\ b", "it's"])
def test_usual_hook_commands(command):
    assert _words(command) == _split(command)


@given(st.text(st.sampled_from(list("aZ_09=é٣ -$\n")), max_size=8) | st.text(max_size=8))
def test_is_assignment_is_the_pattern_s_match(word):
    assert is_assignment(word) == (re.match(r"[A-Za-z_][A-Za-z0-9_]*=", word) is not None)
