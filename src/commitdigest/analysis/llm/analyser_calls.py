"""One structured LLM call, made until it gives a usable answer or cannot.

:class:`Caller` sends one prompt (system + user message) and returns a validated
:class:`~commitdigest.analysis.llm.schema.FullOutput` (or :class:`CompactOutput`):

* ``finish_reason == "length"`` is never accepted, even when the JSON parses: the request is
  sent again with twice the ``max_tokens``, up to ``max_output_tokens_cap`` and what the
  context window leaves; then once in the compact form; then :class:`CallFailed`.
* an unreadable or invalid reply is answered once with the model's reply and the error (short),
  asking for corrected JSON only; a second one is :class:`CallFailed`.
* every request's estimated prompt (scaled by the :class:`TokenCalibration`) stays within
  ``input_budget_tokens``, and prompt + ``max_tokens`` within ``context_window`` with at least
  ``min_output_tokens`` to answer in; a request that cannot is :class:`PromptTooLarge` (as is
  the server's :class:`ContextLengthError`): the caller plans a smaller diff.
* :class:`LLMUnavailableError` / :class:`LLMRequestError` become :class:`CallFailed` with a
  human-readable reason; :class:`LLMAuthError` and anything unexpected propagate.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, fields
from typing import Any

from pydantic import ValidationError

from commitdigest.analysis.llm.analyser_text import tr
from commitdigest.analysis.llm.chat import ChatClient, ChatRequest, ChatResult, TokenUsage
from commitdigest.analysis.llm.extract import JSONExtractionError, extract_json_object, strip_think
from commitdigest.analysis.llm.prompt import correction_prompt, estimate_messages
from commitdigest.analysis.llm.schema import (
    COMPACT_SCHEMA,
    FULL_SCHEMA,
    CompactOutput,
    FullOutput,
    describe_validation_error,
)
from commitdigest.analysis.llm.tokens import TokenCalibration
from commitdigest.config.settings import LLMSettings
from commitdigest.errors import ContextLengthError, LLMAuthError, LLMError, LLMUnavailableError
from commitdigest.models import Usage

log = logging.getLogger(__name__)

Messages = list[dict[str, str]]


def _default(name: str) -> Any:
    """The default of ``LLMSettings.<name>``."""
    return LLMSettings.model_fields[name].default


@dataclass(frozen=True)
class LLMOptions:
    """How the LLM analyser calls the model. The defaults are ``LLMSettings``'s (the config
    is their one source); :meth:`from_settings` takes every shared field from the settings."""

    model: str
    temperature: float = _default("temperature")
    max_output_tokens: int = _default("max_output_tokens")
    max_output_tokens_cap: int = _default("max_output_tokens_cap")  # "length" retries grow to
    context_window: int = _default("context_window")  # estimated prompt + max_tokens fit
    input_budget_tokens: int = _default("input_budget_tokens")  # estimated prompt, at most
    max_chunks: int = _default("max_chunks")
    extra_body: dict[str, Any] = field(default_factory=dict)
    price_input_per_mtok: float | None = _default("price_input_per_mtok")
    price_output_per_mtok: float | None = _default("price_output_per_mtok")
    request_timeout_s: float | None = None  # per attempt; None: the client's default
    min_output_tokens: int = 512  # a request never leaves the model less room than this

    @classmethod
    def from_settings(cls, settings: LLMSettings) -> LLMOptions:
        shared = {f.name for f in fields(cls)} & set(LLMSettings.model_fields)
        values = {name: getattr(settings, name) for name in shared}
        values["extra_body"] = dict(settings.extra_body)
        return cls(**values, request_timeout_s=settings.timeout_s)

    def __post_init__(self) -> None:
        if not 0 < self.max_output_tokens <= self.max_output_tokens_cap:
            raise ValueError("need 0 < max_output_tokens <= max_output_tokens_cap")
        if self.min_output_tokens < 1 or self.input_budget_tokens < 1 or self.max_chunks < 1:
            raise ValueError("min_output_tokens, input_budget_tokens, max_chunks must be >= 1")
        if self.context_window <= self.output_floor:
            raise ValueError("context_window must exceed the minimum output room")

    @property
    def output_floor(self) -> int:
        """The least ``max_tokens`` a request may have."""
        return min(self.min_output_tokens, self.max_output_tokens)

    @property
    def input_cap(self) -> int:
        """Real prompt tokens one request may have (budget, and room for the floor)."""
        return min(self.input_budget_tokens, self.context_window - self.output_floor)


class CallFailed(Exception):
    """The model gave no usable answer; ``reason`` is human-readable, in the report language."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class PromptTooLarge(Exception):
    """The request does not fit the budget or the model's context: plan a smaller diff."""


@dataclass
class Tally:
    """What the calls for one commit cost so far (responses that reached us)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0

    def add(self, usage: TokenUsage | None) -> None:
        self.calls += 1
        if usage is not None:
            self.prompt_tokens += usage.prompt_tokens or 0
            self.completion_tokens += usage.completion_tokens or 0

    def usage(self, options: LLMOptions) -> Usage | None:
        """The total as a :class:`Usage` (``None`` before any response), priced if configured."""
        if self.calls == 0:
            return None
        return Usage.priced(
            self.prompt_tokens,
            self.completion_tokens,
            self.calls,
            options.price_input_per_mtok,
            options.price_output_per_mtok,
        )


@dataclass(frozen=True)
class CallSpec:
    """One prompt in both forms; ``label`` names it in logs ("part 2/4", "merge")."""

    system: str
    user: str
    compact_user: str
    label: str = ""


@dataclass(frozen=True)
class CallOutcome:
    output: CompactOutput  # a FullOutput unless ``compact``
    compact: bool


class Caller:
    """Makes :class:`CallSpec` requests for one commit (see the module docstring)."""

    def __init__(
        self,
        client: ChatClient,
        options: LLMOptions,
        calibration: TokenCalibration,
        tally: Tally,
        lang: str,
    ) -> None:
        self._client = client
        self._options = options
        self._calibration = calibration
        self._tally = tally
        self._lang = lang

    def fits(self, messages: Messages, schema: dict[str, Any] = FULL_SCHEMA) -> bool:
        """Whether these messages stay within the input cap."""
        real = self._calibration.scale(estimate_messages(messages, schema))
        return real <= self._options.input_cap

    async def run(self, spec: CallSpec) -> CallOutcome:
        opts = self._options
        want = opts.max_output_tokens
        compact = False
        length_hits = 0
        failures: list[tuple[str, str]] = []  # (kind, detail) of unusable replies
        retry: Messages = []  # the model's unusable reply and our correction
        while True:
            schema = COMPACT_SCHEMA if compact else FULL_SCHEMA
            user = spec.compact_user if compact else spec.user
            messages = [
                {"role": "system", "content": spec.system},
                {"role": "user", "content": user},
                *retry,
            ]
            max_tokens = self._room(messages, schema, want)
            result = await self._complete(messages, schema, max_tokens)
            if result.finish_reason == "length":
                length_hits += 1
                retry = []
                room = self._room(messages[:2], schema, opts.max_output_tokens_cap)
                log.info("LLM %s: output cut off at %d tokens", spec.label, max_tokens)
                if not compact and max_tokens < room:
                    want = min(2 * max_tokens, opts.max_output_tokens_cap)
                elif not compact:
                    compact, want = True, max_tokens
                else:
                    raise CallFailed(tr(self._lang, "length", n=length_hits))
                continue
            model = CompactOutput if compact else FullOutput
            try:
                output = model.model_validate(extract_json_object(result.text))
            except JSONExtractionError as err:
                failures.append(("invalid_json", err.reason))
            except ValidationError as err:
                failures.append(("schema", describe_validation_error(err)))
            else:
                return CallOutcome(output, compact)
            log.info("LLM %s: unusable reply (%s)", spec.label, failures[-1][1])
            if len(failures) >= 2:
                kinds = {kind for kind, _ in failures}
                key = kinds.pop() if len(kinds) == 1 else "unusable"
                raise CallFailed(tr(self._lang, key, detail=failures[-1][1]))
            retry = self._correction(messages, schema, result.text, failures[-1][1], want)

    def _room(self, messages: Messages, schema: dict[str, Any], want: int) -> int:
        """``max_tokens`` for this request: ``want``, less if the context is short."""
        opts = self._options
        real = self._calibration.scale(estimate_messages(messages, schema))
        max_tokens = min(want, opts.context_window - real)
        if real > opts.input_budget_tokens or max_tokens < opts.output_floor:
            raise PromptTooLarge
        return max_tokens

    def _correction(
        self, messages: Messages, schema: dict[str, Any], reply: str, error: str, want: int
    ) -> Messages:
        """The messages that ask again: the reply (if it fits) and the error."""
        ask = {"role": "user", "content": correction_prompt(error)}
        echo = strip_think(reply).strip()
        if echo:
            candidate = [{"role": "assistant", "content": echo}, ask]
            try:
                self._room([*messages[:2], *candidate], schema, want)
            except PromptTooLarge:
                pass
            else:
                return candidate
        return [ask]

    async def _complete(
        self, messages: Messages, schema: dict[str, Any], max_tokens: int
    ) -> ChatResult:
        opts = self._options
        request = ChatRequest(
            messages=messages,
            model=opts.model,
            max_tokens=max_tokens,
            temperature=opts.temperature,
            json_schema=schema,
            schema_name="commit_analysis" if schema is FULL_SCHEMA else "commit_analysis_compact",
            extra_body=dict(opts.extra_body) or None,
            timeout=opts.request_timeout_s,
        )
        try:
            result = await self._client.complete(request)
        except LLMAuthError:
            raise
        except ContextLengthError:
            raise PromptTooLarge from None
        except LLMUnavailableError as err:
            raise CallFailed(tr(self._lang, "unavailable", reason=err.reason)) from None
        except LLMError as err:
            raise CallFailed(tr(self._lang, "refused", reason=str(err))) from None
        self._tally.add(result.usage)
        actual = result.usage.prompt_tokens if result.usage is not None else None
        if actual:
            self._calibration.observe(estimate_messages(messages, schema), actual)
        return result
