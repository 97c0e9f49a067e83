"""The chat client against the fake OpenAI-compatible server, through the real ``openai`` SDK."""

from __future__ import annotations

import itertools
import logging
import time
import traceback
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import Any

import anyio
import pytest
from fake_openai import (
    Answer,
    Drop,
    Fail,
    FakeOpenAI,
    Hang,
    RawReply,
    RecordedRequest,
    answer,
    context_length_exceeded,
    empty_body,
    rate_limited,
    reject_response_format,
    serve_fake_openai,
    server_error,
    unauthorized,
)

from commitdigest.analysis.llm.client import (
    ChatRequest,
    ChatResult,
    ClientOptions,
    ContextLengthError,
    Endpoint,
    LLMAuthError,
    LLMEndpointError,
    LLMRequestError,
    LLMUnavailableError,
    OpenAIChatClient,
    ScriptedChatClient,
    StructuredMode,
    TokenUsage,
)
from commitdigest.analysis.llm.ratelimit import RateLimiter, RetryPolicy, parse_retry_after
from commitdigest.http import Timer

pytestmark = pytest.mark.anyio

KEY = "sk-test-VERYSECRET-0123456789abcdef"
SCHEMA: dict[str, Any] = {
    "title": "Commit Analysis",
    "type": "object",
    "properties": {"summary": {"type": "string"}, "importance": {"type": "string"}},
    "required": ["summary"],
}


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    # the installed trio is too old for this anyio; the app runs on asyncio anyway
    return "asyncio"


FAST = RetryPolicy(
    max_attempts=3, backoff_initial_s=0.01, backoff_max_s=0.02, retry_after_max_s=2.0
)


def request(**overrides: Any) -> ChatRequest:
    fields: dict[str, Any] = {
        "messages": [
            {"role": "system", "content": "You analyse commits."},
            {"role": "user", "content": "commit abc123: fix typo"},
        ],
        "model": "test-model",
        "max_tokens": 256,
        "temperature": 0.1,
        "json_schema": SCHEMA,
        "schema_name": "Commit Analysis",
    }
    fields.update(overrides)
    return ChatRequest(**fields)


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    yield from serve_fake_openai()


@pytest.fixture
async def client(fake_openai: FakeOpenAI) -> AsyncIterator[OpenAIChatClient]:
    async with OpenAIChatClient(
        Endpoint(fake_openai.base_url, KEY), ClientOptions(timeout=2.0, retry=FAST, probe=False)
    ) as c:
        yield c


def make_client(
    server: FakeOpenAI, *, limiter: RateLimiter | None = None, **kw: Any
) -> OpenAIChatClient:
    """A client of ``server``; ``kw``: :class:`ClientOptions` fields."""
    options = ClientOptions(**{"timeout": 2.0, "retry": FAST, "probe": False, **kw})
    return OpenAIChatClient(Endpoint(server.base_url, KEY), options, limiter=limiter)


# --------------------------------------------------------------------------- happy path


async def test_normal_call_sends_json_schema_and_parses_the_reply(
    fake_openai: FakeOpenAI, client: OpenAIChatClient
) -> None:
    fake_openai.push(answer({"summary": "fixes a typo"}, usage=(120, 30)))
    result = await client.complete(request())

    assert result.text == '{"summary": "fixes a typo"}'
    assert result.finish_reason == "stop"
    assert result.usage == TokenUsage(120, 30, 150)
    assert result.mode is StructuredMode.JSON_SCHEMA
    assert result.request_id == "req-fake-0"
    assert result.attempts == 1
    assert result.latency_s is not None and 0 <= result.latency_s < 2

    (sent,) = fake_openai.chat_requests
    assert sent.path == "/v1/chat/completions"
    assert sent.headers["authorization"] == f"Bearer {KEY}"
    body = sent.body
    assert body["model"] == "test-model"
    assert body["max_tokens"] == 256
    assert body["temperature"] == 0.1
    assert body["messages"] == request().messages  # untouched in json_schema mode
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "Commit_Analysis", "schema": SCHEMA, "strict": False},
    }


async def test_extra_body_is_forwarded(fake_openai: FakeOpenAI, client: OpenAIChatClient) -> None:
    extra = {"chat_template_kwargs": {"enable_thinking": False}, "top_k": 20}
    await client.complete(request(extra_body=extra))
    body = fake_openai.chat_requests[0].body
    assert body["chat_template_kwargs"] == {"enable_thinking": False}
    assert body["top_k"] == 20


async def test_request_without_schema_is_plain_text(
    fake_openai: FakeOpenAI, client: OpenAIChatClient
) -> None:
    result = await client.complete(request(json_schema=None, max_tokens=None, temperature=None))
    assert result.mode is StructuredMode.TEXT
    body = fake_openai.chat_requests[0].body
    assert "response_format" not in body
    assert "max_tokens" not in body and "temperature" not in body


async def test_usage_absent_or_partial(fake_openai: FakeOpenAI, client: OpenAIChatClient) -> None:
    fake_openai.push(
        Answer("a", usage=None),
        Answer("b", usage={"prompt_tokens": 5, "completion_tokens": 2}),
        Answer(None, finish_reason="length"),
    )
    assert (await client.complete(request())).usage is None
    assert (await client.complete(request())).usage == TokenUsage(5, 2, 7)
    empty = await client.complete(request())
    assert (empty.text, empty.finish_reason) == ("", "length")


# --------------------------------------------------------------------------- mode fallback


def rejecting(*kinds: str, style: str = "deepseek") -> Callable[[RecordedRequest], Any]:
    def handler(req: RecordedRequest) -> Any:
        if req.response_format_type in kinds:
            return reject_response_format(req.response_format_type or "", style=style)
        return answer({"summary": f"answered in {req.response_format_type or 'text'}"})

    return handler


async def test_falls_back_to_json_object_and_remembers(
    fake_openai: FakeOpenAI, client: OpenAIChatClient
) -> None:
    fake_openai.handler = rejecting("json_schema")
    first = await client.complete(request())
    assert first.mode is StructuredMode.JSON_OBJECT
    assert [r.response_format_type for r in fake_openai.chat_requests] == [
        "json_schema",
        "json_object",
    ]
    system = fake_openai.chat_requests[1].body["messages"][0]
    assert system["role"] == "system"
    assert system["content"].startswith("You analyse commits.")
    assert "JSON" in system["content"] and '"summary"' in system["content"]

    second = await client.complete(request())
    assert second.mode is StructuredMode.JSON_OBJECT
    assert len(fake_openai.chat_requests) == 3  # straight to the working mode
    assert client.mode_for("test-model") is StructuredMode.JSON_OBJECT
    assert client.mode_for("other-model") is StructuredMode.JSON_SCHEMA


async def test_falls_back_to_text_when_both_formats_are_rejected(
    fake_openai: FakeOpenAI, client: OpenAIChatClient
) -> None:
    fake_openai.handler = rejecting("json_schema", "json_object", style="vllm")
    result = await client.complete(request(messages=[{"role": "user", "content": "hi"}]))
    assert result.mode is StructuredMode.TEXT
    assert result.text == '{"summary": "answered in text"}'
    last = fake_openai.chat_requests[-1].body
    assert "response_format" not in last
    assert last["messages"][0]["role"] == "system"  # schema added as a system message
    assert '"required":["summary"]' in last["messages"][0]["content"]

    await client.complete(request())
    assert [r.response_format_type for r in fake_openai.chat_requests] == [
        "json_schema",
        "json_object",
        None,
        None,
    ]


async def test_other_400_is_not_taken_for_a_mode_rejection(
    fake_openai: FakeOpenAI, client: OpenAIChatClient
) -> None:
    fake_openai.push(Fail(404, "The model `nope` does not exist", code="model_not_found"))
    with pytest.raises(LLMEndpointError, match=r"HTTP 404.*does not exist.*llm\.model") as info:
        await client.complete(request(model="nope"))  # every request would meet it: stop
    assert info.value.status_code == 404
    assert len(fake_openai.chat_requests) == 1
    assert client.mode_for("nope") is StructuredMode.JSON_SCHEMA


async def test_a_400_after_the_endpoint_answered_is_one_request_refused(
    fake_openai: FakeOpenAI, client: OpenAIChatClient
) -> None:
    await client.complete(request())  # the endpoint is learnt
    fake_openai.push(Fail(400, "content rejected by the moderation filter"))
    with pytest.raises(LLMRequestError, match=r"HTTP 400.*moderation") as info:
        await client.complete(request())
    assert not isinstance(info.value, LLMEndpointError) and info.value.status_code == 400
    assert len(fake_openai.chat_requests) == 2


@pytest.mark.parametrize(
    ("failure", "wording"),
    [
        (context_length_exceeded(), "maximum context length is 8192"),
        (  # vLLM: no {"error": …} wrapper
            Fail(
                400, body={"object": "error", "message": "max_tokens must be at least 1, got -5."}
            ),
            "got -5",
        ),
        (  # SGLang
            Fail(400, "The input (9000 tokens) is longer than the model's context length (8192)."),
            "input \\(9000 tokens\\)",
        ),
    ],
)
async def test_context_length_raises_a_distinct_error(
    fake_openai: FakeOpenAI, client: OpenAIChatClient, failure: Fail, wording: str
) -> None:
    fake_openai.push(failure)
    with pytest.raises(ContextLengthError, match=wording):
        await client.complete(request())
    assert len(fake_openai.chat_requests) == 1
    assert client.mode_for("test-model") is StructuredMode.JSON_SCHEMA


async def test_switches_to_max_completion_tokens_when_asked(
    fake_openai: FakeOpenAI, client: OpenAIChatClient
) -> None:
    def handler(req: RecordedRequest) -> Any:
        if "max_tokens" in req.body:
            return Fail(
                400,
                "Unsupported parameter: 'max_tokens' is not supported with this model. "
                "Use 'max_completion_tokens' instead.",
                code="unsupported_parameter",
            )
        return answer({"summary": "ok"})

    fake_openai.handler = handler
    await client.complete(request())
    await client.complete(request())
    bodies = [r.body for r in fake_openai.chat_requests]
    assert len(bodies) == 3
    assert bodies[-1]["max_completion_tokens"] == 256 and "max_tokens" not in bodies[-1]


# --------------------------------------------------------------------------- retries


async def test_429_retry_after_is_honoured(
    fake_openai: FakeOpenAI, client: OpenAIChatClient
) -> None:
    fake_openai.push(rate_limited(0.3), answer({"summary": "ok"}))
    result = await client.complete(request())
    assert result.attempts == 1  # a wait the server asked for is not an attempt
    first, second = fake_openai.chat_requests
    waited = second.time - first.time
    assert 0.3 <= waited < 0.3 + 0.5  # backoff alone would be ~0.01 s


async def test_429_retry_after_ms_and_cap(fake_openai: FakeOpenAI) -> None:
    policy = RetryPolicy(max_attempts=3, backoff_initial_s=0.01, retry_after_max_s=0.25)
    async with make_client(fake_openai, retry=policy) as client:
        fake_openai.push(rate_limited(None, retry_after_ms=200), rate_limited(30), answer("{}"))
        await client.complete(request())
    t = [r.time for r in fake_openai.chat_requests]
    assert 0.2 <= t[1] - t[0] < 0.6
    assert 0.25 <= t[2] - t[1] < 0.6  # "30 s" capped at 0.25 s


def test_parse_retry_after_forms() -> None:
    assert parse_retry_after({"Retry-After": "3"}) == 3.0
    assert parse_retry_after({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    assert parse_retry_after({"Retry-After": "soon"}) is None
    assert parse_retry_after({}) is None and parse_retry_after(None) is None
    when = format_datetime(datetime.now(UTC) + timedelta(seconds=20), usegmt=True)
    seconds = parse_retry_after({"Retry-After": when})
    assert seconds is not None and 17 <= seconds <= 20
    past = format_datetime(datetime.now(UTC) - timedelta(seconds=20), usegmt=True)
    assert parse_retry_after({"Retry-After": past}) == 0.0


def test_retry_policy_backoff() -> None:
    policy = RetryPolicy(backoff_initial_s=1.0, backoff_max_s=8.0, retry_after_max_s=5.0)
    assert 2.0 <= policy.backoff(1, 2.0) <= 2.2  # the server's word, plus a little jitter
    assert policy.backoff(1, 100.0) == 5.0  # capped
    assert 0.5 <= policy.backoff(1, None) <= 1.0
    assert 2.0 <= policy.backoff(3, None) <= 4.0
    assert 4.0 <= policy.backoff(30, None) <= 8.0
    with pytest.raises(ValueError):
        RetryPolicy(max_attempts=0)


async def test_5xx_is_retried_until_success(
    fake_openai: FakeOpenAI, client: OpenAIChatClient
) -> None:
    fake_openai.push(server_error(500), server_error(503), answer({"summary": "ok"}))
    result = await client.complete(request())
    assert result.attempts == 3
    assert len(fake_openai.chat_requests) == 3


async def test_persistent_5xx_gives_up_with_a_short_reason(
    fake_openai: FakeOpenAI, client: OpenAIChatClient
) -> None:
    await client.complete(request())
    fake_openai.default = server_error(500)
    with pytest.raises(LLMUnavailableError) as info:
        await client.complete(request())
    assert info.value.reason == "HTTP 500 after 3 attempts"
    assert len(fake_openai.chat_requests) == 4


async def test_an_endpoint_that_never_answers_the_first_request_stops_the_run(
    fake_openai: FakeOpenAI, client: OpenAIChatClient
) -> None:
    fake_openai.default = server_error(500)
    for _ in range(2):  # it may be this request: it falls back, the next one goes alone
        with pytest.raises(LLMUnavailableError) as info:
            await client.complete(request())
        assert not isinstance(info.value, LLMEndpointError)
    with pytest.raises(LLMEndpointError, match=r"kept failing: HTTP 500 after 3 attempts"):
        await client.complete(request())
    assert len(fake_openai.chat_requests) == 9


async def test_hang_times_out_and_gives_up(fake_openai: FakeOpenAI) -> None:
    policy = RetryPolicy(max_attempts=2, backoff_initial_s=0.01, backoff_max_s=0.01)
    async with make_client(fake_openai, timeout=0.25, retry=policy) as client:
        await client.complete(request())
        fake_openai.default = Hang()
        started = time.monotonic()
        with pytest.raises(LLMUnavailableError) as info:
            await client.complete(request())
        elapsed = time.monotonic() - started
    assert info.value.reason == "timed out after 2 attempts (0.25 s each)"
    assert 0.5 <= elapsed < 1.5
    assert len(fake_openai.chat_requests) == 3


async def test_per_request_timeout_and_recovery_after_a_hang(fake_openai: FakeOpenAI) -> None:
    fake_openai.push(Hang(), answer({"summary": "ok"}))
    async with make_client(fake_openai, timeout=30.0) as client:
        started = time.monotonic()
        result = await client.complete(request(timeout=0.2))
    assert result.attempts == 2
    assert time.monotonic() - started < 1.5


async def test_dropped_connection_and_malformed_replies_are_retried(
    fake_openai: FakeOpenAI,
) -> None:
    html = RawReply(200, b"<html>proxy error</html>", "text/html")
    fake_openai.push(Drop(), empty_body(), html, answer({"summary": "ok"}))
    policy = RetryPolicy(max_attempts=4, backoff_initial_s=0.01, backoff_max_s=0.02)
    async with make_client(fake_openai, retry=policy) as client:
        result = await client.complete(request())
    assert result.attempts == 4
    assert result.text == '{"summary": "ok"}'


async def test_unreachable_server_stops_the_run_naming_the_url() -> None:
    with FakeOpenAI() as server:
        base_url = server.base_url
    async with OpenAIChatClient(
        Endpoint(base_url, KEY, url_source="OPENAI_BASE_URL"), ClientOptions(retry=FAST)
    ) as client:
        with pytest.raises(LLMEndpointError) as info:
            await client.complete(request())
    assert f"cannot reach the LLM endpoint {base_url} (from OPENAI_BASE_URL)" in str(info.value)
    assert "ConnectError" in str(info.value) and info.value.exit_code == 8


@pytest.mark.parametrize("status", [401, 403])
async def test_auth_errors_are_not_retried(
    fake_openai: FakeOpenAI, client: OpenAIChatClient, status: int
) -> None:
    fake_openai.default = Fail(status, "no")
    with pytest.raises(LLMAuthError) as info:
        await client.complete(request())
    assert info.value.status_code == status
    assert len(fake_openai.chat_requests) == 1


async def test_api_key_never_leaks(
    fake_openai: FakeOpenAI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    errors: list[BaseException] = []
    async with make_client(fake_openai) as client:
        assert KEY not in repr(client)
        await client.complete(request())  # the endpoint is learnt
        fake_openai.push(Fail(400, f"bad request from key {KEY}"))
        fake_openai.push(rate_limited(0.01), server_error(), server_error(502), server_error())
        fake_openai.push(unauthorized(f"Incorrect API key provided: {KEY}"))
        for exc_type in (LLMRequestError, LLMUnavailableError, LLMAuthError):
            with pytest.raises(exc_type) as info:
                await client.complete(request())
            errors.append(info.value)
    assert "[redacted]" in str(errors[0])
    for err in errors:
        printed = "".join(traceback.format_exception(err))
        assert KEY not in printed and KEY not in repr(err)
    assert caplog.records, "expected some log output to inspect"
    assert KEY not in caplog.text
    assert all(KEY not in r.getMessage() for r in caplog.records)


# --------------------------------------------------------------------------- pacing


async def test_concurrency_limit_is_respected(fake_openai: FakeOpenAI) -> None:
    fake_openai.default = answer({"summary": "ok"}, delay=0.1)
    limiter = RateLimiter(max_concurrency=3)
    results: list[ChatResult] = []
    async with make_client(fake_openai, limiter=limiter) as client:

        async def one() -> None:
            results.append(await client.complete(request()))

        async with anyio.create_task_group() as tg:
            for _ in range(9):
                tg.start_soon(one)
    assert len(results) == 9
    assert fake_openai.max_in_flight == 3
    assert limiter.max_in_flight == 3 and limiter.in_flight == 0


async def test_concurrency_8_overlaps_requests(fake_openai: FakeOpenAI) -> None:
    fake_openai.default = answer({"summary": "ok"}, delay=0.1)
    async with make_client(fake_openai, limiter=RateLimiter(max_concurrency=8)) as client:
        started = time.monotonic()
        async with anyio.create_task_group() as tg:
            for _ in range(16):
                tg.start_soon(client.complete, request())
        elapsed = time.monotonic() - started
    assert fake_openai.max_in_flight == 8
    assert elapsed < 0.8  # 2 waves of 0.1 s, not 16 × 0.1 s


async def test_requests_per_minute_spaces_requests(fake_openai: FakeOpenAI) -> None:
    limiter = RateLimiter(max_concurrency=4, requests_per_minute=600)  # one per 0.1 s
    async with make_client(fake_openai, limiter=limiter) as client, anyio.create_task_group() as tg:
        for _ in range(4):
            tg.start_soon(client.complete, request())
    times = sorted(r.time for r in fake_openai.chat_requests)
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert all(gap >= 0.08 for gap in gaps), gaps


async def test_rate_limiter_hold_off_delays_new_slots() -> None:
    limiter = RateLimiter(max_concurrency=2)
    limiter.hold_off(0.2)
    started = time.monotonic()
    async with limiter.slot():
        assert limiter.in_flight == 1
    assert time.monotonic() - started >= 0.19


async def test_rate_limiter_token_bucket_with_fake_clock() -> None:
    now = [0.0]
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    limiter = RateLimiter(
        max_concurrency=1, requests_per_minute=60, burst=2, timer=Timer(lambda: now[0], sleep)
    )
    for _ in range(4):
        async with limiter.slot():
            pass
    assert slept == [pytest.approx(1.0), pytest.approx(1.0)]  # burst of 2, then 1/s


def test_rate_limiter_rejects_bad_settings() -> None:
    with pytest.raises(ValueError):
        RateLimiter(max_concurrency=0)
    with pytest.raises(ValueError):
        RateLimiter(requests_per_minute=0)
    with pytest.raises(ValueError):
        RateLimiter(burst=0)


# --------------------------------------------------------------------------- scripted client


async def test_scripted_client_replays_then_uses_handler() -> None:
    boom = LLMUnavailableError("HTTP 500 after 4 attempts")
    scripted = ScriptedChatClient(
        ["plain", {"summary": "s"}, boom, ChatResult("r", finish_reason="length")]
    )
    assert (await scripted.complete(request())).text == "plain"
    second = await scripted.complete(request())
    assert second.text == '{"summary": "s"}' and second.mode is StructuredMode.JSON_SCHEMA
    with pytest.raises(LLMUnavailableError):
        await scripted.complete(request())
    assert (await scripted.complete(request())).finish_reason == "length"
    with pytest.raises(LookupError, match="request #5"):
        await scripted.complete(request())

    scripted.handler = lambda req: {"echo": req.messages[-1]["content"]}
    assert (await scripted.complete(request(json_schema=None))).mode is StructuredMode.TEXT
    assert len(scripted.requests) == 6 and scripted.remaining == 0


@pytest.mark.parametrize(
    ("key", "named"),
    [("sk-test-123456", "the API key from OPENAI_API_KEY"), (None, "set OPENAI_API_KEY")],
)
async def test_a_refused_key_names_the_variable_it_came_from(
    fake_openai: FakeOpenAI, key: str | None, named: str
) -> None:
    from pydantic import SecretStr

    from commitdigest.analysis.llm.client import build_chat_client
    from commitdigest.config import LLMSettings
    from commitdigest.errors import EXIT_CODES_HELP

    settings = LLMSettings(base_url=fake_openai.base_url, api_key=SecretStr(key) if key else None)
    fake_openai.default = Fail(401, "no")
    async with build_chat_client(settings) as chat:
        with pytest.raises(LLMAuthError) as info:
            await chat.complete(request())
    assert named in str(info.value)
    assert info.value.exit_code == 8 and "8 the LLM endpoint" in EXIT_CODES_HELP
    if key:
        assert key not in str(info.value)
