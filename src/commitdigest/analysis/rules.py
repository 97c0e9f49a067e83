"""The rule-based analyser: deterministic, offline, and honest about its evidence.

Change type: :mod:`commitdigest.analysis.tags` (title), else the files touched.

Evidence: :mod:`commitdigest.analysis.rules_facts`, gathered once per commit.

Importance: a small additive score, each point backed by a note (``Analysis.notes``); the
table is in :mod:`commitdigest.analysis.rules_importance`.

Text (summary, impact, insights, risks, recommendations):
:mod:`commitdigest.analysis.rules_writeup`, in the sentences of
:mod:`commitdigest.analysis.rules_text`.
"""

from __future__ import annotations

from collections.abc import Sequence

from commitdigest.analysis import rules_text as rt
from commitdigest.analysis.classify import AREA_ORDER, Area
from commitdigest.analysis.rules_facts import CommitFacts, gather_facts
from commitdigest.analysis.rules_importance import HIGH_SCORE as HIGH_SCORE
from commitdigest.analysis.rules_importance import MEDIUM_SCORE as MEDIUM_SCORE
from commitdigest.analysis.rules_importance import score_importance
from commitdigest.analysis.rules_writeup import MAX_IMPACT as MAX_IMPACT
from commitdigest.analysis.rules_writeup import advice, impact_lines, summary_text
from commitdigest.analysis.tags import (
    CONVENTIONAL_TYPES,
    PRECEDENCE,
    SECURITY_RE,
    TAG_TYPES,
    keyword_match,
    tag_change_types,
)
from commitdigest.i18n import AREA_NAMES
from commitdigest.models import (
    Analysis,
    ApiChange,
    ChangeType,
    Commit,
    Importance,
    Insight,
    Risk,
)

RULES_VERSION = "7"

_FILES_ONLY_TYPES: dict[frozenset[Area], ChangeType] = {
    frozenset({Area.DOCS}): ChangeType.DOCUMENTATION,
    frozenset({Area.TESTS}): ChangeType.TEST,
    frozenset({Area.CI_BUILD}): ChangeType.CI_BUILD,
    frozenset({Area.DEPENDENCY}): ChangeType.DEPENDENCY,
    frozenset({Area.DEPENDENCY, Area.CI_BUILD}): ChangeType.DEPENDENCY,
}


# ---- change type --------------------------------------------------------------------------


def _change_type(facts: CommitFacts, lang: str) -> tuple[ChangeType, str]:
    info = facts.info
    if info.is_revert:
        return ChangeType.REVERT, rt.tr(lang, "type_revert")
    if m := SECURITY_RE.search(info.title):
        return ChangeType.SECURITY, rt.tr(lang, "type_security", word=rt.code_span(m.group(0)))
    tagged = tag_change_types(info)
    if tagged:
        best = min(tagged, key=PRECEDENCE.index)
        pairs = zip(info.tags, info.tag_keys, strict=True)
        tags = [f"[{t}]" for t, k in pairs if TAG_TYPES.get(k) == best]
        if tags:
            return best, rt.tr(lang, "type_tag", tags=rt.code_list(tags, lang))
        conv = info.conventional_type or ""
        assert conv in CONVENTIONAL_TYPES
        scope = f"({info.conventional_scope})" if info.conventional_scope is not None else ""
        prefix = f"{conv}{scope}{'!' if info.breaking else ''}:"
        return best, rt.tr(lang, "type_conventional", prefix=rt.code_span(prefix))
    if found := keyword_match(info.clean_title):
        return found[0], rt.tr(lang, "type_keyword", word=rt.code_span(found[1]))
    areas = frozenset(a for a in facts.areas if a is not Area.GENERATED)
    if areas in _FILES_ONLY_TYPES:
        names = [AREA_NAMES[lang][a] for a in AREA_ORDER if a in areas]
        return _FILES_ONLY_TYPES[areas], rt.tr(lang, "type_files", area=rt.join_list(names, lang))
    return ChangeType.OTHER, rt.tr(lang, "type_unknown")


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
            summary=summary_text(facts, commit, lang),
            impact=impact_lines(facts, lang),
            insights=insights,
            risks=risks,
            recommendations=recs,
            analyser=self.id,
            analyser_version=self.version,
            notes=[type_note, *notes],
        )
