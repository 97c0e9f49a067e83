"""Settings: the TOML file, ``COMMITDIGEST_*`` environment variables and secrets from the
environment. Imports no pipeline stage (sources, analysis, store, render, deliver, site)."""

from commitdigest.config.settings import (
    SECRET_HINTS,
    GitHubSettings,
    LLMSettings,
    Settings,
    describe_error,
    find_config,
    load_settings,
    validate_file_data,
)
from commitdigest.config.subscriptions import Focus, Repository

__all__ = [
    "SECRET_HINTS",
    "Focus",
    "GitHubSettings",
    "LLMSettings",
    "Repository",
    "Settings",
    "describe_error",
    "find_config",
    "load_settings",
    "validate_file_data",
]
