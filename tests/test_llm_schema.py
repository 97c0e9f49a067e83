"""The model's output schema: lenient reading, portable JSON schema, and the Analysis it makes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from commitdigest.analysis.llm.schema import (
    COMPACT_SCHEMA,
    FULL_SCHEMA,
    CompactOutput,
    FullOutput,
    describe_validation_error,
    to_analysis,
)
from commitdigest.models import AnalysisStatus, ChangeType, Importance, Usage


def full(**overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "change_type": "bugfix",
        "change_type_reason": "",
        "importance": "medium",
        "summary": "Fixes the scheduler's ordering of skipped requests.",
        "impact": ["`vllm/v1/core/sched`: skipped requests keep their order"],
        "insights": [{"dimension": "maintainability", "text": "one queue instead of two"}],
        "risks": [{"risk": "order change", "effect": "latency shifts", "mitigation": "bench"}],
        "recommendations": ["re-run the scheduler benchmarks"],
    }
    data.update(overrides)
    return data


# ---- lenient enums --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("high", "high"), ("High", "high"), ("HIGH", "high"), ("高", "high"), ("🔴 高", "high"),
        ("🔴高", "high"), (" high ", "high"), ("中", "medium"), ("Medium", "medium"),
        ("🟡 中", "medium"), ("低", "low"), ("LOW", "low"), ("🟢 低", "low"),
    ],
)  # fmt: skip
def test_importance_accepts_case_emoji_and_chinese(raw: str, expected: str) -> None:
    assert FullOutput.model_validate(full(importance=raw)).importance is Importance(expected)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("bug fix", "bugfix"), ("Bug修复", "bugfix"), ("fix", "bugfix"), ("BugFix", "bugfix"),
        ("feat", "feature"), ("新功能", "feature"), ("功能增强", "feature"),
        ("perf", "performance"), ("性能优化", "performance"), ("重构", "refactor"),
        ("代码重构", "refactor"), ("重构 / 架构变更", "refactor"), ("文档", "documentation"),
        ("文档更新", "documentation"), ("docs", "documentation"), ("测试", "test"),
        ("ci", "ci_build"), ("build", "ci_build"), ("构建", "ci_build"), ("CI_BUILD", "ci_build"),
        ("依赖", "dependency"), ("回滚", "revert"), ("移除", "removal"), ("弃用", "removal"),
        ("deprecation", "removal"), ("安全", "security"), ("something else", "other"),
        ("", "other"),
    ],
)  # fmt: skip
def test_change_type_accepts_variants_and_unknown_is_other(raw: str, expected: str) -> None:
    assert FullOutput.model_validate(full(change_type=raw)).change_type is ChangeType(expected)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("架构", "architecture"), ("性能", "performance"), ("安全", "security"),
        ("可维护性", "maintainability"), ("兼容性", "compatibility"),
        ("Architecture", "architecture"),
    ],
)  # fmt: skip
def test_insight_dimensions_accept_chinese_names(raw: str, expected: str) -> None:
    out = FullOutput.model_validate(full(insights=[{"dimension": raw, "text": "t"}]))
    assert out.insights[0].dimension.value == expected


def test_unknown_importance_and_dimension_are_errors_with_a_short_message() -> None:
    with pytest.raises(ValidationError) as err:
        FullOutput.model_validate(
            full(importance="urgent", insights=[{"dimension": "vibes", "text": "t"}])
        )
    text = describe_validation_error(err.value)
    assert "importance:" in text and "insights.0.dimension:" in text
    assert "\n" not in text and len(text) <= 300


def test_missing_required_fields_are_errors() -> None:
    for key in ("summary", "importance", "change_type"):
        data = full()
        del data[key]
        with pytest.raises(ValidationError) as err:
            FullOutput.model_validate(data)
        assert key in describe_validation_error(err.value)
    with pytest.raises(ValidationError):
        FullOutput.model_validate(full(summary="   "))


# ---- lenient lists and keys ---------------------------------------------------------------


def test_lists_default_to_empty_and_accept_a_single_string() -> None:
    minimal = {"change_type": "docs", "importance": "low", "summary": "Typo."}
    out = FullOutput.model_validate(minimal)
    assert (out.impact, out.insights, out.risks, out.recommendations) == ([], [], [], [])
    assert out.change_type_reason == ""
    out = FullOutput.model_validate(
        full(impact="docs only", risks="may confuse readers", recommendations="read it")
    )
    assert out.impact == ["docs only"]
    assert out.risks[0].risk == "may confuse readers" and out.risks[0].effect == ""
    assert out.recommendations == ["read it"]
    assert FullOutput.model_validate(full(impact=None, risks=[])).impact == []


def test_list_items_given_as_objects_are_flattened() -> None:
    out = FullOutput.model_validate(
        full(impact=[{"component": "`vllm/attention`", "change": "moved"}, "", "kept"])
    )
    assert out.impact == ["`vllm/attention`: moved", "kept"]


def test_key_aliases_and_a_wrapper_object() -> None:
    raw = {"analysis": {"Type": "fix", "Severity": "高", "summary": ["One.", "Two."]}}
    out = FullOutput.model_validate(raw)
    assert out.change_type is ChangeType.BUGFIX and out.importance is Importance.HIGH
    assert out.summary == "One. Two."
    # the canonical key wins over an alias
    both = FullOutput.model_validate(full(type="feature", change_type="bugfix"))
    assert both.change_type is ChangeType.BUGFIX


def test_extra_keys_are_ignored_and_compact_reads_a_full_reply() -> None:
    out = CompactOutput.model_validate(full(confidence=0.9))
    assert out.summary.startswith("Fixes")
    assert not isinstance(out, FullOutput)


# ---- the JSON schema ----------------------------------------------------------------------


def _walk(node: Any) -> list[Any]:
    out = [node]
    if isinstance(node, dict):
        out += [x for v in node.values() for x in _walk(v)]
    elif isinstance(node, list):
        out += [x for v in node for x in _walk(v)]
    return out


@pytest.mark.parametrize("schema", [FULL_SCHEMA, COMPACT_SCHEMA])
def test_schemas_are_self_contained_closed_and_require_every_field(schema: Any) -> None:
    text = json.dumps(schema)
    assert "$ref" not in text and "$defs" not in text
    objects = [n for n in _walk(schema) if isinstance(n, dict) and n.get("type") == "object"]
    assert objects
    for obj in objects:
        assert sorted(obj["required"]) == sorted(obj["properties"])
        assert obj["additionalProperties"] is False
    assert schema["properties"]["importance"] == {
        "enum": ["high", "medium", "low"],
        "type": "string",
    }
    assert schema["properties"]["change_type"]["enum"] == [t.value for t in ChangeType]


def test_compact_schema_has_only_the_four_short_fields() -> None:
    assert list(COMPACT_SCHEMA["properties"]) == [
        "change_type", "change_type_reason", "importance", "summary",
    ]  # fmt: skip
    assert set(FULL_SCHEMA["properties"]) > set(COMPACT_SCHEMA["properties"])
    dims = FULL_SCHEMA["properties"]["insights"]["items"]["properties"]["dimension"]["enum"]
    assert dims == ["architecture", "performance", "security", "maintainability", "compatibility"]


# ---- to_analysis --------------------------------------------------------------------------


def test_to_analysis_copies_every_field() -> None:
    usage = Usage(prompt_tokens=10, completion_tokens=5, calls=1)
    a = to_analysis(
        FullOutput.model_validate(full()),
        seeded_type=ChangeType.BUGFIX,
        analyser_version="m@v1",
        lang="en",
        notes=["n"],
        omitted_files=["big.py"],
        usage=usage,
    )
    assert a.analyser == "llm" and a.analyser_version == "m@v1"
    assert a.status is AnalysisStatus.OK
    assert a.change_type is ChangeType.BUGFIX and a.importance is Importance.MEDIUM
    assert a.impact == full()["impact"]
    assert a.insights[0].dimension == "maintainability"
    assert a.risks[0].mitigation == "bench"
    assert a.recommendations == ["re-run the scheduler benchmarks"]
    assert a.notes == ["n"] and a.omitted_files == ["big.py"] and a.usage == usage


@pytest.mark.parametrize("reason", ["", "   ", "N/A", "无", "none"])
def test_a_blank_reason_keeps_the_seeded_type_with_a_note(reason: str) -> None:
    out = FullOutput.model_validate(full(change_type="refactor", change_type_reason=reason))
    a = to_analysis(out, seeded_type=ChangeType.BUGFIX, analyser_version="v", lang="en")
    assert a.change_type is ChangeType.BUGFIX
    assert "refactor" in a.notes[0] and "ignored" in a.notes[0]
    zh = to_analysis(out, seeded_type=ChangeType.BUGFIX, analyser_version="v", lang="zh")
    assert "忽略" in zh.notes[0]


def test_a_reason_lets_the_model_override_the_seeded_type() -> None:
    why = "the diff only moves code; no behaviour changes"
    out = FullOutput.model_validate(full(change_type="refactor", change_type_reason=why))
    a = to_analysis(out, seeded_type=ChangeType.BUGFIX, analyser_version="v", notes=["later"])
    assert a.change_type is ChangeType.REFACTOR
    assert why in a.notes[0] and "bugfix" in a.notes[0] and a.notes[1] == "later"


def test_no_note_when_the_type_agrees_or_nothing_was_seeded() -> None:
    out = FullOutput.model_validate(full(change_type="feature"))
    assert to_analysis(out, seeded_type=ChangeType.FEATURE, analyser_version="v").notes == []
    a = to_analysis(out, seeded_type=None, analyser_version="v")
    assert a.change_type is ChangeType.FEATURE and a.notes == []


def test_a_compact_output_has_empty_lists() -> None:
    out = CompactOutput.model_validate(full(importance="high"))
    a = to_analysis(out, seeded_type=None, analyser_version="v")
    assert a.importance is Importance.HIGH and a.summary
    assert (a.impact, a.insights, a.risks, a.recommendations) == ([], [], [], [])
