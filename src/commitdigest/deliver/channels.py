"""The channel interface, the registry of channel types, and what every sender shares.

A channel (:class:`Channel`) turns a day's report into one message (:meth:`Channel.prepare`,
pure: the same bytes on every attempt) and sends it once (:meth:`Channel.send`); the
service (:mod:`commitdigest.deliver.service`) retries, records and reports. An attempt that
fails raises :class:`DeliveryError`, which says whether trying again can help (5xx,
429 — with its ``Retry-After`` —, time-outs and connection errors) or not (4xx, a missing
secret).

Secrets (webhook URLs with tokens, signing secrets, passwords, bot tokens) are read from
the environment or a file only when a message is sent (:func:`read_secret_env`), kept as
:class:`~pydantic.SecretStr` (masked in any repr) and registered for redaction: every
error message passes through :func:`redact`, and a logging filter on the HTTP client's
loggers (``httpx2``, ``httpcore2.*``: it logs each request's full URL) masks them in log
records too.
"""

from __future__ import annotations

import importlib
import json
import logging
import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx2
from pydantic import SecretStr

from commitdigest.config.channels import CHANNELS, ChannelConfig, ChannelSettings, type_name
from commitdigest.errors import DeliveryError
from commitdigest.http import describe_transport_error, parse_retry_after
from commitdigest.models import WeeklyContext
from commitdigest.redaction import install_log_redaction, register_secret
from commitdigest.render.folder import Report

from .digest import Digest, DigestLines, Markup, build_digest, fit, more_line, report_link

log = logging.getLogger("commitdigest.deliver")
P = TypeVar("P")  # a channel's payload


# ---- secrets and redaction ------------------------------------------------------------


def read_secret_env(name: str, *, what: str) -> SecretStr:
    """The secret in environment variable ``name``; a missing one is a permanent failure."""
    value = os.environ.get(name, "").strip()
    if not value:
        raise DeliveryError(f"environment variable {name} ({what}) is not set")
    register_secret(value)
    return SecretStr(value)


def read_secret_file(path: Path, *, what: str) -> SecretStr:
    try:
        value = path.expanduser().read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        raise DeliveryError(f"cannot read the {what} file {path}: {reason}") from None
    if not value:
        raise DeliveryError(f"the {what} file {path} is empty")
    register_secret(value)
    return SecretStr(value)


# ---- the interface --------------------------------------------------------------------


@dataclass(frozen=True)
class DeliveryJob:
    """What a channel delivers: one day's report, or one week's digest."""

    context: Report
    day: str  # its label: YYYY-MM-DD, or YYYY-Www for a weekly digest
    report_paths: Mapping[str, Path] = field(default_factory=dict)  # format -> written file
    test: bool = False  # a sample message from `deliver --test`

    @property
    def weekly(self) -> bool:
        return isinstance(self.context, WeeklyContext)


@dataclass(frozen=True)
class Prepared:
    """A message ready to send; ``text`` is what its digest says (hashed in the store)."""

    text: str
    payload: Any
    items_shown: int = 0
    items_omitted: int = 0


class Channel(ABC):
    """One configured destination. Subclasses register with :func:`register`."""

    def __init__(self, config: ChannelConfig, client: httpx2.AsyncClient) -> None:
        self.config = config
        self.client = client

    @property
    def name(self) -> str:
        return self.config.name

    def lang(self, job: DeliveryJob) -> str:
        return self.config.lang or job.context.lang

    def digest(self, job: DeliveryJob) -> Digest:
        """The job's digest in this channel's language, linking to the full report when
        ``report_base_url`` is set (``digest.report_url``, else None)."""
        url = report_link(self.config.report_base_url, job.day)
        return build_digest(job.context, lang=self.lang(job), report_url=url, test=job.test)

    def fit_digest(
        self,
        digest: Digest,
        lines: DigestLines,
        markup: Markup,
        *,
        build: Callable[[list[str]], P],
        fits: Callable[[P], bool],
        titled: bool = False,
    ) -> Prepared:
        """A chat message: the most whole lines of ``lines`` that fit (see
        :func:`~commitdigest.deliver.digest.fit`), at most ``max_items`` items. Its text is
        the lines sent, after the digest's title when ``titled`` (the title is not in them)."""
        fitted = fit(
            lines,
            build=build,
            fits=fits,
            more=lambda n: more_line(digest.lang, n, markup),
            max_items=self.config.max_items,
        )
        text = "\n".join([digest.title, *fitted.lines] if titled else fitted.lines)
        return Prepared(text, fitted.payload, fitted.shown, fitted.omitted)

    async def post_json(self, url: str, payload: Any) -> httpx2.Response:
        """POST ``payload`` as JSON to ``url`` within the channel's time-out."""
        return await post(self.client, url, json_bytes(payload), timeout=self.config.timeout_s)

    def payload_file(self, message: Prepared) -> tuple[str, bytes]:
        """(file suffix, bytes) of ``message`` as it would be sent, for ``deliver --dry-run``:
        the JSON body, exactly (no secret is in it: URLs and tokens are added by send)."""
        return "json", json.dumps(message.payload, ensure_ascii=False, indent=1).encode("utf-8")

    @abstractmethod
    def prepare(self, job: DeliveryJob) -> Prepared:
        """Build the message (no I/O besides reading the report files, no secrets)."""

    @abstractmethod
    async def send(self, message: Prepared) -> None:
        """One attempt; raises :class:`DeliveryError`."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


_REGISTRY: dict[str, type[Channel]] = {}
C = TypeVar("C", bound=type[Channel])


def register(settings: type[ChannelSettings]) -> Callable[[C], C]:
    """Register the decorated class as the sender of the channel type whose settings model
    is ``settings``; it is defined in the type's ``sender`` module (the one named to
    ``config.channels.channel_type``), imported by :func:`channel_class` on first use."""

    def add(cls: C) -> C:
        _REGISTRY[type_name(settings)] = cls
        return cls

    return add


def channel_class(name: str) -> type[Channel]:
    """The class for a ``type``, importing its sender module on first use."""
    if name not in _REGISTRY and name in CHANNELS:
        importlib.import_module(CHANNELS[name].sender)
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown channel type {name!r}") from None


def build_channel(config: ChannelConfig, client: httpx2.AsyncClient) -> Channel:
    install_log_redaction()
    return channel_class(config.type)(config, client)


# ---- HTTP -----------------------------------------------------------------------------


def json_bytes(payload: Any) -> bytes:
    """The request body exactly as sent (sizes are measured on these bytes)."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def utf8_bytes(text: str) -> int:
    return len(text.encode("utf-8"))


def utf16_units(text: str) -> int:
    """Telegram's (and JavaScript's) length: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


JSON_HEADERS = {"Content-Type": "application/json; charset=utf-8"}


async def post(
    client: httpx2.AsyncClient,
    url: str,
    body: bytes,
    *,
    timeout: float,
    headers: Mapping[str, str] | None = None,
    params: Mapping[str, str] | None = None,
) -> httpx2.Response:
    """POST ``body``; a transport failure or a non-2xx answer becomes a DeliveryError."""
    try:
        response = await client.post(
            url,
            content=body,
            headers={**JSON_HEADERS, **(headers or {})},
            params=dict(params) if params else None,
            timeout=timeout,
        )
    except httpx2.TimeoutException:
        raise DeliveryError(f"timed out after {timeout:g} s", retryable=True) from None
    except httpx2.TransportError as exc:
        raise DeliveryError(
            f"connection failed: {describe_transport_error(exc)}", retryable=True
        ) from None
    check_status(response)
    return response


def check_status(response: httpx2.Response) -> None:
    status = response.status_code
    if 200 <= status < 300:
        return
    if status == 429:
        raise DeliveryError(
            "HTTP 429 Too Many Requests" + _snippet(response),
            retryable=True,
            retry_after=retry_after(response),
        )
    raise DeliveryError(
        f"HTTP {status} {response.reason_phrase}".rstrip() + _snippet(response),
        retryable=status >= 500 or status == 408,
        retry_after=retry_after(response) if status == 503 else None,
    )


def retry_after(response: httpx2.Response) -> float | None:
    """``Retry-After`` in seconds (a number or an HTTP date); else the JSON body's
    ``retry_after`` (Discord) or ``parameters.retry_after`` (Telegram); else None."""
    asked = parse_retry_after(response.headers)
    if asked is not None or response.headers.get("retry-after", "").strip():
        return asked
    data = json_body(response)
    params = data.get("parameters")
    found = data.get("retry_after", params.get("retry_after") if isinstance(params, dict) else None)
    return max(0.0, float(found)) if isinstance(found, int | float) else None


def _snippet(response: httpx2.Response, limit: int = 200) -> str:
    try:
        text = " ".join(response.text.split())
    except Exception:
        return ""
    return f": {text[:limit]}" if text else ""


def json_body(response: httpx2.Response) -> dict[str, Any]:
    """The answer's JSON object ({} when it is not one)."""
    try:
        data = response.json()
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}
