"""What a chat client takes, returns and raises: :class:`ChatRequest`, :class:`ChatResult`,
the :class:`ChatClient` protocol, the structured-output modes and the :class:`LLMError` family.

The clients themselves are :class:`~commitdigest.analysis.llm.client.OpenAIChatClient` and
:class:`~commitdigest.analysis.llm.scripted.ScriptedChatClient`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from commitdigest.errors import (
    ContextLengthError as ContextLengthError,
)
from commitdigest.errors import (
    LLMAuthError as LLMAuthError,
)
from commitdigest.errors import (
    LLMEndpointError as LLMEndpointError,
)
from commitdigest.errors import (
    LLMError as LLMError,
)
from commitdigest.errors import (
    LLMRequestError as LLMRequestError,
)
from commitdigest.errors import (
    LLMUnavailableError as LLMUnavailableError,
)


class StructuredMode(StrEnum):
    JSON_SCHEMA = "json_schema"
    JSON_OBJECT = "json_object"
    TEXT = "text"


MODE_ORDER: tuple[StructuredMode, ...] = tuple(StructuredMode)


@dataclass(slots=True)
class ChatRequest:
    messages: list[dict[str, str]]
    model: str
    max_tokens: int | None = None
    temperature: float | None = None
    json_schema: dict[str, Any] | None = None  # None: free text, mode "text"
    schema_name: str = "response"  # sent as json_schema.name, sanitised to [A-Za-z0-9_-]{1,64}
    extra_body: dict[str, Any] | None = None  # merged into the JSON: {"chat_template_kwargs": …}
    timeout: float | None = None  # seconds per attempt; None: the client's default


@dataclass(frozen=True, slots=True)
class TokenUsage:
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    total_tokens: int | None = None


@dataclass(frozen=True, slots=True)
class ChatResult:
    text: str
    finish_reason: str | None = "stop"
    usage: TokenUsage | None = None
    mode: StructuredMode = StructuredMode.TEXT
    request_id: str | None = None
    latency_s: float | None = None  # the successful attempt only, not earlier ones or waits
    attempts: int = 1
    model: str | None = None
    reasoning: str | None = None  # what the model thought first: never shown, never parsed
    from_reasoning: bool = False  # ``text`` came from the reasoning field (content was empty)
    hedges: int = 0  # twins sent because the request was slow (extra calls, counted in usage)


class ChatClient(Protocol):
    """What the engine needs of a client. A client may also have ``reasons(model) -> bool``
    (whether the model thinks before it answers: its requests then get more room)."""

    async def complete(self, request: ChatRequest) -> ChatResult: ...
