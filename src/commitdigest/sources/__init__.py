"""Where commits come from: a git repository, read as one streamed ``git log`` per window."""

from commitdigest.sources.git import DEFAULT_LIMITS, PatchLimits, iter_commits, read_commits
from commitdigest.sources.repo_info import (
    RepositoryInfo,
    resolve_repository,
    resolve_repository_sync,
)

__all__ = [
    "DEFAULT_LIMITS",
    "PatchLimits",
    "RepositoryInfo",
    "iter_commits",
    "read_commits",
    "resolve_repository",
    "resolve_repository_sync",
]
