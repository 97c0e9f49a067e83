"""Chat completions against any OpenAI-compatible endpoint (``openai.AsyncOpenAI``, with
``max_retries=0``: we retry, through the :class:`RateLimiter`), and a scripted fake for tests.

Structured output for a request with a ``json_schema``, tried in this order:

1. ``json_schema`` with ``strict: false``: OpenAI's strict mode rejects schemas unless every
   property is required and every object closed (Pydantic schemas with defaults are not), and
   vLLM/SGLang/Ollama guide decoding by the schema whatever the flag. The caller validates.
2. ``json_object``, the schema appended to the system message (saying "JSON", as DeepSeek needs).
3. No ``response_format``, schema in the system message; the caller extracts the JSON.

A 400/422/501 naming ``response_format``/``json_schema``/``json_object``/structured output is a
mode rejection (DeepSeek: "This response_format type is unavailable now"): the next mode is
tried at once and remembered per model. A context-length 400 raises :class:`ContextLengthError`.
"Use ``max_completion_tokens``" and "unsupported ``temperature``" 400s are adapted to once.

408/409/429/5xx, timeouts, connection errors and malformed 200s are retried with exponential
backoff plus jitter, or what ``retry-after-ms``/``Retry-After`` asks (capped); then
:class:`LLMUnavailableError` ("HTTP 500 after 4 attempts"). 401/403: :class:`LLMAuthError` at once.

The API key never reaches our messages, logs or reprs: server text is redacted, auth errors
never quote the server, and errors are raised ``from None`` (the SDK's may echo a masked key).

How a request goes over the wire: :func:`build_arguments` shapes it for one structured-output
mode and for what the server taught us about the model (:class:`Adaptations`);
:func:`to_result` reads a ``ChatCompletion`` back, or says it is malformed. What a failed
attempt means: 408/409/429/5xx are retried (:data:`RETRYABLE_STATUS`), and once the attempts
are spent :func:`unavailable_reason` says why in a few words; any other status goes to
:func:`reject` (:class:`ContextLengthError`, :class:`ModeRejected`, :class:`Adapted` after
setting an adaptation, else :class:`LLMRequestError`).
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

import anyio
import httpx2
import openai
from openai.types.chat import ChatCompletion

from commitdigest.analysis.llm.chat import MODE_ORDER as MODE_ORDER
from commitdigest.analysis.llm.chat import ChatClient as ChatClient
from commitdigest.analysis.llm.chat import ChatRequest as ChatRequest
from commitdigest.analysis.llm.chat import ChatResult as ChatResult
from commitdigest.analysis.llm.chat import ContextLengthError as ContextLengthError
from commitdigest.analysis.llm.chat import LLMAuthError as LLMAuthError
from commitdigest.analysis.llm.chat import LLMError as LLMError
from commitdigest.analysis.llm.chat import LLMRequestError as LLMRequestError
from commitdigest.analysis.llm.chat import LLMUnavailableError as LLMUnavailableError
from commitdigest.analysis.llm.chat import StructuredMode as StructuredMode
from commitdigest.analysis.llm.chat import TokenUsage as TokenUsage
from commitdigest.analysis.llm.ratelimit import RateLimiter as RateLimiter
from commitdigest.analysis.llm.ratelimit import RetryPolicy as RetryPolicy
from commitdigest.analysis.llm.ratelimit import parse_retry_after
from commitdigest.analysis.llm.scripted import ScriptedChatClient as ScriptedChatClient
from commitdigest.analysis.llm.scripted import ScriptHandler as ScriptHandler
from commitdigest.analysis.llm.scripted import ScriptItem as ScriptItem

log = logging.getLogger(__name__)


class OpenAIChatClient:
    """:class:`ChatClient` over ``openai.AsyncOpenAI``; see the module docstring."""

    def __init__(
        self,
        *,
        base_url: str,
        api_key: str | None = None,
        timeout: float = 120.0,
        retry: RetryPolicy | None = None,
        limiter: RateLimiter | None = None,
        strict_schema: bool = False,
        first_mode: StructuredMode = StructuredMode.JSON_SCHEMA,
        http_client: httpx2.AsyncClient | None = None,
        key_source: str = "the API key",
    ) -> None:
        self.base_url = base_url
        self.key_source = key_source  # named when the server refuses the key
        self.timeout = timeout
        self.retry = retry or RetryPolicy()
        self.limiter = limiter or RateLimiter()
        self.strict_schema = strict_schema
        self.first_mode = first_mode
        self._secret = api_key or ""
        self._per_model: dict[str, Adaptations] = {}
        # local servers (vLLM, Ollama, SGLang) take any key; the SDK insists on one
        self._sdk = openai.AsyncOpenAI(
            base_url=base_url,
            api_key=api_key or "not-needed",
            timeout=timeout,
            max_retries=0,
            http_client=http_client,
        )

    def __repr__(self) -> str:
        return f"OpenAIChatClient(base_url={self.base_url!r}, timeout={self.timeout})"

    async def aclose(self) -> None:
        await self._sdk.close()

    async def __aenter__(self) -> OpenAIChatClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    def mode_for(self, model: str) -> StructuredMode:
        """The structured-output mode the next schema request for ``model`` starts with."""
        return self._state(model).mode

    def _state(self, model: str) -> Adaptations:
        return self._per_model.setdefault(model, Adaptations(mode=self.first_mode))

    def _redact(self, text: str) -> str:
        return text.replace(self._secret, "[redacted]") if len(self._secret) >= 4 else text

    async def complete(self, request: ChatRequest) -> ChatResult:
        state = self._state(request.model)
        for _ in range(len(MODE_ORDER) + 3):  # each rejection/adaptation happens at most once
            mode = state.mode if request.json_schema is not None else StructuredMode.TEXT
            try:
                return await self._complete_in_mode(request, mode, state)
            except Adapted as adapted:
                msg = "model %s: %s (server said: %s)"
                log.warning(msg, request.model, adapted.flag, adapted.said)
                continue
            except ModeRejected as rejected:  # never raised in TEXT mode, so a next one exists
                fallback = MODE_ORDER[MODE_ORDER.index(mode) + 1]
                if MODE_ORDER.index(state.mode) < MODE_ORDER.index(fallback):
                    state.mode = fallback  # concurrent calls may have moved on already
                msg = "%s rejected response_format %s for %s (%s); using %s from now on"
                log.warning(msg, self.base_url, mode, request.model, rejected, fallback)
        raise LLMRequestError("server kept rejecting the request's shape", None)

    async def _complete_in_mode(
        self, request: ChatRequest, mode: StructuredMode, state: Adaptations
    ) -> ChatResult:
        timeout = request.timeout if request.timeout is not None else self.timeout
        kwargs = build_arguments(request, mode, state, strict_schema=self.strict_schema)
        policy = self.retry
        failures: list[str] = []
        for attempt in range(1, policy.max_attempts + 1):
            retry_after: float | None = None
            try:
                async with self.limiter.slot():
                    started = time.monotonic()
                    completion: object = await self._sdk.chat.completions.create(
                        model=request.model, timeout=timeout, **kwargs
                    )
            except openai.APITimeoutError:
                failures.append("timeout")
            except openai.APIConnectionError:
                failures.append("connection error")
            except openai.APIStatusError as err:
                status = err.status_code
                if status in (401, 403):  # never quote the server: it may echo the key
                    refused = (
                        f"HTTP {status} from {self.base_url}: {self.key_source} was refused "
                        "or lacks access"
                    )
                    raise LLMAuthError(refused, status) from None
                if status not in RETRYABLE_STATUS and status < 500:
                    reject(err, mode, request, state, base_url=self.base_url, redact=self._redact)
                failures.append(f"HTTP {status}")
                retry_after = parse_retry_after(err.response.headers)
                if status == 429 and retry_after is not None:
                    self.limiter.hold_off(min(retry_after, policy.retry_after_max_s))
            except (openai.APIResponseValidationError, ValueError):
                failures.append("malformed response")
            else:
                result = to_result(completion, mode, time.monotonic() - started, attempt)
                if result is not None:
                    return result
                failures.append("malformed response")
            if attempt < policy.max_attempts:
                delay = policy.backoff(attempt, retry_after)
                msg = "LLM call to %s failed (%s, attempt %d of %d); retrying in %.2f s"
                log.info(msg, self.base_url, failures[-1], attempt, policy.max_attempts, delay)
                await anyio.sleep(delay)
        raise LLMUnavailableError(unavailable_reason(failures, timeout)) from None


_SCHEMA_NAME_BAD = re.compile(r"[^A-Za-z0-9_-]")
_SCHEMA_PROMPT = (
    "Reply with one JSON object (no prose, no code fences) matching this JSON Schema:\n"
)


@dataclass
class Adaptations:
    """What a server taught us about a model; remembered for the client's lifetime."""

    mode: StructuredMode = StructuredMode.JSON_SCHEMA
    use_max_completion_tokens: bool = False
    omit_temperature: bool = False


def with_schema_in_prompt(
    messages: list[dict[str, str]], schema: Mapping[str, Any]
) -> list[dict[str, str]]:
    compact = json.dumps(schema, ensure_ascii=False, separators=(",", ":"))
    instruction = _SCHEMA_PROMPT + compact
    out = [dict(m) for m in messages]
    for message in out:
        if message.get("role") == "system":
            message["content"] = f"{message.get('content', '')}\n\n{instruction}".lstrip()
            return out
    return [{"role": "system", "content": instruction}, *out]


def build_arguments(
    request: ChatRequest, mode: StructuredMode, state: Adaptations, *, strict_schema: bool
) -> dict[str, Any]:
    """The keyword arguments of ``chat.completions.create`` but ``model`` and ``timeout``."""
    messages = request.messages
    kwargs: dict[str, Any] = {}
    schema = request.json_schema
    if schema is not None and mode is StructuredMode.JSON_SCHEMA:
        name = _SCHEMA_NAME_BAD.sub("_", request.schema_name)[:64] or "response"
        kwargs["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": name, "schema": schema, "strict": strict_schema},
        }
    elif schema is not None:
        messages = with_schema_in_prompt(messages, schema)
        if mode is StructuredMode.JSON_OBJECT:
            kwargs["response_format"] = {"type": "json_object"}
    kwargs["messages"] = messages
    if request.max_tokens is not None:
        key = "max_completion_tokens" if state.use_max_completion_tokens else "max_tokens"
        kwargs[key] = request.max_tokens
    if request.temperature is not None and not state.omit_temperature:
        kwargs["temperature"] = request.temperature
    if request.extra_body:
        kwargs["extra_body"] = request.extra_body
    return kwargs


def to_result(
    completion: object, mode: StructuredMode, latency: float, attempt: int
) -> ChatResult | None:
    """The reply as a :class:`ChatResult`; None when it is not a completion with a choice."""
    if not isinstance(completion, ChatCompletion) or not completion.choices:
        return None
    choice = completion.choices[0]
    content = getattr(getattr(choice, "message", None), "content", None)
    finish = getattr(choice, "finish_reason", None)
    return ChatResult(
        text=content if isinstance(content, str) else "",
        finish_reason=finish if isinstance(finish, str) else None,
        usage=_usage(getattr(completion, "usage", None)),
        mode=mode,
        request_id=completion._request_id or getattr(completion, "id", None),
        latency_s=latency,
        attempts=attempt,
        model=getattr(completion, "model", None),
    )


def _usage(raw: object) -> TokenUsage | None:
    if raw is None:
        return None
    counts = [getattr(raw, name, None) for name in TokenUsage.__slots__]
    prompt, completion, total = (n if type(n) is int else None for n in counts)
    if total is None and prompt is not None and completion is not None:
        total = prompt + completion
    return TokenUsage(prompt, completion, total)


RETRYABLE_STATUS = frozenset({408, 409, 429})
"""Retried like any 5xx; other statuses go to :func:`reject`."""

_CONTEXT_PATTERNS = re.compile(
    r"context[ _]length|maximum context|context window|max_model_len|too many tokens"
    r"|prompt is too long|input is too long|longer than the model|input length"
    r"|reduce the length|max_tokens must be at least 1",
    re.IGNORECASE,
)
_MODE_PATTERNS = re.compile(
    r"response_format|json_schema|json_object|structured output|guided", re.IGNORECASE
)
_MAX_COMPLETION_TOKENS = re.compile(r"max_completion_tokens", re.IGNORECASE)
_TEMPERATURE = re.compile(r"temperature", re.IGNORECASE)


class ModeRejected(Exception):
    """The server refused this structured-output mode; try the next one."""


class Adapted(Exception):
    """The request was reshaped (max_completion_tokens, no temperature); send it again.

    ``flag`` names the :class:`Adaptations` field now set; ``said`` is what the server said.
    """

    def __init__(self, flag: str, said: str) -> None:
        super().__init__(flag)
        self.flag = flag
        self.said = said


def _server_message(err: openai.APIStatusError) -> str:
    body = err.body  # the SDK already unwrapped {"error": …}
    if isinstance(body, Mapping):
        value = next((body[k] for k in ("message", "detail", "error", "msg") if body.get(k)), body)
        return value if isinstance(value, str) else json.dumps(value, default=str)
    return body if isinstance(body, str) and body.strip() else err.message


def _shorten(text: str, limit: int = 240) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def reject(
    err: openai.APIStatusError,
    mode: StructuredMode,
    req: ChatRequest,
    state: Adaptations,
    *,
    base_url: str,
    redact: Callable[[str], str],
) -> NoReturn:
    """Turn a non-retryable 4xx into the right exception; ``redact`` hides the API key."""
    status = err.status_code
    message = redact(_server_message(err))
    searchable = f"{message} {err.code or ''} {err.param or ''}"
    if _CONTEXT_PATTERNS.search(searchable):
        raise ContextLengthError(f"context length exceeded: {_shorten(message)}") from None
    format_refused = status in (400, 422, 501) and _MODE_PATTERNS.search(searchable)
    if format_refused and mode is not StructuredMode.TEXT:
        raise ModeRejected(f"HTTP {status}: {_shorten(message, 120)}")
    if status in (400, 422):
        adaptations = (
            ("use_max_completion_tokens", req.max_tokens, _MAX_COMPLETION_TOKENS),
            ("omit_temperature", req.temperature, _TEMPERATURE),
        )
        for flag, value, pattern in adaptations:
            if value is not None and not getattr(state, flag) and pattern.search(searchable):
                setattr(state, flag, True)
                raise Adapted(flag, message)
    refused = f"HTTP {status} from {base_url}: {_shorten(message)}"
    raise LLMRequestError(refused, status) from None


def unavailable_reason(failures: list[str], timeout: float) -> str:
    """``"HTTP 500 after 4 attempts"``, ``"timed out after 2 attempts (30 s each)"``…"""
    tries = f"{len(failures)} attempt" + ("" if len(failures) == 1 else "s")
    if all(f == "timeout" for f in failures):
        return f"timed out after {tries} ({timeout:g} s each)"
    last = f"timed out ({timeout:g} s)" if failures[-1] == "timeout" else failures[-1]
    return f"{last} after {tries}"
