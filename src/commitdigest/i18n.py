"""Every zh/en string commitdigest prints, in one place: one table per kind of text.

A table maps a language (``"zh"``, ``"en"``) to its strings; :func:`pick` looks one up
with the fallback its caller wants. The modules that print (render, site, deliver, the
rule analyser) read their words from here and spell none themselves, so each label has
exactly one spelling per language. ``{…}`` fields are filled with :meth:`str.format`.

This is a base module: it imports nothing but the data models.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TypeVar

from commitdigest.models import ChangeType, Importance

K = TypeVar("K")
V = TypeVar("V")

LANGS: tuple[str, ...] = ("zh", "en")
"""The report languages."""


def pick(tables: Mapping[str, Mapping[K, V]], lang: str, fallback: str = "en") -> Mapping[K, V]:
    """The table of ``lang`` in ``tables``, else that of ``fallback``."""
    return tables[lang] if lang in tables else tables[fallback]


# ---- report labels (render/labels.py) ----------------------------------------------------

IMPORTANCE_EMOJI: Mapping[Importance, str] = MappingProxyType(
    {Importance.HIGH: "🔴", Importance.MEDIUM: "🟡", Importance.LOW: "🟢"}
)

IMPORTANCE_NAMES: dict[str, dict[Importance, str]] = {
    "zh": {Importance.HIGH: "高", Importance.MEDIUM: "中", Importance.LOW: "低"},
    "en": {Importance.HIGH: "High", Importance.MEDIUM: "Medium", Importance.LOW: "Low"},
}

CHANGE_TYPES: dict[str, dict[ChangeType, str]] = {
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
DIMENSIONS: dict[str, dict[str, str]] = {
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
REPORT_STRINGS: dict[str, dict[str, str]] = {
    "zh": {
        "report_title": "每日更新报告（{label}）",
        "window": "时间窗口：{start} — {end}（{tz}）",
        "generated": "生成时间：{at}（{tz}）",
        "col_time": "提交时间",
        "col_author": "作者",
        "col_commit": "提交信息",
        "stats": "📊 统计摘要",
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
        "more_sep": "",
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
        "more_sep": " ",
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


# ---- the archive site (site/strings.py) ---------------------------------------------------

SITE_STRINGS: dict[str, dict[str, str]] = {
    "zh": {
        "site_title": "commitdigest · 每日更新报告",
        "reports_heading": "报告",
        "repos_heading": "仓库",
        "n_reports": "{n} 份报告",
        "n_repos": "{n} 个仓库",
        "n_commits": "{n} 个提交",
        "more": "……另有 {n} 项",
        "md_only": "仅有 Markdown 版本（没有 JSON 上下文）",
        "no_reports": "还没有报告。",
        "no_commits": "当天没有提交。",
        "feed": "Atom 订阅",
        "back": "← 全部报告",
        "upstream": "上游仓库",
        "made_by": "由 commitdigest 生成",
        "sep": " · ",
        "feed_item": "- {title}（{repo}）",
    },
    "en": {
        "site_title": "commitdigest · daily reports",
        "reports_heading": "Reports",
        "repos_heading": "Repositories",
        "n_reports": "{n} reports",
        "n_reports_one": "{n} report",
        "n_repos": "{n} repositories",
        "n_repos_one": "{n} repository",
        "n_commits": "{n} commits",
        "n_commits_one": "{n} commit",
        "more": "… and {n} more",
        "md_only": "Markdown only (no JSON context)",
        "no_reports": "No reports yet.",
        "no_commits": "No commits that day.",
        "feed": "Atom feed",
        "back": "← All reports",
        "upstream": "Upstream",
        "made_by": "Made by commitdigest",
        "sep": " · ",
        "feed_item": "- {title} ({repo})",
    },
}


# ---- chat digests (deliver/digest.py) -----------------------------------------------------

DIGEST_STRINGS: dict[str, dict[str, str]] = {
    "zh": {
        "title": "{repos} 每日更新 · {day}",
        "test": "🧪 测试消息 · ",
        "counts": "共 {n} 个提交 · {high} {medium} {low}",
        "none": "本日没有提交。",
        "more": "……另有 {n} 条",
        "report": "📄 完整报告：",
        "report_link": "查看完整报告",
        "repos_more": " 等 {n} 个仓库",
        "sample_summary": "示例提交：{title}",
        "sample_theme": "示例：正确性与性能",
        "sample_risk": "这是一条测试消息，并非真实报告",
    },
    "en": {
        "title": "{repos} · daily update · {day}",
        "test": "🧪 Test message · ",
        "counts": "{n} commits · {high} {medium} {low}",
        "none": "No commits this day.",
        "more": "…and {n} more",
        "report": "📄 Full report: ",
        "report_link": "open the full report",
        "repos_more": " +{n} more",
        "sample_summary": "A sample commit: {title}",
        "sample_theme": "Sample: correctness and speed",
        "sample_risk": "This is a test message, not a report",
    },
}


# ---- the rule analyser (analysis/rules_text.py) -------------------------------------------

# keyed by analysis.paths.Area values (a StrEnum: an Area indexes these tables directly)
AREA_NAMES: dict[str, dict[str, str]] = {
    "zh": {
        "source": "源码",
        "tests": "测试",
        "docs": "文档",
        "ci_build": "CI 与构建配置",
        "examples": "示例",
        "benchmarks": "基准测试",
        "dependency": "依赖清单",
        "generated": "生成或第三方代码",
    },
    "en": {
        "source": "source",
        "tests": "tests",
        "docs": "docs",
        "ci_build": "CI/build config",
        "examples": "examples",
        "benchmarks": "benchmarks",
        "dependency": "dependency manifests",
        "generated": "generated/vendored code",
    },
}

RULE_TEXT: dict[str, dict[str, str]] = {
    "zh": {
        # summary
        "sentence_end": "。",
        "shape": "改动：{parts}。",
        "shape_sep": "，",
        "shape_part": "{area} {files}{lines}",
        "shape_lines": "（{lines}）",
        "shape_unknown": "（行数未知）",
        "no_files": "没有文件变更信息。",
        # impact
        "impact": "{comp}（{lines}{files}）",
        "impact_lines": "{lines}，",
        "impact_more": "……另有 {n} 个组件",
        # notes: change type
        "type_tag": "变更类型取自标题标签 {tags}。",
        "type_conventional": "变更类型取自约定式提交前缀 {prefix}。",
        "type_revert": "标题表明这是一次回退（revert）。",
        "type_security": "标题含安全相关词 {word}，归为安全修复。",
        "type_keyword": "变更类型取自标题关键词 {word}。",
        "type_files": "标题未表明类型，按所改文件判断：只改动了{area}。",
        "type_unknown": "标题与所改文件都没有表明变更类型。",
        # notes: importance evidence
        "ev_source_size": "核心源码改动 {lines} 行（{files}），跨 {comps} 个组件。",
        "ev_source_files": "核心源码改动 {files}（行数未知），跨 {comps} 个组件。",
        "ev_non_source": "只改动了{areas}，不涉及核心源码。",
        "ev_no_files": "没有文件变更信息，只能依据标题判断。",
        "ev_dependency": "改动了依赖清单 {paths}。",
        "ev_removed_api": "删除了公开的函数或类 {names}（补丁中无同名新增）。",
        "ev_removed_files": "删除或重命名了源码文件 {paths}。",
        "ev_revert": "这是一次回退，撤销了此前合入的改动。",
        "ev_security": "标题或正文提到安全相关词：{words}。",
        "ev_breaking": "提交声明了破坏性变更（{marker}）。",
        "ev_removal": "移除或弃用了功能。",
        "ev_feature": "新增功能或模型支持。",
        "ev_score": "重要程度评分 {score}（≥3 为高，≥1 为中，否则为低）。",
        # insights
        "in_breadth": "改动横跨 {n} 个源码组件：{comps}。",
        "in_removed_api": "公开接口 {names} 被删除，依赖它们的调用方需要修改。",
        "in_moved_files": "源码文件 {paths} 被删除或改名，旧的导入路径失效。",
        "in_security": "提交涉及安全问题（{words}），具体影响请对照补丁与安全公告。",
        "in_perf": "提交标记为性能优化；收益取决于负载，提交信息中的数据需自行验证。",
        "in_revert": "回退会让相关行为恢复到被回退的提交之前。",
        "in_net_deletion": "删除的行数多于新增（{lines}），代码量净减少。",
        # risks
        "rk_removed_api": "调用 {names} 的代码会失效",
        "rk_removed_api_effect": "运行时出现 ImportError 或 AttributeError",
        "rk_removed_api_fix": "在自己的代码中搜索 {names}，改用替代接口",
        "rk_moved_files": "从旧路径 {paths} 导入的代码会失败",
        "rk_moved_files_effect": "导入时出现 ModuleNotFoundError 或 ImportError",
        "rk_moved_files_fix": "更新导入路径",
        "rk_breaking": "提交声明了破坏性变更",
        "rk_breaking_effect": "升级后现有用法可能不再工作",
        "rk_breaking_fix": "升级前阅读提交说明与迁移指引",
        "rk_untested": "{size}的源码改动没有同时修改测试",
        "rk_untested_effect": "回归可能未被测试覆盖",
        "rk_untested_fix": "升级后运行自己的集成测试",
        "rk_dependency": "依赖清单有变化，版本可能与现有环境冲突",
        "rk_dependency_effect": "安装失败或运行时行为变化",
        "rk_dependency_fix": "核对 {paths} 中的版本约束",
        "rk_security": "尚未升级的部署可能仍受该问题影响",
        "rk_security_effect": "存在被利用的可能",
        "rk_security_fix": "尽快升级，并查看相关安全公告",
        "rk_revert": "依赖被回退改动的代码会受影响",
        "rk_revert_effect": "功能或行为回到之前的状态",
        "rk_revert_fix": "确认自己是否用到了被回退的功能",
        # recommendations
        "rec_search_api": "在自己的代码中搜索 {names}。",
        "rec_imports": "检查是否有代码从 {paths} 导入。",
        "rec_tests": "源码改动未附带测试，建议补充覆盖 {comps} 的测试。",
        "rec_dependency": "检查 {paths} 中的依赖版本与自己环境的兼容性。",
        "rec_security": "尽快升级到包含此提交的版本。",
        "rec_perf": "在自己的负载上对比改动前后的性能。",
        "rec_revert": "确认自己没有依赖被回退的行为。",
        "rec_breaking": "升级前阅读迁移说明并调整用法。",
        "rec_broad": "改动范围大，升级后对 {comps} 做回归测试。",
        "rec_removal": "如果用到了被移除或弃用的功能，尽早迁移。",
        "rec_feature": "如需使用新功能，阅读相关文档或示例。",
        "more": "等 {n} 项",
        "size_lines": "{lines} 行",
        "size_files": "{files}",
    },
    "en": {
        "sentence_end": ".",
        "shape": "Changes: {parts}.",
        "shape_sep": "; ",
        "shape_part": "{area}: {files}{lines}",
        "shape_lines": " ({lines})",
        "shape_unknown": " (line counts unknown)",
        "no_files": "No file changes were given.",
        "impact": "{comp} ({lines}{files})",
        "impact_lines": "{lines}, ",
        "impact_more": "…and {n} more",
        "type_tag": "Change type from the title tag {tags}.",
        "type_conventional": "Change type from the conventional-commit prefix {prefix}.",
        "type_revert": "The title says this is a revert.",
        "type_security": "The title has the security word {word}: classed as a security fix.",
        "type_keyword": "Change type from the title keyword {word}.",
        "type_files": "The title states no type; judged by the files: only {area} changed.",
        "type_unknown": "Neither the title nor the files state a change type.",
        "ev_source_size": (
            "Touches {lines} lines of core source in {files} across {comps} component(s)."
        ),
        "ev_source_files": (
            "Touches core source in {files} (line counts unknown) across {comps} component(s)."
        ),
        "ev_non_source": "Only {areas} changed; no core source.",
        "ev_no_files": "No file changes were given; judged by the title only.",
        "ev_dependency": "Changes the dependency manifests {paths}.",
        "ev_removed_api": "Removes the public functions or classes {names} (not re-added).",
        "ev_removed_files": "Deletes or renames the source files {paths}.",
        "ev_revert": "A revert: undoes an earlier change.",
        "ev_security": "The title or body mentions security: {words}.",
        "ev_breaking": "Declares a breaking change ({marker}).",
        "ev_removal": "Removes or deprecates functionality.",
        "ev_feature": "Adds a feature or model support.",
        "ev_score": "Importance score {score} (≥3 high, ≥1 medium, else low).",
        "in_breadth": "Spans {n} source components: {comps}.",
        "in_removed_api": "The public {names} are removed; their callers must change.",
        "in_moved_files": "The source files {paths} are deleted or renamed; old imports break.",
        "in_security": (
            "Concerns security ({words}); check the patch and any advisory for the exact impact."
        ),
        "in_perf": (
            "Marked as a performance change; gains depend on the workload, verify any numbers."
        ),
        "in_revert": "The revert restores the behaviour from before the reverted commit.",
        "in_net_deletion": "More lines deleted than added ({lines}): the code shrinks.",
        "rk_removed_api": "Code calling {names} breaks",
        "rk_removed_api_effect": "ImportError or AttributeError at run time",
        "rk_removed_api_fix": "Search your code for {names} and move to the replacement",
        "rk_moved_files": "Imports from the old paths {paths} fail",
        "rk_moved_files_effect": "ModuleNotFoundError or ImportError on import",
        "rk_moved_files_fix": "Update import paths",
        "rk_breaking": "The commit declares a breaking change",
        "rk_breaking_effect": "Existing usage may stop working after upgrading",
        "rk_breaking_fix": "Read the commit message and any migration notes before upgrading",
        "rk_untested": "A source change of {size} comes without test changes",
        "rk_untested_effect": "Regressions may go uncaught",
        "rk_untested_fix": "Run your own integration tests after upgrading",
        "rk_dependency": "Dependency manifests changed; versions may conflict with yours",
        "rk_dependency_effect": "Install failures or changed run-time behaviour",
        "rk_dependency_fix": "Check the version constraints in {paths}",
        "rk_security": "Deployments not yet upgraded may still be affected",
        "rk_security_effect": "Possible exploitation",
        "rk_security_fix": "Upgrade soon and read any related advisory",
        "rk_revert": "Code relying on the reverted change is affected",
        "rk_revert_effect": "Features or behaviour go back to their earlier state",
        "rk_revert_fix": "Check whether you use what was reverted",
        "rec_search_api": "Search your code for {names}.",
        "rec_imports": "Check for imports from {paths}.",
        "rec_tests": "No tests changed with the source; consider tests covering {comps}.",
        "rec_dependency": "Check the dependency versions in {paths} against your environment.",
        "rec_security": "Upgrade to a version that includes this commit soon.",
        "rec_perf": "Compare performance before and after on your own workload.",
        "rec_revert": "Make sure you do not depend on the reverted behaviour.",
        "rec_breaking": "Read the migration notes and adapt your usage before upgrading.",
        "rec_broad": "A broad change: run regression tests around {comps} after upgrading.",
        "rec_removal": "If you use the removed or deprecated functionality, migrate early.",
        "rec_feature": "To use the new functionality, read its docs or examples.",
        "more": "and {n} more",
        "size_lines": "{lines} lines",
        "size_files": "{files}",
    },
}

# "{n} features" / "功能增强 {n} 个": a count of commits of one change type, (one, many)
COUNTED_CHANGE_TYPES: dict[str, dict[ChangeType, tuple[str, str]]] = {
    "zh": {t: (f"{name} {{n}} 个", f"{name} {{n}} 个") for t, name in CHANGE_TYPES["zh"].items()},
    "en": {
        ChangeType.FEATURE: ("{n} feature", "{n} features"),
        ChangeType.BUGFIX: ("{n} bug fix", "{n} bug fixes"),
        ChangeType.PERFORMANCE: ("{n} performance change", "{n} performance changes"),
        ChangeType.REFACTOR: ("{n} refactor", "{n} refactors"),
        ChangeType.DOCUMENTATION: ("{n} documentation change", "{n} documentation changes"),
        ChangeType.TEST: ("{n} test change", "{n} test changes"),
        ChangeType.CI_BUILD: ("{n} CI/build change", "{n} CI/build changes"),
        ChangeType.DEPENDENCY: ("{n} dependency update", "{n} dependency updates"),
        ChangeType.REVERT: ("{n} revert", "{n} reverts"),
        ChangeType.REMOVAL: ("{n} removal", "{n} removals"),
        ChangeType.SECURITY: ("{n} security fix", "{n} security fixes"),
        ChangeType.OTHER: ("{n} other change", "{n} other changes"),
    },
}

# the analysers' small words: lists, file counts, the rule overview, the focus bump
ANALYSIS_STRINGS: dict[str, dict[str, str]] = {
    "zh": {
        "list_sep": "、",
        "more_sep": "",
        "n_files": "{n} 个文件",
        "n_files_one": "{n} 个文件",
        "ov_risk": "{risk}（{sha}）",
        "focus_note": "触及订阅的关注范围（{what}），重要程度上调一级",
    },
    "en": {
        "list_sep": ", ",
        "more_sep": " ",
        "n_files": "{n} files",
        "n_files_one": "{n} file",
        "ov_risk": "{risk} ({sha})",
        "focus_note": "touches the subscription's focus ({what}); importance raised one level",
    },
}


# ---- the LLM analyser (analysis/llm/) ------------------------------------------------------

# analyser_text: the LLM analyser's notes and fallback reasons
LLM_NOTES: dict[str, dict[str, str]] = {
    "en": {
        "unavailable": "LLM unavailable: {reason}",
        "refused": "LLM request refused: {reason}",
        "length": "output cut off at the token limit {n} times",
        "invalid_json": "invalid JSON twice: {detail}",
        "schema": "schema validation failed twice: {detail}",
        "unusable": "unusable output twice: {detail}",
        "too_large": "the prompt did not fit the model's context, even with the diff cut "
        "down {n} times",
        "parts_failed": "all {n} parts of the diff failed: {reason}",
        "chunks": "the diff was analysed in {n} parts, then merged",
        "merge_local": "merging the {n} parts failed ({reason}); their analyses were "
        "combined without the model",
        "merge_too_long": "the parts' analyses were too long to merge",
        "part_failed": "part {i} of {n} could not be analysed ({reason}); its {k} files are "
        "listed as omitted",
        "compact": "the output limit was reached: the compact form was used (no insights, "
        "risks or recommendations from the model)",
        "omitted": "{n} files were not shown to the model (over the token budget); they are "
        "listed as omitted",
        "by_name": "shown to the model by name only: {what}",
        "clipped": "the diff of {n} files was clipped to fit",
        "body_clipped": "the commit message was clipped to fit",
        "shrunk": "the prompt exceeded the model's context; the diff was planned again "
        "with a smaller budget",
    },
    "zh": {
        "unavailable": "LLM 不可用：{reason}",
        "refused": "LLM 拒绝了请求：{reason}",
        "length": "输出 {n} 次在 token 上限处被截断",
        "invalid_json": "两次返回无效 JSON：{detail}",
        "schema": "两次未通过 schema 校验：{detail}",
        "unusable": "两次输出均无法使用：{detail}",
        "too_large": "提示词超出模型上下文长度，diff 已缩减 {n} 次仍放不下",
        "parts_failed": "diff 的全部 {n} 个分块分析失败：{reason}",
        "chunks": "diff 分 {n} 块分析后合并",
        "merge_local": "合并 {n} 个分块失败（{reason}），已在本地合并各分块的分析",
        "merge_too_long": "各分块的分析过长，无法合并",
        "part_failed": "第 {i}/{n} 块未能分析（{reason}），其中 {k} 个文件列为未分析文件",
        "compact": "输出达到上限，改用简要形式（模型未给出技术洞察、风险和建议）",
        "omitted": "{n} 个文件超出 token 预算，未提供给模型，已列为未分析文件",
        "by_name": "仅以文件名提供给模型：{what}",
        "clipped": "{n} 个文件的 diff 被截短以适应预算",
        "body_clipped": "提交说明被截短以适应预算",
        "shrunk": "提示词超出模型上下文长度，已用更小的预算重新规划 diff",
    },
}


# analyser_text: files shown by name only, keyed by diff_plan.ListReason values (singular, plural)
LLM_LISTED_KINDS: dict[str, dict[str, tuple[str, str]]] = {
    "en": {
        "lockfile": ("lockfile", "lockfiles"),
        "vendored": ("vendored file", "vendored files"),
        "generated": ("generated file", "generated files"),
        "minified": ("minified file", "minified files"),
        "binary": ("binary file", "binary files"),
        "deleted": ("deleted file", "deleted files"),
        "deletion-only": ("deletion-only file", "deletion-only files"),
        "no diff text": ("file without diff text", "files without diff text"),
        "over budget": ("file over budget", "files over budget"),
    },
    "zh": {
        "lockfile": ("锁文件", ""),
        "vendored": ("第三方代码文件", ""),
        "generated": ("生成文件", ""),
        "minified": ("压缩文件", ""),
        "binary": ("二进制文件", ""),
        "deleted": ("已删除文件", ""),
        "deletion-only": ("仅删除行的文件", ""),
        "no diff text": ("无 diff 文本的文件", ""),
        "over budget": ("超出预算的文件", ""),
    },
}


# prompt: the reminder of the report language
LLM_LANGUAGE_REMINDER: dict[str, str] = {
    "zh": "所有自由文本字段用简体中文书写。",
    "en": "Write every free-text value in English.",
}


# schema: the note on a change type the model changed
LLM_TYPE_NOTES: dict[str, dict[str, str]] = {
    "zh": {
        "kept": "模型建议的类型 {new} 未说明理由，已忽略；保留标题标签给出的类型 {old}",
        "changed": "模型将类型由标题标签给出的 {old} 改为 {new}：{reason}",
    },
    "en": {
        "kept": "the model's type {new} came without a reason and was ignored; "
        "kept {old} from the title's tags",
        "changed": "the model changed the type from {old} (title tags) to {new}: {reason}",
    },
}
