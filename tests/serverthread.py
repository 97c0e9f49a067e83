"""A test server answering from a background thread: started, and stopped cleanly."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from socketserver import BaseServer


def serve_in_background(server: BaseServer, poll_interval: float) -> threading.Thread:
    """Start ``server.serve_forever`` in a daemon thread (checking for shutdown every
    ``poll_interval`` seconds) and return the thread."""
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": poll_interval}, daemon=True
    )
    thread.start()
    return thread


def stop_serving(server: BaseServer, thread: threading.Thread | None, timeout: float = 5) -> None:
    """Stop the loop, close the socket, and wait up to ``timeout`` seconds for the thread."""
    server.shutdown()
    server.server_close()
    if thread is not None:
        thread.join(timeout)


@contextmanager
def serving(server: BaseServer, poll_interval: float) -> Iterator[threading.Thread]:
    """``server`` answering in the background for the ``with`` block."""
    thread = serve_in_background(server, poll_interval)
    try:
        yield thread
    finally:
        stop_serving(server, thread)
