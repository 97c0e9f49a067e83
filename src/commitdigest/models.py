"""The plain, serializable data that flows between the pipeline's stages.

config -> :class:`Subscription` (a followed repository, with its :class:`Focus`)
sources -> :class:`Commit` (with budgeted patches)
analysis -> :class:`Analysis`
render  <- :class:`ReportContext` (the JSON context; renderable on its own)
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from commitdigest.facts import IMPORTANCE_ORDER as IMPORTANCE_ORDER
from commitdigest.facts import AnalysisStatus as AnalysisStatus
from commitdigest.facts import ApiChange as ApiChange
from commitdigest.facts import ApiChangeType as ApiChangeType
from commitdigest.facts import ChangeType as ChangeType
from commitdigest.facts import FileStatus as FileStatus
from commitdigest.facts import Importance as Importance
from commitdigest.facts import Place as Place
from commitdigest.facts import RadarKind as RadarKind
from commitdigest.facts import Visibility as Visibility


class _Frozen(BaseModel):
    # a model's validator is built when first used, not at import: a run that never makes
    # one (a cached report, a radar worker) does not pay for it
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class FileChange(_Frozen):
    """One file of a commit, as the git source saw it.

    ``additions``/``deletions`` come from the full numstat (``None`` for binary files);
    ``patch`` is the file's diff text, cut to the configured byte budget.
    """

    path: str
    old_path: str | None = None
    status: FileStatus = FileStatus.MODIFIED
    additions: int | None = 0
    deletions: int | None = 0
    binary: bool = False
    patch: str = ""
    patch_truncated: bool = False
    # a cut patch's hunk headers (``@@ -a,b +c,d @@``, one a line), the cut part's too: the
    # lines it changes are known without its text ("" where ``whole_patch`` has them)
    hunks: str = ""
    # a cut patch whole, for a file the reader asked to keep whole (``PatchLimits.whole``: the
    # radar's modules and changelogs); "" otherwise
    whole_patch: str = ""
    # the blob ids before/after (git sources: ``--raw --no-abbrev``; None where absent or
    # unknown): the radar reads and parses each blob once per window by its id
    old_blob: str | None = None
    new_blob: str | None = None


class Commit(_Frozen):
    """One commit as read from a source: metadata, message and changed files."""

    sha: str
    parents: tuple[str, ...] = ()
    title: str
    body: str = ""
    author: str
    author_email: str = ""
    authored_at: datetime
    committed_at: datetime
    files: tuple[FileChange, ...] = ()
    url: str | None = None
    pr_number: int | None = None
    labels: tuple[str, ...] = ()  # the pull request's labels, when the source knows them
    patch_truncated: bool = False  # the commit-wide patch budget cut something

    @property
    def short_sha(self) -> str:
        return self.sha[:7]

    @property
    def additions(self) -> int:
        return sum(f.additions or 0 for f in self.files)

    @property
    def deletions(self) -> int:
        return sum(f.deletions or 0 for f in self.files)


class Insight(_Frozen):
    dimension: str  # architecture / performance / security / maintainability / compatibility
    text: str


class Risk(_Frozen):
    risk: str
    effect: str = ""
    mitigation: str = ""


class Usage(_Frozen):
    """Tokens an analysis (or a whole report) cost, as the server reported them."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0
    cost: float | None = None  # in the configured currency, when prices are configured

    @classmethod
    def priced(
        cls,
        prompt_tokens: int,
        completion_tokens: int,
        calls: int,
        price_input_per_mtok: float | None,
        price_output_per_mtok: float | None,
    ) -> Usage:
        """Token counts with their cost, when a price per million tokens is configured."""
        cost = None
        if price_input_per_mtok is not None or price_output_per_mtok is not None:
            cost = (
                prompt_tokens * (price_input_per_mtok or 0.0)
                + completion_tokens * (price_output_per_mtok or 0.0)
            ) / 1_000_000
        return cls(
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            calls=calls,
            cost=cost,
        )

    def __add__(self, other: Usage) -> Usage:
        cost = (
            None
            if self.cost is None and other.cost is None
            else ((self.cost or 0.0) + (other.cost or 0.0))
        )
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            calls=self.calls + other.calls,
            cost=cost,
        )


class Grounding(_Frozen):
    """What grounding checked in an LLM analysis: how many distinct mentions (paths,
    symbols, env vars, flags, issue numbers, versions) and which ones the commit does not
    support (removed from the text)."""

    checked: int = 0
    unsupported: list[str] = Field(default_factory=list)
    action: str = "none"  # "removed" when something was; "none"


class VersionBump(_Frozen):
    """What an update commit changes, as its title says: ``package`` from ``old`` (when
    named) to ``new``; ``major`` when that is a new major version."""

    package: str
    old: str | None = None
    new: str
    major: bool = False


class Analysis(_Frozen):
    """What an analyser says about one commit.

    Free-text fields are restricted Markdown (inline formatting only); the renderer
    sanitises them and builds every heading and label itself.
    """

    change_type: ChangeType
    importance: Importance
    summary: str
    impact: list[str] = Field(default_factory=list)
    insights: list[Insight] = Field(default_factory=list)
    risks: list[Risk] = Field(default_factory=list)
    recommendations: list[str] = Field(default_factory=list)
    analyser: str  # "rules" or "llm"
    analyser_version: str = ""
    status: AnalysisStatus = AnalysisStatus.OK
    notes: list[str] = Field(default_factory=list)  # why: evidence, fallback reasons
    omitted_files: list[str] = Field(default_factory=list)  # changed files the analyser never saw
    usage: Usage | None = None  # what producing this analysis cost (LLM only)
    grounding: Grounding | None = None  # LLM analyses: the mentions checked against the commit
    # an automated update's package and versions (the analysis stage reads them from the
    # title: analysis/automation.py); None for any other commit
    bump: VersionBump | None = None


class Overview(_Frozen):
    """A repository's day in a few lines, made from the day's analyses (not the diffs)."""

    themes: list[str] = Field(default_factory=list)
    key_changes: list[str] = Field(default_factory=list)
    risks: list[str] = Field(default_factory=list)
    # the data behind the text: commits per change type ("bugfix": 12), most first, and the
    # short SHA each key change is about ("" when it names none), aligned with key_changes
    type_counts: dict[str, int] = Field(default_factory=dict)
    key_refs: list[str] = Field(default_factory=list)
    analyser: str  # "rules" or "llm"
    status: AnalysisStatus = AnalysisStatus.OK
    notes: list[str] = Field(default_factory=list)
    usage: Usage | None = None


# ---- the render context (the JSON output) -------------------------------------------


class WindowInfo(_Frozen):
    start: datetime
    end: datetime
    tz: str
    label: str  # "2026-01-13" for a calendar day, else "start – end"


class FileEntry(_Frozen):
    path: str
    old_path: str | None = None
    additions: int | None
    deletions: int | None
    status: FileStatus


class CommitEntry(_Frozen):
    sha: str
    short_sha: str
    anchor: str
    title: str
    body: str
    author: str
    author_email: str
    committed_at: datetime
    url: str | None
    pr_number: int | None
    labels: list[str] = Field(default_factory=list)
    files: list[FileEntry]
    analysis: Analysis
    api_changes: list[ApiChange] = Field(default_factory=list)  # the radar's facts
    automated: bool = False  # a bot's commit or a pure dependency/lock-file update


class Coverage(_Frozen):
    total: int
    analysed: int
    by_llm: int = 0
    by_rules: int = 0
    fallback: int = 0


class RepositoryEntry(_Frozen):
    name: str
    url: str | None
    branch: str | None = None
    anchor: str
    commits: list[CommitEntry]  # newest first
    coverage: Coverage
    overview: Overview | None = None
    error: str | None = None  # the repository could not be read this time (why)


class ReportContext(_Frozen):
    """One day's report as data: what every renderer (md, json, html) reads."""

    schema_version: int = 1
    generated_at: datetime
    lang: str
    window: WindowInfo
    repositories: list[RepositoryEntry]
    coverage: Coverage
    usage: Usage | None = None  # all analyses and overviews of the report together


# ---- the weekly digest (built from the daily reports) ----------------------------------


class WeekDay(_Frozen):
    """One day of a week: its daily report (``<day>.md`` …) and its counts."""

    day: str  # YYYY-MM-DD: the daily report's file name
    commits: int
    counts: dict[str, int] = Field(default_factory=dict)  # importance -> commits
    missing: bool = False  # no daily report could be made for it (the repository failed)


class WeekCommit(_Frozen):
    """A commit of the week: its day (which daily report holds its section) and its entry
    there, analysis and radar items included."""

    day: str
    entry: CommitEntry
    # the daily report that holds its section, without extension: "2026-03-02", or
    # "inference/2026-03-02" when the day's reports are separate
    report: str = ""


class WeeklyRepository(_Frozen):
    name: str
    url: str | None = None
    anchor: str
    commits: list[WeekCommit]  # oldest day first, each day newest first (as the dailies)
    areas: list[tuple[str, int]] = Field(default_factory=list)  # busiest components, most first
    authors: list[tuple[str, int]] = Field(default_factory=list)  # most commits first
    overview: Overview | None = None  # the week's overview (one call per repository at most)


class WeeklyContext(_Frozen):
    """One ISO week's digest as data: what the weekly renderers read."""

    schema_version: int = 1
    kind: str = "weekly"
    generated_at: datetime
    lang: str
    week: str  # "2026-W09": the file name
    start: str  # its Monday, YYYY-MM-DD
    end: str  # its Sunday
    tz: str
    days: list[WeekDay]
    repositories: list[WeeklyRepository]
    usage: Usage | None = None  # the weekly overviews' calls (the dailies' are theirs)


# ---- an upgrade's report (commitdigest upgrade) ---------------------------------------


class RefInfo(_Frozen):
    """One end of an upgrade: the ref as given, the commit it points at, its commit date."""

    ref: str
    sha: str
    date: datetime


class ReleaseEntry(_Frozen):
    """A release of the range: its version, tag, date and what it announces."""

    version: str
    tag: str
    date: datetime
    breaking: list[ApiChange] = Field(default_factory=list)


class RangeCommit(_Frozen):
    sha: str
    title: str
    date: datetime
    importance: Importance


class UpgradeContext(_Frozen):
    """What moving from one version of a repository to another changes for the user's code
    (``commitdigest upgrade``): what the renderers read and the JSON holds."""

    schema_version: int = 1
    kind: str = "upgrade"
    generated_at: datetime
    lang: str
    repository: str
    from_: RefInfo = Field(alias="from")
    to: RefInfo
    verdict: str  # "affected" | "breaking" | "safe"
    changes: list[ApiChange] = Field(default_factory=list)
    releases: list[ReleaseEntry] = Field(default_factory=list)
    commits: list[RangeCommit] = Field(default_factory=list)
    unreadable: list[str] = Field(default_factory=list)  # files that could not be read

    model_config = ConfigDict(frozen=True, populate_by_name=True, defer_build=True)


# ---- what a user follows -------------------------------------------------------------


class Focus(_Frozen):
    """What matters most in a repository: commits that touch a path glob or name a keyword
    are raised one level of importance (:mod:`commitdigest.analysis.focus` matches them);
    ``emphasis`` is free text handed to the LLM prompt."""

    paths: tuple[str, ...] = ()  # globs, see analysis.focus.glob_to_regex
    keywords: tuple[str, ...] = ()  # see analysis.focus.keyword_hit
    emphasis: str | None = None

    @field_validator("paths", "keywords")
    @classmethod
    def _non_empty_items(cls, values: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        cleaned = [v.strip() for v in values]
        for i, value in enumerate(cleaned):
            if not (value.strip("/") if info.field_name == "paths" else value):
                raise ValueError(f"item {i} is empty")
        return tuple(dict.fromkeys(cleaned))

    @field_validator("emphasis")
    @classmethod
    def _strip(cls, value: str | None) -> str | None:
        return (value.strip() or None) if value is not None else None

    @property
    def is_set(self) -> bool:
        return bool(self.paths or self.keywords or self.emphasis)


class Subscription(_Frozen):
    """One followed repository, as every stage reads it: named on the command line (a
    name and a branch) or built by the config layer from a ``[[repositories]]`` entry
    (:meth:`commitdigest.config.Settings.subscriptions`: relative paths resolved).

    ``name`` is a local path, ``owner/repo`` or a repository URL; ``source`` ``None``
    means a path that exists is read with git and anything else from GitHub (or a mirror
    of another host).
    """

    name: str
    branch: str | None = None
    source: Literal["github", "git"] | None = None
    focus: Focus = Field(default_factory=Focus)
    # the user's own checkouts: the radar's items they use are listed first, with the
    # path and line of each use
    downstream: tuple[str, ...] = ()
    # with separate reports (run.reports), the repositories of one group share a report
    group: str | None = Field(None, min_length=1, max_length=64, pattern=r"^[\w][\w .-]*$")
    # the commit link of a host commitdigest does not know: "{sha}" (and "{host}", "{path}")
    # are filled in, e.g. "https://code.example/{path}/commits/{sha}"
    commit_url: str | None = None
