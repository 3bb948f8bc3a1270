"""`cortex-health serve` against hostile input: odd request lines and hand-edited log lines (issue 21)."""
from __future__ import annotations

import json
import os
import re
from datetime import datetime, timedelta, timezone

import pytest
from freezegun import freeze_time

from collectors.healthlog.chain import checkpoint_path
from tests.health_support import copy_demo
from tests.ops_support import health, health_log, publish_runs
from tests.serve_support import InProcessServer, Server, chained_history

SECURITY_HEADERS = {
    "content-security-policy": "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; "
                               "form-action 'none'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff", "x-frame-options": "DENY", "referrer-policy": "no-referrer",
    "cache-control": "no-store", "cross-origin-resource-policy": "same-origin"}


def assert_secured(response) -> None:
    for name, value in SECURITY_HEADERS.items():
        assert response.headers.get(name) == value, (name, response.status_line, response.headers)
    assert "set-cookie" not in response.headers


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = copy_demo(tmp_path_factory.mktemp("hostile"))
    publish_runs(root, [30, 15, 0])
    server = Server(root)
    yield root, server
    server.stop()


def test_an_http09_request_line_is_refused_with_a_status_line_and_the_headers(served):
    _, server = served
    response = server.raw(f"GET /\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
    assert response.status == 505 and b"HTTP/0.9" in response.body and b"<html" not in response.body
    assert_secured(response)
    for line in (b"GET /\r\n", b"GET / HTTP/0.9\r\n\r\n", b"GET / HTTP/0.8\r\n\r\n", b"HEAD /\r\n"):
        bare = server.raw(line)
        assert bare.status == 505 and b"<html" not in bare.body, (line, bare.data[:200])
        assert_secured(bare)


@pytest.mark.parametrize("line", [b"\x00\x01\x02garbage", b"GET", b"GET / HTTP/1.1 extra", b"GET / FTP/1.0",
                                  b"GET / HTTP/1.x", b"GET / HTTP/2.0", b"POST /", b"GET /" + b"a" * 70_000,
                                  b"\xff\xfe / HTTP/1.1", b"G\x00T / HTTP/1.1", b"GET / HTTP/1.1\r\n" + b"X: y\r\n" * 101,
                                  b"GET / HTTP/1.1\r\nX: " + b"y" * 70_000])
def test_every_refused_request_line_carries_a_status_line_and_the_security_headers(served, line):
    _, server = served
    response = server.raw(line + b"\r\n\r\n")
    assert response.status is not None and 400 <= response.status < 600, response.data[:300]
    assert_secured(response)
    assert response.headers.get("connection") == "close"
    assert response.headers.get("content-type") == "text/plain; charset=utf-8" and b"<" not in response.body


def test_a_normal_request_still_gets_the_page(served):
    _, server = served
    response = server.raw(f"GET / HTTP/1.0\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
    assert response.status == 200 and b'id="overall"' in response.body
    assert_secured(response)


BAD_SHAPES = {
    "thresholds-list": lambda r: r.update(thresholds=[1, 2]),
    "threshold-entry-string": lambda r: r.update(thresholds={"proposal_backlog": "ten"}),
    "detail-string": lambda r: r["findings"].append({"id": "x", "severity": "warn", "message": "m", "detail": "d"}),
    "detail-list": lambda r: r["findings"].append({"id": "x", "severity": "warn", "message": "m", "detail": [1]}),
    "evidence-list": lambda r: r.update(evidence=["a"]),
    "evidence-entry-string": lambda r: r.update(evidence={"reviewer": "ok"}),
    "ok-summary-objects": lambda r: r.update(ok_summary=[{"id": "x"}]),
    "root-number": lambda r: r.update(root=5),
    "reason-object": lambda r: r.update(reason={"why": 1}),
    "duration-text": lambda r: r.update(duration_ms="fast"),
    "duration-negative": lambda r: r.update(duration_ms=-1),
}
ODD_VALUES = {  # the right shape with values no run writes: the line is a run, and the page still renders
    "duration-huge": lambda r: r.update(duration_ms=10 ** 400),
    "measured-huge": lambda r: r["findings"].append({"id": "proposal-backlog-high", "severity": "warn", "message": "m",
                                                     "detail": {"measured": 10 ** 400, "unit": "ms"}}),
    "measured-bytes-huge": lambda r: r["findings"].append({"id": "observability-too-big", "severity": "warn",
                                                           "message": "m", "detail": {"measured": 1e308,
                                                                                      "unit": "bytes"}}),
    "latest-at-huge": lambda r: r["evidence"]["reviewer"].update(latest={"at_ms": -10 ** 400}),
    "latest-at-float": lambda r: r["evidence"]["reviewer"].update(latest={"at_ms": -1.7e308}),
    "threshold-huge": lambda r: r["thresholds"]["proposal_backlog"].update(value=10 ** 400),
    "threshold-unit-object": lambda r: r["thresholds"]["proposal_backlog"].update(unit={"a": 1}),
    "pending-huge": lambda r: r["evidence"]["proposals"].update(pending=10 ** 300, status="ok"),
    "hot-files-object": lambda r: r["evidence"]["hot_memory"].update(files={"a": 1}),
    "hot-files-odd": lambda r: r["evidence"]["hot_memory"].update(files=[{"valid_entries": 1e308, "label": [1],
                                                                          "cap_entries": -1e308}]),
    "counts-huge": lambda r: r.update(counts={"critical": 10 ** 300, "warn": 0, "ok": 0}),
}


def serve_with_newest(tmp_path, change) -> dict[str, str]:
    """Two published runs, then their copy changed by `change` as the newest line; the three pages."""
    root = copy_demo(tmp_path)
    reports = publish_runs(root, [30, 0])
    edited = json.loads(json.dumps(reports[-1]))
    change(edited)
    with open(health_log(root), "a") as handle:
        handle.write(json.dumps(edited) + "\n")
    server = Server(root)
    try:
        pages = {path: server.get(path) for path in ("/", "/history", "/checks")}
    finally:
        assert "Traceback" not in server.stop()
    assert 'id="overall"' in pages["/"] and "<svg" in pages["/history"] and 'id="checks"' in pages["/checks"]
    return pages


@pytest.mark.parametrize("name", sorted(BAD_SHAPES))
def test_a_hand_edited_newest_line_of_an_unexpected_shape_is_shown_as_a_bad_line(tmp_path, name):
    pages = serve_with_newest(tmp_path, BAD_SHAPES[name])
    assert "1 line(s) in the window are not reports (positions from the end: 1)" in pages["/"]
    assert "2 run(s) in the window" in pages["/"]  # the two published runs, not the edited line


@pytest.mark.parametrize("name", sorted(ODD_VALUES))
def test_a_newest_line_with_odd_values_is_a_run_and_every_page_renders(tmp_path, name):
    pages = serve_with_newest(tmp_path, ODD_VALUES[name])
    assert "3 run(s) in the window" in pages["/"] and "not reports" not in pages["/"]


def test_the_chain_state_follows_a_same_size_same_mtime_edit_of_the_head_line(tmp_path):
    root = copy_demo(tmp_path)
    publish_runs(root, [30, 15, 0])
    log = health_log(root)
    server = Server(root)
    try:
        assert 'data-state="intact"' in server.get("/")
        before, data = os.stat(log), log.read_bytes()
        head = data.rstrip(b"\n").rfind(b"\n") + 1
        edited = data[:head] + data[head:].replace(b'"overall":"ok"', b'"overall":"no"', 1)
        assert len(edited) == len(data) and edited != data
        log.write_bytes(edited)
        os.utime(log, ns=(before.st_atime_ns, before.st_mtime_ns))
        assert (os.stat(log).st_size, os.stat(log).st_mtime_ns) == (before.st_size, before.st_mtime_ns)
        page = server.get("/")
    finally:
        server.stop()
    assert 'data-state="tampered"' in page, page[page.find('id="chain"'):][:400]
    assert health("history", "--root", str(root), "--verify").returncode == 2
    fresh = Server(root)
    try:
        assert 'data-state="tampered"' in fresh.get("/")
    finally:
        fresh.stop()


def bytes_read(pid: int) -> int:
    """What the process has read so far (rchar: every read and pread, from the page cache or the disk)."""
    with open(f"/proc/{pid}/io") as handle:  # noqa: SIM115 - a test reads the kernel's counters
        return next(int(line.split()[1]) for line in handle if line.startswith("rchar:"))


def test_a_page_reads_the_window_and_what_follows_the_checkpoint_never_the_whole_log(tmp_path):
    if not os.path.exists(f"/proc/{os.getpid()}/io"):
        pytest.skip("no /proc/PID/io here to count the bytes a process reads")
    root = copy_demo(tmp_path)
    size = chained_history(root, 800)
    server = Server(root, "--window", "20")
    try:
        for path in ("/", "/history", "/checks"):  # warm: imports and the parse memo
            server.get(path)
        start = bytes_read(server.proc.pid)
        page = server.get("/")
        spent = bytes_read(server.proc.pid) - start
    finally:
        server.stop()
    line = size // 800
    assert 'data-state="intact"' in page and "20 run(s) in the window" in page
    assert spent < 25 * line + (1 << 17), (spent, size)  # the window, the checkpoint's line, a block or two
    assert size > 20 * spent  # never the whole log (the bound above allows about a 24th of it: 25 lines of 800, blocks)


def chain_of(page: bytes) -> str:
    found = re.search(rb'data-state="([^"]+)"', page)
    return found.group(1).decode() if found else "?"


def test_a_whole_log_verification_is_reused_only_while_the_log_and_checkpoint_are_unchanged(tmp_path):
    if not os.path.exists("/proc/self/io"):
        pytest.skip("no /proc/PID/io here to count the bytes a process reads")
    root = copy_demo(tmp_path)
    size = chained_history(root, 300)
    log = health_log(root)
    os.unlink(checkpoint_path(str(log)))  # no checkpoint: the audit, and the page, read the whole log
    server = InProcessServer(root, window=20)
    try:
        assert chain_of(server.get("/").body) == "unchained"
        racy = bytes_read(os.getpid())
        assert chain_of(server.get("/").body) == "unchained"
        assert bytes_read(os.getpid()) - racy > size  # just written: nothing is reused, each page verifies
        with freeze_time(datetime.now(timezone.utc) + timedelta(hours=1)):  # every file has settled
            assert chain_of(server.get("/").body) == "unchained"
            start = bytes_read(os.getpid())
            assert chain_of(server.get("/").body) == "unchained"
            assert bytes_read(os.getpid()) - start < size // 4  # unchanged: the verification is reused
            before, data = os.stat(log), log.read_bytes()
            middle = data.index(b"\n", len(data) // 2) + 1
            edited = data[:middle] + data[middle:].replace(b'"overall":"ok"', b'"overall":"no"', 1)
            assert len(edited) == len(data) and edited != data
            log.write_bytes(edited)
            os.utime(log, ns=(before.st_atime_ns, before.st_mtime_ns))  # same size, same mtime: the ctime moved
            assert chain_of(server.get("/").body) == "tampered"
    finally:
        server.close()
