"""`cortex-health serve` over real HTTP: every refusal, the security headers, read-only, fresh reads, privacy."""
from __future__ import annotations

import html
import json
import os
import socket

import pytest

from health.judge.catalogue.find import lookup
from tests.health_support import NOW, copy_demo, hot, memory, obs
from tests.ops_support import health, health_log, publish_runs
from tests.serve_support import Server, varied_history

CANARY = "zqxcanary7731"
CSP = ("default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; "
       "frame-ancestors 'none'")


def plant_canaries(root) -> None:
    """Memory content and private text the dashboard must never show."""
    path = hot(root, "principal")
    path.write_text(path.read_text().replace("PREFERENCE: ", f"PREFERENCE: {CANARY} <private>{CANARY}</private> ", 1))
    knowledge = memory(root) / "KNOWLEDGE"
    knowledge.mkdir(exist_ok=True)
    (knowledge / "canary.md").write_text(f"---\nid: canary\ntitle: {CANARY}\ncreated: 2026-01-01\n---\n"
                                         f"body {CANARY} <private>{CANARY}</private>\n")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = copy_demo(tmp_path_factory.mktemp("serve"))
    plant_canaries(root)
    varied_history(root)
    server = Server(root)
    yield root, server
    server.stop()


def snapshot(root) -> dict[str, bytes]:
    folder = obs(root)
    return {name: (folder / name).read_bytes() for name in sorted(os.listdir(folder)) if (folder / name).is_file()}


def test_pages_are_served_with_strict_headers_and_no_cookie_or_cors(served):
    _, server = served
    for path in ("/", "/history", "/checks", "/style.css"):
        response, data = server.request("GET", path)
        assert response.status == 200 and data
        headers = {name.lower(): value for name, value in response.getheaders()}
        assert headers["content-security-policy"] == CSP
        assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "no-referrer" and headers["cache-control"] == "no-store"
        assert "set-cookie" not in headers and not any(name.startswith("access-control-") for name in headers)
    assert "<script" not in server.get("/") + server.get("/history") + server.get("/checks")


@pytest.mark.parametrize("host", [None, "evil.example:{port}", "127.0.0.1:1", "127.0.0.1", "127.0.0.1:{port}.evil",
                                  "0.0.0.0:{port}", "[::1]:{port}"])
def test_a_host_header_other_than_the_loopback_name_and_port_is_421(served, host):
    _, server = served
    response, data = server.request("GET", "/", host=None if host is None else host.format(port=server.port))
    assert response.status == 421 and b"Host header" in data
    assert response.getheader("Content-Security-Policy") == CSP


def test_localhost_and_a_repeated_host_header(served):
    _, server = served
    assert server.request("GET", "/", host=f"localhost:{server.port}")[0].status == 200
    doubled = server.request("GET", "/", headers={"Host": f"127.0.0.1:{server.port}"})
    assert doubled[0].status == 421


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "PROPFIND"])
def test_every_method_but_get_and_head_is_405_and_nothing_is_written(served, method):
    root, server = served
    before = snapshot(root)
    response, data = server.request(method, "/", body=b'{"overall":"ok"}')
    assert response.status == 405 and response.getheader("Allow") == "GET, HEAD" and b"read-only" in data
    assert snapshot(root) == before


def test_head_has_the_headers_of_get_and_no_body(served):
    _, server = served
    got, body = server.request("GET", "/history")
    head, nothing = server.request("HEAD", "/history")
    assert head.status == 200 and nothing == b"" and head.getheader("Content-Length") == str(len(body))


def test_unknown_paths_are_404(served):
    _, server = served
    for path in ("/nope", "/../etc/passwd", "/LIFEOS/MEMORY/OBSERVABILITY/memory-health.jsonl", "/history/"):
        response, _ = server.request("GET", path)
        assert response.status == 404


def test_pages_show_the_verdict_plots_and_per_check_history(served):
    _, server = served
    verdict = server.get("/")
    assert 'id="overall" class="verdict warn"' in verdict and 'data-id="proposal-backlog-high"' in verdict
    assert "proposal_backlog = 1 (cli --threshold)" in verdict  # threshold with its source
    assert html.escape(lookup("proposal-backlog-high").problem.fix) in verdict  # the same catalogue as explain
    assert 'data-state="intact"' in verdict
    plots = server.get("/history")
    assert plots.count("<svg") == 7 and plots.count('class="threshold"') >= 5
    assert "Hot-memory entries against the cap" in plots and "12 run(s)" in plots
    checks = server.get("/checks")
    assert 'data-id="proposal-backlog-high"' in checks and "(flapping)" in checks
    assert 'data-id="cortex-threshold-invalid"' in checks


def test_nothing_from_memory_files_or_private_spans_is_served(served):
    _, server = served
    for path in ("/", "/history", "/checks"):
        assert CANARY not in server.get(path)


def test_values_from_the_log_are_escaped(tmp_path):
    root = copy_demo(tmp_path)
    report = publish_runs(root, [1])[0]
    hostile = dict(report, findings=[{"id": 'x"><img src=x>', "severity": "critical",
                                      "message": "<script>alert(1)</script>", "detail": {"k": "</td><b>"}}],
                   ts="2026-11-29T12:00:00.000Z", overall="critical")
    with open(health_log(root), "a") as handle:
        handle.write(json.dumps(hostile) + "\n")
    server = Server(root)
    try:
        page = server.get("/")
        checks = server.get("/checks")
    finally:
        server.stop()
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<img" not in page + checks and "x&quot;&gt;&lt;img src=x&gt;" in page and "&lt;/td&gt;&lt;b&gt;" in page


def test_new_runs_show_without_a_restart(tmp_path):
    root = copy_demo(tmp_path)
    server = Server(root)
    try:
        assert 'id="empty"' in server.get("/")
        publish_runs(root, [0])
        assert f"<time>{NOW[:-1]}.000Z</time>" in server.get("/")
    finally:
        server.stop()


def test_refresh_runs_and_publishes_the_check(tmp_path):
    root = copy_demo(tmp_path)
    from tests.health_support import clean_env

    server = Server(root, "--refresh", "3600", env=clean_env(CORTEX_HEALTH_NOW=NOW))
    try:
        lines = health_log(root).read_text().splitlines()
        assert len(lines) == 1 and json.loads(lines[0])["chain"]["seq"] == 1
        assert f"<time>{NOW[:-1]}.000Z</time>" in server.get("/")
    finally:
        server.stop()


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.10", "localhost", "::", "example.com", ""])
def test_non_loopback_addresses_are_refused(host):
    done = health("serve", "--host", host, "--port", "0")
    assert done.returncode == 3 and "binds only 127.0.0.1 or ::1" in done.stderr and done.stdout == ""


def test_bad_ports_are_usage_errors():
    for port in ("70000", "-1", "http"):
        done = health("serve", "--port", port)
        assert done.returncode == 3 and "usage" in done.stderr


def test_ipv6_loopback(tmp_path):
    try:
        probe = socket.socket(socket.AF_INET6)
        probe.bind(("::1", 0))
        probe.close()
    except OSError as error:
        pytest.skip(f"no IPv6 loopback here: {error}")
    server = Server(copy_demo(tmp_path), "--host", "::1")
    try:
        assert server.host == "[::1]" and 'id="empty"' in server.get("/")
        assert server.request("GET", "/", host=f"127.0.0.1:{server.port}")[0].status == 421
    finally:
        server.stop()
