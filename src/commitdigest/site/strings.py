"""Every word the archive site prints, in Chinese and English.

Importance and report-title labels come from :mod:`commitdigest.render.labels` (one
spelling per language across reports and site); the site's own words live here.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

_STRINGS: dict[str, dict[str, str]] = {
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


class SiteStrings:
    """The site's words in one language; ``count("n_commits", 3)`` handles plurals."""

    def __init__(self, lang: str) -> None:
        self.lang = lang if lang in _STRINGS else "en"
        self.s: Mapping[str, str] = MappingProxyType(_STRINGS[self.lang])

    def __getitem__(self, key: str) -> str:
        return self.s[key]

    def count(self, key: str, n: int) -> str:
        """``key`` filled with ``n``; ``key_one`` when ``n == 1`` and the language has it."""
        template = self.s.get(f"{key}_one", self.s[key]) if n == 1 else self.s[key]
        return template.format(n=f"{n:,}")
