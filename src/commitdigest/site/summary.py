"""What the archive's index, repository pages and feed need to know about one day.

A :class:`DaySummary` is made once from a report's context and kept in the site's
manifest, so a rebuild does not load every old report again. All text in it is plain
(cleaned of control characters); the pages escape it when they print it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime

from pydantic import BaseModel, ConfigDict

from commitdigest.models import CommitEntry, Importance, ReportContext, WeeklyContext
from commitdigest.render.chart import breaking_count
from commitdigest.render.headline import headline
from commitdigest.render.labels import get_labels
from commitdigest.text import clean_line, safe_url, slugify

TOP_LIMIT = 5  # top changes shown per day (and per repository and day)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Counts(_Frozen):
    high: int = 0
    medium: int = 0
    low: int = 0

    @property
    def total(self) -> int:
        return self.high + self.medium + self.low

    def of(self, importance: Importance | str) -> int:
        value: int = getattr(self, Importance(importance).value)
        return value


class Change(_Frozen):
    """One of a day's top changes: its title, its anchor in the report, its repository."""

    title: str
    anchor: str
    importance: Importance
    repo: str
    page: str = ""  # the report holding it, from the site's root; "": the day's page


class RepoDay(_Frozen):
    """One repository's part of one day's report."""

    name: str
    anchor: str
    url: str | None
    counts: Counts
    top: list[Change]
    more: int  # top-tier changes not listed in ``top``
    page: str = ""  # its report, from the site's root (separate reports); "": the day's
    breaking: int = 0  # its public breaking items and those a downstream uses (the chart)


class DaySummary(_Frozen):
    day: str  # YYYY-MM-DD, the report file's name
    lang: str
    title: str  # the report's own title, "每日更新报告（2026-01-13）"
    generated_at: datetime
    counts: Counts
    top: list[Change]
    more: int
    repos: list[RepoDay]
    breaking: list[str] = []  # the radar's breaking items (and those a downstream uses), plain

    @property
    def breaking_count(self) -> int:
        """The day's breaking items, however many lines show them (the same change of many
        classes' member is one line; a summary written before the repositories counted
        theirs has its lines)."""
        return max(sum(r.breaking for r in self.repos), len(self.breaking))


def summarise(
    day: str, context: ReportContext, folders: Mapping[str, str] | None = None
) -> DaySummary:
    """The summary of ``context`` (the report ``day``.json); ``folders``: each
    repository's unit folder when the day's reports are separate."""
    pages = {name: f"{unit}/{day}.html" for name, unit in (folders or {}).items()}
    labels = get_labels(context.lang)
    untitled = labels.s["untitled"]
    everything: list[tuple[str, CommitEntry]] = []
    repos: list[RepoDay] = []
    for repo in context.repositories:
        name = clean_line(repo.name) or repo.anchor
        pairs = [(name, commit) for commit in repo.commits]
        everything += pairs
        page = pages.get(repo.name, "")
        top, more = top_changes(pairs, untitled, pages={name: page})
        repos.append(
            RepoDay(
                name=name,
                anchor=repo.anchor,
                url=safe_url(repo.url),
                counts=count(commit for _, commit in pairs),
                top=top,
                more=more,
                page=page,
                breaking=breaking_count(repo.commits),
            )
        )
    by_name = {r.name: r.page for r in repos}
    top, more = top_changes(everything, untitled, pages=by_name)
    found = [  # each repository's own (a release of one repeats no other's entries)
        headline([c for name, c in everything if name == repo.name], lambda c: c.api_changes)
        for repo in repos
    ]
    breaking = [
        f"{labels.radar_text(item)} ({commit.short_sha})"
        for commit, item in [p for f in found for p in f.affecting]
        + [p for f in found for p in f.breaking]
    ]
    generated = context.generated_at
    if generated.tzinfo is None:
        generated = generated.replace(tzinfo=UTC)
    return DaySummary(
        day=day,
        lang=context.lang,
        title=labels.report_title(day),
        generated_at=generated,
        counts=count(commit for _, commit in everything),
        top=top,
        more=more,
        repos=repos,
        breaking=breaking,
    )


def count(commits: Iterable[CommitEntry]) -> Counts:
    tally = dict.fromkeys(Importance, 0)
    for commit in commits:
        tally[commit.analysis.importance] += 1
    return Counts(
        high=tally[Importance.HIGH], medium=tally[Importance.MEDIUM], low=tally[Importance.LOW]
    )


def top_changes(
    commits: Sequence[tuple[str, CommitEntry]],
    untitled: str,
    limit: int = TOP_LIMIT,
    pages: Mapping[str, str] | None = None,
) -> tuple[list[Change], int]:
    """The high-importance changes, else the medium ones: the first ``limit`` (in the
    report's order) and how many more of that importance there are."""
    for importance in (Importance.HIGH, Importance.MEDIUM):
        picked = [(repo, c) for repo, c in commits if c.analysis.importance == importance]
        if picked:
            shown = [
                Change(
                    title=clean_line(c.title) or untitled,
                    anchor=c.anchor,
                    importance=importance,
                    repo=repo,
                    page=(pages or {}).get(repo, ""),
                )
                for repo, c in picked[:limit]
            ]
            return shown, len(picked) - len(shown)
    return [], 0


def repo_slug(name: str) -> str:
    """The file name (without ``.html``) of a repository's page: readable, stable from
    build to build, and distinct for distinct names (``vllm-project-vllm-1a2b3c``)."""
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:6]
    return f"{slugify(name)[:60].strip('-') or 'repo'}-{digest}"


class WeekSummary(_Frozen):
    """What the index and the feed say of one weekly digest."""

    week: str  # YYYY-Www, the digest's file name
    lang: str
    start: str
    end: str
    generated_at: datetime
    repos: list[str]
    counts: Counts


def summarise_week(context: WeeklyContext) -> WeekSummary:
    commits = [c.entry for repo in context.repositories for c in repo.commits]
    return WeekSummary(
        week=context.week,
        lang=context.lang,
        start=context.start,
        end=context.end,
        generated_at=context.generated_at,
        repos=[clean_line(r.name) for r in context.repositories],
        counts=count(commits),
    )
