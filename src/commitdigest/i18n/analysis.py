"""The rule analyser's, the rule overview's and the focus bump's words (zh/en)."""

from __future__ import annotations

from commitdigest.models import ChangeType

from .report import CHANGE_TYPES

# ---- the rule analyser (analysis/rules_text.py) -------------------------------------------

# keyed by analysis.classify.Area values (a StrEnum: an Area indexes these tables directly)
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

# an area as the noun of a count: (one, many); "3 个源码文件" reads "源码 3 个文件" in zh
AREA_NOUNS: dict[str, dict[str, tuple[str, str]]] = {
    "zh": {area: (name, name) for area, name in AREA_NAMES["zh"].items()},  # no plural
    "en": {
        "source": ("source file", "source files"),
        "tests": ("test file", "test files"),
        "docs": ("documentation file", "documentation files"),
        "ci_build": ("CI or build file", "CI or build files"),
        "examples": ("example file", "example files"),
        "benchmarks": ("benchmark file", "benchmark files"),
        "dependency": ("dependency manifest", "dependency manifests"),
        "generated": ("generated or vendored file", "generated or vendored files"),
    },
}

RULE_TEXT: dict[str, dict[str, str]] = {
    "zh": {
        # summary: the kind of change in Chinese; the commit's own words only in 「…」
        "sum_feature": "这是一次功能增强。",
        "sum_bugfix": "这是一次缺陷修复。",
        "sum_performance": "这是一次性能优化。",
        "sum_refactor": "这是一次代码重构。",
        "sum_documentation": "这是一次文档更新。",
        "sum_test": "这是一次测试改动。",
        "sum_ci_build": "这是一次 CI 或构建配置的改动。",
        "sum_dependency": "这是一次依赖更新。",
        "sum_revert": "这是一次回退，撤销了此前合入的改动。",
        "sum_removal": "这次提交移除或弃用了一项功能。",
        "sum_security": "这是一次安全修复。",
        "sum_other": "这次提交没有标明变更类型。",
        "sum_release": "这是一次版本发布提交。",
        "sum_quote": "提交说明写道：「{text}」。",
        "sum_merged": "合并的拉取请求标题为「{title}」。",
        "shape": "改动涉及{parts}。",
        "shape_part": "{noun} {n} 个文件{lines}",
        "shape_lines": "（{lines}）",
        "shape_unknown": "（行数未知）",
        "no_files": "这次提交没有文件变更信息。",
        # impact
        "impact": "{comp}（{lines}{files}）",
        "impact_lines": "{lines}，",
        "impact_more": "……另有 {n} 个组件",
        # notes: change type
        "type_tag": "变更类型取自标题标签 {words}。",
        "type_conventional": "变更类型取自约定式提交前缀 {words}。",
        "type_verb": "变更类型取自标题开头的动词 {words}。",
        "type_keyword": "变更类型取自标题关键词 {words}。",
        "type_user_facing": "标题以 {words} 开头，且提交说明写明有面向用户的变化：归为移除。",
        "type_body": "标题未表明类型，提交说明提到 {words}：归为缺陷修复。",
        "type_body_refactor": "标题未表明类型，提交说明提到 {words}：归为代码重构。",
        "type_branch": "标题与提交说明未表明类型，类型取自合并的分支名 {branch}。",
        "type_release": "标题带有版本号且改动了更新日志：这是一次版本发布提交。",
        "type_vendored": "主要改动的是随项目分发的第三方依赖副本：归为依赖更新。",
        "type_revert": "标题表明这是一次回退（revert）。",
        "type_security": "标题或提交说明含安全相关词 {word}，归为安全修复。",
        "type_advisory_fork": (
            "这是 GitHub 安全公告临时私有分支的合并提交（`Merge commit from fork`），归为安全修复。"
        ),
        "type_removes_nothing": (
            "标题用了 {words}，但这次提交没有删除任何源码行或源码文件，不算移除功能。"
        ),
        "type_files": "只改动了{area}，按所改文件归类。",
        "type_unknown": "标题、提交说明与所改文件都没有表明变更类型。",
        # notes: importance evidence
        "ev_source_size": "核心源码改动 {lines} 行（{files}），跨 {comps} 个组件。",
        "ev_source_files": "核心源码改动 {files}（行数未知），跨 {comps} 个组件。",
        "ev_non_source": "只改动了{areas}，不涉及核心源码。",
        "ev_no_files": "没有文件变更信息，只能依据标题判断。",
        "ev_kind_feature": "新增或扩展了发布出去的功能。",
        "ev_kind_bugfix": "修复了发布出去的代码中的缺陷：用户可见的行为会变化。",
        "ev_kind_performance": "改动了发布出去的代码的性能：使用者会感受到。",
        "ev_kind_removal": "移除或弃用了发布出去的功能。",
        "ev_kind_security": "修复了发布出去的代码中的安全问题。",
        "ev_kind_revert": "回退了此前合入的改动。",
        "ev_kind_other": "改动了发布出去的代码，类型未标明。",
        "ev_tweak": "只是很小的修补（不足 3 行的提示文字、注释或措辞），或只涉及类型标注：不加分。",
        "ev_dependency": "改动了使用者会安装的依赖清单 {paths}。",
        "ev_lock_only": "只改动了锁文件 {paths}：锁文件不约束使用者安装的版本。",
        "ev_vendored": "更新了随项目分发的第三方依赖副本{paths}。",
        "ev_removed_api": "删除了公开的函数或类 {names}（补丁中无同名新增）。",
        "ev_radar": "从代码中发现 {n} 项破坏性变更：{names}。",
        "ev_radar_internal": "从代码中发现 {n} 项内部接口变化：不影响使用者，不加分。",
        "ev_radar_announced": "项目在提交说明或更新日志中声明了 {n} 项破坏性变更。",
        "ev_announced_docs": "更新日志提到 {n} 项破坏性变更，但这次提交只改了文档：不加分。",
        "ev_removed_files": "删除或重命名了源码文件 {paths}。",
        "ev_security": "标题或提交说明提到安全问题：{words}。",
        "ev_advisory_fork": "合并自 GitHub 安全公告的临时私有分支（`Merge commit from fork`）。",
        "ev_breaking": "提交声明了破坏性变更（{marker}）。",
        "ev_removal": "标题以 {words} 开头，移除的是使用者用到的功能。",
        "ev_bot": (
            "常规的依赖或自动化更新：评分 {score} 计为 0（除非涉及安全、破坏性变更或新的大版本）。"
        ),
        "ev_hardening": "提交收紧了代码接受的输入（{word}），且改动了源码。",
        "ev_default": "标题表明默认行为发生变化（{words}），且改动了源码。",
        "ev_deprecates": "标题表明弃用了某项功能（{word}），使用者需要迁移。",
        "ev_support_drop": "不再支持旧的版本或平台（{words}）。",
        "ev_not_user_facing": "提交说明写明没有面向用户的变化：评分 {score} 计为 2（中）。",
        "ev_tooling": "只涉及项目自身的工具、拼写或风格（{word}），降 2 分。",
        "ev_security_tooling": (
            "提到安全相关词 {words}，但没有改动发布出去的代码或使用者安装的依赖，不加分。"
        ),
        "ev_security_dependency": (
            "更新了使用者安装的依赖，提到安全相关词 {words}：请查看相关公告。"
        ),
        "ev_release": "发布提交（更新日志新增 {n} 行）：升级前请阅读其说明。",
        "ev_release_bare": "补丁版本的发布提交，更新日志几乎没有新内容：不加分。",
        "auto_low": "依赖或自动化更新：计为低重要度（无安全、大版本或破坏性变更的迹象）。",
        "auto_radar": "依赖或自动化更新，但雷达发现了破坏性变更：不降级。",
        "auto_security": "依赖或自动化更新，但提到了安全相关词 {word}：不降级。",
        "auto_security_dev": (
            "提到了安全相关词 {word}，但只改动了锁文件或项目自身的工具依赖：修复不会到达使用者。"
        ),
        "auto_major": "{package} 升级到新的大版本 {new}：请阅读其更新日志。",
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
        "rk_dependency": "使用者安装的依赖清单有变化，版本可能与现有环境冲突",
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
        "rec_dependency": "检查 {paths} 中的依赖版本与自己环境的兼容性。",
        "rec_security": "尽快升级到包含此提交的版本。",
        "rec_perf": "在自己的负载上对比改动前后的性能。",
        "rec_revert": "确认自己没有依赖被回退的行为。",
        "rec_breaking": "升级前阅读迁移说明并调整用法。",
        "rec_broad": "改动范围大，升级后请对 {comps} 做回归测试。",
        "rec_removal": "如果用到了被移除或弃用的功能，尽早迁移。",
        "rec_feature": "如需使用新功能，请阅读相关文档或示例。",
        "more": "及另外 {n} 项",
        "size_lines": "{lines} 行",
        "size_files": "{files}",
    },
    "en": {
        # English opens with the title; these stand in for a title that is empty
        "sum_feature": "A feature.",
        "sum_bugfix": "A bug fix.",
        "sum_performance": "A performance change.",
        "sum_refactor": "A refactor.",
        "sum_documentation": "A documentation change.",
        "sum_test": "A test change.",
        "sum_ci_build": "A CI or build change.",
        "sum_dependency": "A dependency update.",
        "sum_revert": "A revert of an earlier change.",
        "sum_removal": "A removal or deprecation.",
        "sum_security": "A security fix.",
        "sum_other": "A change of no stated type.",
        "sum_release": "A release commit.",
        "sum_quote": "The message says: “{text}”",
        "sum_merged": "{title}",
        "shape": "It changes {parts}.",
        "shape_part": "{n} {noun}{lines}",
        "shape_lines": " ({lines})",
        "shape_unknown": " (line counts unknown)",
        "no_files": "No file changes were given.",
        "impact": "{comp} ({lines}{files})",
        "impact_lines": "{lines}, ",
        "impact_more": "…and {n} more",
        "type_tag": "Change type from the title tag {words}.",
        "type_conventional": "Change type from the conventional-commit prefix {words}.",
        "type_verb": "Change type from the verb that opens the title, {words}.",
        "type_keyword": "Change type from the title keyword {words}.",
        "type_user_facing": (
            "The title opens with {words} and the message states a user-facing change: a removal."
        ),
        "type_body": "The title states no type; the message says {words}: a bug fix.",
        "type_body_refactor": "The title states no type; the message says {words}: a refactor.",
        "type_branch": "Neither the title nor the message states a type: typed by the name of "
        "the merged branch, {branch}.",
        "type_release": "A version in the title and a changelog changed: a release commit.",
        "type_vendored": "Mostly a vendored copy of a dependency changed: a dependency update.",
        "type_revert": "The title says this is a revert.",
        "type_security": (
            "The title or message has the security word {word}: classed as a security fix."
        ),
        "type_advisory_fork": (
            "Merged from a GitHub security advisory's temporary private fork "
            "(`Merge commit from fork`): classed as a security fix."
        ),
        "type_removes_nothing": (
            "The title says {words}, but the commit removes no line or file of source code: "
            "not a removal."
        ),
        "type_files": "Only {area} changed: typed by the files.",
        "type_unknown": "Neither the title, the message nor the files state a change type.",
        "ev_source_size": (
            "Touches {lines} lines of core source in {files} across {comps} component(s)."
        ),
        "ev_source_files": (
            "Touches core source in {files} (line counts unknown) across {comps} component(s)."
        ),
        "ev_non_source": "Only {areas} changed; no core source.",
        "ev_no_files": "No file changes were given; judged by the title only.",
        "ev_kind_feature": "Adds to or extends what the shipped code does.",
        "ev_kind_bugfix": "Fixes a bug in the shipped code: behaviour users see changes.",
        "ev_kind_performance": "Changes the shipped code's performance: users notice it.",
        "ev_kind_removal": "Removes or deprecates shipped functionality.",
        "ev_kind_security": "Fixes a security problem in the shipped code.",
        "ev_kind_revert": "Reverts an earlier change.",
        "ev_kind_other": "Changes the shipped code; the kind is not stated.",
        "ev_tweak": (
            "A tweak (under 3 lines of a message, a comment or the wording, or type hints "
            "only): no points."
        ),
        "ev_dependency": "Changes dependency manifests users install: {paths}.",
        "ev_lock_only": "Changes only the lock files {paths}: they bind no user's versions.",
        "ev_vendored": "Updates a vendored copy of a dependency users get{paths}.",
        "ev_removed_api": "Removes the public functions or classes {names} (not re-added).",
        "ev_radar": "The code shows {n} breaking change(s): {names}.",
        "ev_radar_internal": "The code shows {n} internal change(s): no user meets them, "
        "no points.",
        "ev_radar_announced": "The project announces {n} breaking change(s) in the message or "
        "changelog.",
        "ev_announced_docs": "The changelog names {n} breaking change(s), but this commit only "
        "edits documentation: no points.",
        "ev_removed_files": "Deletes or renames the source files {paths}.",
        "ev_security": "The title or message names a security problem: {words}.",
        "ev_advisory_fork": (
            "Merged from a GitHub security advisory's temporary private fork "
            "(`Merge commit from fork`)."
        ),
        "ev_breaking": "Declares a breaking change ({marker}).",
        "ev_removal": "The title opens with {words}: it removes something users had.",
        "ev_bot": (
            "A routine dependency or automation update: score {score} counts as 0 "
            "(unless it mentions security, a breaking change or a new major version)."
        ),
        "ev_hardening": "Tightens what the code accepts ({word}), with source changes.",
        "ev_default": "The title says a default changes ({words}), with source changes.",
        "ev_deprecates": "The title deprecates something ({word}): its users must migrate.",
        "ev_support_drop": "Drops support for an older version or platform ({words}).",
        "ev_not_user_facing": (
            "The message states no user-facing change: score {score} counts as 2 (medium)."
        ),
        "ev_tooling": "Only the project's own tooling, spelling or style ({word}) (−2).",
        "ev_security_tooling": "Mentions {words}, but changes neither the shipped code nor a "
        "manifest users install: no points.",
        "ev_security_dependency": "Updates a dependency users install and mentions {words}: read "
        "the advisory.",
        "ev_release": (
            "A release commit ({n} changelog lines added): read its notes before upgrading."
        ),
        "ev_release_bare": "A patch release commit with next to no new notes: no points.",
        "auto_low": "A dependency or automation update: low (no sign of a security fix, a major "
        "version or a breaking change).",
        "auto_radar": "A dependency or automation update, but the radar found a breaking change: "
        "not lowered.",
        "auto_security": "A dependency or automation update that mentions {word}: not lowered.",
        "auto_security_dev": "Mentions {word}, but changes only a lock file or the project's own "
        "tooling: the fix does not reach users.",
        "auto_major": "A new major version of {package} ({new}): read its changelog.",
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
        "rk_dependency": "Dependency manifests users install changed; versions may conflict "
        "with yours",
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
        "list_and": "和",
        "more_sep": " ",
        "n_files": "{n} 个文件",
        "n_files_one": "{n} 个文件",
        "ov_risk": "{risk}（{sha}）",
        "focus_path": "关注范围：改动了 {what}，重要程度上调一级",
        "focus_keyword": "关注范围：提到了关键词 {what}，重要程度上调一级",
    },
    "en": {
        "list_sep": ", ",
        "list_and": " and ",
        "more_sep": " ",
        "n_files": "{n} files",
        "n_files_one": "{n} file",
        "ov_risk": "{risk} ({sha})",
        "focus_path": "focus: matched {what}; importance raised one level",
        "focus_keyword": "focus: the keyword {what}; importance raised one level",
    },
}


# grounding: the neutral phrase that stands in for a mention the commit does not support
GROUNDING_PLACEHOLDERS: dict[str, dict[str, str]] = {
    "en": {
        "path": "a related file",
        "symbol": "related code",
        "env": "an environment variable",
        "flag": "an option",
        "issue": "a related issue",
        "version": "a new version",
        "code": "related code",
    },
    "zh": {
        "path": "相关文件",
        "symbol": "相关代码",
        "env": "相关环境变量",
        "flag": "相关选项",
        "issue": "相关 issue",
        "version": "新版本",
        "code": "相关代码",
    },
}
