"""Every word the report prints, in Chinese and English: one table per kind of label.

The template never spells a label itself; it reads them from :func:`get_labels`, so each
label (``🔴 高``, ``重构`` …) has exactly one spelling per language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from commitdigest.errors import UsageError
from commitdigest.models import ChangeType, Importance

SUPPORTED_LANGS: tuple[str, ...] = ("zh", "en")

IMPORTANCE_EMOJI: Mapping[Importance, str] = MappingProxyType(
    {Importance.HIGH: "🔴", Importance.MEDIUM: "🟡", Importance.LOW: "🟢"}
)

_IMPORTANCE_NAME: dict[str, dict[Importance, str]] = {
    "zh": {Importance.HIGH: "高", Importance.MEDIUM: "中", Importance.LOW: "低"},
    "en": {Importance.HIGH: "High", Importance.MEDIUM: "Medium", Importance.LOW: "Low"},
}

_CHANGE_TYPE: dict[str, dict[ChangeType, str]] = {
    "zh": {
        ChangeType.FEATURE: "功能增强",
        ChangeType.BUGFIX: "Bug 修复",
        ChangeType.PERFORMANCE: "性能优化",
        ChangeType.REFACTOR: "代码重构",
        ChangeType.DOCUMENTATION: "文档更新",
        ChangeType.TEST: "测试",
        ChangeType.CI_BUILD: "CI / 构建",
        ChangeType.DEPENDENCY: "依赖更新",
        ChangeType.REVERT: "回滚",
        ChangeType.REMOVAL: "移除",
        ChangeType.SECURITY: "安全修复",
        ChangeType.OTHER: "其他",
    },
    "en": {
        ChangeType.FEATURE: "Feature",
        ChangeType.BUGFIX: "Bug fix",
        ChangeType.PERFORMANCE: "Performance",
        ChangeType.REFACTOR: "Refactor",
        ChangeType.DOCUMENTATION: "Documentation",
        ChangeType.TEST: "Tests",
        ChangeType.CI_BUILD: "CI / build",
        ChangeType.DEPENDENCY: "Dependencies",
        ChangeType.REVERT: "Revert",
        ChangeType.REMOVAL: "Removal",
        ChangeType.SECURITY: "Security fix",
        ChangeType.OTHER: "Other",
    },
}

# Insight.dimension is free text; the five dimensions the analysers use get a label.
_DIMENSION: dict[str, dict[str, str]] = {
    "zh": {
        "architecture": "架构影响",
        "performance": "性能影响",
        "security": "安全考虑",
        "maintainability": "可维护性",
        "compatibility": "兼容性",
    },
    "en": {
        "architecture": "Architecture",
        "performance": "Performance",
        "security": "Security",
        "maintainability": "Maintainability",
        "compatibility": "Compatibility",
    },
}

# Plain strings. ``{…}`` fields are filled with str.format by the template / renderer.
_STRINGS: dict[str, dict[str, str]] = {
    "zh": {
        "report_title": "每日更新报告（{label}）",
        "window": "时间窗口：{start} — {end}（{tz}）",
        "generated": "生成时间：{at}（{tz}）",
        "col_time": "提交时间",
        "col_author": "作者",
        "col_commit": "提交信息",
        "stats": "📊 统计摘要",
        "breaking": "⚠️ 破坏性变更",
        "stats_total_day": "本日共 {n} 个提交",
        "stats_total_window": "本期共 {n} 个提交",
        "stats_item": "{emoji}{name} {n}",
        "toc": "📋 目录",
        "changes": "{name} · 变更详情",
        "group": "{emoji} {name}重要度变更 ({n})",
        "no_commits": "本时间窗口内没有提交。",
        "repo_failed": "⚠️ 本次未能读取此仓库，其提交不在本报告中：{reason}。下次运行会重试。",
        "view_commit": "查看提交",
        "pr": "PR",
        "change_type": "🎯 变更类型",
        "importance": "⚡ 重要程度",
        "summary": "📋 变更摘要",
        "low_summary": "📋 摘要",
        "impact": "🎯 影响范围",
        "recommendations": "💡 关注建议",
        "insights": "🔍 技术洞察",
        "col_dimension": "维度",
        "col_analysis": "分析",
        "risks": "⚠️ 潜在风险",
        "col_risk": "风险",
        "col_effect": "影响",
        "col_mitigation": "缓解措施",
        "notes": "🧾 判断依据",
        "by_rules": "🤖 规则分析",
        "by_llm": "🧠 LLM 分析",
        "by_other": "🤖 {name} 分析",
        "version": "（{version}）",
        "fallback": "⚠️ LLM 分析失败，已使用规则分析：{reason}",
        "unknown_reason": "原因未知",
        "coverage": "覆盖：{analysed}/{total} 已分析",
        "coverage_total": "全部仓库覆盖：{analysed}/{total} 已分析",
        "cov_llm": "LLM {n}",
        "cov_rules": "规则 {n}",
        "cov_other": "其他 {n}",
        "cov_fallback": "，其中 {n} 个为 LLM 失败后的规则回退",
        "cov_open": "（",
        "cov_close": "）",
        "cov_sep": " · ",
        "notes_sep": "；",
        "colon": "：",
        "empty_cell": "—",
        "untitled": "（无标题）",
        "overview_day": "🧭 今日概览",
        "overview_window": "🧭 本期概览",
        "ov_themes": "主要主题",
        "ov_key_changes": "重要变更",
        "ov_risks": "需关注的风险",
        "ov_by_llm": "🧠 LLM 概览",
        "ov_by_rules": "🤖 规则概览（按提交统计）",
        "ov_by_other": "🤖 {name} 概览",
        "ov_fallback": "⚠️ LLM 概览失败，已使用规则概览：{reason}",
        "omitted_files": "🗂️ 未分析的文件",
        "omitted_more": "……另有 {n} 个",
        "list_sep": "、",
        "usage": "💰 Token：输入 {prompt} · 输出 {completion} · {calls}",
        "usage_calls": "调用 {n} 次",
        "usage_call": "调用 {n} 次",
        "usage_cost": " · 费用 ≈ {cost}",
        # the HTML page only
        "html_lang": "zh-CN",
        "html_summary_bar": "报告摘要",
        "html_filters": "筛选",
        "html_importance": "重要程度",
        "html_type": "变更类型",
        "html_type_all": "全部类型",
        "html_repo": "仓库",
        "html_repo_all": "全部仓库",
        "html_search": "搜索",
        "html_search_hint": "搜索标题、作者、摘要",
        "html_shown": "显示 {shown} / {total} 个提交",
        "html_no_match": "没有符合筛选条件的提交。",
        "html_reset": "重置",
        "html_expand": "全部展开",
        "html_collapse": "全部收起",
        "html_labels": "🏷️ 标签",
        "html_top": "回到顶部",
    },
    "en": {
        "report_title": "Daily update report ({label})",
        "window": "Window: {start} — {end} ({tz})",
        "generated": "Generated at: {at} ({tz})",
        "col_time": "Time",
        "col_author": "Author",
        "col_commit": "Commit",
        "stats": "📊 Statistics",
        "breaking": "⚠️ Breaking changes",
        "stats_total_day": "{n} commits",
        "stats_total_window": "{n} commits",
        "stats_item": "{emoji} {name} {n}",
        "toc": "📋 Contents",
        "changes": "{name} · changes",
        "group": "{emoji} {name} importance ({n})",
        "no_commits": "No commits in this window.",
        "repo_failed": (
            "⚠️ This repository could not be read this time, so its commits are missing "
            "from this report: {reason}. The next run tries again."
        ),
        "view_commit": "View commit",
        "pr": "PR",
        "change_type": "🎯 Change type",
        "importance": "⚡ Importance",
        "summary": "📋 Summary",
        "low_summary": "📋 Summary",
        "impact": "🎯 Impact",
        "recommendations": "💡 Recommendations",
        "insights": "🔍 Technical insights",
        "col_dimension": "Dimension",
        "col_analysis": "Analysis",
        "risks": "⚠️ Potential risks",
        "col_risk": "Risk",
        "col_effect": "Effect",
        "col_mitigation": "Mitigation",
        "notes": "🧾 Evidence",
        "by_rules": "🤖 Rule-based analysis",
        "by_llm": "🧠 LLM analysis",
        "by_other": "🤖 Analysed by {name}",
        "version": " ({version})",
        "fallback": "⚠️ LLM analysis failed; rule-based analysis used instead: {reason}",
        "unknown_reason": "reason unknown",
        "coverage": "Coverage: {analysed}/{total} analysed",
        "coverage_total": "Coverage, all repositories: {analysed}/{total} analysed",
        "cov_llm": "LLM {n}",
        "cov_rules": "rules {n}",
        "cov_other": "other {n}",
        "cov_fallback": ", {n} of them rule-based fallbacks after an LLM failure",
        "cov_open": " (",
        "cov_close": ")",
        "cov_sep": " · ",
        "notes_sep": "; ",
        "colon": ": ",
        "empty_cell": "—",
        "untitled": "(untitled)",
        "overview_day": "🧭 Overview",
        "overview_window": "🧭 Overview",
        "ov_themes": "Themes",
        "ov_key_changes": "Key changes",
        "ov_risks": "Risks to act on",
        "ov_by_llm": "🧠 LLM overview",
        "ov_by_rules": "🤖 Rule-based overview (counted from the commits)",
        "ov_by_other": "🤖 Overview by {name}",
        "ov_fallback": "⚠️ LLM overview failed; rule-based overview used instead: {reason}",
        "omitted_files": "🗂️ Files not analysed",
        "omitted_more": " … and {n} more",
        "list_sep": ", ",
        "usage": "💰 Tokens: input {prompt} · output {completion} · {calls}",
        "usage_calls": "{n} calls",
        "usage_call": "{n} call",
        "usage_cost": " · cost ≈ {cost}",
        # the HTML page only
        "html_lang": "en",
        "html_summary_bar": "Report summary",
        "html_filters": "Filters",
        "html_importance": "Importance",
        "html_type": "Change type",
        "html_type_all": "All types",
        "html_repo": "Repository",
        "html_repo_all": "All repositories",
        "html_search": "Search",
        "html_search_hint": "Search titles, authors, summaries",
        "html_shown": "Showing {shown} of {total} commits",
        "html_no_match": "No commit matches the filters.",
        "html_reset": "Reset",
        "html_expand": "Expand all",
        "html_collapse": "Collapse all",
        "html_labels": "🏷️ Labels",
        "html_top": "Back to top",
    },
}


@dataclass(frozen=True)
class Labels:
    """The labels of one language; ``s`` holds the plain strings by key."""

    lang: str
    s: Mapping[str, str]
    change_types: Mapping[ChangeType, str]
    importance_names: Mapping[Importance, str]
    dimensions: Mapping[str, str]

    def importance(self, importance: Importance | str) -> str:
        """``🔴 高`` / ``🔴 High``: the one spelling of an importance."""
        imp = Importance(importance)
        return f"{IMPORTANCE_EMOJI[imp]} {self.importance_names[imp]}"

    def change_type(self, change_type: ChangeType | str) -> str:
        return self.change_types[ChangeType(change_type)]

    def group(self, importance: Importance | str, count: int) -> str:
        imp = Importance(importance)
        return self.s["group"].format(
            emoji=IMPORTANCE_EMOJI[imp], name=self.importance_names[imp], n=count
        )

    def stats_item(self, importance: Importance | str, count: int) -> str:
        imp = Importance(importance)
        return self.s["stats_item"].format(
            emoji=IMPORTANCE_EMOJI[imp], name=self.importance_names[imp], n=count
        )

    def dimension(self, dimension: str) -> str | None:
        """The label of a known insight dimension, else None (print the text itself)."""
        return self.dimensions.get(dimension.strip().lower())


def _build(lang: str) -> Labels:
    return Labels(
        lang=lang,
        s=MappingProxyType(_STRINGS[lang]),
        change_types=MappingProxyType(_CHANGE_TYPE[lang]),
        importance_names=MappingProxyType(_IMPORTANCE_NAME[lang]),
        dimensions=MappingProxyType(_DIMENSION[lang]),
    )


_LABELS: dict[str, Labels] = {lang: _build(lang) for lang in SUPPORTED_LANGS}


def get_labels(lang: str) -> Labels:
    """The labels for ``lang``; :class:`UsageError` for a language we do not speak."""
    try:
        return _LABELS[lang]
    except KeyError:
        raise UsageError(
            f"unsupported report language {lang!r}; choose one of: {', '.join(SUPPORTED_LANGS)}"
        ) from None
