"""A scripted :class:`~commitdigest.analysis.llm.chat.ChatClient` for tests and benchmarks."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import anyio

from commitdigest.analysis.llm.chat import ChatRequest, ChatResult, StructuredMode

ScriptItem = ChatResult | str | Mapping[str, Any] | BaseException
ScriptHandler = Callable[[ChatRequest], ScriptItem]


class ScriptedChatClient:
    """A :class:`ChatClient` for unit tests: replays queued items, then asks ``handler``.

    An item is a :class:`ChatResult`, a string (the reply text), a mapping (sent as its JSON)
    or an exception instance (raised). Every request is recorded in :attr:`requests`.
    """

    def __init__(
        self,
        script: Iterable[ScriptItem] = (),
        *,
        handler: ScriptHandler | None = None,
        mode: StructuredMode = StructuredMode.JSON_SCHEMA,
        delay_s: float = 0.0,
        reasoning: bool = False,
    ) -> None:
        self._queue: deque[ScriptItem] = deque(script)
        self.handler = handler
        self.mode = mode
        self.delay_s = delay_s
        self.reasoning = reasoning  # what :meth:`reasons` says: a model that thinks first
        self.requests: list[ChatRequest] = []

    def reasons(self, model: str) -> bool:
        return self.reasoning

    def push(self, *items: ScriptItem) -> None:
        self._queue.extend(items)

    @property
    def remaining(self) -> int:
        return len(self._queue)

    async def complete(self, request: ChatRequest) -> ChatResult:
        self.requests.append(request)
        await anyio.sleep(self.delay_s)
        if self._queue:
            item = self._queue.popleft()
        elif self.handler is not None:
            item = self.handler(request)
        else:
            n = len(self.requests)
            raise LookupError(f"ScriptedChatClient: nothing scripted for request #{n}")
        if isinstance(item, BaseException):
            raise item
        if isinstance(item, ChatResult):
            return item
        text = item if isinstance(item, str) else json.dumps(dict(item), ensure_ascii=False)
        mode = self.mode if request.json_schema is not None else StructuredMode.TEXT
        return ChatResult(text=text, finish_reason="stop", mode=mode, latency_s=self.delay_s)
