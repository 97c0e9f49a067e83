"""Read the commits of a time window: one streamed ``git log`` process per window.

Choices (kept identical for the benchmark's raw-git run through :func:`git_log_argv`):

* history along first parents (``--first-parent``); a merge's files are its diff against
  the first parent (``--diff-merges=first-parent``), so a merged branch counts once;
* ``--raw --numstat -p -z`` in one stream: status, full line counts and patches of every
  file; renames detected (``-M``), copies not;
* author name and email go through ``.mailmap`` (``%aN``/``%aE``, ``--use-mailmap``);
* reproducible output whatever the environment and the user's or the repository's config
  (:mod:`commitdigest.gitcmd`: no inherited ``GIT_DIR`` …, ``-c`` overrides), and
  ``--no-color``, ``--no-ext-diff``, ``--no-textconv``, no signatures, the root commit's
  diff shown, messages re-encoded to UTF-8 (``--encoding=UTF-8``) and decoded with
  ``errors="replace"``;
* the window is exact: every first-parent commit whose *committer* date lies in
  ``[start, end)`` is reported, whatever the dates of its neighbours. git 2.37+ filters with
  ``--since-as-filter`` (it does not stop the walk at the first older commit, as ``--since``
  does, which would lose a commit behind a parent with a skewed clock); older git falls back
  to ``--since`` with that caveat. ``--until`` and the exact filter here do the rest.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import math
import os
import re
import subprocess
import sys
from collections.abc import AsyncGenerator
from datetime import datetime
from pathlib import Path

if sys.platform != "win32":
    import fcntl

from commitdigest.errors import SourceError
from commitdigest.gitcmd import first_line, git_argv, git_env
from commitdigest.models import Commit
from commitdigest.sources.gitlog_parse import (
    LOG_FORMAT,
    GitLogFormatError,
    GitLogParser,
    PatchLimits,
)
from commitdigest.sources.repo_info import RepositoryInfo

__all__ = ["DEFAULT_LIMITS", "PatchLimits", "git_log_argv", "iter_commits", "read_commits"]

CHUNK_SIZE = 1 << 20
DEFAULT_LIMITS = PatchLimits()  # 16 KiB per file, 128 KiB per commit
_STDERR_KEEP = 64 * 1024

LOG_FLAGS = (
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--no-show-signature",
    "--use-mailmap",
    "--encoding=UTF-8",
    "--first-parent",
    "--diff-merges=first-parent",
    "-M",
    "--raw",
    "--no-abbrev",
    "--numstat",
    "-p",
    "-z",
    "--submodule=short",
    LOG_FORMAT,
)


def _check_window(start: datetime, end: datetime) -> None:
    if start.tzinfo is None or end.tzinfo is None:
        raise ValueError("start and end must be timezone-aware datetimes")


SINCE_AS_FILTER = (2, 37)  # the git that filters by date without stopping the walk


@functools.cache
def git_version() -> tuple[int, int]:
    """The installed git's (major, minor); (0, 0) when it cannot be told."""
    try:
        out = subprocess.run(
            ["git", "version"], capture_output=True, text=True, check=False, env=git_env()
        )
    except OSError:
        return (0, 0)
    m = re.search(r"(\d+)\.(\d+)", out.stdout)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def since_flag(since: int) -> str:
    """``--since-as-filter`` where git has it (2.37+): every commit of the window is found
    whatever the dates of its neighbours. Plain ``--since`` stops walking at the first
    commit older than the bound, so a commit behind a parent with a skewed (older) committer
    date would be missed."""
    flag = "--since-as-filter" if git_version() >= SINCE_AS_FILTER else "--since"
    return f"{flag}=@{since}"


def git_log_argv(repo: RepositoryInfo, start: datetime, end: datetime) -> list[str]:
    """The full ``git log`` command line used for ``[start, end)`` (git walks a bit wider;
    the parser keeps exactly the commits whose committer date lies in the window)."""
    _check_window(start, end)
    rev = repo.head_sha or repo.branch
    since = math.floor(start.timestamp())
    until = math.ceil(end.timestamp())
    return git_argv(
        "log",
        *LOG_FLAGS,
        since_flag(since),
        f"--until=@{until}",
        "--end-of-options",
        rev,
        "--",
        repo=repo.root,
    )


async def _spawn(
    argv: list[str], root: Path
) -> tuple[asyncio.subprocess.Process, asyncio.StreamReader, asyncio.BaseTransport | None]:
    """Start git with stdout on a pipe we read as a stream.

    On POSIX the pipe is ours, grown to CHUNK_SIZE (Linux ``F_SETPIPE_SZ``, best effort) so
    that git can run a chunk ahead while we parse; elsewhere asyncio's own pipe is used.
    """
    loop = asyncio.get_running_loop()
    if sys.platform == "win32":  # pragma: no cover - asyncio's pipe, 64 KiB
        proc = await _exec(argv, root, asyncio.subprocess.PIPE)
        assert proc.stdout is not None
        return proc, proc.stdout, None
    read_fd, write_fd = os.pipe()
    with contextlib.suppress(OSError, AttributeError):
        fcntl.fcntl(write_fd, fcntl.F_SETPIPE_SZ, CHUNK_SIZE)
    try:
        proc = await _exec(argv, root, write_fd)
    except BaseException:
        os.close(read_fd)
        raise
    finally:
        os.close(write_fd)
    reader = asyncio.StreamReader(limit=CHUNK_SIZE, loop=loop)
    transport, _ = await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader, loop=loop), os.fdopen(read_fd, "rb", 0)
    )
    return proc, reader, transport


async def _exec(argv: list[str], root: Path, stdout: int) -> asyncio.subprocess.Process:
    try:
        return await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=stdout,
            stderr=asyncio.subprocess.PIPE,
            env=git_env(),
            limit=CHUNK_SIZE,
        )
    except FileNotFoundError:
        raise SourceError("git is not installed (no `git` on PATH)") from None
    except OSError as exc:
        raise SourceError(f"cannot run git in {root}: {exc.strerror or exc}") from None


async def _read_chunk(stream: asyncio.StreamReader) -> bytes:
    """Up to CHUNK_SIZE bytes, waiting for a full chunk unless the stream ends first: git
    writes in small pieces, and waking up (and parsing) for each of them costs more CPU than
    the parse itself."""
    try:
        return await stream.readexactly(CHUNK_SIZE)
    except asyncio.IncompleteReadError as exc:
        return exc.partial


async def _drain(stream: asyncio.StreamReader, keep: bytearray) -> None:
    while chunk := await stream.read(CHUNK_SIZE):
        if len(keep) < _STDERR_KEEP:
            keep.extend(chunk[: _STDERR_KEEP - len(keep)])


def _git_out(repo: RepositoryInfo, *args: str) -> str:
    """git's stdout, or ``""`` when it fails (git log then says why, in its own words)."""
    try:
        out = subprocess.run(
            git_argv(*args, repo=repo.root), capture_output=True, env=git_env(), check=False,
        )  # fmt: skip
    except OSError:
        return ""
    return out.stdout.decode("utf-8", "replace").strip() if out.returncode == 0 else ""


def check_not_shallow_before(repo: RepositoryInfo, start: datetime) -> None:
    """A shallow clone whose history stops inside or after the window cannot give the
    window's commits: say so and name the fix, never report a silently short day."""
    if _git_out(repo, "rev-parse", "--is-shallow-repository") != "true":
        return
    shallow = Path(_git_out(repo, "rev-parse", "--path-format=absolute", "--git-path", "shallow"))
    try:
        boundary = shallow.read_text(encoding="ascii").split()
    except (OSError, UnicodeDecodeError):
        boundary = []
    dates = _git_out(repo, "show", "-s", "--format=%ct", *boundary).split() if boundary else []
    newest = max((int(d) for d in dates if d.isdigit()), default=None)
    if newest is None or newest >= start.timestamp():
        raise SourceError(
            f"{repo.root} is a shallow clone whose history stops inside or after the window; "
            f"run: git -C {repo.root} fetch --unshallow (or --shallow-since=<date before the "
            "window>)"
        )


async def iter_commits(
    repo: RepositoryInfo,
    start: datetime,
    end: datetime,
    *,
    limits: PatchLimits = DEFAULT_LIMITS,
) -> AsyncGenerator[Commit, None]:
    """Yield the commits with ``start <= committed_at < end``, newest first, as git streams
    them. Memory stays bounded: the patch budget per commit plus a few read chunks."""
    _check_window(start, end)
    if repo.head_sha is None or start >= end:
        return
    await asyncio.to_thread(check_not_shallow_before, repo, start)
    async for commit in _stream(repo, git_log_argv(repo, start, end), limits):
        if start <= commit.committed_at < end:
            yield commit


def range_log_argv(repo: RepositoryInfo, base: str, tip: str) -> list[str]:
    """The ``git log`` command line of the first-parent commits after ``base`` up to and
    including ``tip`` (full SHAs)."""
    return git_argv("log", *LOG_FLAGS, "--end-of-options", f"{base}..{tip}", "--", repo=repo.root)


async def read_range(
    repo: RepositoryInfo, base: str, tip: str, *, limits: PatchLimits = DEFAULT_LIMITS
) -> list[Commit]:
    """The first-parent commits of ``base..tip`` (an upgrade's range), newest first."""
    return [c async for c in _stream(repo, range_log_argv(repo, base, tip), limits)]


async def _stream(
    repo: RepositoryInfo, argv: list[str], limits: PatchLimits
) -> AsyncGenerator[Commit, None]:
    """The commits one ``git log`` run writes, parsed as they stream."""
    proc, stdout, transport = await _spawn(argv, repo.root)
    assert proc.stderr is not None
    stderr = bytearray()
    drain = asyncio.create_task(_drain(proc.stderr, stderr))
    parser = GitLogParser(limits, web_url=repo.web_url, commit_template=repo.commit_template)
    try:
        while chunk := await _read_chunk(stdout):
            for commit in parser.feed(chunk):
                yield commit
        await drain
        code = await proc.wait()
        if code != 0:
            raise SourceError(f"git log failed in {repo.root}: {first_line(bytes(stderr))}")
        for commit in parser.close():
            yield commit
    except GitLogFormatError as exc:
        raise SourceError(f"cannot parse git log output in {repo.root}: {exc}") from None
    finally:
        if transport is not None:
            transport.close()
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
        if not drain.done():
            drain.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await drain


async def read_commits(
    repo: RepositoryInfo,
    start: datetime,
    end: datetime,
    *,
    limits: PatchLimits = DEFAULT_LIMITS,
) -> list[Commit]:
    """All commits with ``start <= committed_at < end`` (aware datetimes), newest first
    (git's order along first parents). One ``git log`` process, read as a stream."""
    return [c async for c in iter_commits(repo, start, end, limits=limits)]
