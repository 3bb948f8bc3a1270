"""Dashboard stage: the HTTP request handler (refusals, headers, routing). Used by health.serve.

Read-only by construction: GET and HEAD only (any other method: 405 with Allow); the Host
header must name the loopback address and port the server listens on (a DNS-rebinding
guard: anything else is 421); every response carries a strict Content-Security-Policy,
nosniff, no-referrer, frame denial and no-store, and never a cookie or a CORS header. That
includes every error http.server itself answers (a garbage request line, 414, 431, 505),
which is sent as the dashboard's own plain-text refusal. HTTP/0.9 (a request line without a
version, or HTTP/0.x) would be answered without a status line or any header, so it is
refused with 505 before its headers are read. The log is re-read (a bounded window from its
end) on each request, so new runs show without a restart; a page that cannot be rendered is
a 500 with the headers, never a dropped connection.
"""
from __future__ import annotations

from http import HTTPStatus
from http.server import BaseHTTPRequestHandler

from collectors.lifeos.layout import Layout

from health.dashboard import pages
from health.dashboard.chain import ChainStatus
from health.dashboard.data import ParsedLines, load_window

CSP = ("default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; "
       "frame-ancestors 'none'")
HEADERS = (("Content-Security-Policy", CSP), ("X-Content-Type-Options", "nosniff"),
           ("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"), ("Cache-Control", "no-store"),
           ("Cross-Origin-Resource-Policy", "same-origin"))
ROUTES = {"/": pages.verdict_page, "/history": pages.history_page, "/checks": pages.checks_page}


class DashboardHandler(BaseHTTPRequestHandler):
    server_version = "cortex-health"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    default_request_version = "HTTP/1.0"  # an error found before the version is read still gets a status line
    # set on the subclass made by make_handler
    log_path = ""
    window = 500
    allowed_hosts: frozenset[str] = frozenset()
    chain: ChainStatus
    parsed = ParsedLines(2 * window)

    def version_string(self) -> str:
        return self.server_version

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        pass  # quiet: the dashboard writes nothing, not even an access log

    def end_headers(self) -> None:
        for name, value in HEADERS:
            self.send_header(name, value)
        super().end_headers()

    def _send(self, status: int, body: str, content_type: str = "text/html; charset=utf-8",
              extra: tuple[tuple[str, str], ...] = ()) -> None:
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def parse_request(self) -> bool:
        words = str(self.raw_requestline, "iso-8859-1").rstrip("\r\n").split()
        if len(words) == 2:  # no version: HTTP/0.9, refused before its headers are waited for
            self.command, self.requestline = None, " ".join(words)
            return self._no_http09()
        if not super().parse_request():
            return False
        major, minor = (int(part) for part in self.request_version.split("/", 1)[1].split("."))
        return self._no_http09() if (major, minor) < (1, 0) else True

    def _no_http09(self) -> bool:
        self.request_version = self.default_request_version
        self.send_error(HTTPStatus.HTTP_VERSION_NOT_SUPPORTED, "HTTP/0.9 is not served: send an HTTP/1.0 or "
                        "HTTP/1.1 request line (METHOD PATH HTTP/1.1)")
        return False

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Every error http.server answers itself, as the dashboard's own refusal (plain text, every header)."""
        status = HTTPStatus(code)
        self._refused(status, message or status.phrase)

    def _refused(self, status: HTTPStatus, why: str, extra: tuple[tuple[str, str], ...] = ()) -> None:
        self.close_connection = True
        self._send(status, f"{status.value} {status.phrase}: {why}\n", "text/plain; charset=utf-8",
                   extra + (("Connection", "close"),))

    def _host_ok(self) -> bool:
        hosts = self.headers.get_all("Host") or []
        return len(hosts) == 1 and hosts[0].strip().lower() in self.allowed_hosts

    def _serve(self) -> None:
        if not self._host_ok():
            return self._refused(HTTPStatus.MISDIRECTED_REQUEST, "the Host header must name this loopback "
                                 "address and port (" + ", ".join(sorted(self.allowed_hosts)) + ")")
        if self.command not in ("GET", "HEAD"):
            return self._refused(HTTPStatus.METHOD_NOT_ALLOWED, "this dashboard is read-only",
                                 (("Allow", "GET, HEAD"),))
        path = self.path.split("?", 1)[0]
        if path == "/style.css":
            return self._send(HTTPStatus.OK, pages.CSS, "text/css; charset=utf-8")
        page = ROUTES.get(path)
        if page is None:
            return self._refused(HTTPStatus.NOT_FOUND, "no such page (/, /history, /checks)")
        try:
            body = page(load_window(self.log_path, self.window, self.parsed), self.chain())
        except Exception as error:  # noqa: BLE001 - whatever a log holds, the answer keeps its status and headers
            return self._refused(HTTPStatus.INTERNAL_SERVER_ERROR, f"the page could not be rendered "
                                 f"({type(error).__name__}); `cortex-health history` shows the log's lines")
        self._send(HTTPStatus.OK, body)

    def __getattr__(self, name: str):
        # http.server calls do_<METHOD>; every method, known or invented, reaches the same checks
        if name.startswith("do_"):
            return self._serve
        raise AttributeError(name)


def make_handler(layout: Layout, host: str, port: int, window: int) -> type[DashboardHandler]:
    names = {"127.0.0.1": ("127.0.0.1", "localhost"), "::1": ("[::1]", "localhost")}[host]
    return type("BoundDashboardHandler", (DashboardHandler,), {
        "log_path": layout.health_log, "window": window, "chain": ChainStatus(layout), "parsed": ParsedLines(2 * window),
        "allowed_hosts": frozenset(f"{name}:{port}" for name in names)})
