"""What the rule-based analyser knows about a commit (:class:`CommitFacts`), gathered once.

The title as the commit stands for it (a merge commit by its pull request's title), taken
apart; per area (by the role of each path: :func:`classify.area_by_role`) and per component:
files, line counts and components (:class:`FileGroup`); the public API the commit removes
(the radar's public items, else a guess from the patches' ``def`` lines); Python source
files deleted or renamed away; dependency manifests, which of them users install and
whether only lock files changed; the changelog lines added; security words and advisory
ids; a breaking-change marker; and what the message's body states: the pull request
template's answer to "any user-facing change?", an issue it fixes, a bug it names.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from commitdigest.analysis import rules_text as rt
from commitdigest.analysis.automation import (
    ADVISORY_RE,
    DEV_DEPENDENCY_RE,
    installed_manifests,
    is_automated,
)
from commitdigest.analysis.classify import (
    Area,
    FileKind,
    area_by_role,
    classify_file,
    classify_path,
    component_of,
    is_changelog,
    kind_of_path,
)
from commitdigest.analysis.classify import is_python_source as _is_py
from commitdigest.analysis.radar.models import is_private_module
from commitdigest.analysis.tags import (
    TitleInfo,
    advisory_merge,
    effective_title,
    merged_branch_type,
    parse_title,
    security_words,
)
from commitdigest.models import (
    ApiChange,
    ApiChangeType,
    ChangeType,
    Commit,
    FileChange,
    FileStatus,
    RadarKind,
)
from commitdigest.text import Sieved

_DEF_RE = re.compile(r"^([+-])(?:async[ \t]+def|def|class)[ \t]+([A-Za-z_]\w*)", re.MULTILINE)
_BREAKING_RE = Sieved(r"\bBREAKING[ -]CHANGES?\b", ("BREAKING",))
_VERSION_TITLE = re.compile(
    r"^(?:release(?: version)?|version|bump(?:ing)? (?:the )?version(?: to)?"
    r"|prepare(?: for)?(?: release)?|merge release)[\s:_/-]*v?\d+\.\d+"
    r"|^v?\d+\.\d+(?:\.\d+)?(?:\s|$)",
    re.IGNORECASE,
)
_USER_FACING_Q = Sieved(r"user[- ]facing change", ("facing change",), re.IGNORECASE)
_NO_ANSWER = re.compile(r"^(?:no|none|n/?a|nope|not? applicable)\b", re.IGNORECASE)
_FIXES_RE = Sieved(
    r"\b(?:fix(?:es|ed)?|closes|resolves)\s*:?\s*(?:[\w.-]+/[\w.-]+)?#\d+",
    ("fix", "closes", "resolves"),
    re.I,
)
_BUG_RE = Sieved(
    r"\b(?:crash(?:es|ed)?|panic(?:s|ked)?|segfaults?|deadlocks?|regression|traceback"
    r"|data race|(?:a|the|this) bug|incorrect(?:ly)?|wrong(?:ly)?)\b",
    ("crash", "panic", "segfault", "deadlock", "regression", "traceback", "data race", " bug",
     "incorrect", "wrong"),
    re.IGNORECASE,
)  # fmt: skip


@dataclass
class FileGroup:
    """Files, line counts and components of one area or one component."""

    files: int = 0
    additions: int = 0
    deletions: int = 0
    known: bool = False  # some file had known line counts
    components: dict[str, None] = field(default_factory=dict)  # ordered set
    deleted: int = 0  # files deleted

    def add(self, f: FileChange, component: str) -> None:
        self.files += 1
        if f.status is FileStatus.DELETED:
            self.deleted += 1
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
    runtime_deps: list[str] = field(default_factory=list)  # not the project's own tooling
    lock_only: bool = False  # every dependency file changed is a lock file
    installed: list[str] = field(default_factory=list)  # manifests users install
    changelog_added: int = 0  # lines added to changelog files
    advisories: list[str] = field(default_factory=list)  # CVE / GHSA ids named
    user_facing: bool | None = None  # the PR template's answer, when it has one
    body_statement: str = ""  # the body's words that say it fixes something
    merged: bool = False  # a merge commit named by its pull request's title
    release: bool = False  # a version in the title and a changelog among the files
    body: str = ""  # the message's body (a merge's without the title it is named by)
    radar_ran: bool = False  # the radar's items were given (even none)
    vendored_lines: int = 0  # lines of vendored copies of dependencies (src/pip/_vendor/…)
    advisory_fork: bool = False  # merged from a security advisory's private fork
    # the type a merged pull request's branch names ("someone/fix/…"), and the branch
    branch_type: tuple[ChangeType, str] | None = None

    @property
    def installs_dependencies(self) -> bool:
        """The commit changes what users install: a manifest they install (not lock files
        alone, not the project's own tooling) or a vendored copy of a dependency."""
        return bool(self.installed) or self.vendored_lines > 0

    @property
    def public_radar(self) -> list[ApiChange]:
        """Breaking items from the code that users of the project meet."""
        return [
            i
            for i in self.radar
            if i.kind is not RadarKind.ANNOUNCED
            and (i.public or i.affects)
            and not (i.kind is RadarKind.DEPENDENCY and DEV_DEPENDENCY_RE.search(i.path))
        ]

    @property
    def internal_radar(self) -> list[ApiChange]:
        return [i for i in self.radar if i.kind is not RadarKind.ANNOUNCED and not i.public]

    @property
    def announced(self) -> list[ApiChange]:
        return [i for i in self.radar if i.kind is RadarKind.ANNOUNCED]


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
        for m in _DEF_RE.finditer(f.patch):  # a "--- a/…" or "+++ b/…" header never matches
            if m.group(1) == "-":
                removed[m.group(2)] = None
            else:
                added.add(m.group(2))
    return [n for n in removed if n not in added and not n.startswith("_")]


def user_facing_answer(body: str) -> bool | None:
    """The answer a pull request template gives to "Does this PR introduce any user-facing
    change?": ``False`` for no / none / N/A, ``True`` for anything else written there,
    ``None`` when the body has no such question (or leaves it unanswered)."""
    if not _USER_FACING_Q.may_match(body):
        return None  # (a comment is a line break once stripped: it never joins the words)
    stripped = rt.strip_html_comments(body)
    question = _USER_FACING_Q.regex.search(stripped)  # (its key was found above)
    if question is None:
        return None
    for answer in stripped[question.end() :].splitlines()[1:]:  # the lines after the question's
        text = answer.strip().strip("*_>").strip()
        if not text:
            continue
        if text.startswith("#"):  # the next heading: left unanswered
            return None
        return _NO_ANSWER.match(text) is None
    return None


def _body_statement(excerpt: str, body: str) -> str:
    """The body's words that say the commit fixes a bug: ``Fixes #21151``, ``crashed``."""
    if m := _FIXES_RE.search(body):
        return m.group(0)
    if m := _BUG_RE.search(excerpt):
        return m.group(0)
    return ""


def gather_facts(commit: Commit, radar: Sequence[ApiChange] | None = None) -> CommitFacts:
    """Everything the rules look at, read from the title, the message and the files.

    ``radar``: the breaking-change radar's items for the commit, when it ran. Then the
    removed public API is what the radar found (it knows what a package exports), not a
    guess from the diff's ``def`` lines."""
    title = effective_title(commit.title, commit.body)
    merged = title != commit.title
    info = parse_title(title)
    body = _without_first_line(commit.body) if merged else commit.body
    areas: dict[Area, FileGroup] = {}
    components: dict[str, FileGroup] = {}
    source: list[FileChange] = []
    moved: list[str] = []
    deps: list[str] = []
    changelog_added = 0
    vendored = 0
    for f in commit.files:
        known = f.additions is not None and f.deletions is not None
        lines = (f.additions or 0) + (f.deletions or 0) if known else None
        area = area_by_role(f.path, classify_file(f.path, lines))
        comp = component_of(f.path, area)
        areas.setdefault(area, FileGroup()).add(f, comp)
        components.setdefault(comp, FileGroup()).add(f, comp)
        if is_changelog(f.path):
            changelog_added += f.additions or 0
        if area is Area.GENERATED and kind_of_path(f.path) is FileKind.VENDORED:
            vendored += lines or 1
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
            and area_by_role(old, classify_path(old)) is Area.SOURCE
        ):
            moved.append(old)
    excerpt = rt.first_paragraph(body)
    words = security_words(f"{info.title}\n{excerpt}")
    marker: str | None = None
    if info.breaking:
        marker = "!:"
    elif _BREAKING_RE.search(f"{info.title}\n{body}"):
        marker = "BREAKING CHANGE"
    runtime = [p for p in deps if not DEV_DEPENDENCY_RE.search(p)]
    installed = installed_manifests(deps)
    items = tuple(i for i in radar or () if i.breaking)
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
                for i in items
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
        radar=items,
        runtime_deps=runtime,
        installed=installed,
        lock_only=bool(deps) and all(kind_of_path(p) is FileKind.LOCK for p in deps),
        changelog_added=changelog_added,
        advisories=list(dict.fromkeys(ADVISORY_RE.findall(f"{title}\n{commit.body}"))),
        user_facing=user_facing_answer(body),
        body_statement=_body_statement(excerpt, body),
        merged=merged,
        body=body,
        radar_ran=radar is not None,
        vendored_lines=vendored,
        advisory_fork=advisory_merge(commit.title),
        branch_type=merged_branch_type(commit.title),
        release=_VERSION_TITLE.search(re.sub(r"^[\W_]+", "", info.clean_title)) is not None
        and any(is_changelog(f.path) for f in commit.files),
    )


def _without_first_line(body: str) -> str:
    """A merge's body without the pull request title that names the commit: its first line
    when that line is a paragraph of its own (a fork merge's message is kept whole)."""
    lines = body.strip().splitlines()
    if len(lines) == 1 or (len(lines) > 1 and not lines[1].strip()):
        return "\n".join(lines[1:])
    return body
