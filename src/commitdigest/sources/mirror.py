"""The git mirror mode: commitdigest's own partial clone of a remote repository.

A repository named by a URL on any host (:mod:`.remote`), and an ``owner/repo``
subscription with ``source = "git"``, are read from a bare, blob-less clone under the home
folder (``git clone --bare --filter=blob:none`` on first use, ``git fetch`` before every
run, never cloned again) with the git source. Blobs are fetched on demand by ``git log -p``,
so the first run of a day downloads only what that day's diffs need; a server that does not
filter sends everything, once. git's own credential helpers and SSH agent authenticate;
messages never show a credential (they are redacted).
"""

from __future__ import annotations

import asyncio
import re
import shutil
from pathlib import Path

from ..errors import SourceError
from ..gitcmd import first_line, git_argv, git_env
from ..redaction import redact
from .remote import Remote

FETCH_REFSPEC = "+refs/heads/*:refs/heads/*"


def mirror_path(home: Path, owner: str, repo: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", f"{owner}__{repo}")
    return home / "mirrors" / f"{safe}.git"


async def _git(*args: str, cwd: Path | None = None, timeout: float = 1800) -> None:
    proc = await asyncio.create_subprocess_exec(
        *git_argv(*args),
        cwd=cwd,
        env=git_env(),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        _, err = await asyncio.wait_for(proc.communicate(), timeout)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise SourceError(f"git {args[0]} timed out after {timeout:.0f} s") from None
    if proc.returncode != 0:
        raise SourceError(redact(f"git {args[0]} failed: {first_line(err)}"))


async def ensure_mirror(
    home: Path, owner: str, repo: str, *, url: str | None = None, fetch: bool = True
) -> Path:
    """Clone the mirror on first use, else fetch it; return its path (a bare repository).

    ``url`` defaults to ``https://github.com/owner/repo.git``.
    """
    path = mirror_path(home, owner, repo)
    remote = url or f"https://github.com/{owner}/{repo}.git"
    if not (path / "HEAD").exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial")
        if partial.exists():  # a clone that was killed: start it again
            shutil.rmtree(partial)
        await _git("clone", "--bare", "--filter=blob:none", "-q", remote, str(partial))
        partial.replace(path)  # the mirror appears whole or not at all
        return path
    if fetch:
        await _git(
            "-C", str(path), "fetch", "-q", "--prune", "--filter=blob:none", "origin", FETCH_REFSPEC
        )
    return path


async def ensure_remote_mirror(home: Path, remote: Remote, *, fetch: bool = True) -> Path:
    """The mirror of ``remote`` (any host): cloned on first use, else fetched."""
    path = home / "mirrors" / remote.mirror_name
    if not (path / "HEAD").exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial")
        if partial.exists():
            shutil.rmtree(partial)
        try:
            await _git("clone", "--bare", "--filter=blob:none", "-q", remote.url, str(partial))
        except SourceError as err:
            raise SourceError(f"{remote.safe_url}: {err}") from None
        partial.replace(path)
        return path
    if fetch:
        try:
            await _git(
                "-C", str(path), "fetch", "-q", "--prune", "--filter=blob:none", "origin",
                FETCH_REFSPEC,
            )  # fmt: skip
        except SourceError as err:
            raise SourceError(f"{remote.safe_url}: {err}") from None
    return path
