"""The one LLM call engine: a structured request, made until it gives a usable answer or cannot.

The commit analyser and the daily overview both call the model through :class:`Caller`. A
:class:`CallSpec` holds the request in one or more :class:`ReplyForm` s (the full form first,
then smaller ones: the analyser's compact form), each with its messages, its JSON schema and
the function that reads the reply. :meth:`Caller.run` returns the first usable reply:

* ``finish_reason == "length"`` is never accepted, even when the JSON parses: in the first
  form the request is sent again with twice the ``max_tokens`` (at least 512 more), up to
  ``max_output_tokens_cap`` and what the context window leaves; then once in the next form;
  then :class:`CallFailed`. A model that reasons before it answers (the client's
  ``reasons(model)``) gets ``reasoning_tokens`` more on every request, the cap included,
  so its thinking cannot eat the answer's room.
* an unreadable or invalid reply is answered once with the error (and, when the spec says so,
  the model's reply), asking for corrected JSON only; a second one is :class:`CallFailed`.
* every request's estimated prompt (scaled by the :class:`TokenCalibration`) stays within
  ``input_budget_tokens``, and prompt + ``max_tokens`` within ``context_window`` with at least
  ``min_output_tokens`` to answer in; a request that cannot is :class:`PromptTooLarge` (as is
  the server's :class:`ContextLengthError`): the caller plans a smaller prompt.
* :class:`LLMUnavailableError` / :class:`LLMRequestError` become :class:`CallFailed`;
  :class:`LLMAuthError`, :class:`LLMEndpointError` (every request would fail: the run
  stops) and anything unexpected propagate.

:class:`CallFailed` says what went wrong as a ``kind`` and values, so each caller words it in
its own language (:func:`~commitdigest.analysis.llm.analyser` through :mod:`commitdigest.i18n`).
What every call cost is added to a :class:`Tally`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Generic, TypeVar

from pydantic import ValidationError

from commitdigest.analysis.llm.chat import ChatClient, ChatRequest, ChatResult, TokenUsage
from commitdigest.analysis.llm.extract import JSONExtractionError, strip_think
from commitdigest.analysis.llm.prompt import correction_prompt, estimate_messages
from commitdigest.analysis.llm.schema import describe_validation_error
from commitdigest.analysis.llm.tokens import TokenCalibration
from commitdigest.config.settings import LLMSettings
from commitdigest.errors import (
    ContextLengthError,
    LLMAuthError,
    LLMEndpointError,
    LLMError,
    LLMUnavailableError,
)
from commitdigest.models import Usage

log = logging.getLogger(__name__)

Messages = list[dict[str, str]]
T = TypeVar("T")


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
    reasoning_tokens: int = _default("reasoning_tokens")  # more room for a model that reasons
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
    """The model gave no usable answer. ``kind`` names why (``unavailable``, ``refused``,
    ``length``, ``invalid_json``, ``schema``, ``unusable``; callers add their own), ``values``
    fill the caller's wording of it."""

    def __init__(self, kind: str, **values: object) -> None:
        super().__init__(kind, values)
        self.kind = kind
        self.values = values


class PromptTooLarge(Exception):
    """The request does not fit the budget or the model's context: plan a smaller prompt."""


@dataclass
class Tally:
    """What the calls for one commit (or overview) cost so far (responses that reached us)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0
    unusable: list[str] = field(default_factory=list)  # the kind of each unusable reply

    def add(self, usage: TokenUsage | None, hedges: int = 0) -> None:
        self.calls += 1 + hedges  # a slow request's twin is a call too
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


def describe_reply_error(err: ValueError) -> str:
    """A short, one-line reason why a reply could not be read."""
    if isinstance(err, JSONExtractionError):
        return err.reason
    if isinstance(err, ValidationError):
        return describe_validation_error(err)
    return str(err)


@dataclass(frozen=True)
class ReplyForm(Generic[T]):
    """One shape of answer: its JSON schema (and the name sent with it) and its reader, which
    raises :class:`ValueError` (a :class:`JSONExtractionError`, a :class:`ValidationError`…)
    for a reply it cannot use."""

    schema: dict[str, Any]
    name: str
    read: Callable[[str], T]


@dataclass(frozen=True)
class CallSpec(Generic[T]):
    """One request: ``(form, messages)`` pairs, the fullest first; ``label`` names it in logs
    ("part 2/4", "merge"); ``correct`` words the re-ask after an unusable reply, ``echo``
    says whether the unusable reply is sent back with it."""

    forms: Sequence[tuple[ReplyForm[T], Messages]]
    label: str = ""
    correct: Callable[[str], str] = correction_prompt
    echo: bool = True


@dataclass(frozen=True)
class CallOutcome(Generic[T]):
    output: T
    form: int  # the index of the form that answered: 0 is the fullest

    @property
    def compact(self) -> bool:
        return self.form > 0


def _kind(err: ValueError) -> str:
    kind = getattr(err, "kind", None)  # a reader's own kind (the language check's)
    if isinstance(kind, str):
        return kind
    if isinstance(err, JSONExtractionError):
        return "invalid_json"
    if isinstance(err, ValidationError):
        return "schema"
    return "unusable"


class Caller:
    """Makes :class:`CallSpec` requests with one client and options (see the module docstring)."""

    def __init__(
        self,
        client: ChatClient,
        options: LLMOptions,
        calibration: TokenCalibration,
        tally: Tally,
    ) -> None:
        self._client = client
        self._options = options
        self._calibration = calibration
        self._tally = tally

    def fits(self, messages: Messages, schema: dict[str, Any]) -> bool:
        """Whether these messages stay within the input cap."""
        real = self._calibration.scale(estimate_messages(messages, schema))
        return real <= self._options.input_cap

    def _reasoning_room(self) -> int:
        """The extra ``max_tokens`` a model that reasons before it answers gets (the client
        says whether it does: ``reasons(model)``, optional in the protocol)."""
        reasons = getattr(self._client, "reasons", None)
        thinks = callable(reasons) and bool(reasons(self._options.model))
        return self._options.reasoning_tokens if thinks else 0

    async def run(self, spec: CallSpec[T]) -> CallOutcome[T]:
        opts = self._options
        extra = self._reasoning_room()
        cap = opts.max_output_tokens_cap + extra
        want = opts.max_output_tokens + extra
        form = 0
        length_hits = 0
        failures: list[tuple[str, str]] = []  # (kind, detail) of unusable replies
        retry: Messages = []  # the model's unusable reply and our correction
        while True:
            reply_form, base = spec.forms[form]
            messages = [*base, *retry]
            max_tokens = self._room(messages, reply_form.schema, want)
            result = await self._complete(messages, reply_form, max_tokens)
            if result.finish_reason == "length":
                length_hits += 1
                retry = []
                room = self._room(list(base), reply_form.schema, cap)
                log.info("LLM %s: output cut off at %d tokens", spec.label, max_tokens)
                if form == 0 and max_tokens < room:
                    want = min(max(2 * max_tokens, max_tokens + 512), cap)
                elif form + 1 < len(spec.forms):
                    form, want = form + 1, max_tokens
                else:
                    raise CallFailed("length", n=length_hits, max_tokens=max_tokens)
                continue
            try:
                return CallOutcome(reply_form.read(result.text), form)
            except ValueError as err:  # JSONExtractionError and ValidationError among them
                failures.append((_kind(err), describe_reply_error(err)))
            log.info("LLM %s: unusable reply (%s)", spec.label, failures[-1][1])
            self._tally.unusable.append(failures[-1][0])
            if len(failures) >= 2:
                kinds = {kind for kind, _ in failures}
                kind = kinds.pop() if len(kinds) == 1 else "unusable"
                raise CallFailed(kind, detail=failures[-1][1])
            retry = self._correction(
                spec, list(base), reply_form, result.text, failures[-1][1], want
            )

    def _room(self, messages: Messages, schema: dict[str, Any], want: int) -> int:
        """``max_tokens`` for this request: ``want``, less if the context is short."""
        opts = self._options
        real = self._calibration.scale(estimate_messages(messages, schema))
        max_tokens = min(want, opts.context_window - real)
        if real > opts.input_budget_tokens or max_tokens < opts.output_floor:
            raise PromptTooLarge
        return max_tokens

    def _correction(
        self,
        spec: CallSpec[T],
        base: Messages,
        form: ReplyForm[T],
        reply: str,
        error: str,
        want: int,
    ) -> Messages:
        """The messages that ask again: the reply (if echoed and it fits) and the error."""
        ask = {"role": "user", "content": spec.correct(error)}
        echo = strip_think(reply).strip() if spec.echo else ""
        if echo:
            candidate = [{"role": "assistant", "content": echo}, ask]
            try:
                self._room([*base, *candidate], form.schema, want)
            except PromptTooLarge:
                pass
            else:
                return candidate
        return [ask]

    async def _complete(
        self, messages: Messages, form: ReplyForm[T], max_tokens: int
    ) -> ChatResult:
        opts = self._options
        request = ChatRequest(
            messages=messages,
            model=opts.model,
            max_tokens=max_tokens,
            temperature=opts.temperature,
            json_schema=form.schema,
            schema_name=form.name,
            extra_body=dict(opts.extra_body) or None,
            timeout=opts.request_timeout_s,
        )
        try:
            result = await self._client.complete(request)
        except (LLMAuthError, LLMEndpointError):
            raise
        except ContextLengthError:
            raise PromptTooLarge from None
        except LLMUnavailableError as err:
            raise CallFailed("unavailable", reason=err.reason) from None
        except LLMError as err:
            raise CallFailed("refused", reason=str(err)) from None
        self._tally.add(result.usage, result.hedges)
        actual = result.usage.prompt_tokens if result.usage is not None else None
        if actual:
            self._calibration.observe(estimate_messages(messages, form.schema), actual)
        return result
