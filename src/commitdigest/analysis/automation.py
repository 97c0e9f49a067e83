"""Automated commits: bot accounts and pure dependency/lock-file bumps, which a busy day's
report collapses into one "Dependency and automation updates (N)" block.

A commit is *automated* (:func:`is_automated`) when it is a routine update: its title says it
updates or bumps something, or it changes nothing but dependency manifests, lock files, CI
and generated files — and it comes from an automation account (dependabot, renovate,
pre-commit-ci, github-actions, mergify, snyk-bot, any ``*[bot]`` name, plus the names a
config adds) or changes nothing else (a human's ``Bump ruff to 0.6`` touching ``uv.lock``).
A bot that merges a real change (``Reject MD5-only hashes`` by a merge bot, touching source)
is not automated, nor is a release (``Bump version to 0.12.0`` with a changelog).

Its importance (:func:`automation_importance`) is low, whatever the analyser said, unless
there is a reason to look: a security word or advisory (CVE, GHSA, vulnerability …), a major
version jump (``to v3``, ``from 1.2 to 2.0``) of a dependency manifest or lock file (a CI
action's is not), or a breaking radar item. Each decision is one
note naming its reason.

:func:`parse_bump` reads the package and versions from the usual titles ("Update Rust crate
serde to v1.0.229", "Bump requests from 2.31.0 to 2.32.0 in /docs", "chore(deps): update
dependency ruff to v0.6.1", "Update astral-sh/setup-uv action to v9").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from commitdigest.analysis import rules_text as rt
from commitdigest.analysis.classify import (
    Area,
    FileKind,
    classify_path,
    is_changelog,
    kind_of_path,
)
from commitdigest.analysis.tags import SECURITY_RE
from commitdigest.models import Analysis, ApiChange, Commit, Importance, VersionBump
from commitdigest.text import Sieved

__all__ = [
    "ADVISORY_RE",
    "DEV_DEPENDENCY_RE",
    "Bump",
    "automation_importance",
    "installed_manifests",
    "is_automated",
    "is_bot",
    "parse_bump",
    "version_bump",
]

_BUMP_TITLE = re.compile(
    r"^(?:\w+(?:\([^)]*\))?!?:\s*)?(?:update|bump|upgrade|pin|lock file maintenance)\b", re.I
)
_FROM_TO = re.compile(
    r"(?:update|bump|upgrade|pin)\s+(?:the\s+)?"
    r"(?:rust\s+crate\s+|dependency\s+|module\s+|pre-commit\s+hook\s+|docker\s+tag\s+)?"
    r"(?P<pkg>[\w@./-]+?)(?:\s+(?:action|crate|package|hook|digest|group))?"
    r"(?:\s+from\s+(?P<old>v?[\w.+-]+))?\s+to\s+(?P<new>v?[\w.+-]+)",
    re.I,
)
ADVISORY_RE = Sieved(r"\bCVE-\d{4}-\d+|\bGHSA(?:-[0-9a-z]{4}){3}\b", ("cve-", "ghsa-"), re.I)
"""A security advisory's id: ``CVE-2026-1234``, ``GHSA-f59h-q822-g45g``."""
_AUTOMATION_AREAS = frozenset({Area.DEPENDENCY, Area.CI_BUILD, Area.GENERATED})


@dataclass(frozen=True)
class Bump:
    """What an update commit changes: the package, and its versions where the title says."""

    package: str
    old: str | None
    new: str | None

    @property
    def major_jump(self) -> bool:
        """A new major version: ``from 1.x to 2.y``, or renovate's ``to v3`` (a bare major)."""
        new = _major(self.new)
        if new is None:
            return False
        old = _major(self.old)
        if old is not None:
            return new > old
        return self.new is not None and re.fullmatch(r"v?\d+", self.new) is not None


def _major(version: str | None) -> int | None:
    m = re.match(r"v?(\d+)", version or "")
    return int(m.group(1)) if m else None


def parse_bump(title: str) -> Bump | None:
    """The package and versions an update's title names, or ``None``."""
    m = _FROM_TO.search(title)
    if m is None:
        return None
    new = m.group("new").rstrip(".")
    return Bump(package=m.group("pkg"), old=m.group("old"), new=new)


_BOTS = ("dependabot", "renovate", "pre-commit-ci", "github-actions", "mergify", "snyk-bot")


def is_bot(author: str, email: str = "", extra: Iterable[str] = ()) -> bool:
    """Whether an automation account wrote the commit: ``*[bot]`` names, the usual bots and
    the ``extra`` names."""
    who = f"{author} {email}".lower()
    names = (*_BOTS, *(n.strip().lower() for n in extra if n.strip()))
    return "[bot]" in who or any(name in who for name in names)


def is_automated(commit: Commit, extra_bots: Iterable[str] = ()) -> bool:
    """A routine update by a bot, or a pure dependency/lock-file/CI update by anyone (see the
    module docstring)."""
    bump_title = _BUMP_TITLE.search(commit.title.strip()) is not None
    routine_files = bool(commit.files) and all(
        classify_path(f.path) in _AUTOMATION_AREAS for f in commit.files
    )
    if is_bot(commit.author, commit.author_email, extra_bots):
        # a bot's release notes of what was merged (fastapi: "📝 Update release notes"),
        # not a release: no version in the title
        notes_only = (
            bool(commit.files)
            and all(is_changelog(f.path) for f in commit.files)
            and not _VERSION_IN_TITLE.search(commit.title)
        )
        return routine_files or notes_only or (bump_title and not _touches_changelog(commit))
    return bump_title and routine_files


_VERSION_IN_TITLE = re.compile(r"\d+\.\d+")


def _touches_changelog(commit: Commit) -> bool:
    return any(is_changelog(f.path) for f in commit.files)


def _runtime(commit: Commit) -> bool:
    """Whether the commit changes a dependency manifest or lock file (not only CI)."""
    return any(classify_path(f.path) is Area.DEPENDENCY for f in commit.files)


DEV_DEPENDENCY_RE = re.compile(
    r"(?:^|[/_.-])(?:dev|test|tests|testing|docs|documentation|lint|ci|bench|benchmarks?"
    r"|tools|scripts|examples?|compliance)(?:[/_.-]|$)",
    re.IGNORECASE,
)
"""Dependency files of the project's own tooling (requirements-dev.txt, docs/requirements.txt,
internal/tools/go.mod): a bump there changes nothing for the project's users."""


def installed_manifests(paths: Iterable[str]) -> list[str]:
    """The dependency manifests among ``paths`` that users install: not lock files (they bind
    no user's versions) and not the project's own tooling (:data:`DEV_DEPENDENCY_RE`)."""
    return [
        p
        for p in paths
        if classify_path(p) is Area.DEPENDENCY
        and kind_of_path(p) is not FileKind.LOCK
        and not DEV_DEPENDENCY_RE.search(p)
    ]


def version_bump(bump: Bump | None) -> VersionBump | None:
    """What the report shows of an update (``1.2 → 1.3``): the bump when its title names
    the new version, else None."""
    if bump is None or bump.new is None:
        return None
    return VersionBump(package=bump.package, old=bump.old, new=bump.new, major=bump.major_jump)


def automation_importance(
    analysis: Analysis, commit: Commit, radar: Sequence[ApiChange], lang: str
) -> Analysis:
    """An automated commit's importance: low unless a security word, a major version jump
    or a breaking radar item gives a reason (then at least medium), with the reason; and
    the update's versions (:attr:`Analysis.bump`), which the report shows."""
    lang = "en" if lang == "en" else "zh"
    bump = parse_bump(commit.title)
    analysis = analysis.model_copy(update={"bump": version_bump(bump)})
    reason: str | None = None
    skipped = ""
    if any(item.breaking for item in radar):
        reason = rt.tr(lang, "auto_radar")
    elif m := SECURITY_RE.search(commit.title) or ADVISORY_RE.search(commit.body):
        # a bot's body quotes release notes: only an advisory id there counts
        word = rt.code_span(m.group(0))
        if installed_manifests(f.path for f in commit.files):
            reason = rt.tr(lang, "auto_security", word=word)
        else:  # a lock file or the project's own tooling: the fix does not reach users
            skipped = rt.tr(lang, "auto_security_dev", word=word)
    if reason is None:
        notes = list(analysis.notes)
        if skipped and skipped not in notes:
            notes.append(skipped)
        if bump is not None and bump.major_jump and _runtime(commit):  # flagged, not raised
            major = rt.tr(
                lang, "auto_major", package=rt.code_span(bump.package), new=bump.new or ""
            )
            if major not in notes:
                notes.append(major)
        if analysis.importance is not Importance.LOW:
            notes.append(rt.tr(lang, "auto_low"))
        return analysis.model_copy(update={"importance": Importance.LOW, "notes": notes})
    importance = max(analysis.importance, Importance.MEDIUM, key=lambda i: i.rank)
    notes = analysis.notes if reason in analysis.notes else [*analysis.notes, reason]
    return analysis.model_copy(update={"importance": importance, "notes": notes})
