"""The rule-based analyser: deterministic, offline, and honest about its evidence.

Change type: :mod:`commitdigest.analysis.rules_type`, from the whole commit (the title's
tags, prefix and opening verb, the files by their role, the message's statements).

Evidence: :mod:`commitdigest.analysis.rules_facts`, gathered once per commit.

Importance: a small additive score, each point backed by a note (``Analysis.notes``); the
table is in :mod:`commitdigest.analysis.rules_importance`.

Text (summary, impact, insights, risks, recommendations):
:mod:`commitdigest.analysis.rules_writeup`, in the sentences of
:mod:`commitdigest.analysis.rules_text`.
"""

from __future__ import annotations

from collections.abc import Sequence

from commitdigest.analysis.rules_facts import gather_facts
from commitdigest.analysis.rules_importance import HIGH_SCORE as HIGH_SCORE
from commitdigest.analysis.rules_importance import MEDIUM_SCORE as MEDIUM_SCORE
from commitdigest.analysis.rules_importance import score_importance
from commitdigest.analysis.rules_type import change_type as _change_type
from commitdigest.analysis.rules_writeup import MAX_IMPACT as MAX_IMPACT
from commitdigest.analysis.rules_writeup import advice, impact_lines, summary_text
from commitdigest.models import (
    Analysis,
    ApiChange,
    Commit,
    Importance,
    Insight,
    Risk,
)

RULES_VERSION = "10"


class RuleAnalyser:
    """Title tags, file areas and patch evidence -> :class:`Analysis`. Pure; no I/O."""

    id = "rules"
    version = RULES_VERSION

    def analyse(
        self, commit: Commit, *, lang: str = "zh", radar: Sequence[ApiChange] | None = None
    ) -> Analysis:
        """The analysis of ``commit``; ``radar``: the radar's items for it, when it ran (they
        replace the rules' own guess of removed public API, and a breaking one makes the
        commit high)."""
        lang = "en" if lang == "en" else "zh"
        facts = gather_facts(commit, radar)
        change_type, type_note = _change_type(facts, lang)
        importance, notes = score_importance(facts, change_type, lang)
        insights: list[Insight] = []
        risks: list[Risk] = []
        recs: list[str] = []
        if importance is not Importance.LOW:
            insights, risks, recs = advice(facts, change_type, lang)
        return Analysis(
            change_type=change_type,
            importance=importance,
            summary=summary_text(facts, commit, change_type, lang),
            impact=impact_lines(facts, lang),
            insights=insights,
            risks=risks,
            recommendations=recs,
            analyser=self.id,
            analyser_version=self.version,
            notes=[type_note, *notes],
        )
