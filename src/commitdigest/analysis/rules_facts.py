"""What the rule-based analyser knows about a commit (:class:`CommitFacts`), gathered once.

Per area and per component: files, line counts and components (:class:`FileGroup`); public
module-level ``def``/``class`` names the patches remove; Python source files deleted or
renamed away; dependency manifests; security words and a breaking-change marker in the title
and message.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from commitdigest.analysis import rules_text as rt
from commitdigest.analysis.automation import is_automated
from commitdigest.analysis.classify import Area, classify_file, classify_path, component_of
from commitdigest.analysis.classify import is_python_source as _is_py
from commitdigest.analysis.radar.models import is_private_module
from commitdigest.analysis.tags import SECURITY_RE, TitleInfo, parse_title
from commitdigest.models import (
    ApiChange,
    ApiChangeType,
    Commit,
    FileChange,
    FileStatus,
    RadarKind,
)

_DEF_RE = re.compile(r"^([+-])(?:async\s+def|def|class)\s+([A-Za-z_]\w*)")
_BREAKING_RE = re.compile(r"\bBREAKING[ -]CHANGES?\b")


@dataclass
class FileGroup:
    """Files, line counts and components of one area or one component."""

    files: int = 0
    additions: int = 0
    deletions: int = 0
    known: bool = False  # some file had known line counts
    components: dict[str, None] = field(default_factory=dict)  # ordered set

    def add(self, f: FileChange, component: str) -> None:
        self.files += 1
        self.components[component] = None
        if f.additions is not None and f.deletions is not None:
            self.additions += f.additions
            self.deletions += f.deletions
            self.known = True

    @property
    def lines(self) -> int:
        return self.additions + self.deletions


@dataclass
class CommitFacts:
    """Everything the analyser knows about a commit, computed once."""

    info: TitleInfo
    excerpt: str
    areas: dict[Area, FileGroup]
    components: dict[str, FileGroup]
    removed_api: list[str]
    moved_modules: list[str]
    dependency_paths: list[str]
    security_words: list[str]
    breaking_marker: str | None
    paths: tuple[str, ...] = ()  # every changed path, as the commit lists them
    bot: bool = False  # a routine update (automation.is_automated): a bot's bump, a lock bump
    radar: tuple[ApiChange, ...] = ()  # the radar's breaking items (when the radar ran)


def _removed_public_defs(files: list[FileChange]) -> list[str]:
    """Top-level defs/classes removed from a public module and not re-added elsewhere.

    A module in a private package or file (a path part starting with ``_``, ``__init__``
    aside) is not public API, whatever it defines; the radar (``analysis/radar``) decides
    what its package exports and is what the report's Breaking section shows."""
    removed: dict[str, None] = {}
    added: set[str] = set()
    for f in files:
        if is_private_module(f.path):
            continue
        for line in f.patch.splitlines():
            if line.startswith(("---", "+++")):
                continue
            if m := _DEF_RE.match(line):
                if m.group(1) == "-":
                    removed[m.group(2)] = None
                else:
                    added.add(m.group(2))
    return [n for n in removed if n not in added and not n.startswith("_")]


def gather_facts(commit: Commit, radar: Sequence[ApiChange] | None = None) -> CommitFacts:
    """Everything the rules look at, read from the title, the message and the files.

    ``radar``: the breaking-change radar's items for the commit, when it ran. Then the
    removed public API is what the radar found (it knows what a package exports), not a
    guess from the diff's ``def`` lines."""
    info = parse_title(commit.title)
    areas: dict[Area, FileGroup] = {}
    components: dict[str, FileGroup] = {}
    source: list[FileChange] = []
    moved: list[str] = []
    deps: list[str] = []
    for f in commit.files:
        known = f.additions is not None and f.deletions is not None
        area = classify_file(f.path, (f.additions or 0) + (f.deletions or 0) if known else None)
        comp = component_of(f.path, area)
        areas.setdefault(area, FileGroup()).add(f, comp)
        components.setdefault(comp, FileGroup()).add(f, comp)
        if area is Area.SOURCE:
            source.append(f)
            if f.status is FileStatus.DELETED and _is_py(f.path) and not is_private_module(f.path):
                moved.append(f.path)
        elif area is Area.DEPENDENCY:
            deps.append(f.path)
        old = f.old_path
        if (
            f.status is FileStatus.RENAMED
            and old
            and _is_py(old)
            and not is_private_module(old)
            and classify_path(old) is Area.SOURCE
        ):
            moved.append(old)
    excerpt = rt.first_paragraph(commit.body)
    words = dict.fromkeys(m.group(0) for m in SECURITY_RE.finditer(f"{info.title}\n{excerpt}"))
    marker: str | None = None
    if info.breaking:
        marker = "!:"
    elif _BREAKING_RE.search(f"{info.title}\n{commit.body}"):
        marker = "BREAKING CHANGE"
    return CommitFacts(
        info=info,
        excerpt=excerpt,
        areas=areas,
        components=components,
        removed_api=(
            _removed_public_defs(source)
            if radar is None
            else [
                i.name
                for i in radar
                if i.kind is RadarKind.PYTHON_API
                and i.change is ApiChangeType.REMOVED
                and "(" not in i.name
                and (i.public or i.affects)  # internal names are no reader's risk
            ]
        ),
        moved_modules=moved,
        dependency_paths=deps,
        security_words=list(words),
        breaking_marker=marker,
        paths=tuple(f.path for f in commit.files),
        bot=is_automated(commit),
        radar=tuple(i for i in radar or () if i.breaking and (i.public or i.affects)),
    )
