"""Reviewer stage (stdlib only): the environment handed to the reviewer and its inference child; used by `review fire` and the inference runner.

The reviewer runs outside the host session, so it must not inherit the session's
credentials: ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN, every CLAUDE_CODE* variable,
OPENAI_API_KEY and anything else that looks like a credential are removed. The inference
command authenticates on its own (e.g. `claude -p` with its stored login). Variables the
config names in `pass_env` are kept; nothing else is added except the subagent marker.
`review fire` tells the detached reviewer which credential names it withheld (names, never
values: WITHHELD_ENV, itself stripped from the inference child), so a failed run can say that
the command may have needed one.
"""
from __future__ import annotations

import re

TYPE_CHECKING = False  # typing costs the Stop hook milliseconds
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

from cortex.hookinput import SUBAGENT_ENV

WITHHELD_ENV = "CORTEX_WITHHELD_CREDENTIALS"  # comma-separated names; "CREDENTIAL" in it keeps it from the child
_SESSION_MARKERS = ("CLAUDE_CODE", "CLAUDECODE")  # the host session's own markers, withheld on purpose
_NAME = r"[A-Za-z_][A-Za-z0-9_]{0,127}"

_CREDENTIAL = re.compile(
    r"^(ANTHROPIC_|CLAUDE_CODE|CLAUDECODE|OPENAI_|AZURE_OPENAI|GEMINI_|GOOGLE_API|MISTRAL_|GROQ_|COHERE_|HF_|HUGGING"
    r"|AWS_|GH_|GITHUB_TOKEN)"
    r"|(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|PRIVATE_KEY|ACCESS_KEY|SESSION_KEY|AUTH)",
    re.IGNORECASE,
)
# Of those, what a model command may need (its vendor's variables, anything secret-looking): named in hints.
# Patterns, not compiled here: only a review that starts or fails needs them, never a Stop that just counts.
_MODEL_CREDENTIAL = (r"(?i)^(ANTHROPIC_|OPENAI_|AZURE_OPENAI|GEMINI_|GOOGLE_API|MISTRAL_|GROQ_|COHERE_|HF_|HUGGING)"
                     r"|(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|PRIVATE_KEY|ACCESS_KEY|SESSION_KEY|AUTH)")


def is_credential(name: str) -> bool:
    return bool(_CREDENTIAL.search(name))


def stripped_environment(environ: Mapping[str, str], pass_env: Iterable[str] = ()) -> dict[str, str]:
    """A copy of `environ` without credential-like variables (except those in `pass_env`)."""
    allowed = set(pass_env)
    return {name: value for name, value in environ.items() if name in allowed or not is_credential(name)}


def withheld(environ: Mapping[str, str], pass_env: Iterable[str] = ()) -> list[str]:
    """Names of the variables a model command may need (API keys, tokens, its vendor's settings) that are set in
    `environ` (or were withheld earlier by `review fire`) and that the inference command will not see."""
    allowed = set(pass_env)
    names = {name for name, value in environ.items() if value and is_credential(name) and re.search(_MODEL_CREDENTIAL, name)
             and name != WITHHELD_ENV and not name.startswith(_SESSION_MARKERS)}
    names.update(name for name in environ.get(WITHHELD_ENV, "").split(",")[:64] if re.fullmatch(_NAME, name))
    return sorted(names - allowed)


def reviewer_environment(environ: Mapping[str, str], pass_env: Iterable[str] = ()) -> dict[str, str]:
    """The detached reviewer's environment (`review fire`): stripped, with the withheld names noted."""
    env = stripped_environment(environ, pass_env)
    names = withheld(environ, pass_env)
    if names:
        env[WITHHELD_ENV] = ",".join(names)
    return env


def inference_environment(environ: Mapping[str, str], pass_env: Iterable[str] = ()) -> dict[str, str]:
    """The inference child's environment: stripped, and marked as a subagent session."""
    env = stripped_environment(environ, pass_env)
    env[SUBAGENT_ENV] = "1"
    return env
