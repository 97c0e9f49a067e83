"""What a reader must act on, first: decided once for every output (the report in Markdown
and HTML, the weekly, the day index of separate reports, the e-mail, every chat digest).

In this order, at most :data:`LIMIT` lines, then "N more ↓":

1. what affects the reader's code (``--downstream``): one line per item, with its uses;
2. public breaking changes, from the code and announced: one line per commit (a release
   that announces 22 changes is one line pointing at its list, which counts the
   deprecations it announces too; a release that announces deprecations only is a line);
3. security fixes;
4. the other high-importance commits that users feel (not tests, CI or docs), each with a
   one-line reason.

Internal names never appear here (``render.headline``). When nothing needs action, the
renderers say so in one line. Lines hold plain text; each renderer escapes for itself.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from commitdigest.models import (
    ApiChange,
    ApiChangeType,
    ChangeType,
    CommitEntry,
    Importance,
    RadarKind,
)
from commitdigest.render.headline import headline
from commitdigest.text import clean_line, shorten_title

__all__ = ["LIMIT", "ActLine", "ActOn", "act_on"]

LIMIT = 12  # lines; the rest is "N more ↓"
REASON_CHARS = 140
_NOT_FELT = frozenset({ChangeType.TEST, ChangeType.CI_BUILD, ChangeType.DOCUMENTATION})


@dataclass(frozen=True)
class ActLine:
    """One line: ``kind`` is ``affects``, ``breaking``, ``release``, ``security`` or
    ``high``; ``repo`` names the repository when the report has several."""

    kind: str
    repo: str
    commit: CommitEntry
    items: tuple[ApiChange, ...] = ()
    release: str = ""
    reason: str = ""  # plain text: why it is here (high, security)
    deprecated: int = 0  # the deprecations the release announces


@dataclass(frozen=True)
class ActOn:
    lines: list[ActLine] = field(default_factory=list)
    more: int = 0  # lines left out after LIMIT

    def __bool__(self) -> bool:
        return bool(self.lines)


def act_on(repos: Sequence[tuple[str, Sequence[CommitEntry]]], limit: int = LIMIT) -> ActOn:
    """The Act-on block of ``repos`` ((name, commits) pairs; the name is shown only when
    there are several)."""
    several = len(repos) > 1
    affects: list[ActLine] = []
    breaking: list[ActLine] = []
    security: list[ActLine] = []
    high: list[ActLine] = []
    for name, commits in repos:
        shown = name if several else ""
        found = headline(commits, lambda c: c.api_changes)
        start = len(breaking)
        affects += [ActLine("affects", shown, c, (item,)) for c, item in found.affecting]
        by_commit: dict[str, list[ApiChange]] = {}
        for c, item in found.breaking:
            by_commit.setdefault(c.sha, []).append(item)
        listed = {c.sha for c, _ in found.affecting} | set(by_commit)
        # a commit whose announcements a release of the day repeats: its line says them
        repeated = {c.sha for c, _ in found.released}
        for c in commits:
            items = by_commit.get(c.sha)
            deprecated = _deprecated(c)
            if items:
                release = next((i.release for i in items if i.release), "")
                breaking.append(ActLine("release" if release else "breaking", shown, c,
                                        tuple(items), release=release,
                                        deprecated=_count(deprecated, release)))  # fmt: skip
            elif c.sha in listed:
                continue
            elif deprecated:  # a release that deprecates only
                release = deprecated[0].release
                breaking.append(ActLine("release", shown, c, release=release,
                                        deprecated=_count(deprecated, release)))  # fmt: skip
            elif c.analysis.change_type is ChangeType.SECURITY:
                security.append(ActLine("security", shown, c, reason=_reason(c)))
            elif c.sha in repeated:
                continue  # (high for what it announced, which the release's line says)
            elif c.analysis.importance is Importance.HIGH and (
                c.analysis.change_type not in _NOT_FELT
            ):
                high.append(ActLine("high", shown, c, reason=_reason(c)))
        breaking[start:] = _once_per_release(breaking[start:])
    lines = [*affects, *breaking, *security, *high]
    return ActOn(lines[:limit], max(0, len(lines) - limit))


def _once_per_release(lines: list[ActLine]) -> list[ActLine]:
    """One line per version released, the latest commit's: llm's "Draft release notes for
    0.32" dated the version's section a day before the tag 0.32, and both commits read as
    release 0.32. The earlier keeps a line for what else it breaks, if anything."""
    keys = {id(line): _released(line) for line in lines if line.kind == "release"}
    latest: dict[tuple[str, frozenset[str]], ActLine] = {}
    for line in lines:
        if (key := keys.get(id(line))) is not None:
            kept = latest.get(key)
            if kept is None or line.commit.committed_at > kept.commit.committed_at:
                latest[key] = line
    out: list[ActLine] = []
    for line in lines:
        if line.kind != "release" or latest[keys[id(line)]] is line:
            out.append(line)
            continue
        rest = tuple(i for i in line.items if i.release != line.release)
        if rest:
            out.append(ActLine("breaking", line.repo, line.commit, rest))
    return out


def _released(line: ActLine) -> tuple[str, frozenset[str]]:
    """A release line's version and the changelogs that say it (in a monorepo, two
    packages may release the same version number the same day)."""
    paths = frozenset(i.path for i in line.commit.api_changes if i.release == line.release)
    return line.release, paths


def _deprecated(commit: CommitEntry) -> list[ApiChange]:
    """What the commit's release announces as deprecated (pytest 9.1.0: ten entries)."""
    return [
        i
        for i in commit.api_changes
        if i.release and i.kind is RadarKind.ANNOUNCED and i.change is ApiChangeType.DEPRECATED
    ]


def _count(deprecated: list[ApiChange], release: str) -> int:
    """How many of ``deprecated`` (distinct names) the release ``release`` announces."""
    return len({i.name for i in deprecated if i.release == release}) if release else 0


def _reason(commit: CommitEntry) -> str:
    """One line on why a commit matters: its first risk, else its summary's first
    sentence (never the rule analyser's scoring notes)."""
    analysis = commit.analysis
    text = analysis.risks[0].risk if analysis.risks else analysis.summary
    text = clean_line(text.replace("`", ""))
    for stop in ("。", ". "):
        if stop in text:
            text = text.split(stop, 1)[0] + stop.strip()
            break
    if _words(text) and _words(text) in _words(commit.title):
        return ""  # it only repeats the title
    return shorten_title(text, REASON_CHARS, REASON_CHARS - 3)


def _words(text: str) -> str:
    """A text's words, without bracketed tags, PR numbers and punctuation, lower case."""
    text = re.sub(r"\[[^\]]*\]|\(#\d+\)|#\d+", " ", text)
    return " ".join(re.sub(r"[^\w]+", " ", text).lower().split())


def item_names(line: ActLine, shown: int = 2) -> tuple[list[tuple[str, bool]], int]:
    """The names a breaking line shows — (name, written as code?): code items first, an
    announcement in its own words — and how many more it has. An announcement named by the
    commit's title (uv's "Remove bz/lzma/xz support from ZIP handling (#18927)", whose
    message says "This is a breaking change") is the line's title already: not said twice."""
    title = " ".join(line.commit.title.split()) if line.commit is not None else ""
    distinct = dict.fromkeys(
        (i.name, i.kind is not RadarKind.ANNOUNCED)
        for i in line.items
        if i.kind is not RadarKind.ANNOUNCED or " ".join(i.name.split()) != title
    )
    names = sorted(distinct, key=lambda n: not n[1])  # the same name twice is said once
    return names[:shown], max(0, len(names) - shown)
