"""What the model must return, how leniently it is read, and how it becomes an :class:`Analysis`.

Two forms: :class:`FullOutput` (every field) and :class:`CompactOutput` (type, importance,
summary: asked for after the model ran out of output room). Their JSON schemas
(:data:`FULL_SCHEMA`, :data:`COMPACT_SCHEMA`) are self-contained: no ``$ref``/``$defs``,
enums as plain string enums, every property required and no extra properties, so servers
that guide decoding by the schema (vLLM, SGLang, Ollama) make the model write every field.

Reading is lenient *before* validation (:mod:`.schema_lenient`): enum values in any case or
spacing, with emoji or in Chinese ("🔴 高" -> ``high``, "Bug修复" -> ``bugfix``; an unknown
change type -> ``other``), a single string where a list is expected, list items given as
objects, a few key aliases (``type``, ``severity`` …) and a one-key wrapper object
(``{"analysis": {…}}``). What is still wrong after that (a missing summary, an unknown
importance) is a validation error whose short text (:func:`describe_validation_error`) is sent
back to the model once.
"""

from __future__ import annotations

from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from commitdigest.analysis.llm.schema_lenient import (
    KEY_ALIASES,
    Dimension,
    as_list,
    label_key,
    normalise_change_type,
    normalise_dimension,
    normalise_importance,
    text_list,
)
from commitdigest.i18n import LLM_TYPE_NOTES as _TYPE_NOTES
from commitdigest.models import Analysis, ChangeType, Importance, Insight, Risk, Usage

__all__ = [
    "COMPACT_SCHEMA",
    "FULL_SCHEMA",
    "CompactOutput",
    "Dimension",
    "FullOutput",
    "InsightOut",
    "RiskOut",
    "describe_validation_error",
    "normalise_change_type",
    "normalise_dimension",
    "normalise_importance",
    "output_schema",
    "to_analysis",
]


# ---- the models ---------------------------------------------------------------------------


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
