"""Local stand-ins for the delivery services: an SMTP server and an HTTP receiver.

Both listen on 127.0.0.1 on an ephemeral port and record what they receive::

    with HttpReceiver() as http:                   # real HTTP, one thread per request
        http.script(Reply(500), Reply(200, {"code": 0}, delay=0.5))   # then the default
        url = http.url("/hook/abc")
        http.requests[-1].json(), .headers["x-…"], .query["sign"]

    with SmtpServer(username="u", password="p") as smtp:           # aiosmtpd
        smtp.fail_next("451 4.3.0 try again later")                 # scripted DATA replies
        smtp.messages[-1].message["Subject"], .rcpt_tos

Scripted HTTP replies are taken in order before the default reply; a reply's ``delay``
holds the answer back (for client time-outs). The SMTP server can offer STARTTLS (pass a
server ``ssl.SSLContext``) and checks AUTH against one username and password.
"""

from __future__ import annotations

import json
import socket
import ssl
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default as default_policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session
from serverthread import serve_in_background, stop_serving

# ---- HTTP -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Received:
    method: str
    path: str
    query: dict[str, list[str]]
    raw_query: str
    headers: dict[str, str]  # lower-case names
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8"))


@dataclass(frozen=True)
class Reply:
    status: int = 200
    body: bytes | str | dict[str, Any] | list[Any] = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0

    def encoded(self) -> tuple[bytes, str]:
        if isinstance(self.body, dict | list):
            return json.dumps(self.body).encode("utf-8"), "application/json"
        if isinstance(self.body, str):
            return self.body.encode("utf-8"), "text/plain; charset=utf-8"
        return self.body, "text/plain; charset=utf-8"


class HttpReceiver:
    """A real HTTP server on 127.0.0.1 that records requests and answers as scripted."""

    def __init__(self, default: Reply | Callable[[Received], Reply] = Reply(200, "ok")) -> None:
        self.default = default
        self.requests: list[Received] = []
        self._script: deque[Reply] = deque()
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                receiver._handle(self)

            def do_GET(self) -> None:
                receiver._handle(self)

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._server.block_on_close = False
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def url(self, path: str = "/hook") -> str:
        return self.base_url + path

    def script(self, *replies: Reply) -> None:
        with self._lock:
            self._script.extend(replies)

    def __enter__(self) -> HttpReceiver:
        self._thread = serve_in_background(self._server, poll_interval=0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        stop_serving(self._server, self._thread)

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length) if length else b""
        split = urlsplit(handler.path)
        received = Received(
            method=handler.command,
            path=split.path,
            query=parse_qs(split.query),
            raw_query=split.query,
            headers={k.lower(): v for k, v in handler.headers.items()},
            body=body,
        )
        with self._lock:
            self.requests.append(received)
            scripted = self._script.popleft() if self._script else None
        reply = scripted or (self.default(received) if callable(self.default) else self.default)
        if reply.delay:
            time.sleep(reply.delay)
        data, content_type = reply.encoded()
        try:
            handler.send_response(reply.status)
            handler.send_header("Content-Type", content_type)
            handler.send_header("Content-Length", str(len(data)))
            for name, value in reply.headers.items():
                handler.send_header(name, value)
            handler.end_headers()
            handler.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (time-out)
            pass


# ---- SMTP -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ReceivedMail:
    mail_from: str
    rcpt_tos: list[str]
    data: bytes

    @property
    def message(self) -> EmailMessage:
        parsed = message_from_bytes(self.data, policy=default_policy)
        assert isinstance(parsed, EmailMessage)
        return parsed


class _Handler:
    def __init__(self, server: SmtpServer) -> None:
        self.server = server

    async def handle_DATA(self, smtp: SMTP, session: Session, envelope: Envelope) -> str:
        with self.server._lock:
            if self.server._failures:
                return self.server._failures.popleft()
            content = envelope.original_content or envelope.content or b""
            if isinstance(content, str):
                content = content.encode("utf-8")
            self.server.messages.append(
                ReceivedMail(str(envelope.mail_from), list(envelope.rcpt_tos), content)
            )
        return "250 2.0.0 OK"


class _EphemeralController(Controller):
    """aiosmtpd's Controller, listening on a port the OS picks (no race)."""

    def _create_server(self) -> Any:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        return self.loop.create_server(self._factory_invoker, sock=sock, ssl=self.ssl_context)


class SmtpServer:
    """An SMTP server on 127.0.0.1 (aiosmtpd) that keeps the messages it accepts."""

    def __init__(
        self,
        *,
        username: str | None = None,
        password: str | None = None,
        tls_context: ssl.SSLContext | None = None,
        implicit_tls: ssl.SSLContext | None = None,
    ) -> None:
        self.messages: list[ReceivedMail] = []
        self.logins: list[tuple[str, bool]] = []  # (username, accepted)
        self._failures: deque[str] = deque()
        self._lock = threading.Lock()
        self._username, self._password = username, password
        kwargs: dict[str, Any] = {
            "hostname": "127.0.0.1",
            "auth_require_tls": tls_context is not None or implicit_tls is not None,
            "tls_context": tls_context,
            "require_starttls": tls_context is not None,
            "ssl_context": implicit_tls,
        }
        if username is not None:
            kwargs["authenticator"] = self._authenticate
            # plain-text AUTH is allowed (for tests); required only when TLS is on
            kwargs["auth_required"] = tls_context is not None or implicit_tls is not None
        self._controller = _EphemeralController(_Handler(self), **kwargs)

    @property
    def host(self) -> str:
        return "127.0.0.1"

    @property
    def port(self) -> int:
        return int(self._controller.port)

    def fail_next(self, *replies: str) -> None:
        """Answer the next DATA commands with these replies (e.g. "451 4.3.0 later")."""
        with self._lock:
            self._failures.extend(replies)

    def _authenticate(
        self, server: SMTP, session: Session, envelope: Envelope, mechanism: str, data: Any
    ) -> AuthResult:
        if not isinstance(data, LoginPassword):
            return AuthResult(success=False, handled=False)
        user = data.login.decode("utf-8")
        ok = user == self._username and data.password.decode("utf-8") == self._password
        self.logins.append((user, ok))
        return AuthResult(success=ok, handled=False)  # a failure answers 535

    def __enter__(self) -> SmtpServer:
        self._controller.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._controller.stop()


def self_signed_cert(folder: Path) -> tuple[Path, Path]:
    """(certificate, key) for 127.0.0.1, self-signed (the certificate is its own CA)."""
    import ipaddress
    from datetime import UTC, datetime, timedelta

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.now(tz=UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=5))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


def server_tls(cert: Path, key: Path) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


# ---- report contexts and channel settings for the delivery tests ----------------------


def channel_config(**fields: Any) -> Any:
    """A validated ``[[deliver]]`` entry (tiny backoffs unless given)."""
    from pydantic import TypeAdapter

    from commitdigest.config.channels import ChannelConfig

    fields = {"backoff_s": 0.01, "max_backoff_s": 0.05, "timeout_s": 2, **fields}
    return TypeAdapter(ChannelConfig).validate_python(fields)


def busy_day(high: int = 200, *, lang: str = "zh", repos: int = 1) -> Any:
    """A day with ``high`` high-importance commits (Chinese titles for ``zh``) per repository,
    one medium and one low, and an overview."""
    from datetime import UTC, datetime, timedelta

    from commitdigest.models import (
        Analysis,
        ChangeType,
        CommitEntry,
        Coverage,
        Importance,
        Overview,
        ReportContext,
        RepositoryEntry,
        WindowInfo,
    )

    start = datetime(2026, 1, 13, tzinfo=UTC)
    entries = []
    n = 0
    for r in range(repos):
        commits = []
        for i in range(high + 2):
            n += 1
            sha = f"{n:07x}" + "ab" * 16 + f"{r:01x}"
            importance = (
                Importance.HIGH if i < high else (Importance.MEDIUM, Importance.LOW)[i - high]
            )
            title = (
                f"[Bugfix] 修复第 {i} 号调度器在长上下文批处理时的显存泄漏 <b>&</b> *问题*"
                if lang == "zh"
                else f"[Bugfix] Fix memory leak #{i} in the scheduler <b>&</b> *batching*"
            )
            commits.append(
                CommitEntry(
                    sha=sha,
                    short_sha=sha[:7],
                    anchor=sha[:7],
                    title=title,
                    body="",
                    author="dev",
                    author_email="",
                    committed_at=start + timedelta(minutes=i),
                    url=f"https://github.com/org/repo{r}/commit/{sha}",
                    pr_number=None,
                    files=[],
                    analysis=Analysis(
                        change_type=ChangeType.BUGFIX,
                        importance=importance,
                        summary="s",
                        analyser="rules",
                    ),
                )
            )
        overview = Overview(
            themes=["调度器稳定性" if lang == "zh" else "scheduler stability"],
            key_changes=[],
            risks=["显存泄漏" if lang == "zh" else "memory leaks"],
            analyser="rules",
        )
        coverage = Coverage(total=len(commits), analysed=len(commits), by_rules=len(commits))
        entries.append(
            RepositoryEntry(
                name=f"org/repo{r}",
                url=f"https://github.com/org/repo{r}",
                anchor=f"org-repo{r}",
                commits=commits,
                coverage=coverage,
                overview=overview,
            )
        )
    total = sum(len(e.commits) for e in entries)
    return ReportContext(
        generated_at=start + timedelta(days=1),
        lang=lang,
        window=WindowInfo(start=start, end=start + timedelta(days=1), tz="UTC", label="2026-01-13"),
        repositories=entries,
        coverage=Coverage(total=total, analysed=total, by_rules=total),
    )
