"""Provider profiles: how each OpenAI-compatible service wants a chat request shaped, and
what its refusals teach us.

``llm.provider`` names the service (``auto``: :func:`detect` reads the base URL and the
model name). Its :class:`Profile` is the documented request shape: the structured-output
mode, the token parameter, whether ``temperature`` may be sent, the reasoning/thinking
switch, the keys it needs or refuses. The client starts every model from its profile as a
:class:`Shape`, which :func:`adapt` changes when the server refuses part of it; a request
is built from the shape (:func:`build_body`), so a run learns each refusal once.

================  ===========================================================================
provider          shape (quirks handled)
================  ===========================================================================
openai            json_schema; ``max_completion_tokens``; reasoning models (o1, o3, o4,
                  gpt-5…): no ``temperature``, room for the reasoning
azure             as openai; ``api-key`` header; ``api-version`` kept from the URL
deepseek          json_object (json_schema is refused); deepseek-reasoner: no temperature,
                  room for the reasoning, answer read apart from ``reasoning_content``
dashscope         json_object; Qwen3 and the hybrid qwen-plus/turbo/flash models:
                  ``enable_thinking: false`` (required for non-streaming calls)
vllm, sglang      json_schema (guided decoding); Qwen3 hybrid models: ``chat_template_kwargs:
                  {enable_thinking: false}``; an answer left in ``reasoning_content`` by a
                  reasoning parser is used, with the fix named once
ollama            json_schema; ``reasoning`` field read apart
openrouter        json_schema; ``reasoning`` field read apart
generic           json_schema, ``max_tokens``, temperature; everything else learnt
================  ===========================================================================
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final
from urllib.parse import urlsplit

from commitdigest.analysis.llm.chat import MODE_ORDER, ChatRequest, StructuredMode
from commitdigest.analysis.llm.prompt import schema_instructions

__all__ = [
    "PROVIDERS",
    "Profile",
    "Shape",
    "adapt",
    "build_body",
    "detect",
    "profile_for",
    "with_schema_in_prompt",
]

PROVIDERS: Final = (
    "auto", "openai", "azure", "deepseek", "dashscope", "vllm", "sglang", "ollama",
    "openrouter", "generic",
)  # fmt: skip

MAX_TOKENS: Final = "max_tokens"
MAX_COMPLETION_TOKENS: Final = "max_completion_tokens"

_REASONING_OPENAI = re.compile(r"(?:^|/)(?:o\d(?:$|[-_.])|gpt-5(?!.*chat))", re.IGNORECASE)
_REASONING_OTHER = re.compile(
    r"deepseek-reasoner|deepseek-r1|\br1\b|qwq|thinking|-think\b|reason|gpt-oss", re.IGNORECASE
)
_QWEN3_HYBRID = re.compile(r"qwen3(?!.*(?:instruct-2507|thinking-2507|coder))", re.IGNORECASE)
_DASHSCOPE_HYBRID = re.compile(r"^(?:qwen3|qwen-plus|qwen-turbo|qwen-flash)", re.IGNORECASE)


@dataclass(frozen=True)
class Profile:
    """A provider's documented request shape for one model."""

    provider: str
    mode: StructuredMode = StructuredMode.JSON_SCHEMA
    token_param: str = MAX_TOKENS
    temperature: bool = True
    reasoning: bool = False  # the model thinks before it answers: leave it room
    extra: Mapping[str, Any] = field(default_factory=dict)  # body keys the service needs
    quirks: tuple[str, ...] = ()  # what is handled, in words (llm check, docs/llm.md)


def _host(base_url: str) -> str:
    return (urlsplit(base_url).hostname or "").lower()


def detect(base_url: str, model: str) -> str:
    """The provider a base URL (and, for local servers, a model name) belongs to."""
    host = _host(base_url)
    port = urlsplit(base_url).port
    if host == "api.openai.com":
        return "openai"
    if host.endswith((".openai.azure.com", ".cognitiveservices.azure.com")) or (
        host.endswith(".azure.com") and "openai" in base_url
    ):
        return "azure"
    if host.endswith("deepseek.com"):
        return "deepseek"
    if "dashscope" in host or host.endswith("aliyuncs.com"):
        return "dashscope"
    if host.endswith("openrouter.ai"):
        return "openrouter"
    if port == 11434 or "ollama" in host:
        return "ollama"
    if port == 30000 or "sglang" in host:
        return "sglang"
    if "vllm" in host:
        return "vllm"
    return "generic"


def profile_for(provider: str, model: str, base_url: str = "") -> Profile:
    """The request shape ``provider`` documents for ``model`` (``auto``: :func:`detect`)."""
    if provider == "auto":
        provider = detect(base_url, model)
    name = model.rsplit("/", 1)[-1] if provider != "openrouter" else model
    openai_reasoning = bool(_REASONING_OPENAI.search(name))
    reasoning = openai_reasoning or bool(_REASONING_OTHER.search(name))
    if provider in ("openai", "azure"):
        token = MAX_COMPLETION_TOKENS if provider == "openai" or openai_reasoning else MAX_TOKENS
        quirks = ["max_completion_tokens"] if token == MAX_COMPLETION_TOKENS else []
        if openai_reasoning:
            quirks += ["no temperature (reasoning model)", "room for the reasoning tokens"]
        return Profile(
            provider,
            token_param=token,
            temperature=not openai_reasoning,
            reasoning=openai_reasoning,
            quirks=tuple(quirks),
        )
    if provider == "deepseek":
        thinks = "reasoner" in name.lower() or "r1" in name.lower()
        return Profile(
            provider,
            mode=StructuredMode.JSON_OBJECT,
            temperature=not thinks,
            reasoning=thinks,
            quirks=("json_object (json_schema is refused)",)
            + (("no temperature, room for the reasoning",) if thinks else ()),
        )
    if provider == "dashscope":
        hybrid = bool(_DASHSCOPE_HYBRID.search(name))
        return Profile(
            provider,
            mode=StructuredMode.JSON_OBJECT,
            extra={"enable_thinking": False} if hybrid else {},
            quirks=("json_object",)
            + (("enable_thinking: false (required for non-streaming calls)",) if hybrid else ()),
        )
    if provider in ("vllm", "sglang"):
        hybrid = bool(_QWEN3_HYBRID.search(name))
        return Profile(
            provider,
            reasoning=reasoning and not hybrid,
            extra={"chat_template_kwargs": {"enable_thinking": False}} if hybrid else {},
            quirks=("json_schema (guided decoding)",)
            + (("chat_template_kwargs.enable_thinking: false",) if hybrid else ())
            + ("an answer left in reasoning_content is used",),
        )
    if provider == "openrouter":  # it maps max_tokens itself; the reasoning comes apart
        return Profile(
            provider,
            temperature=not openai_reasoning,
            reasoning=reasoning,
            quirks=("reasoning read from the reasoning field",),
        )
    if provider == "ollama":
        return Profile(provider, reasoning=reasoning, quirks=("reasoning read apart",))
    if openai_reasoning:  # OpenAI's reasoning models behind a proxy keep their rules
        return Profile(
            provider,
            token_param=MAX_COMPLETION_TOKENS,
            temperature=False,
            reasoning=True,
            quirks=("max_completion_tokens, no temperature (an OpenAI reasoning model)",),
        )
    return Profile(provider, reasoning=reasoning)


@dataclass
class Shape:
    """How requests for one model are built now: its profile, plus what the server taught.

    ``confirmed``: a request of this shape was answered. ``answer_in_reasoning``: the server
    puts the whole answer in the reasoning field (a vLLM reasoning parser that does not fit
    the model). ``learnt`` says, in words, each change made after a refusal.
    """

    mode: StructuredMode = StructuredMode.JSON_SCHEMA
    strict: bool = False
    token_param: str = MAX_TOKENS
    temperature: bool = True
    reasoning: bool = False
    extra: dict[str, Any] = field(default_factory=dict)  # the profile's and llm.extra_body
    dropped: set[str] = field(default_factory=set)  # body keys the server refused
    confirmed: bool = False
    answer_in_reasoning: bool = False
    learnt: list[str] = field(default_factory=list)

    @classmethod
    def of(
        cls, profile: Profile, *, mode: StructuredMode | None = None, strict: bool = False
    ) -> Shape:
        return cls(
            mode=mode or profile.mode,
            strict=strict,
            token_param=profile.token_param,
            temperature=profile.temperature,
            reasoning=profile.reasoning,
            extra=dict(profile.extra),
        )

    def copy(self) -> Shape:
        return replace(
            self, extra=dict(self.extra), dropped=set(self.dropped), learnt=list(self.learnt)
        )


_SCHEMA_NAME_BAD = re.compile(r"[^A-Za-z0-9_-]")


def with_schema_in_prompt(
    messages: list[dict[str, str]], schema: Mapping[str, Any]
) -> list[dict[str, str]]:
    """The messages with the schema appended to the system message (one is added if none):
    :func:`~commitdigest.analysis.llm.prompt.schema_instructions`, as the analyser's
    estimates count it."""
    instruction = schema_instructions(schema)
    out = [dict(m) for m in messages]
    for message in out:
        if message.get("role") == "system":
            message["content"] = f"{message.get('content', '')}\n\n{instruction}".lstrip()
            return out
    return [{"role": "system", "content": instruction}, *out]


def build_body(request: ChatRequest, shape: Shape) -> tuple[dict[str, Any], StructuredMode]:
    """The JSON body of a chat completion for ``request`` in ``shape``, and the structured
    mode it uses."""
    schema = request.json_schema
    mode = shape.mode if schema is not None else StructuredMode.TEXT
    messages = request.messages
    body: dict[str, Any] = {"model": request.model}
    if schema is not None and mode is StructuredMode.JSON_SCHEMA:
        name = _SCHEMA_NAME_BAD.sub("_", request.schema_name)[:64] or "response"
        body["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": name, "schema": dict(schema), "strict": shape.strict},
        }
    elif schema is not None:
        messages = with_schema_in_prompt(messages, schema)
        if mode is StructuredMode.JSON_OBJECT:
            body["response_format"] = {"type": "json_object"}
    body["messages"] = messages
    if request.max_tokens is not None:
        body[shape.token_param] = request.max_tokens
    if request.temperature is not None and shape.temperature:
        body["temperature"] = request.temperature
    for key, value in {**shape.extra, **(request.extra_body or {})}.items():
        if key not in shape.dropped and key not in body:
            body[key] = value
    return body, mode


# ---- what a refusal teaches ---------------------------------------------------------------

_MODE_REFUSED = re.compile(
    r"response_format|json_schema|json_object|structured output|guided", re.IGNORECASE
)
_USE_MAX_COMPLETION = re.compile(r"max_completion_tokens", re.IGNORECASE)
_MAX_TOKENS_NAMED = re.compile(r"\bmax_tokens\b", re.IGNORECASE)
_TEMPERATURE = re.compile(r"temperature", re.IGNORECASE)
_THINKING_MUST_BE_FALSE = re.compile(r"enable_thinking", re.IGNORECASE)
_STRICT = re.compile(r"\bstrict\b", re.IGNORECASE)
_UNKNOWN_ARGUMENT = re.compile(
    r"(?:unrecognized request arguments? supplied|unknown (?:parameter|field|argument)s?|"
    r"extra (?:inputs|fields) (?:are|is) not permitted|unexpected (?:keyword )?argument|"
    r"not (?:a )?(?:supported|valid|recognized) (?:parameter|argument|field)|"
    r"(?:parameter|argument|field)s? (?:is |are )?not (?:supported|allowed|recognized))"
    r"[:\s'\"`]*(?P<names>[\w.,\s'\"`]*)",
    re.IGNORECASE,
)
_NAME = re.compile(r"[A-Za-z_][\w.]*")


def adapt(
    shape: Shape,
    status: int,
    message: str,
    *,
    param: str | None = None,
    extra_keys: Collection[str] = (),
) -> str | None:
    """Change ``shape`` after the server refused it (``status``, its ``message`` and the
    ``param`` it named; ``extra_keys``: the ``llm.extra_body`` keys the request carried);
    return what changed, in words, or ``None`` when the refusal is nothing a reshaped
    request can avoid."""
    if status not in (400, 404, 415, 422, 501):
        return None
    said = f"{message} {param or ''}"
    change = (
        _mode(shape, said)
        or _thinking(shape, said)
        or _tokens(shape, said, param)
        or _temperature(shape, said, param)
        or _unknown_key(shape, said, param, extra_keys)
    )
    if change is not None:
        shape.learnt.append(change)
    return change


def _mode(shape: Shape, said: str) -> str | None:
    if not _MODE_REFUSED.search(said) or shape.mode is StructuredMode.TEXT:
        return None
    if shape.strict and _STRICT.search(said):
        shape.strict = False
        return "json_schema without strict"
    following = MODE_ORDER[MODE_ORDER.index(shape.mode) + 1]
    shape.mode = following
    return (
        f"response_format {following.value}"
        if following is not StructuredMode.TEXT
        else ("no response_format (the schema goes in the prompt)")
    )


def _thinking(shape: Shape, said: str) -> str | None:
    if not _THINKING_MUST_BE_FALSE.search(said) or shape.extra.get("enable_thinking") is False:
        return None
    if "enable_thinking" in shape.dropped:
        return None
    shape.extra["enable_thinking"] = False
    return "enable_thinking: false"


def _tokens(shape: Shape, said: str, param: str | None) -> str | None:
    if shape.token_param == MAX_TOKENS and (
        _USE_MAX_COMPLETION.search(said) or (param == MAX_TOKENS and "support" in said.lower())
    ):
        shape.token_param = MAX_COMPLETION_TOKENS
        return "max_completion_tokens instead of max_tokens"
    unknown = param == MAX_COMPLETION_TOKENS or (
        _UNKNOWN_ARGUMENT.search(said) is not None and _USE_MAX_COMPLETION.search(said) is not None
    )
    if shape.token_param == MAX_COMPLETION_TOKENS and unknown:
        shape.token_param = MAX_TOKENS
        return "max_tokens instead of max_completion_tokens"
    return None


def _temperature(shape: Shape, said: str, param: str | None) -> str | None:
    if not shape.temperature or not (param == "temperature" or _TEMPERATURE.search(said)):
        return None
    shape.temperature = False
    return "no temperature"


def _unknown_key(
    shape: Shape, said: str, param: str | None, extra_keys: Collection[str]
) -> str | None:
    """A body key we added (``llm.extra_body``, a profile's switch) that the server does not
    know: it is left out from now on."""
    ours = [k for k in dict.fromkeys([*shape.extra, *extra_keys]) if k not in shape.dropped]
    named: list[str] = []
    if param:
        named.append(param.split(".")[0])
    found = _UNKNOWN_ARGUMENT.search(said)
    if found:
        named += [n.split(".")[0] for n in _NAME.findall(found.group("names"))]
    named += [k for k in ours if re.search(rf"['\"`]{re.escape(k)}['\"`]", said)]
    for key in named:
        if key in ours:
            shape.dropped.add(key)
            return f"without {key}"
    return None
