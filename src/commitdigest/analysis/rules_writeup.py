"""The words of a rule-based analysis: its summary, the components it touches (impact), and
the insights, risks and recommendations that follow from the evidence, nothing more.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from commitdigest.analysis import rules_text as rt
from commitdigest.analysis.classify import AREA_ORDER, Area
from commitdigest.analysis.rules_facts import CommitFacts, FileGroup
from commitdigest.analysis.rules_importance import size_points
from commitdigest.i18n import AREA_NOUNS
from commitdigest.models import ChangeType, Commit, Insight, Risk
from commitdigest.text import strip_controls

MAX_IMPACT = 8
"""A message in Chinese is quoted in an English summary, not run into it."""


def _lines_text(group: FileGroup) -> str:
    return rt.fmt_lines(group.additions, group.deletions) if group.known else ""


def summary_text(facts: CommitFacts, commit: Commit, change_type: ChangeType, lang: str) -> str:
    """What the commit is, what its message says, and what it touches, as sentences.

    English opens with the title as a sentence (a merge's: its pull request's title).
    Chinese says the kind of change in its own words (the title stands above the summary in
    every output; a merge's pull request title is quoted) and quotes the message in 「…」:
    the commit's words are never glued into a Chinese sentence."""
    sentences: list[str] = []
    title = strip_controls(facts.info.clean_title)
    if lang == "en" and title:
        sentences.append(rt.as_sentence(title))
    else:
        key = "sum_release" if facts.release else f"sum_{change_type.value}"
        sentences.append(rt.tr(lang, key))
        if facts.merged and title:  # the heading shows "Merge pull request #…": say which
            sentences.append(rt.tr(lang, "sum_merged", title=title))
    if facts.excerpt and not _says_the_title(facts.excerpt, title):
        excerpt = strip_controls(rt.cut_text(facts.excerpt))
        excerpt = excerpt.rstrip(" :;,，：；")
        if lang != "en" and excerpt.endswith((".", "。")) and not excerpt.endswith(".."):
            excerpt = excerpt[:-1]  # 「…」 is followed by 。
        elif lang == "en" and not excerpt.endswith((".", "!", "?", "…")):
            excerpt += "."  # the next sentence does not run on
        sentences.append(rt.tr(lang, "sum_quote", text=excerpt))
    if facts.areas:
        sentences.append(rt.tr(lang, "shape", parts=_shape_parts(facts, lang)))
    elif not commit.files:
        sentences.append(rt.tr(lang, "no_files"))
    return rt.join_sentences(sentences, lang)


def _says_the_title(excerpt: str, title: str) -> bool:
    """Whether the message's first paragraph only repeats the title (a typo aside: "…for
    QuantType enum" / "…for QuanType enum"), which the summary then does not quote."""
    a, b = (re.sub(r"\W+", " ", t).strip().lower() for t in (excerpt, title))
    if not a or not b or abs(len(a) - len(b)) > max(len(a), len(b)) // 10:
        return False
    return a == b or SequenceMatcher(None, a, b).ratio() >= 0.9


def _shape_parts(facts: CommitFacts, lang: str) -> str:
    """``1 source file (+3/−1) and 1 test file`` / ``源码 1 个文件（+3/−1）和测试 1 个文件``."""
    parts = []
    for area in AREA_ORDER:
        if (g := facts.areas.get(area)) is None:
            continue
        lines = (
            rt.tr(lang, "shape_lines", lines=_lines_text(g))
            if g.known
            else rt.tr(lang, "shape_unknown")
        )
        noun = AREA_NOUNS[lang][area][g.files != 1]
        parts.append(rt.tr(lang, "shape_part", noun=noun, n=rt.fmt_int(g.files), lines=lines))
    return rt.join_list_and(parts, lang)


def impact_lines(facts: CommitFacts, lang: str) -> list[str]:
    """One line per component, largest change first; at most ``MAX_IMPACT`` and a count."""
    ranked = sorted(facts.components.items(), key=lambda kv: (-kv[1].lines, -kv[1].files, kv[0]))
    out = []
    for comp, g in ranked[:MAX_IMPACT]:
        lines = rt.tr(lang, "impact_lines", lines=_lines_text(g)) if g.known else ""
        files = rt.n_files(g.files, lang)
        out.append(rt.tr(lang, "impact", comp=rt.code_span(comp), lines=lines, files=files))
    if len(ranked) > MAX_IMPACT:
        out.append(rt.tr(lang, "impact_more", n=str(len(ranked) - MAX_IMPACT)))
    return out


def advice(
    facts: CommitFacts, change_type: ChangeType, lang: str
) -> tuple[list[Insight], list[Risk], list[str]]:
    """Insights, risks and recommendations that follow from the evidence, nothing more."""
    insights: list[Insight] = []
    risks: list[Risk] = []
    recs: list[str] = []

    def risk(key: str, **kw: str) -> None:
        risks.append(
            Risk(
                risk=rt.tr(lang, key, **kw),
                effect=rt.tr(lang, key + "_effect", **kw),
                mitigation=rt.tr(lang, key + "_fix", **kw),
            )
        )

    src = facts.areas.get(Area.SOURCE)
    comps = list(src.components) if src else []
    comp_list = rt.code_list(comps, lang)
    if facts.security_words:
        words = rt.code_list(facts.security_words, lang)
        insights.append(Insight(dimension="security", text=rt.tr(lang, "in_security", words=words)))
        risk("rk_security")
        recs.append(rt.tr(lang, "rec_security"))
    if facts.breaking_marker:
        risk("rk_breaking")
        recs.append(rt.tr(lang, "rec_breaking"))
    if facts.removed_api:
        names = rt.code_list(facts.removed_api, lang)
        text = rt.tr(lang, "in_removed_api", names=names)
        insights.append(Insight(dimension="compatibility", text=text))
        risk("rk_removed_api", names=names)
        recs.append(rt.tr(lang, "rec_search_api", names=names))
    if facts.moved_modules and not facts.radar_ran:  # the radar knows what is public
        paths = rt.code_list(facts.moved_modules, lang)
        text = rt.tr(lang, "in_moved_files", paths=paths)
        insights.append(Insight(dimension="compatibility", text=text))
        risk("rk_moved_files", paths=paths)
        recs.append(rt.tr(lang, "rec_imports", paths=paths))
    if facts.installed:  # a lock file or a dev manifest binds no user
        paths = rt.code_list(facts.installed, lang)
        risk("rk_dependency", paths=paths)
        recs.append(rt.tr(lang, "rec_dependency", paths=paths))
    if change_type is ChangeType.REVERT:
        insights.append(Insight(dimension="compatibility", text=rt.tr(lang, "in_revert")))
        risk("rk_revert")
        recs.append(rt.tr(lang, "rec_revert"))
    if len(comps) >= 4 and src is not None and size_points(src) >= 1:  # not 4 one-line edits
        text = rt.tr(lang, "in_breadth", n=str(len(comps)), comps=comp_list)
        insights.append(Insight(dimension="architecture", text=text))
        recs.append(rt.tr(lang, "rec_broad", comps=comp_list))
    if src is not None and src.known and src.deletions > src.additions and src.lines >= 100:
        text = rt.tr(lang, "in_net_deletion", lines=_lines_text(src))
        insights.append(Insight(dimension="maintainability", text=text))
    if change_type is ChangeType.PERFORMANCE:
        insights.append(Insight(dimension="performance", text=rt.tr(lang, "in_perf")))
        recs.append(rt.tr(lang, "rec_perf"))
    if change_type is ChangeType.REMOVAL:
        recs.append(rt.tr(lang, "rec_removal"))
    if change_type is ChangeType.FEATURE:
        recs.append(rt.tr(lang, "rec_feature"))
    if src is not None and Area.TESTS not in facts.areas and size_points(src) >= 1:
        size = (
            rt.tr(lang, "size_lines", lines=rt.fmt_int(src.lines))
            if src.known
            else rt.tr(lang, "size_files", files=rt.n_files(src.files, lang))
        )
        risk("rk_untested", size=size)  # a fact the reader weighs (advice to add tests
        # upstream is the maintainers' business, not the reader's: no recommendation)
    return insights, risks, recs
