"""The inference child never sees the host session's credentials (unless the config passes them)."""
from __future__ import annotations

import json

import pytest

from cortex.review.childenv import is_credential, stripped_environment
from tests.review_support import chat, program, review, write_config, write_transcript
from tests.write_support import tree  # noqa: F401 - fixture

CREDENTIALS = {"ANTHROPIC_API_KEY": "sk-ant-1", "ANTHROPIC_AUTH_TOKEN": "tok-2", "CLAUDE_CODE_OAUTH_TOKEN": "tok-3",
               "CLAUDE_CODE_ENTRYPOINT": "cli", "OPENAI_API_KEY": "sk-4", "AWS_SECRET_ACCESS_KEY": "aws-5",
               "GITHUB_TOKEN": "gh-6", "MY_SERVICE_PASSWORD": "pw-7"}


def dumped_env(tree, tmp_path, **env) -> dict:
    dump = tmp_path / "child-env.json"
    transcript = write_transcript(tree.home / "s.jsonl", chat(1))
    result = review(tree, "--input", str(transcript), CORTEX_REVIEWER_COMMAND=program("envdump", str(dump)), **env)
    assert result.code == 0, result.envelope
    return json.loads(dump.read_text())


def test_credentials_are_stripped_from_the_inference_child(tree, tmp_path):
    seen = dumped_env(tree, tmp_path, **CREDENTIALS, HARMLESS_SETTING="kept")
    assert not set(CREDENTIALS) & set(seen)
    assert seen["HARMLESS_SETTING"] == "kept" and seen["HOME"] == str(tree.home)
    assert seen["CORTEX_SUBAGENT"] == "1"  # its own hooks (a `claude -p`) must not recurse into memory


def test_the_config_can_pass_named_variables(tree, tmp_path):
    write_config(tree, pass_env=["ANTHROPIC_API_KEY"])
    seen = dumped_env(tree, tmp_path, **CREDENTIALS)
    assert seen["ANTHROPIC_API_KEY"] == "sk-ant-1" and "OPENAI_API_KEY" not in seen


@pytest.mark.parametrize("name, credential", [
    ("ANTHROPIC_BASE_URL", True), ("CLAUDE_CODE_USE_BEDROCK", True), ("SSH_AUTH_SOCK", True), ("HF_TOKEN", True),
    ("PATH", False), ("HOME", False), ("LANG", False), ("CORTEX_NOW", False), ("CORTEX_REVIEWER_COMMAND", False),
])
def test_credential_names(name, credential):
    assert is_credential(name) is credential
    assert (name in stripped_environment({name: "x"})) is not credential
