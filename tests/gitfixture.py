"""Build git repositories for tests, git-cliff style: scripted commits with fixed dates.

Every commit is made with fixed author/committer identities and dates, so the same spec
always yields the same history (and the same SHAs).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

# None deletes the file; bytes are written raw (binary / non-UTF-8); str is UTF-8 text.
FileContent = str | bytes | None


@dataclass
class CommitSpec:
    title: str
    date: str  # ISO 8601 with offset, e.g. "2026-01-13T23:50:34+08:00" (committer date)
    author: str = "Test Author"
    email: str = "author@example.com"
    body: str = ""
    files: Mapping[str, FileContent] = field(default_factory=dict)
    renames: Mapping[str, str] = field(default_factory=dict)  # old -> new (git mv)
    author_date: str | None = None  # defaults to ``date``
    message_bytes: bytes | None = None  # raw message (e.g. latin-1), overrides title/body
    allow_empty: bool = False


def git(repo: Path, *args: str, env: Mapping[str, str] | None = None) -> str:
    full_env = {**_BASE_ENV, **(env or {})}
    out = subprocess.run(["git", *args], cwd=repo, env=full_env, check=True, capture_output=True)
    return out.stdout.decode("utf-8", "replace")


_BASE_ENV = {
    **os.environ,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "HOME": os.devnull,
    "LC_ALL": "C",
}


def init_repo(path: Path, *, origin: str | None = None, branch: str = "main") -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", branch)
    git(path, "config", "user.name", "Fixture")
    git(path, "config", "user.email", "fixture@example.com")
    git(path, "config", "commit.gpgsign", "false")
    if origin:
        git(path, "remote", "add", "origin", origin)
    return path


def commit(repo: Path, spec: CommitSpec) -> str:
    """Apply ``spec`` to the work tree, commit it and return the new SHA."""
    for old, new in spec.renames.items():
        (repo / new).parent.mkdir(parents=True, exist_ok=True)
        git(repo, "mv", old, new)
    for rel, content in spec.files.items():
        target = repo / rel
        if content is None:
            git(repo, "rm", "-q", "--", rel)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
        git(repo, "add", "--", rel)
    env = {
        "GIT_AUTHOR_NAME": spec.author,
        "GIT_AUTHOR_EMAIL": spec.email,
        "GIT_AUTHOR_DATE": spec.author_date or spec.date,
        "GIT_COMMITTER_NAME": spec.author,
        "GIT_COMMITTER_EMAIL": spec.email,
        "GIT_COMMITTER_DATE": spec.date,
    }
    args = ["commit", "-q", "--no-verify"]
    if spec.allow_empty:
        args.append("--allow-empty")
    if spec.message_bytes is not None:
        msg_file = repo / ".git" / "FIXTURE_MSG"
        msg_file.write_bytes(spec.message_bytes)
        git(repo, "-c", "i18n.commitEncoding=ISO-8859-1", *args, "-F", str(msg_file), env=env)
    else:
        message = spec.title + ("\n\n" + spec.body if spec.body else "")
        git(repo, *args, "-m", message, env=env)
    return git(repo, "rev-parse", "HEAD").strip()


def build_repo(path: Path, specs: Sequence[CommitSpec], *, origin: str | None = None) -> list[str]:
    """Create a repository at ``path`` with ``specs`` committed in order; return SHAs."""
    init_repo(path, origin=origin)
    return [commit(path, s) for s in specs]


def merge(repo: Path, branch: str, title: str, date: str) -> str:
    """Merge ``branch`` into the current branch with a merge commit dated ``date``."""
    env = {
        "GIT_AUTHOR_DATE": date,
        "GIT_COMMITTER_DATE": date,
        "GIT_AUTHOR_NAME": "Merger",
        "GIT_AUTHOR_EMAIL": "merger@example.com",
        "GIT_COMMITTER_NAME": "Merger",
        "GIT_COMMITTER_EMAIL": "merger@example.com",
    }
    git(repo, "merge", "-q", "--no-ff", "-m", title, branch, env=env)
    return git(repo, "rev-parse", "HEAD").strip()
