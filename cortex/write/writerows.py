"""Write path: the shape of one O/memory-writes.jsonl row (every hot-memory write attempt); used by cortex.write.hotwriter.

Exactly ts, file, updated_by, prior_count, new_count, evictions, additions, dropped, ok,
error. Refused attempts are logged too (ok false, error {code, message}) with the full
delta they would have made: a blocked write is precisely the evidence needed to tell
erosion from consolidation later. prior_count is null when the prior file was unreadable.
"""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr


class _Row(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class DroppedEntry(_Row):
    entry: StrictStr
    reason: Literal["malformed", "overlength", "duplicate", "unparsed"] = Field(
        description="unparsed: a line of the prior file's entry block that was not an entry (a hand edit), dropped "
                    "by this write")


class WriteError(_Row):
    code: StrictStr = Field(description="EAT_CAP, ESUSPECT_SHRINK, ESUSPECT_EROSION, EINVAL_PATH, …")
    message: StrictStr


class MemoryWriteRow(_Row):
    model_config = ConfigDict(title="lifeos-cortex/v1 memory-writes row")

    ts: StrictStr
    file: StrictStr
    updated_by: StrictStr
    prior_count: Optional[StrictInt] = Field(ge=0)
    new_count: Optional[StrictInt] = Field(ge=0)
    evictions: list[StrictStr]
    additions: list[StrictStr]
    dropped: list[DroppedEntry]
    ok: StrictBool
    error: Optional[WriteError]
