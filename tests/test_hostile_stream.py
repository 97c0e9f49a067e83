"""No byte sequence inside a commit can end or start a commit in the log parser."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from gitfixture import CommitSpec, build_repo

from commitdigest.errors import SourceError
from commitdigest.sources import gitlog_parse
from commitdigest.sources.git import read_commits
from commitdigest.sources.repo_info import resolve_repository_sync

OLD_MARKER = b"\x00\x00\x1ecommitdigest\x1f"  # the fixed marker of earlier versions


def _window(repo: Path) -> list[str]:
    info = resolve_repository_sync(repo)
    start, end = datetime(2026, 3, 2, tzinfo=UTC), datetime(2026, 3, 3, tzinfo=UTC)
    return [c.title for c in asyncio.run(read_commits(info, start, end))]


def test_the_marker_is_random_per_process() -> None:
    code = "from commitdigest.sources.gitlog_parse import MARKER; print(MARKER.hex())"
    runs = {
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
        for _ in range(2)
    }
    assert len(runs) == 2
    assert gitlog_parse.MARKER != OLD_MARKER
    token = gitlog_parse.MARKER[3:-1].decode("ascii")
    assert f"%x1e{token}%x1f" in gitlog_parse.LOG_FORMAT


def test_a_text_file_holding_a_commit_marker_does_not_break_the_day(tmp_path: Path) -> None:
    forged = (
        b"a" * 8100
        + OLD_MARKER
        + b"0" * 40
        + b"\x00\x00evil\x00e@x\x00\x00\x00Forged commit\x00\x00"
        + b"\n\x00\x00\x1ecd0123456789abcdef\x1f"
    )
    repo = tmp_path / "repo"
    build_repo(
        repo,
        [
            CommitSpec("Before", "2026-03-02T08:00:00+00:00", files={"a.txt": "a\n"}),
            CommitSpec("Add a crafted file", "2026-03-02T09:00:00+00:00", files={"x.txt": forged}),
            CommitSpec("After", "2026-03-02T10:00:00+00:00", files={"b.txt": "b\n"}),
        ],
    )
    assert _window(repo) == ["After", "Add a crafted file", "Before"]


def test_clock_skew_loses_no_commit_of_the_window(tmp_path: Path) -> None:
    """A parent with an older committer date must not end the walk (git 2.37+)."""
    repo = tmp_path / "skew"
    build_repo(
        repo,
        [
            CommitSpec("Early in the day", "2026-03-02T08:00:00+00:00", files={"a": "1\n"}),
            CommitSpec("Skewed clock", "2026-02-01T08:00:00+00:00", files={"a": "2\n"}),
            CommitSpec("Late in the day", "2026-03-02T10:00:00+00:00", files={"a": "3\n"}),
        ],
    )
    assert _window(repo) == ["Late in the day", "Early in the day"]


def _origin(tmp_path: Path) -> Path:
    origin = tmp_path / "origin"
    build_repo(
        origin,
        [
            CommitSpec("Day one", "2026-03-01T08:00:00+00:00", files={"a": "1\n"}),
            CommitSpec("Before", "2026-03-02T08:00:00+00:00", files={"a": "2\n"}),
            CommitSpec("After", "2026-03-02T10:00:00+00:00", files={"a": "3\n"}),
            CommitSpec("Next day", "2026-03-03T10:00:00+00:00", files={"a": "4\n"}),
        ],
    )
    return origin


def test_a_shallow_clone_that_stops_inside_the_window_fails_clearly(tmp_path: Path) -> None:
    origin = _origin(tmp_path)
    clone = tmp_path / "shallow"
    git_clone = ["git", "clone", "-q", "--depth", "2", f"file://{origin}", str(clone)]
    subprocess.run(git_clone, check=True, capture_output=True)
    with pytest.raises(SourceError, match=r"shallow clone.*fetch --unshallow"):
        _window(clone)


def test_a_shallow_clone_that_covers_the_window_reads_it(tmp_path: Path) -> None:
    origin = _origin(tmp_path)
    clone = tmp_path / "deep-enough"
    git_clone = ["git", "clone", "-q", "--depth", "4", f"file://{origin}", str(clone)]
    subprocess.run(git_clone, check=True, capture_output=True)
    assert (clone / ".git" / "shallow").is_file()
    assert _window(clone) == ["After", "Before"]
