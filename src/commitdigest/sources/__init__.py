"""Where commits come from: a git repository, read as one streamed ``git log`` per window.

Names load on first use (module ``__getattr__``): a radar worker that only reads blobs
(``sources.blobs``) does not import the git source and asyncio with them.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from commitdigest.sources.git import DEFAULT_LIMITS, PatchLimits, iter_commits, read_commits
    from commitdigest.sources.repo_info import (
        RepositoryInfo,
        resolve_repository,
        resolve_repository_sync,
    )

_WHERE = {
    "DEFAULT_LIMITS": "commitdigest.sources.git",
    "PatchLimits": "commitdigest.sources.git",
    "iter_commits": "commitdigest.sources.git",
    "read_commits": "commitdigest.sources.git",
    "RepositoryInfo": "commitdigest.sources.repo_info",
    "resolve_repository": "commitdigest.sources.repo_info",
    "resolve_repository_sync": "commitdigest.sources.repo_info",
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


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(where), name)
    globals()[name] = value
    return value
