"""Reviewer stage (stdlib only): the environment handed to the reviewer and its inference child; used by `review fire` and the inference runner.

The reviewer runs outside the host session, so it must not inherit the session's
credentials: ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN, every CLAUDE_CODE* variable,
OPENAI_API_KEY and anything else that looks like a credential are removed. The inference
command authenticates on its own (e.g. `claude -p` with its stored login). Variables the
config names in `pass_env` are kept; nothing else is added except the subagent marker.
"""
from __future__ import annotations

import re

TYPE_CHECKING = False  # typing costs the Stop hook milliseconds
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

from cortex.hookinput import SUBAGENT_ENV

_CREDENTIAL = re.compile(
    r"^(ANTHROPIC_|CLAUDE_CODE|CLAUDECODE|OPENAI_|AZURE_OPENAI|GEMINI_|GOOGLE_API|MISTRAL_|GROQ_|COHERE_|HF_|HUGGING"
    r"|AWS_|GH_|GITHUB_TOKEN)"
    r"|(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|PRIVATE_KEY|ACCESS_KEY|SESSION_KEY|AUTH)",
    re.IGNORECASE,
)


def is_credential(name: str) -> bool:
    return bool(_CREDENTIAL.search(name))


def stripped_environment(environ: Mapping[str, str], pass_env: Iterable[str] = ()) -> dict[str, str]:
    """A copy of `environ` without credential-like variables (except those in `pass_env`)."""
    allowed = set(pass_env)
    return {name: value for name, value in environ.items() if name in allowed or not is_credential(name)}


def inference_environment(environ: Mapping[str, str], pass_env: Iterable[str] = ()) -> dict[str, str]:
    """The inference child's environment: stripped, and marked as a subagent session."""
    env = stripped_environment(environ, pass_env)
    env[SUBAGENT_ENV] = "1"
    return env
