"""Collect stage: the instants of a log's last lines, remembered by line digest beside the log cursors. Used by collectors.lifeos.heartbeats.

A heartbeat is the newest `ts` among a log's last rows, read from the end on every audit.
For memory-health.jsonl that is up to 1 MiB of whole reports, about 0.17 ms a row to decode
strictly, yet what a line says depends on its bytes alone. The memo keeps, for the lines of
the last tail read, a BLAKE2b digest of each and the row's `ts` when the line is a strict
object row whose `ts` is a valid instant (else null: the line names no instant); a line not
in the memo is decoded as before. Only strict timestamps are kept, never other text from the
log, so nothing in the memo can carry a private span. Derived data in the cursors' folder
(collectors.readers.memos: sealed by a digest over the whole memo, 0600, written atomically, no
fsync); a memo whose seal does not match (edited, even into other valid instants), damaged,
foreign or absent, or no folder, means every line is decoded.
"""
from __future__ import annotations


from collectors.readers.memos import DAMAGED, cursor_path, load_sealed, save_cursor
from cortex.core.sha256 import blake2b
from cortex.core.strictjson import parse_object
from cortex.core.timestamps import parse_timestamp_ms
from cortex.core.hookjson import dumps

FORMAT = "cortex-health-tail-stamps/1"


def line_stamp(line: bytes) -> str | None:
    """The `ts` of the row on this line when it is a valid instant, else None."""
    row = parse_object(line)
    ts = row.get("ts") if isinstance(row, dict) else None
    return ts if parse_timestamp_ms(ts) is not None else None


def tail_stamps(lines: list[bytes], log: str, folder: str | None) -> list[str | None]:
    """line_stamp of each line, decoding only the lines the memo does not know."""
    if folder is None:
        return [line_stamp(line) for line in lines]
    where = cursor_path(folder, log, FORMAT, 0, ".stamps")
    known = _load(where, log)
    seen: dict[str, str | None] = {}
    stamps = []
    for line in lines:
        key = blake2b(line, digest_size=16).hexdigest()
        stamp = known[key] if key in known else line_stamp(line)
        seen[key] = stamp
        stamps.append(stamp)
    if seen != known:
        save_cursor(where, dumps({"format": FORMAT, "log": log, "stamps": seen},
                                 separators=(",", ":")).encode())
    return stamps


def _load(where: str, log: str) -> dict[str, str | None]:
    try:
        memo = load_sealed(where)
        if memo["format"] != FORMAT or memo["log"] != log:
            return {}
        stamps = memo["stamps"]
        if type(stamps) is dict and all(value is None or (type(value) is str and parse_timestamp_ms(value) is not None)
                                        for value in stamps.values()):
            return stamps
    except DAMAGED:
        pass
    return {}
