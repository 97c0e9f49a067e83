"""A fake OpenAI-compatible server for tests: real HTTP on 127.0.0.1, scripted per request.

Usage::

    with FakeOpenAI() as server:               # or the ``fake_openai`` pytest fixture
        server.push(rate_limited(0.05), answer({"ok": True}))
        client = openai.AsyncOpenAI(base_url=server.base_url, api_key="k")
        ...
        server.requests[-1].body["response_format"]

Each ``POST …/chat/completions`` takes the next queued behaviour; when the queue is empty the
``handler`` (``RecordedRequest -> Behaviour``, may look at the prompt) answers, and failing
that the ``default`` behaviour. Behaviours are small frozen dataclasses (:class:`Answer`,
:class:`Fail`, :class:`Hang`, :class:`Drop`, :class:`RawReply`); the functions below build the
common ones. Other paths: ``GET …/models`` lists one model; anything else is a 404.

It is a ``ThreadingHTTPServer`` (one thread per connection, HTTP/1.1 keep-alive), so concurrent
clients really overlap; ``max_in_flight`` records the most requests being handled at once.
:meth:`FakeOpenAI.stop` wakes every :class:`Hang`, shuts the open connections and joins the
handler threads, so nothing outlives the ``with`` block.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from serverthread import serve_in_background

# --------------------------------------------------------------------------- behaviours

Usage = tuple[int, int] | dict[str, Any] | None


@dataclass(frozen=True)
class Answer:
    """A 200 chat completion. ``content``: a string as is, anything else as its JSON."""

    content: Any = ""
    finish_reason: str | None = "stop"
    usage: Usage = (11, 7)
    delay: float = 0.0
    reasoning_content: str | None = None
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Fail:
    """An error status with an OpenAI-style ``{"error": {...}}`` body (or ``body`` as given)."""

    status: int
    message: str = "error"
    headers: tuple[tuple[str, str], ...] = ()
    delay: float = 0.0
    body: Any = None
    code: str | None = None


@dataclass(frozen=True)
class Hang:
    """Answer nothing for ``seconds`` (None: until the server stops), then drop the connection."""

    seconds: float | None = None


@dataclass(frozen=True)
class Drop:
    """Close the connection without answering (after ``delay``)."""

    delay: float = 0.0


@dataclass(frozen=True)
class RawReply:
    """Exactly these bytes as the body, e.g. an empty 200."""

    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    delay: float = 0.0


Behaviour = Answer | Fail | Hang | Drop | RawReply


def answer(
    content: Any = "",
    *,
    finish_reason: str | None = "stop",
    usage: Usage = (11, 7),
    delay: float = 0.0,
) -> Answer:
    return Answer(content, finish_reason, usage, delay)


def fenced_json(obj: Any) -> Answer:
    return Answer(f"Here is the analysis:\n```json\n{json.dumps(obj, indent=2)}\n```\nDone.")


def think_then_json(obj: Any, thoughts: str = "Let me look at {the diff} first.") -> Answer:
    return Answer(f"<think>\n{thoughts}\n</think>\n\n{json.dumps(obj)}")


def truncated(obj: Any, keep: float = 0.5) -> Answer:
    """``finish_reason: "length"`` with the JSON cut off part-way."""
    text = json.dumps(obj)
    return Answer(text[: max(1, int(len(text) * keep))], finish_reason="length")


def invalid_json() -> Answer:
    return Answer('{"change_type": "bugfix", "summary": "unterminated string}')


def empty_content() -> Answer:
    return Answer(None, usage=(11, 0))


def empty_body(status: int = 200) -> RawReply:
    return RawReply(status, b"")


def rate_limited(
    retry_after: float | str | None = 0.05, *, retry_after_ms: float | None = None
) -> Fail:
    headers: list[tuple[str, str]] = []
    if retry_after is not None:
        headers.append(("Retry-After", str(retry_after)))
    if retry_after_ms is not None:
        headers.append(("retry-after-ms", str(retry_after_ms)))
    return Fail(429, "Rate limit reached", tuple(headers), code="rate_limit_exceeded")


def server_error(status: int = 500, message: str = "internal server error") -> Fail:
    return Fail(status, message)


def unauthorized(message: str = "Incorrect API key provided.") -> Fail:
    return Fail(401, message, code="invalid_api_key")


def reject_response_format(kind: str = "json_schema", *, style: str = "deepseek") -> Fail:
    """A 400 refusing a ``response_format`` type, worded like DeepSeek or vLLM."""
    if style == "vllm":
        return Fail(
            400,
            body={
                "object": "error",
                "message": f"response_format type {kind} is not supported",
                "type": "BadRequestError",
                "code": 400,
            },
        )
    return Fail(400, "This response_format type is unavailable now", code="invalid_request_error")


def context_length_exceeded(limit: int = 8192, asked: int = 9000) -> Fail:
    return Fail(
        400,
        f"This model's maximum context length is {limit} tokens. However, you requested "
        f"{asked} tokens. Please reduce the length of the messages or completion.",
        code="context_length_exceeded",
    )


# --------------------------------------------------------------------------- requests


@dataclass
class RecordedRequest:
    index: int
    method: str
    path: str
    headers: dict[str, str]
    body: Any
    time: float
    """``time.monotonic()`` when the request had been read."""

    @property
    def messages(self) -> list[dict[str, Any]]:
        msgs = self.body.get("messages") if isinstance(self.body, dict) else None
        return list(msgs) if isinstance(msgs, list) else []

    @property
    def prompt(self) -> str:
        """All message contents joined, for handlers that answer per commit."""
        return "\n".join(str(m.get("content", "")) for m in self.messages)

    @property
    def response_format_type(self) -> str | None:
        rf = self.body.get("response_format") if isinstance(self.body, dict) else None
        return rf.get("type") if isinstance(rf, dict) else None


Handler = Callable[[RecordedRequest], Behaviour]


# --------------------------------------------------------------------------- server


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    request_queue_size = 128  # the default backlog of 5 drops SYNs under a burst (1 s stalls)
    fake: FakeOpenAI

    def handle_error(self, request: Any, client_address: Any) -> None:
        # a client that hangs up (cancelled, timed out) is normal here, not worth a traceback
        if isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            return
        super().handle_error(request, client_address)


class _RequestHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # else header and body writes meet delayed ACK: +40 ms each
    server: _Server
    timeout = 30  # socket safety net; stop() closes idle keep-alive sockets long before

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def setup(self) -> None:
        super().setup()
        self.server.fake._track(self.connection, threading.current_thread(), add=True)

    def finish(self) -> None:
        with contextlib.suppress(OSError):
            super().finish()
        self.server.fake._track(self.connection, threading.current_thread(), add=False)

    def do_GET(self) -> None:
        fake = self.server.fake
        self._request_id = "req-fake-get"
        if self.path.split("?")[0].rstrip("/").endswith("/models"):
            self._send_json(
                200, {"object": "list", "data": [{"id": fake.model, "object": "model"}]}
            )
        else:
            self._send_json(404, {"error": {"message": f"no route {self.path}"}})

    def do_POST(self) -> None:
        fake = self.server.fake
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body: Any = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        request = fake._record(self, body)
        self._request_id = f"req-fake-{request.index}"
        if not self.path.split("?")[0].rstrip("/").endswith("/chat/completions"):
            self._send_json(404, {"error": {"message": f"no route {self.path}"}})
            return
        fake._enter()
        try:
            self._perform(fake, request, fake._choose(request))
        finally:
            fake._leave()

    # -- behaviours

    def _perform(self, fake: FakeOpenAI, request: RecordedRequest, b: Behaviour) -> None:
        if isinstance(b, Hang):
            fake._stopping.wait(b.seconds)
            self._drop()
            return
        if b.delay > 0 and fake._stopping.wait(b.delay):
            self._drop()
            return
        if isinstance(b, Drop):
            self._drop()
        elif isinstance(b, RawReply):
            self._send_bytes(b.status, b.body, b.content_type, ())
        elif isinstance(b, Fail):
            payload = b.body
            if payload is None:
                payload = {
                    "error": {
                        "message": b.message,
                        "type": "invalid_request_error" if b.status < 500 else "server_error",
                        "param": None,
                        "code": b.code,
                    }
                }
            self._send_json(b.status, payload, b.headers)
        else:
            self._send_json(200, fake._completion(request, b), b.headers)

    def _drop(self) -> None:
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)

    def _send_json(
        self, status: int, payload: Any, headers: tuple[tuple[str, str], ...] = ()
    ) -> None:
        data = json.dumps(payload).encode() if not isinstance(payload, str) else payload.encode()
        self._send_bytes(status, data, "application/json", headers)

    def _send_bytes(
        self, status: int, data: bytes, ctype: str, headers: tuple[tuple[str, str], ...]
    ) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("x-request-id", getattr(self, "_request_id", "req-fake"))
            for name, value in headers:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()
        except OSError:  # the client gave up (timed out) first
            self.close_connection = True


class FakeOpenAI:
    """The server. Start with ``with FakeOpenAI() as s:`` or :meth:`start` / :meth:`stop`."""

    def __init__(
        self,
        default: Behaviour | Handler | None = None,
        *,
        handler: Handler | None = None,
        model: str = "fake-model",
    ) -> None:
        self.default: Behaviour | Handler = default if default is not None else answer({"ok": True})
        self.handler = handler
        self.model = model
        self.requests: list[RecordedRequest] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._queue: deque[Behaviour] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._connections: dict[socket.socket, threading.Thread] = {}
        self._ids = itertools.count(1)
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- scripting

    def push(self, *behaviours: Behaviour) -> None:
        with self._lock:
            self._queue.extend(behaviours)

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._queue)

    @property
    def request_count(self) -> int:
        with self._lock:
            return len(self.requests)

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        with self._lock:
            return [
                r
                for r in self.requests
                if r.path.split("?")[0].rstrip("/").endswith("/chat/completions")
            ]

    # -- lifecycle

    @property
    def base_url(self) -> str:
        if self._server is None:
            raise RuntimeError("FakeOpenAI is not running")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def start(self) -> FakeOpenAI:
        server = _Server(("127.0.0.1", 0), _RequestHandler)
        server.fake = self
        self._server = server
        self._thread = serve_in_background(server, poll_interval=0.01)
        return self

    def stop(self, join_timeout: float = 5.0) -> None:
        server = self._server
        if server is None:
            return
        self._stopping.set()
        server.shutdown()
        server.server_close()
        with self._lock:
            connections = dict(self._connections)
        for conn in connections:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        deadline = time.monotonic() + join_timeout
        for thread in connections.values():
            thread.join(max(0.0, deadline - time.monotonic()))
        if self._thread is not None:
            self._thread.join(max(0.0, deadline - time.monotonic()))
        self._server = None

    def alive_threads(self) -> list[threading.Thread]:
        """Handler threads still running (empty after a clean :meth:`stop`)."""
        with self._lock:
            return [t for t in self._connections.values() if t.is_alive()]

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # -- used by the handler threads

    def _track(self, conn: socket.socket, thread: threading.Thread, *, add: bool) -> None:
        with self._lock:
            if add:
                self._connections[conn] = thread
            else:
                self._connections.pop(conn, None)

    def _record(self, h: BaseHTTPRequestHandler, body: Any) -> RecordedRequest:
        headers = {k.lower(): v for k, v in h.headers.items()}
        with self._lock:
            request = RecordedRequest(
                len(self.requests), h.command, h.path, headers, body, time.monotonic()
            )
            self.requests.append(request)
        return request

    def _choose(self, request: RecordedRequest) -> Behaviour:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        if self.handler is not None:
            return self.handler(request)
        return self.default(request) if callable(self.default) else self.default

    def _enter(self) -> None:
        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def _leave(self) -> None:
        with self._lock:
            self.in_flight -= 1

    def _completion(self, request: RecordedRequest, a: Answer) -> dict[str, Any]:
        content = a.content
        if content is not None and not isinstance(content, str):
            content = json.dumps(content, ensure_ascii=False)
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if a.reasoning_content is not None:
            message["reasoning_content"] = a.reasoning_content
        body = request.body if isinstance(request.body, dict) else {}
        out: dict[str, Any] = {
            "id": f"chatcmpl-fake-{next(self._ids)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", self.model),
            "choices": [{"index": 0, "message": message, "finish_reason": a.finish_reason}],
        }
        if isinstance(a.usage, tuple):
            prompt, completion = a.usage
            out["usage"] = {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
            }
        elif a.usage is not None:
            out["usage"] = a.usage
        return out


def serve_fake_openai() -> Iterator[FakeOpenAI]:
    """Body of the ``fake_openai`` fixture, for test modules that define their own."""
    server = FakeOpenAI()
    with server:
        yield server
    assert not server.alive_threads(), "fake server threads outlived the test"


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    """A running :class:`FakeOpenAI`; stopped (threads joined) after the test.

    Register it suite-wide with ``pytest_plugins = ["fake_openai"]`` in ``tests/conftest.py``.
    """
    yield from serve_fake_openai()


__all__ = [
    "Answer",
    "Behaviour",
    "Drop",
    "Fail",
    "FakeOpenAI",
    "Handler",
    "Hang",
    "RawReply",
    "RecordedRequest",
    "answer",
    "context_length_exceeded",
    "empty_body",
    "empty_content",
    "fake_openai",
    "fenced_json",
    "invalid_json",
    "rate_limited",
    "reject_response_format",
    "serve_fake_openai",
    "server_error",
    "think_then_json",
    "truncated",
    "unauthorized",
]
