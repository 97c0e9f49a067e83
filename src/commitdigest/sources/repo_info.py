"""Who a repository is: its root, ``owner/name``, web URL, the branch read and its tip.

:func:`resolve_repository` is a coroutine (the pipeline awaits it); it runs
:func:`resolve_repository_sync` - a handful of short ``git`` calls, a few milliseconds - in a
worker thread. Sync callers (scripts, tests) call :func:`resolve_repository_sync` directly.
"""

from __future__ import annotations

import asyncio
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from commitdigest.errors import SourceError
from commitdigest.gitcmd import first_line, git_argv, git_env
from commitdigest.sources.remote import commit_template, parse_remote, web_address

_GITHUB_RE = re.compile(
    r"""^(?:
        (?:https?|git)://(?:[^@/]+@)?(?:www\.)?github\.com(?::\d+)?/
      | ssh://(?:[^@/]+@)?(?:ssh\.)?github\.com(?::\d+)?/
      | (?:[^@/:]+@)?github\.com:
    )
    (?P<owner>[A-Za-z0-9_.-]+)/(?P<name>[A-Za-z0-9_.-]+?)(?:\.git)?/?$""",
    re.VERBOSE | re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class RepositoryInfo:
    root: Path  # top level of the work tree; the git dir for a bare repository
    name: str  # "owner/name" for a GitHub origin, else the folder name
    web_url: str | None  # "https://github.com/owner/name" for a GitHub origin, else None
    branch: str  # the ref read: the given branch, HEAD's branch, or "HEAD" when detached
    head_sha: str | None  # the commit that ref points to; None in a repository with no commits
    origin_url: str | None = None  # the ``origin`` remote's URL as git reports it
    # the commit link with "{sha}" to fill (GitLab: <web>/-/commit/{sha}); None: <web>/commit/
    commit_template: str | None = None

    def commit_url(self, sha: str) -> str | None:
        if self.commit_template:
            return self.commit_template.replace("{sha}", sha)
        return f"{self.web_url}/commit/{sha}" if self.web_url else None


def github_slug(url: str) -> tuple[str, str] | None:
    """``(owner, name)`` for a GitHub remote URL (https, ssh, scp-like), else None."""
    m = _GITHUB_RE.match(url.strip())
    return (m.group("owner"), m.group("name")) if m else None


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(
            git_argv(*args), cwd=cwd, env=git_env(), capture_output=True, check=False
        )
    except FileNotFoundError:
        raise SourceError("git is not installed (no `git` on PATH)") from None
    except OSError as exc:  # e.g. permission denied on the folder
        raise SourceError(f"cannot run git in {cwd}: {exc.strerror or exc}") from None


def _out(proc: subprocess.CompletedProcess[bytes]) -> str:
    return proc.stdout.decode("utf-8", "replace").strip()


def _locate(path: Path) -> Path:
    """The repository's root, or a SourceError."""
    probe = _git(path, "rev-parse", "--is-bare-repository", "--is-inside-work-tree")
    if probe.returncode != 0:
        message = first_line(probe.stderr)
        if "not a git repository" in message:
            raise SourceError(f"not a git repository: {path}")
        raise SourceError(f"cannot read repository {path}: {message}")
    is_bare, inside_work_tree = [*_out(probe).splitlines(), "", ""][:2]
    if inside_work_tree == "true":
        top = _git(path, "rev-parse", "--show-toplevel")
        if top.returncode == 0 and _out(top):
            return Path(_out(top))
    git_dir = _git(path, "rev-parse", "--absolute-git-dir")
    if git_dir.returncode != 0:
        raise SourceError(f"cannot read repository {path}: {first_line(git_dir.stderr)}")
    root = Path(_out(git_dir))
    if is_bare != "true" and root.name == ".git":  # inside the .git folder of a work tree
        return root.parent
    return root


def _resolve_ref(root: Path, branch: str | None) -> tuple[str, str | None]:
    """(branch name read, its commit SHA or None for an unborn branch)."""
    if branch is not None:
        sha = _git(
            root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{branch}^{{commit}}"
        )
        if sha.returncode == 0:
            return branch, _out(sha)
        current = _git(root, "symbolic-ref", "--quiet", "--short", "HEAD")
        head = _git(root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
        if head.returncode != 0 and current.returncode == 0 and _out(current) == branch:
            return branch, None  # the unborn branch of a repository with no commits
        raise SourceError(f"unknown branch {branch!r} in {root}")
    current = _git(root, "symbolic-ref", "--quiet", "--short", "HEAD")
    name = _out(current) if current.returncode == 0 else "HEAD"  # detached HEAD
    head = _git(root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
    return name, (_out(head) if head.returncode == 0 else None)


def resolve_repository_sync(path: Path, branch: str | None = None) -> RepositoryInfo:
    """Describe the repository at ``path`` (any folder inside it), reading ``branch``.

    Raises :class:`SourceError` (one line) when the path does not exist, is not a git
    repository, the branch is unknown, or git is not installed. A repository without
    commits is fine: ``head_sha`` is None and reading it yields no commits.
    """
    path = Path(path).expanduser()
    if not path.exists():
        raise SourceError(f"repository path does not exist: {path}")
    if not path.is_dir():
        raise SourceError(f"not a git repository (not a folder): {path}")
    root = _locate(path.resolve())
    origin = _git(root, "remote", "get-url", "origin")
    origin_url = _out(origin) if origin.returncode == 0 and _out(origin) else None
    slug = github_slug(origin_url) if origin_url else None
    template: str | None = None
    if slug is not None:
        name = f"{slug[0]}/{slug[1]}"
        web_url: str | None = f"https://github.com/{name}"
    else:
        name = root.name.removesuffix(".git") or root.name
        remote = parse_remote(origin_url) if origin_url else None
        web_url = web_address(remote) if remote is not None else None  # GitLab, Gitea …
        template = commit_template(remote) if remote is not None else None
    ref, sha = _resolve_ref(root, branch)
    return RepositoryInfo(
        root=root,
        name=name,
        web_url=web_url,
        branch=ref,
        head_sha=sha,
        origin_url=origin_url,
        commit_template=template,
    )


async def resolve_repository(path: Path, branch: str | None = None) -> RepositoryInfo:
    """:func:`resolve_repository_sync` in a worker thread (same result, same errors)."""
    return await asyncio.to_thread(resolve_repository_sync, path, branch)
