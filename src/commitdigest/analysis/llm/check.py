"""``commitdigest llm check``: one short probe of the configured endpoint, and what it says.

:func:`check_endpoint` asks the server which models it lists, then sends the probe every
run would send (:meth:`~commitdigest.analysis.llm.client.OpenAIChatClient.check`: a
one-field schema, 16 tokens, shaped by the provider's profile and adapted to what the
server refuses) and reports what works as an :class:`EndpointCheck`: reachable, the key,
the model, the structured-output mode, the token parameter, the reasoning field, the
latency, the rate-limit headers, and the settings that describe it
(:meth:`EndpointCheck.config_lines`). ``ok`` is False when analyses would fail.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from commitdigest.analysis.llm.chat import ChatRequest, StructuredMode
from commitdigest.analysis.llm.client import OpenAIChatClient
from commitdigest.errors import LLMAuthError, LLMError

__all__ = ["EndpointCheck", "check_endpoint"]

_MODES = {
    StructuredMode.JSON_SCHEMA: "json_schema",
    StructuredMode.JSON_OBJECT: "json_object",
    StructuredMode.TEXT: "prompt",
}


@dataclass
class EndpointCheck:
    """What the probe found; ``error`` (one line) when analyses would fail."""

    url: str
    provider: str
    model: str
    key: str  # where the key came from, or that none is sent
    models: list[str] | None = None  # what GET /models lists (None: no list)
    reachable: bool = False
    key_accepted: bool | None = None
    mode: str = ""
    strict: bool = False
    token_param: str = ""
    temperature: bool = True
    reasoning: bool = False
    answer_in_reasoning: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    learnt: list[str] = field(default_factory=list)
    latency_s: float | None = None
    rate_limits: dict[str, str] = field(default_factory=dict)
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def model_listed(self) -> bool | None:
        return None if self.models is None else self.model in self.models

    def config_lines(self) -> list[str]:
        """The ``[llm]`` settings that say what the probe found (for commitdigest.toml)."""
        lines = ["[llm]", f"model = {json.dumps(self.model)}", f'provider = "{self.provider}"']
        mode = "json_schema_strict" if self.strict and self.mode == "json_schema" else self.mode
        if mode:
            lines.append(f'structured_output = "{mode}"')
        if self.extra:
            lines.append("[llm.extra_body]")
            lines += [f"{key} = {_toml(value)}" for key, value in self.extra.items()]
        return lines


def _toml(value: Any) -> str:
    """A TOML value for what ``extra_body`` holds (booleans, numbers, strings, tables)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    return json.dumps(str(value), ensure_ascii=False)


async def check_endpoint(
    client: OpenAIChatClient,
    model: str,
    *,
    temperature: float | None = 0.2,
    extra_body: dict[str, Any] | None = None,
) -> EndpointCheck:
    """Probe ``client``'s endpoint for ``model`` (see the module docstring)."""
    profile = client.profile(model)
    report = EndpointCheck(
        url=client.where, provider=profile.provider, model=model, key=client.key_source
    )
    report.models = await client.list_models()
    request = ChatRequest(
        messages=[],
        model=model,
        temperature=temperature,
        extra_body=dict(extra_body or {}) or None,
    )
    started = time.monotonic()
    try:
        tried = await client.check(request)
    except LLMAuthError as exc:
        report.reachable, report.key_accepted, report.error = True, False, exc.message
        return report
    except LLMError as exc:
        report.reachable = "cannot reach" not in exc.message
        report.error = exc.message
        return report
    finally:
        report.latency_s = round(time.monotonic() - started, 3)
    report.reachable, report.key_accepted = True, True
    if tried.latency_s is not None:
        report.latency_s = round(tried.latency_s, 3)
    if tried.value is not None:
        headers = tried.value[0].headers
        report.rate_limits = {
            k.lower(): v
            for k, v in headers.items()
            if k.lower().startswith(("x-ratelimit-", "ratelimit-", "retry-after"))
        }
    shape = client.shape(model)
    report.mode = _MODES[shape.mode]
    report.strict = shape.strict
    report.token_param = shape.token_param
    report.temperature = shape.temperature
    report.reasoning = shape.reasoning
    report.answer_in_reasoning = shape.answer_in_reasoning
    report.extra = {k: v for k, v in shape.extra.items() if k not in shape.dropped}
    report.learnt = list(shape.learnt)
    return report
