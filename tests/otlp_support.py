"""Test helpers for the OTLP suites: a loopback OTLP/HTTP receiver and strict decoding with the official definitions.

Every body is decoded by opentelemetry-proto's ExportMetricsServiceRequest /
ExportLogsServiceRequest / ExportTraceServiceRequest through protobuf's JSON parser with
unknown fields refused, after a walk over the JSON against the same descriptors that holds
it to the OTLP/JSON rules protobuf's parser is lenient about: every key lowerCamelCase (the
parser also takes the proto names), every 64-bit integer a decimal string, every enum an
integer, and trace and span ids lowercase hex of their exact size (OTLP's one departure from
proto3 JSON: they are turned into base64 for the parser, and checked).
"""
from __future__ import annotations

import base64
import gzip
import json
import re
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from google.protobuf import json_format
from google.protobuf.descriptor import FieldDescriptor
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import ExportMetricsServiceRequest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

REQUESTS = {"metrics": ExportMetricsServiceRequest, "logs": ExportLogsServiceRequest,
            "traces": ExportTraceServiceRequest}
_INT64 = {FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_FIXED64,
          FieldDescriptor.TYPE_SFIXED64, FieldDescriptor.TYPE_SINT64}
_HEX_IDS = {"trace_id": 16, "span_id": 8, "parent_span_id": 8}
_CAMEL = re.compile(r"[a-z][a-zA-Z0-9]*\Z")
_DECIMAL = re.compile(r"-?[0-9]+\Z")


def _repeated(field) -> bool:
    flag = getattr(field, "is_repeated", None)
    return flag if flag is not None else field.label == FieldDescriptor.LABEL_REPEATED


def _strict(value: dict, descriptor, where: str) -> None:
    assert isinstance(value, dict), f"{where}: not an object"
    for key in list(value):
        assert _CAMEL.match(key), f"{where}.{key}: not a lowerCamelCase field name"
        field = descriptor.fields_by_camelcase_name.get(key)
        assert field is not None, f"{where}.{key}: no such field in {descriptor.full_name}"
        items = value[key]
        if _repeated(field):
            assert isinstance(items, list), f"{where}.{key}: a repeated field must be an array"
        else:
            items = [items]
        converted = []
        for index, item in enumerate(items):
            at = f"{where}.{key}[{index}]"
            if field.type == FieldDescriptor.TYPE_MESSAGE:
                _strict(item, field.message_type, at)
            elif field.type in _INT64:
                assert isinstance(item, str) and _DECIMAL.match(item), f"{at}: a 64-bit integer must be a string"
            elif field.type == FieldDescriptor.TYPE_ENUM:
                assert type(item) is int, f"{at}: an enum must be an integer"
            elif field.type == FieldDescriptor.TYPE_BYTES and field.name in _HEX_IDS:
                size = _HEX_IDS[field.name]
                assert isinstance(item, str) and re.fullmatch(f"[0-9a-f]{{{2 * size}}}", item), \
                    f"{at}: must be {2 * size} lowercase hex digits"
                assert item.strip("0"), f"{at}: an all-zero id means no id"
                item = base64.b64encode(bytes.fromhex(item)).decode()
            converted.append(item)
        value[key] = converted if _repeated(field) else converted[0]


def decode(signal: str, body: bytes | str):
    """The request message of one OTLP/JSON body, decoded strictly; AssertionError or ParseError when it is not."""
    data = json.loads(body)
    request = REQUESTS[signal]()
    _strict(data, request.DESCRIPTOR, signal)
    return json_format.Parse(json.dumps(data), request, ignore_unknown_fields=False)


def attributes(message) -> dict:
    """A repeated KeyValue field as a plain dict (AnyValue kvlists as dicts, arrays as lists)."""
    return {item.key: any_value(item.value) for item in message}


def any_value(value):
    kind = value.WhichOneof("value")
    if kind is None:
        return None
    if kind == "kvlist_value":
        return attributes(value.kvlist_value.values)
    if kind == "array_value":
        return [any_value(item) for item in value.array_value.values]
    return getattr(value, kind)


class _Handler(BaseHTTPRequestHandler):
    server_version = "otlp-test-receiver"

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        receiver = self.server.receiver
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        receiver.received.append((self.path, dict(self.headers), body))
        if receiver.hang:
            receiver.released.wait(60)  # answers nothing until the test ends
            return
        status = receiver.statuses.get(self.path.rsplit("/", 1)[-1], receiver.status)
        answer = receiver.answer
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args) -> None:
        pass


class Receiver:
    """An OTLP/HTTP receiver on a free loopback port, in a thread; remembers every request it gets."""

    def __init__(self, status: int = 200, *, statuses: dict[str, int] | None = None, hang: bool = False,
                 answer: bytes = b"{}") -> None:
        self.status, self.statuses, self.hang, self.answer = status, statuses or {}, hang, answer
        self.received: list[tuple[str, dict, bytes]] = []
        self.released = threading.Event()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.server.daemon_threads = True
        self.server.receiver = self
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def bodies(self, signal: str) -> list[bytes]:
        return [body for path, _, body in self.received if path.endswith(f"/v1/{signal}")]

    def decoded(self, signal: str) -> list:
        return [decode(signal, body) for body in self.bodies(signal)]

    def close(self) -> None:
        self.released.set()
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self) -> "Receiver":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def spans(messages) -> list:
    return [span for message in messages for resource in message.resource_spans
            for scope in resource.scope_spans for span in scope.spans]


def log_records(messages) -> list:
    return [record for message in messages for resource in message.resource_logs
            for scope in resource.scope_logs for record in scope.log_records]


def metrics(messages) -> dict:
    """name -> Metric over every request."""
    return {metric.name: metric for message in messages for resource in message.resource_metrics
            for scope in resource.scope_metrics for metric in scope.metrics}
