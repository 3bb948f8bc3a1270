"""Collect stage: memory-review.json (and CORTEX_REVIEWER_COMMAND) validated as `cortex review fire` and `review run` validate it. Called through health.judge.checks.

A broken config makes `review fire` exit 1 on every Stop and `review run` exit 4: no review
ever runs. The auditor runs the reviewer's own loader (cortex.review.reviewconfig.load_config,
pydantic) in the environment the hooks get (the settings' env over the auditor's), read-only.
pydantic costs an audit ~100 ms to import, so the verdict is remembered beside the log
cursors, bound to the SHA-256 of the file's bytes and of the override's value, and to the
release (whose loader may accept other things): only a changed file, override or release is
validated again. The memo is derived data (collectors.readers.memos, in the cursors' folder, 0600, sealed as a
cursor is); a seal that does not match (a verdict edited, even into another valid one),
damaged, foreign or absent means validating afresh. It holds the loader's
message, which never quotes a private span (the loader strips them before validating).
An absent file means the defaults, as for the hooks (only the override is checked then).
"""
from __future__ import annotations


from collectors.readers.settings import hook_environment
from collectors.evidence import EvidenceStatus
from collectors.lifeos.layout import Layout
from collectors.readers.memos import DAMAGED, cursor_path, load_sealed, save_cursor
from collectors.readers.text import clip
from cortex import __version__, layout as contract
from cortex.core.safeio import UnsafeFile, read_bounded
from cortex.core.sha256 import sha256
from cortex.errors import CortexError
from cortex.review.reviewdefaults import COMMAND_ENV, command_override, config_absent, config_path
from cortex.core.hookjson import dumps

NAME = "cortex-health-review-config/1"  # the memo's file: one per source, whichever release wrote it
FORMAT = f"{NAME};{__version__}"  # a release may change what the loader accepts
MAX_READ_BYTES = 1 << 20  # the loader refuses far less; this only bounds what is hashed


class ReviewerConfigEvidence:
    """status: EvidenceStatus (ok: valid or absent; malformed: refused); path: str; state: str, absent | valid |
    invalid; message: str | None, the loader's error; field: str | None (a key, or COMMAND_ENV); line: int | None;
    rule: str | None. Whether the verdict was remembered is left out: derived data never changes the report.
    """

    __slots__ = ("status", "path", "state", "message", "field", "line", "rule")

    def __init__(self, status, path, state, message=None, field=None, line=None, rule=None) -> None:
        self.status, self.path, self.state, self.message, self.field = status, path, state, message, field
        self.line, self.rule = line, rule


def verdict_of(core: contract.Layout, environ) -> dict | None:
    """None when the reviewer's loader accepts the config, else its error as {message, field, line, rule}."""
    from cortex.review.reviewconfig import load_config  # pydantic: only when no remembered verdict applies

    try:
        load_config(core, environ)
    except CortexError as error:
        return {"message": error.message, "field": error.field, "line": error.line, "rule": error.rule}
    return None


def _memo_key(path: str, environ) -> str | None:
    try:
        data = read_bounded(path, MAX_READ_BYTES)
    except (OSError, UnsafeFile):
        return None  # unreadable: the loader says why, every time (no pydantic is saved on a broken file)
    override = environ.get(COMMAND_ENV, "")
    return sha256(data + b"\0" + override.encode("utf-8", "surrogateescape")).hexdigest()


def _shaped(verdict: object) -> bool:
    """As verdict_of writes it: the seal is not keyed, so a memo that says more than the loader can is not used."""
    return type(verdict) is dict and set(verdict) == {"message", "field", "line", "rule"} \
        and type(verdict["message"]) is str and all(verdict[name] is None or type(verdict[name]) is str
                                                    for name in ("field", "rule")) \
        and (verdict["line"] is None or type(verdict["line"]) is int)


def _remembered(where: str, key: str) -> tuple[bool, dict | None]:
    try:
        memo = load_sealed(where)  # a seal that does not match (an edited verdict) means validating afresh
        verdict = memo["verdict"]
        if memo["format"] == FORMAT and memo["key"] == key and (verdict is None or _shaped(verdict)):
            return True, verdict
    except DAMAGED:
        pass
    return False, None


def _verdict(layout: Layout, core: contract.Layout, environ) -> dict | None:
    path = config_path(core)
    key = _memo_key(path, environ)
    where = cursor_path(layout.cursors, path, NAME, 0, ".verdict") if layout.cursors and key else None
    if where:
        known, verdict = _remembered(where, key)
        if known:
            return verdict
    verdict = verdict_of(core, environ)
    if where:
        save_cursor(where, dumps({"format": FORMAT, "key": key, "verdict": verdict}).encode())
    return verdict


def collect(layout: Layout) -> ReviewerConfigEvidence:
    core = contract.Layout.from_claude_root(layout.root)
    path = config_path(core)
    environ = hook_environment(layout.settings.env, layout.environ)
    if config_absent(core):  # the defaults, as the hooks read them: only the override can be wrong
        try:
            command_override(environ)
        except CortexError as error:
            return ReviewerConfigEvidence(EvidenceStatus.MALFORMED, path, "invalid", clip(error.message), error.field,
                                          error.line, error.rule)
        return ReviewerConfigEvidence(EvidenceStatus.OK, path, "absent")
    verdict = _verdict(layout, core, environ)
    if verdict is None:
        return ReviewerConfigEvidence(EvidenceStatus.OK, path, "valid")
    line = verdict.get("line")
    return ReviewerConfigEvidence(EvidenceStatus.MALFORMED, path, "invalid", clip(verdict["message"]),
                                  clip(verdict.get("field")), line if type(line) is int else None,
                                  clip(verdict.get("rule")))
