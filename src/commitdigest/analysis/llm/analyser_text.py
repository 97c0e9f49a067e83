"""The LLM analyser's notes and fallback reasons, in the report's language (zh/en).

Technical details taken from elsewhere (an HTTP status, a validation error) stay as they are.
"""

from __future__ import annotations

from collections.abc import Mapping

from commitdigest.analysis.llm.budget import ListReason
from commitdigest.analysis.llm.engine import CallFailed
from commitdigest.i18n import LLM_LISTED_KINDS as _KINDS
from commitdigest.i18n import LLM_NOTES as _TEXT


def lang_of(lang: str) -> str:
    """The report languages: ``"en"`` or (anything else) ``"zh"``."""
    return "en" if lang == "en" else "zh"


def tr(lang: str, key: str, **values: object) -> str:
    """The note ``key`` in ``lang``, filled with ``values``."""
    return _TEXT[lang_of(lang)][key].format(**values)


def say(lang: str, failed: CallFailed) -> str:
    """Why ``failed`` failed, in ``lang``."""
    return tr(lang, failed.kind, **failed.values)


def count_kinds(lang: str, counts: Mapping[ListReason, int]) -> str:
    """``"3 lockfiles, 1 binary file"`` / ``"锁文件 3 个，二进制文件 1 个"``."""
    lang = lang_of(lang)
    parts = []
    for reason, n in counts.items():
        one, many = _KINDS[lang][reason]
        parts.append(f"{n} {one if n == 1 else many}" if lang == "en" else f"{one} {n} 个")
    return (", " if lang == "en" else "，").join(parts)
