"""Is a model's free text in the report's language?

A Chinese analysis names code, paths and products in English, so the check counts only
prose: inline code spans, URLs, paths, identifiers (``snake_case``, ``camelCase``,
``Dotted.names``), numbers and version strings are left out first. What remains is counted
as CJK characters against Latin letters. A zh report needs at least :data:`MIN_CJK_SHARE`
of CJK in it, an en report at most :data:`MAX_CJK_SHARE`. An answer with fewer than
:data:`MIN_LETTERS` countable characters in all is not judged: a few words are mostly
names and terms, too little to tell, and a wrong guess would cost a call.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from commitdigest.i18n import LLM_WRONG_LANGUAGE

__all__ = ["WrongLanguage", "check_language", "cjk_share"]

MIN_CJK_SHARE: Final = 0.2
MAX_CJK_SHARE: Final = 0.3
MIN_LETTERS: Final = 120

_NOT_PROSE = re.compile(
    r"`[^`]*`"  # inline code
    r"|https?://\S+"  # URLs
    r"|\S*[/\\]\S*"  # paths
    r"|\b\w*[_.]\w+(?:[_.]\w+)*\b"  # snake_case, dotted.names, file.ext
    r"|\b[a-z]+[A-Z]\w*\b"  # camelCase
    r"|\b[A-Z][a-z]+[A-Z]\w*\b"  # PascalCase with a second capital
    r"|\b[A-Z0-9]{2,}\b"  # CUDA, API, NPU
    r"|\d+"
)
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")


class WrongLanguage(ValueError):
    """The free text is not in the report's language; ``str()`` asks for it again."""

    kind = "language"


def cjk_share(texts: Iterable[str]) -> tuple[float, int]:
    """The share of CJK characters among the prose's letters, and how many were counted."""
    prose = _NOT_PROSE.sub(" ", "\n".join(texts))
    cjk = len(_CJK.findall(prose))
    latin = len(_LATIN.findall(prose))
    total = cjk + latin
    return (cjk / total if total else 0.0), total


def check_language(texts: Iterable[str], lang: str) -> None:
    """Raise :class:`WrongLanguage` when ``texts`` are plainly not in ``lang`` (zh/en)."""
    share, counted = cjk_share(texts)
    if counted < MIN_LETTERS:
        return
    zh = lang != "en"
    if (zh and share < MIN_CJK_SHARE) or (not zh and share > MAX_CJK_SHARE):
        raise WrongLanguage(LLM_WRONG_LANGUAGE["zh" if zh else "en"])
