"""The weekly digest: one ISO week in one page, built from the daily reports.

For each day of the week the daily report's JSON context is read from the output folder;
a day without one (or with one for other repositories or another language) is made first
by the report pipeline, through the same cache (:func:`generate_reports`: no LLM call for
what is cached). The week is then put together from those contexts — every commit with
its day, its analysis and its radar items — with, per repository, the busiest areas, the
authors and one overview of the week (the LLM's, cached like a day's, or the rules'), and
written as ``YYYY-Www.md/.json/.html`` next to the dailies, whose sections it links to.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path

from commitdigest.analysis.classify import Area, classify_path, component_of
from commitdigest.analysis.overview import OverviewItem
from commitdigest.errors import CommitdigestError, UsageError
from commitdigest.models import (
    Importance,
    ReportContext,
    Subscription,
    Usage,
    WeekCommit,
    WeekDay,
    WeeklyContext,
    WeeklyRepository,
)
from commitdigest.pipeline.factory import AnalysisSetup, build_analysis, daily_overview
from commitdigest.pipeline.report import (
    Opener,
    ReportOptions,
    generate_reports,
    opened_as,
    parse_formats,
)
from commitdigest.progress import NoProgress, Progress
from commitdigest.render.folder import ReportsFolder
from commitdigest.sources.open import SourceRepository, open_local
from commitdigest.store import Store
from commitdigest.window import week_label, week_windows

AREAS_SHOWN = 6
AUTHORS_SHOWN = 8


@dataclass
class WeeklyOutcome:
    week: str
    paths: list[Path] = field(default_factory=list)
    commits: int = 0
    made_days: list[str] = field(default_factory=list)  # daily reports written first
    failures: dict[str, str] = field(default_factory=dict)  # repository -> reason
    context: WeeklyContext | None = None


async def generate_weekly(
    options: ReportOptions,
    monday: date,
    store: Store,
    *,
    progress: Progress | None = None,
    now: datetime | None = None,
    setup: AnalysisSetup | None = None,
    opener: Opener = open_local,
) -> WeeklyOutcome:
    """Write the weekly digest of the ISO week starting on ``monday`` (see the module)."""
    progress = progress or NoProgress()
    formats = parse_formats(options.formats)
    if not options.repositories:
        raise UsageError("name at least one repository")
    tz = options.windows[0].tz if options.windows else "UTC"
    windows = week_windows(monday, tz)
    label = week_label(monday)
    folder = ReportsFolder(options.out_dir).ensure()
    outcome = WeeklyOutcome(label)
    opener = _once(opener)  # the days made below open the same repositories again
    own_setup = setup is None
    setup = setup or build_analysis(options.analyser, options.llm)
    try:
        names = await _names(options, opener)
        contexts: dict[str, ReportContext] = {}
        missing = []
        for window in windows:
            day = window.day.isoformat()
            context = _usable(folder.read_day(day), names, options.lang) if names else None
            if context is None:
                missing.append(window)
            else:
                contexts[day] = context
        if missing:
            daily_formats = tuple(dict.fromkeys([*formats, "json"]))
            made = await generate_reports(
                dataclasses.replace(options, windows=missing, formats=daily_formats),
                store,
                progress=progress,
                now=now,
                setup=setup,
                opener=opener,
            )
            outcome.failures.update(made.failures)
            for result in made.days:
                if result.context is not None:
                    contexts[result.label] = result.context
                    outcome.made_days.append(result.label)
        week = await _week(
            windows[0].day,
            tz,
            contexts,
            options,
            setup,
            store,
            now or datetime.now(tz=windows[0].start.tzinfo),
        )
    finally:
        if own_setup:
            await setup.aclose()
    outcome.context = week
    outcome.commits = sum(len(r.commits) for r in week.repositories)
    for fmt in formats:
        outcome.paths.append(folder.write(label, fmt, render_weekly(week, fmt)))
    return outcome


def _once(opener: Opener) -> Opener:
    """``opener``, opening each repository once (a GitHub source costs a request)."""
    opened: dict[Subscription, SourceRepository] = {}

    async def open_once(subscription: Subscription) -> SourceRepository:
        if subscription not in opened:
            opened[subscription] = await opener(subscription)
        return opened[subscription]

    return open_once


async def _names(options: ReportOptions, opener: Opener) -> list[str] | None:
    """The names the daily reports give the repositories (as their sources name them);
    None when one cannot be opened (the report pipeline then says why)."""
    names = []
    for raw in options.repositories:
        try:
            names.append((await opener(opened_as(raw, options))).name)
        except CommitdigestError:
            return None
    return names


def _usable(context: ReportContext | None, names: Sequence[str], lang: str) -> ReportContext | None:
    """The daily ``context`` when it covers ``names`` in ``lang`` and every one of them
    could be read; else None (the day is made again)."""
    if context is None:
        return None
    have = {r.name: r for r in context.repositories}
    if context.lang != lang or any(n not in have or have[n].error for n in names):
        return None
    return context


async def _week(
    monday: date,
    tz: str,
    contexts: dict[str, ReportContext],
    options: ReportOptions,
    setup: AnalysisSetup,
    store: Store,
    generated_at: datetime,
) -> WeeklyContext:
    label = week_label(monday)
    days: list[WeekDay] = []
    by_repo: dict[str, list[WeekCommit]] = {}
    urls: dict[str, str | None] = {}
    anchors: dict[str, str] = {}
    for offset in range(7):
        day = (monday + timedelta(days=offset)).isoformat()
        context = contexts.get(day)
        if context is None:
            days.append(WeekDay(day=day, commits=0, missing=True))
            continue
        counts = {imp.value: 0 for imp in Importance}
        total = 0
        separate = ReportsFolder(options.out_dir).load_units(day)  # one report per unit
        folders = separate.folders if separate else {}
        for repo in context.repositories:
            urls.setdefault(repo.name, repo.url)
            anchors.setdefault(repo.name, repo.anchor)
            entries = by_repo.setdefault(repo.name, [])
            report = f"{folders[repo.name]}/{day}" if repo.name in folders else day
            for entry in repo.commits:
                entries.append(WeekCommit(day=day, entry=entry, report=report))
                counts[entry.analysis.importance.value] += 1
                total += 1
        days.append(WeekDay(day=day, commits=total, counts=counts))
    repositories: list[WeeklyRepository] = []
    usage: list[Usage] = []
    for name, commits in by_repo.items():
        overview = None
        if options.overview and commits:
            items = [
                OverviewItem.from_analysis(
                    c.entry.title, c.entry.short_sha, c.entry.analysis, c.entry.files
                )
                for c in commits
            ]
            overview = await daily_overview(
                setup, repository=name, day=label, items=items, lang=options.lang, store=store
            )
            if overview.usage is not None:
                usage.append(overview.usage)
        repositories.append(
            WeeklyRepository(
                name=name,
                url=urls.get(name),
                anchor=anchors[name],
                commits=commits,
                areas=_areas(commits),
                authors=Counter(c.entry.author for c in commits).most_common(AUTHORS_SHOWN),
                overview=overview,
            )
        )
    return WeeklyContext(
        generated_at=generated_at,
        lang=options.lang,
        week=label,
        start=monday.isoformat(),
        end=(monday + timedelta(days=6)).isoformat(),
        tz=tz,
        days=days,
        repositories=repositories,
        usage=_sum_usage(usage),
    )


def _areas(commits: Sequence[WeekCommit]) -> list[tuple[str, int]]:
    """The components most commits of the week touched (source code first: tests, docs
    and CI count only when a commit touched nothing else)."""
    counter: Counter[str] = Counter()
    for commit in commits:
        paths = [f.path for f in commit.entry.files]
        source = [p for p in paths if classify_path(p) is Area.SOURCE]
        counter.update({component_of(p) for p in (source or paths)})
    return counter.most_common(AREAS_SHOWN)


def _sum_usage(usages: Sequence[Usage]) -> Usage | None:
    if not usages:
        return None
    total = usages[0]
    for usage in usages[1:]:
        total = total + usage
    return total


def render_weekly(context: WeeklyContext, fmt: str) -> str:
    """``context`` in ``fmt``; each renderer is imported when its format is asked for."""
    from commitdigest.render.weekly import (
        render_weekly_html,
        render_weekly_json,
        render_weekly_markdown,
    )

    if fmt == "json":
        return render_weekly_json(context)

    if fmt == "html":
        return render_weekly_html(context)
    return render_weekly_markdown(context)
