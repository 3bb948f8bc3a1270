"""Core errors: the one exception type per failure class that the CLI maps to exit codes."""
from __future__ import annotations


class CortexError(Exception):
    """A failure with a public error code and exit code (the envelope's `error`).

    Where the failure sits, when the raiser knows it, is kept beside the message (set with `at`):
    `file` (absolute, or relative to the memory root), `line` (1-based), `field` (a record field, a
    config key, a variable) and `rule` (a short name of the rule broken, e.g. "timestamp"). These
    never hold a value read from disk, so a hook's failure row and the auditor can name the fault
    without quoting it.
    """

    code = "internal_error"
    exit_code = 1
    file: str | None = None
    line: int | None = None
    field: str | None = None
    rule: str | None = None

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def at(self, file: str | None = None, line: int | None = None, field: str | None = None,
           rule: str | None = None) -> "CortexError":
        """This error with what is known of its place filled in (what is already set is kept); returns self."""
        self.file = self.file if self.file is not None else file
        self.line = self.line if self.line is not None else line
        self.field = self.field if self.field is not None else field
        self.rule = self.rule if self.rule is not None else rule
        return self


class InvalidInput(CortexError):
    code = "invalid_input"
    exit_code = 4


class IntegrityError(CortexError):
    code = "integrity_error"
    exit_code = 4


class NotFound(CortexError):
    code = "not_found"
    exit_code = 3


class WriteRefused(CortexError):
    code = "write_refused"
    exit_code = 5


class GovernanceRefused(CortexError):
    code = "governance_refused"
    exit_code = 5
