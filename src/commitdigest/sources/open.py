"""Turning what a user names (a path, ``owner/repo``, a URL) into a readable repository.

Every kind of source gives the pipeline the same small interface,
:class:`SourceRepository`: a name, a web URL, the branch read, and ``read_commits`` for a
window.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Protocol

from ..models import Commit
from .git import PatchLimits, read_commits
from .repo_info import RepositoryInfo, resolve_repository


class SourceRepository(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def web_url(self) -> str | None: ...

    @property
    def branch(self) -> str | None: ...

    @property
    def identity(self) -> str:
        """What makes two specs the same repository (a resolved path, a GitHub slug)."""
        ...

    async def read_commits(
        self, start: datetime, end: datetime, *, limits: PatchLimits
    ) -> list[Commit]: ...


@dataclass(frozen=True)
class RepoSpec:
    """One repository as named on the command line or in the config file."""

    name: str
    branch: str | None = None
    source: str | None = None  # "git" | "github"; None: a path is git, owner/repo is github
    focus_paths: tuple[str, ...] = ()
    focus_keywords: tuple[str, ...] = ()
    emphasis: str | None = None


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


async def open_local(spec: RepoSpec) -> LocalGitRepository:
    return LocalGitRepository(await resolve_repository(Path(spec.name).expanduser(), spec.branch))
