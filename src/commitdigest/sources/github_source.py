"""GitHub as a source: a branch's commits in a window, read from the REST API.

Requests per window (``N`` commits, ``P`` list pages of 100), see ``bench/github_requests.py``:

* ``GET /repos/{o}/{r}``: the repository exists, its canonical name, web URL and default
  branch (conditional); a branch other than the default one is checked once more with
  ``GET /repos/{o}/{r}/branches/{branch}`` (conditional);
* ``GET /repos/{o}/{r}/commits?sha=<branch>&since=…&until=…&per_page=100``, every page
  (``Link: rel="next"``, conditional). GitHub filters on the committer date; the exact
  ``[start, end)`` filter on it is applied here, like the git source does;
* per commit ``GET /repos/{o}/{r}/commits/{sha}`` (its files pages too when there are more
  than 300 files), kept in the store by SHA for good: a re-run asks nothing again. The diff
  media type (``Accept: application/vnd.github.diff``) is fetched once more only when a file
  has no ``patch`` though it has changed lines (GitHub leaves out large patches), when a file
  may be binary (below), or when GitHub's 3000-file cap is reached (files past it come from
  the diff);
* per commit ``GET /repos/{o}/{r}/commits/{sha}/pulls`` (conditional: labels can change):
  the PR's number (when the title has no ``(#N)``), URL and labels (:attr:`pull_requests`).

First parents: the list endpoint returns every ancestor. Kept are the listed commits that
are not reached only through a merge's second (or later) parent: for each listed merge,
the first-parent chain of its other parents is dropped until it meets the merge's own
first-parent chain. This is ``git log --first-parent`` for merges inside the window; side
commits of a merge made after the window ends cannot be told apart without reading past the
window and are kept. A merge's files are its diff against the first parent.

Binary files: GitHub gives them no ``patch`` and 0 added/deleted lines. A file is binary
when it has no patch, 0/0 lines, its status is added, modified, removed or changed, its blob
is not the empty one, and the diff media type says ``Binary files … differ`` (or ``GIT binary
patch``) for it; then, like git's ``-`` in numstat, its counts are None. Renamed and copied
files are never fetched for this (the diff of a pure binary rename does not say "binary", and
pure renames are common): they keep 0/0. Deleted binaries are marked, as git marks them.

Patches are stored without git's header lines (GitHub's ``patch`` field) and cut by the same
:class:`PatchLimits` as the git source. Author names are GitHub's (no ``.mailmap``); dates
keep their instant but come in UTC.
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
from collections.abc import Awaitable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, TypeVar
from urllib.parse import quote

from pydantic import SecretStr

from ..errors import GitHubAPIError, RateLimitError, SourceError
from ..models import Commit
from .diffparse import (
    build_commit,
    commit_entry,
    file_entry,
    fill_from_diff,
    needs_diff,
    split_diff,
)
from .first_parent import first_parent_only as first_parent_only
from .github_api import DIFF_MEDIA, GitHubAPI, RequestStats
from .github_auth import default_api_url, discover_token
from .github_cache import CacheProvider, cache_of, commit_key
from .github_pulls import PullRequestInfo as PullRequestInfo
from .github_pulls import PullRequestLookup
from .gitlog_parse import PatchLimits
from .repo_info import github_slug

log = logging.getLogger(__name__)
T = TypeVar("T")

DEFAULT_LIMITS = PatchLimits()
MAX_COMMIT_FILES = 3000  # GitHub lists at most this many files of a commit
_LAST_SECOND = 4102444799  # 2099-12-31T23:59:59Z
_SPEC_RE = re.compile(r"^(?P<owner>[A-Za-z0-9](?:[A-Za-z0-9-]*))/(?P<name>[A-Za-z0-9_.-]+)$")


def parse_github_spec(text: str) -> tuple[str, str] | None:
    """``"owner/repo"`` or a github.com URL (https, ssh, scp-like) -> (owner, repo), else None.

    The caller checks for an existing local path first: ``a/b`` may also be a folder.
    """
    text = text.strip()
    slug = github_slug(text)
    if slug is not None:
        return slug
    m = _SPEC_RE.match(text.removesuffix(".git"))
    if m is None or m.group("name") in (".", ".."):
        return None
    return m.group("owner"), m.group("name")


def _iso_z(moment: datetime, *, up: bool) -> str:
    """Whole seconds, widened; within 1970..2099, the range GitHub documents for since/until."""
    epoch = math.ceil(moment.timestamp()) if up else math.floor(moment.timestamp())
    epoch = min(max(epoch, 0), _LAST_SECOND)
    return datetime.fromtimestamp(epoch, tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _when(item: dict[str, Any], who: str) -> datetime:
    return datetime.fromisoformat(item["commit"][who]["date"])


async def _all(aws: Iterable[Awaitable[T]]) -> list[T]:
    """Like ``gather``, but the first failure cancels the rest (and is raised alone)."""
    tasks = [asyncio.ensure_future(a) for a in aws]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


@dataclass(frozen=True)
class GitHubReading:
    """What a :class:`GitHubRepository` reads besides each commit: its pull request's
    labels (``fetch_pulls``), and at most ``max_files`` of its changed files."""

    fetch_pulls: bool = True
    max_files: int = MAX_COMMIT_FILES


@dataclass(frozen=True)
class GitHubRepositoryInfo:
    """A repository as GitHub names it: ``owner/repo``, its page, the branch read and the
    default one."""

    full_name: str
    web_url: str
    branch: str
    default_branch: str


class GitHubRepository:
    """A GitHub repository's branch: what the pipeline reads commits from (like git's)."""

    def __init__(
        self,
        api: GitHubAPI,
        info: GitHubRepositoryInfo,
        reading: GitHubReading = GitHubReading(),
        *,
        owns_api: bool = True,
    ) -> None:
        self.api = api
        self.owns_api = owns_api
        self.name = full_name = info.full_name
        self.web_url = info.web_url
        self.branch = info.branch
        self.default_branch = info.default_branch
        self.fetch_pulls = reading.fetch_pulls
        self.max_files = reading.max_files
        self.pull_requests: dict[str, PullRequestInfo] = {}  # by commit SHA
        self._base = "/repos/" + "/".join(quote(part, safe="") for part in full_name.split("/"))
        self._pulls = PullRequestLookup(api, self._base, full_name)

    @property
    def stats(self) -> RequestStats:
        return self.api.stats

    @property
    def identity(self) -> str:
        """The same repository named twice (URL and owner/repo, any case) is read once."""
        return f"github:{self.api.api_url}/{self.name.lower()}"

    def labels_for(self, sha: str) -> tuple[str, ...]:
        pr = self.pull_requests.get(sha)
        return pr.labels if pr else ()

    async def aclose(self) -> None:
        """Close the HTTP client, unless it was given (shared between repositories)."""
        if self.owns_api:
            await self.api.aclose()

    async def __aenter__(self) -> GitHubRepository:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # ---- reading -----------------------------------------------------------------------

    async def read_commits(
        self, start: datetime, end: datetime, *, limits: PatchLimits = DEFAULT_LIMITS
    ) -> list[Commit]:
        """Commits with ``start <= committed_at < end`` along first parents, newest first."""
        if start.tzinfo is None or end.tzinfo is None:
            raise ValueError("start and end must be timezone-aware datetimes")
        if start >= end:
            return []
        listed = await self._list(start, end)
        items = first_parent_only([c for c in listed if start <= _when(c, "committer") < end])
        shas = [c["sha"] for c in items]
        done: list[str] = []
        lookups = [self._pulls.find(sha, self.branch) for sha in shas] if self.fetch_pulls else []
        try:  # details and PR look-ups together, within the client's concurrency limit
            results: list[Any] = await _all([*(self._detail(sha, done) for sha in shas), *lookups])
        except RateLimitError as exc:
            raise RateLimitError(
                f"{exc}; {self.name}: details of {len(done)} of {len(shas)} commits are "
                "stored, a re-run continues from there",
                reset_at=exc.reset_at,
            ) from None
        found, prs = results[: len(shas)], results[len(shas) :] or [None] * len(shas)
        commits = []
        for detail, pr in zip(found, prs, strict=True):
            if pr is not None:
                self.pull_requests[detail["sha"]] = pr
            commits.append(
                build_commit(
                    detail,
                    limits,
                    pr_number=pr.number if pr else None,
                    web_url=self.web_url,
                    labels=tuple(pr.labels) if pr else (),
                )
            )
        return commits

    async def _list(self, start: datetime, end: datetime) -> list[dict[str, Any]]:
        params: dict[str, str | int] = {
            "sha": self.branch,
            "since": _iso_z(start, up=False),
            "until": _iso_z(end, up=True),
            "per_page": 100,
        }
        try:
            pages = await self.api.get_pages(
                f"{self._base}/commits", params, kind="list", conditional=True
            )
        except GitHubAPIError as exc:
            if exc.status in (404, 422):
                raise SourceError(f"unknown branch {self.branch!r} in {self.name}") from None
            if exc.status == 409:  # "Git Repository is empty."
                return []
            raise
        rows: dict[str, dict[str, Any]] = {}  # a commit pushed while paging may show up twice
        for page in pages:
            rows.update(
                (c["sha"], c)
                for c in page.json(list)
                if isinstance(c, dict) and isinstance(c.get("sha"), str) and c["sha"] not in rows
            )
        return list(rows.values())

    async def _detail(self, sha: str, done: list[str]) -> dict[str, Any]:
        key = commit_key(self.api.api_url, self.name, sha)
        cached = self.api.cache.get_commit(key)
        if cached is not None:
            done.append(sha)
            return cached
        path = f"{self._base}/commits/{sha}"
        pages = await self.api.get_pages(path, kind="detail")
        data = pages[0].json(dict)
        files = [file_entry(f) for page in pages for f in page.json(dict).get("files") or []]
        cap = len(files) >= self.max_files
        complete = True
        if cap or any(needs_diff(f) for f in files):
            try:
                diff = await self.api.get(path, kind="diff", accept=DIFF_MEDIA)
                fill_from_diff(files, split_diff(diff.body), cap)
            except GitHubAPIError as exc:
                if exc.status < 500 and exc.status not in (406, 422):
                    raise
                log.warning("%s: no diff for %s (%s); patches left out", self.name, sha, exc)
                complete = False
                for f in files:
                    f["missing"] = f["missing"] or needs_diff(f)
        detail = commit_entry(data, files)
        if complete:
            self.api.cache.put_commit(key, detail)
        done.append(sha)
        return detail


async def make_github_api(
    *,
    store: CacheProvider | None,
    token: SecretStr | Literal["auto"] | None = "auto",
    api_url: str | None = None,
    token_source: str = "token",
    **connection: Any,
) -> GitHubAPI:
    """A GitHub client: ``token="auto"`` discovers one (:func:`~.github_auth.discover_token`),
    ``api_url`` defaults to ``$GITHUB_API_URL`` or https://api.github.com; ``connection``
    holds :class:`GitHubAPI`'s limits (concurrency, max_wait, timeout, transport, …)."""
    url = (api_url or default_api_url()).rstrip("/")
    if token == "auto":
        info = await asyncio.to_thread(discover_token, url)
        token, token_source = info.token, info.source
    return GitHubAPI(
        url, token=token, token_source=token_source, cache=cache_of(store), **connection
    )


async def open_github_repository(
    owner: str,
    repo: str,
    *,
    branch: str | None = None,
    store: CacheProvider | None = None,
    reading: GitHubReading = GitHubReading(),
    api: GitHubAPI | None = None,
    **connection: Any,
) -> GitHubRepository:
    """Check that ``owner/repo`` (and ``branch``) exist and return it, ready to read.

    Without ``api``, its own client is made by :func:`make_github_api` from ``store`` and
    ``connection`` (``token``: ``"auto"`` discovers one, :func:`~.github_auth.discover_token`;
    ``api_url``: default ``$GITHUB_API_URL`` or https://api.github.com; ``limits``, a
    :class:`~.github_api.GitHubLimits`; ``transport``). Close the result (``aclose`` or
    ``async with``) to close its HTTP client. To read several repositories in one run
    through one client (one connection pool, one concurrency limit, one rate-limit wait),
    pass the same ``api`` (a :class:`GitHubAPI`) to each, and close it yourself.
    """
    if api is not None:
        return await _open(api, owner, repo, branch, reading, owns_api=False)
    api = await make_github_api(store=store, **connection)
    try:
        return await _open(api, owner, repo, branch, reading)
    except BaseException:
        await api.aclose()
        raise


async def _open(
    api: GitHubAPI,
    owner: str,
    repo: str,
    branch: str | None,
    reading: GitHubReading,
    *,
    owns_api: bool = True,
) -> GitHubRepository:
    spec = f"{owner}/{repo}"
    try:
        reply = await api.get(f"/repos/{quote(owner, safe='')}/{quote(repo, safe='')}",
                              kind="repo", conditional=True)  # fmt: skip
    except GitHubAPIError as exc:
        if exc.status == 404:
            hint = "" if api.authenticated else " (a private one needs a token)"
            raise SourceError(
                f"unknown GitHub repository {spec} or no access to it{hint}"
            ) from None
        raise
    data = reply.json(dict)
    full_name = str(data.get("full_name") or spec)
    default_branch = str(data.get("default_branch") or "main")
    web_url = str(data.get("html_url") or f"https://github.com/{full_name}")
    if branch is not None and branch != default_branch:
        path = f"/repos/{full_name}/branches/{quote(branch, safe='/')}"
        try:
            await api.get(path, kind="branch", conditional=True)
        except GitHubAPIError as exc:
            if exc.status in (404, 422):
                raise SourceError(f"unknown branch {branch!r} in {full_name}") from None
            raise
    info = GitHubRepositoryInfo(full_name, web_url, branch or default_branch, default_branch)
    return GitHubRepository(api, info, reading, owns_api=owns_api)
