"""Property tests of the dashboard (issue 21): whatever a decoded log line holds, and whatever request line
arrives, every answer has a status line and the security headers, every page renders, and nothing from
the data reaches the page unescaped."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from tests.health_support import copy_demo
from tests.ops_support import health_log, publish_runs
from tests.serve_support import InProcessServer
from tests.health.test_serve_hostile import assert_secured

MARK = "<zq"  # every string the strategies make starts with it: escaped, it never appears as is
HOSTILE = st.builds(lambda text: f'{MARK} a="{text}">&\'', st.text(max_size=6))
NUMBERS = st.one_of(st.integers(), st.integers(min_value=-10 ** 400, max_value=10 ** 400),
                    st.floats(allow_nan=False, allow_infinity=False), st.sampled_from([0, -1, 1e308, -1e308, 10 ** 20]))
KEYS = st.one_of(HOSTILE, st.sampled_from(["status", "latest", "at_ms", "bytes", "pending", "files", "valid_entries",
                                           "cap_entries", "label", "oldest_mtime_ms", "measured", "threshold", "unit",
                                           "value", "source", "origin"]))
VALUES = st.recursive(st.one_of(st.none(), st.booleans(), NUMBERS, HOSTILE, st.sampled_from(["ok", "ms", "bytes"])),
                      lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(KEYS, inner, max_size=4)),
                      max_leaves=12)
IDS = st.one_of(HOSTILE, st.sampled_from(["proposal-backlog-high", "cap-pressure:da", "reviewer-stale",
                                          "observability-bytes-high", "health-history-intact"]))
FINDINGS = st.lists(st.fixed_dictionaries(
    {"id": IDS, "severity": st.sampled_from(["warn", "critical"]), "message": HOSTILE},
    optional={"detail": st.one_of(st.dictionaries(KEYS, VALUES, max_size=4), VALUES)}), max_size=3)
COLLECTORS = st.one_of(HOSTILE, st.sampled_from(["reviewer", "retrieval", "observability", "proposals", "hot_memory"]))
DOCUMENTS = st.fixed_dictionaries({
    "schema": st.just("cortex-health/v1"),
    "ts": st.sampled_from(["2026-11-29T12:00:00.000Z", "2026-11-29T11:00:00Z", "1970-01-01T00:00:00Z",
                           "9999-12-31T23:59:59.999Z"]),
    "overall": st.sampled_from(["ok", "warn", "critical", "unknown"]),
    "counts": st.fixed_dictionaries({"critical": st.integers(0, 10 ** 30), "warn": st.integers(-5, 5),
                                     "ok": st.integers(0, 3)}),
    "findings": FINDINGS,
}, optional={
    "thresholds": st.one_of(st.dictionaries(st.one_of(HOSTILE, st.sampled_from(["proposal_backlog", "cap_pressure",
                                                                               "reviewer_stale_ms"])),
                                            st.dictionaries(KEYS, VALUES, max_size=4), max_size=3), VALUES),
    "evidence": st.one_of(st.dictionaries(COLLECTORS, st.dictionaries(KEYS, VALUES, max_size=5), max_size=4), VALUES),
    "ok_summary": st.one_of(st.lists(IDS, max_size=3), VALUES),
    "root": VALUES, "reason": VALUES, "duration_ms": st.one_of(NUMBERS, VALUES),
})


class Dashboard:
    def __init__(self, log, server: InProcessServer):
        self.log, self.published, self.server = log, log.read_bytes(), server

    def __repr__(self) -> str:  # a falsifying example names the generated input, not the whole log
        return f"Dashboard({self.log.name})"


@pytest.fixture(scope="module")
def dashboard(tmp_path_factory):
    root = copy_demo(tmp_path_factory.mktemp("properties"))
    publish_runs(root, [0])
    log = health_log(root)
    server = InProcessServer(root)
    yield Dashboard(log, server)
    server.close()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(DOCUMENTS)
def test_every_page_renders_escaped_with_the_headers_whatever_a_line_holds(dashboard, document):
    dashboard.log.write_bytes(dashboard.published + json.dumps(document).encode() + b"\n")  # newest: the generated
    for path in ("/", "/history", "/checks"):
        response = dashboard.server.get(path)
        assert response.status == 200, (path, response.data[:400])
        assert_secured(response)
        page = response.body.decode("utf-8")
        assert MARK not in page and "<script" not in page
        assert page.endswith("</html>")


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=120).filter(lambda line: b"\n" not in line))
def test_every_request_line_is_answered_with_a_status_line_and_the_headers(dashboard, line):
    assume(str(line, "iso-8859-1").split())  # a blank line is no request (http.server closes without an answer)
    response = dashboard.server.raw(line + b"\r\n\r\n")
    assert response.status is not None, (line, response.data[:300])
    assert_secured(response)


def walk_holds_angle(value) -> bool:
    """The reference: some key or string of the decoded value holds a character that can open a private span."""
    if isinstance(value, str):
        return any(angle in value for angle in ("<", "\uff1c", "\ufe64"))
    if isinstance(value, dict):
        return any(walk_holds_angle(key) or walk_holds_angle(item) for key, item in value.items())
    if isinstance(value, list):
        return any(walk_holds_angle(item) for item in value)
    return False


ANGLED = st.text(alphabet=st.sampled_from(["<", "\uff1c", "\ufe64", "a", "é", "\n", '"', "\\", "\x00"]), max_size=6)
JSON_VALUES = st.recursive(st.one_of(st.none(), st.integers(), ANGLED),
                           lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(ANGLED, inner,
                                                                                                 max_size=3)),
                           max_leaves=10)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES, st.booleans())
def test_the_readers_byte_scan_finds_every_line_a_private_span_could_hide_in(value, ascii_only):
    from collectors.healthlog.read import _may_hold_tags

    raw = json.dumps(value, ensure_ascii=ascii_only).encode("utf-8")
    if walk_holds_angle(json.loads(raw)):
        assert _may_hold_tags(raw)
