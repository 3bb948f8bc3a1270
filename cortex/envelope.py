"""Core response envelope: the pydantic model every `cortex` invocation is validated against.

The published JSON Schema (cortex/schemas/lifeos-cortex-v1.schema.json) is generated from
these models by `python -m cortex.schemas`; a test checks the shipped file is current.
"""
from __future__ import annotations

from typing import Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, RootModel, StrictStr, model_validator

from cortex.envelope_data import EXIT_CODES, SCHEMA_ID, failure, success  # noqa: F401 - re-exported


class ErrorBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    code: StrictStr = Field(description="machine-readable error code, e.g. invalid_input")
    message: StrictStr


class SuccessEnvelope(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, title="CortexSuccess")
    schema_: Literal["lifeos-cortex/v1"] = Field(alias="schema")
    ok: Literal[True]
    command: StrictStr
    data: dict[str, Any] = Field(description="command payload; never null on success")
    error: None


class FailureEnvelope(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, title="CortexFailure")
    schema_: Literal["lifeos-cortex/v1"] = Field(alias="schema")
    ok: Literal[False]
    command: StrictStr
    data: None
    error: ErrorBody


class Envelope(RootModel[Union[SuccessEnvelope, FailureEnvelope]]):
    model_config = ConfigDict(title="lifeos-cortex/v1 envelope")

    @model_validator(mode="before")
    @classmethod
    def _ok_is_boolean(cls, value: Any) -> Any:
        # 1 == True in Python; the contract wants a JSON boolean, nothing truthy.
        if isinstance(value, dict) and type(value.get("ok")) is not bool:
            raise ValueError("ok must be boolean")
        return value




def validate_envelope(envelope: dict) -> None:
    """Raise pydantic.ValidationError unless `envelope` has exactly the contract's shape."""
    Envelope.model_validate(envelope)


def envelope_json_schema() -> dict:
    schema = Envelope.model_json_schema(by_alias=True)
    # success and failure are mutually exclusive (ok is a const in each): say oneOf.
    schema["oneOf"] = schema.pop("anyOf")
    return schema
