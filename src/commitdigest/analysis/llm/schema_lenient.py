"""Lenient reading of a model's reply, before schema validation.

Models write enum values in any case or spacing, with emoji or in Chinese ("🔴 高",
"Bug修复", "架构"), give a single string where a list is expected, list items as objects, and
use their own names for keys. The functions here map all that onto the canonical values of
:mod:`.schema` (they are its ``mode="before"`` validators); whatever they do not recognise is
left as it is for validation to reject, except change types: an unknown one is ``other``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import Enum, StrEnum
from typing import Final

from commitdigest.analysis.tags import CONVENTIONAL_TYPES, TAG_TYPES
from commitdigest.models import ChangeType, Importance

__all__ = [
    "KEY_ALIASES",
    "Dimension",
    "as_list",
    "label_key",
    "normalise_change_type",
    "normalise_dimension",
    "normalise_importance",
    "text_list",
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
