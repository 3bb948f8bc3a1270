"""Write commands: `cortex remember JSON` and `cortex propose JSON`; registered with the CLI.

Both need an explicit recognised --adapter AND --allow-write (naming an adapter grants
nothing). Checks run in this order, each before anything is touched: authorisation
(write_refused, exit 5) → exactly one payload (invalid_input, exit 4) → payload size and
strict JSON (exit 4) → command/type binding (remember: memory|idea|knowledge, propose:
proposal; write_refused, exit 5) → item validation and governance (governance_refused, exit 5).
Success: {adapter, result}.
"""
from __future__ import annotations

from cortex.errors import InvalidInput, WriteRefused
from cortex.invocation import CommandSpec, Invocation
from cortex.write.routing import add, types_for
from cortex.core.strictjson import loads_strict
from cortex.write.writecontext import WriteContext

MAX_PAYLOAD_BYTES = 262_144


def write(inv: Invocation) -> dict:
    if not inv.adapter or not inv.flag("--allow-write"):
        raise WriteRefused("Write commands require explicit --adapter and --allow-write")
    if len(inv.positionals) != 1:
        raise InvalidInput("Write command requires exactly one JSON payload")
    raw = inv.positionals[0]
    if len(raw.encode("utf-8")) > MAX_PAYLOAD_BYTES:
        raise InvalidInput(f"Write payload exceeds {MAX_PAYLOAD_BYTES} bytes")
    value = loads_strict(raw, what="Write payload")
    accepted = types_for(inv.command)
    if not isinstance(value, dict) or not isinstance(value.get("type"), str) or value["type"] not in accepted:
        raise WriteRefused(f"{inv.command} payload type is not authorized for this command (accepts: {', '.join(accepted)})")
    result = add(WriteContext.from_invocation(inv), value, source=inv.adapter)
    return {"adapter": inv.adapter, "result": result}


_ALLOW_WRITE = frozenset({"--allow-write"})

COMMANDS = [
    CommandSpec("remember", write, flag_options=_ALLOW_WRITE, usage="cortex remember ITEM_JSON --adapter NAME --allow-write",
                option_help=(("--adapter NAME --allow-write", "both required (else exit 5 write_refused)"),)),
    CommandSpec("propose", write, flag_options=_ALLOW_WRITE, usage="cortex propose ITEM_JSON --adapter NAME --allow-write",
                option_help=(("--adapter NAME --allow-write", "both required (else exit 5 write_refused)"),)),
]
