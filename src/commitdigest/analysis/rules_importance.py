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
performance type  with source changes                       +1
release           "Release 1.2" / "Version 1.2" with notes  +1  (not a patch release: 1.2.3)
bug-fix type      a fix that changes ≥5 lines of source     +1
security words    CVE, vulnerability, injection, RCE ...    +3  (with source or runtime deps)
hardening         reject / sanitize / verify / TLS / auth
                  ... in the title, with source changes     +2
default change    "switch the default", "by default" ...    +2  (with source changes)
deprecation       "deprecate ..." in the title              +2  (with source changes)
python dropped    "drop Python 3.8", "Python 3.7 dropped"   +3
refactor type     by its own word no behaviour change       −1
tooling           linter, formatter, mypy, typo, spelling   −2
breaking marker   ``!:`` or ``BREAKING CHANGE``             +3  (no radar)

routine update    a bot's bump, a pure lock/manifest bump  score counts as 0 unless it
                  (automation.is_automated)                 names a security fix or a breaking
                                                            change (a new major is a note)

score ≥ 3 -> high, ≥ 1 -> medium, else low (the radar's breaking items raise to high later)
"""

from __future__ import annotations

import re

from commitdigest.analysis import rules_text as rt
from commitdigest.analysis.automation import parse_bump
from commitdigest.analysis.classify import AREA_ORDER, Area
from commitdigest.analysis.rules_facts import CommitFacts, FileGroup
from commitdigest.i18n import AREA_NAMES
from commitdigest.models import ChangeType, Importance, RadarKind

_DEV_DEPS = re.compile(r"(?:^|[/_.-])(?:dev|test|tests|docs|lint|ci|bench)(?:[/_.-]|$)", re.I)
"""Dependency files of the project's own tooling (requirements-dev.txt, docs/requirements.txt):
a bump there changes nothing for the project's users."""

_RELEASE = re.compile(r"^(?:release|version|bump version|prepare)\b[^0-9]{0,20}v?\d+\.\d+", re.I)
_CHANGELOG = re.compile(r"(?:^|/)(?:changelog|changes|news|history|release[-_ ]?notes)[^/]*$", re.I)

_HARDENING = re.compile(
    r"\b(?:reject|refuse|disallow|forbid|saniti[sz]e|harden|do not accept|no longer accept"
    r"|untrusted|tamper|TLS|certificates?|permissions?|hash(?:es|ing)?"
    r"|auth(?:entication|orization)?)\b",
    re.I,
)
"""Words of a title that tightens what the code accepts: a behaviour change users meet."""
_DEFAULT_CHANGE = re.compile(
    r"\b(?:switch|change|changed|new|make|use|set)\b[^.]{0,40}\bdefaults?\b"
    r"|\bdefaults?\b[^.]{0,20}\b(?:to|now|changed|is now)\b|\bby default\b",
    re.I,
)
_DEPRECATES = re.compile(r"\bdeprecat(?:e|es|ing|ion)\b", re.I)  # not "a deprecated docstring"
_PYTHON_DROP = re.compile(
    r"\b(?:drop|remove|end)\w*\s+(?:support\s+for\s+)?python\s*3\.\d+"
    r"|\bpython\s*3\.\d+\s+(?:is\s+)?(?:no longer supported|dropped)",
    re.I,
)
_TYPING = re.compile(r"\btyp(?:e|ing)\s+(?:annotation|hint|check)|\btyping\b|\bmypy\b", re.I)
_TOOLING = re.compile(
    r"\b(?:linter|lint(?:ing)?|formatter|formatting|type checker|mypy|ruff|black|flake8|isort"
    r"|pyright|pylint|pre-commit|typos|spell(?:ing)?|typo)\b",
    re.I,
)
"""The project's own tooling, spelling and style: nothing changes for users."""

_VERSION = re.compile(r"v?(\d+)\.(\d+)(?:\.(\d+))?")


def _patch_release(title: str) -> bool:
    """A release of fixes only (``0.140.12``): its notes hold nothing new to act on."""
    m = _VERSION.search(title)
    return m is not None and m.group(3) is not None and int(m.group(3)) > 0


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
    if change_type is ChangeType.REMOVAL and src is not None:
        evidence(1, "ev_removal")  # "Remove a sentence from the docs" removes nothing of use
    if change_type is ChangeType.PERFORMANCE and src is not None:
        evidence(1, "ev_performance")  # users see it run faster or leaner
    if change_type is ChangeType.FEATURE and src is not None:
        evidence(1, "ev_feature")  # "Add X to the docs" is no feature of the code
    title = facts.info.clean_title
    if (
        change_type is ChangeType.BUGFIX
        and src is not None
        and (not src.known or src.lines >= 5)
        and not _TYPING.search(title)
    ):
        evidence(1, "ev_bugfix")  # a one- or two-line tweak, a type annotation: stays low
    if src is not None:  # what the title says the code now does differently
        if m := _HARDENING.search(title):
            evidence(2, "ev_hardening", word=rt.code_span(m.group(0)))
        if m := _DEFAULT_CHANGE.search(title):
            evidence(2, "ev_default", words=rt.code_span(m.group(0)))
        if m := _DEPRECATES.search(title):
            evidence(2, "ev_deprecates", word=rt.code_span(m.group(0)))
    if m := _PYTHON_DROP.search(title):
        evidence(3, "ev_python_drop", words=rt.code_span(m.group(0)))
    if change_type is ChangeType.REFACTOR and score > 0:
        evidence(-1, "ev_refactor")  # by its own word, no behaviour changes
    if m := _TOOLING.search(title):
        evidence(-2, "ev_tooling", word=rt.code_span(m.group(0)))
    bare = re.sub(r"^[\W_]+", "", facts.info.clean_title)  # "🔖 Release version 0.141.0"
    release = _RELEASE.match(bare)
    if release and not _patch_release(bare) and any(_CHANGELOG.search(p) for p in facts.paths):
        evidence(1, "ev_release")
    if facts.security_words and (src is not None or runtime_deps):
        evidence(3, "ev_security", words=rt.code_list(facts.security_words, lang))
    elif facts.security_words:  # the project's own CI or docs: not a fix users get
        notes.append(
            rt.tr(lang, "ev_security_tooling", words=rt.code_list(facts.security_words, lang))
        )
    if facts.breaking_marker and not facts.radar:  # the radar counted the announcement
        evidence(3, "ev_breaking", marker=rt.code_span(facts.breaking_marker))
    bump = parse_bump(facts.info.clean_title) if facts.bot else None
    if bump is not None and bump.major_jump and runtime_deps:  # flagged, not raised
        notes.append(
            rt.tr(lang, "auto_major", package=rt.code_span(bump.package), new=bump.new or "")
        )
    if facts.bot and not (facts.security_words or facts.breaking_marker or facts.radar) and score:
        notes.append(rt.tr(lang, "ev_bot", score=str(score)))
        score = 0  # a routine update: low unless it says security or breaking
    level = (
        Importance.HIGH
        if score >= HIGH_SCORE
        else Importance.MEDIUM
        if score >= MEDIUM_SCORE
        else Importance.LOW
    )
    notes.append(rt.tr(lang, "ev_score", score=str(score)))
    return level, notes
