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
from collections.abc import Mapping
from enum import Enum, StrEnum
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

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
    "describe_validation_error",
    "label_key",
    "normalise_change_type",
    "normalise_dimension",
    "normalise_importance",
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


class _Lenient(BaseModel):
    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True, frozen=True)


class InsightOut(_Lenient):
    dimension: Dimension = Field(description="the aspect this insight is about")
    text: str = Field(min_length=1)

    _dimension = field_validator("dimension", mode="before")(normalise_dimension)


class RiskOut(_Lenient):
    risk: str = Field(min_length=1, description="what could go wrong")
    effect: str = Field("", description="what happens if it does, and to whom")
    mitigation: str = Field("", description="how to prevent, detect or work around it")

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, data: Any) -> Any:
        if isinstance(data, str):
            return {"risk": data}
        if isinstance(data, dict):
            aliases = {
                "description": "risk",
                "风险": "risk",
                "影响": "effect",
                "缓解": "mitigation",
            }
            return {aliases.get(k, k): v for k, v in data.items()}
        return data


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
            if isinstance(inner, dict) and ("summary" in inner or "importance" in inner):
                data = inner
        fields = cls.model_fields
        out: dict[str, Any] = {}
        for key, value in data.items():
            norm = str(key).strip().lower().replace("-", "_").replace(" ", "_")
            name = norm if norm in fields else KEY_ALIASES.get(norm.replace("_", ""), norm)
            if name not in out or key in fields:
                out[name] = value
        return out


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


def describe_validation_error(error: ValidationError, limit: int = 300) -> str:
    """``importance: Input should be 'high', 'medium' or 'low'; …`` — short, one line."""
    parts = []
    for item in error.errors(include_url=False):
        where = ".".join(str(p) for p in item["loc"]) or "reply"
        parts.append(f"{where}: {item['msg']}")
    text = "; ".join(parts)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---- to an Analysis -----------------------------------------------------------------------

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
    return Analysis(
        change_type=change_type,
        importance=output.importance,
        summary=output.summary,
        impact=list(full.impact) if full else [],
        insights=[Insight(dimension=i.dimension.value, text=i.text) for i in full.insights]
        if full
        else [],
        risks=[Risk(risk=r.risk, effect=r.effect, mitigation=r.mitigation) for r in full.risks]
        if full
        else [],
        recommendations=list(full.recommendations) if full else [],
        analyser="llm",
        analyser_version=analyser_version,
        notes=[*type_notes, *(notes or [])],
        omitted_files=list(omitted_files or []),
        usage=usage,
    )
