"""How important a commit is, by a small additive score; each point backed by a note that
quotes what decided it. The rubric is ``docs/importance.md``; size alone never counts.

what the commit is (one row)                                              points
  shipped code of a user-facing kind: feature, bug fix, performance,
  removal, security, revert (a bug fix of type hints, or of under 3 lines
  of a message, a comment or the wording: a tweak, 0)                       1
  shipped code of no stated kind, 30 lines or more                          1
  a release: not a patch release, or one with notes (5 changelog lines)     1
  a dependency users install: a manifest (not lock files alone, not the
  project's own tooling: requirements-dev.txt, internal/tools/go.mod) or a
  vendored copy (src/pip/_vendor/…); not beside a docs, test or CI change   1
  docs, tests, CI and build, refactors, lock files, tooling                 0

what users must act on or know                                            points
  radar: breaking items from the code, public (or used downstream)          +3
  announced breaking items, in a release or beside shipped code             +3
  the security type (with shipped code or a manifest users install)         +3
  a breaking marker (``!:``, ``BREAKING CHANGE``), when no radar item says it +3
  support dropped ("drop Python 3.8", "drop support for …")                 +3
  removal of something users had: the removal type, its verb opens the
  clause and names a thing users touch ("Remove the legacy engine", "drop
  the --x flag"; not "Remove unused helpers"), or the message says so       +2
  deprecation ("deprecate …" in the clause), with shipped code              +2
  tightening: the clause opens with reject / refuse / disallow / require /
  validate …, or the body says "fails closed", "no longer accepts" …        +2
  a default changes ("by default", "switch the default" in the clause)      +2
  public Python modules deleted or renamed (no radar: it knows better)      +1

what says it is less than it looks
  the project's own tooling, spelling or style (lint, typo, mypy …)         −2
  the pull request template says "no user-facing change": at most medium,
  unless the radar, a security word or a breaking marker says otherwise

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
from commitdigest.analysis.rules_type import leading_verb
from commitdigest.analysis.tags import WARNINGS_HANDLED
from commitdigest.i18n import AREA_NAMES
from commitdigest.models import ChangeType, Importance
from commitdigest.text import Sieved

_USER_FACING_TYPES = frozenset(
    {ChangeType.FEATURE, ChangeType.BUGFIX, ChangeType.PERFORMANCE, ChangeType.REMOVAL,
     ChangeType.SECURITY, ChangeType.REVERT}
)  # fmt: skip
_TIGHTENING = re.compile(
    r"^(?:reject|rejects|refuse|refuses|disallow|disallows|forbid|forbids|deny|denies|require"
    r"|requires|validate|validates|verify|verifies|sanitize|sanitise|sanitizes|harden|hardens"
    r"|restrict|restricts|enforce|enforces)\b"
    r"|\b(?:don'?t|do not|no longer) (?:allow|accept|trust|follow)\w*"
    r"|\bprevent\w* [\w-]+ from (?:accepting|using|following)\b",
    re.IGNORECASE,
)
"""A clause that tightens what the code accepts: a behaviour change users meet."""
_TIGHTENING_BODY = Sieved(
    r"\bfails? closed\b|\bno longer (?:accepts?|trusts?|follows?)\b",
    ("closed", "no longer "),
    re.IGNORECASE,
)
_DEFAULT_CHANGE = re.compile(
    r"\b(?:switch|change|changed|new|make|use|set)\b[^.]{0,40}\bdefaults?\b"
    r"|\bdefaults?\b[^.]{0,20}\b(?:to|now|changed|is now)\b|\bby default\b",
    re.IGNORECASE,
)
_DEPRECATES = re.compile(r"\bdeprecat(?:e|es|ing|ion)\b", re.IGNORECASE)  # not "deprecated"
_SUPPORT_DROP = re.compile(
    r"\b(?:drop|remove|end)\w*\s+(?:support\s+for\s+)?python\s*3\.\d+"
    r"|\bpython\s*3\.\d+\s+(?:is\s+)?(?:no longer supported|dropped)"
    r"|\bdrop(?:s|ped|ping)?\s+support\b|\bno longer supports?\b|\bend of support\b",
    re.IGNORECASE,
)
_TYPING = re.compile(r"\btyp(?:e|ing)\s+(?:annotation|hint|check)|\btyping\b|\bmypy\b", re.I)
_COSMETIC = re.compile(
    r"\b(?:typos?|spelling|wording|comments?|docstrings?|log(?:ging)? (?:message|line|level)s?"
    r"|messages?|warnings?|formatting|whitespace|indentation|rounding|display)\b",
    re.IGNORECASE,
)
"""What a small fix touches when users would not notice it."""
_USER_THINGS = re.compile(
    r"\b(?:support|option|flag|argument|parameter|setting|config\w*|command|subcommand"
    r"|endpoint|api|method|function|class|module|label|metric|field|format|feature|backend"
    r"|provider|plugin|mode|engine|variable|env\w*|python \d[\d.]*|platform|target)s?\b"
    r"|--[\w-]+|`[^`]+`",
    re.IGNORECASE,
)
"""What a removal names when it takes something away from users."""
_PATCH_RELEASE = re.compile(r"\d+\.\d+\.(?!0\b)\d+")
_TOOLING = re.compile(
    r"\b(?:linter|lint(?:ing)?|formatter|formatting|type checker|mypy|ruff|black|flake8|isort"
    r"|pyright|pylint|pre-commit|typos|spell(?:ing)?|typo|clippy|eslint|oxfmt|prettier"
    r"|golangci)\b",
    re.IGNORECASE,
)
"""The project's own tooling, spelling and style: nothing changes for users."""

_NO_DEPENDENCY_POINT = frozenset(
    {ChangeType.SECURITY, ChangeType.DOCUMENTATION, ChangeType.TEST, ChangeType.CI_BUILD}
)
"""Types where a manifest edited beside is incidental (``[tool.ruff]`` in pyproject.toml)."""

HIGH_SCORE = 3
MEDIUM_SCORE = 1
_UNKNOWN_KIND_LINES = 30
_TWEAK_LINES = 3
_NOTES_LINES = 5


def size_points(group: FileGroup) -> int:
    """0 to 3 for the size of a change: lines ≥30 / ≥300 / ≥1000 (files <10 / ≥10 / ≥30 when
    no line count is known). The write-up weighs it; importance does not."""
    if group.known:
        lines = group.lines
        return 3 if lines >= 1000 else 2 if lines >= 300 else 1 if lines >= 30 else 0
    return 3 if group.files >= 30 else 2 if group.files >= 10 else 1


def score_importance(
    facts: CommitFacts, change_type: ChangeType, lang: str
) -> tuple[Importance, list[str]]:
    """The level, and the notes that back it: what was seen, then ``score N``."""
    notes: list[str] = [_shape_note(facts, lang)]
    score = 0

    def evidence(points: int, key: str, **kwargs: str) -> None:
        nonlocal score
        score += points
        notes.append(rt.tr(lang, key, **kwargs))

    src = facts.areas.get(Area.SOURCE)
    subject = facts.info.subject
    installed = facts.installs_dependencies
    shipped = src is not None or installed
    # what the commit is
    if src is not None and change_type in _USER_FACING_TYPES:
        small = src.known and src.lines < _TWEAK_LINES
        tweak = change_type is ChangeType.BUGFIX and (
            _TYPING.search(subject) is not None or (small and _COSMETIC.search(subject) is not None)
        )
        if tweak:
            notes.append(rt.tr(lang, "ev_tweak"))
        else:
            evidence(1, f"ev_kind_{change_type.value}")
    elif (
        src is not None
        and change_type is ChangeType.OTHER
        and (not src.known or src.lines >= _UNKNOWN_KIND_LINES)
    ):
        evidence(1, "ev_kind_other")
    elif facts.release and (
        facts.changelog_added >= _NOTES_LINES or not _PATCH_RELEASE.search(facts.info.clean_title)
    ):
        evidence(1, "ev_release", n=rt.fmt_int(facts.changelog_added))
    elif facts.release:
        notes.append(rt.tr(lang, "ev_release_bare"))
    if installed and change_type not in _NO_DEPENDENCY_POINT:
        paths = rt.code_list(facts.installed, lang) if facts.installed else ""
        key = "ev_dependency" if paths else "ev_vendored"
        if score == 0:
            evidence(1, key, paths=paths)
        else:
            notes.append(rt.tr(lang, key, paths=paths))
    elif facts.dependency_paths and facts.lock_only:
        notes.append(rt.tr(lang, "ev_lock_only", paths=rt.code_list(facts.dependency_paths, lang)))
    # what users must act on or know
    public = facts.public_radar
    if public:
        names = [i.name for i in public]
        shown = names[:3] + (["…"] if len(names) > 3 else [])
        evidence(3, "ev_radar", n=str(len(names)), names=rt.code_list(shown, lang))
    elif facts.internal_radar:
        notes.append(rt.tr(lang, "ev_radar_internal", n=str(len(facts.internal_radar))))
    if facts.announced and (facts.release or src is not None):
        evidence(3, "ev_radar_announced", n=str(len(facts.announced)))
    elif facts.announced:
        notes.append(rt.tr(lang, "ev_announced_docs", n=str(len(facts.announced))))
    if facts.removed_api and not public:
        evidence(2, "ev_removed_api", names=rt.code_list(facts.removed_api, lang))
    if facts.moved_modules and not facts.radar_ran:
        evidence(1, "ev_removed_files", paths=rt.code_list(facts.moved_modules, lang))
    if change_type is ChangeType.SECURITY and shipped:
        if facts.advisory_fork and not (facts.security_words or facts.advisories):
            evidence(3, "ev_advisory_fork")
        else:
            words = facts.security_words or facts.advisories or [subject]
            evidence(3, "ev_security", words=rt.code_list(words, lang))
    elif facts.security_words and change_type is not ChangeType.SECURITY and src is None:
        # (source code whose words were judged no fix, uv's `uv audit` features: no note)
        key = "ev_security_dependency" if installed else "ev_security_tooling"
        notes.append(rt.tr(lang, key, words=rt.code_list(facts.security_words, lang)))
    if facts.breaking_marker and not facts.radar:
        evidence(3, "ev_breaking", marker=rt.code_span(facts.breaking_marker))
    if m := _SUPPORT_DROP.search(facts.info.clean_title):
        if shipped or facts.dependency_paths:
            evidence(3, "ev_support_drop", words=rt.code_span(m.group(0)))
    elif src is not None and change_type is ChangeType.REMOVAL:
        verb = leading_verb(subject)
        thing = _USER_THINGS.search(subject)
        if (
            verb is not None
            and verb[0] is ChangeType.REMOVAL
            and not _DEPRECATES.search(subject)
            and (thing is not None or facts.user_facing)
        ):
            said = f"{verb[1]} … {thing.group(0)}" if thing is not None else verb[1]
            evidence(2, "ev_removal", words=rt.code_span(said))
    if src is not None:  # what the clause says the code now does differently
        if m := _DEPRECATES.search(WARNINGS_HANDLED.sub(" ", subject)):
            evidence(2, "ev_deprecates", word=rt.code_span(m.group(0)))
        if m := _TIGHTENING.search(subject) or _TIGHTENING_BODY.search(facts.body):
            evidence(2, "ev_hardening", word=rt.code_span(m.group(0)))
        if m := _DEFAULT_CHANGE.search(subject):
            evidence(2, "ev_default", words=rt.code_span(m.group(0)))
    # what says it is less than it looks
    if m := _TOOLING.search(facts.info.clean_title):
        evidence(-2, "ev_tooling", word=rt.code_span(m.group(0)))
    strong = public or facts.breaking_marker or change_type is ChangeType.SECURITY
    if facts.user_facing is False and not strong and score >= HIGH_SCORE:
        notes.append(rt.tr(lang, "ev_not_user_facing", score=str(score)))
        score = HIGH_SCORE - 1
    bump = parse_bump(facts.info.clean_title) if facts.bot else None
    if bump is not None and bump.major_jump and facts.runtime_deps:  # flagged, not raised
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


def _shape_note(facts: CommitFacts, lang: str) -> str:
    """What the commit touches: the shipped code's size and components, or the areas."""
    src = facts.areas.get(Area.SOURCE)
    if src is not None:
        comps = str(len(src.components))
        files = rt.n_files(src.files, lang)
        if src.known:
            return rt.tr(
                lang, "ev_source_size", lines=rt.fmt_int(src.lines), files=files, comps=comps
            )
        return rt.tr(lang, "ev_source_files", files=files, comps=comps)
    if facts.areas:
        names = [AREA_NAMES[lang][a] for a in AREA_ORDER if a in facts.areas]
        return rt.tr(lang, "ev_non_source", areas=rt.join_list(names, lang))
    return rt.tr(lang, "ev_no_files")
