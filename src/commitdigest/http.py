"""The one HTTP layer every remote of commitdigest goes through (GitHub, the chat senders and
the webhook, the LLM client).

* :func:`async_client` builds every ``httpx2.AsyncClient``: our ``User-Agent``, a time-out,
  connection limits, redirects, and a ``transport`` hook through which tests plug in a
  ``httpx2.MockTransport`` or reach a fake server.
* :func:`send_with_retry` is the one retry loop: each service supplies only how to send one
  request and how to judge its answer (a :class:`Verdict`: done, retry, wait, stop). Waits
  the server asks for do not count as attempts (bounded by a total); one
  :class:`RateLimiter` per remote holds the concurrency (adaptive: it halves on 429/503 and
  climbs back), the rate and a hold-off every worker respects; a :class:`Hedging` policy
  gives a slow request a twin.
* :class:`RetryPolicy` says how long to wait before trying a failed request again:
  exponential backoff (with jitter unless turned off), never less than what the server asked
  for (:func:`parse_retry_after`, :func:`server_wait`: ``Retry-After``, ``retry-after-ms``,
  ``x-ratelimit-reset-*``, "try again in 1.2s"), capped.
* :func:`describe_transport_error` words a connection failure in one line, with every
  registered secret masked (:mod:`commitdigest.redaction`): URLs of webhooks hold keys.

``httpx2`` itself is imported only when a client is built, so importing this module costs
nothing at start-up.
"""

from __future__ import annotations

import asyncio
import email.utils
import logging
import math
import random
import re
import statistics
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

import anyio

from commitdigest.redaction import redact
from commitdigest.version import __version__

if TYPE_CHECKING:
    import httpx2

__all__ = [
    "DONE",
    "REAL_TIME",
    "USER_AGENT",
    "Hedging",
    "RateLimiter",
    "RetryPolicy",
    "Timer",
    "Tried",
    "Verdict",
    "async_client",
    "describe_transport_error",
    "parse_duration",
    "parse_retry_after",
    "send_with_retry",
    "server_wait",
]

log = logging.getLogger(__name__)

USER_AGENT = f"commitdigest/{__version__}"


def async_client(
    *,
    headers: Mapping[str, str] | None = None,
    timeout: float = 30.0,
    max_connections: int | None = None,
    follow_redirects: bool = True,
    transport: httpx2.AsyncBaseTransport | None = None,
) -> httpx2.AsyncClient:
    """A client for one remote: ``User-Agent: commitdigest/<version>`` unless ``headers`` set
    another, ``timeout`` seconds per request, at most ``max_connections`` open (and kept
    alive), ``transport`` for tests."""
    import httpx2

    limits = (
        httpx2.Limits(max_connections=max_connections, max_keepalive_connections=max_connections)
        if max_connections is not None
        else httpx2.Limits()
    )
    return httpx2.AsyncClient(
        headers={"User-Agent": USER_AGENT, **(headers or {})},
        timeout=httpx2.Timeout(timeout),
        limits=limits,
        follow_redirects=follow_redirects,
        transport=transport,
    )


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often a failed request is tried, and how long to wait in between.

    ``max_attempts`` counts the first try. After attempt ``n`` the wait is
    ``backoff_initial_s * 2 ** (n - 1)`` up to ``backoff_max_s`` (with ``jitter``, a random
    point in its upper half), or what the server asked for when that is longer (plus a little
    jitter, so a crowd told the same thing does not return as one), at most
    ``retry_after_max_s``. Waits a server asks for with a ``wait`` :class:`Verdict` (a 429)
    are not attempts; one request waits at most ``max_wait_s`` in all for them.
    """

    max_attempts: int = 4
    backoff_initial_s: float = 1.0
    backoff_max_s: float = 30.0
    retry_after_max_s: float = 60.0
    jitter: bool = True
    max_wait_s: float = 300.0

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")

    def backoff(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (1-based)."""
        base = min(self.backoff_max_s, self.backoff_initial_s * 2.0 ** (attempt - 1))
        if self.jitter:
            base = random.uniform(base / 2.0, base)
        if retry_after is None or retry_after <= base:
            return base
        extra = random.uniform(0.0, min(0.1 * retry_after, 1.0)) if self.jitter else 0.0
        return min(retry_after + extra, self.retry_after_max_s)

    def asks_too_much(self, retry_after: float | None) -> bool:
        """Whether the server asked for a longer wait than this policy will make."""
        return retry_after is not None and retry_after > self.retry_after_max_s


def describe_transport_error(exc: BaseException) -> str:
    """``ConnectError: [Errno 111] Connection refused`` — one line, secrets masked."""
    detail = " ".join(str(exc).split())
    name = type(exc).__name__
    return redact(f"{name}: {detail}" if detail else name)


def parse_retry_after(headers: Mapping[str, str] | None) -> float | None:
    """Seconds asked for by ``retry-after-ms`` or ``Retry-After`` (seconds or an HTTP date);
    ``None`` when the headers ask nothing (or ask nonsense: negative, infinite, unparsable).

    ``headers`` is any mapping (``httpx2.Headers`` too); names are matched case-insensitively.
    """
    if headers is None:
        return None
    lowered = {k.lower(): v for k, v in headers.items()}
    ms = _seconds(lowered.get("retry-after-ms"))
    if ms is not None:
        return ms / 1000.0
    raw = lowered.get("retry-after")
    if raw is None:
        return None
    seconds = _seconds(raw)
    if seconds is not None:
        return seconds
    try:
        when = email.utils.parsedate_to_datetime(raw.strip())
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _seconds(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        value = float(text.strip())
    except ValueError:
        return None
    return value if value >= 0 and math.isfinite(value) else None


# ---- what the server asked for -----------------------------------------------------------

_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)\s*(ms|us|µs|ns|h|m|s)", re.IGNORECASE)
_DURATION = re.compile(r"^\s*(?:\d+(?:\.\d+)?\s*(?:ms|us|µs|ns|h|m|s)\s*)+$", re.IGNORECASE)
_UNIT_S = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9}
_BODY_HINT = re.compile(
    r"(?:try\s+again|retry)(?:\s+(?:after|in))?\s+(?:(?P<go>(?:\d+(?:\.\d+)?(?:ms|us|h|m|s))+)\b"
    r"|(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>milliseconds?|seconds?|secs?|minutes?|mins?)\b)",
    re.IGNORECASE,
)


def parse_duration(text: str | None) -> float | None:
    """Seconds in ``"1.2s"``, ``"6m0s"``, ``"20ms"`` (Go durations, as OpenAI's
    ``x-ratelimit-reset-*`` headers write them) or a plain number of seconds; an epoch
    (seconds or milliseconds) becomes the seconds until it; ``None`` for anything else."""
    if text is None:
        return None
    plain = _seconds(text)
    if plain is not None:
        if plain > 1e12:  # epoch milliseconds
            return max(0.0, plain / 1000.0 - time.time())
        if plain > 1e9:  # epoch seconds
            return max(0.0, plain - time.time())
        return plain
    if not _DURATION.match(text):
        return None
    total = sum(float(n) * _UNIT_S[unit.lower()] for n, unit in _DURATION_PART.findall(text))
    return total if math.isfinite(total) else None


def _body_hint(body: str) -> float | None:
    """``"Please try again in 1.2s"``, ``"retry after 20 seconds"``, ``"try again in 6m0s"``."""
    found = _BODY_HINT.search(body)
    if found is None:
        return None
    if found.group("go"):
        return parse_duration(found.group("go"))
    unit = found.group("unit").lower()
    scale = 0.001 if unit.startswith("milli") else 60.0 if unit.startswith("min") else 1.0
    return float(found.group("n")) * scale


def server_wait(headers: Mapping[str, str] | None, body: str | None = None) -> float | None:
    """Seconds the server asked us to wait before trying again, from the first that says:
    ``retry-after-ms`` / ``Retry-After`` (:func:`parse_retry_after`), the reset of a spent
    ``x-ratelimit-reset-<what>`` window (OpenAI, Azure, Groq: ``"1s"``, ``"6m0s"``; the
    windows whose ``x-ratelimit-remaining-<what>`` is 0, else all of them: the longest),
    or the body's words (``"Please try again in 1.2s"``, ``"retry after 20 seconds"``).
    ``None`` when nothing says."""
    asked = parse_retry_after(headers)
    if asked is not None:
        return asked
    lowered = {k.lower(): v for k, v in (headers or {}).items()}
    resets = {
        name.removeprefix("x-ratelimit-reset-"): seconds
        for name, value in lowered.items()
        if name.startswith("x-ratelimit-reset-") and (seconds := parse_duration(value)) is not None
    }
    spent = [s for what, s in resets.items() if lowered.get(f"x-ratelimit-remaining-{what}") == "0"]
    if spent or resets:
        return max(spent or resets.values())
    return _body_hint(body) if body else None


# ---- when the next request may go: concurrency, rate, hold-off ------------------------------

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True)
class Timer:
    """Where the request machinery reads the time and waits: :data:`REAL_TIME`, or a
    test's fake clock and sleep."""

    clock: Clock = time.monotonic
    sleep: Sleep = anyio.sleep


REAL_TIME = Timer()


class RateLimiter:
    """When the next request to one remote may go, shared by every task that calls it.

    * **Concurrency**: at most ``max_concurrency`` requests in flight, served in arrival
      order. With ``adaptive`` (the default) the cap follows the server: an overloaded answer
      (429, 503: :meth:`overloaded`) halves it, at most once per ``cooldown_s``; each
      success (:meth:`succeeded`) adds ``1 / cap`` back, so it climbs one per round trip to
      ``max_concurrency`` again (additive increase, multiplicative decrease).
    * **Rate**: ``requests_per_minute``, a token bucket of ``burst`` tokens (default 1:
      evenly spaced); a caller who finds it empty reserves the next token and sleeps until
      it is due, so waiters keep their order and nobody polls.
    * **Hold-off**: :meth:`hold_off` (a server said "come back in N s") makes every slot
      taken before that moment wait it out: the workers back off together instead of each
      hitting the limit once more.

    A ``priority`` slot (a hedged twin of a slow request) skips the concurrency queue but
    waits out a hold-off like every other. Everything uses anyio primitives.
    """

    def __init__(
        self,
        max_concurrency: int = 4,
        requests_per_minute: float | None = None,
        *,
        burst: int = 1,
        adaptive: bool = True,
        cooldown_s: float = 1.0,
        timer: Timer = REAL_TIME,
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
        self.adaptive = adaptive
        self.cooldown_s = cooldown_s
        self._clock = clock = timer.clock
        self._sleep = timer.sleep
        self._cap = float(max_concurrency)
        self._decreased_at = -math.inf
        self._waiters: deque[anyio.Event] = deque()
        self._lock = anyio.Lock()
        self._tokens = float(burst)
        self._refilled_at = clock()
        self._not_before = 0.0
        self.in_flight = 0
        self.max_in_flight = 0
        self.decreases = 0  # times the cap was halved

    def __repr__(self) -> str:
        return (
            f"RateLimiter(max_concurrency={self.max_concurrency}, "
            f"requests_per_minute={self.requests_per_minute}, burst={self.burst})"
        )

    @property
    def cap(self) -> int:
        """How many requests may be in flight now (``max_concurrency`` unless backed off)."""
        return max(1, int(self._cap))

    def hold_off(self, seconds: float) -> None:
        """Make slots taken during the next ``seconds`` wait until that time has passed."""
        if seconds > 0 and math.isfinite(seconds):
            self._not_before = max(self._not_before, self._clock() + seconds)

    def overloaded(self) -> None:
        """The server said it is overloaded: halve the cap (once per cool-down)."""
        now = self._clock()
        if not self.adaptive or now - self._decreased_at < self.cooldown_s:
            return
        self._decreased_at = now
        if self._cap > 1:
            self._cap = max(1.0, self._cap / 2.0)
            self.decreases += 1

    def succeeded(self) -> None:
        """A request succeeded: climb back towards ``max_concurrency``."""
        if self._cap < self.max_concurrency:
            self._cap = min(float(self.max_concurrency), self._cap + 1.0 / self._cap)
            self._grant()

    @asynccontextmanager
    async def slot(self, *, priority: bool = False) -> AsyncIterator[None]:
        """Hold one concurrency slot (and one rate token) for the duration of the block."""
        await self.acquire(priority=priority)
        try:
            yield
        finally:
            self.release()

    async def acquire(self, *, priority: bool = False) -> None:
        """Take a slot (:meth:`slot` without the block): wait for the concurrency, the
        hold-off and the rate; :meth:`release` gives it back."""
        if priority:
            self._enter()
        else:
            await self._acquire()
        try:
            await self._wait_hold_off()
            await self._take_token()
        except BaseException:
            self.release()
            raise

    def release(self) -> None:
        self.in_flight -= 1
        self._grant()

    def _enter(self) -> None:
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)

    async def _acquire(self) -> None:
        if not self._waiters and self.in_flight < self.cap:
            self._enter()
            return
        granted = anyio.Event()
        self._waiters.append(granted)
        try:
            await granted.wait()
        except BaseException:
            if granted.is_set():  # granted as we were cancelled: give the slot back
                self.in_flight -= 1
                self._grant()
            else:
                self._waiters.remove(granted)
            raise

    def _grant(self) -> None:
        while self._waiters and self.in_flight < self.cap:
            self._enter()
            self._waiters.popleft().set()

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


# ---- hedging: a slow request gets a twin --------------------------------------------------


@dataclass(kw_only=True, eq=False)
class Hedging:
    """When a request that is taking too long gets an identical twin (the first good answer
    wins, the other is cancelled): after ``factor`` times the median latency of the last
    ``window`` successes, at least ``min_delay_s`` — ``initial_delay_s`` while no latency
    is known (``None``: no twin until one is), or ``fixed_delay_s`` when given (for a
    request unlike the others, such as a probe). Twins stay within ``share`` of the requests
    started, and at least ``floor`` are allowed, so a few hung requests cost seconds, not
    their time-out, and a healthy run pays next to nothing."""

    factor: float = 3.0
    min_delay_s: float = 0.5
    share: float = 0.05
    floor: int = 4
    window: int = 64
    fixed_delay_s: float | None = None
    initial_delay_s: float | None = None
    requests: int = field(default=0, init=False)  # first tries started
    hedged: int = field(default=0, init=False)  # twins started
    won: int = field(default=0, init=False)  # twins that answered first

    def __post_init__(self) -> None:
        self._latencies: deque[float] = deque(maxlen=self.window)

    def observe(self, latency_s: float) -> None:
        self._latencies.append(latency_s)

    def delay(self) -> float | None:
        """Seconds after which a request gets its twin; ``None`` until a latency is known."""
        if self.fixed_delay_s is not None:
            return self.fixed_delay_s
        if not self._latencies:
            return self.initial_delay_s
        return max(self.min_delay_s, self.factor * statistics.median(self._latencies))

    def allowed(self) -> bool:
        return self.hedged < max(self.floor, math.ceil(self.share * self.requests))


# ---- the one retry loop ---------------------------------------------------------------------

R = TypeVar("R")
VerdictKind = Literal["done", "retry", "wait", "stop"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """What one answer (or transport error) means, as the service that sent it judges:

    * ``done``: a good answer, return it;
    * ``retry``: a transient failure (5xx, time-out, dropped connection, malformed body):
      try again after the backoff (or ``wait_s``, the server's word, if longer); counts as
      an attempt;
    * ``wait``: the server asked us to come back later (429, a 503 that says when):
      everybody holds off ``wait_s`` (our backoff when it gave no time); not an attempt,
      but the waits of one request stay within :attr:`RetryPolicy.max_wait_s`;
    * ``stop``: trying again will not help (a 4xx): return it to the caller.

    ``reason`` is a few words for logs and errors (``HTTP 500``, ``timeout``);
    ``overloaded`` tells the :class:`RateLimiter` to back off; ``quick``: the server
    answered at once, only not usably (a malformed body): try again without the backoff.
    """

    kind: VerdictKind
    reason: str = ""
    wait_s: float | None = None
    overloaded: bool = False
    quick: bool = False


DONE = Verdict("done")


@dataclass
class Tried(Generic[R]):
    """How :func:`send_with_retry` ended: the last verdict, with the answer or error it
    judged; ``failures`` the reasons of the attempts that failed (waits not included)."""

    verdict: Verdict
    value: R | None = None
    error: BaseException | None = None
    attempts: int = 0
    failures: list[str] = field(default_factory=list)
    waits: int = 0
    waited_s: float = 0.0
    hedges: int = 0  # twins started for this request
    latency_s: float | None = None  # of the try that answered

    @property
    def ok(self) -> bool:
        return self.verdict.kind == "done"


Classify = Callable[["R | None", "BaseException | None"], Verdict]


async def send_with_retry(
    send: Callable[[], Awaitable[R]],
    classify: Callable[[R | None, BaseException | None], Verdict],
    *,
    policy: RetryPolicy,
    limiter: RateLimiter | None = None,
    hedging: Hedging | None = None,
    label: str = "request",
    timer: Timer = REAL_TIME,
) -> Tried[R]:
    """The one retry loop of every remote: ``send`` (one HTTP exchange: its answer, or an
    exception) until ``classify`` calls an answer ``done`` or ``stop``, the attempts are
    spent, or the server's waits would exceed ``policy.max_wait_s``. ``classify`` may raise
    (an error that ends everything, such as a refused key). Each try holds a ``limiter``
    slot; with ``hedging`` a try slower than :meth:`Hedging.delay` gets a twin. Returns a
    :class:`Tried`; the caller turns a failure into its own error."""
    sleep, clock = timer.sleep, timer.clock
    attempts = waits = hedges = 0
    waited = 0.0
    failures: list[str] = []
    while True:
        verdict, value, error, latency, twins = await _attempt(
            send, classify, limiter, hedging, clock
        )
        hedges += twins
        result = Tried(verdict, value, error, attempts, failures, waits, waited, hedges, latency)
        if limiter is not None:
            if verdict.kind == "done":
                limiter.succeeded()
            elif verdict.overloaded:
                limiter.overloaded()
        if verdict.kind in ("done", "stop"):
            result.attempts = attempts + 1
            return result
        if verdict.kind == "wait":
            waits += 1
            asked = verdict.wait_s
            delay = (
                min(asked, policy.retry_after_max_s) if asked is not None else policy.backoff(waits)
            )
            if waited + delay > policy.max_wait_s:
                failures.append(f"{verdict.reason} (asked to wait {delay:.1f} s more)")
                result.attempts = attempts + 1
                return result
            waited += delay
            extra = random.uniform(0.0, min(0.1 * delay, 0.5)) if policy.jitter else 0.0
            log.info("%s: %s; waiting %.2f s (not counted as an attempt)", label, verdict.reason,
                     delay + extra)  # fmt: skip
            if limiter is not None:
                limiter.hold_off(delay + extra)  # everybody waits, then we go again
            else:
                await sleep(delay + extra)
            continue
        attempts += 1
        failures.append(verdict.reason)
        if attempts >= policy.max_attempts or policy.asks_too_much(verdict.wait_s):
            result.attempts = attempts
            return result
        delay = QUICK_RETRY_S if verdict.quick else policy.backoff(attempts, verdict.wait_s)
        msg = "%s failed (%s, attempt %d of %d); retrying in %.2f s"
        log.info(msg, label, verdict.reason, attempts, policy.max_attempts, delay)
        await sleep(delay)


QUICK_RETRY_S = 0.05  # before trying again after a quick, unusable answer
_POLL_S = 0.1  # how often a request that may get a twin looks at its clock
MAX_TWINS = 2  # a twin that is slow too gets one more, budget allowing
ABANDON = 2  # then, when the last try is this many hedge delays slow, the attempt is given up


async def _attempt(
    send: Callable[[], Awaitable[R]],
    classify: Callable[[R | None, BaseException | None], Verdict],
    limiter: RateLimiter | None,
    hedging: Hedging | None,
    clock: Clock,
) -> tuple[Verdict, R | None, BaseException | None, float | None, int]:
    """One attempt: a try and, when it is slow, its twin. The first ``done`` wins; when
    every try failed, the last one's verdict."""

    began: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def one(started: list[float], priority: bool) -> R:
        if limiter is None:
            started.append(clock())
        else:
            await limiter.acquire(priority=priority)
            started.append(clock())
        if not began.done():
            began.set_result(None)
        try:
            return await send()
        finally:
            if limiter is not None:
                limiter.release()

    if hedging is not None:
        hedging.requests += 1
    first: list[float] = []
    tasks: dict[asyncio.Future[R], list[float]] = {asyncio.ensure_future(one(first, False)): first}
    twins = 0
    newest = first  # the try started last: a twin goes when it, too, is slow
    may_twin = hedging is not None
    last: tuple[Verdict, R | None, BaseException | None] = (
        Verdict("retry", "no answer"),
        None,
        None,
    )
    try:
        while tasks:
            delay = hedging.delay() if hedging is not None and may_twin else None
            timeout = None
            waiting: set[asyncio.Future[Any]] = set(tasks)
            if may_twin and not first:
                waiting.add(began)  # wake when it is sent, to start the clock
            elif may_twin:  # look again at most every _POLL_S: the delay falls as latencies come
                due = newest[0] + delay - clock() if delay is not None and newest else _POLL_S
                timeout = min(max(0.0, due), _POLL_S)
            done = {
                t
                for t in (
                    await asyncio.wait(
                        waiting, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
                    )
                )[0]
                if t in tasks
            }
            if not done:
                slow = delay is not None and newest and clock() - newest[0] >= delay
                if hedging is not None and slow and twins < MAX_TWINS and hedging.allowed():
                    twins += 1
                    hedging.hedged += 1
                    log.info("a request is slower than %.2f s: sending its twin", delay)
                    newest = []
                    tasks[asyncio.ensure_future(one(newest, True))] = newest
                elif slow and delay is not None and clock() - newest[0] >= ABANDON * delay:
                    # no twin left, and the last one hangs too: give up this attempt
                    return Verdict("retry", "timeout"), None, None, None, twins
                continue
            for task in done:
                started = tasks.pop(task)
                error = task.exception()
                value = None if error is not None else task.result()
                verdict = classify(value, error)
                if verdict.kind == "done":
                    latency = clock() - started[0] if started else None
                    if hedging is not None and latency is not None:
                        hedging.observe(latency)
                        hedging.won += started is not first
                    return verdict, value, error, latency, twins
                last = (verdict, value, error)
                if started is not first:  # the twin failed: leave the slow one, try afresh
                    return (*last, None, twins)
        return (*last, None, twins)
    finally:
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
