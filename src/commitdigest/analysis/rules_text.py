"""Sentence templates (zh/en) for the rule-based analyser.

An analysis holds text, not markup: text that comes from a commit (title, body) is embedded
as it is, one line, control characters removed (:func:`strip_controls`); names of paths and
identifiers as inline code spans (:func:`code_span`), the one piece of Markdown an analysis
may hold. Escaping for a format happens in its renderer (``render/``, ``deliver/``), once.
"""

from __future__ import annotations

import re
import unicodedata

from commitdigest.analysis.paths import Area

LANGS = ("zh", "en")

_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f]")


def strip_controls(text: str) -> str:
    """Control characters and line/paragraph separators -> spaces; whitespace collapsed."""
    out = []
    for ch in _BIDI.sub("", text):
        cat = unicodedata.category(ch)
        out.append(" " if cat in ("Cc", "Zl", "Zp") else ch)
    return " ".join("".join(out).split())


def code_span(text: str) -> str:
    """``text`` as an inline code span; backticks are dropped so it cannot break out."""
    clean = strip_controls(text).replace("`", "").strip()
    return f"`{clean}`" if clean else ""


def fmt_int(n: int) -> str:
    return f"{n:,}"


def fmt_lines(additions: int | None, deletions: int | None) -> str:
    """``+120/−30`` (a real minus sign), or ``""`` when unknown."""
    if additions is None or deletions is None:
        return ""
    return f"+{fmt_int(additions)}/−{fmt_int(deletions)}"


def n_files(n: int, lang: str) -> str:
    """``3 个文件`` / ``1 file`` / ``3 files``."""
    if lang == "zh":
        return f"{fmt_int(n)} 个文件"
    return f"{fmt_int(n)} file" if n == 1 else f"{fmt_int(n)} files"


def join_list(items: list[str], lang: str) -> str:
    return ("、" if lang == "zh" else ", ").join(items)


AREA_NAMES: dict[str, dict[Area, str]] = {
    "zh": {
        Area.SOURCE: "源码",
        Area.TESTS: "测试",
        Area.DOCS: "文档",
        Area.CI_BUILD: "CI 与构建配置",
        Area.EXAMPLES: "示例",
        Area.BENCHMARKS: "基准测试",
        Area.DEPENDENCY: "依赖清单",
        Area.GENERATED: "生成或第三方代码",
    },
    "en": {
        Area.SOURCE: "source",
        Area.TESTS: "tests",
        Area.DOCS: "docs",
        Area.CI_BUILD: "CI/build config",
        Area.EXAMPLES: "examples",
        Area.BENCHMARKS: "benchmarks",
        Area.DEPENDENCY: "dependency manifests",
        Area.GENERATED: "generated/vendored code",
    },
}

TEXT: dict[str, dict[str, str]] = {
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


def tr(lang: str, key: str, **kwargs: str) -> str:
    """The ``key`` template in ``lang`` (``zh`` unless ``en``), formatted with ``kwargs``."""
    table = TEXT["en" if lang == "en" else "zh"]
    return table[key].format(**kwargs)


def code_list(items: list[str], lang: str, limit: int = 4) -> str:
    """Up to ``limit`` items as code spans, then "and N more"."""
    spans = [s for s in (code_span(i) for i in items[:limit]) if s]
    text = join_list(spans, lang)
    if len(items) > limit:
        sep = "" if lang == "zh" else " "
        text += sep + tr(lang, "more", n=str(len(items) - limit))
    return text


# ---- the body's first paragraph ------------------------------------------------------------

_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.DOTALL)
_TRAILER_KEYS = frozenset(
    {"fixes", "closes", "resolves", "refs", "cc", "link", "bug", "issue", "fix", "see-also"}
)
_TRAILER_RE = re.compile(r"^([A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*):\s*\S")
_SKIP_LINE_RES = (
    re.compile(r"^#"),  # headings ("## Purpose")
    re.compile(r"^</?[A-Za-z][^>]*>\s*$"),  # HTML tag lines (<details>, </summary>)
    re.compile(r"^[-*+]\s+\[[ xX]\]"),  # checklists
    re.compile(r"^(?:-{3,}|\*{3,}|_{3,}|={3,})$"),  # rules
    re.compile(r"^\|"),  # tables
    re.compile(r"^\*\*[^*]+\*\*:?$"),  # bold-only lines (template labels)
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s|(?<=[。！？])")


def _is_trailer(line: str) -> bool:
    m = _TRAILER_RE.match(line)
    if m is None:
        return False
    return "-" in m.group(1) or m.group(1).lower() in _TRAILER_KEYS


def _is_skipped(line: str) -> bool:
    if _is_trailer(line) or any(r.match(line) for r in _SKIP_LINE_RES):
        return True
    letters = [c for c in line if c.isalpha()]
    # an all-capitals line of some length is template shouting ("PLEASE FILL IN ...")
    return len(letters) >= 20 and not any(c.islower() for c in letters)


def first_paragraph(body: str) -> str:
    """The first real paragraph of a commit body, one line, not escaped.

    Skips trailers (``Signed-off-by:``), headings (``## Purpose``), HTML comments and tags,
    checklists, tables, rules, code blocks and all-capitals template text.
    """
    paragraphs: list[list[str]] = [[]]
    in_fence = False
    for raw in _HTML_COMMENT.sub("\n", body).splitlines():
        line = raw.strip()
        if line.startswith(("```", "~~~")):
            in_fence = not in_fence
            paragraphs.append([])
            continue
        if in_fence or not line or _is_skipped(line):
            paragraphs.append([])
            continue
        paragraphs[-1].append(line)
    for lines in paragraphs:
        text = strip_controls(" ".join(lines))
        if sum(c.isalnum() for c in text) >= 3:
            return text
    return ""


def cut_text(text: str, limit: int = 300) -> str:
    """``text`` cut to about ``limit`` characters, at a sentence end where one is near."""
    if len(text) <= limit:
        return text
    head = text[: limit + 1]
    ends = [m.start() for m in _SENTENCE_END.finditer(head) if m.start() >= limit * 0.4]
    if ends:
        return head[: ends[-1]].rstrip()
    space = head.rfind(" ", int(limit * 0.6))
    return (head[:space] if space > 0 else text[:limit]).rstrip(" ,;:，；：") + "…"
