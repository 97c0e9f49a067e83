"""How important a commit is, by a small additive score; each point backed by a note::

core source size  lines ≥30 / ≥300 / ≥1000 -> 1 / 2 / 3; when no line count is
                  known: files <10 / ≥10 / ≥30 -> 1 / 2 / 3
breadth           ≥4 source components                      +1
dependency        a runtime dependency manifest or lockfile +1  (dev/test/docs files: none)
radar             the breaking-change radar's items, when it
                  ran: from the code, or announced          +3  (replaces the two rows below)
removed API       public module-level def/class removed     +2  (no radar; private modules: none)
moved modules     Python source files deleted or renamed    +1  (private modules: none)
revert                                                      +1
removal type      removal / deprecation                     +1
feature type      new feature or model, with source changes +1
release           "Release 1.2" / "Version 1.2" with notes  +1
bug-fix type      a fix that changes ≥5 lines of source     +1
security words    CVE, vulnerability, injection, RCE ...    +3
breaking marker   ``!:`` or ``BREAKING CHANGE``             +3  (no radar)

a bot's commit    dependabot, renovate, ``*[bot]`` ...     score counts as 0 unless it
                  names a security fix or a breaking change

score ≥ 3 -> high, ≥ 1 -> medium, else low (the radar's breaking items raise to high later)
"""

from __future__ import annotations

import re

from commitdigest.analysis import rules_text as rt
from commitdigest.analysis.classify import AREA_ORDER, Area
from commitdigest.analysis.rules_facts import CommitFacts, FileGroup
from commitdigest.i18n import AREA_NAMES
from commitdigest.models import ChangeType, Importance, RadarKind

_DEV_DEPS = re.compile(r"(?:^|[/_.-])(?:dev|test|tests|docs|lint|ci|bench)(?:[/_.-]|$)", re.I)
"""Dependency files of the project's own tooling (requirements-dev.txt, docs/requirements.txt):
a bump there changes nothing for the project's users."""

_RELEASE = re.compile(r"^(?:release|version|bump version|prepare)\b[^0-9]{0,20}v?\d+\.\d+", re.I)
_CHANGELOG = re.compile(r"(?:^|/)(?:changelog|changes|news|history|release[-_ ]?notes)[^/]*$", re.I)

HIGH_SCORE = 3
MEDIUM_SCORE = 1


def size_points(group: FileGroup) -> int:
    """0 to 3 points for the size of a change (the "core source size" row above)."""
    if group.known:
        lines = group.lines
        return 3 if lines >= 1000 else 2 if lines >= 300 else 1 if lines >= 30 else 0
    # line counts unknown: judge by files; a change of unknown size counts as ordinary (1)
    return 3 if group.files >= 30 else 2 if group.files >= 10 else 1


def score_importance(
    facts: CommitFacts, change_type: ChangeType, lang: str
) -> tuple[Importance, list[str]]:
    """The level, and the notes that back it: what was seen, then ``score N``."""
    notes: list[str] = []
    score = 0
    src = facts.areas.get(Area.SOURCE)
    if src is not None:
        comps = str(len(src.components))
        if src.known:
            lines = rt.fmt_int(src.lines)
            notes.append(
                rt.tr(
                    lang,
                    "ev_source_size",
                    lines=lines,
                    files=rt.n_files(src.files, lang),
                    comps=comps,
                )
            )
        else:
            notes.append(
                rt.tr(lang, "ev_source_files", files=rt.n_files(src.files, lang), comps=comps)
            )
        score += size_points(src) + (1 if len(src.components) >= 4 else 0)
    elif facts.areas:
        names = [AREA_NAMES[lang][a] for a in AREA_ORDER if a in facts.areas]
        notes.append(rt.tr(lang, "ev_non_source", areas=rt.join_list(names, lang)))
    else:
        notes.append(rt.tr(lang, "ev_no_files"))

    def evidence(points: int, key: str, **kwargs: str) -> None:
        nonlocal score
        score += points
        notes.append(rt.tr(lang, key, **kwargs))

    runtime_deps = [p for p in facts.dependency_paths if not _DEV_DEPS.search(p)]
    if runtime_deps:
        evidence(1, "ev_dependency", paths=rt.code_list(runtime_deps, lang))
    coded = [i.name for i in facts.radar if i.kind is not RadarKind.ANNOUNCED]
    if coded:  # facts from the code: a break, whatever else the commit says
        shown = coded[:3] + (["…"] if len(coded) > 3 else [])
        evidence(3, "ev_radar", n=str(len(coded)), names=rt.code_list(shown, lang))
    elif facts.radar:
        evidence(3, "ev_radar_announced", n=str(len(facts.radar)))
    elif facts.removed_api:
        evidence(2, "ev_removed_api", names=rt.code_list(facts.removed_api, lang))
    if facts.moved_modules:
        evidence(1, "ev_removed_files", paths=rt.code_list(facts.moved_modules, lang))
    if change_type is ChangeType.REVERT:
        evidence(1, "ev_revert")
    if change_type is ChangeType.REMOVAL:
        evidence(1, "ev_removal")
    if change_type is ChangeType.FEATURE and src is not None:
        evidence(1, "ev_feature")  # "Add X to the docs" is no feature of the code
    if change_type is ChangeType.BUGFIX and src is not None and (not src.known or src.lines >= 5):
        evidence(1, "ev_bugfix")  # a one- or two-line tweak stays low
    if _RELEASE.match(facts.info.clean_title) and any(_CHANGELOG.search(p) for p in facts.paths):
        evidence(1, "ev_release")
    if facts.security_words:
        evidence(3, "ev_security", words=rt.code_list(facts.security_words, lang))
    if facts.breaking_marker and not facts.radar:  # the radar counted the announcement
        evidence(3, "ev_breaking", marker=rt.code_span(facts.breaking_marker))
    if facts.bot and not (facts.security_words or facts.breaking_marker or facts.radar) and score:
        notes.append(rt.tr(lang, "ev_bot", score=str(score)))
        score = 0  # a bot's routine bump: low unless it says security or breaking
    level = (
        Importance.HIGH
        if score >= HIGH_SCORE
        else Importance.MEDIUM
        if score >= MEDIUM_SCORE
        else Importance.LOW
    )
    notes.append(rt.tr(lang, "ev_score", score=str(score)))
    return level, notes
