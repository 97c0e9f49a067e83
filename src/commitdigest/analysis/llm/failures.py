"""What a failed chat-completion attempt means: retry it, reshape it, or raise which error.

408/409/429/5xx are retried (:data:`RETRYABLE_STATUS`); once the attempts are spent,
:func:`unavailable_reason` says why in a few words. Any other status goes to :func:`reject`:
a context-length 400 is a :class:`ContextLengthError`; a 400/422/501 naming
``response_format``/``json_schema``/``json_object``/structured output is :class:`ModeRejected`
(try the next mode); "use ``max_completion_tokens``" and "unsupported ``temperature``" 400s
set the model's :class:`~commitdigest.analysis.llm.wire.Adaptations` once and raise
:class:`Adapted` (send again); the rest is an :class:`LLMRequestError`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import NoReturn

import openai

from commitdigest.analysis.llm.chat import (
    ChatRequest,
    ContextLengthError,
    LLMRequestError,
    StructuredMode,
)
from commitdigest.analysis.llm.wire import Adaptations

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
