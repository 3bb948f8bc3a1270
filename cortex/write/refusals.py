"""Write path: the one refusal type every governed writer raises; the CLI maps it to governance_refused.

`reason` is the machine code the reference used (EAT_CAP, ESUSPECT_SHRINK, ESUSPECT_EROSION,
EINVAL_PATH, EINVAL_ITEM, ELOCK_HELD, ENOT_PENDING ...), `detail` the structured payload
(e.g. EAT_CAP's over_count and indexed submission) for in-process callers such as the reviewer.
The envelope message always starts with the reason, so CLI callers can branch on it too.
"""
from __future__ import annotations

from cortex.errors import GovernanceRefused


class Refusal(GovernanceRefused):
    def __init__(self, reason: str, message: str, detail: dict | None = None):
        super().__init__(f"{reason}: {message}")
        self.reason = reason
        self.detail = dict(detail or {})
