"""Collect stage (the health log's chain): the shape of the hash chain in O/memory-health.jsonl and of its checkpoint. Used by publish, the
health_history collector, `history --verify` and the chain verifier.

Stdlib only. A chained line is the compact report JSON whose last key is
`"chain":{"seq":N,"prev":"<sha256 hex>"}`: `prev` is the SHA-256 of the previous line's exact
bytes (newline included); the line with seq 1 commits instead to every byte before it. The
chain is spliced in as the final key so a line is recognised by its suffix without parsing
the whole report, and readers that ignore unknown keys see the report unchanged. The
checkpoint (O/memory-health.checkpoint) records the head the last append left: its sequence,
its hash, the run's time, and where the head line sits (line number, byte start and end),
sealed by a SHA-256 over those fields (its last key). The checkpoint is derived: readers check
the seal here and what it says against the line it points at (collectors.healthlog.verify) before
they use it.
"""
from __future__ import annotations

import os

from cortex import layout as contract
from cortex.core.sha256 import sha256_hex
from cortex.evidencerows import is_count
from cortex.core.hookjson import dumps, loads
from cortex.core.patterns import compiled
from cortex.core.namedtuples import namedtuple  # collections.namedtuple, without collections

CHECKPOINT_NAME = contract.HEALTH_CHECKPOINT
CHECKPOINT_SCHEMA = "cortex-health-checkpoint/v1"
MAX_CHECKPOINT_BYTES = 4096
EMPTY_SHA256 = sha256_hex(b"")
_KEY = b'"chain":'  # inside a JSON string a quote is escaped, so this only occurs as a key


def _link():  # compiled on first use (cortex.core.patterns): an audit of a tree without a health log never needs it
    return compiled(rb',"chain":\{"seq":([1-9][0-9]{0,15}),"prev":"([0-9a-f]{64})"\}\}\Z')


def checkpoint_path(log: str) -> str:
    """The checkpoint beside the health log `log`."""
    return os.path.join(os.path.dirname(log), CHECKPOINT_NAME)


def link_of(content: bytes) -> tuple[int, str] | str | None:
    """(seq, prev) of a line (without its newline); None when it carries no chain; a reason when the chain is bent."""
    found = _link().search(content, max(0, len(content) - 128))
    if found:
        return int(found.group(1)), found.group(2).decode("ascii")
    if _KEY in content:
        return 'it has a "chain" key that is not {"seq": N, "prev": "<sha256>"} closing the line'
    return None


def splice(report_json: str, seq: int, prev: str) -> str:
    """The report line with its chain as the final key (`report_json` is one compact JSON object)."""
    text = report_json.rstrip("\n")
    if not text.endswith("}") or text == "{}":
        raise ValueError("a chained line must be a non-empty JSON object")
    return f'{text[:-1]},"chain":{{"seq":{seq},"prev":"{prev}"}}}}'


FIELDS = ("seq", "head", "ts", "line", "start", "end")


class Checkpoint(namedtuple("Checkpoint", FIELDS + ("sealed",), defaults=(True,))):
    """seq: int, sequence number of the head line; head: str, SHA-256 of the head line's bytes (newline included); ts:
    str, the time of the run that appended it (the report's ts); line: int, 1-based line number of the head line;
    start: int, byte offset where the head line starts; end: int, byte offset just after its newline (the log's size
    after that append); sealed: bool, False for a checkpoint written before seals (its line number is unproven).
    """

    __slots__ = ()

    def text(self) -> str:
        body = _body({name: getattr(self, name) for name in FIELDS})
        return f'{body[:-1]},"seal":"{sha256_hex(body.encode())}"}}\n'


def _body(fields: dict) -> str:
    return dumps({"schema": CHECKPOINT_SCHEMA, **fields}, separators=(",", ":"))


def parse_checkpoint(data: bytes) -> Checkpoint | str:
    """The checkpoint in `data`, or why it is not one."""
    try:
        row = loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        return f"not JSON: {error}"
    if not isinstance(row, dict) or row.get("schema") != CHECKPOINT_SCHEMA:
        return f"not a {CHECKPOINT_SCHEMA} object"
    fields = {name: row.get(name) for name in FIELDS}
    if not all(is_count(fields[name]) for name in ("seq", "line", "start", "end")) or fields["seq"] < 1:
        return "seq, line, start and end must be whole numbers (seq at least 1)"
    if not isinstance(fields["head"], str) or not compiled(r"[0-9a-f]{64}").fullmatch(fields["head"]):
        return "head must be a SHA-256 in lowercase hex"
    if not isinstance(fields["ts"], str) or fields["start"] >= fields["end"]:
        return "ts must be a string and start must lie before end"
    seal = row.get("seal")
    if seal is not None and seal != sha256_hex(_body(fields).encode()):
        return "its seal does not match its fields: it was edited or damaged"
    return Checkpoint(**fields, sealed=seal is not None)


def read_checkpoint(path: str) -> Checkpoint | str | None:
    """The checkpoint at `path`; None when there is none; a reason when it cannot be used."""
    from cortex.core.safeio import read_bounded

    try:
        data = read_bounded(path, MAX_CHECKPOINT_BYTES)
    except FileNotFoundError:
        return None
    except OSError as error:
        return f"unreadable: {error}"
    return parse_checkpoint(data)
