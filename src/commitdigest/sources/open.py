"""Turning what a user names (a path, ``owner/repo``, a URL) into a readable repository.

A repository is named by a :class:`~commitdigest.models.Subscription` (its name, branch
and source). Every kind of source gives the pipeline the same small interface,
:class:`SourceRepository`: a name, a web URL, the branch read, and ``read_commits`` for a
window.
"""

from __future__ import annotations

import subprocess
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from ..config import SECRET_HINTS, GitHubSettings
from ..errors import SourceError
from ..gitcmd import git_argv, git_env
from ..models import Commit, Subscription
from .git import PatchLimits, iter_commits, read_commits
from .mirror import ensure_mirror, ensure_remote_mirror
from .remote import Remote, commit_template, parse_remote, web_address
from .repo_info import RepositoryInfo, resolve_repository, resolve_repository_sync
from .window_plan import window_commits

if TYPE_CHECKING:  # the GitHub client (httpx2) is imported when a GitHub repository is opened
    import httpx2

    from .github_api import GitHubAPI, GitHubLimits
    from .github_cache import CacheProvider


class SourceRepository(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def web_url(self) -> str | None: ...

    @property
    def branch(self) -> str | None: ...

    @property
    def identity(self) -> str:
        """What makes two subscriptions the same repository (a resolved path, a GitHub slug)."""
        ...

    async def read_commits(
        self, start: datetime, end: datetime, *, limits: PatchLimits
    ) -> list[Commit]: ...


@dataclass(frozen=True)
class LocalGitRepository:
    """A git repository on this machine (a work tree, a bare repository or our mirror)."""

    info: RepositoryInfo
    display_name: str | None = None  # e.g. owner/repo for a mirror cloned from elsewhere

    @property
    def name(self) -> str:
        return self.display_name or self.info.name

    @property
    def web_url(self) -> str | None:
        return self.info.web_url

    @property
    def branch(self) -> str | None:
        return self.info.branch

    @property
    def identity(self) -> str:
        return str(self.info.root)

    async def read_commits(
        self, start: datetime, end: datetime, *, limits: PatchLimits
    ) -> list[Commit]:
        return await read_commits(self.info, start, end, limits=limits)

    def stream_commits(
        self, start: datetime, end: datetime, *, limits: PatchLimits
    ) -> AsyncIterator[Commit]:
        """The window's commits as git writes them (newest first): work on the first ones
        can start while the last are still being read."""
        return iter_commits(self.info, start, end, limits=limits)

    def window_commits(self, start: datetime, end: datetime) -> list[tuple[str, str | None]]:
        """``(sha, first parent)`` of the window's commits, newest first, before reading
        them (see :func:`~.window_plan.window_commits`)."""
        return window_commits(self.info, start, end)


async def open_local(subscription: Subscription) -> LocalGitRepository:
    path = Path(subscription.name).expanduser()
    return LocalGitRepository(await resolve_repository(path, subscription.branch))


class RepositoryOpener:
    """Opens what a user names: a local path (git), ``owner/repo`` or a GitHub URL (the REST
    API, or our own mirror clone with ``source = "git"``). One GitHub client serves every
    repository of a run (one connection pool, one concurrency limit, one rate-limit wait);
    :meth:`aclose` closes it.
    """

    def __init__(
        self,
        *,
        store: CacheProvider | None,
        home: Path,
        github: GitHubSettings | None = None,
        transport: httpx2.AsyncBaseTransport | None = None,
        clone_url: Callable[[str, str], str] | None = None,
    ) -> None:
        self._store = store
        self._home = home
        self._github = github or GitHubSettings()
        self._transport = transport
        self._clone_url = clone_url
        self._api: GitHubAPI | None = None

    async def __call__(self, subscription: Subscription) -> SourceRepository:
        path = Path(subscription.name).expanduser()
        if subscription.source != "github" and path.exists():
            return await open_local(subscription)
        from .github_source import open_github_repository, parse_github_spec

        slug = parse_github_spec(subscription.name)
        remote = parse_remote(subscription.name)
        if subscription.source != "github" and slug is None and remote is not None:
            return await self._mirror(remote, subscription)  # any other host, or file://
        if subscription.source != "github" and slug is None:
            # a missing path gets the git source's clear error
            return await open_local(subscription)
        if slug is None:
            raise SourceError(f"{subscription.name}: not owner/repo or a GitHub URL")
        owner, repo = slug
        if subscription.source == "git":
            url = self._clone_url(owner, repo) if self._clone_url else None
            mirror = await ensure_mirror(self._home, owner, repo, url=url)
            info = await resolve_repository(mirror, subscription.branch)
            return LocalGitRepository(info, display_name=f"{owner}/{repo}")
        return await open_github_repository(
            owner, repo, branch=subscription.branch, store=self._store, api=await self._shared_api()
        )

    async def _mirror(self, remote: Remote, subscription: Subscription) -> LocalGitRepository:
        """Our mirror of a repository on any host, named and linked as that host does."""
        mirror = await ensure_remote_mirror(self._home, remote)
        info = await resolve_repository(mirror, subscription.branch)
        info = replace(
            info,
            web_url=web_address(remote),
            commit_template=commit_template(remote, subscription.commit_url),
        )
        return LocalGitRepository(info, display_name=remote.display)

    async def _shared_api(self) -> GitHubAPI:
        if self._api is None:
            from .github_source import make_github_api

            settings = self._github
            self._api = await make_github_api(
                store=self._store,
                token=settings.token or "auto",
                token_source=SECRET_HINTS["github.token"],  # named in a 401's message
                api_url=settings.api_url,
                limits=github_limits(settings),
                transport=self._transport,
            )
        return self._api

    async def aclose(self) -> None:
        if self._api is not None:
            await self._api.aclose()
            self._api = None


def github_limits(settings: GitHubSettings) -> GitHubLimits:
    """The GitHub client's limits the config sets (``github.max_concurrency``,
    ``github.rate_limit_max_wait_s``); the others keep their defaults."""
    from .github_api import GitHubLimits

    return GitHubLimits(
        concurrency=settings.max_concurrency, max_wait=settings.rate_limit_max_wait_s
    )


def is_local(subscription: Subscription) -> bool:
    """Whether ``subscription`` names a repository on this machine (read with git, not the API)."""
    return subscription.source != "github" and Path(subscription.name).expanduser().exists()


def is_remote(subscription: Subscription) -> bool:
    """Whether ``subscription`` names a repository elsewhere, as the opener reads it: not a
    path on this machine, and ``owner/repo``, a URL or ``host:path`` (a missing path of two
    parts, ``src/project``, reads as ``owner/repo`` there too); a missing path that reads
    as neither is no remote repository (the git source says it does not exist)."""
    if is_local(subscription):
        return False
    from .github_source import parse_github_spec

    return (
        subscription.source == "github"
        or parse_github_spec(subscription.name) is not None
        or parse_remote(subscription.name) is not None
    )


def recent_commit_times(subscription: Subscription, count: int) -> list[datetime]:
    """Committer times (UTC) of the last ``count`` commits of a local repository's branch
    along first parents (the commits a report lists), newest first; empty for a repository
    with no commits."""
    info = resolve_repository_sync(Path(subscription.name).expanduser(), subscription.branch)
    if info.head_sha is None:
        return []
    argv = git_argv("log", "--first-parent", f"-n{count}", "--format=%ct", repo=info.root)
    proc = subprocess.run(
        [*argv, "--end-of-options", info.head_sha, "--"],
        env=git_env(),
        capture_output=True,
        check=False,
    )
    if proc.returncode != 0:
        raise SourceError(f"{subscription.name}: cannot list its commits")
    lines = proc.stdout.decode("ascii", "replace").split()
    return [datetime.fromtimestamp(int(t), tz=UTC) for t in lines if t.isdigit()]
