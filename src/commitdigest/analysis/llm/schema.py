"""What the model must return, how leniently it is read, and how it becomes an :class:`Analysis`.

Two forms: :class:`FullOutput` (every field) and :class:`CompactOutput` (type, importance,
summary: asked for after the model ran out of output room). Their JSON schemas
(:data:`FULL_SCHEMA`, :data:`COMPACT_SCHEMA`) are self-contained: no ``$ref``/``$defs``,
enums as plain string enums, every property required and no extra properties, so servers
that guide decoding by the schema (vLLM, SGLang, Ollama) make the model write every field.

Reading is lenient *before* validation (the ``normalise_*`` functions and :func:`text_list`,
the models' ``mode="before"`` validators): enum values in any case or spacing, with emoji or
in Chinese ("🔴 高" -> ``high``, "Bug修复" -> ``bugfix``; an unknown change type ->
``other``), a single string where a list is expected, list items given as objects, a few key
aliases (``type``, ``severity`` …) and a one-key wrapper object (``{"analysis": {…}}``).
What is still wrong after that (a missing summary, an unknown importance) is a validation
error whose short text (:func:`describe_validation_error`) is sent back to the model once.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Mapping
from enum import Enum, StrEnum
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from commitdigest.analysis.llm.extract import strip_think
from commitdigest.analysis.tags import CONVENTIONAL_TYPES, TAG_TYPES
from commitdigest.i18n import LLM_TYPE_NOTES as _TYPE_NOTES
from commitdigest.models import Analysis, ChangeType, Importance, Insight, Risk, Usage

__all__ = [
    "COMPACT_SCHEMA",
    "FULL_SCHEMA",
    "KEY_ALIASES",
    "CompactOutput",
    "Dimension",
    "FullOutput",
    "InsightOut",
    "RiskOut",
    "as_list",
    "count_repairs",
    "describe_validation_error",
    "field_name",
    "free_texts",
    "label_key",
    "normalise_change_type",
    "normalise_dimension",
    "normalise_importance",
    "normalise_key",
    "normalise_keys",
    "output_schema",
    "text_list",
    "to_analysis",
]


class Dimension(StrEnum):
    ARCHITECTURE = "architecture"
    PERFORMANCE = "performance"
    SECURITY = "security"
    MAINTAINABILITY = "maintainability"
    COMPATIBILITY = "compatibility"


_KEY_JUNK = re.compile(r"[^0-9a-z\u3400-\u9fff]+")
_SPLIT = re.compile(r"[/|,;、，；()（）\[\]【】]+")


def label_key(text: str) -> str:
    """Lowercase letters, digits and CJK ideographs only: "🔴 High" -> "high"."""
    return _KEY_JUNK.sub("", text.lower())


_IMPORTANCE: Final[dict[str, Importance]] = {
    **dict.fromkeys(
        ["high", "h", "高", "高重要度", "重要", "critical", "major", "严重"], Importance.HIGH
    ),
    **dict.fromkeys(
        ["medium", "med", "m", "mid", "中", "中等", "中重要度", "moderate", "normal"],
        Importance.MEDIUM,
    ),
    **dict.fromkeys(["low", "l", "低", "低重要度", "minor", "trivial", "轻微"], Importance.LOW),
}

_CHANGE_TYPES: Final[dict[str, ChangeType]] = {
    **{label_key(k): v for k, v in TAG_TYPES.items()},
    **{label_key(k): v for k, v in CONVENTIONAL_TYPES.items()},
    **{label_key(t.value): t for t in ChangeType},
    **dict.fromkeys(
        ["bug修复", "修复", "错误修复", "缺陷修复", "问题修复", "bug"], ChangeType.BUGFIX
    ),
    **dict.fromkeys(
        ["新功能", "功能", "功能增强", "新特性", "特性", "增强", "新增", "新模型", "enhancement"],
        ChangeType.FEATURE,
    ),
    **dict.fromkeys(["性能优化", "性能", "优化"], ChangeType.PERFORMANCE),
    **dict.fromkeys(["重构", "代码重构", "代码清理", "清理"], ChangeType.REFACTOR),
    **dict.fromkeys(["文档", "文档更新", "文档修改"], ChangeType.DOCUMENTATION),
    **dict.fromkeys(["测试", "单元测试", "测试用例"], ChangeType.TEST),
    **dict.fromkeys(["构建", "持续集成", "cibuild", "ci构建"], ChangeType.CI_BUILD),
    **dict.fromkeys(["依赖", "依赖更新", "依赖升级"], ChangeType.DEPENDENCY),
    **dict.fromkeys(["回滚", "回退", "撤销"], ChangeType.REVERT),
    **dict.fromkeys(["移除", "弃用", "删除", "废弃", "deprecation"], ChangeType.REMOVAL),
    **dict.fromkeys(["安全", "安全修复", "安全性"], ChangeType.SECURITY),
    **dict.fromkeys(["其他", "其它"], ChangeType.OTHER),
}
# substrings tried last, in this order, for labels such as "重构 / 架构变更"
_CHANGE_TYPE_WORDS: Final[tuple[tuple[str, ChangeType], ...]] = (
    ("安全", ChangeType.SECURITY),
    ("回滚", ChangeType.REVERT),
    ("修复", ChangeType.BUGFIX),
    ("弃用", ChangeType.REMOVAL),
    ("移除", ChangeType.REMOVAL),
    ("性能", ChangeType.PERFORMANCE),
    ("重构", ChangeType.REFACTOR),
    ("依赖", ChangeType.DEPENDENCY),
    ("文档", ChangeType.DOCUMENTATION),
    ("测试", ChangeType.TEST),
    ("构建", ChangeType.CI_BUILD),
    ("功能", ChangeType.FEATURE),
    ("特性", ChangeType.FEATURE),
)

_DIMENSIONS: Final[dict[str, Dimension]] = {
    **{d.value: d for d in Dimension},
    **dict.fromkeys(["架构", "架构影响", "设计", "design", "arch"], Dimension.ARCHITECTURE),
    **dict.fromkeys(
        ["性能", "性能影响", "perf", "latency", "throughput", "memory"], Dimension.PERFORMANCE
    ),
    **dict.fromkeys(["安全", "安全性", "安全考虑", "sec"], Dimension.SECURITY),
    **dict.fromkeys(
        ["可维护性", "维护性", "维护", "代码质量", "可读性", "readability", "codequality"],
        Dimension.MAINTAINABILITY,
    ),
    **dict.fromkeys(
        ["兼容性", "兼容", "向后兼容", "compat", "backwardcompatibility", "api"],
        Dimension.COMPATIBILITY,
    ),
}


def _canonical(table: Mapping[str, Enum], value: object) -> object:
    """The value ``table`` gives ``value``'s :func:`label_key`; anything unrecognised
    (a key not in it, not a string) is returned as is."""
    if isinstance(value, str):
        found = table.get(label_key(value))
        return found.value if found is not None else value
    return value


def normalise_importance(value: object) -> object:
    """ "高"/"High"/"HIGH"/"🔴 高" -> ``"high"``; anything unrecognised is returned as is."""
    return _canonical(_IMPORTANCE, value)


def normalise_change_type(value: object) -> object:
    """ "bug fix"/"Bug修复"/"fix" -> ``"bugfix"`` …; an unrecognised string -> ``"other"``."""
    if not isinstance(value, str):
        return value
    if (found := _CHANGE_TYPES.get(label_key(value))) is not None:
        return found.value
    for part in _SPLIT.split(value):
        if (found := _CHANGE_TYPES.get(label_key(part))) is not None:
            return found.value
    key = label_key(value)
    for word, change_type in _CHANGE_TYPE_WORDS:
        if word in key:
            return change_type.value
    return ChangeType.OTHER.value


def normalise_dimension(value: object) -> object:
    """ "架构"/"Architecture" -> ``"architecture"``; anything unrecognised is returned as is."""
    return _canonical(_DIMENSIONS, value)


def as_list(value: object) -> object:
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, dict):
        return [value]
    return value


def _flatten(item: object) -> object:
    """A list item given as an object -> "key text: value text"."""
    if isinstance(item, dict):
        parts = [str(v).strip() for v in item.values() if isinstance(v, str | int | float)]
        return ": ".join(p for p in parts if p)
    return item


def text_list(value: object) -> object:
    items = as_list(value)
    if not isinstance(items, list):
        return items
    flat = [_flatten(item) for item in items]
    return [x for x in flat if not (isinstance(x, str) and not x.strip())]


KEY_ALIASES: Final[dict[str, str]] = {
    "type": "change_type",
    "changetype": "change_type",
    "category": "change_type",
    "typereason": "change_type_reason",
    "changetypereason": "change_type_reason",
    "reason": "change_type_reason",
    "severity": "importance",
    "priority": "importance",
    "description": "summary",
    "affected": "impact",
    "affectedcomponents": "impact",
    "scope": "impact",
    "insight": "insights",
    "technicalinsights": "insights",
    "risk": "risks",
    "potentialrisks": "risks",
    "recommendation": "recommendations",
    "suggestions": "recommendations",
}


INSIGHT_ALIASES: Final[dict[str, str]] = {
    "dim": "dimension",
    "aspect": "dimension",
    "category": "dimension",
    "type": "dimension",
    "维度": "dimension",
    "insight": "text",
    "content": "text",
    "description": "text",
    "detail": "text",
    "内容": "text",
}
RISK_ALIASES: Final[dict[str, str]] = {
    "description": "risk",
    "风险": "risk",
    "impact": "effect",
    "consequence": "effect",
    "影响": "effect",
    "后果": "effect",
    "mitigations": "mitigation",
    "缓解": "mitigation",
    "缓解措施": "mitigation",
}
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def normalise_key(key: object) -> str:
    """ "Dimension" -> "dimension", "keyChanges" -> "key_changes", "Change-Type" ->
    "change_type": lower case, words joined by ``_``."""
    text = _CAMEL.sub("_", str(key).strip())
    return re.sub(r"[\s\-]+", "_", text).lower()


def field_name(key: object, fields: Collection[str], aliases: Mapping[str, str]) -> str:
    """The field a key of a model's answer stands for: itself, its normalised form, or an
    alias (compared without ``_``); unknown keys come back normalised."""
    if key in fields:
        return str(key)
    norm = normalise_key(key)
    if norm in fields:
        return norm
    return aliases.get(norm.replace("_", ""), aliases.get(norm, norm))


def normalise_keys(data: Any, fields: Collection[str], aliases: Mapping[str, str]) -> Any:
    """``data`` (an object of the model's answer) with every key as :func:`field_name` says;
    a key spelled exactly as a field wins over one that only normalises to it."""
    if not isinstance(data, dict):
        return data
    out: dict[str, Any] = {}
    for key, value in data.items():
        name = field_name(key, fields, aliases)
        if name not in out or key in fields:
            out[name] = value
    return out


class _Lenient(BaseModel):
    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True, frozen=True)


class InsightOut(_Lenient):
    dimension: Dimension = Field(description="the aspect this insight is about")
    text: str = Field(min_length=1)

    _dimension = field_validator("dimension", mode="before")(normalise_dimension)

    @model_validator(mode="before")
    @classmethod
    def _keys(cls, data: Any) -> Any:
        return normalise_keys(data, cls.model_fields, INSIGHT_ALIASES)


class RiskOut(_Lenient):
    risk: str = Field(min_length=1, description="what could go wrong")
    effect: str = Field("", description="what happens if it does, and to whom")
    mitigation: str = Field("", description="how to prevent, detect or work around it")

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, data: Any) -> Any:
        if isinstance(data, str):
            return {"risk": data}
        return normalise_keys(data, cls.model_fields, RISK_ALIASES)


class CompactOutput(_Lenient):
    """The short form: asked for when the full one keeps hitting the output limit."""

    change_type: ChangeType
    change_type_reason: str = Field(
        "", description='why the type differs from the seeded one; "" when it does not'
    )
    importance: Importance
    summary: str = Field(min_length=1, description="low: 1-3 sentences; high/medium: one paragraph")

    _change_type = field_validator("change_type", mode="before")(normalise_change_type)
    _importance = field_validator("importance", mode="before")(normalise_importance)

    @field_validator("change_type_reason", "summary", mode="before")
    @classmethod
    def _join_text(cls, value: Any) -> Any:
        if value is None:
            return ""
        if isinstance(value, list):
            return " ".join(str(v).strip() for v in value if str(v).strip())
        return value

    @model_validator(mode="before")
    @classmethod
    def _normalise_keys(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        if len(data) == 1:  # {"analysis": {...}}
            (inner,) = data.values()
            if isinstance(inner, dict) and {"summary", "importance"} & set(
                map(normalise_key, inner)
            ):
                data = inner
        return normalise_keys(data, cls.model_fields, KEY_ALIASES)


class FullOutput(CompactOutput):
    """Every field; for low importance the model may leave the last three lists empty."""

    impact: list[str] = Field(
        default_factory=list, description="components or files touched, and how"
    )
    insights: list[InsightOut] = Field(default_factory=list)
    risks: list[RiskOut] = Field(default_factory=list)
    recommendations: list[str] = Field(default_factory=list)

    _texts = field_validator("impact", "recommendations", mode="before")(text_list)
    _objects = field_validator("insights", "risks", mode="before")(as_list)


# ---- the JSON schema ----------------------------------------------------------------------


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    """Resolve ``$ref`` into ``$defs``, drop titles/defaults, close and require objects."""
    if isinstance(node, list):
        return [_inline(x, defs) for x in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target = defs[node["$ref"].rsplit("/", 1)[-1]]
        extra = {k: v for k, v in node.items() if k != "$ref"}
        return _inline({**target, **extra}, defs)
    out = {k: _inline(v, defs) for k, v in node.items() if k not in ("title", "default", "$defs")}
    if out.get("type") == "object" and "properties" in out:
        out["required"] = list(out["properties"])
        out["additionalProperties"] = False
    return out


def output_schema(model: type[BaseModel]) -> dict[str, Any]:
    """A self-contained JSON schema for ``model`` (see the module docstring)."""
    raw = model.model_json_schema()
    schema = dict(_inline(raw, raw.get("$defs", {})))
    schema.pop("description", None)  # the class docstring is for us, not the model
    return schema


FULL_SCHEMA: Final[dict[str, Any]] = output_schema(FullOutput)
COMPACT_SCHEMA: Final[dict[str, Any]] = output_schema(CompactOutput)


def free_texts(output: CompactOutput) -> list[str]:
    """Every free text the model wrote in ``output`` (for the language check)."""
    texts = [output.summary, output.change_type_reason]
    if isinstance(output, FullOutput):
        texts += output.impact + output.recommendations + [i.text for i in output.insights]
        texts += [t for r in output.risks for t in (r.risk, r.effect, r.mitigation)]
    return [t for t in texts if t]


_ENUMS: Final[dict[str, str]] = {"importance": "importance", "change_type": "change_type"}
_TEXT_LISTS: Final = frozenset({"impact", "recommendations"})
_OBJECT_LISTS: Final[dict[str, tuple[type[BaseModel], Mapping[str, str]]]] = {
    "insights": (InsightOut, INSIGHT_ALIASES),
    "risks": (RiskOut, RISK_ALIASES),
}


def count_repairs(raw: Any, output: CompactOutput) -> Counter[str]:
    """What reading ``raw`` (the model's JSON) into ``output`` had to repair, by kind:
    ``wrapper`` (a one-key object around the answer), ``keys`` (at any level: another case,
    spacing or an alias), ``values`` (an enum in another case, language or with emoji),
    ``shapes`` (a string for a list, an object for a text, a list for a text)."""
    found: Counter[str] = Counter()
    data = raw
    fields = type(output).model_fields
    if isinstance(data, dict) and len(data) == 1 and not set(data) & set(fields):
        (inner,) = data.values()
        if isinstance(inner, dict):
            found["wrapper"] += 1
            data = inner
    if not isinstance(data, dict):
        return found
    for key, value in data.items():
        name = field_name(key, fields, KEY_ALIASES)
        found["keys"] += name != key
        if name in _ENUMS and isinstance(value, str):
            found["values"] += value != str(getattr(output, name).value)
        elif name in ("summary", "change_type_reason"):
            found["shapes"] += isinstance(value, list)
        elif name in _TEXT_LISTS:
            items = value if isinstance(value, list) else [value]
            found["shapes"] += not isinstance(value, list) or any(
                isinstance(i, dict) for i in items
            )
        elif name in _OBJECT_LISTS:
            model, aliases = _OBJECT_LISTS[name]
            items = value if isinstance(value, list) else [value]
            found["shapes"] += not isinstance(value, list)
            for item in items:
                if isinstance(item, str):
                    found["shapes"] += 1
                elif isinstance(item, dict):
                    for k, v in item.items():
                        inner_name = field_name(k, model.model_fields, aliases)
                        found["keys"] += inner_name != k
                        if inner_name == "dimension" and isinstance(v, str):
                            found["values"] += normalise_dimension(v) != v
    return +found


def describe_validation_error(error: ValidationError, limit: int = 300) -> str:
    """``importance: Input should be 'high', 'medium' or 'low'; …`` — short, one line."""
    parts = []
    for item in error.errors(include_url=False):
        where = ".".join(str(p) for p in item["loc"]) or "reply"
        parts.append(f"{where}: {item['msg']}")
    text = "; ".join(parts)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---- to an Analysis -----------------------------------------------------------------------


def _no_thoughts(text: str) -> str:
    """A free text without a reasoning block a model left inside it (``<think>…</think>``)."""
    return strip_think(text).strip() if "think" in text.lower() else text


_BLANK_REASONS = frozenset({"", "na", "none", "null", "无", "没有", "不适用"})


def _is_blank(reason: str) -> bool:
    return label_key(reason) in _BLANK_REASONS


def to_analysis(
    output: CompactOutput,
    *,
    seeded_type: ChangeType | None,
    analyser_version: str,
    lang: str = "zh",
    notes: list[str] | None = None,
    omitted_files: list[str] | None = None,
    usage: Usage | None = None,
) -> Analysis:
    """The :class:`Analysis` for a validated output; the tag-seeded type wins unless the
    model gives a reason for another one (either way a note says what happened, first)."""
    texts = _TYPE_NOTES["en" if lang == "en" else "zh"]
    change_type = output.change_type
    type_notes: list[str] = []
    if seeded_type is not None and change_type is not seeded_type:
        names = {"old": seeded_type.value, "new": change_type.value}
        if _is_blank(output.change_type_reason):
            type_notes.append(texts["kept"].format(**names))
            change_type = seeded_type
        else:
            type_notes.append(texts["changed"].format(reason=output.change_type_reason, **names))
    full = output if isinstance(output, FullOutput) else None
    clean = _no_thoughts
    return Analysis(
        change_type=change_type,
        importance=output.importance,
        summary=clean(output.summary),
        impact=[t for t in map(clean, full.impact) if t] if full else [],
        insights=[
            Insight(dimension=i.dimension.value, text=t)
            for i in full.insights
            if (t := clean(i.text))
        ]
        if full
        else [],
        risks=[
            Risk(risk=clean(r.risk), effect=clean(r.effect), mitigation=clean(r.mitigation))
            for r in full.risks
            if clean(r.risk)
        ]
        if full
        else [],
        recommendations=[t for t in map(clean, full.recommendations) if t] if full else [],
        analyser="llm",
        analyser_version=analyser_version,
        notes=[*type_notes, *(notes or [])],
        omitted_files=list(omitted_files or []),
        usage=usage,
    )
