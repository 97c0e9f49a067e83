"""The ``[[deliver]]`` entries of ``commitdigest.toml``: one pydantic model per channel type.

Each entry has a unique ``name``, a ``type`` and its type's fields. Secrets are never
written in the file: an entry names the environment variable (``url_env``, ``secret_env``,
``password_env``, ``bot_token_env``) or, for the SMTP password, a file (``password_file``)
that holds them; they are read when a message is sent (:mod:`commitdigest.deliver.channels`),
so ``config check`` works without them. A key that would hold a secret (``url`` on a chat
channel, ``password``, ``secret``, ``bot_token`` …) is refused with a hint, without echoing
the value.

A channel type is registered once, by :func:`channel_type` on its settings model: its name
is the model's ``type`` literal, written nowhere else; :data:`CHANNELS` maps it to the model
and to the module of ``deliver/`` that sends it (named, not imported: the base imports no
stage), and the :data:`ChannelConfig` union and ``deliver``'s module map are read from it.

::

    [[deliver]]
    name = "team-feishu"
    type = "feishu"
    url_env = "FEISHU_WEBHOOK_URL"
    secret_env = "FEISHU_SECRET"
    report_base_url = "https://example.org/reports/"
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_ADDRESS = re.compile(r"^[^@\s<>\"',;]+@[^@\s<>\"',;]+$")
# keys that would hold a secret in the file -> the key to use instead
_SECRET_KEYS: dict[str, str] = {
    "password": "password_env or password_file",
    "secret": "secret_env",
    "bot_token": "bot_token_env",
    "webhook_url": "url_env",
    "access_token": "url_env",
    "key": "url_env",
}


class ChannelSettings(BaseModel):
    """What every channel type's settings share; each type adds `type: Literal["its name"]`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    if TYPE_CHECKING:  # each channel type's own field: Literal["its name"]
        type: str

    name: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    enabled: bool = True
    lang: Literal["zh", "en"] | None = None  # the digest's language; default: the report's
    weekly: bool = False  # also send the weekly digest (when `run` writes one)
    # where the full reports are published: "https://example.org/reports/" links to
    # …/2026-01-13.html (and the weekly's …/2026-W03.html); "{date}" in it is replaced instead
    report_base_url: str | None = None
    max_items: int | None = Field(50, ge=1)  # overview items + important commits listed
    timeout_s: float = Field(15, gt=0, le=300)
    max_attempts: int = Field(4, ge=1, le=10)
    backoff_s: float = Field(2.0, ge=0, le=600)  # first wait; doubles after each failure
    max_backoff_s: float = Field(60.0, ge=0, le=3600)
    max_retry_after_s: float = Field(300.0, ge=0, le=3600)  # longest 429 Retry-After honoured
    # a delivery that failed is sent again by every `run` until its first failure is older
    # than this many days; then it is given up (`deliver --date D` still sends it)
    retry_days: int = Field(3, ge=0, le=60)
    # `run` sends each day of a catch-up of at most this many days; the days of a longer
    # one, and of a backfill (`run --since`), are written without sending (`run --deliver`
    # sends them)
    max_catch_up_days: int = Field(2, ge=1, le=366)

    @model_validator(mode="before")
    @classmethod
    def _no_secrets_in_file(cls, data: Any) -> Any:
        if isinstance(data, dict):
            allowed = set(cls.model_fields)
            for key, instead in _SECRET_KEYS.items():
                if key in data and key not in allowed:
                    raise ValueError(
                        f"{key}: secrets are not read from the file; name the environment "
                        f"variable that holds it with {instead} instead"
                    )
            if "url" in data and "url" not in allowed:
                raise ValueError(
                    "url: this channel's webhook URL carries its token, so it is not read "
                    "from the file; set url_env to the environment variable that holds it"
                )
        return data

    @field_validator("report_base_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        return _check_http_url(value)

    @model_validator(mode="after")
    def _env_names(self) -> ChannelSettings:
        for field in type(self).model_fields:
            value = getattr(self, field)
            if field.endswith("_env") and value is not None and not _ENV_NAME.match(value):
                raise ValueError(
                    f"{field}: must be an environment variable name (letters, digits, _)"
                )
        return self


def _check_http_url(value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip()
    if not value.startswith(("https://", "http://")) or len(value) < 10:
        raise ValueError("must be an http(s) URL")
    return value


@dataclass(frozen=True)
class ChannelType:
    """One ``type`` of ``[[deliver]]`` entry: its settings model and the module of
    ``deliver/`` whose sender registers for it (imported when a message is first sent)."""

    settings: type[ChannelSettings]
    sender: str


CHANNELS: dict[str, ChannelType] = {}  # type name -> ChannelType, in registration order
S = TypeVar("S", bound=type[ChannelSettings])


def type_name(settings: type[ChannelSettings]) -> str:
    """A settings model's channel type: the one value of its ``type`` literal."""
    (name,) = get_args(settings.model_fields["type"].annotation)
    return str(name)


def channel_type(sender: str) -> Callable[[S], S]:
    """Register a settings model as a channel type named by its ``type`` literal, sent by
    the channel that module ``sender`` registers (``deliver.channels.register``)."""

    def add(settings: S) -> S:
        name = type_name(settings)
        if name in CHANNELS:
            raise ValueError(f"channel type {name!r} is already registered")
        CHANNELS[name] = ChannelType(settings, sender)
        return settings

    return add


class _UrlFromEnv(ChannelSettings):
    url_env: str  # the environment variable holding the webhook URL (it carries a token)


@channel_type(sender="commitdigest.deliver.email")
class EmailChannel(ChannelSettings):
    type: Literal["email"]
    host: str = Field(min_length=1)
    port: int | None = Field(None, ge=1, le=65535)  # default: 587 starttls, 465 ssl, 25 none
    security: Literal["starttls", "ssl", "none"] = "starttls"
    username: str | None = None
    password_env: str | None = None
    password_file: Path | None = None
    ca_file: Path | None = None  # a CA bundle to verify the server with (default: system)
    sender: str
    to: list[str] = Field(min_length=1)
    cc: list[str] = Field(default_factory=list)
    subject_prefix: str = "[commitdigest]"
    attach_markdown: bool = True

    @field_validator("sender")
    @classmethod
    def _one_address(cls, value: str) -> str:
        return _check_address(value)

    @field_validator("to", "cc")
    @classmethod
    def _addresses(cls, values: list[str]) -> list[str]:
        return [_check_address(v) for v in values]

    @model_validator(mode="after")
    def _one_password_source(self) -> EmailChannel:
        if self.password_env and self.password_file:
            raise ValueError("set password_env or password_file, not both")
        if (self.password_env or self.password_file) and not self.username:
            raise ValueError("a password needs a username")
        return self

    @property
    def effective_port(self) -> int:
        if self.port is not None:
            return self.port
        return {"starttls": 587, "ssl": 465, "none": 25}[self.security]


def _check_address(value: str) -> str:
    value = value.strip()
    # "Name <addr@host>" or a bare address
    match = re.fullmatch(r"(?:[^<>]*<)?([^<>]+)>?", value)
    address = match.group(1).strip() if match else value
    if not _ADDRESS.match(address):
        raise ValueError(f"not an e-mail address: {value!r}")
    return value


@channel_type(sender="commitdigest.deliver.chat_cn")
class FeishuChannel(_UrlFromEnv):
    """Feishu / Lark custom bot (``open.feishu.cn`` or ``open.larksuite.com`` hook URL)."""

    type: Literal["feishu"]
    secret_env: str | None = None  # signature verification ("签名校验") secret


@channel_type(sender="commitdigest.deliver.chat_cn")
class DingTalkChannel(_UrlFromEnv):
    type: Literal["dingtalk"]
    secret_env: str | None = None  # "加签" secret (SEC…)


@channel_type(sender="commitdigest.deliver.chat_cn")
class WeComChannel(_UrlFromEnv):
    type: Literal["wecom"]


@channel_type(sender="commitdigest.deliver.chat_intl")
class SlackChannel(_UrlFromEnv):
    type: Literal["slack"]


@channel_type(sender="commitdigest.deliver.chat_intl")
class DiscordChannel(_UrlFromEnv):
    type: Literal["discord"]
    style: Literal["embed", "content"] = "embed"  # an embed (≤ 4096) or plain content (≤ 2000)


@channel_type(sender="commitdigest.deliver.chat_intl")
class TelegramChannel(ChannelSettings):
    type: Literal["telegram"]
    bot_token_env: str
    chat_id: int | str  # a numeric id or "@channelusername"
    parse_mode: Literal["HTML", "MarkdownV2"] = "HTML"
    api_url: str = "https://api.telegram.org"
    disable_notification: bool = False

    @field_validator("api_url")
    @classmethod
    def _api(cls, value: str) -> str:
        checked = _check_http_url(value)
        assert checked is not None
        return checked.rstrip("/")


@channel_type(sender="commitdigest.deliver.webhook")
class WebhookChannel(ChannelSettings):
    """Any HTTP endpoint: POSTs the report's JSON context, optionally signed."""

    type: Literal["webhook"]
    url: str | None = None  # a URL without credentials may sit in the file …
    url_env: str | None = None  # … one that carries a token comes from the environment
    secret_env: str | None = None  # HMAC-SHA256 key for X-Commitdigest-Signature
    headers: dict[str, str] = Field(default_factory=dict)  # extra, non-secret headers

    @field_validator("url")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        return _check_http_url(value)

    @field_validator("headers")
    @classmethod
    def _plain_headers(cls, headers: dict[str, str]) -> dict[str, str]:
        for name in headers:
            if name.lower() in {"authorization", "cookie", "x-api-key", "proxy-authorization"}:
                raise ValueError(f"header {name!r} holds a credential: not read from the file")
        return headers

    @model_validator(mode="after")
    def _one_url(self) -> WebhookChannel:
        if (self.url is None) == (self.url_env is None):
            raise ValueError("set exactly one of url and url_env")
        return self


CHANNEL_TYPES: tuple[str, ...] = tuple(CHANNELS)
if TYPE_CHECKING:  # a checker cannot read the registry: any channel's settings
    ChannelConfig: TypeAlias = ChannelSettings
else:  # one ``[[deliver]]`` entry: the model its ``type`` names, of the types registered
    # by now (``Settings`` reads it once: a type registered after this module is not in it)
    ChannelConfig = Annotated[
        functools.reduce(operator.or_, (t.settings for t in CHANNELS.values())),
        Field(discriminator="type"),
    ]


C = TypeVar("C", bound=ChannelSettings)


def check_unique_names(channels: list[C]) -> list[C]:
    """For ``Settings``' validator: every ``[[deliver]]`` name is used once."""
    seen: dict[str, int] = {}
    for i, channel in enumerate(channels):
        if channel.name in seen:
            first = seen[channel.name]
            raise ValueError(
                f"deliver[{i}] name {channel.name!r} is already used by deliver[{first}]"
            )
        seen[channel.name] = i
    return channels


def channel_problems(
    config: ChannelConfig, environ: Mapping[str, str]
) -> tuple[list[str], list[str]]:
    """``(errors, warnings)`` for one channel, as ``config check`` reports them: every
    environment variable it names is set and, for a URL, an http(s) URL; a password file
    exists; SMTP credentials would not travel without TLS. Values are never shown."""
    errors: list[str] = []
    warnings: list[str] = []
    name = f"channel {config.name!r} ({config.type})"
    for field, value in config:
        if not field.endswith("_env") or not isinstance(value, str) or not value:
            continue
        found = environ.get(value, "")
        what = field.removesuffix("_env").replace("_", " ")
        if not found.strip():
            errors.append(f"{name}: the environment variable {value} ({what}) is not set")
        elif field == "url_env" and not found.strip().lower().startswith(("https://", "http://")):
            errors.append(f"{name}: {value} does not hold an http(s) URL")
    if isinstance(config, EmailChannel):
        if config.password_file and not Path(config.password_file).expanduser().is_file():
            errors.append(f"{name}: the password file {config.password_file} does not exist")
        if config.security == "none" and (config.password_env or config.password_file):
            warnings.append(
                f'{name}: the SMTP password would travel without TLS (security = "none"); '
                'use "starttls" or "ssl"'
            )
    if isinstance(config, WebhookChannel) and config.url and config.url.startswith("http://"):
        warnings.append(f"{name}: the webhook URL is plain http: the report travels unencrypted")
    return errors, warnings
