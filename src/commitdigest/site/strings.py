"""Every word the archive site prints, in Chinese and English.

Importance and report-title labels come from :mod:`commitdigest.render.labels` (one
spelling per language across reports and site); the site's own words are the
``SITE_STRINGS`` table of :mod:`commitdigest.i18n`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from commitdigest.i18n import SITE_STRINGS


class SiteStrings:
    """The site's words in one language; ``count("n_commits", 3)`` handles plurals."""

    def __init__(self, lang: str) -> None:
        self.lang = lang if lang in SITE_STRINGS else "en"
        self.s: Mapping[str, str] = MappingProxyType(SITE_STRINGS[self.lang])

    def __getitem__(self, key: str) -> str:
        return self.s[key]

    def count(self, key: str, n: int) -> str:
        """``key`` filled with ``n``; ``key_one`` when ``n == 1`` and the language has it."""
        template = self.s.get(f"{key}_one", self.s[key]) if n == 1 else self.s[key]
        return template.format(n=f"{n:,}")
