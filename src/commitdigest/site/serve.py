"""Serve a built site on 127.0.0.1 only: the standard library's HTTP server, with a
handler bound to the site's folder. For looking at the archive locally; publish it on
any static host instead."""

from __future__ import annotations

import functools
import logging
import socketserver
from collections.abc import Callable
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from commitdigest.errors import UsageError

HOST = "127.0.0.1"
log = logging.getLogger(__name__)


class SiteHandler(SimpleHTTPRequestHandler):
    """Files of one folder, with the site's text types declared UTF-8; requests are
    logged at INFO (shown with ``-v``) instead of on stderr."""

    extensions_map = {  # noqa: RUF012 (the base class declares it a plain dict)
        **SimpleHTTPRequestHandler.extensions_map,
        ".html": "text/html; charset=utf-8",
        ".md": "text/markdown; charset=utf-8",
        ".json": "application/json",
        ".xml": "application/xml",
    }

    def log_message(self, format: str, *args: Any) -> None:
        log.info("%s %s", self.address_string(), format % args)


class SiteServer(ThreadingHTTPServer):
    """A threading HTTP server that does not look its own address up in the DNS."""

    def server_bind(self) -> None:
        socketserver.TCPServer.server_bind(self)
        host, port = self.server_address[:2]
        self.server_name = str(host)
        self.server_port = int(port)


def make_server(directory: Path, port: int = 8000) -> SiteServer:
    """A server for ``directory`` on 127.0.0.1:``port`` (0: any free port), bound and
    ready to ``serve_forever``. :class:`UsageError` when the folder is missing or the
    port cannot be had."""
    if not directory.is_dir():
        raise UsageError(f"no site at {directory}: build one with `commitdigest site` first")
    handler = functools.partial(SiteHandler, directory=str(directory.resolve()))
    try:
        return SiteServer((HOST, port), handler)
    except OSError as exc:
        raise UsageError(
            f"cannot listen on {HOST}:{port}: {exc.strerror or exc} (try another --port, or 0)"
        ) from None


def server_url(server: SiteServer) -> str:
    """``http://127.0.0.1:PORT/``: the address the server really listens on."""
    return f"http://{HOST}:{server.server_port}/"


def serve(directory: Path, port: int = 8000, *, on_ready: Callable[[str], None] = print) -> None:
    """Serve ``directory`` until Ctrl-C, which stops it cleanly (the socket is closed and
    this returns normally). ``on_ready`` gets the URL once the port is bound."""
    with make_server(directory, port) as server:
        on_ready(server_url(server))
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            log.debug("interrupted: stopping the server")
