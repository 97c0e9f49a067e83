"""Settings: one TOML file (``commitdigest.toml``), overridden by environment variables.

Precedence, highest first: command-line options (applied by the CLI), ``COMMITDIGEST_*``
environment variables (nested keys with ``__``, e.g. ``COMMITDIGEST_LLM__MODEL``), the
TOML file, the defaults below. Secrets come from the environment: ``OPENAI_API_KEY`` and
``OPENAI_BASE_URL`` fill ``llm.api_key`` / ``llm.base_url`` when the file leaves them out.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from .errors import UsageError
from .store.db import default_home

CONFIG_FILE = "commitdigest.toml"


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GitSettings(_Section):
    max_patch_bytes_per_file: int = Field(16 * 1024, ge=0)
    max_patch_bytes_per_commit: int = Field(128 * 1024, ge=0)


class AnalysisSettings(_Section):
    analyser: Literal["rules", "llm"] = "rules"
    overview: bool = True  # one daily overview per repository (LLM, else rule-made)


class LLMSettings(_Section):
    model: str = "gpt-4o-mini"
    base_url: str | None = None
    api_key: SecretStr | None = None
    temperature: float = Field(0.2, ge=0, le=2)
    max_output_tokens: int = Field(2048, ge=128)
    max_output_tokens_cap: int = Field(8192, ge=128)  # retries after "length" grow up to this
    context_window: int = Field(32768, ge=2048)  # prompt + max_tokens stay within this
    input_budget_tokens: int = Field(24000, ge=1000)  # estimated input tokens per request
    max_chunks: int = Field(4, ge=1, le=16)
    timeout_s: float = Field(120, gt=0)
    max_attempts: int = Field(4, ge=1, le=10)
    max_concurrency: int = Field(8, ge=1, le=64)
    requests_per_minute: int | None = Field(None, ge=1)
    extra_body: dict[str, Any] = Field(default_factory=dict)
    price_input_per_mtok: float | None = Field(None, ge=0)
    price_output_per_mtok: float | None = Field(None, ge=0)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="COMMITDIGEST_", env_nested_delimiter="__", extra="forbid"
    )
    toml_path: ClassVar[Path | None] = None

    timezone: str | None = None
    language: Literal["zh", "en"] = "zh"
    output_dir: Path = Path("reports")
    formats: list[str] = Field(default_factory=lambda: ["md"])
    git: GitSettings = Field(default_factory=GitSettings)
    analysis: AnalysisSettings = Field(default_factory=AnalysisSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings]
        if cls.toml_path is not None:
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=cls.toml_path))
        return tuple(sources)


def find_config(explicit: Path | None = None, *, cwd: Path | None = None) -> Path | None:
    """``--config PATH``, else ``./commitdigest.toml``, else ``$COMMITDIGEST_HOME/…``."""
    if explicit is not None:
        if not explicit.is_file():
            raise UsageError(f"config file {explicit} does not exist")
        return explicit
    for candidate in ((cwd or Path.cwd()) / CONFIG_FILE, default_home() / CONFIG_FILE):
        if candidate.is_file():
            return candidate
    return None


def load_settings(path: Path | None = None) -> Settings:
    """Load and validate the settings; a bad file is a one-line :class:`UsageError`."""
    if path is not None:
        try:
            tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read config file {path}: {exc}") from None
        except tomllib.TOMLDecodeError as exc:
            raise UsageError(f"config file {path} is not valid TOML: {exc}") from None
    loader = type("_LoadedSettings", (Settings,), {"toml_path": path})
    try:
        settings: Settings = loader()
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        source = f"config file {path}" if path else "settings"
        raise UsageError(f"{source}: {where}: {first['msg']}") from None
    llm = settings.llm
    if llm.api_key is None and os.environ.get("OPENAI_API_KEY"):
        llm.api_key = SecretStr(os.environ["OPENAI_API_KEY"])
    if llm.base_url is None and os.environ.get("OPENAI_BASE_URL"):
        llm.base_url = os.environ["OPENAI_BASE_URL"]
    return settings
