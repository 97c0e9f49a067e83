"""Read the commits of a time window: one streamed ``git log`` process per window.

Choices (kept identical for the benchmark's raw-git run through :func:`git_log_argv`):

* history along first parents (``--first-parent``); a merge's files are its diff against
  the first parent (``--diff-merges=first-parent``), so a merged branch counts once;
* ``--raw -p -z`` in one stream: status, blob ids and patches of every file, the full line
  counts counted from the patches (``--numstat`` would make git diff every file twice);
  renames detected (``-M``), copies not;
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
import select
import subprocess
import sys
import threading
from collections.abc import AsyncGenerator, Callable
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
from commitdigest.sources.window_plan import check_window

__all__ = [
    "DEFAULT_LIMITS",
    "PatchLimits",
    "git_log_argv",
    "iter_commits",
    "read_commits",
]

CHUNK_SIZE = 1 << 20
AHEAD_CHUNKS = 64  # chunks read ahead of the parser at most (64 MiB)
PAUSE_S = 0.005  # git wrote nothing for this long: the parser takes what was read so far
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
    "-p",
    "-z",
    "--submodule=short",
    LOG_FORMAT,
)


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
    check_window(start, end)
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


class _Pump:
    """Reads git's stdout on a thread, whole chunks of CHUNK_SIZE, up to AHEAD_CHUNKS ahead
    of the parser: git never waits while the pipeline works on the commits already read (the
    analysis and the radar start during the read), and memory stays bounded. A chunk goes
    to the parser before it is whole when git pauses (:data:`PAUSE_S`: a big diff to work
    out, or the walk of older history after the window's last commit), so the commits read
    so far are worked on meanwhile."""

    def __init__(self, fd: int, loop: asyncio.AbstractEventLoop) -> None:
        self._fd = fd
        self._loop = loop
        self._chunks: asyncio.Queue[bytes | OSError] = asyncio.Queue()
        self._room = threading.Semaphore(AHEAD_CHUNKS)
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="git-log-reader", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            readable = _waiter(self._fd)
            while True:
                self._room.acquire()
                if self._stop:
                    return
                chunk = bytearray()
                ended = False
                while len(chunk) < CHUNK_SIZE:  # a whole chunk: git writes in small pieces
                    if chunk and not readable(PAUSE_S):
                        break  # git pauses: the parser takes what there is
                    data = os.read(self._fd, CHUNK_SIZE - len(chunk))
                    if not data:
                        ended = True
                        break
                    chunk += data
                if chunk:
                    self._hand(bytes(chunk))
                if ended:
                    self._hand(b"")
                    return
        except OSError as exc:
            self._hand(exc)
        except Exception as exc:  # never a reader that ends without a word: the parser waits
            self._hand(OSError(f"{type(exc).__name__}: {exc}"))
        finally:
            os.close(self._fd)

    def _hand(self, chunk: bytes | OSError) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody reads any more
            self._loop.call_soon_threadsafe(self._chunks.put_nowait, chunk)

    async def read(self) -> bytes:
        """The next chunk; ``b""`` at the end."""
        chunk = await self._chunks.get()
        if isinstance(chunk, OSError):
            raise chunk
        if chunk:
            self._room.release()
        return chunk

    def close(self) -> None:
        """Let the thread go (it ends at git's end of output: kill git first)."""
        self._stop = True
        self._room.release()


def _waiter(fd: int) -> Callable[[float], bool]:
    """``wait(timeout)``: whether ``fd`` has something to read (or its end) within
    ``timeout`` seconds. ``poll``, not ``select``, which refuses a descriptor above 1023;
    always True on Windows, which polls sockets only (a chunk is then handed whole)."""
    if sys.platform == "win32" or not hasattr(select, "poll"):
        return lambda timeout: True
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
    return lambda timeout: bool(poller.poll(timeout * 1000))


async def _spawn(argv: list[str], root: Path) -> tuple[asyncio.subprocess.Process, _Pump]:
    """Start git with its stdout on a pipe a :class:`_Pump` reads."""
    read_fd, write_fd = os.pipe()
    if sys.platform != "win32":
        with contextlib.suppress(OSError, AttributeError):
            fcntl.fcntl(write_fd, fcntl.F_SETPIPE_SZ, CHUNK_SIZE)
    try:
        proc = await _exec(argv, root, write_fd)
    except BaseException:
        os.close(read_fd)
        raise
    finally:
        os.close(write_fd)
    return proc, _Pump(read_fd, asyncio.get_running_loop())


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
    them. Memory stays bounded: the patch budget per commit plus the chunks read ahead
    (at most AHEAD_CHUNKS)."""
    check_window(start, end)
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
    proc, pump = await _spawn(argv, repo.root)
    assert proc.stderr is not None
    stderr = bytearray()
    drain = asyncio.create_task(_drain(proc.stderr, stderr))
    parser = GitLogParser(limits, web_url=repo.web_url, commit_template=repo.commit_template)
    try:
        while chunk := await pump.read():
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
    except OSError as exc:
        raise SourceError(f"cannot read git log output in {repo.root}: {exc}") from None
    finally:
        pump.close()  # first: a cancel while waiting for git below must not leave it waiting
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
