"""--analyser llm, English: the analyses come from a script served by the fake
OpenAI-compatible server on 127.0.0.1 (tests/goldencase.py): the timeout commit gets the
script's high-importance analysis, the header fix's analysis names a file the commit does
not touch (removed, and the section says so), and the docs commit gets an unusable reply
twice, so the rules analyse it, visibly. The overview is the script's too."""

import goldenrepos as day

ARGS = ["--date", day.LLM_DAY, "--lang", "en", "--analyser", "llm"]
REPOS = {"httpkit": day.build_llm_day}
LLM = {
    day.LLM_TIMEOUT: {
        "change_type": "feature",
        "change_type_reason": "",
        "importance": "high",
        "summary": "SCRIPTED: fetch() now takes a timeout that defaults to 10 seconds, so a "
        "stalled server makes it fail instead of hanging the caller forever.",
        "impact": ["Every caller of fetch(): a slow server now raises after 10 s"],
        "insights": [
            {
                "dimension": "compatibility",
                "text": "SCRIPTED: code that relied on waiting "
                "indefinitely now gets an error after 10 seconds.",
            }
        ],
        "risks": [
            {
                "risk": "SCRIPTED: large downloads over slow links may now time out",
                "effect": "those calls fail where they used to succeed",
                "mitigation": "pass a larger timeout to fetch() for them",
            }
        ],
        "recommendations": ["SCRIPTED: review the calls that download large bodies."],
    },
    day.LLM_HEADERS: {
        "change_type": "bugfix",
        "change_type_reason": "",
        "importance": "medium",
        "summary": "SCRIPTED: a header line without a colon no longer raises; it is read as "
        "a name with an empty value. The same fix was applied in `httpkit/cookies.py`.",
        "impact": ["Header parsing"],
        "insights": [],
        "risks": [],
        "recommendations": [],
    },
    day.LLM_DOCS: None,  # an unusable reply, twice: the rules analyse it
}
LLM_OVERVIEW = {
    "themes": ["SCRIPTED: timeouts for the client"],
    "key_changes": ["SCRIPTED: fetch() gives up after 10 seconds by default"],
    "risks": ["SCRIPTED: slow downloads may need a larger timeout"],
}
