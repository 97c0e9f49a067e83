"""The LLM analyser's notes and prompt words (zh/en)."""

from __future__ import annotations

# ---- the LLM analyser (analysis/llm/) ------------------------------------------------------

# analyser: the LLM analyser's notes and fallback reasons
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
        "ungrounded": "everything the LLM's analysis said named things the commit does not "
        "contain ({n} unverified mentions)",
        "language": "the model answered in another language twice",
    },
    "zh": {
        "unavailable": "LLM 不可用：{reason}",
        "ungrounded": "LLM 分析提到的内容均无法在提交中核实（{n} 处）",
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
        "language": "模型两次未用报告语言作答",
    },
}


# analyser: files shown by name only, keyed by plan.ListReason values (singular, plural)
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


# language: the re-ask after an answer in the wrong language (sent to the model)
LLM_WRONG_LANGUAGE: dict[str, str] = {
    "zh": "the free text is not in Chinese. 所有自由文本字段必须用简体中文书写"
    "（代码、路径和名称保持原样）。",
    "en": "the free text is not in English. Write every free-text value in English "
    "(keep code, paths and names as they are).",
}


# schema: the note on a change type the model changed
LLM_TYPE_NOTES: dict[str, dict[str, str]] = {
    "zh": {
        "kept": "模型建议的类型 {new} 未说明理由，已忽略；保留标题标签给出的类型 {old}",
        "changed": "模型将类型由标题标签给出的 {old} 改为 {new}：{reason}",
        "changed_unverified": "模型将类型由标题标签给出的 {old} 改为 {new}"
        "（其理由无法在提交中核实，已移除）",
    },
    "en": {
        "kept": "the model's type {new} came without a reason and was ignored; "
        "kept {old} from the title's tags",
        "changed": "the model changed the type from {old} (title tags) to {new}: {reason}",
        "changed_unverified": "the model changed the type from {old} (title tags) to {new} "
        "(its reason could not be verified in the commit and was removed)",
    },
}
