"""Where the GitHub token comes from, and keeping it out of sight.

Order: ``GITHUB_TOKEN``, then ``GH_TOKEN``, then ``gh auth token`` (when the GitHub CLI is
installed; a few seconds at most, any failure means no token), else none: unauthenticated
requests, 60 an hour, with a warning.

The token is a :class:`pydantic.SecretStr` from the moment it is read: its ``repr``/``str``
show asterisks, so it cannot end up in logs, error messages or the store by accident; only
:mod:`.github_api` reveals it, to build the ``Authorization`` header.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from pydantic import SecretStr

log = logging.getLogger(__name__)

DEFAULT_API_URL = "https://api.github.com"
GH_TIMEOUT_S = 5.0
TOKEN_VARS = ("GITHUB_TOKEN", "GH_TOKEN")


@dataclass(frozen=True, slots=True)
class TokenInfo:
    token: SecretStr | None
    source: str  # "GITHUB_TOKEN", "GH_TOKEN", "gh auth token" or "none"


def default_api_url(env: Mapping[str, str] | None = None) -> str:
    """``$GITHUB_API_URL`` (GitHub Actions sets it; GitHub Enterprise), else api.github.com."""
    env = os.environ if env is None else env
    return (env.get("GITHUB_API_URL") or DEFAULT_API_URL).rstrip("/")


def _gh_host(api_url: str) -> str | None:
    """The ``--hostname`` for ``gh`` when the API is not github.com's."""
    host = urlsplit(api_url).hostname or ""
    if host in ("api.github.com", "github.com", ""):
        return None
    return host.removeprefix("api.")


def _from_gh(api_url: str, timeout: float) -> SecretStr | None:
    gh = shutil.which("gh")
    if gh is None:
        return None
    argv = [gh, "auth", "token"]
    host = _gh_host(api_url)
    if host is not None:
        argv += ["--hostname", host]
    try:
        proc = subprocess.run(
            argv,
            capture_output=True,
            timeout=timeout,
            check=False,
            stdin=subprocess.DEVNULL,
            env={**os.environ, "GH_PROMPT_DISABLED": "1", "NO_COLOR": "1"},
        )
    except (OSError, subprocess.SubprocessError):
        log.debug("`gh auth token` failed to run; going on without it")
        return None
    token = proc.stdout.decode("utf-8", "replace").strip()
    if proc.returncode != 0 or not token or any(c.isspace() for c in token):
        log.debug("`gh auth token` gave no token (exit %d)", proc.returncode)
        return None
    return SecretStr(token)


def discover_token(
    api_url: str | None = None,
    *,
    env: Mapping[str, str] | None = None,
    use_gh: bool = True,
    gh_timeout: float = GH_TIMEOUT_S,
) -> TokenInfo:
    """The token to use, and where it came from. Never raises."""
    env = os.environ if env is None else env
    for var in TOKEN_VARS:
        value = (env.get(var) or "").strip()
        if value:
            return TokenInfo(SecretStr(value), var)
    if use_gh:
        token = _from_gh(api_url or default_api_url(env), gh_timeout)
        if token is not None:
            return TokenInfo(token, "gh auth token")
    log.warning(
        "no GitHub token (GITHUB_TOKEN, GH_TOKEN or `gh auth login`): unauthenticated "
        "requests are limited to 60 an hour"
    )
    return TokenInfo(None, "none")
