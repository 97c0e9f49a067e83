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
"""

from __future__ import annotations

import logging
import time

import anyio
import httpx2
import openai

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
from commitdigest.analysis.llm.failures import (
    RETRYABLE_STATUS,
    Adapted,
    ModeRejected,
    reject,
    unavailable_reason,
)
from commitdigest.analysis.llm.ratelimit import RateLimiter as RateLimiter
from commitdigest.analysis.llm.ratelimit import RetryPolicy as RetryPolicy
from commitdigest.analysis.llm.ratelimit import parse_retry_after
from commitdigest.analysis.llm.scripted import ScriptedChatClient as ScriptedChatClient
from commitdigest.analysis.llm.scripted import ScriptHandler as ScriptHandler
from commitdigest.analysis.llm.scripted import ScriptItem as ScriptItem
from commitdigest.analysis.llm.wire import Adaptations, build_arguments, to_result
from commitdigest.analysis.llm.wire import (  # noqa: F401  (tests/test_llm_prompt.py)
    with_schema_in_prompt as _with_schema_in_prompt,
)

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
