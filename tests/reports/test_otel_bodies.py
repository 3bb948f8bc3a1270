"""OTLP bodies and configuration: the official definitions decode them strictly, the textfile's series and the
findings are all there, and the OTEL_* variables are read as the specification says."""
from __future__ import annotations

import io
import json

import pytest

from health.otel.config import DEFAULT_TIMEOUT_MS, endpoint, headers, refusal, shown, targets
from reports.formats import load
from reports.otlp.encode import any_value, nanos, random_id
from reports.otlp.resource import AttributesError, key_values, resource_attributes, store_id
from health.judge.catalogue.find import lookup
from reports.report import from_document
from tests.health_support import NOW_MS
from tests.ops_support import documents
from tests.otlp_support import attributes, decode, log_records, metrics


@pytest.fixture(scope="module")
def docs(tmp_path_factory) -> dict[str, dict]:
    return documents(tmp_path_factory.mktemp("docs"))


def lines(document: dict, environ: dict | None = None) -> list[str]:
    out = io.StringIO()
    load("otlp-json").render(from_document(document, lookup=lookup), out, tty=False, environ=environ or {})
    return out.getvalue().splitlines()


def textfile_samples(document: dict) -> dict[tuple[str, tuple], float]:
    from prometheus_client.parser import text_string_to_metric_families

    out = io.StringIO()
    load("prometheus").render(from_document(document, lookup=lookup), out, tty=False)
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(out.getvalue()) for sample in family.samples}


def otlp_samples(message) -> dict[tuple[str, tuple], float]:
    """Every point as the textfile's samples name it (a summary's quantiles, _sum and _count apart)."""
    found = {}
    for name, metric in metrics([message]).items():
        kind = metric.WhichOneof("data")
        assert kind in ("gauge", "summary"), name
        for point in getattr(metric, kind).data_points:
            labels = attributes(point.attributes)
            assert point.time_unix_nano == NOW_MS * 1_000_000, name
            if kind == "gauge":
                value = point.as_int if point.WhichOneof("value") == "as_int" else point.as_double
                found[(name, tuple(sorted(labels.items())))] = value
                continue
            for quantile in point.quantile_values:
                found[(name, tuple(sorted({**labels, "quantile": repr(quantile.quantile)}.items())))] = quantile.value
            found[(name + "_sum", tuple(sorted(labels.items())))] = point.sum
            found[(name + "_count", tuple(sorted(labels.items())))] = point.count
    return found


def test_every_overall_gives_a_metrics_and_a_logs_request_that_decode_strictly(docs):
    for overall, document in docs.items():
        found = lines(document)
        assert len(found) == 2, overall
        assert decode("metrics", found[0]).resource_metrics and decode("logs", found[1]).resource_logs


def test_every_textfile_sample_is_an_otlp_gauge_with_the_same_name_labels_and_value(docs):
    for overall, document in docs.items():
        textfile, otlp = textfile_samples(document), otlp_samples(decode("metrics", lines(document)[0]))
        assert textfile and textfile == otlp, overall


def test_gauges_carry_help_and_ucum_units(docs):
    found = metrics([decode("metrics", lines(docs["warn"])[0])])
    units = {name: metric.unit for name, metric in found.items()}
    assert units["cortex_health_overall"] == "{severity}" and units["cortex_health_retrieval_age_seconds"] == "s"
    assert units["cortex_health_observability_bytes"] == "By" and units["cortex_health_pending_proposals"] == "{count}"
    assert all(metric.description for metric in found.values())


def test_every_finding_is_one_log_record_with_severity_id_evidence_and_fix(docs):
    for overall, document in docs.items():
        records = log_records([decode("logs", lines(document)[1])])
        assert len(records) == len(document["findings"]), overall
        for record, finding in zip(records, document["findings"]):
            found = attributes(record.attributes)
            assert found["cortex_health.finding.id"] == finding["id"] and record.body.string_value == finding["message"]
            assert (record.severity_text, record.severity_number) == (
                finding["severity"], {"warn": 13, "critical": 17}[finding["severity"]])
            assert found["cortex_health.evidence"] == finding["detail"] and found["cortex_health.fix"]
            assert record.time_unix_nano == record.observed_time_unix_nano == NOW_MS * 1_000_000
    warned = attributes(log_records([decode("logs", lines(docs["warn"])[1])])[0].attributes)
    assert warned["cortex_health.collector"] and warned["cortex_health.check"].count(":") == 1


def test_the_resource_names_the_service_the_host_and_a_digest_of_the_root_never_its_path(docs):
    message = decode("metrics", lines(docs["ok"], {"OTEL_SERVICE_NAME": "memory-health",
                                                   "OTEL_RESOURCE_ATTRIBUTES": "service.name=ignored,"
                                                   "deployment.environment.name=lab%20one"})[0])
    found = attributes(message.resource_metrics[0].resource.attributes)
    assert found["service.name"] == "memory-health" and found["deployment.environment.name"] == "lab one"
    assert found["host.name"] and found["cortex.memory.store.id"] == store_id(docs["ok"]["root"])
    assert docs["ok"]["root"] not in json.dumps(lines(docs["ok"]))
    default = attributes(decode("metrics", lines(docs["ok"])[0]).resource_metrics[0].resource.attributes)
    assert default["service.name"] == "cortex-health"


@pytest.mark.parametrize("text, expected", [
    ("", []), ("  ", []), ("a=1", [("a", "1")]), (" a = 1 , b=x%2Cy ", [("a", "1"), ("b", "x,y")]),
    ("k=%E2%9C%93", [("k", "\u2713")]), ("k=", [("k", "")]), ("k=a=b", [("k", "a=b")]),
])
def test_resource_attributes_are_parsed_and_percent_decoded(text, expected):
    assert key_values(text) == expected


@pytest.mark.parametrize("text", ["a", "=1", "a=1,", "a=1,b", "a b=1", "k=a b", "k=%zz", "k=%FF", 'k="q"', "k=a;b"])
def test_a_bad_resource_attributes_variable_is_discarded_whole_and_said_so(text):
    with pytest.raises(AttributesError):
        key_values(text)
    found, problem = resource_attributes({"OTEL_RESOURCE_ATTRIBUTES": f"team=memory,{text}"}, "/r")
    assert "team" not in found and found["service.name"] == "cortex-health"
    assert problem.startswith("OTEL_RESOURCE_ATTRIBUTES ignored: member ")  # its position, never its text


def test_endpoints_follow_the_specification():
    assert endpoint({}, "traces") == "http://localhost:4318/v1/traces"
    base = {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318/collector/"}
    assert endpoint(base, "metrics") == "http://127.0.0.1:4318/collector/v1/metrics"
    assert endpoint({"OTEL_EXPORTER_OTLP_ENDPOINT": "https://h:1/?k=v"}, "logs") == "https://h:1/v1/logs?k=v"
    own = {**base, "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT": "https://logs.example/ingest"}
    assert endpoint(own, "logs") == "https://logs.example/ingest" and endpoint(own, "traces").endswith("/v1/traces")


def test_signal_settings_beat_the_general_ones():
    environ = {"OTEL_EXPORTER_OTLP_HEADERS": "a=1", "OTEL_EXPORTER_OTLP_TRACES_HEADERS": "b=2",
               "OTEL_EXPORTER_OTLP_TIMEOUT": "250", "OTEL_EXPORTER_OTLP_METRICS_TIMEOUT": "400",
               "OTEL_EXPORTER_OTLP_LOGS_COMPRESSION": "gzip", "OTEL_LOGS_EXPORTER": "none"}
    found, notes = targets(environ)
    assert found["traces"].headers == (("b", "2"),) and found["metrics"].headers == (("a", "1"),)
    assert (found["metrics"].timeout_ms, found["logs"].timeout_ms) == (400, 250)
    assert found["logs"].gzip and not found["metrics"].gzip and notes == []
    assert found["logs"].disabled and not found["traces"].disabled
    assert all(item.disabled for item in targets({"OTEL_SDK_DISABLED": "true"})[0].values())


@pytest.mark.parametrize("value", ["soon", "-5", "0", "1.5", "99999999999"])
def test_an_unusable_timeout_falls_back_to_the_default_and_says_so(value):
    found, notes = targets({"OTEL_EXPORTER_OTLP_TIMEOUT": value})
    assert found["metrics"].timeout_ms == DEFAULT_TIMEOUT_MS and len(notes) == 3


def test_headers_are_percent_decoded_and_control_characters_refused():
    assert headers("authorization=Bearer%20abc,x-scope=t1") == (("authorization", "Bearer abc"), ("x-scope", "t1"))
    with pytest.raises(ValueError):
        headers("x=a%0D%0AInjected:%201")
    found, _ = targets({"OTEL_EXPORTER_OTLP_HEADERS": "x=a%0D%0Ab", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://[::1]:9"})
    assert found["logs"].refused and "a%0D" not in found["logs"].refused


@pytest.mark.parametrize("url, refused", [
    ("http://localhost:4318/v1/logs", False), ("http://127.0.0.1:4318/v1/logs", False),
    ("http://127.8.9.1/v1/logs", False), ("http://[::1]:4318/v1/logs", False),
    ("https://otlp.example.com/v1/logs", False), ("http://otlp.example.com/v1/logs", True),
    ("http://10.0.0.5:4318/v1/logs", True), ("http://localhost.example.com/v1/logs", True),
    ("ftp://127.0.0.1/v1/logs", True), ("localhost:4318/v1/logs", True), ("https:///v1/logs", True),
    ("http://127.0.0.1:99999/", True),
])
def test_plain_http_goes_only_to_loopback_and_https_must_be_explicit(url, refused):
    assert (refusal(url) is not None) is refused


def test_a_grpc_or_protobuf_protocol_is_refused_not_silently_sent_as_json():
    for protocol in ("grpc", "http/protobuf"):
        found, _ = targets({"OTEL_EXPORTER_OTLP_PROTOCOL": protocol})
        assert all(protocol in item.refused for item in found.values())
    assert targets({"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/json"})[0]["traces"].refused is None


def test_an_endpoint_is_shown_without_user_info_query_or_fragment():
    assert shown("https://user:s3cret@otlp.example.com:443/v1/traces?api_key=s3cret#x") == \
        "https://otlp.example.com:443/v1/traces"
    assert shown("http://[::1]:4318/v1/logs") == "http://[::1]:4318/v1/logs"


def test_values_times_and_ids_follow_the_json_mapping():
    assert any_value(True) == {"boolValue": True} and any_value(2**63) == {"doubleValue": float(2**63)}
    assert any_value(3) == {"intValue": "3"} and any_value(float("nan")) == {"doubleValue": "NaN"}
    assert any_value({"a": [1, None]}) == {"kvlistValue": {"values": [
        {"key": "a", "value": {"arrayValue": {"values": [{"intValue": "1"}, {}]}}}]}}
    assert nanos(-5) == "0" and nanos(1.5) == "1500000" and nanos(10**20) == str(2**64 - 1)
    trace, span = random_id(16), random_id(8)
    assert len(trace) == 32 and len(span) == 16 and trace != random_id(16)
