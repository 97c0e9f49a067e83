"""A fake GitHub REST API for tests: real HTTP on 127.0.0.1, serving a git history as JSON.

Usage::

    repo = repo_from_git(path, "octo/widgets")      # any local repository (tests/gitfixture.py)
    with FakeGitHub(repo, tokens={"t0k"}) as gh:
        source = await open_github_repository("octo", "widgets", api_url=gh.base_url, ...)
        gh.count(kind="detail"), gh.not_modified, gh.requests[-1].headers

It speaks the documented shapes of: ``GET /repos/{o}/{r}`` (``default_branch``, ``html_url``),
``…/branches/{b}``, ``…/commits`` (``sha``/``since``/``until`` on the committer date, both
ends inclusive, ``per_page`` up to 100, ``page``, ``Link`` header), ``…/commits/{sha}`` (files
paginated ``files_per_page`` at a time, at most ``max_files``; ``patch`` left out for binary
and empty diffs and for patches over ``max_json_patch`` bytes; ``Accept:
application/vnd.github.diff`` gives the whole diff, unpaginated) and ``…/commits/{sha}/pulls``.
Every ``200`` has an ``ETag``; a matching ``If-None-Match`` gets a ``304`` with no body
(free for the rate limit when the request is authenticated). Rate-limit headers on every
answer; when ``remaining`` reaches 0 requests get ``403`` + ``X-RateLimit-Remaining: 0``
until ``reset`` passes. Errors: ``401`` for a token not in ``tokens``, ``403`` for repos in
``forbidden``, ``404`` for unknown repos/branches (``unknown_ref_status`` for an unknown
``sha=`` in the list), ``409`` for an empty repository, and scripted replies
(:meth:`FakeGitHub.push`: secondary limits, 5xx, …) taken before routing.

The history comes from git itself (:func:`repo_from_git`, via the git source's own parser, so
both sources see the same bytes): every commit of every branch, merges' files against the
first parent. A file's blob ``sha`` is the empty blob's when git's ``index`` line says so,
else made up.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import subprocess
import threading
import time
from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlencode, urlsplit

from serverthread import serve_in_background, stop_serving

from commitdigest.gitcmd import GIT_CONFIG, git_env
from commitdigest.models import Commit, FileStatus
from commitdigest.sources.diffparse import EMPTY_BLOB, strip_header
from commitdigest.sources.git import LOG_FLAGS
from commitdigest.sources.gitlog_parse import PatchLimits, parse_log

_GH_STATUS = {
    FileStatus.ADDED: "added", FileStatus.DELETED: "removed", FileStatus.MODIFIED: "modified",
    FileStatus.RENAMED: "renamed", FileStatus.COPIED: "copied",
    FileStatus.TYPE_CHANGED: "changed",
}  # fmt: skip
SECONDARY_MESSAGE = "You have exceeded a secondary rate limit. Please wait a few minutes."


# --------------------------------------------------------------------------- the history


@dataclass
class FakeRepo:
    full_name: str
    default_branch: str
    branches: dict[str, str]  # name -> head SHA
    commits: dict[str, Commit]  # every commit, git log --all order (newest first)
    committers: dict[str, tuple[str, str]] = field(default_factory=dict)  # sha -> (name, email)
    pulls: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # sha -> PRs
    html_base: str = "https://github.com"

    def resolve(self, ref: str) -> str | None:
        if ref in self.branches:
            return self.branches[ref]
        hits = [s for s in self.commits if s.startswith(ref)] if len(ref) >= 7 else []
        return hits[0] if len(hits) == 1 else None

    def reachable(self, head: str) -> list[Commit]:
        seen: set[str] = set()
        todo = [head]
        while todo:
            sha = todo.pop()
            if sha in seen or sha not in self.commits:
                continue
            seen.add(sha)
            todo.extend(self.commits[sha].parents)
        return [c for s, c in self.commits.items() if s in seen]


def _git(path: Path, *args: str) -> bytes:
    return subprocess.run(
        ["git", "-C", str(path), *args], env=git_env(), capture_output=True, check=True
    ).stdout


def repo_from_git(path: Path, full_name: str, *, default_branch: str | None = None) -> FakeRepo:
    """Every commit of every branch of the repository at ``path``, with full patches."""
    flags = [f for f in LOG_FLAGS if f != "--first-parent"]
    raw = _git(path, *GIT_CONFIG, "log", *flags, "--all", "--")
    commits = parse_log(raw, PatchLimits(1 << 40, 1 << 40))
    refs = _git(path, "for-each-ref", "--format=%(refname:short)%00%(objectname)", "refs/heads")
    branches = dict(line.split("\0") for line in refs.decode().splitlines())
    who = _git(path, "log", "--all", "--format=%H%x1f%cn%x1f%ce").decode("utf-8", "replace")
    committers = {s: (n, e) for s, n, e in (line.split("\x1f") for line in who.splitlines())}
    head = _git(path, "symbolic-ref", "--short", "HEAD").decode().strip()
    return FakeRepo(
        full_name, default_branch or head, branches, {c.sha: c for c in commits}, committers
    )


def pull(
    number: int,
    *,
    labels: tuple[str, ...] = (),
    merge_commit_sha: str | None = None,
    base: str = "main",
    merged: bool = True,
    title: str = "",
) -> dict[str, Any]:
    """A pull-request-simple object (the fields the source reads, and a few more)."""
    return {
        "number": number,
        "title": title or f"PR {number}",
        "state": "closed" if merged else "open",
        "html_url": f"https://github.com/fake/fake/pull/{number}",
        "labels": [{"name": name, "color": "ededed"} for name in labels],
        "merged_at": "2026-01-01T00:00:00Z" if merged else None,
        "merge_commit_sha": merge_commit_sha,
        "base": {"ref": base},
    }


def _z(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _blob(c: Commit, index: int) -> str:
    patch = c.files[index].patch
    for line in patch.splitlines()[:6]:
        if line.startswith("index "):
            old, _, new = line.split()[1].partition("..")
            side = old if c.files[index].status is FileStatus.DELETED else new
            if EMPTY_BLOB.startswith(side):
                return EMPTY_BLOB
    return hashlib.sha1(f"{c.sha}:{c.files[index].path}".encode()).hexdigest()


def file_json(c: Commit, index: int, *, max_json_patch: int) -> dict[str, Any]:
    f = c.files[index]
    patch = strip_header(f.patch).removesuffix("\n")
    entry: dict[str, Any] = {
        "sha": _blob(c, index),
        "filename": f.path,
        "status": _GH_STATUS[f.status],
        "additions": f.additions or 0,
        "deletions": f.deletions or 0,
        "changes": (f.additions or 0) + (f.deletions or 0),
        "blob_url": f"https://github.com/fake/blob/{c.sha}/{f.path}",
        "raw_url": f"https://github.com/fake/raw/{c.sha}/{f.path}",
    }
    if f.old_path is not None:
        entry["previous_filename"] = f.old_path
    if patch and not f.binary and len(patch.encode()) <= max_json_patch:
        entry["patch"] = patch
    return entry


def commit_json(repo: FakeRepo, c: Commit, api: str) -> dict[str, Any]:
    name, email = repo.committers.get(c.sha, (c.author, c.author_email))
    message = c.title + (f"\n\n{c.body}" if c.body else "")
    return {
        "sha": c.sha,
        "node_id": f"C_{c.sha[:12]}",
        "url": f"{api}/repos/{repo.full_name}/commits/{c.sha}",
        "html_url": f"{repo.html_base}/{repo.full_name}/commit/{c.sha}",
        "commit": {
            "author": {"name": c.author, "email": c.author_email, "date": _z(c.authored_at)},
            "committer": {"name": name, "email": email, "date": _z(c.committed_at)},
            "message": message,
            "comment_count": 0,
            "tree": {"sha": "0" * 40, "url": f"{api}/tree"},
        },
        "author": None,
        "committer": None,
        "parents": [
            {"sha": p, "url": f"{api}/repos/{repo.full_name}/commits/{p}"} for p in c.parents
        ],
    }


# --------------------------------------------------------------------------- the server


@dataclass(frozen=True)
class Reply:
    """A scripted answer (see :meth:`FakeGitHub.push`), taken by the next matching request."""

    status: int
    message: str = "error"
    headers: tuple[tuple[str, str], ...] = ()
    match: str = ""  # only requests whose path contains this


def secondary_limit(retry_after: str | None = "0.05", *, status: int = 403) -> Reply:
    headers = (("Retry-After", retry_after),) if retry_after is not None else ()
    return Reply(status, SECONDARY_MESSAGE, headers)


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    kind: str
    status: int = 0

    @property
    def conditional(self) -> bool:
        return "if-none-match" in self.headers


@dataclass
class RateState:
    limit: int = 5000
    remaining: int = 5000
    reset: float = field(default_factory=lambda: time.time() + 3600)
    window: float = 3600.0


class FakeGitHub:
    def __init__(
        self,
        *repos: FakeRepo,
        tokens: set[str] | None = None,
        forbidden: set[str] | None = None,
        prefix: str = "",
        files_per_page: int = 300,
        max_files: int = 3000,
        max_json_patch: int = 1 << 20,
        unknown_ref_status: int = 404,
        delay: float = 0.0,
    ) -> None:
        self.repos = {r.full_name.lower(): r for r in repos}
        self.tokens = tokens
        self.forbidden = {f.lower() for f in forbidden or set()}
        self.prefix = prefix.rstrip("/")
        self.files_per_page = files_per_page
        self.max_files = max_files
        self.max_json_patch = max_json_patch
        self.unknown_ref_status = unknown_ref_status
        self.delay = delay
        self.rate = RateState()
        self.requests: list[Recorded] = []
        self.in_flight = self.max_in_flight = 0
        self._queue: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- scripting and counting

    def push(self, *replies: Reply) -> None:
        with self._lock:
            self._queue.extend(replies)

    def set_rate(self, *, remaining: int, reset_in: float, limit: int = 5000) -> None:
        with self._lock:
            self.rate = RateState(limit, remaining, time.time() + reset_in, reset_in)

    def count(self, kind: str | None = None, *, status: int | None = None) -> int:
        with self._lock:
            return sum(
                1
                for r in self.requests
                if (kind is None or r.kind == kind) and (status is None or r.status == status)
            )

    def by_kind(self) -> Counter[str]:
        with self._lock:
            return Counter(r.kind for r in self.requests)

    @property
    def not_modified(self) -> int:
        return self.count(status=304)

    def reset_counts(self) -> None:
        with self._lock:
            self.requests.clear()

    # -- lifecycle

    @property
    def base_url(self) -> str:
        assert self._server is not None, "FakeGitHub is not running"
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}{self.prefix}"

    def start(self) -> FakeGitHub:
        server = _Server(("127.0.0.1", 0), _Handler)
        server.fake = self
        self._server = server
        self._thread = serve_in_background(server, poll_interval=0.01)
        return self

    def stop(self) -> None:
        if self._server is not None:
            stop_serving(self._server, self._thread)
            self._server = None

    def __enter__(self) -> FakeGitHub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- answering (handler threads)

    def _answer(self, h: _Handler) -> tuple[int, bytes, str, list[tuple[str, str]]]:
        url = urlsplit(h.path)
        path = unquote(url.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        headers = {k.lower(): v for k, v in h.headers.items()}
        rec = Recorded(h.command, path, query, headers, _kind(path, headers))
        with self._lock:
            self.requests.append(rec)
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.delay:
                time.sleep(self.delay)
            status, body, ctype, extra = self._route(rec, f"http://{h.headers['Host']}")
        finally:
            with self._lock:
                self.in_flight -= 1
        rec.status = status
        return status, body, ctype, extra

    def _rate_headers(self, *, counts: bool) -> list[tuple[str, str]]:
        with self._lock:
            r = self.rate
            if time.time() >= r.reset:
                r.remaining, r.reset = r.limit, time.time() + r.window
            if counts and r.remaining > 0:
                r.remaining -= 1
            return [
                ("X-RateLimit-Limit", str(r.limit)),
                ("X-RateLimit-Remaining", str(r.remaining)),
                ("X-RateLimit-Reset", f"{r.reset:.3f}"),
                ("X-RateLimit-Used", str(r.limit - r.remaining)),
                ("X-RateLimit-Resource", "core"),
            ]

    def _route(self, rec: Recorded, origin: str) -> tuple[int, bytes, str, list[tuple[str, str]]]:
        with self._lock:
            scripted = next((r for r in self._queue if r.match in rec.path), None)
            if scripted is not None:
                self._queue.remove(scripted)
        auth = rec.headers.get("authorization", "")
        token = auth.split(" ", 1)[1] if " " in auth else ""
        if scripted is not None:
            return _error(scripted.status, scripted.message, self._rate_headers(counts=False)
                          + list(scripted.headers))  # fmt: skip
        if self.tokens is not None and auth and token not in self.tokens:
            return _error(401, "Bad credentials", self._rate_headers(counts=False))
        with self._lock:
            exhausted = time.time() < self.rate.reset and self.rate.remaining <= 0
        if exhausted:
            msg = "API rate limit exceeded for 127.0.0.1."
            return _error(403, msg, self._rate_headers(counts=False))
        status, payload, link = _Routes(self, rec, origin).answer()
        if isinstance(payload, bytes):
            body, ctype = payload, "text/plain; charset=utf-8"
        else:
            body, ctype = json.dumps(payload).encode(), "application/json; charset=utf-8"
        extra = [("Link", link)] if link else []
        if status == 200:
            etag = 'W/"' + hashlib.sha256(body).hexdigest()[:32] + '"'
            extra.append(("ETag", etag))
            if rec.headers.get("if-none-match") == etag:
                return 304, b"", ctype, self._rate_headers(counts=not token) + extra
        return status, body, ctype, self._rate_headers(counts=True) + extra


def _error(
    status: int, message: str, headers: list[tuple[str, str]]
) -> tuple[int, bytes, str, list[tuple[str, str]]]:
    body = json.dumps({"message": message, "documentation_url": "https://docs.github.com/rest"})
    return status, body.encode(), "application/json; charset=utf-8", headers


def _kind(path: str, headers: dict[str, str]) -> str:
    parts = path.split("/repos/", 1)[-1].split("/")
    if len(parts) == 2:
        return "repo"
    if len(parts) >= 3 and parts[2] == "branches":
        return "branch"
    if len(parts) == 3 and parts[2] == "commits":
        return "list"
    if len(parts) == 5 and parts[4] == "pulls":
        return "pulls"
    if len(parts) >= 4 and parts[2] == "commits":
        return "diff" if "diff" in headers.get("accept", "") else "detail"
    return "other"


class _Routes:
    def __init__(self, fake: FakeGitHub, rec: Recorded, origin: str) -> None:
        self.fake, self.rec, self.origin = fake, rec, origin
        self.api = origin + fake.prefix

    def answer(self) -> tuple[int, Any, str]:
        fake, rec = self.fake, self.rec
        rest = rec.path[len(fake.prefix) :] if rec.path.startswith(fake.prefix) else ""
        parts = rest.removeprefix("/repos/").split("/") if rest.startswith("/repos/") else []
        if len(parts) < 2:
            return 404, {"message": "Not Found"}, ""
        full = f"{parts[0]}/{parts[1]}".lower()
        repo = fake.repos.get(full)
        if repo is None:
            return 404, {"message": "Not Found"}, ""
        if full in fake.forbidden:
            return 403, {"message": "Resource not accessible by personal access token"}, ""
        tail = parts[2:]
        if not tail:
            return 200, self.repo_info(repo), ""
        if tail[0] == "branches" and len(tail) >= 2:
            name = "/".join(tail[1:])
            if name not in repo.branches:
                return 404, {"message": "Branch not found"}, ""
            return 200, {"name": name, "commit": {"sha": repo.branches[name]}}, ""
        if tail == ["commits"]:
            return self.list_commits(repo)
        if tail[0] == "commits" and len(tail) == 3 and tail[2] == "pulls":
            return 200, repo.pulls.get(tail[1], []), ""
        if tail[0] == "commits" and len(tail) == 2:
            return self.commit(repo, tail[1])
        return 404, {"message": "Not Found"}, ""

    def repo_info(self, repo: FakeRepo) -> dict[str, Any]:
        owner, name = repo.full_name.split("/")
        return {
            "id": 1, "name": name, "full_name": repo.full_name, "private": False,
            "owner": {"login": owner}, "html_url": f"{repo.html_base}/{repo.full_name}",
            "default_branch": repo.default_branch, "url": f"{self.api}/repos/{repo.full_name}",
        }  # fmt: skip

    def page_link(self, page: int, last: int) -> str:
        links = []
        q = dict(self.rec.query)
        for rel, n in (("prev", page - 1), ("next", page + 1), ("last", last), ("first", 1)):
            if (rel in ("prev", "first") and page > 1) or (rel in ("next", "last") and page < last):
                q["page"] = str(n)
                links.append(f'<{self.origin}{self.rec.path}?{urlencode(q)}>; rel="{rel}"')
        return ", ".join(links)

    def list_commits(self, repo: FakeRepo) -> tuple[int, Any, str]:
        q = self.rec.query
        if not repo.commits:
            return 409, {"message": "Git Repository is empty."}, ""
        head = repo.resolve(q.get("sha", repo.default_branch))
        if head is None:
            return self.fake.unknown_ref_status, {"message": "Not Found"}, ""
        since = datetime.fromisoformat(q["since"]) if "since" in q else None
        until = datetime.fromisoformat(q["until"]) if "until" in q else None
        rows = [
            c
            for c in repo.reachable(head)
            if (since is None or c.committed_at >= since)
            and (until is None or c.committed_at <= until)
        ]
        per_page = min(int(q.get("per_page", 30)), 100)
        page = int(q.get("page", 1))
        last = max(1, -(-len(rows) // per_page))
        chunk = rows[(page - 1) * per_page : page * per_page]
        return 200, [commit_json(repo, c, self.api) for c in chunk], self.page_link(page, last)

    def commit(self, repo: FakeRepo, ref: str) -> tuple[int, Any, str]:
        sha = repo.resolve(ref)
        if sha is None:
            return 422, {"message": f"No commit found for SHA: {ref}"}, ""
        c = repo.commits[sha]
        if "diff" in self.rec.headers.get("accept", ""):
            return 200, "".join(f.patch for f in c.files).encode(), ""
        fake = self.fake
        listed = range(min(len(c.files), fake.max_files))
        per_page = fake.files_per_page
        page = int(self.rec.query.get("page", 1))
        last = max(1, -(-len(listed) // per_page))
        data = commit_json(repo, c, self.api)
        files = [
            file_json(c, i, max_json_patch=fake.max_json_patch)
            for i in listed[(page - 1) * per_page : page * per_page]
        ]
        adds = sum(f.additions or 0 for f in c.files)
        dels = sum(f.deletions or 0 for f in c.files)
        data["stats"] = {"additions": adds, "deletions": dels, "total": adds + dels}
        data["files"] = files
        return 200, data, self.page_link(page, last)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    request_queue_size = 128
    fake: FakeGitHub


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server: _Server
    timeout = 10

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        status, body, ctype, headers = self.server.fake._answer(self)
        try:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            for name, value in headers:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)
        except OSError:
            self.close_connection = True


@contextlib.contextmanager
def serving(*repos: FakeRepo, **options: Any) -> Iterator[FakeGitHub]:
    with FakeGitHub(*repos, **options) as fake:
        yield fake


__all__ = [
    "FakeGitHub",
    "FakeRepo",
    "Recorded",
    "Reply",
    "commit_json",
    "file_json",
    "pull",
    "repo_from_git",
    "secondary_limit",
    "serving",
]


def open_options(**kw: Any) -> dict[str, Any]:
    """``open_github_repository``'s keyword arguments from flat ones: the fields of
    :class:`GitHubLimits` go into ``limits``, those of :class:`GitHubReading` into
    ``reading``; the rest (``token``, ``store``, ``api_url``, …) stay as given."""
    from commitdigest.sources.github_api import GitHubLimits
    from commitdigest.sources.github_source import GitHubReading

    def take(record: type[Any]) -> dict[str, Any]:
        names = {f.name for f in fields(record)}
        return {k: kw.pop(k) for k in list(kw) if k in names}

    limits, reading = take(GitHubLimits), take(GitHubReading)
    return {**kw, "limits": GitHubLimits(**limits), "reading": GitHubReading(**reading)}
