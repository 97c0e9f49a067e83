"""A small GitHub REST client: auth, rate limits, conditional requests, pagination, errors.

One client per run (:func:`commitdigest.http.async_client`); at most ``concurrency`` requests
in flight (an ``asyncio.Semaphore``). What it does, following GitHub's REST documentation:

* ``Authorization: Bearer <token>`` when there is a token (a ``SecretStr``, revealed only
  here); ``Accept: application/vnd.github+json``; ``X-GitHub-Api-Version: 2022-11-28``;
* conditional requests: with ``conditional=True`` the ``ETag`` of the last ``200`` is kept in
  the store and sent as ``If-None-Match``; a ``304 Not Modified`` (free for the primary rate
  limit when authenticated) is answered from the stored body and ``Link`` header;
* pagination: ``Link: <…>; rel="next"`` is followed (only to the API's own origin);
* primary rate limit (``403``/``429`` with ``X-RateLimit-Remaining: 0``): wait until
  ``X-RateLimit-Reset`` when that is within ``max_wait`` seconds (a WARNING says how long),
  else :class:`RateLimitError` naming the reset time; secondary limits (``Retry-After``, or
  "secondary rate limit" in the message, or a bare ``429``): wait ``Retry-After`` seconds, else
  ``secondary_base`` doubling each time, at most ``max_secondary`` times. A wait holds every
  request of the client, not only the one that hit it;
* ``5xx`` and transport errors: retried ``max_retries`` times by the HTTP layer's
  :class:`~commitdigest.http.RetryPolicy` (``retry_base`` doubling, with jitter, or a
  ``Retry-After`` if the server sent one), then a one-line
  :class:`~commitdigest.errors.SourceError`.

Every request is counted (:class:`RequestStats`): by kind, conditional or not, ``304``\\ s.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

import httpx2
from pydantic import SecretStr

from ..errors import GitHubAPIError, RateLimitError, SourceError
from ..http import RetryPolicy, async_client, describe_transport_error, parse_retry_after
from .github_cache import CachedResponse, GitHubCache, MemoryCache, response_key

log = logging.getLogger(__name__)

JSON_MEDIA = "application/vnd.github+json"
DIFF_MEDIA = "application/vnd.github.diff"
API_VERSION = "2022-11-28"


@dataclass
class RequestStats:
    total: int = 0  # requests sent, retries included
    conditional: int = 0  # sent with If-None-Match
    not_modified: int = 0  # answered 304
    retries: int = 0  # 5xx / transport errors tried again
    waits: int = 0  # rate-limit waits
    by_kind: Counter[str] = field(default_factory=Counter)
    not_modified_by_kind: Counter[str] = field(default_factory=Counter)


@dataclass(frozen=True, slots=True)
class Reply:
    body: str
    next_url: str | None
    not_modified: bool = False  # answered 304: body and links come from the store
    url: str = ""  # the endpoint, named when the answer is not what GitHub documents

    def json(self, expect: type[dict[str, Any]] | type[list[Any]] | None = None) -> Any:
        """The body as JSON; an answer that is not JSON (or not a JSON ``expect``) is a
        :class:`SourceError` naming the endpoint, never an internal error."""
        try:
            data = json.loads(self.body)
        except ValueError:
            raise SourceError(
                f"GitHub answered {self.url or 'a request'} with something that is not JSON "
                f"({self.body[:80]!r}); try again later"
            ) from None
        if expect is not None and not isinstance(data, expect):
            raise SourceError(
                f"GitHub answered {self.url or 'a request'} with a JSON {type(data).__name__}"
                f" where a {expect.__name__} was expected; try again later"
            )
        return data


def _local_iso(epoch: float) -> str:
    return datetime.fromtimestamp(epoch).astimezone().isoformat(timespec="seconds")


def _float(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def api_message(response: httpx2.Response) -> str:
    """GitHub's ``message`` (one line, at most 200 characters), else the reason phrase."""
    text = ""
    try:
        data = response.json()
        if isinstance(data, dict) and isinstance(data.get("message"), str):
            text = data["message"]
    except ValueError:
        text = (
            response.text[:200]
            if response.headers.get("content-type", "").startswith("text/plain")
            else ""
        )
    text = " ".join(text.split())
    return (text[:197] + "...") if len(text) > 200 else (text or response.reason_phrase)


@dataclass(frozen=True)
class GitHubLimits:
    """How a :class:`GitHubAPI` paces, waits and retries: ``concurrency`` requests at a time
    (``github.max_concurrency``), at most ``max_wait`` seconds of one rate-limit wait
    (``github.rate_limit_max_wait_s``) plus ``reset_margin`` after a reset, secondary limits
    waited out from ``secondary_base`` seconds up to ``max_secondary`` times, server errors
    and dropped connections retried ``max_retries`` times from ``retry_base`` seconds, and a
    ``timeout`` per request."""

    concurrency: int = 4
    max_wait: float = 15 * 60
    reset_margin: float = 1.0
    secondary_base: float = 60.0
    max_secondary: int = 5
    retry_base: float = 1.0
    max_retries: int = 3
    timeout: float = 30.0


class GitHubAPI:
    def __init__(
        self,
        api_url: str,
        *,
        token: SecretStr | None = None,
        token_source: str = "token",
        cache: GitHubCache | None = None,
        limits: GitHubLimits = GitHubLimits(),
        transport: httpx2.AsyncBaseTransport | None = None,
    ) -> None:
        if limits.concurrency < 1:
            raise ValueError("concurrency must be >= 1")
        self.limits = limits
        self.api_url = api_url.rstrip("/")
        self._origin = urlsplit(self.api_url)[:2]
        self.authenticated = token is not None
        self._token_source = token_source
        self.cache: GitHubCache = cache if cache is not None else MemoryCache()
        self._owns_cache = cache is None
        self.retry = RetryPolicy(
            max_attempts=limits.max_retries + 1,
            backoff_initial_s=limits.retry_base,
            backoff_max_s=60.0,
        )
        self.stats = RequestStats()
        self._sem = asyncio.Semaphore(limits.concurrency)
        self._blocked_until = 0.0  # time.time() before which no request is sent
        headers = {"X-GitHub-Api-Version": API_VERSION}
        if token is not None:
            headers["Authorization"] = f"Bearer {token.get_secret_value()}"
        self._client = async_client(
            headers=headers,
            timeout=limits.timeout,
            max_connections=limits.concurrency,
            transport=transport,
        )

    async def aclose(self) -> None:
        await self._client.aclose()
        if self._owns_cache:
            self.cache.close()

    async def __aenter__(self) -> GitHubAPI:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # ---- public ------------------------------------------------------------------------

    def url(self, path: str, params: Mapping[str, str | int] | None = None) -> str:
        return str(httpx2.URL(self.api_url + path, params=dict(params or {})))

    async def get(
        self,
        path_or_url: str,
        params: Mapping[str, str | int] | None = None,
        *,
        kind: str,
        accept: str = JSON_MEDIA,
        conditional: bool = False,
    ) -> Reply:
        """GET one resource; errors (after waits and retries) raise :class:`GitHubAPIError`."""
        if path_or_url.startswith("/"):
            url = self.url(path_or_url, params)
        else:  # a Link URL: only ever to the API's own origin (the token goes with it)
            if urlsplit(path_or_url)[:2] != self._origin:
                raise SourceError(f"GitHub sent a link to another host: {path_or_url}")
            url = path_or_url
        key = response_key(url, accept)
        cached = self.cache.get_response(key) if conditional else None
        response = await self._send(
            url, accept=accept, kind=kind, etag=cached.etag if cached else None
        )
        if response.status_code == 304 and cached is not None:
            self.stats.not_modified += 1
            self.stats.not_modified_by_kind[kind] += 1
            return Reply(cached.body, _next(cached.link), not_modified=True, url=url)
        if response.status_code >= 300:
            raise self._error(response, url)
        link = response.headers.get("link", "")
        etag = response.headers.get("etag")
        if conditional and etag:
            self.cache.put_response(key, CachedResponse(etag, response.text, link))
        return Reply(response.text, _next(link), url=url)

    async def get_pages(
        self,
        path: str,
        params: Mapping[str, str | int] | None = None,
        *,
        kind: str,
        conditional: bool = False,
    ) -> list[Reply]:
        """Every page, following ``Link: rel="next"``."""
        pages = [await self.get(path, params, kind=kind, conditional=conditional)]
        seen = {self.url(path, params)}
        while (nxt := pages[-1].next_url) is not None and nxt not in seen:
            seen.add(nxt)
            pages.append(await self.get(nxt, kind=kind, conditional=conditional))
        return pages

    # ---- sending -----------------------------------------------------------------------

    async def _wait_gate(self) -> None:
        while (delay := self._blocked_until - time.time()) > 0:
            await asyncio.sleep(delay)

    def _block(self, seconds: float) -> None:
        self.stats.waits += 1
        self._blocked_until = max(self._blocked_until, time.time() + seconds)

    async def _send(self, url: str, *, accept: str, kind: str, etag: str | None) -> httpx2.Response:
        failures = secondary = primary = 0
        headers = {"Accept": accept}
        if etag:
            headers["If-None-Match"] = etag
        while True:
            await self._wait_gate()
            async with self._sem:
                await self._wait_gate()
                self.stats.total += 1
                self.stats.by_kind[kind] += 1
                self.stats.conditional += etag is not None
                try:
                    response = await self._client.get(url, headers=headers)
                except httpx2.TransportError as exc:
                    if failures + 1 >= self.retry.max_attempts:
                        raise SourceError(
                            f"cannot reach {self.api_url}: {describe_transport_error(exc)}"
                        ) from None
                    response = None
            if response is None or response.status_code >= 500:
                if response is not None and failures + 1 >= self.retry.max_attempts:
                    return response
                failures += 1
                asked = parse_retry_after(response.headers) if response is not None else None
                delay = self.retry.backoff(failures, asked)
                self.stats.retries += 1
                what = "no answer" if response is None else f"{response.status_code}"
                log.info("GitHub %s for %s; retrying in %.1f s", what, _path(url), delay)
                await asyncio.sleep(delay)
                continue
            if response.status_code in (403, 429):
                decided = self._rate_limit_wait(response, secondary, primary)
                if decided is not None:
                    wait, is_secondary = decided
                    secondary += is_secondary
                    primary += not is_secondary
                    self._block(wait)
                    continue
            return response

    def _rate_limit_wait(
        self, response: httpx2.Response, secondary: int, primary: int
    ) -> tuple[float, bool] | None:
        """(seconds to wait, whether a secondary limit); None when no rate limit (no access).

        ``secondary``/``primary``: the waits this request already made (a reset that does not
        free the limit, e.g. a skewed clock, ends after 3 waits).
        """
        h = response.headers
        message = api_message(response)
        retry_after = parse_retry_after(h)
        reset = _float(h.get("x-ratelimit-reset"))
        if retry_after is None and h.get("x-ratelimit-remaining") == "0" and reset is not None:
            wait = max(0.0, reset - time.time()) + self.limits.reset_margin
            if wait > self.limits.max_wait or primary >= 3:
                raise self._exhausted(reset, h.get("x-ratelimit-resource"))
            until = time.strftime("%H:%M:%S", time.localtime(time.time() + wait))
            log.warning("rate limit exhausted; waiting %d s until %s", math.ceil(wait), until)
            return wait, False
        is_secondary = "secondary rate limit" in message.lower() or response.status_code == 429
        if retry_after is None and not is_secondary:
            return None
        if secondary >= self.limits.max_secondary:
            raise RateLimitError(
                f"GitHub's secondary rate limit persists after {secondary} waits "
                f"({response.status_code}: {message}); try again later"
            )
        wait = retry_after if retry_after is not None else self.limits.secondary_base * 2**secondary
        if wait > self.limits.max_wait:
            raise RateLimitError(
                f"GitHub's secondary rate limit asks to wait {math.ceil(wait)} s, more than "
                f"the {math.ceil(self.limits.max_wait)} s we wait; try again later"
            )
        log.warning("secondary rate limit; waiting %.1f s", wait)
        return wait, True

    def _exhausted(self, reset: float, resource: str | None) -> RateLimitError:
        minutes = math.ceil(max(0.0, reset - time.time()) / 60)
        hint = (
            ""
            if self.authenticated
            else "; unauthenticated requests get 60 an hour: set GITHUB_TOKEN or GH_TOKEN,"
            " or run `gh auth login`"
        )
        return RateLimitError(
            f"GitHub API rate limit{f' ({resource})' if resource else ''} exhausted; it resets "
            f"at {_local_iso(reset)} (in {minutes} min; waits are at most "
            f"{math.ceil(self.limits.max_wait / 60)} min){hint}",
            reset_at=datetime.fromtimestamp(reset).astimezone(),
        )

    def _error(self, response: httpx2.Response, url: str) -> GitHubAPIError:
        status = response.status_code
        message = api_message(response)
        path = _path(url)
        if status == 401:
            text = (
                f"GitHub rejected the token from {self._token_source} (401: {message})"
                if self.authenticated
                else f"GitHub requires authentication for {path} (401: {message})"
            )
        elif status == 403:
            text = f"no access to {path} on GitHub (403: {message})"
        elif status == 404:
            text = f"not found on GitHub: {path} (404: {message})"
        elif status >= 500:
            text = (
                f"GitHub API error {status} for {path} after {self.retry.max_attempts} "
                f"attempts: {message}"
            )
        else:
            text = f"GitHub API error {status} for {path}: {message}"
        return GitHubAPIError(text, status=status, api_message=message)


def _next(link: str) -> str | None:
    if not link:
        return None
    links = httpx2.Response(200, headers={"link": link}).links
    nxt = links.get("next", {}).get("url")
    return nxt or None


def _path(url: str) -> str:
    return urlsplit(url).path or url
