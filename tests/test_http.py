"""One Retry-After reading for every remote (GitHub, chat senders, the LLM's rate limiter)."""

from __future__ import annotations

import email.utils
import time

import httpx2
import pytest

from commitdigest.http import parse_retry_after


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"Retry-After": "7"}, 7.0),
        ({"retry-after": " 2.5 "}, 2.5),
        ({"Retry-After-Ms": "1500", "Retry-After": "9"}, 1.5),
        ({"Retry-After": "-3"}, None),
        ({"Retry-After": "inf"}, None),
        ({"Retry-After": "soon"}, None),
        ({}, None),
        (None, None),
    ],
)
def test_seconds_and_junk(headers: dict[str, str] | None, expected: float | None) -> None:
    assert parse_retry_after(headers) == expected


def test_an_http_date_gives_the_seconds_until_it() -> None:
    later = email.utils.formatdate(time.time() + 30, usegmt=True)
    waited = parse_retry_after(httpx2.Headers({"Retry-After": later}))
    assert waited is not None and 25 <= waited <= 31
    past = email.utils.formatdate(time.time() - 300, usegmt=True)
    assert parse_retry_after({"Retry-After": past}) == 0.0


def test_every_remote_reads_it_the_same_way() -> None:
    from commitdigest.analysis.llm import ratelimit
    from commitdigest.deliver import channels

    assert ratelimit.parse_retry_after is parse_retry_after
    response = httpx2.Response(429, headers={"Retry-After": "4"})
    assert channels.retry_after(response) == 4.0
    body = httpx2.Response(429, json={"parameters": {"retry_after": 3}})
    assert channels.retry_after(body) == 3.0
