"""Where commits come from: a git repository, read as one streamed ``git log`` per window.

Names load on first use (module ``__getattr__``): a radar worker that only reads blobs
(``sources.blobs``) does not import the git source and asyncio with them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from commitdigest.lazy import lazy_getattr

if TYPE_CHECKING:
    from commitdigest.sources.git import DEFAULT_LIMITS, PatchLimits, iter_commits, read_commits
    from commitdigest.sources.repo_info import (
        RepositoryInfo,
        resolve_repository,
        resolve_repository_sync,
    )

_WHERE = {
    "DEFAULT_LIMITS": ".git",
    "PatchLimits": ".git",
    "iter_commits": ".git",
    "read_commits": ".git",
    "RepositoryInfo": ".repo_info",
    "resolve_repository": ".repo_info",
    "resolve_repository_sync": ".repo_info",
}

__all__ = [
    "DEFAULT_LIMITS",
    "PatchLimits",
    "RepositoryInfo",
    "iter_commits",
    "read_commits",
    "resolve_repository",
    "resolve_repository_sync",
]


__getattr__ = lazy_getattr(__name__, _WHERE)
