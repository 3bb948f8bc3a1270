"""Report stage: the OTLP resource (who is speaking) of an export. Used by the otlp-json format and the OTLP exporter.

Attributes, later ones winning: those of OTEL_RESOURCE_ATTRIBUTES, then `service.name` from
OTEL_SERVICE_NAME (else the one OTEL_RESOURCE_ATTRIBUTES gave, else "cortex-health"),
`host.name` unless OTEL_RESOURCE_ATTRIBUTES names one, and the audited tree:
`cortex.memory.store.id` (a digest of the audited root, never the path) and `cortex.layout`
(lifeos | dense-context) when the run knows it.

OTEL_RESOURCE_ATTRIBUTES is parsed as the OpenTelemetry resource SDK specifies: a list of
`key=value` members separated by commas (W3C Baggage without properties), optional white
space around keys and values trimmed, keys RFC 7230 tokens, values percent-encoded UTF-8
whose characters outside the baggage-octet range must be percent-encoded. Any error discards
the whole variable, as the specification asks, and says why (never quoting a value).
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping

DEFAULT_SERVICE = "cortex-health"
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+\Z")
_BAGGAGE_VALUE = re.compile(r"[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*\Z")  # baggage-octets
_PERCENT = re.compile(r"%([0-9A-Fa-f]{2})")
_OWS = " \t"


class AttributesError(ValueError):
    """OTEL_RESOURCE_ATTRIBUTES (or OTEL_EXPORTER_OTLP_HEADERS, same grammar) is not a key=value list."""


def percent_decoded(value: str) -> str:
    """A percent-encoded UTF-8 value, decoded strictly (a stray % or invalid UTF-8 is an error)."""
    from urllib.parse import unquote_to_bytes

    if "%" in _PERCENT.sub("", value):
        raise AttributesError("a % not followed by two hex digits")
    try:
        return unquote_to_bytes(value).decode("utf-8")
    except UnicodeDecodeError:
        raise AttributesError("a percent-encoded value that is not UTF-8") from None


def key_values(text: str) -> list[tuple[str, str]]:
    """`key1=value1,key2=value2` members in order; AttributesError names the first bad member by position."""
    if not text.strip(_OWS):
        return []
    pairs = []
    for number, member in enumerate(text.split(","), 1):
        key, sep, value = member.partition("=")
        key, value = key.strip(_OWS), value.strip(_OWS)
        if not sep or not _TOKEN.match(key):
            raise AttributesError(f"member {number} is not key=value with a token key")
        if not _BAGGAGE_VALUE.match(value):
            raise AttributesError(f"member {number} has a value with characters that must be percent-encoded")
        try:
            pairs.append((key, percent_decoded(value)))
        except AttributesError as error:
            raise AttributesError(f"member {number} has {error}") from None
    return pairs


def store_id(root: str) -> str:
    """`gen_ai.memory.store.id` of an audited root: a digest of its path, which itself never leaves the host."""
    return hashlib.blake2b(root.encode("utf-8", "surrogateescape"), digest_size=8,
                           person=b"cortex-mem-store").hexdigest()


def resource_attributes(environ: Mapping[str, str], root: str | None,
                        layout: str | None = None) -> tuple[dict[str, str], str | None]:
    """(attributes, why OTEL_RESOURCE_ATTRIBUTES was discarded or None)."""
    from cortex.core.liveness import host_name

    problem = None
    try:
        found = dict(key_values(environ.get("OTEL_RESOURCE_ATTRIBUTES", "")))
    except AttributesError as error:
        found, problem = {}, f"OTEL_RESOURCE_ATTRIBUTES ignored: {error}"
    found["service.name"] = environ.get("OTEL_SERVICE_NAME", "").strip() or found.get("service.name") or DEFAULT_SERVICE
    found.setdefault("host.name", host_name())
    if root:
        found["cortex.memory.store.id"] = store_id(root)
    if layout:
        found["cortex.layout"] = layout
    return found, problem
