"""Fakes of what OpenAI-compatible providers document and their users report, as handlers
for :class:`fake_openai.FakeOpenAI` (``FakeOpenAI(handler=DeepSeek())``).

Each :class:`Provider` answers a request the way its service would: it refuses what the
service refuses (counted in :attr:`Provider.refused`, so a test sees how many requests a
run wasted), and otherwise answers the request with a valid reply in the report's
language (:func:`reply_for`: an analysis, an overview, or the client's probe), dressed as
the service dresses it (reasoning fields, ``<think>`` blocks, rate-limit headers…).
:data:`BEHAVIOURS` lists one instance per behaviour, with what a client should make of it.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fake_openai import (
    Answer,
    Behaviour,
    Drop,
    Fail,
    FakeOpenAI,
    Hang,
    RawReply,
    RecordedRequest,
    answer,
)

from commitdigest.analysis.llm.prompt import DATA_OPEN

# ---- valid replies ------------------------------------------------------------------------

ANALYSIS = {
    "zh": {
        "change_type": "bugfix",
        "change_type_reason": "",
        "importance": "medium",
        "summary": "修复了调度器在批次为空时崩溃的问题：现在空批次会被直接跳过，"
        "使用默认配置运行服务的用户不会再遇到进程退出。改动只增加了一个边界检查，"
        "没有改变调度顺序，也不影响已有的性能表现。",
        "impact": ["调度模块：空批次不再导致崩溃，其余行为保持不变"],
        "insights": [{"dimension": "architecture", "text": "结构没有变化，只增加了边界检查。"}],
        "risks": [
            {
                "risk": "如果判断条件有误，非空批次可能被跳过",
                "effect": "部分请求会延迟处理",
                "mitigation": "升级后运行回归测试并观察延迟",
            }
        ],
        "recommendations": ["升级后运行完整的回归测试。"],
    },
    "en": {
        "change_type": "bugfix",
        "change_type_reason": "",
        "importance": "medium",
        "summary": "Fixes a crash of the scheduler on an empty batch: such batches are now "
        "skipped, so users running the server with the default settings no longer see the "
        "process exit. The change only adds a bounds check and keeps the scheduling order.",
        "impact": ["scheduler: an empty batch no longer crashes it"],
        "insights": [{"dimension": "architecture", "text": "No structural change."}],
        "risks": [
            {
                "risk": "A wrong check could skip a non-empty batch",
                "effect": "some requests would be delayed",
                "mitigation": "run the regression tests after upgrading",
            }
        ],
        "recommendations": ["Run the full regression tests after upgrading."],
    },
}
OVERVIEW = {
    "zh": {"themes": ["调度修复"], "key_changes": ["修复空批次崩溃"], "risks": ["回归风险低"]},
    "en": {"themes": ["Scheduler fixes"], "key_changes": ["Empty batches"], "risks": ["Low"]},
}
PROBE = {"ok": True}


def kind_of(request: RecordedRequest) -> str:
    """``analysis``, ``overview`` or ``probe``: what the request asks for."""
    prompt = request.prompt
    if DATA_OPEN in prompt:
        return "analysis"
    if "commit_analyses" in prompt:
        return "overview"
    return "probe"


def reply_for(request: RecordedRequest, lang: str = "zh") -> dict[str, Any]:
    """A valid answer to ``request`` in ``lang``."""
    kind = kind_of(request)
    if kind == "analysis":
        return ANALYSIS[lang]
    if kind == "overview":
        return OVERVIEW[lang]
    return PROBE


def asked_again(request: RecordedRequest) -> bool:
    """Whether the request is a re-ask after an unusable reply."""
    return "could not be used" in request.prompt


# ---- providers ----------------------------------------------------------------------------


@dataclass
class Provider:
    """A service; subclasses refuse and dress answers their own way.

    ``model``/``env``: what a run against it configures; ``expect``: what a client should
    make of it (``fallbacks``: how many analyses may fall back; ``refused``: at most how
    many requests may be refused in the whole run; ``exit``: the exit code)."""

    name: str = "generic"
    model: str = "fake-model"
    lang: str = "zh"
    env: dict[str, str] = field(default_factory=dict)
    max_refused: int = 0
    exit_code: int = 0
    refused: int = 0
    answered: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __call__(self, request: RecordedRequest) -> Behaviour:
        body = request.body if isinstance(request.body, dict) else {}
        refusal = self.refuse(request, body)
        with self.lock:
            if refusal is not None and refusal.status < 500 and refusal.status != 429:
                self.refused += 1
            elif refusal is None:
                self.answered += 1
        return refusal if refusal is not None else self.answer(request, body)

    def refuse(self, request: RecordedRequest, body: dict[str, Any]) -> Fail | None:
        return None

    def answer(self, request: RecordedRequest, body: dict[str, Any]) -> Behaviour:
        return answer(reply_for(request, self.lang))


def openai_error(message: str, *, param: str | None = None, code: str | None = None) -> Fail:
    return Fail(
        400,
        body={
            "error": {
                "message": message,
                "type": "invalid_request_error",
                "param": param,
                "code": code,
            }
        },
    )


@dataclass
class OpenAIReasoning(Provider):
    """o-series / gpt-5: ``max_tokens`` and a temperature other than 1 are refused; the
    model thinks ``thinking`` tokens before it answers, within ``max_completion_tokens``
    (when they run out, the content is empty and ``finish_reason`` is ``length``)."""

    name: str = "openai-reasoning"
    model: str = "o4-mini"
    thinking: int = 2500
    max_refused: int = 2

    def refuse(self, request: RecordedRequest, body: dict[str, Any]) -> Fail | None:
        if "max_tokens" in body:
            return openai_error(
                "Unsupported parameter: 'max_tokens' is not supported with this model. "
                "Use 'max_completion_tokens' instead.",
                param="max_tokens",
                code="unsupported_parameter",
            )
        if body.get("temperature", 1) != 1:
            return openai_error(
                f"Unsupported value: 'temperature' does not support {body['temperature']} "
                "with this model. Only the default (1) value is supported.",
                param="temperature",
                code="unsupported_value",
            )
        return None

    def answer(self, request: RecordedRequest, body: dict[str, Any]) -> Behaviour:
        room = int(body.get("max_completion_tokens") or 100_000)
        usage = {
            "prompt_tokens": 500,
            "completion_tokens": min(room, self.thinking + 300),
            "completion_tokens_details": {"reasoning_tokens": min(room, self.thinking)},
        }
        if kind_of(request) != "probe" and room < self.thinking + 300:
            return Answer("", finish_reason="length", usage=usage)
        return Answer(reply_for(request, self.lang), usage=usage)


@dataclass
class DeepSeek(Provider):
    """``json_schema`` is refused; ``json_object`` needs the word "json" in the prompt; the
    reasoner puts its chain of thought in ``reasoning_content``."""

    name: str = "deepseek"
    model: str = "deepseek-chat"
    max_refused: int = 1

    def refuse(self, request: RecordedRequest, body: dict[str, Any]) -> Fail | None:
        kind = request.response_format_type
        if kind == "json_schema":
            return openai_error("This response_format type is unavailable now")
        if kind == "json_object" and "json" not in request.prompt.lower():
            return openai_error(
                "Prompt must contain the word 'json' in some form to use 'response_format' "
                "of type 'json_object'."
            )
        return None

    def answer(self, request: RecordedRequest, body: dict[str, Any]) -> Behaviour:
        if "reasoner" in self.model:
            return Answer(
                reply_for(request, self.lang),
                reasoning_content="THOUGHT-MARKER: first I read the diff…",
            )
        return super().answer(request, body)


@dataclass
class DashScopeQwen3(Provider):
    """Qwen3 on DashScope: a non-streaming call must say ``enable_thinking: false``; an
    unknown argument (vLLM's ``chat_template_kwargs``) is refused."""

    name: str = "dashscope-qwen3"
    model: str = "qwen3-32b"
    max_refused: int = 2

    def refuse(self, request: RecordedRequest, body: dict[str, Any]) -> Fail | None:
        if "chat_template_kwargs" in body:
            return openai_error(
                "Unrecognized request argument supplied: chat_template_kwargs",
                code="invalid_parameter_error",
            )
        if body.get("enable_thinking") is not False:
            return openai_error(
                "parameter.enable_thinking must be set to false for non-streaming calls",
                code="invalid_parameter_error",
            )
        return None


@dataclass
class StrictServer(Provider):
    """An OpenAI-strict server: any argument outside the API is refused."""

    name: str = "strict-extra-body"
    max_refused: int = 1
    known: frozenset[str] = frozenset(
        {"model", "messages", "max_tokens", "max_completion_tokens", "temperature",
         "response_format", "top_p", "stream", "seed", "stop"}
    )  # fmt: skip

    def refuse(self, request: RecordedRequest, body: dict[str, Any]) -> Fail | None:
        unknown = sorted(set(body) - self.known)
        if unknown:
            return openai_error(f"Unrecognized request argument supplied: {', '.join(unknown)}")
        return None


@dataclass
class VLLMWrongParser(Provider):
    """vLLM with ``--reasoning-parser deepseek_r1`` and Qwen3 without thinking: the whole
    answer lands in ``reasoning_content``, ``content`` is null."""

    name: str = "vllm-wrong-parser"
    model: str = "Qwen/Qwen3-8B"

    def answer(self, request: RecordedRequest, body: dict[str, Any]) -> Behaviour:
        text = json.dumps(reply_for(request, self.lang), ensure_ascii=False)
        return Answer(None, reasoning_content=text)


@dataclass
class Reasoning(Provider):
    """A model that thinks first: in ``reasoning_content`` (vLLM, DeepSeek), in
    ``reasoning`` (Ollama, OpenRouter), or as a ``<think>`` block in the content."""

    name: str = "reasoning"
    where: str = "reasoning_content"

    def answer(self, request: RecordedRequest, body: dict[str, Any]) -> Behaviour:
        thought = "THOUGHT-MARKER: the diff touches `secret_helper()` in fake/path.py"
        reply = json.dumps(reply_for(request, self.lang), ensure_ascii=False)
        if self.where == "think":
            return Answer(f"<think>{thought}</think>\n{reply}")
        if self.where == "reasoning_content":
            return Answer(reply, reasoning_content=thought)
        return RawReply(200, _completion(body, {"content": reply, self.where: thought}))


def _completion(body: dict[str, Any], message: dict[str, Any]) -> bytes:
    return json.dumps(
        {
            "id": "chatcmpl-raw",
            "object": "chat.completion",
            "model": body.get("model", "m"),
            "choices": [
                {"index": 0, "message": {"role": "assistant", **message}, "finish_reason": "stop"}
            ],
            "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
        },
        ensure_ascii=False,
    ).encode()


@dataclass
class RateLimited(Provider):
    """At most ``limit`` requests in flight; beyond that a 429 that says when to come back
    in its ``style``: ``retry-after``, ``x-ratelimit`` (OpenAI's reset headers only) or
    ``body`` ("Please try again in 0.3s." only). Serve it with :func:`serve`."""

    name: str = "rate-limited"
    style: str = "x-ratelimit"
    limit: int = 2
    delay: float = 0.05
    limited: int = 0
    server: FakeOpenAI | None = None

    def __call__(self, request: RecordedRequest) -> Behaviour:
        assert self.server is not None, "serve it with fake_providers.serve()"
        with self.lock:
            if self.server.in_flight > self.limit:  # this request is counted in already
                self.limited += 1
                return self._limited()
            self.answered += 1
        return answer(reply_for(request, self.lang), delay=self.delay)

    def _limited(self) -> Fail:
        message = "Rate limit reached for requests on this organization."
        headers: tuple[tuple[str, str], ...] = ()
        if self.style == "retry-after":
            headers = (("Retry-After", "0.3"),)
        elif self.style == "x-ratelimit":
            headers = (
                ("x-ratelimit-limit-requests", str(self.limit)),
                ("x-ratelimit-remaining-requests", "0"),
                ("x-ratelimit-reset-requests", "300ms"),
            )
        else:
            message += " Please try again in 0.3s."
        return Fail(429, message, headers, code="rate_limit_exceeded")


def serve(provider: Provider) -> FakeOpenAI:
    """A (not yet started) fake server answering as ``provider``."""
    server = FakeOpenAI(handler=provider)
    if isinstance(provider, RateLimited):
        provider.server = server
    return server


@dataclass
class WrongLanguage(Provider):
    """Answers a zh report in English; asked again, it answers in Chinese (or never)."""

    name: str = "wrong-language"
    stubborn: bool = False

    def answer(self, request: RecordedRequest, body: dict[str, Any]) -> Behaviour:
        if kind_of(request) == "analysis" and (self.stubborn or not asked_again(request)):
            return answer(ANALYSIS["en"])
        return super().answer(request, body)


@dataclass
class NestedKeys(Provider):
    """Keys in another case at every level (``Dimension``, ``Risk``…), a wrapper object."""

    name: str = "nested-keys"

    def answer(self, request: RecordedRequest, body: dict[str, Any]) -> Behaviour:
        if kind_of(request) != "analysis":
            return super().answer(request, body)
        reply = ANALYSIS[self.lang]
        shouty = {
            "Change_Type": reply["change_type"],
            "Importance": "🟡 中",
            "Summary": reply["summary"],
            "Impact": reply["impact"][0],
            "Insights": [{"Dimension": "架构", "Text": reply["insights"][0]["text"]}],
            "Risks": [
                {"Risk": r["risk"], "Effect": r["effect"], "Mitigation": r["mitigation"]}
                for r in reply["risks"]
            ],
            "Recommendations": reply["recommendations"],
        }
        return answer({"analysis": shouty})


@dataclass
class Faulty(Provider):
    """Transient faults on ``rate`` of the requests (seeded): 5xx, 429s that say when,
    dropped connections, hangs, slow answers, empty and malformed bodies."""

    name: str = "transient-faults"
    rate: float = 0.3
    seed: int = 7
    delay: float = 0.0
    faults: tuple[str, ...] = (
        "500", "502", "503", "429-retry-after", "429-reset", "429-body", "drop", "hang",
        "slow", "empty", "html",
    )  # fmt: skip
    rng: random.Random = field(default_factory=random.Random)
    injected: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.rng.seed(self.seed)

    def __call__(self, request: RecordedRequest) -> Behaviour:
        with self.lock:
            fault = self.rng.choice(self.faults) if self.rng.random() < self.rate else None
            if fault:
                self.injected[fault] = self.injected.get(fault, 0) + 1
            else:
                self.answered += 1
        reply = reply_for(request, self.lang)
        return make_fault(fault, reply, self.delay) if fault else answer(reply, delay=self.delay)


def make_fault(kind: str, reply: dict[str, Any], delay: float = 0.0) -> Behaviour:
    """One transient fault by name (see :class:`Faulty`)."""
    limited = "Rate limit reached for requests."
    faults: dict[str, Callable[[], Behaviour]] = {
        "500": lambda: Fail(500, "internal server error", delay=delay),
        "502": lambda: RawReply(502, b"<html>bad gateway</html>", "text/html", delay),
        "503": lambda: Fail(503, "overloaded", delay=delay),
        "429-retry-after": lambda: Fail(429, limited, (("Retry-After", "0.2"),)),
        "429-reset": lambda: Fail(
            429,
            limited,
            (("x-ratelimit-remaining-requests", "0"), ("x-ratelimit-reset-requests", "200ms")),
        ),
        "429-body": lambda: Fail(429, limited + " Please try again in 0.2s."),
        "drop": lambda: Drop(delay),
        "hang": lambda: Hang(),
        "slow": lambda: answer(reply, delay=30.0),  # as good as hung
        "empty": lambda: RawReply(200, b"", "application/json", delay),
        "html": lambda: RawReply(200, b"<html>proxy error</html>", "text/html", delay),
    }
    return faults[kind]()


__all__ = [
    "ANALYSIS",
    "OVERVIEW",
    "DashScopeQwen3",
    "DeepSeek",
    "Faulty",
    "NestedKeys",
    "OpenAIReasoning",
    "Provider",
    "RateLimited",
    "Reasoning",
    "StrictServer",
    "VLLMWrongParser",
    "WrongLanguage",
    "asked_again",
    "kind_of",
    "make_fault",
    "openai_error",
    "reply_for",
    "serve",
]
