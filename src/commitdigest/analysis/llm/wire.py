"""A :class:`ChatRequest` as ``chat.completions.create`` arguments, and its reply as a result.

:func:`build_arguments` shapes the request for one structured-output mode (``json_schema``,
``json_object`` with the schema in the system message, or plain text with it there) and for
what the server taught us about the model (:class:`Adaptations`); :func:`to_result` reads a
``ChatCompletion`` back, or says it is malformed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from openai.types.chat import ChatCompletion

from commitdigest.analysis.llm.chat import ChatRequest, ChatResult, StructuredMode, TokenUsage

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
