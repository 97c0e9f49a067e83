"""The one retry loop of every remote (commitdigest.http): what a server asks for, waits that
are not attempts, the limiter that backs off and recovers, twins of slow requests."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from commitdigest.http import (
    DONE,
    Hedging,
    RateLimiter,
    RetryPolicy,
    Verdict,
    parse_duration,
    send_with_retry,
    server_wait,
)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("1s", 1.0), ("6m0s", 360.0), ("20ms", 0.02), ("1.5s", 1.5), ("1h2m3s", 3723.0),
     ("7", 7.0), ("0.25", 0.25), ("soon", None), ("", None), (None, None)],
)  # fmt: skip
def test_durations_as_the_rate_limit_headers_write_them(
    text: str | None, seconds: float | None
) -> None:
    assert parse_duration(text) == (pytest.approx(seconds) if seconds is not None else None)


def test_an_epoch_is_the_time_until_it() -> None:
    later = parse_duration(str(int(time.time()) + 30))
    assert later is not None and 25 <= later <= 31
    in_ms = parse_duration(str(int((time.time() + 30) * 1000)))
    assert in_ms is not None and 25 <= in_ms <= 31


@pytest.mark.parametrize(
    ("headers", "body", "seconds"),
    [
        ({"Retry-After": "3"}, None, 3.0),
        ({"retry-after-ms": "250", "x-ratelimit-reset-requests": "9s"}, None, 0.25),
        (  # the spent window's reset, not the other one's
            {
                "x-ratelimit-remaining-requests": "0",
                "x-ratelimit-reset-requests": "1.2s",
                "x-ratelimit-remaining-tokens": "5000",
                "x-ratelimit-reset-tokens": "6m0s",
            },
            None,
            1.2,
        ),
        ({"x-ratelimit-reset-tokens": "20ms", "x-ratelimit-reset-requests": "2s"}, None, 2.0),
        ({}, "Rate limit reached. Please try again in 1.2s. Visit …", 1.2),
        ({}, "Please try again in 20ms.", 0.02),
        ({}, "Requests to the API have exceeded the limit. Please retry after 20 seconds.", 20.0),
        ({}, "Please try again in 6m0s.", 360.0),
        ({}, "Please try again later.", None),
        (None, None, None),
    ],
)
def test_what_the_server_asks_for(
    headers: dict[str, str] | None, body: str | None, seconds: float | None
) -> None:
    asked = server_wait(headers, body)
    assert asked == (pytest.approx(seconds) if seconds is not None else None)


# ---- the loop ------------------------------------------------------------------------------


class Script:
    """``send`` answers with the next item (an exception is raised); ``classify`` maps an
    item to its verdict."""

    def __init__(self, *items: Any, delays: dict[int, float] | None = None) -> None:
        self.items = list(items)
        self.sent = 0
        self.delays = delays or {}

    async def send(self) -> Any:
        index = self.sent
        self.sent += 1
        await asyncio.sleep(self.delays.get(index, 0.0))
        item = self.items[min(index, len(self.items) - 1)]
        if isinstance(item, BaseException):
            raise item
        return item

    @staticmethod
    def classify(value: Any, error: BaseException | None) -> Verdict:
        if error is not None:
            return Verdict("retry", "connection error")
        if value == "ok":
            return DONE
        if value == "429":
            return Verdict("wait", "HTTP 429", 0.05, overloaded=True)
        if value == "400":
            return Verdict("stop", "HTTP 400")
        return Verdict("retry", f"HTTP {value}")


FAST = RetryPolicy(max_attempts=3, backoff_initial_s=0.01, backoff_max_s=0.02, jitter=False)


def run(script: Script, **kw: Any) -> Any:
    kw.setdefault("policy", FAST)
    return asyncio.run(send_with_retry(script.send, script.classify, **kw))


def test_waits_the_server_asked_for_are_not_attempts() -> None:
    script = Script("429", "429", "429", "429", "500", "ok")
    tried = run(script)
    assert tried.ok and tried.waits == 4 and tried.attempts == 2
    assert tried.failures == ["HTTP 500"] and script.sent == 6


def test_the_waits_of_one_request_are_bounded_in_total() -> None:
    policy = RetryPolicy(max_attempts=3, backoff_initial_s=0.01, max_wait_s=0.12, jitter=False)
    tried = run(Script("429"), policy=policy)
    assert not tried.ok and tried.waits == 2  # a third 0.05 s would exceed 0.12 s
    assert "asked to wait" in tried.failures[-1]


def test_attempts_are_spent_on_failures_and_a_stop_ends_at_once() -> None:
    tried = run(Script("500", "502", "503", "ok"))
    assert (
        not tried.ok
        and tried.attempts == 3
        and tried.failures == ["HTTP 500", "HTTP 502", "HTTP 503"]
    )
    stopped = run(Script("500", "400", "ok"))
    assert stopped.verdict.kind == "stop" and stopped.attempts == 2 and stopped.value == "400"


def test_a_wait_holds_off_every_worker_and_halves_the_concurrency() -> None:
    limiter = RateLimiter(max_concurrency=8, cooldown_s=10.0)

    async def main() -> list[float]:
        started: list[float] = []
        first = Script("429", "ok")
        await send_with_retry(first.send, first.classify, policy=FAST, limiter=limiter)
        assert limiter.cap == 4 and limiter.decreases == 1  # halved once, not per 429

        async def other() -> None:
            async with limiter.slot():
                started.append(time.monotonic())

        limiter.hold_off(0.1)
        clock = time.monotonic()
        await asyncio.gather(*(other() for _ in range(3)))
        return [t - clock for t in started]

    offsets = asyncio.run(main())
    assert all(t >= 0.09 for t in offsets)  # the hold-off applied to everybody


def test_the_cap_halves_on_overload_and_climbs_back_one_per_round() -> None:
    limiter = RateLimiter(max_concurrency=8, cooldown_s=0.0)
    limiter.overloaded()
    limiter.overloaded()
    assert limiter.cap == 2
    for _ in range(3):  # +1/cap per success: about one per round of `cap` successes
        limiter.succeeded()
    assert limiter.cap == 3
    for _ in range(50):
        limiter.succeeded()
    assert limiter.cap == 8
    assert RateLimiter(max_concurrency=1).cap == 1


def test_a_slow_request_gets_a_twin_and_the_first_answer_wins() -> None:
    hedging = Hedging(factor=3.0, min_delay_s=0.05)
    for _ in range(5):
        hedging.observe(0.02)
    script = Script("ok", "ok", delays={0: 5.0, 1: 0.01})  # the first hangs
    clock = time.monotonic()
    tried = run(script, hedging=hedging, limiter=RateLimiter(max_concurrency=1))
    assert tried.ok and tried.hedges == 1 and hedging.won == 1
    assert time.monotonic() - clock < 1.0  # not the 5 s of the hung one


def test_twins_stay_within_their_budget() -> None:
    hedging = Hedging(min_delay_s=0.02, floor=1, share=0.0)
    hedging.observe(0.001)

    async def main() -> list[int]:
        hedged = []
        for _ in range(3):
            script = Script("ok", "ok", delays={0: 0.1, 1: 0.0})
            tried = await send_with_retry(
                script.send, script.classify, policy=FAST, hedging=hedging
            )
            hedged.append(tried.hedges)
        return hedged

    assert asyncio.run(main()) == [1, 0, 0]


def test_a_failed_twin_leaves_the_slow_try_and_the_loop_tries_afresh() -> None:
    hedging = Hedging(min_delay_s=0.05)
    hedging.observe(0.01)
    script = Script("ok", "500", "ok", delays={0: 5.0})
    clock = time.monotonic()
    tried = run(script, hedging=hedging)
    assert tried.ok and tried.attempts == 2 and time.monotonic() - clock < 1.0


def test_no_twin_before_a_latency_is_known_unless_told() -> None:
    assert Hedging().delay() is None
    assert Hedging(initial_delay_s=7.0).delay() == 7.0
    assert Hedging(fixed_delay_s=2.0).delay() == 2.0
    hedging = Hedging(factor=3.0, min_delay_s=0.5)
    for latency in (0.2, 0.3, 0.4):
        hedging.observe(latency)
    assert hedging.delay() == pytest.approx(0.9)


def test_a_cancelled_request_cancels_its_tries_and_frees_its_slot() -> None:
    limiter = RateLimiter(max_concurrency=1)

    async def main() -> None:
        script = Script("ok", delays={0: 10.0})
        task = asyncio.ensure_future(
            send_with_retry(script.send, script.classify, policy=FAST, limiter=limiter)
        )
        await asyncio.sleep(0.05)
        assert limiter.in_flight == 1
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert limiter.in_flight == 0

    asyncio.run(main())
