"""Settings: one TOML file (``commitdigest.toml``), overridden by environment variables.

Precedence, highest first: command-line options (applied by the CLI), ``COMMITDIGEST_*``
environment variables (nested keys with ``__``, e.g. ``COMMITDIGEST_LLM__MODEL``), the
TOML file, the defaults below. Secrets come from the environment only: ``OPENAI_API_KEY``
fills ``llm.api_key``, ``GITHUB_TOKEN`` (else ``GH_TOKEN``) fills ``github.token``; a file that
holds an ``api_key`` or ``token`` is rejected. ``OPENAI_BASE_URL`` and ``GITHUB_API_URL``
fill ``llm.base_url`` / ``github.api_url`` when neither the file nor ``COMMITDIGEST_*``
sets them. The followed repositories are ``[[repositories]]`` entries (:class:`Repository`,
each with a :class:`Focus`), handed to the stages as :class:`~commitdigest.models.Subscription`
records (:meth:`Settings.subscriptions`); :mod:`commitdigest.config.subscriptions` edits them
in the file.
Every field is documented in ``docs/config.md``.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import platformdirs
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import (
    BaseSettings,
    InitSettingsSource,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    SettingsError,
    TomlConfigSettingsSource,
)

from commitdigest.config.channels import ChannelConfig, check_unique_names
from commitdigest.config.subscriptions import Focus as Focus
from commitdigest.config.subscriptions import Repository as Repository
from commitdigest.errors import ConfigError
from commitdigest.models import Subscription


def default_home() -> Path:
    """``$COMMITDIGEST_HOME``, else the platform's user data directory."""
    env = os.environ.get("COMMITDIGEST_HOME")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir("commitdigest", appauthor=False))


CONFIG_FILE = "commitdigest.toml"
# the environment variables that name the locale, the first set wins (as gettext reads them)
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
ENV_PREFIX = "COMMITDIGEST_"
# secret key path -> the environment variables that fill it, first one set wins
SECRET_ENV: dict[str, tuple[str, ...]] = {
    "llm.api_key": ("OPENAI_API_KEY",),
    "github.token": ("GITHUB_TOKEN", "GH_TOKEN"),
}
SECRET_HINTS = {"llm.api_key": "OPENAI_API_KEY", "github.token": "GITHUB_TOKEN or GH_TOKEN"}
SECRET_KEYS = frozenset({"api_key", "token"})
MASK = "********"
Format = Literal["md", "json", "html"]
WeeklyDay = Literal[
    "off", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"
]
WEEKDAYS: tuple[str, ...] = (
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"
)  # fmt: skip
# what load_settings is loading: the parsed file (None: none) and whether env vars count
_LOADING: ContextVar[tuple[dict[str, Any] | None, bool]] = ContextVar(
    "_LOADING", default=(None, True)
)


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


def http_url(value: str) -> str:
    """``value`` without surrounding blanks and trailing ``/``; a ``ValueError`` unless it
    is an ``http://`` or ``https://`` URL with a host."""
    value = value.strip()
    scheme, _, rest = value.partition("://")
    if scheme.lower() not in ("http", "https") or not rest.strip("/"):
        raise ValueError(f"must be an http(s) URL (https://host/…), got {value!r}")
    return value.rstrip("/")


class GitSettings(_Section):
    max_patch_bytes_per_file: int = Field(16 * 1024, ge=0)
    max_patch_bytes_per_commit: int = Field(128 * 1024, ge=0)


class AnalysisSettings(_Section):
    # an analyser's registered name (analysis/analysers.py): "rules", "llm" or a plugin's;
    # checked against the registry by `config check` and when a report starts
    analyser: str = Field("rules", pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    overview: bool = True  # one daily overview per repository (LLM, else rule-made)
    # automation accounts beyond the usual ones (dependabot, renovate, *[bot] …): their
    # commits join the "Dependency and automation updates" block
    bots: list[str] = Field(default_factory=list)


LLMProvider = Literal[
    "auto", "openai", "azure", "deepseek", "dashscope", "vllm", "sglang", "ollama",
    "openrouter", "generic",
]  # fmt: skip
StructuredOutput = Literal["auto", "json_schema_strict", "json_schema", "json_object", "prompt"]


class LLMSettings(_Section):
    model: str = "gpt-4o-mini"
    base_url: str | None = None
    api_key: SecretStr | None = None
    # the service's request shape (docs/llm.md); "auto": from the base URL and the model
    provider: LLMProvider = "auto"
    # how the JSON answer is asked for; "auto": the provider's way
    structured_output: StructuredOutput = "auto"
    temperature: float = Field(0.2, ge=0, le=2)
    max_output_tokens: int = Field(2048, ge=128)
    max_output_tokens_cap: int = Field(8192, ge=128)  # retries after "length" grow up to this
    # added to max_tokens for a model that reasons before it answers (o-series, R1, QwQ…)
    reasoning_tokens: int = Field(4096, ge=0)
    context_window: int = Field(32768, ge=2048)  # prompt + max_tokens stay within this
    input_budget_tokens: int = Field(24000, ge=1000)  # estimated input tokens per request
    max_chunks: int = Field(4, ge=1, le=16)
    timeout_s: float = Field(120, gt=0)
    max_attempts: int = Field(8, ge=1, le=10)  # 5xx, time-outs; waits a server asks for are not
    max_wait_s: float = Field(300, ge=0)  # the server-asked waits (429…) of one request, in all
    max_concurrency: int = Field(8, ge=1, le=64)
    requests_per_minute: int | None = Field(None, ge=1)
    extra_body: dict[str, Any] = Field(default_factory=dict)
    price_input_per_mtok: float | None = Field(None, ge=0)
    price_output_per_mtok: float | None = Field(None, ge=0)
    # "remove": mentions (paths, symbols, env vars, flags, issues, versions) the commit does
    # not contain are taken out of every LLM analysis; "off": the model's text as it is
    grounding: Literal["remove", "off"] = "remove"
    # a run in which more than this share of the analyses fell back to the rules exits 8
    # and is recorded "degraded" (its reports are still written)
    max_fallback_share: float = Field(0.5, ge=0, le=1)

    _origins: dict[str, str] = PrivateAttr(default_factory=dict)

    def origin(self, key: str) -> str | None:
        """Where ``base_url`` or ``api_key`` came from (``OPENAI_BASE_URL``, ``llm.base_url in
        commitdigest.toml``…), as :func:`load_settings` found it; ``None`` when unknown."""
        return self._origins.get(key)

    @field_validator("base_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        return None if value is None else http_url(value)


class GitHubSettings(_Section):
    api_url: str = "https://api.github.com"
    token: SecretStr | None = None  # from GH_TOKEN / GITHUB_TOKEN, never from the file
    max_concurrency: int = Field(4, ge=1, le=32)
    rate_limit_max_wait_s: float = Field(900, ge=0)

    @field_validator("api_url")
    @classmethod
    def _http_url(cls, value: str) -> str:
        return http_url(value)


SEPARATE_FROM = 6  # repositories from which run.reports = "auto" writes separate reports


class RunSettings(_Section):
    first_run_days_back: int = Field(1, ge=1, le=366)  # window of a repository's first run
    # a machine that was off catches up at most this many days (the newest); `run --since`
    # backfills the rest
    max_catch_up_days: int = Field(31, ge=1, le=366)
    # deprecated: each [[deliver]] entry's `retry_days` (this value, when set, is the
    # default of the entries that do not set theirs)
    delivery_retry_days: int = Field(3, ge=0, le=60)
    lock_timeout_s: float = Field(60, ge=0)  # wait this long for another run's lock
    # "combined": one report a day for every repository; "separate": one per repository (or
    # per `group`) in its own folder, plus an index of the day; "auto": separate from
    # SEPARATE_FROM repositories on, or when a repository names a group
    reports: Literal["auto", "combined", "separate"] = "auto"
    read_concurrency: int = Field(8, ge=1, le=64)  # repositories read at the same time


class Settings(BaseSettings):
    """The settings: the TOML file, then COMMITDIGEST_* environment variables."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, env_nested_delimiter="__", extra="forbid"
    )
    toml_path: ClassVar[Path | None] = None  # a subclass may name a file to read

    timezone: str | None = None
    language: Literal["zh", "en"] = "zh"
    output_dir: Path = Path("reports")
    formats: Annotated[list[Format], NoDecode] = Field(default_factory=lambda: list[Format](["md"]))
    git: GitSettings = Field(default_factory=GitSettings)
    analysis: AnalysisSettings = Field(default_factory=AnalysisSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    github: GitHubSettings = Field(default_factory=GitHubSettings)
    run: RunSettings = Field(default_factory=RunSettings)
    repositories: list[Repository] = Field(default_factory=list)
    deliver: list[ChannelConfig] = Field(default_factory=list)
    # `run` writes the weekly digest of the last complete week on this day (after the
    # dailies) and sends it to the channels with `weekly = true`; a subscription's own
    # `weekly` wins over this one
    weekly: WeeklyDay = "off"

    _config_file: Path | None = PrivateAttr(None)
    _secret_sources: dict[str, str] = PrivateAttr(default_factory=dict)

    @field_validator("timezone")
    @classmethod
    def _zone(cls, value: str | None) -> str | None:
        if value is None:
            return None
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(
                f"unknown time zone {value!r} (use an IANA name such as Asia/Shanghai or UTC)"
            ) from None
        return value

    @field_validator("formats", mode="before")
    @classmethod
    def _split_formats(cls, value: Any) -> Any:
        if isinstance(value, str):  # COMMITDIGEST_FORMATS=md,json (or a JSON list)
            if value.lstrip().startswith("["):
                try:
                    value = json.loads(value)
                except ValueError:
                    raise ValueError(f"not a JSON list: {value!r}") from None
            else:
                value = [v.strip() for v in value.split(",") if v.strip()]
        if isinstance(value, list):
            value = list(
                dict.fromkeys(v.strip().lower() if isinstance(v, str) else v for v in value)
            )
            if not value:
                raise ValueError("needs at least one format (md, json)")
        return value

    @field_validator("deliver")
    @classmethod
    def _unique_channels(cls, channels: list[ChannelConfig]) -> list[ChannelConfig]:
        return check_unique_names(channels)

    @model_validator(mode="after")
    def _retry_days(self) -> Settings:
        if "delivery_retry_days" in self.run.model_fields_set:  # the old key still counts
            days = self.run.delivery_retry_days
            self.deliver = [
                c
                if "retry_days" in c.model_fields_set
                else c.model_copy(update={"retry_days": days})
                for c in self.deliver
            ]
        return self

    def report_language(self, environ: Mapping[str, str] | None = None) -> Literal["zh", "en"]:
        """The report language when a command is given none: ``language`` where the config
        sets it, else the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``, the first that is
        set) when it starts with ``zh``, else ``en``."""
        if "language" in self.model_fields_set:
            return self.language
        env = os.environ if environ is None else environ
        for name in LOCALE_VARIABLES:
            value = env.get(name)
            if value:
                return "zh" if value.lower().startswith("zh") else "en"
        return "en"

    @field_validator("repositories")
    @classmethod
    def _unique(cls, repositories: list[Repository]) -> list[Repository]:
        seen: dict[str, int] = {}
        for i, repo in enumerate(repositories):
            if repo.key in seen:
                j = seen[repo.key]
                raise ValueError(
                    f"repositories[{i}] {repo.name!r} is the same repository as "
                    f"repositories[{j}] {repositories[j].name!r}"
                )
            seen[repo.key] = i
        return repositories

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        file_data, use_env = _LOADING.get()
        sources: list[PydanticBaseSettingsSource] = [init_settings]
        if use_env:
            sources.append(env_settings)
        if file_data is not None:
            sources.append(InitSettingsSource(settings_cls, init_kwargs=file_data))
        elif cls.toml_path is not None:
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=cls.toml_path))
        return tuple(sources)

    @property
    def config_file(self) -> Path | None:
        """The file these settings were loaded from (None: defaults and environment)."""
        return self._config_file

    def subscriptions(self) -> list[Subscription]:
        """The followed repositories as every stage reads them: a relative path (a name, a
        downstream checkout) is relative to the config file (else the working folder)."""
        base = self.config_file.parent if self.config_file else Path.cwd()
        return [repo.resolved(base) for repo in self.repositories]

    def secret_source(self, key: str) -> str | None:
        """The environment variable that set secret ``key`` (``llm.api_key``), or None."""
        return self._secret_sources.get(key)


def default_config_path() -> Path:
    """Where the file is created when none exists: ``$COMMITDIGEST_HOME/commitdigest.toml``."""
    return default_home() / CONFIG_FILE


def find_config(explicit: Path | None = None, *, cwd: Path | None = None) -> Path | None:
    """``--config PATH``, else ``./commitdigest.toml``, else ``$COMMITDIGEST_HOME/…``."""
    if explicit is not None:
        if not explicit.is_file():
            raise ConfigError(f"config file {explicit} does not exist")
        return explicit
    for candidate in ((cwd or Path.cwd()) / CONFIG_FILE, default_config_path()):
        if candidate.is_file():
            return candidate
    return None


def parse_config_text(text: str, path: Path) -> dict[str, Any]:
    """Parse the file's TOML and refuse secrets in it; errors are one-line ConfigErrors."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {path} is not valid TOML: {exc}") from None
    _reject_secrets(data, path, ())
    return data


def read_config_file(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read config file {path}: {exc}") from None
    return parse_config_text(text, path)


def validate_file_data(data: dict[str, Any], path: Path) -> Settings:
    """Validate what a file holds, ignoring the environment (used before writing a file)."""
    return _build(data, path, use_env=False)


def load_settings(path: Path | None = None) -> Settings:
    """Load and validate the settings; a bad file is a one-line :class:`ConfigError`."""
    data = read_config_file(path) if path is not None else {}
    settings = _build(data, path, use_env=True)
    settings._config_file = path
    for key, names in SECRET_ENV.items():
        section, field = key.split(".")
        model = getattr(settings, section)
        if getattr(model, field) is not None:  # only COMMITDIGEST_* can have set it
            settings._secret_sources[key] = f"{ENV_PREFIX}{section}__{field}".upper()
            continue
        name = next((n for n in names if os.environ.get(n)), None)
        if name is not None:
            setattr(model, field, SecretStr(os.environ[name]))
            settings._secret_sources[key] = name
    llm, github = settings.llm, settings.github
    if llm.base_url is None and os.environ.get("OPENAI_BASE_URL", "").strip():
        llm.base_url = _env_url("OPENAI_BASE_URL")
        llm._origins["base_url"] = "OPENAI_BASE_URL"
    elif llm.base_url is not None:
        env = f"{ENV_PREFIX}LLM__BASE_URL"
        llm._origins["base_url"] = (
            env if os.environ.get(env) else f"llm.base_url in {path or 'the settings'}"
        )
    if "llm.api_key" in settings._secret_sources:
        llm._origins["api_key"] = settings._secret_sources["llm.api_key"]
    if "api_url" not in github.model_fields_set and os.environ.get("GITHUB_API_URL", "").strip():
        github.api_url = _env_url("GITHUB_API_URL")
    return settings


def _env_url(name: str) -> str:
    """The URL in environment variable ``name``; a :class:`ConfigError` naming it."""
    try:
        return http_url(os.environ[name])
    except ValueError as exc:
        raise ConfigError(f"environment variable {name}: {exc}") from None


def _build(data: dict[str, Any], path: Path | None, *, use_env: bool) -> Settings:
    token = _LOADING.set((data, use_env))
    try:
        return Settings()
    except ValidationError as exc:
        raise ConfigError(describe_error(exc, path=path)) from None
    except SettingsError as exc:  # an environment value that is not valid JSON
        field = re.search(r'field "(\w+)"', str(exc))
        var = ENV_PREFIX + (field.group(1).upper() if field else "*")
        raise ConfigError(
            f"environment variable {var}: cannot parse its value (lists and tables are JSON)"
        ) from None
    finally:
        _LOADING.reset(token)


def _reject_secrets(node: Any, path: Path, loc: tuple[str | int, ...]) -> None:
    if isinstance(node, list):
        for i, item in enumerate(node):
            _reject_secrets(item, path, (*loc, i))
    elif isinstance(node, dict):
        for key, value in node.items():
            here = (*loc, key)
            if key in SECRET_KEYS:
                hint = SECRET_HINTS.get(format_loc(here), "OPENAI_API_KEY or GITHUB_TOKEN")
                raise ConfigError(
                    f"config file {path}: {format_loc(here)}: secrets are not read from the "
                    f"file; remove the key and set the {hint} environment variable instead"
                )
            _reject_secrets(value, path, here)


def format_loc(loc: Sequence[str | int]) -> str:
    """``("repositories", 1, "focus")`` → ``repositories[1].focus``."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else str(part)
    return text


def describe_error(
    exc: ValidationError, origin: str | None = None, path: Path | None = None
) -> str:
    """One line: ``<origin>: <key path>: <problem>``; the origin is found when not given."""
    error = exc.errors()[0]
    loc = tuple(p for p in error["loc"] if isinstance(p, str | int))
    message = str(error["msg"]).removeprefix("Value error, ")
    if error["type"] == "extra_forbidden":
        message = "unknown key"
    elif "input" in error and not isinstance(error["input"], dict | list):
        shown = repr(error["input"])
        if shown not in message:
            message += f" (got {shown[:80]})"
    where = f"{format_loc(loc)}: " if loc else ""
    return f"{origin or _origin(loc, path)}: {where}{message}"


def _origin(loc: tuple[str | int, ...], path: Path | None) -> str:
    """Who set the bad value: a ``COMMITDIGEST_*`` variable outranks the file."""
    names: list[str] = []
    for part in loc:
        if not isinstance(part, str):
            break
        names.append(part)
    env = {name.upper() for name in os.environ}
    for k in range(len(names), 0, -1):
        var = (ENV_PREFIX + "__".join(names[:k])).upper()
        if var in env:
            return f"environment variable {var}"
    return f"config file {path}" if path is not None else "settings"
