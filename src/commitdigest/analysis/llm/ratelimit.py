"""When the next LLM request may go: a concurrency cap, a requests-per-minute limit, backoff.

The chat client wraps every HTTP attempt (retries included) in :meth:`RateLimiter.slot`, so
neither the first try nor a retry can exceed the configured concurrency or rate.

* **Concurrency** is an :class:`anyio.Semaphore`.
* **Rate** is a token bucket refilled at ``requests_per_minute / 60`` tokens a second holding at
  most ``burst`` tokens (default 1: requests are spread evenly, one every ``60 / rpm`` seconds).
  A caller that finds the bucket empty *reserves* the next token (the count goes negative) and
  sleeps exactly until it is due, so waiters are served in arrival order and nobody polls.
* **Hold-off**: after a ``429`` with ``Retry-After`` the client calls :meth:`hold_off`; every
  slot taken before that moment waits it out, so concurrent requests back off together instead
  of each hammering the server once more.

How long to wait before retrying a failed attempt is the HTTP layer's
:class:`~commitdigest.http.RetryPolicy`, the same for every remote.

Everything uses anyio primitives, so it runs on whatever event loop the caller uses.
"""

from __future__ import annotations

import math
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import anyio

from commitdigest.http import RetryPolicy as RetryPolicy
from commitdigest.http import parse_retry_after as parse_retry_after

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


class RateLimiter:
    """At most ``max_concurrency`` requests in flight and, optionally, ``requests_per_minute``."""

    def __init__(
        self,
        max_concurrency: int = 4,
        requests_per_minute: float | None = None,
        *,
        burst: int = 1,
        clock: Clock = time.monotonic,
        sleep: Sleep = anyio.sleep,
    ) -> None:
        if max_concurrency < 1:
            raise ValueError("max_concurrency must be at least 1")
        if requests_per_minute is not None and not (
            requests_per_minute > 0 and math.isfinite(requests_per_minute)
        ):
            raise ValueError("requests_per_minute must be a positive number")
        if burst < 1:
            raise ValueError("burst must be at least 1")
        self.max_concurrency = max_concurrency
        self.requests_per_minute = requests_per_minute
        self.burst = burst
        self._clock = clock
        self._sleep = sleep
        self._semaphore = anyio.Semaphore(max_concurrency)
        self._lock = anyio.Lock()
        self._tokens = float(burst)
        self._refilled_at = clock()
        self._not_before = 0.0
        self.in_flight = 0
        self.max_in_flight = 0

    def __repr__(self) -> str:
        return (
            f"RateLimiter(max_concurrency={self.max_concurrency}, "
            f"requests_per_minute={self.requests_per_minute}, burst={self.burst})"
        )

    def hold_off(self, seconds: float) -> None:
        """Make slots taken during the next ``seconds`` wait until that time has passed."""
        if seconds > 0 and math.isfinite(seconds):
            self._not_before = max(self._not_before, self._clock() + seconds)

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """Hold one concurrency slot (and one rate token) for the duration of the block."""
        async with self._semaphore:
            await self._wait_hold_off()
            await self._take_token()
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            try:
                yield
            finally:
                self.in_flight -= 1

    async def _wait_hold_off(self) -> None:
        # loop: another request may extend the hold-off while we sleep
        while (delay := self._not_before - self._clock()) > 0:
            await self._sleep(delay)

    async def _take_token(self) -> None:
        if self.requests_per_minute is None:
            return
        rate = self.requests_per_minute / 60.0  # tokens per second
        async with self._lock:
            now = self._clock()
            elapsed = max(0.0, now - self._refilled_at)
            self._tokens = min(float(self.burst), self._tokens + elapsed * rate)
            self._refilled_at = now
            self._tokens -= 1.0  # reserve ours; negative means "owed"
            delay = -self._tokens / rate if self._tokens < 0 else 0.0
        if delay > 0:
            await self._sleep(delay)
