"""--analyser llm，中文报告: the Chinese twin of llm_en — the same history, the script's
analyses in Chinese (the timeout commit high, the header fix with a file it does not touch,
which is removed and noted), the docs commit falls back to the rules, visibly."""

import goldenrepos as day

ARGS = ["--date", day.LLM_DAY, "--lang", "zh", "--analyser", "llm"]
REPOS = {"httpkit": day.build_llm_day}
LLM = {
    day.LLM_TIMEOUT: {
        "change_type": "feature",
        "change_type_reason": "",
        "importance": "high",
        "summary": "【脚本】fetch() 新增超时参数，默认 10 秒：服务器无响应时调用会报错，"
        "而不再无限期挂起。",
        "impact": ["所有调用 fetch() 的代码：慢速服务器会在 10 秒后报错"],
        "insights": [
            {
                "dimension": "compatibility",
                "text": "【脚本】依赖无限等待的代码现在会在 10 秒后收到错误。",
            }
        ],
        "risks": [
            {
                "risk": "【脚本】慢速链路上的大文件下载可能超时",
                "effect": "原本成功的调用会失败",
                "mitigation": "为这些调用传入更大的超时值",
            }
        ],
        "recommendations": ["【脚本】检查下载大响应体的调用。"],
    },
    day.LLM_HEADERS: {
        "change_type": "bugfix",
        "change_type_reason": "",
        "importance": "medium",
        "summary": "【脚本】没有冒号的头部行不再抛出异常，而是读作值为空的头部。"
        "同样的修复也应用于 `httpkit/cookies.py`。",
        "impact": ["头部解析"],
        "insights": [],
        "risks": [],
        "recommendations": [],
    },
    day.LLM_DOCS: None,  # 两次无法使用的回复：由规则分析
}
LLM_OVERVIEW = {
    "themes": ["【脚本】客户端超时"],
    "key_changes": ["【脚本】fetch() 默认 10 秒后放弃"],
    "risks": ["【脚本】慢速下载可能需要更大的超时值"],
}
