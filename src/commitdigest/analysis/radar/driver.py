"""The radar's driver: reads the touched files' blobs before/after each commit of a window
(one ``git cat-file --batch`` for the window) and runs every kind over them."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from commitdigest.analysis.radar import (
    announced,
    cli_option,
    config_key,
    dependency,
    deprecation,
    env_var,
    python_api,
)
from commitdigest.analysis.radar.blobs import BlobReader
from commitdigest.analysis.radar.models import ApiChange, CommitView
from commitdigest.gitcmd import git_argv, git_env

if TYPE_CHECKING:
    from commitdigest.models import Commit

RADAR_VERSION = 9  # 9: a deleted module's imports are not its API (unless in __all__)

# the kinds that need only one commit's view (env_var also needs the repository-wide index)
KINDS: tuple[Callable[[CommitView], list[ApiChange]], ...] = (
    python_api.detect,
    cli_option.detect,
    config_key.detect,
    dependency.detect,
    deprecation.detect,
    announced.detect,
)


@dataclass(frozen=True)
class CommitInput:
    """What the source already knows of a commit: enough for the radar."""

    sha: str
    parent: str | None
    title: str
    body: str
    paths: tuple[str, ...]  # changed paths (a rename lists its old and new path)

    @classmethod
    def from_commit(cls, commit: Commit) -> CommitInput:
        paths: list[str] = []
        for f in commit.files:
            if f.old_path:
                paths.append(f.old_path)
            paths.append(f.path)
        return cls(
            commit.sha,
            commit.parents[0] if commit.parents else None,
            commit.title,
            commit.body,
            tuple(dict.fromkeys(paths)),
        )


def cache_key(sha: str) -> str:
    """The radar cache key of one commit: its SHA and the radar version."""
    return f"radar:v{RADAR_VERSION}:{sha}"


def _env_files(repo: Path, rev: str) -> list[str]:
    """Non-test Python files that mention the environment at ``rev`` (``git grep``, one call)."""
    out = subprocess.run(
        git_argv("grep", "-l", "-E", env_var.GREP_PATTERN, rev, "--", "*.py"),
        cwd=repo,
        env=git_env(),
        capture_output=True,
        encoding="utf-8",
        errors="replace",
        check=False,
    )
    prefix = rev + ":"
    return [
        p.removeprefix(prefix)
        for p in out.stdout.splitlines()
        if env_var.relevant(p.removeprefix(prefix))
    ]


def scan_window(repo: Path, commits: Sequence[CommitInput]) -> dict[str, list[ApiChange]]:
    """Radar items per commit SHA; ``commits`` oldest first."""
    results: dict[str, list[ApiChange]] = {}
    if not commits:
        return results
    with BlobReader(repo) as reader:
        env: env_var.EnvIndex | None = None
        for c in commits:
            extra = python_api.init_paths(c.paths)
            wanted = tuple(dict.fromkeys((*c.paths, *extra)))
            after = reader.read_many(f"{c.sha}:{p}" for p in wanted)
            before = reader.read_many(f"{c.parent}:{p}" for p in c.paths) if c.parent else {}
            view = CommitView(
                sha=c.sha,
                title=c.title,
                body=c.body,
                paths=c.paths,
                before={p: before.get(f"{c.parent}:{p}") for p in c.paths},
                after={p: after[f"{c.sha}:{p}"] for p in wanted},
            )
            if env is None:
                base = c.parent
                files = _env_files(repo, base) if base else []
                blobs = reader.read_many(f"{base}:{p}" for p in files)
                env = env_var.EnvIndex({p: blobs[f"{base}:{p}"] for p in files})
            items: list[ApiChange] = []
            for kind in KINDS:
                items.extend(kind(view))
            items.extend(env.apply(view))
            results[c.sha] = _dedupe(items)
    return results


def _dedupe(items: list[ApiChange]) -> list[ApiChange]:
    seen: set[tuple[str, str, str]] = set()
    out: list[ApiChange] = []
    for item in items:
        key = (item.kind.value, item.name, item.path)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


def scan_log(repo: Path, rev_range: str) -> dict[str, list[ApiChange]]:
    """Convenience for tests and the bench: scan ``git log rev_range`` (oldest first)."""
    fmt = "%x1e%H%x1f%P%x1f%s%x1f%b%x1f"
    out = subprocess.run(
        git_argv("log", "--reverse", "--name-only", f"--format={fmt}", rev_range),
        cwd=repo,
        env=git_env(),
        capture_output=True,
        encoding="utf-8",
        errors="replace",
        check=True,
    ).stdout
    commits: list[CommitInput] = []
    for rec in out.split("\x1e")[1:]:
        sha, parents, title, body, names = rec.split("\x1f")
        paths = tuple(p for p in names.splitlines() if p)
        commits.append(
            CommitInput(sha, parents.split()[0] if parents else None, title, body.strip(), paths)
        )
    return scan_window(repo, commits)
