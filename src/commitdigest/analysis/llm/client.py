"""Chat completions against any OpenAI-compatible endpoint, over the one HTTP layer
(:mod:`commitdigest.http`: its client, its retry loop, its rate limiter and hedging).

**Learning the endpoint once, before fanning out.** Requests are built from the provider's
profile (:mod:`.providers`). The first request of a shape (its schema, token parameter,
temperature, ``extra_body`` keys) goes alone; concurrent ones wait until it is answered, or
for 2 s at most (a request that long without a refusal was accepted). A refusal the profile
can absorb (``max_completion_tokens``, no
``temperature``, another ``response_format``, ``enable_thinking: false``, an ``extra_body``
key left out) changes the shape once and the request goes again: a run pays one refused
request per adaptation, never one per commit. What no reshaping can fix stops the run
(:class:`LLMEndpointError`: the URL and where it came from, the server's words, the setting
to change): an unreachable URL, an unknown model, a refused parameter, a spent quota, an
endpoint that never answers. When that first request is plain text (no schema: it cannot
tell which structured-output mode works), a tiny probe (a one-field schema, 16 tokens)
follows it; :meth:`OpenAIChatClient.check` sends the same probe on demand.

**Every request after that** goes through :func:`~commitdigest.http.send_with_retry`:
408/409/5xx, time-outs and dropped connections are retried with backoff, a malformed 200
at once; 429 (and a 503 that says when) is a wait shared by every worker (``Retry-After``,
``retry-after-ms``, ``x-ratelimit-reset-*``, "try again in 1.2s"), not an attempt, and
halves the concurrency until successes bring it back; a request slower than three times the
run's median latency gets a twin (:class:`~commitdigest.http.Hedging`), one that hangs on
after its twins is tried afresh. A 429 for a spent quota stops the run. 401/403:
:class:`LLMAuthError` at once, naming where the key came from. A context-length 400 is
:class:`ContextLengthError`; another 4xx :class:`LLMRequestError`.

**Reasoning** (``reasoning_content``, ``reasoning``) is kept apart from the answer
(:attr:`ChatResult.reasoning`) and never parsed; when a server leaves ``content`` empty and
the whole answer in the reasoning field (vLLM with a reasoning parser that does not fit the
model), the answer is taken from there and the fix is named once.

The API key never reaches our messages, logs or reprs: server text is redacted and auth
errors never quote the server. :func:`build_chat_client` makes the client of the ``[llm]``
settings (``OPENAI_API_KEY``, ``OPENAI_BASE_URL``).
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import anyio
import httpx2

from commitdigest.analysis.llm.chat import MODE_ORDER as MODE_ORDER
from commitdigest.analysis.llm.chat import ChatClient as ChatClient
from commitdigest.analysis.llm.chat import ChatRequest as ChatRequest
from commitdigest.analysis.llm.chat import ChatResult as ChatResult
from commitdigest.analysis.llm.chat import ContextLengthError as ContextLengthError
from commitdigest.analysis.llm.chat import LLMAuthError as LLMAuthError
from commitdigest.analysis.llm.chat import LLMEndpointError as LLMEndpointError
from commitdigest.analysis.llm.chat import LLMError as LLMError
from commitdigest.analysis.llm.chat import LLMRequestError as LLMRequestError
from commitdigest.analysis.llm.chat import LLMUnavailableError as LLMUnavailableError
from commitdigest.analysis.llm.chat import StructuredMode as StructuredMode
from commitdigest.analysis.llm.chat import TokenUsage as TokenUsage
from commitdigest.analysis.llm.providers import (
    Profile,
    Shape,
    adapt,
    build_body,
    profile_for,
)
from commitdigest.analysis.llm.scripted import ScriptedChatClient as ScriptedChatClient
from commitdigest.analysis.llm.scripted import ScriptHandler as ScriptHandler
from commitdigest.analysis.llm.scripted import ScriptItem as ScriptItem
from commitdigest.config.settings import SECRET_HINTS, LLMSettings
from commitdigest.errors import UsageError
from commitdigest.http import (
    DONE,
    Hedging,
    Tried,
    Verdict,
    async_client,
    describe_transport_error,
    send_with_retry,
    server_wait,
)
from commitdigest.http import RateLimiter as RateLimiter
from commitdigest.http import RetryPolicy as RetryPolicy

log = logging.getLogger(__name__)

Exchange = tuple[httpx2.Response, Any]
"""One HTTP answer and its JSON body (``None`` when it is not JSON)."""

DEFAULT_BASE_URL = "https://api.openai.com/v1"
LLM_RETRY = RetryPolicy(max_attempts=8, backoff_initial_s=0.25, backoff_max_s=2.0)
"""The LLM's default: quick retries (a 5xx from a pool is usually gone at once)."""

LEARN_GRACE_S = 2.0
"""A first request that has gone this long without a refusal was accepted (refusals come at
once): the requests waiting for it go then."""
MAX_UNANSWERED = 3
"""First requests in a row that get no answer (5xx, time-outs) before the run stops."""
PROBE_TOKENS = 16
PROBE_TEMPERATURE = 0.2  # llm.temperature's default
PROBE_TIMEOUT_S = 60.0
PROBE_HEDGE_S = 2.0
PROBE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"ok": {"type": "boolean"}},
    "required": ["ok"],
    "additionalProperties": False,
}
PROBE_MESSAGES: list[dict[str, str]] = [
    {"role": "system", "content": "You are a health check. Reply with one JSON object only."},
    {"role": "user", "content": 'Reply with the JSON object {"ok": true}.'},
]

REASONING_PARSER_FIX = (
    "the server leaves the answer in reasoning_content and content empty: a reasoning parser "
    "that does not fit the model (vLLM: start it with --reasoning-parser qwen3 for Qwen3, "
    "deepseek_r1 for DeepSeek-R1, or without one for a model that does not think)"
)


@dataclass
class ClientStats:
    """What the client did in a run: requests sent, retries, waits, twins, refusals."""

    requests: int = 0  # HTTP requests sent (probes, retries and twins included)
    probes: int = 0
    retries: int = 0  # failed attempts tried again
    waits: int = 0  # server-asked waits (429…), not counted as attempts
    waited_s: float = 0.0
    hedges: int = 0  # twins of slow requests
    hedges_won: int = 0
    refused: int = 0  # 4xx answers
    learnt: list[str] = field(default_factory=list)  # adaptations, in words
    answer_in_reasoning: int = 0  # answers taken from the reasoning field

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in vars(self).items() if v}


@dataclass
class _Model:
    """What the client knows about one model: its shape; the request features (schema,
    tokens, temperature, each ``extra_body`` key) an answer has confirmed; the request
    learning the rest (``learner``: set when it is done), ``version`` counting the
    adaptations."""

    shape: Shape
    profile: Profile
    confirmed: set[str] = field(default_factory=set)
    learner: anyio.Event | None = None
    learning_since: float = 0.0
    probed: bool = False
    version: int = 0
    unanswered: int = 0  # first requests that got no answer at all
    fatal: LLMError | None = None  # what every request would meet: raised at once
    warned: set[str] = field(default_factory=set)

    def features(self, request: ChatRequest) -> set[str]:
        """What of the request's shape an answer must have accepted before it fans out."""
        found = {"schema"} if request.json_schema is not None else set()
        if request.max_tokens is not None:
            found.add("tokens")
        if request.temperature is not None and self.shape.temperature:
            found.add("temperature")
        keys = {*self.shape.extra, *(request.extra_body or ())} - self.shape.dropped
        return found | {f"extra:{k}" for k in keys}


@dataclass(frozen=True)
class Endpoint:
    """Where an :class:`OpenAIChatClient` sends its requests: ``base_url`` with ``api_key``
    (if any); ``provider`` picks the profile (``auto``: from the URL and model);
    ``key_source`` and ``url_source`` say where the key and the URL came from, for errors."""

    base_url: str
    api_key: str | None = None
    provider: str = "auto"
    key_source: str = "the API key"
    url_source: str | None = None


@dataclass(frozen=True)
class ClientOptions:
    """How an :class:`OpenAIChatClient` asks: ``timeout`` per request, ``retry`` (default
    :data:`LLM_RETRY`), the structured-output mode to try first (``first_mode``) and whether
    a schema is strict; ``probe`` learns the endpoint with a tiny request first (else the
    first real request goes alone); ``hedging``: ``True`` for the default
    :class:`~commitdigest.http.Hedging`, ``False`` for none."""

    timeout: float = 120.0
    retry: RetryPolicy | None = None
    strict_schema: bool = False
    first_mode: StructuredMode | None = None
    probe: bool = True
    hedging: Hedging | bool = True


class OpenAIChatClient:
    """:class:`ChatClient` for OpenAI-compatible endpoints; see the module docstring.

    It sends to ``endpoint`` as ``options`` say, paced by ``limiter`` (shared by every
    task that calls it; default a fresh :class:`RateLimiter`), through ``http_client``
    (default one of its own).
    """

    def __init__(
        self,
        endpoint: Endpoint,
        options: ClientOptions = ClientOptions(),
        *,
        limiter: RateLimiter | None = None,
        http_client: httpx2.AsyncClient | None = None,
    ) -> None:
        base_url, api_key, provider = endpoint.base_url, endpoint.api_key, endpoint.provider
        timeout, hedging = options.timeout, options.hedging
        self.base_url = base_url.rstrip("/")
        self.key_source = endpoint.key_source
        self.url_source = endpoint.url_source
        self.provider = provider
        self.timeout = timeout
        self.retry = options.retry or LLM_RETRY
        self.limiter = limiter or RateLimiter()
        self.strict_schema = options.strict_schema
        self.first_mode = options.first_mode
        self.probe = options.probe
        self.hedging: Hedging | None = (
            # before any latency is known: a twin after a quarter of the time-out
            (Hedging(initial_delay_s=max(10.0, timeout / 4)) if hedging else None)
            if isinstance(hedging, bool)
            else hedging
        )
        self.stats = ClientStats()
        self._secret = api_key or ""
        self._models: dict[str, _Model] = {}
        self._last_probe: Tried[Exchange] | None = None
        self._http = http_client or async_client(timeout=timeout)
        self._url = _endpoint(self.base_url, "chat/completions", provider_of(provider, base_url))
        headers = {"Content-Type": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
            if provider_of(provider, base_url) == "azure":
                headers["api-key"] = api_key
        self._headers = headers

    def __repr__(self) -> str:
        return f"OpenAIChatClient(base_url={self.base_url!r}, timeout={self.timeout})"

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> OpenAIChatClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    # ---- what the client knows

    @property
    def where(self) -> str:
        """The URL, with where it came from: ``http://…/v1 (from OPENAI_BASE_URL)``."""
        return f"{self.base_url} (from {self.url_source})" if self.url_source else self.base_url

    def profile(self, model: str) -> Profile:
        return self._model(model).profile

    def shape(self, model: str) -> Shape:
        """How requests for ``model`` are built now."""
        return self._model(model).shape

    def reasons(self, model: str) -> bool:
        """Whether ``model`` thinks before it answers (its profile, or what its answers
        showed): its requests then get room for the reasoning (see the engine)."""
        return self._model(model).shape.reasoning

    def mode_for(self, model: str) -> StructuredMode:
        """The structured-output mode the next schema request for ``model`` uses."""
        return self._model(model).shape.mode

    def _model(self, model: str) -> _Model:
        found = self._models.get(model)
        if found is None:
            profile = profile_for(self.provider, model, self.base_url)
            shape = Shape.of(profile, mode=self.first_mode, strict=self.strict_schema)
            found = self._models[model] = _Model(shape, profile)
        return found

    def _redact(self, text: str) -> str:
        return text.replace(self._secret, "[redacted]") if len(self._secret) >= 4 else text

    # ---- one completion

    async def complete(self, request: ChatRequest) -> ChatResult:
        state = self._model(request.model)
        while True:
            if state.fatal is not None:  # every request would fail: none is sent again
                raise state.fatal
            if state.features(request) <= state.confirmed:
                return await self._complete(request, state, learning=False)
            if state.learner is None:  # this request learns what is not known yet, alone
                return await self._learn_with(request, state)
            # another request is learning: wait for it; a request that has gone long
            # without a refusal was accepted (refusals come at once), so go anyway then
            waited = LEARN_GRACE_S - (time.monotonic() - state.learning_since)
            with anyio.move_on_after(max(0.0, waited)):
                await state.learner.wait()
            if state.learner is not None and not state.learner.is_set():
                return await self._complete(request, state, learning=False)

    async def _learn_with(self, request: ChatRequest, state: _Model) -> ChatResult:
        """The first request of its shape, alone (see :meth:`complete`). A plain-text one
        cannot tell which structured-output mode works, so the probe follows it (unless
        ``probe`` is off)."""
        done = state.learner = anyio.Event()
        state.learning_since = time.monotonic()
        try:
            result = await self._complete(request, state, learning=True)
            if request.json_schema is None and self.probe and not state.probed:
                state.probed = True
                await self._probe(request, state)
            return result
        except (LLMEndpointError, LLMAuthError) as exc:
            state.fatal = exc
            raise
        finally:
            state.learner = None
            done.set()

    async def _complete(self, request: ChatRequest, state: _Model, *, learning: bool) -> ChatResult:
        timeout = request.timeout if request.timeout is not None else self.timeout
        for _ in range(len(MODE_ORDER) + 6):  # each adaptation happens at most once
            version = state.version
            body, mode = build_body(request, state.shape)
            tried = await self._send(body, timeout, self.hedging, request.model)
            if tried.ok:
                state.confirmed |= state.features(request)
                state.shape.confirmed = True
                return self._result(tried, mode, state, request)
            if tried.verdict.kind != "stop":
                reason = unavailable_reason(tried.failures, timeout)
                if learning:
                    state.unanswered += 1
                    if _unreachable(tried) or state.unanswered >= MAX_UNANSWERED:
                        raise self._endpoint_failed(tried, reason) from None
                raise LLMUnavailableError(reason) from None
            status, message, param = self._refusal(tried)
            if _CONTEXT_PATTERNS.search(message):
                raise ContextLengthError(f"context length exceeded: {_shorten(message)}") from None
            if version != state.version:
                continue  # another request reshaped it meanwhile: send again as it is now
            if self._learn(state, request, status, message, param):
                continue
            refused = f"HTTP {status} from {self.base_url}: {_shorten(message)}"
            if status == 404 or _MODEL_UNKNOWN.search(message):  # every request meets it
                raise LLMEndpointError(
                    f"{refused} — every request would be refused; {_setting_hint(message, param)}",
                    status,
                ) from None
            if learning and not state.probed:
                # this request's content, or the shape every request has? the probe (the
                # same shape, nothing of the commit) tells; it raises in the second case
                state.probed = True
                await self._probe(request, state)
            raise LLMRequestError(refused, status) from None
        tried_shapes = ", ".join(state.shape.learnt)
        raise LLMEndpointError(f"{self.where} kept refusing the request's shape ({tried_shapes})")

    # ---- the probe

    async def _probe(self, request: ChatRequest, state: _Model) -> bool:
        """Learn the endpoint with a tiny request shaped like ``request`` (see the module
        docstring); raise what would fail every request. True: answered (the model is
        settled); False: no clear answer (dropped connections)."""
        probing = Hedging(fixed_delay_s=PROBE_HEDGE_S)
        timeout = min(self.timeout, PROBE_TIMEOUT_S)
        for _ in range(len(MODE_ORDER) + 6):
            tokens = PROBE_TOKENS * (4 if state.shape.reasoning else 1)
            probe = ChatRequest(
                messages=PROBE_MESSAGES,
                model=request.model,
                max_tokens=tokens,
                # the temperature a run sends, when the request that calls it sent none
                temperature=request.temperature
                if request.temperature is not None
                else PROBE_TEMPERATURE,
                json_schema=PROBE_SCHEMA,
                schema_name="probe",
                extra_body=request.extra_body,
            )
            body, _ = build_body(probe, state.shape)
            self.stats.probes += 1
            tried = self._last_probe = await self._send(body, timeout, probing, request.model)
            if tried.ok:
                self._read_probe(tried, state, request.model)
                state.confirmed |= state.features(probe)
                state.shape.confirmed = True
                return True
            if tried.verdict.kind != "stop":
                if any(f in _UNCLEAR for f in tried.failures):
                    log.info("LLM probe of %s got no clear answer", self.base_url)
                    return False
                raise self._endpoint_failed(tried, unavailable_reason(tried.failures, timeout))
            status, message, param = self._refusal(tried)
            if _OUTPUT_LIMIT.search(message):  # a reasoning model asked for more room: fine
                state.confirmed |= state.features(probe)
                return True
            if self._learn(state, probe, status, message, param):
                continue
            raise LLMEndpointError(
                f"HTTP {status} from {self.where}: {_shorten(message)} — "
                f"{_setting_hint(message, param)}",
                status,
            )
        raise LLMEndpointError(f"{self.where} kept refusing the request's shape")

    async def check(self, request: ChatRequest) -> Tried[Exchange]:
        """Probe the endpoint now for ``request.model`` (as the first request would: see
        :meth:`_probe`), whatever is already known; raises what would fail every request.
        Returns the probe's last exchange (its latency, its headers)."""
        state = self._model(request.model)
        state.probed = True
        await self._probe(request, state)
        assert self._last_probe is not None
        return self._last_probe

    async def list_models(self) -> list[str] | None:
        """The model ids ``GET /models`` lists; ``None`` when the server lists none."""
        url = _endpoint(self.base_url, "models", provider_of(self.provider, self.base_url))
        try:
            response = await self._http.get(url, headers=self._headers, timeout=10.0)
            data = response.json() if response.status_code == 200 else None
        except (httpx2.HTTPError, ValueError):
            return None
        items = data.get("data") if isinstance(data, Mapping) else None
        if not isinstance(items, list):
            return None
        return [str(m["id"]) for m in items if isinstance(m, Mapping) and m.get("id")]

    def _read_probe(self, tried: Tried[Exchange], state: _Model, model: str) -> None:
        """What the probe's answer says about the model: does it think first, does the server
        leave the answer in the reasoning field."""
        assert tried.value is not None
        message = _message(tried.value[1]) or {}
        content = _text(message.get("content"))
        reasoning = _reasoning(message)
        details = (tried.value[1].get("usage") or {}).get("completion_tokens_details") or {}
        thinks = bool(reasoning) or "<think" in content.lower()
        if isinstance(details, Mapping) and (details.get("reasoning_tokens") or 0) > 0:
            thinks = True
        if thinks and not state.shape.reasoning:
            state.shape.reasoning = True
            state.shape.learnt.append("room for the reasoning")
            log.info("LLM model %s thinks before it answers: its requests get room for that", model)
        if not content.strip() and reasoning and "{" in reasoning:
            state.shape.answer_in_reasoning = True
            self._warn_once(state, "reasoning", f"LLM {self.base_url}: {REASONING_PARSER_FIX}")

    # ---- sending

    async def _send(
        self, body: dict[str, Any], timeout: float, hedging: Hedging | None, model: str
    ) -> Tried[Exchange]:
        payload = json.dumps(body, ensure_ascii=False).encode("utf-8")

        async def send() -> Exchange:
            self.stats.requests += 1
            response = await self._http.post(
                self._url, content=payload, headers=self._headers, timeout=timeout
            )
            try:
                data = json.loads(response.content) if response.content else None
            except ValueError:
                data = None
            return response, data

        tried = await send_with_retry(
            send,
            self._classify,
            policy=self.retry,
            limiter=self.limiter,
            hedging=hedging,
            label=f"LLM call to {self.base_url} ({model})",
        )
        self.stats.retries += max(0, tried.attempts - 1)
        self.stats.waits += tried.waits
        self.stats.waited_s += tried.waited_s
        self.stats.hedges += tried.hedges
        return tried

    def _classify(self, value: Exchange | None, error: BaseException | None) -> Verdict:
        if error is not None:
            if isinstance(error, httpx2.TimeoutException):
                return Verdict("retry", "timeout")
            if isinstance(error, httpx2.ConnectError):
                return Verdict("retry", "cannot connect")
            if isinstance(error, httpx2.TransportError):
                return Verdict("retry", "connection error")
            raise error
        assert value is not None
        response, data = value
        status = response.status_code
        if status == 200:
            if _message(data) is not None:
                return DONE
            return Verdict("retry", "malformed response", quick=True)
        self.stats.refused += status < 500 and status not in (408, 409, 429)
        if status in (401, 403):  # never quote the server: it may echo the key
            raise LLMAuthError(
                f"HTTP {status} from {self.where}: {self.key_source} was refused or lacks access",
                status,
            ) from None
        text = _server_message(data, response)
        if status == 429 and _QUOTA.search(text):
            raise LLMEndpointError(
                f"HTTP 429 from {self.where}: {_shorten(self._redact(text))} — the account's "
                "quota is spent (no wait helps)",
                status,
            )
        if status in (429, 503):
            asked = server_wait(response.headers, text)
            if status == 429 or asked is not None:
                return Verdict("wait", f"HTTP {status}", asked, overloaded=True)
            return Verdict("retry", f"HTTP {status}", None, overloaded=True)
        if status in (408, 409) or status >= 500:
            return Verdict("retry", f"HTTP {status}", server_wait(response.headers))
        return Verdict("stop", f"HTTP {status}")

    def _refusal(self, tried: Tried[Exchange]) -> tuple[int, str, str | None]:
        assert tried.value is not None
        response, data = tried.value
        error = data.get("error") if isinstance(data, Mapping) else None
        param = error.get("param") if isinstance(error, Mapping) else None
        code = error.get("code") if isinstance(error, Mapping) else None
        message = self._redact(_server_message(data, response))
        if code and isinstance(code, str) and code not in message:
            message = f"{message} ({code})"
        return response.status_code, message, param if isinstance(param, str) else None

    def _learn(
        self,
        state: _Model,
        request: ChatRequest,
        status: int,
        message: str,
        param: str | None,
    ) -> bool:
        model = request.model
        extra = list(request.extra_body or ())
        change = adapt(state.shape, status, message, param=param, extra_keys=extra)
        if change is None:
            return False
        state.version += 1
        self.stats.learnt.append(change)
        log.warning(
            "LLM %s refused a request for %s (%s); from now on: %s",
            self.base_url, model, _shorten(message, 160), change,
        )  # fmt: skip
        return True

    def _endpoint_failed(self, tried: Tried[Exchange], reason: str) -> LLMEndpointError:
        if _unreachable(tried):
            detail = describe_transport_error(tried.error) if tried.error else "no connection"
            return LLMEndpointError(
                f"cannot reach the LLM endpoint {self.where}: {detail}; check the URL and that "
                "the server is running"
            )
        return LLMEndpointError(f"the LLM endpoint {self.where} kept failing: {reason}")

    def _warn_once(self, state: _Model, key: str, text: str) -> None:
        if key not in state.warned:
            state.warned.add(key)
            log.warning("%s", text)

    # ---- the answer

    def _result(
        self, tried: Tried[Exchange], mode: StructuredMode, state: _Model, request: ChatRequest
    ) -> ChatResult:
        assert tried.value is not None
        response, data = tried.value
        message = _message(data) or {}
        content = _text(message.get("content"))
        reasoning = _reasoning(message)
        from_reasoning = False
        schema = request.json_schema is not None
        if schema and not content.strip() and reasoning and "{" in reasoning:
            content, from_reasoning = reasoning, True
            self.stats.answer_in_reasoning += 1
            state.shape.answer_in_reasoning = True
            self._warn_once(state, "reasoning", f"LLM {self.base_url}: {REASONING_PARSER_FIX}")
        choice = data["choices"][0]
        finish = choice.get("finish_reason")
        model = data.get("model")
        return ChatResult(
            text=content,
            finish_reason=finish if isinstance(finish, str) else None,
            usage=_usage(data.get("usage")),
            mode=mode,
            request_id=response.headers.get("x-request-id") or _str(data.get("id")),
            latency_s=tried.latency_s,
            attempts=tried.attempts,
            model=model if isinstance(model, str) else None,
            reasoning=reasoning or None,
            from_reasoning=from_reasoning,
            hedges=tried.hedges,
        )


def build_chat_client(settings: LLMSettings) -> OpenAIChatClient:
    """The real client for ``settings``; a dummy key for servers that need none."""
    key = settings.api_key.get_secret_value() if settings.api_key else None
    if not key and not settings.base_url:
        raise UsageError(
            "the LLM analyser needs OPENAI_API_KEY (or OPENAI_BASE_URL for a server that "
            "needs no key)"
        )
    key_from = settings.origin("api_key") or SECRET_HINTS["llm.api_key"]
    modes = {
        "json_schema_strict": StructuredMode.JSON_SCHEMA,
        "json_schema": StructuredMode.JSON_SCHEMA,
        "json_object": StructuredMode.JSON_OBJECT,
        "prompt": StructuredMode.TEXT,
    }
    endpoint = Endpoint(
        base_url=settings.base_url or DEFAULT_BASE_URL,
        api_key=key or "not-needed",
        provider=settings.provider,
        key_source=(
            f"the API key from {key_from}"
            if key
            else f"the request without an API key (set {SECRET_HINTS['llm.api_key']})"
        ),
        url_source=settings.origin("base_url")
        or ("the default: OPENAI_BASE_URL is not set" if not settings.base_url else None),
    )
    options = ClientOptions(
        timeout=settings.timeout_s,
        retry=replace(
            LLM_RETRY, max_attempts=settings.max_attempts, max_wait_s=settings.max_wait_s
        ),
        strict_schema=settings.structured_output == "json_schema_strict",
        first_mode=modes.get(settings.structured_output),
    )
    return OpenAIChatClient(
        endpoint,
        options,
        limiter=RateLimiter(
            max_concurrency=settings.max_concurrency,
            requests_per_minute=settings.requests_per_minute,
        ),
        http_client=async_client(timeout=settings.timeout_s),
    )


def provider_of(provider: str, base_url: str) -> str:
    """The provider name ``provider`` stands for (``auto``: detected from the URL)."""
    from commitdigest.analysis.llm.providers import detect

    return detect(base_url, "") if provider == "auto" else provider


def _endpoint(base_url: str, path: str, provider: str) -> str:
    """``base_url`` + ``/path``, keeping the URL's query (Azure's ``api-version``)."""
    parts = urlsplit(base_url)
    query = dict(parse_qsl(parts.query))
    if provider == "azure" and "api-version" not in query and "/openai/v1" not in parts.path:
        query["api-version"] = "2024-10-21"
    return urlunsplit(
        (parts.scheme, parts.netloc, f"{parts.path.rstrip('/')}/{path}", urlencode(query), "")
    )


def _unreachable(tried: Tried[Exchange]) -> bool:
    """Whether every attempt failed to connect at all (refused, DNS, TLS)."""
    return bool(tried.failures) and all(f == "cannot connect" for f in tried.failures)


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _message(data: Any) -> dict[str, Any] | None:
    """The first choice's message of a completion; ``None`` when it is not one."""
    if not isinstance(data, Mapping):
        return None
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], Mapping):
        return None
    message = choices[0].get("message")
    return dict(message) if isinstance(message, Mapping) else None


def _text(content: object) -> str:
    """Message content as text: a string, or the text parts of a list of parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            p.get("text", "") for p in content if isinstance(p, Mapping) and p.get("type") == "text"
        )
    return ""


def _reasoning(message: Mapping[str, Any] | None) -> str:
    """The model's reasoning, whichever field the server puts it in."""
    if not message:
        return ""
    for key in ("reasoning_content", "reasoning", "thinking"):
        value = message.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return ""


def _usage(raw: object) -> TokenUsage | None:
    if not isinstance(raw, Mapping):
        return None
    counts = [raw.get(name) for name in TokenUsage.__slots__]
    prompt, completion, total = (n if type(n) is int else None for n in counts)
    if total is None and prompt is not None and completion is not None:
        total = prompt + completion
    return TokenUsage(prompt, completion, total)


def _server_message(data: Any, response: httpx2.Response) -> str:
    """What the server said: ``error.message`` (OpenAI), ``message`` (vLLM), ``detail``…"""
    body = data.get("error", data) if isinstance(data, Mapping) else data
    if isinstance(body, Mapping):
        value = next((body[k] for k in ("message", "detail", "error", "msg") if body.get(k)), body)
        return value if isinstance(value, str) else json.dumps(value, default=str)
    if isinstance(body, str) and body.strip():
        return body
    text = response.text.strip() if response.content else ""
    return text[:300] or f"HTTP {response.status_code}"


def _shorten(text: str, limit: int = 240) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


_CONTEXT_PATTERNS = re.compile(
    r"context[ _]length|maximum context|context window|max_model_len|too many tokens"
    r"|prompt is too long|input is too long|longer than the model|input length"
    r"|reduce the length|max_tokens must be at least 1",
    re.IGNORECASE,
)
_OUTPUT_LIMIT = re.compile(r"max_tokens or model output limit|could not finish the message", re.I)
_QUOTA = re.compile(
    r"insufficient_quota|exceeded your current quota|quota exceeded|Arrearage", re.I
)
_UNCLEAR = frozenset({"connection error", "malformed response"})


_MODEL_UNKNOWN = re.compile(
    r"model\b.{0,80}?(?:not (?:be )?found|does not exist|unknown|no such|not supported)"
    r"|(?:unknown|invalid|no such) model|model_not_found",
    re.IGNORECASE,
)


def _setting_hint(message: str, param: str | None) -> str:
    """The setting to change for a refusal every request would meet."""
    said = f"{message} {param or ''}".lower()
    if _MODEL_UNKNOWN.search(said):
        return "check llm.model (--model, COMMITDIGEST_LLM__MODEL) and the base URL"
    if "temperature" in said:
        return "check llm.temperature"
    if re.search(r"response_format|json_schema|json_object", said):
        return "set llm.structured_output (json_object or prompt)"
    return "check llm.provider, llm.extra_body and llm.model (`commitdigest llm check` tests them)"


def unavailable_reason(failures: list[str], timeout: float) -> str:
    """``"HTTP 500 after 4 attempts"``, ``"timed out after 2 attempts (30 s each)"``…"""
    if not failures:
        return "no answer"
    tries = f"{len(failures)} attempt" + ("" if len(failures) == 1 else "s")
    if all(f == "timeout" for f in failures):
        return f"timed out after {tries} ({timeout:g} s each)"
    last = f"timed out ({timeout:g} s)" if failures[-1] == "timeout" else failures[-1]
    return f"{last} after {tries}"
