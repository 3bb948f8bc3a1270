"""Core errors: the one exception type per failure class that the CLI maps to exit codes."""
from __future__ import annotations


class CortexError(Exception):
    """A failure with a public error code and exit code (the envelope's `error`)."""

    code = "internal_error"
    exit_code = 1

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


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
