"""What the GitHub source keeps between runs, as an interface the store implements.

Two kinds of entries:

* conditional responses, keyed ``GET <url> <accept>``: the ``ETag``, the body and the
  ``Link`` header (a ``304 Not Modified`` carries no body, and pagination needs the links);
* commit details, keyed ``commit <api url> <owner/repo>@<sha>``: a commit never changes, so
  its files, counts and full patches are kept for good and never asked again.

Keys hold URLs only: tokens travel in headers and are never written. The source depends on
:class:`GitHubCache` only; :class:`commitdigest.store.Store` provides the persistent one
(:class:`CacheProvider`), and without a store :class:`MemoryCache` serves the run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class CachedResponse:
    etag: str
    body: str
    link: str = ""


def response_key(url: str, accept: str) -> str:
    return f"GET {url} {accept}"


def commit_key(api_url: str, repository: str, sha: str) -> str:
    return f"commit {api_url.rstrip('/')} {repository.lower()}@{sha}"


class GitHubCache(Protocol):
    def get_response(self, key: str) -> CachedResponse | None: ...

    def put_response(self, key: str, response: CachedResponse) -> None: ...

    def get_commit(self, key: str) -> dict[str, Any] | None: ...

    def put_commit(self, key: str, detail: dict[str, Any]) -> None: ...

    def close(self) -> None: ...


class CacheProvider(Protocol):
    """Anything that can give the GitHub source a cache (the store does)."""

    def github_cache(self) -> GitHubCache: ...


class MemoryCache:
    """The cache of one run when there is no store."""

    def __init__(self) -> None:
        self._responses: dict[str, CachedResponse] = {}
        self._commits: dict[str, dict[str, Any]] = {}

    def get_response(self, key: str) -> CachedResponse | None:
        return self._responses.get(key)

    def put_response(self, key: str, response: CachedResponse) -> None:
        self._responses[key] = response

    def get_commit(self, key: str) -> dict[str, Any] | None:
        return self._commits.get(key)

    def put_commit(self, key: str, detail: dict[str, Any]) -> None:
        self._commits[key] = detail

    def close(self) -> None:
        self._responses.clear()
        self._commits.clear()


def cache_of(provider: CacheProvider | None) -> GitHubCache:
    return provider.github_cache() if provider is not None else MemoryCache()
