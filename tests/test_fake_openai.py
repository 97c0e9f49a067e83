"""The fake OpenAI-compatible server itself, over plain HTTP (no SDK in the way)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx2
import pytest
from fake_openai import (
    Drop,
    FakeOpenAI,
    Hang,
    RecordedRequest,
    answer,
    context_length_exceeded,
    empty_body,
    empty_content,
    fenced_json,
    invalid_json,
    rate_limited,
    reject_response_format,
    serve_fake_openai,
    think_then_json,
    truncated,
)

from commitdigest.analysis.llm.extract import JSONExtractionError, extract_json_object


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    yield from serve_fake_openai()


def post(server: FakeOpenAI, body: dict[str, Any], timeout: float = 5.0) -> httpx2.Response:
    return httpx2.post(
        f"{server.base_url}/chat/completions",
        json=body,
        headers={"Authorization": "Bearer k"},
        timeout=timeout,
    )


def chat(prompt: str = "hi", **extra: Any) -> dict[str, Any]:
    return {"model": "m", "messages": [{"role": "user", "content": prompt}], **extra}


def content(response: httpx2.Response) -> Any:
    return response.json()["choices"][0]["message"]["content"]


def test_answers_and_records(fake_openai: FakeOpenAI) -> None:
    fake_openai.push(answer({"summary": "s"}, usage=(3, 4), finish_reason="stop"))
    response = post(fake_openai, chat(response_format={"type": "json_object"}))
    assert response.status_code == 200
    data = response.json()
    assert json.loads(data["choices"][0]["message"]["content"]) == {"summary": "s"}
    assert data["usage"] == {"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7}
    assert data["model"] == "m"
    assert response.headers["x-request-id"] == "req-fake-0"
    (rec,) = fake_openai.requests
    assert (rec.method, rec.path) == ("POST", "/v1/chat/completions")
    assert rec.headers["authorization"] == "Bearer k"
    assert rec.prompt == "hi" and rec.response_format_type == "json_object"
    assert fake_openai.request_count == 1 and fake_openai.pending == 0
    # nothing scripted: the default answer
    assert json.loads(content(post(fake_openai, chat()))) == {"ok": True}


def test_handler_answers_per_prompt(fake_openai: FakeOpenAI) -> None:
    def handler(req: RecordedRequest) -> Any:
        return answer({"echo": req.prompt.upper()})

    fake_openai.handler = handler
    fake_openai.push(answer("queued first"))
    assert content(post(fake_openai, chat("abc"))) == "queued first"
    assert json.loads(content(post(fake_openai, chat("abc")))) == {"echo": "ABC"}


def test_error_behaviours(fake_openai: FakeOpenAI) -> None:
    fake_openai.push(
        rate_limited(2, retry_after_ms=1500),
        reject_response_format(),
        reject_response_format(style="vllm"),
        context_length_exceeded(),
        empty_body(),
    )
    r = post(fake_openai, chat())
    assert r.status_code == 429
    assert (r.headers["retry-after"], r.headers["retry-after-ms"]) == ("2", "1500")
    r = post(fake_openai, chat())
    assert r.status_code == 400 and "response_format" in r.json()["error"]["message"]
    r = post(fake_openai, chat())
    assert r.status_code == 400 and "json_schema" in r.json()["message"]
    r = post(fake_openai, chat())
    assert r.json()["error"]["code"] == "context_length_exceeded"
    r = post(fake_openai, chat())
    assert r.status_code == 200 and r.content == b""


def test_awkward_answers(fake_openai: FakeOpenAI) -> None:
    obj = {"summary": "s", "tags": ["a"]}
    fake_openai.push(fenced_json(obj), think_then_json(obj), truncated(obj), invalid_json())
    fake_openai.push(empty_content())
    assert extract_json_object(content(post(fake_openai, chat()))) == obj
    assert extract_json_object(content(post(fake_openai, chat()))) == obj
    cut = post(fake_openai, chat()).json()["choices"][0]
    assert cut["finish_reason"] == "length"
    with pytest.raises(JSONExtractionError, match="unterminated"):
        extract_json_object(cut["message"]["content"])
    with pytest.raises(JSONExtractionError):
        extract_json_object(content(post(fake_openai, chat())))
    assert content(post(fake_openai, chat())) is None


def test_drop_and_hang(fake_openai: FakeOpenAI) -> None:
    fake_openai.push(Drop(), Hang(0.2))
    with pytest.raises(httpx2.RemoteProtocolError):
        post(fake_openai, chat())
    with pytest.raises(httpx2.ReadTimeout):
        post(fake_openai, chat(), timeout=0.1)


def test_stop_ends_hangs_and_joins_threads() -> None:
    server = FakeOpenAI(Hang()).start()
    errors: list[BaseException] = []

    def call() -> None:
        try:
            post(server, chat(), timeout=30)
        except httpx2.HTTPError as exc:
            errors.append(exc)

    callers = [threading.Thread(target=call) for _ in range(3)]
    for t in callers:
        t.start()
    deadline = time.monotonic() + 5
    while server.in_flight < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert server.in_flight == 3
    started = time.monotonic()
    server.stop()
    for t in callers:
        t.join(5)
    assert time.monotonic() - started < 1.0
    assert len(errors) == 3 and not server.alive_threads()
    with pytest.raises(RuntimeError):
        _ = server.base_url


def test_concurrent_requests_overlap(fake_openai: FakeOpenAI) -> None:
    """Eight requests held a second each are served together: in 4 s, not the 8 s one at a
    time would take (each is held long enough for all eight to arrive on a busy two-core
    machine, where a 0.2 s hold once let the first end before the eighth began)."""
    fake_openai.default = answer("{}", delay=1.0)
    started = time.monotonic()
    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(lambda _: post(fake_openai, chat()).status_code, range(8)))
    assert statuses == [200] * 8
    assert time.monotonic() - started < 4.0
    assert fake_openai.max_in_flight == 8 and fake_openai.in_flight == 0


def test_other_routes(fake_openai: FakeOpenAI) -> None:
    models = httpx2.get(f"{fake_openai.base_url}/models", timeout=5)
    assert models.json()["data"][0]["id"] == "fake-model"
    assert httpx2.post(f"{fake_openai.base_url}/embeddings", json={}, timeout=5).status_code == 404
    assert [r.path for r in fake_openai.chat_requests] == []
