"""The git mirror mode against a local "remote" (file://), never the network."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest
from gitfixture import CommitSpec, build_repo, commit, git

from commitdigest.errors import SourceError
from commitdigest.sources.git import read_commits
from commitdigest.sources.mirror import ensure_mirror, mirror_path
from commitdigest.sources.repo_info import resolve_repository_sync


def remote_repo(tmp_path: Path) -> Path:
    remote = tmp_path / "remote"
    build_repo(
        remote,
        [
            CommitSpec("feat: one", "2026-05-01T10:00:00+00:00", files={"a.py": "a = 1\n"}),
            CommitSpec("fix: two", "2026-05-01T11:00:00+00:00", files={"a.py": "a = 2\n"}),
        ],
    )
    git(remote, "config", "uploadpack.allowFilter", "true")
    git(remote, "config", "uploadpack.allowAnySHA1InWant", "true")
    return remote


def test_first_use_clones_then_fetch_brings_new_commits(tmp_path: Path) -> None:
    remote = remote_repo(tmp_path)
    home = tmp_path / "home"
    url = f"file://{remote}"
    path = asyncio.run(ensure_mirror(home, "acme", "widget", url=url))
    assert path == mirror_path(home, "acme", "widget") and (path / "HEAD").exists()
    assert git(path, "config", "remote.origin.promisor").strip() == "true"  # blob-less

    commit(
        remote, CommitSpec("docs: three", "2026-05-01T12:00:00+00:00", files={"README.md": "hi\n"})
    )
    asyncio.run(ensure_mirror(home, "acme", "widget", url=url))
    info = resolve_repository_sync(path, "main")
    start = datetime(2026, 5, 1, tzinfo=UTC)
    commits = asyncio.run(read_commits(info, start, datetime(2026, 5, 2, tzinfo=UTC)))
    assert [c.title for c in commits] == ["docs: three", "fix: two", "feat: one"]
    # patches were read through the partial clone (blobs fetched on demand)
    assert "+a = 2" in commits[1].files[0].patch


def test_a_killed_clone_is_started_again(tmp_path: Path) -> None:
    remote = remote_repo(tmp_path)
    home = tmp_path / "home"
    leftover = mirror_path(home, "acme", "widget").with_name("acme__widget.git.partial")
    leftover.mkdir(parents=True)
    (leftover / "junk").write_text("half a clone")
    path = asyncio.run(ensure_mirror(home, "acme", "widget", url=f"file://{remote}"))
    assert (path / "HEAD").exists() and not leftover.exists()


def test_unreachable_remote_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="git clone failed"):
        asyncio.run(ensure_mirror(tmp_path, "acme", "gone", url=f"file://{tmp_path}/nope"))
