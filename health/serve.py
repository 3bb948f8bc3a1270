"""Dashboard command (`cortex-health serve`): a read-only dashboard on a loopback port. Called by health.cli.

Binds 127.0.0.1 (or ::1) only, on --port (default 8765; 0 picks a free port); the address
and port are printed on start ("listening on http://127.0.0.1:PORT/"). Any other address
is refused (exit 3) before a socket is opened. The server never writes, except with
--refresh N: then it runs the check itself every N seconds and publishes the report as the
timer would (first run at start, before listening). Ctrl-C or SIGTERM stop it (exit 0).
"""
from __future__ import annotations

import os
import signal
import socket
import threading
from collections.abc import Mapping
from http.server import ThreadingHTTPServer

from collectors.readers.paths import resolve_root
from health.commands.base import Call, Command
from health.parser import Parser, bounded_int

LOOPBACK = ("127.0.0.1", "::1")
DEFAULT_PORT = 8765
DEFAULT_WINDOW = 500
MAX_WINDOW = 10_000


def build_parser() -> Parser:
    parser = Parser(prog="cortex-health serve", allow_abbrev=False,
                    description="A read-only dashboard of memory-health.jsonl on a loopback port.")
    parser.add_argument("--root", help="audited ROOT (default: CORTEX_HEALTH_ROOT, CLAUDE_CONFIG_DIR, ~/.claude)")
    parser.add_argument("--host", default="127.0.0.1", help="127.0.0.1 (default) or ::1; nothing else")
    parser.add_argument("--port", type=bounded_int(0, 65535, "port"), default=DEFAULT_PORT,
                        help=f"TCP port (default {DEFAULT_PORT}; 0 = any free port, printed on start)")
    parser.add_argument("--window", type=bounded_int(1, MAX_WINDOW, "window"), default=DEFAULT_WINDOW, metavar="N",
                        help=f"how many of the newest log lines the pages read (default {DEFAULT_WINDOW})")
    parser.add_argument("--refresh", type=bounded_int(1, 86_400, "refresh"), metavar="SECONDS",
                        help="also run the check every SECONDS and publish it (as the timer would)")
    return parser


class LoopbackServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, host: str, port: int, handler_for):
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        super().__init__((host, port), None, bind_and_activate=True)
        self.RequestHandlerClass = handler_for(self.server_address[1])


def check_once(root: str, environ: Mapping[str, str]) -> None:
    """One check, published like the timer's run (its output discarded: the pages show it)."""
    from health.cli import run

    with open(os.devnull, "w") as sink:
        run(["--root", root, "--format", "json"], environ=environ, stdout=sink, stderr=sink)


def refresher(root: str, every: int, stop: threading.Event, environ: Mapping[str, str]) -> None:
    """Run the check every `every` seconds until `stop` is set (the first run happened at start)."""
    while not stop.wait(every):
        check_once(root, environ)


class ServeCommand(Command):
    name = "serve"

    def parser(self) -> Parser:
        return build_parser()

    def run(self, args, call: Call) -> int:
        environ, stdout, stderr = call.environ, call.stdout, call.stderr
        if args.host not in LOOPBACK:
            stderr.write(f"cortex-health serve: refusing to listen on {args.host!r}: the dashboard binds only "
                         f"127.0.0.1 or ::1 (loopback)\n")
            return 3
        from collectors.lifeos.layout import Layout
        from health.dashboard.handler import make_handler

        root = resolve_root(args.root, environ)
        layout = Layout.for_root(root)
        log = layout.health_log
        stop = threading.Event()
        if args.refresh:
            check_once(root, environ)
            threading.Thread(target=refresher, args=(root, args.refresh, stop, environ), daemon=True).start()
        try:
            server = LoopbackServer(args.host, args.port,
                                    lambda port: make_handler(layout, args.host, port, args.window))
        except OSError as error:
            stop.set()
            stderr.write(f"cortex-health serve: cannot listen on {args.host} port {args.port}: "
                         f"{error.strerror or error}\n")
            return 3
        port = server.server_address[1]
        shown = f"[{args.host}]" if ":" in args.host else args.host
        stdout.write(f"cortex-health serve: listening on http://{shown}:{port}/ (read-only; log {log})\n")
        stdout.flush()
        signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown, daemon=True).start())
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            stop.set()
            server.server_close()
        return 0


main = ServeCommand().main
