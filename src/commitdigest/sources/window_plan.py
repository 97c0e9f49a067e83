"""What a window of a local repository holds before it is read: its commits' SHAs and
first parents (one quick ``git log``), and the revision it starts from.

Apart from the git source (:mod:`.git`, which imports the models and asyncio) so that a
radar worker process can list a window too: it reads the window's public surface before the
run has told it where the window starts (``pipeline.radar_scan.prestart``).
"""

from __future__ import annotations

import math
import subprocess
from collections.abc import Sequence
from datetime import datetime

from commitdigest.gitcmd import git_argv, git_env
from commitdigest.sources.repo_info import RepositoryInfo

__all__ = ["check_window", "window_base", "window_commits"]


def check_window(start: datetime, end: datetime) -> None:
    if start.tzinfo is None or end.tzinfo is None:
        raise ValueError("start and end must be timezone-aware datetimes")


def window_commits(
    repo: RepositoryInfo, start: datetime, end: datetime
) -> list[tuple[str, str | None]]:
    """``(sha, first parent)`` of the commits :func:`~.git.iter_commits` gives for the
    window, newest first, without their diffs (one quick ``git log``): what the window holds
    before it is read. A hint, for planning the work: the walk stops at the first commit older
    than the window (``--since``), so a commit behind a parent with a skewed clock may be
    missing (the read has it). Empty when git fails (reading the window then says why)."""
    check_window(start, end)
    if repo.head_sha is None or start >= end:
        return []
    argv = git_argv(
        "log",
        "--first-parent",
        "--format=%H %ct %P",
        f"--since=@{math.floor(start.timestamp())}",
        f"--until=@{math.ceil(end.timestamp())}",
        "--end-of-options",
        repo.head_sha,
        "--",
        repo=repo.root,
    )
    try:
        out = subprocess.run(argv, capture_output=True, env=git_env(), check=False)
    except OSError:
        return []
    if out.returncode != 0:
        return []
    low, high = start.timestamp(), end.timestamp()
    found: list[tuple[str, str | None]] = []
    for line in out.stdout.decode("ascii", "replace").splitlines():
        parts = line.split()  # sha, committer time, parents
        if len(parts) >= 2 and parts[1].isdigit() and low <= int(parts[1]) < high:
            found.append((parts[0], parts[2] if len(parts) > 2 else None))
    return found


def window_base(listed: Sequence[tuple[str, str | None]]) -> str:
    """The revision a window of ``(sha, first parent)`` starts from: the parent of its
    oldest commit (the last one listed), or that commit when it is the root."""
    oldest, parent = listed[-1]
    return parent or oldest
