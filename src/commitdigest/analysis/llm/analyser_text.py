"""The LLM analyser's notes and fallback reasons, in the report's language (zh/en).

Technical details taken from elsewhere (an HTTP status, a validation error) stay as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from commitdigest.analysis.llm.budget import ListReason

_TEXT: Final[Mapping[str, Mapping[str, str]]] = {
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

_KINDS: Final[Mapping[str, Mapping[ListReason, tuple[str, str]]]] = {
    "en": {
        ListReason.LOCK: ("lockfile", "lockfiles"),
        ListReason.VENDORED: ("vendored file", "vendored files"),
        ListReason.GENERATED: ("generated file", "generated files"),
        ListReason.MINIFIED: ("minified file", "minified files"),
        ListReason.BINARY: ("binary file", "binary files"),
        ListReason.DELETED: ("deleted file", "deleted files"),
        ListReason.DELETION_ONLY: ("deletion-only file", "deletion-only files"),
        ListReason.NO_DIFF: ("file without diff text", "files without diff text"),
        ListReason.OVER_BUDGET: ("file over budget", "files over budget"),
    },
    "zh": {
        ListReason.LOCK: ("锁文件", ""),
        ListReason.VENDORED: ("第三方代码文件", ""),
        ListReason.GENERATED: ("生成文件", ""),
        ListReason.MINIFIED: ("压缩文件", ""),
        ListReason.BINARY: ("二进制文件", ""),
        ListReason.DELETED: ("已删除文件", ""),
        ListReason.DELETION_ONLY: ("仅删除行的文件", ""),
        ListReason.NO_DIFF: ("无 diff 文本的文件", ""),
        ListReason.OVER_BUDGET: ("超出预算的文件", ""),
    },
}


def lang_of(lang: str) -> str:
    """The report languages: ``"en"`` or (anything else) ``"zh"``."""
    return "en" if lang == "en" else "zh"


def tr(lang: str, key: str, **values: object) -> str:
    """The note ``key`` in ``lang``, filled with ``values``."""
    return _TEXT[lang_of(lang)][key].format(**values)


def count_kinds(lang: str, counts: Mapping[ListReason, int]) -> str:
    """``"3 lockfiles, 1 binary file"`` / ``"锁文件 3 个，二进制文件 1 个"``."""
    lang = lang_of(lang)
    parts = []
    for reason, n in counts.items():
        one, many = _KINDS[lang][reason]
        parts.append(f"{n} {one if n == 1 else many}" if lang == "en" else f"{one} {n} 个")
    return (", " if lang == "en" else "，").join(parts)
