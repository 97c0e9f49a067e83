"""Every zh/en string commitdigest prints, in one place: one table per kind of text.

A table maps a language (``"zh"``, ``"en"``) to its strings; :func:`pick` looks one up
with the fallback its caller wants. The modules that print (render, site, deliver, the
rule and LLM analysers) read their words from here and spell none themselves, so each
label has exactly one spelling per language. ``{…}`` fields are filled with
:meth:`str.format`. The tables live in three modules by who reads them — :mod:`.report`
(report labels, archive site, chat digest), :mod:`.analysis` (rule analyser, rule
overview, focus bump), :mod:`.llm` (LLM analyser) — and are all importable from here.

A base package: it imports nothing but the data models.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from .analysis import (
    ANALYSIS_STRINGS,
    AREA_NAMES,
    AREA_NOUNS,
    COUNTED_CHANGE_TYPES,
    GROUNDING_PLACEHOLDERS,
    RULE_TEXT,
)
from .llm import (
    LLM_LANGUAGE_REMINDER,
    LLM_LISTED_KINDS,
    LLM_NOTES,
    LLM_TYPE_NOTES,
    LLM_WRONG_LANGUAGE,
)
from .report import (
    CHANGE_TYPES,
    DIGEST_STRINGS,
    DIMENSIONS,
    IMPORTANCE_EMOJI,
    IMPORTANCE_NAMES,
    RADAR_CHANGES,
    RADAR_KINDS,
    REPORT_STRINGS,
    SITE_STRINGS,
    UPGRADE_STRINGS,
    WEEKLY_STRINGS,
)

__all__ = [
    "ANALYSIS_STRINGS",
    "AREA_NAMES",
    "AREA_NOUNS",
    "CHANGE_TYPES",
    "COUNTED_CHANGE_TYPES",
    "DIGEST_STRINGS",
    "DIMENSIONS",
    "GROUNDING_PLACEHOLDERS",
    "IMPORTANCE_EMOJI",
    "IMPORTANCE_NAMES",
    "LANGS",
    "LLM_LANGUAGE_REMINDER",
    "LLM_LISTED_KINDS",
    "LLM_NOTES",
    "LLM_TYPE_NOTES",
    "LLM_WRONG_LANGUAGE",
    "RADAR_CHANGES",
    "RADAR_KINDS",
    "REPORT_STRINGS",
    "RULE_TEXT",
    "SITE_STRINGS",
    "UPGRADE_STRINGS",
    "WEEKLY_STRINGS",
    "pick",
]

K = TypeVar("K")
V = TypeVar("V")

LANGS: tuple[str, ...] = ("zh", "en")
"""The report languages."""


def pick(tables: Mapping[str, Mapping[K, V]], lang: str, fallback: str = "en") -> Mapping[K, V]:
    """The table of ``lang`` in ``tables``, else that of ``fallback``."""
    return tables[lang] if lang in tables else tables[fallback]
