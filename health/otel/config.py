"""Application: where and how each OTLP signal is sent, from the standard OTEL_* variables. Used by health.otel.export.

Per signal (metrics, logs, traces), the signal's own variable beats the general one, as the
OpenTelemetry exporter specification says:
  * endpoint: OTEL_EXPORTER_OTLP_<SIGNAL>_ENDPOINT is used as is (a URL with no path posts to
    `/`); else OTEL_EXPORTER_OTLP_ENDPOINT (default http://localhost:4318) with `v1/<signal>`
    appended to its path;
  * headers: OTEL_EXPORTER_OTLP_<SIGNAL>_HEADERS else OTEL_EXPORTER_OTLP_HEADERS, `key=value`
    pairs separated by commas, values percent-decoded (W3C Baggage, as for resources);
  * timeout: ..._TIMEOUT in integer milliseconds (default 10000);
  * compression: ..._COMPRESSION `gzip` or `none`;
  * protocol: ..._PROTOCOL must be `http/json` (or unset): this exporter speaks only OTLP/HTTP
    with JSON bodies, and says so rather than post JSON where protobuf or gRPC was asked for;
  * TLS: ..._CERTIFICATE (trusted CA file), ..._CLIENT_CERTIFICATE and ..._CLIENT_KEY (mTLS);
  * OTEL_<SIGNAL>_EXPORTER=none leaves the signal out; OTEL_SDK_DISABLED=true leaves all out.
Only `http://` to a loopback address (127.0.0.0/8, ::1, localhost) or an explicit `https://`
URL is used: anything else is refused, with the reason. A URL is shown (in findings, on
stderr) without its user info, query or fragment, and headers are never shown at all: they
and the URL's query may hold tokens.
"""
from __future__ import annotations

import re
from collections import namedtuple
from collections.abc import Mapping

SIGNALS = ("metrics", "logs", "traces")
DEFAULT_ENDPOINT = "http://localhost:4318"
DEFAULT_TIMEOUT_MS = 10_000
JSON_PROTOCOL = "http/json"
_MILLISECONDS = re.compile(r"[0-9]{1,9}\Z", re.ASCII)
_FORBIDDEN_IN_HEADER = re.compile(r"[\x00-\x1f\x7f]")


class Target(namedtuple("Target", "signal url shown headers timeout_ms gzip tls refused disabled")):
    """One signal's destination. url: str (used, may hold a token in its query); shown: str (safe to print);
    headers: tuple of (name, value); timeout_ms: int; gzip: bool; tls: tuple (cafile, certfile, keyfile), each
    str | None; refused: str | None (why it is not sent); disabled: bool (OTEL_<SIGNAL>_EXPORTER=none).
    """

    __slots__ = ()


def _setting(environ: Mapping[str, str], signal: str, name: str) -> str:
    """The signal's own OTEL_EXPORTER_OTLP_<SIGNAL>_<NAME>, else the general one ("" when neither is set)."""
    own = environ.get(f"OTEL_EXPORTER_OTLP_{signal.upper()}_{name}", "").strip()
    return own or environ.get(f"OTEL_EXPORTER_OTLP_{name}", "").strip()


def endpoint(environ: Mapping[str, str], signal: str) -> str:
    from urllib.parse import urlsplit, urlunsplit

    own = environ.get(f"OTEL_EXPORTER_OTLP_{signal.upper()}_ENDPOINT", "").strip()
    if own:
        return own
    base = environ.get("OTEL_EXPORTER_OTLP_ENDPOINT", "").strip() or DEFAULT_ENDPOINT
    try:
        parts = urlsplit(base)
    except ValueError:
        return base  # refused below, with the reason
    return urlunsplit(parts._replace(path=parts.path.rstrip("/") + f"/v1/{signal}"))


def shown(url: str) -> str:
    """The URL without user info, query or fragment: what a finding or stderr may say."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port is not None else ""
    except ValueError:
        return "(an unparsable URL)"
    host = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{host}{port}{parts.path}" if parts.scheme else "(a URL without a scheme)"


def is_loopback(host: str) -> bool:
    import ipaddress

    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def refusal(url: str) -> str | None:
    """Why `url` must not be posted to, or None."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        return f"not a usable URL ({error})"
    scheme, host = parts.scheme.lower(), parts.hostname
    if scheme not in ("http", "https"):
        return "the endpoint needs http:// (loopback only) or https://"
    if not host:
        return "the endpoint names no host"
    if scheme == "http" and not is_loopback(host):
        return "plain http:// is used only to a loopback address (127.0.0.1, ::1, localhost); use https://"
    if port == 0:
        return "the endpoint's port is 0"
    return None


def headers(text: str) -> tuple[tuple[str, str], ...]:
    """OTEL_EXPORTER_OTLP_HEADERS pairs; ValueError (never quoting a value) when they cannot be sent."""
    from reports.otlp.resource import key_values

    pairs = tuple(key_values(text))
    if any(_FORBIDDEN_IN_HEADER.search(value) for _, value in pairs):
        raise ValueError("a header value holds a control character")
    return pairs


def timeout_ms(environ: Mapping[str, str], signal: str) -> tuple[int, str | None]:
    text = _setting(environ, signal, "TIMEOUT")
    if not text:
        return DEFAULT_TIMEOUT_MS, None
    if _MILLISECONDS.match(text) and int(text) > 0:
        return int(text), None
    return DEFAULT_TIMEOUT_MS, f"{signal}: the OTLP timeout must be a whole number of milliseconds > 0; " \
                               f"using {DEFAULT_TIMEOUT_MS}"


def disabled(environ: Mapping[str, str], signal: str) -> bool:
    chosen = environ.get(f"OTEL_{signal.upper()}_EXPORTER", "").strip().lower()
    return chosen == "none" or environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true"


def target(environ: Mapping[str, str], signal: str) -> tuple[Target, list[str]]:
    """The signal's Target and notes about settings that were set but could not be used."""
    notes = []
    url = endpoint(environ, signal)
    refused = refusal(url)
    protocol = _setting(environ, signal, "PROTOCOL").lower()
    if refused is None and protocol not in ("", JSON_PROTOCOL):
        refused = f"OTEL_EXPORTER_OTLP_PROTOCOL is {protocol}; cortex-health sends only http/json"
    try:
        pairs = headers(_setting(environ, signal, "HEADERS"))
    except ValueError as error:
        pairs = ()
        refused = refused or f"OTEL_EXPORTER_OTLP_HEADERS cannot be sent: {error}"
    compression = _setting(environ, signal, "COMPRESSION").lower()
    if compression not in ("", "none", "gzip"):
        notes.append(f"{signal}: OTLP compression {compression!r} is not supported; sending uncompressed")
    wait, note = timeout_ms(environ, signal)
    notes += [note] if note else []
    tls = tuple(_setting(environ, signal, name) or None for name in ("CERTIFICATE", "CLIENT_CERTIFICATE", "CLIENT_KEY"))
    return Target(signal, url, shown(url), pairs, wait, compression == "gzip", tls, refused,
                  disabled(environ, signal)), notes


def targets(environ: Mapping[str, str]) -> tuple[dict[str, Target], list[str]]:
    found, notes = {}, []
    for signal in SIGNALS:
        found[signal], more = target(environ, signal)
        notes += more
    return found, notes
