"""One Retry-After reading for every remote (GitHub, chat senders, the LLM's rate limiter)."""

from __future__ import annotations

import email.utils
import time

import httpx2
import pytest
from fake_receivers import channel_config

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


# ---- one client factory, one retry policy -------------------------------------------------


def test_every_client_comes_from_the_factory_with_a_transport_hook() -> None:
    import anyio

    from commitdigest import __version__
    from commitdigest.http import USER_AGENT, async_client

    seen: list[httpx2.Request] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        seen.append(request)
        return httpx2.Response(200, json={"ok": True})

    async def main() -> int:
        client = async_client(headers={"X-Extra": "1"}, transport=httpx2.MockTransport(handler))
        async with client:
            return (await client.get("https://example.invalid/x")).status_code

    assert anyio.run(main) == 200
    assert seen[0].headers["user-agent"] == USER_AGENT == f"commitdigest/{__version__}"
    assert seen[0].headers["x-extra"] == "1"


def test_no_module_builds_its_own_http_client() -> None:
    from pathlib import Path

    import commitdigest

    root = Path(commitdigest.__file__).parent
    builders = [
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if path.name != "http.py" and "AsyncClient(" in path.read_text(encoding="utf-8")
    ]
    assert builders == []


def test_retry_policy_backoff_retry_after_and_cap() -> None:
    from commitdigest.http import RetryPolicy

    exact = RetryPolicy(
        max_attempts=5, backoff_initial_s=1, backoff_max_s=5, retry_after_max_s=30, jitter=False
    )
    assert [exact.backoff(n) for n in range(1, 6)] == [1, 2, 4, 5, 5]
    assert exact.backoff(1, 7.0) == 7.0  # the server asked for longer
    assert exact.backoff(3, 2.0) == 4.0  # never shorter than the backoff
    assert exact.backoff(1, 100.0) == 30.0 and exact.asks_too_much(100.0)
    assert not exact.asks_too_much(None) and not exact.asks_too_much(30.0)
    jittered = RetryPolicy(backoff_initial_s=4, backoff_max_s=4)
    waits = {jittered.backoff(1) for _ in range(20)}
    assert all(2.0 <= w <= 4.0 for w in waits) and len(waits) > 1
    with pytest.raises(ValueError):
        RetryPolicy(max_attempts=0)


def test_the_remotes_share_the_policy() -> None:
    from commitdigest.analysis.llm import ratelimit
    from commitdigest.deliver.service import retry_policy
    from commitdigest.http import RetryPolicy
    from commitdigest.sources.github_api import GitHubAPI, GitHubLimits

    assert ratelimit.RetryPolicy is RetryPolicy
    config = channel_config(name="s", type="slack", url_env="SLACK_URL", max_attempts=3)
    policy = retry_policy(config)
    assert (policy.max_attempts, policy.jitter) == (3, False)
    assert policy.backoff_initial_s == config.backoff_s
    api = GitHubAPI("https://api.github.com", limits=GitHubLimits(max_retries=2, retry_base=0.5))
    assert isinstance(api.retry, RetryPolicy) and api.retry.max_attempts == 3


def test_transport_errors_are_one_line_and_masked() -> None:
    from commitdigest.http import describe_transport_error
    from commitdigest.redaction import register_secret

    register_secret("https://hooks.example.invalid/T0/B0/secret-part-123456")
    err = httpx2.ConnectError(
        "cannot connect to\nhttps://hooks.example.invalid/T0/B0/secret-part-123456"
    )
    text = describe_transport_error(err)
    assert text == "ConnectError: cannot connect to ***"
    assert "\n" not in text and "secret-part-123456" not in text
    assert describe_transport_error(httpx2.ReadTimeout("")) == "ReadTimeout"
