"""The report pipeline: sources -> analysis -> store -> render -> deliver (files).

Reads each repository once for the whole range, splits the commits into day windows,
analyses every commit (cache first, concurrently), adds each repository's daily overview,
and renders each day and writes its files as soon as every commit of that day is analysed.
"""

from __future__ import annotations

import asyncio
import bisect
import concurrent.futures
import contextlib
import dataclasses
import itertools
import threading
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from commitdigest.analysis.automation import automation_importance, is_automated
from commitdigest.analysis.focus import apply_focus
from commitdigest.analysis.overview import OverviewItem
from commitdigest.analysis.radar.models import ApiChange
from commitdigest.config import LLMSettings, Settings
from commitdigest.errors import CommitdigestError, LLMError, OutputError, SourceError, UsageError
from commitdigest.files import ensure_writable_dir, write_text_atomic
from commitdigest.i18n import LANGS
from commitdigest.models import (
    Analysis,
    Commit,
    Importance,
    Overview,
    ReportContext,
    Subscription,
)
from commitdigest.pipeline.factory import AnalysisSetup, build_analysis, daily_overview
from commitdigest.pipeline.runner import AnalysisHints, AnalysisTally, analyse_commits
from commitdigest.progress import NoProgress, Progress
from commitdigest.render.context import RepositoryInput, build_context
from commitdigest.render.folder import ReportsFolder
from commitdigest.render.json_output import load_context, render_json
from commitdigest.sources.git import PatchLimits
from commitdigest.sources.open import LocalGitRepository, SourceRepository, open_local
from commitdigest.sources.window_plan import window_base
from commitdigest.store import Store
from commitdigest.text import slugify
from commitdigest.window import DayWindow

if TYPE_CHECKING:  # the radar's modules are imported when it runs (not on a re-run)
    from commitdigest.pipeline.radar_scan import RadarStream

FORMATS: tuple[str, ...] = ("md", "json", "html")
EARLY_BATCH = 64  # commits analysed together while the read goes on
READY_BATCH = 8  # and after it, as the radar's workers find their items

Opener = Callable[[Subscription], Awaitable[SourceRepository]]


@dataclass(frozen=True)
class ReportOptions:
    repositories: Sequence[Subscription | str]
    windows: Sequence[DayWindow]
    branch: str | None = None  # for repositories named by a plain string
    lang: str = "zh"
    formats: Sequence[str] = ("md",)
    out_dir: Path = Path("reports")
    limits: PatchLimits = field(default_factory=PatchLimits)
    analyser: str = "rules"
    llm: LLMSettings | None = None
    overview: bool = True
    keep_going: bool = False  # a repository that fails is reported, the others go on
    radar: bool = True  # the breaking-change radar (local git repositories); --no-radar
    downstream: Sequence[Path] = ()  # the user's checkouts: radar items they use (--downstream)
    bots: Sequence[str] = ()  # automation accounts beyond the usual ones (analysis.bots)
    command: str = "report"
    # one report per repository (or per Subscription.group) in its own folder, and an index of
    # the day; else one combined report a day
    separate: bool = False
    read_concurrency: int = 8  # repositories read at the same time
    # --last N: only each repository's newest N commits along first parents (the window is
    # their span, so it holds them all; a commit of a skewed clock in it is not one of them)
    last: int | None = None

    @classmethod
    def from_settings(
        cls,
        settings: Settings,
        *,
        repositories: Sequence[Subscription | str],
        windows: Sequence[DayWindow],
        **overrides: Any,
    ) -> ReportOptions:
        """The options the config file gives; ``overrides`` (e.g. command-line options) win."""
        values: dict[str, Any] = {
            "lang": settings.report_language(),  # the config, else the locale
            "formats": settings.formats,
            "out_dir": settings.output_dir,
            "limits": PatchLimits(
                settings.git.max_patch_bytes_per_file, settings.git.max_patch_bytes_per_commit
            ),
            "analyser": settings.analysis.analyser,
            "llm": settings.llm,
            "overview": settings.analysis.overview,
            "bots": tuple(settings.analysis.bots),
            "read_concurrency": settings.run.read_concurrency,
        }
        values.update(overrides)
        return cls(repositories=repositories, windows=windows, **values)


@dataclass(frozen=True)
class DayResult:
    label: str
    commits: int
    importance: dict[str, int]
    paths: list[Path]
    context: ReportContext | None = None  # what was rendered (delivery sends it)
    kept: list[Path] = field(default_factory=list)  # earlier reports a worse one left alone
    kept_reason: str = ""  # why the earlier report is better
    kept_code: int = 0  # the exit code that says the run was partial (3 or 8)


@dataclass
class ReportOutcome:
    days: list[DayResult] = field(default_factory=list)
    analysed: int = 0  # analyses computed in this run
    cached: int = 0  # analyses taken from the store
    fallback: int = 0  # commits the LLM failed on (rules stood in)
    failures: dict[str, str] = field(default_factory=dict)  # repository -> reason
    timings: dict[str, float] = field(default_factory=dict)
    # why the run is degraded (more than llm.max_fallback_share of its analyses fell back),
    # one line naming the endpoint; None when it is not. The CLI exits 8 on it.
    degraded: str | None = None
    llm: dict[str, Any] = field(default_factory=dict)  # what the LLM did (the run record)

    @property
    def paths(self) -> list[Path]:
        return [p for day in self.days for p in day.paths]

    @property
    def kept(self) -> list[Path]:
        return [p for day in self.days for p in day.kept]

    @property
    def kept_reasons(self) -> dict[Path, str]:
        return {p: day.kept_reason for day in self.days for p in day.kept}

    @property
    def partial_code(self) -> int:
        """The exit code of a run that kept an earlier report (0 when none was kept): 3 for
        a repository or commits missing, 8 for more LLM fallbacks."""
        return max((day.kept_code for day in self.days if day.kept), default=0)


def parse_formats(value: str | Sequence[str]) -> tuple[str, ...]:
    items = value.split(",") if isinstance(value, str) else list(value)
    formats = tuple(dict.fromkeys(item.strip().lower() for item in items if item.strip()))
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or not formats:
        raise UsageError(
            f"unknown format {', '.join(unknown) or '(none)'}: choose from {', '.join(FORMATS)}"
        )
    return formats


def check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise UsageError(f"unknown language {lang!r}: choose from {', '.join(LANGS)}")
    return lang


async def generate_reports(
    options: ReportOptions,
    store: Store,
    *,
    progress: Progress | None = None,
    now: datetime | None = None,
    setup: AnalysisSetup | None = None,
    opener: Opener = open_local,
) -> ReportOutcome:
    """Write one report per day window; return what was written and what it cost."""
    progress = progress or NoProgress()
    check_lang(options.lang)
    formats = parse_formats(options.formats)
    if not options.windows:
        raise UsageError("the window is empty")
    if not options.repositories:
        raise UsageError("name at least one repository")
    ensure_writable_dir(options.out_dir)
    own_setup = setup is None
    setup = setup or build_analysis(options.analyser, options.llm)
    run = ReportRun(options, store, setup, progress)
    outcome = run.outcome
    start, end = options.windows[0].start, options.windows[-1].end
    run_id = store.start_run(
        command=options.command,
        window_start=start,
        window_end=end,
        tz=options.windows[0].tz,
        repositories=[subscription_of(r).name for r in options.repositories],
    )
    try:
        await run.open(opener)
        await run.read()
        generated_at = now or datetime.now(tz=options.windows[0].start.tzinfo)

        def write(window: DayWindow, inputs: list[RepositoryInput]) -> DayResult:
            inputs = inputs + [  # a repository that could not be read says so in the report
                RepositoryInput(
                    name=name, url=None, branch=None, commits=[], analyses={}, error=reason
                )
                for name, reason in outcome.failures.items()
            ]
            if options.separate:
                return _write_units(
                    window, inputs, options, formats, generated_at, run.subscriptions
                )
            return _write_day(window, inputs, options, formats, generated_at)

        await run.finish(write)
    except BaseException as exc:  # (with the days written before the failure, if any)
        store.finish_run(
            run_id,
            status="failed",
            commits=sum(d.commits for d in outcome.days),
            error=str(exc)[:500],
            timings=outcome.timings,
            outputs=[str(p) for p in outcome.paths],
        )
        raise
    finally:
        await run.close()
        if own_setup:
            await setup.aclose()
        from commitdigest.pipeline.radar_scan import discard

        discard()  # a worker process started for a long window that none took
    if setup.llm is not None:  # what the LLM did, the overviews included
        outcome.llm = setup.record(outcome.analysed, outcome.fallback)
    if outcome.failures:
        status = "failed" if not outcome.days else "partial"
    else:
        status = "degraded" if outcome.degraded else "ok"
    errors = [f"{k}: {v}" for k, v in outcome.failures.items()]
    store.finish_run(
        run_id,
        status=status,
        commits=sum(d.commits for d in outcome.days),
        analysed=outcome.analysed,
        cached=outcome.cached,
        timings=outcome.timings,
        outputs=[str(p) for p in outcome.paths],
        error="; ".join(errors + ([outcome.degraded] if outcome.degraded else [])) or None,
        llm=outcome.llm,
    )
    return outcome


def subscription_of(raw: Subscription | str) -> Subscription:
    """A repository named by a plain string is a subscription of that name."""
    return raw if isinstance(raw, Subscription) else Subscription(name=raw)


def opened_as(raw: Subscription | str, options: ReportOptions) -> Subscription:
    """The repository as the run opens it: ``options.branch`` for one that names none."""
    subscription = subscription_of(raw)
    if subscription.branch is None and options.branch is not None:
        subscription = subscription.model_copy(update={"branch": options.branch})
    return subscription


RadarFacts = dict[tuple[str, str], list[ApiChange]]
"""The radar's items by ``(repository, sha)``: every commit of a repository it scanned."""
WriteDay = Callable[[DayWindow, list[RepositoryInput]], DayResult]
"""Writes one day's report from what each repository shows of it."""


@dataclass
class ReportRun:
    """One report run's state, filled step by step — :meth:`open`, :meth:`read`, then
    :meth:`finish`: :meth:`scan_radar` and :meth:`analyse`, and :meth:`day_inputs` for each
    day as soon as its commits are analysed — each step reading what the earlier ones left
    and adding its own; failures, counts and timings go to :attr:`outcome`."""

    options: ReportOptions
    store: Store
    setup: AnalysisSetup
    progress: Progress
    outcome: ReportOutcome = field(default_factory=ReportOutcome)
    repos: list[SourceRepository] = field(default_factory=list)  # opened, once each
    commits: list[list[Commit]] = field(default_factory=list)  # each repository's, in order
    # each opened repository's subscription, by the name its source gives it
    subscriptions: dict[str, Subscription] = field(default_factory=dict)
    # the radar's items as they are found (None with --no-radar): each commit's, once its
    # worker answered or the radar's step found it
    radar: RadarFacts | None = None
    # (repo, sha) -> its analysis, the subscription's focus applied: each commit's once
    # analysed, its radar items among the facts
    analyses: dict[tuple[str, str], Analysis] = field(default_factory=dict)
    # work started while the commits were still being read, by repository (its identity):
    # its radar, and the analyses started before the read or the radar was over
    _streams: dict[str, RadarStream] = field(default_factory=dict)
    _early: list[tuple[str, asyncio.Task[AnalysisTally]]] = field(default_factory=list)
    _reading: bool = False  # the read is on (the radar's answers are analysed in big batches)
    _all_analysed: bool = False  # the radar and the analysis are over
    _settled: asyncio.Event = field(default_factory=asyncio.Event)  # more commits analysed
    # commits sent to the radar's workers, until their items come back; then those whose
    # items came back, until a batch of them is analysed
    _awaiting: dict[tuple[str, str], Commit] = field(default_factory=dict)  # (identity, sha)
    _ready: dict[str, dict[str, tuple[Commit, list[ApiChange]]]] = field(default_factory=dict)
    _days: dict[str, dict[DayWindow, list[Commit]]] = field(default_factory=dict)  # _of_day

    def limits(self, repo: SourceRepository) -> PatchLimits:
        """The patch budget of ``repo``'s read; with the radar (a local repository's), the
        files it reads keep a cut patch whole too (``FileChange.whole_patch``): a version of
        a module is then made from its neighbour and the diff, not read from git whole and
        split again (vllm-ascend's 12 weeks: 500 cut patches of modules, 7.8 MB, whose two
        versions were 30 MB of blobs)."""
        if not self.options.radar or not isinstance(repo, LocalGitRepository):
            return self.options.limits
        return dataclasses.replace(self.options.limits, whole=_radar_reads)

    async def open(self, opener: Opener) -> None:
        """Open every repository once (the same one named twice is read once)."""
        seen: set[str] = set()
        for raw in self.options.repositories:
            subscription = opened_as(raw, self.options)
            try:
                repo = await opener(subscription)
            except CommitdigestError as exc:
                if not self.options.keep_going:
                    raise
                self.outcome.failures[subscription.name] = exc.message
                continue
            if repo.identity not in seen:
                seen.add(repo.identity)
                self.repos.append(repo)
                self.subscriptions[repo.name] = subscription

    async def read(self) -> None:
        """Read the window's commits of every repository, ``read_concurrency`` at a time;
        one that fails is dropped with its reason (``keep_going``).

        A local repository is read as git writes it, and each commit goes on at once to the
        radar's workers, or to the analysis when no radar facts are awaited for it: that
        work runs beside ``git log`` instead of after it."""
        options, progress = self.options, self.progress
        clock = time.perf_counter()
        start, end = options.windows[0].start, options.windows[-1].end
        progress.start("read", len(self.repos))
        if options.radar:
            self.radar = {}
        self._reading = True

        limit = asyncio.Semaphore(options.read_concurrency)

        async def one(repo: SourceRepository) -> list[Commit] | CommitdigestError:
            try:
                async with limit:
                    commits = await self._read_one(repo, start, end)
                if options.last is not None:  # newest first, along first parents
                    commits = commits[: options.last]
            except CommitdigestError as exc:
                if not options.keep_going:
                    raise
                return exc
            finally:
                progress.advance("read")
            return commits

        tasks = [asyncio.ensure_future(one(r)) for r in self.repos]
        try:
            results = await asyncio.gather(*tasks)
        except BaseException:  # one failed (or the run was stopped): the others stop too
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise
        finally:
            self._reading = False
        for repo, result in zip(list(self.repos), results, strict=True):
            if isinstance(result, CommitdigestError):
                self.outcome.failures[repo.name] = result.message
                self.repos.remove(repo)
                await self._stop(repo.identity)  # (nothing reads what it made: not in repos)
            else:
                self.commits.append(result)
        self.outcome.timings["read_s"] = round(time.perf_counter() - clock, 3)

    async def _read_one(
        self, repo: SourceRepository, start: datetime, end: datetime
    ) -> list[Commit]:
        options = self.options
        if not isinstance(repo, LocalGitRepository) or options.last is not None:
            return await repo.read_commits(start, end, limits=self.limits(repo))
        # the radar's workers are planned beside the read (the plan lists the window with a
        # quick git log of its own: git's read of the diffs need not wait for it); the commits
        # read before they are there go to them then
        planned = self._plan_radar(repo, start, end) if options.radar else None
        radar: RadarStream | None = None
        early = not options.radar  # the analysis needs no radar facts: start it now
        commits: list[Commit] = []
        batch: list[Commit] = []
        fed = 0  # the commits handed to the radar
        try:
            async for commit in repo.stream_commits(start, end, limits=self.limits(repo)):
                commits.append(commit)
                if planned is not None and planned.done():
                    radar, planned = planned.result(), None
                if radar is not None:
                    fed = self._to_radar(repo, radar, commits, fed)
                elif early:
                    batch.append(commit)
                    if len(batch) >= EARLY_BATCH:
                        self._analyse_early(repo, batch)
                        batch = []
            if planned is not None:
                radar, planned = await asyncio.wrap_future(planned), None
        finally:
            if planned is not None:  # the read failed: the plan ends (a stream it made is
                # in _streams, where the failure stops it)
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.wrap_future(planned)  # (the read's own error is raised)
        if batch:
            self._analyse_early(repo, batch)
        if radar is not None:
            self._to_radar(repo, radar, commits, fed)
            radar.close()  # its workers end once they have scanned what they took
        return commits

    def _to_radar(
        self, repo: SourceRepository, radar: RadarStream, commits: list[Commit], fed: int
    ) -> int:
        """Hand ``commits[fed:]`` to the radar's workers; how many were handed in all."""
        from commitdigest.analysis.radar.commit import CommitInput

        for commit in commits[fed:]:
            self._awaiting[(repo.identity, commit.sha)] = commit
            radar.add(CommitInput.from_commit(commit))
        return len(commits)

    def _plan_radar(
        self, repo: LocalGitRepository, start: datetime, end: datetime
    ) -> concurrent.futures.Future[RadarStream | None]:
        """:meth:`_radar_stream` on a thread of its own, its answer a future the read looks
        at after each commit. Not a task of the event loop: the read holds the loop while
        git is ahead of it, and the plan's listing, done in 0.2 s, was taken up by the loop
        0.3-1.8 s later (vllm-ascend's 12 weeks), the worker process idle meanwhile."""
        loop = asyncio.get_running_loop()
        planned: concurrent.futures.Future[RadarStream | None] = concurrent.futures.Future()

        def plan() -> None:
            try:
                planned.set_result(self._radar_stream(repo, start, end, loop))
            except BaseException as exc:  # (raised where the read takes the answer)
                planned.set_exception(exc)

        threading.Thread(target=plan, name="radar-plan", daemon=True).start()
        return planned

    def _radar_stream(
        self,
        repo: LocalGitRepository,
        start: datetime,
        end: datetime,
        loop: asyncio.AbstractEventLoop,
    ) -> RadarStream | None:
        """The radar's workers for the repository's window (processes, or a thread of this
        one for a short window), started before it is read; None when the store has every
        commit's items, or some of a short window's (then :meth:`scan_radar` reads them and
        scans the others after the read). On the plan's thread; ``loop`` is the run's."""
        from commitdigest.analysis.radar.models import cache_key
        from commitdigest.pipeline.radar_scan import RadarStream, discard, workers_for

        listed = repo.window_commits(start, end)
        if not workers_for(len(listed)):
            discard()  # a short window: no worker process (one was started, just in case)
        if not listed:
            return None
        base = window_base(listed)
        cached = self.store.count_radar(cache_key(sha, base) for sha, _ in listed)
        if cached == len(listed) or (cached and not workers_for(len(listed))):
            discard()
            return None  # a re-run: the items are read from the store once, after the read
            # (an entry of an older radar counts here and is scanned then, in this process)

        def on_items(sha: str, items: list[ApiChange]) -> None:  # on the stream's thread
            with contextlib.suppress(RuntimeError):  # the loop is closed: the run is over
                loop.call_soon_threadsafe(self._radar_found, repo, sha, items)

        stream = RadarStream(repo.info.root, base, len(listed), on_items)
        self._streams[repo.identity] = stream
        return stream

    def _radar_found(self, repo: SourceRepository, sha: str, items: list[ApiChange]) -> None:
        """A worker found a commit's radar items: its analysis can start (in batches; small
        ones once the read is over, so the days they complete are written while the workers
        scan the rest)."""
        commit = self._awaiting.pop((repo.identity, sha), None)
        if commit is None:  # its repository failed, or the run is over
            return
        if self.radar is not None:
            self.radar[(repo.name, sha)] = items
        ready = self._ready.setdefault(repo.identity, {})
        ready[sha] = (commit, items)
        if len(ready) >= (EARLY_BATCH if self._reading else READY_BATCH):
            self._analyse_ready(repo)

    def _analyse_ready(self, repo: SourceRepository) -> None:
        ready = self._ready.pop(repo.identity, {})
        if ready:
            facts = {(repo.name, sha): items for sha, (_, items) in ready.items()}
            self._analyse_early(repo, [c for c, _ in ready.values()], facts)

    def _analyse_early(
        self, repo: SourceRepository, commits: list[Commit], facts: RadarFacts | None = None
    ) -> None:
        """Analyse ``commits`` of ``repo`` (with their radar ``facts``, if the radar runs)
        while the read or the radar goes on."""
        work = [(repo.name, c) for c in commits]
        task = asyncio.ensure_future(self._settle(work, facts=facts))
        self._early.append((repo.identity, task))

    async def _drop(self, repo: SourceRepository, commits: Sequence[Commit]) -> None:
        """Stop the radar and the analyses started for a repository whose radar scanned
        another window than the read's, and forget what they said of its ``commits`` (a
        repository of the same name with the same commits makes them again: the keys are
        by name and SHA)."""
        await self._stop(repo.identity)
        keys = {(repo.name, c.sha) for c in commits}
        self.analyses = {k: a for k, a in self.analyses.items() if k not in keys}
        if self.radar is not None:
            self.radar = {k: i for k, i in self.radar.items() if k not in keys}

    async def _stop(self, identity: str) -> None:
        """Stop the work started for a repository (its identity) that nothing awaited."""
        stream = self._streams.pop(identity, None)
        if stream is not None:
            stream.abort()
        self._awaiting = {k: c for k, c in self._awaiting.items() if k[0] != identity}
        self._ready.pop(identity, None)
        dropped = [task for who, task in self._early if who == identity]
        self._early = [(who, task) for who, task in self._early if who != identity]
        for task in dropped:
            task.cancel()
        await asyncio.gather(*dropped, return_exceptions=True)

    async def _analyse(
        self,
        work: Sequence[tuple[str, Commit]],
        on_done: Callable[[int], None] = lambda n: None,
        *,
        facts: RadarFacts | None,
    ) -> tuple[dict[tuple[str, str], Analysis], AnalysisTally]:
        emphasis = {name: s.focus.emphasis for name, s in self.subscriptions.items()}
        return await analyse_commits(
            self.setup.analyser,
            work,
            lang=self.options.lang,
            store=self.store,
            hints=AnalysisHints(
                emphasis={name: text for name, text in emphasis.items() if text}, facts=facts
            ),
            on_done=on_done,
            grounding=self.setup.llm is None or self.setup.llm.grounding != "off",
        )

    async def _settle(
        self,
        work: Sequence[tuple[str, Commit]],
        on_done: Callable[[int], None] = lambda n: None,
        *,
        facts: RadarFacts | None,
    ) -> AnalysisTally:
        """Analyse ``work`` and keep each analysis with its subscription's focus raised
        (after the cache: changing the focus needs no re-analysis); the days waiting for
        them are told."""
        done, tally = await self._analyse(work, on_done, facts=facts)
        lang = self.options.lang
        for name, commit in work:
            subscription = self.subscriptions.get(name)
            focus = subscription.focus if subscription is not None else None
            key = (name, commit.sha)
            self.analyses[key] = apply_focus(done[key], commit, focus, lang)
        self._settled.set()
        return tally

    async def close(self) -> None:
        """Stop what the read started and nothing awaited (the run failed)."""
        for identity in {*self._streams, *(who for who, _ in self._early)}:
            await self._stop(identity)

    async def finish(self, write: WriteDay) -> None:
        """The radar's items and every analysis (:meth:`scan_radar`, :meth:`analyse`), and
        each day's report written by ``write`` as soon as every commit of that day is
        analysed: while the radar's workers scan the last commits of a long window (this
        process idle meanwhile, and its days a quarter second of its time) or an LLM analyses
        the last ones, not after. None is written when every repository failed (rather than
        replace good reports); a failure of either stops the other."""
        await self._drop_skewed()
        # (its bar above the days': the analysis comes first as the reader sees the work)
        self.progress.start("analyse", sum(len(commits) for commits in self.commits))
        if not self.repos:
            await self._scan_and_analyse()
            return
        work = asyncio.ensure_future(self._scan_and_analyse())
        writer = asyncio.ensure_future(self._write_days(write))
        try:
            done, _ = await asyncio.wait((work, writer), return_when=asyncio.FIRST_EXCEPTION)
            for task in done:
                task.result()  # (the first failure, raised)
        finally:
            for task in (work, writer):
                task.cancel()
            await asyncio.gather(work, writer, return_exceptions=True)

    async def _scan_and_analyse(self) -> None:
        await self.scan_radar()
        await self.analyse()
        self._all_analysed = True  # (every day is ready now, whatever it holds)
        self._settled.set()

    async def _drop_skewed(self) -> None:
        """Drop the radar stream of a repository whose window the read found starting
        elsewhere than the one listed (a skewed clock): its items and the analyses made with
        them go, before any day is written with them (:meth:`scan_radar` scans it again)."""
        for repo, commits in zip(self.repos, self.commits, strict=True):
            stream = self._streams.get(repo.identity)
            if stream is not None and stream.base != _base_of(commits):
                await self._drop(repo, commits)

    async def _write_days(self, write: WriteDay) -> None:
        """Write each day once every commit of it is analysed, in the order they are ready;
        :attr:`outcome`'s days are those written so far, in the windows' order (a run that
        fails later keeps them: each is a whole report of its day)."""
        windows = self.options.windows
        self.progress.start("render", len(windows))
        written: dict[int, DayResult] = {}  # by the window's index (a day named twice: twice)
        took = 0.0  # the time spent writing (beside the radar and the analysis)
        try:
            while len(written) < len(windows):
                self._settled.clear()  # (cleared before it looks: no analysis is missed)
                ready = [
                    k for k, w in enumerate(windows) if k not in written and self._day_ready(w)
                ]
                if not ready:
                    await self._settled.wait()
                    continue
                for k in ready:
                    clock = time.perf_counter()
                    written[k] = write(windows[k], await self.day_inputs(windows[k]))
                    took += time.perf_counter() - clock
                    self.progress.advance("render")
        finally:  # (stopped by a failure too: what was written stands)
            self.outcome.days = [written[k] for k in sorted(written)]
        self.outcome.timings["render_s"] = round(took, 3)

    def _day_ready(self, window: DayWindow) -> bool:
        """Whether every commit of ``window`` is analysed, and has its radar items where
        the radar scans its repository (or everything is analysed)."""
        if self._all_analysed:
            return True
        analysed = self.analyses
        for repo, commits in zip(self.repos, self.commits, strict=True):
            found = self.radar if _clone_of(repo) is not None else None
            for c in self._day_commits(window, repo, commits):
                key = (repo.name, c.sha)
                if key not in analysed or (found is not None and key not in found):
                    return False
        return True

    async def scan_radar(self) -> None:
        """The radar's facts for every commit of the local repositories, before the analysis
        (the analysers take them as facts); none with ``--no-radar``."""
        if self.radar is None:
            return
        clock = time.perf_counter()
        for repo, commits in zip(self.repos, self.commits, strict=True):
            stream = self._streams.get(repo.identity)
            found: dict[str, list[ApiChange]] | None
            if stream is not None:  # (one that scanned another window was dropped)
                # kept in _streams until it is done: a failure here is stopped by close()
                found = await _finish_radar(stream, commits, self.store)
                del self._streams[repo.identity]
            else:
                found = await _radar(repo, commits, self.store)
            if found is not None:
                self.radar.update({(repo.name, c.sha): found.get(c.sha, []) for c in commits})
            if stream is not None:
                self._analyse_ready(repo)  # the last of its commits found
        self.outcome.timings["radar_s"] = round(time.perf_counter() - clock, 3)

    async def analyse(self) -> None:
        """Analyse every commit (cache first), each with its subscription's focus raised."""
        setup, outcome = self.setup, self.outcome
        clock = time.perf_counter()
        pairs = zip(self.repos, self.commits, strict=True)
        work = [(r.name, c) for r, commits in pairs for c in commits]
        tally = AnalysisTally()
        early = [task for _, task in self._early]  # started during the read or the radar
        for part in await asyncio.gather(*early):  # on a failure close() stops the rest
            tally.add(part)
        self._early.clear()
        self.progress.advance("analyse", len(self.analyses))
        rest = [(name, c) for name, c in work if (name, c.sha) not in self.analyses]
        advance = self.progress.advance
        tally.add(await self._settle(rest, lambda n: advance("analyse", n), facts=self.radar))
        outcome.analysed, outcome.cached = tally.made, tally.cached
        outcome.fallback = tally.fallback
        if setup.llm is not None:
            outcome.degraded = setup.degraded(tally.made, tally.fallback)
        outcome.timings["analyse_s"] = round(time.perf_counter() - clock, 3)

    def _of_day(
        self, repo: SourceRepository, commits: list[Commit]
    ) -> dict[DayWindow, list[Commit]]:
        """A repository's commits by their day window (grouped once)."""
        found = self._days.get(repo.identity)
        if found is None:
            found = self._days[repo.identity] = _by_day(commits, self.options.windows)
        return found

    def _day_commits(
        self, window: DayWindow, repo: SourceRepository, commits: list[Commit]
    ) -> list[Commit]:
        """A repository's commits of ``window``."""
        by_day = self._of_day(repo, commits)
        if window in by_day:
            return by_day[window]
        return [c for c in commits if window.start <= c.committed_at < window.end]

    async def day_inputs(self, window: DayWindow) -> list[RepositoryInput]:
        """What the day's report shows of each repository: its commits of ``window`` with
        their analyses (raised by the radar and the automation rules) and radar items, and
        the day's overview."""
        return list(
            await asyncio.gather(
                *(
                    self._day_input(window, r, c)
                    for r, c in zip(self.repos, self.commits, strict=True)
                )
            )
        )

    async def _day_input(
        self, window: DayWindow, repo: SourceRepository, commits: list[Commit]
    ) -> RepositoryInput:
        options = self.options
        day_commits = self._day_commits(window, repo, commits)
        facts = self.radar or {}
        radar = {c.sha: found for c in day_commits if (found := facts.get((repo.name, c.sha)))}
        subscription = self.subscriptions.get(repo.name)
        own = subscription.downstream if subscription is not None else ()
        downstream = [*options.downstream, *(Path(p) for p in own)]
        if downstream and any(radar.values()):
            radar = await asyncio.to_thread(_affects, radar, downstream)
        automated = frozenset(c.sha for c in day_commits if is_automated(c, options.bots))
        by_sha = {}
        for c in day_commits:
            analysis = at_least_high(self.analyses[(repo.name, c.sha)], radar.get(c.sha, []))
            if c.sha in automated:
                analysis = automation_importance(analysis, c, radar.get(c.sha, []), options.lang)
            by_sha[c.sha] = analysis
        overview: Overview | None = None
        if options.overview and day_commits:
            items = [
                OverviewItem.from_analysis(c.title, c.sha[:7], by_sha[c.sha], c.files)
                for c in day_commits
            ]
            overview = await daily_overview(
                self.setup,
                repository=repo.name,
                day=window.info().label,
                items=items,
                lang=options.lang,
                store=self.store,
            )
        return RepositoryInput(
            name=repo.name,
            url=repo.web_url,
            branch=repo.branch,
            commits=day_commits,
            analyses=by_sha,
            overview=overview,
            api_changes=radar,
            automated=automated,
        )


def _radar_reads(path: str) -> bool:
    """Whether some kind of the radar reads ``path`` (whatever its diff says)."""
    from commitdigest.analysis.radar.reads import read_at_all

    return read_at_all(path)


def _by_day(
    commits: Sequence[Commit], windows: Sequence[DayWindow]
) -> dict[DayWindow, list[Commit]]:
    """``commits`` by the window that holds each (in their order)."""
    out: dict[DayWindow, list[Commit]] = {w: [] for w in windows}
    if any(a.end > b.start for a, b in itertools.pairwise(windows)):  # not in order: the slow way
        for w in windows:
            out[w] = [c for c in commits if w.start <= c.committed_at < w.end]
        return out
    starts = [w.start.timestamp() for w in windows]
    for c in commits:
        i = bisect.bisect_right(starts, c.committed_at.timestamp()) - 1
        if i >= 0 and c.committed_at < windows[i].end:
            out[windows[i]].append(c)
    return out


def at_least_high(analysis: Analysis, items: Sequence[ApiChange]) -> Analysis:
    """A commit with a public breaking radar item (or one a downstream checkout uses) is at
    least of high importance; internal removals alone are not."""
    breaking = [i for i in items if i.breaking and (i.public or i.affects)]
    if not breaking or analysis.importance is Importance.HIGH:
        return analysis
    note = f"radar: {len(breaking)} breaking change(s), e.g. {breaking[0].name}"
    return analysis.model_copy(
        update={"importance": Importance.HIGH, "notes": [*analysis.notes, note]}
    )


def _affects(
    radar: dict[str, list[ApiChange]], downstream: Sequence[Path]
) -> dict[str, list[ApiChange]]:
    """The radar's items with the downstream checkouts' uses of them."""
    from commitdigest.analysis.radar.downstream import attach_affects, scan_downstream

    items = [item for found in radar.values() for item in found]
    return attach_affects(radar, scan_downstream(downstream, items))


def _clone_of(repo: SourceRepository) -> Path | None:
    """The local clone the radar reads ``repo``'s blobs from; None where it has none (the
    radar does not scan it)."""
    root = getattr(getattr(repo, "info", None), "root", None)
    return root if isinstance(root, Path) else None


async def _radar(
    repo: SourceRepository, commits: list[Commit], store: Store
) -> dict[str, list[ApiChange]] | None:
    """The radar's facts for a local repository's commits (``None`` for other sources: no
    blobs to read), from the store when every commit was scanned before by this radar
    version."""
    root = _clone_of(repo)
    if root is None:
        return None
    base = _base_of(commits)
    if base is None:  # no commits
        return {}
    from commitdigest.analysis.radar.models import cache_key

    keys = {c.sha: cache_key(c.sha, base) for c in commits}
    cached = store.get_radar(keys.values())
    if len(cached) == len(keys):  # a re-run: nothing to read from git, no kind to import
        return {sha: cached[key] for sha, key in keys.items()}
    from commitdigest.analysis.radar.commit import CommitInput
    from commitdigest.pipeline.radar_scan import scan_repository

    # a partial hit: only the commits not scanned before (each kind looks at one commit)
    ordered = sorted(commits, key=lambda c: c.committed_at)
    inputs = [CommitInput.from_commit(c) for c in ordered if keys[c.sha] not in cached]
    found = await asyncio.to_thread(scan_repository, root, inputs, base)
    store.put_radar({keys[sha]: items for sha, items in found.items() if sha in keys})
    return {sha: cached[key] if key in cached else found.get(sha, []) for sha, key in keys.items()}


def _base_of(commits: Sequence[Commit]) -> str | None:
    """The revision the radar reads a window of ``commits`` (newest first) from."""
    if not commits:
        return None
    oldest = commits[-1]
    return window_base([(oldest.sha, oldest.parents[0] if oldest.parents else None)])


async def _finish_radar(
    stream: RadarStream, commits: list[Commit], store: Store
) -> dict[str, list[ApiChange]]:
    """The items of a radar that scanned the window while it was read, stored."""
    from commitdigest.analysis.radar.commit import CommitInput
    from commitdigest.analysis.radar.models import cache_key

    ordered = sorted(commits, key=lambda c: c.committed_at)
    inputs = [stream.inputs.get(c.sha) or CommitInput.from_commit(c) for c in ordered]
    found = await asyncio.to_thread(stream.finish, inputs)
    store.put_radar({cache_key(sha, stream.base): items for sha, items in found.items()})
    return found


def _write_day(
    window: DayWindow,
    inputs: list[RepositoryInput],
    options: ReportOptions,
    formats: Sequence[str],
    generated_at: datetime,
) -> DayResult:
    context = build_context(inputs, window.info(), lang=options.lang, generated_at=generated_at)
    folder, day = ReportsFolder(options.out_dir), window.key
    earlier = folder.read_day(day)
    if earlier is not None and window.name and earlier.window != context.window:
        earlier = None  # the same name, other commits: --last after new ones landed
    # a report is replaced only by one at least as complete
    worse = worse_than(context, earlier)
    if worse is None and any(repo.error for repo in context.repositories):
        worse = ("a repository could not be read", SourceError.exit_code)
    paths: list[Path] = []
    kept: list[Path] = []
    for fmt in formats:
        target = folder.path(day, fmt)
        if worse is not None and target.exists():
            kept.append(target)
        else:
            paths.append(folder.write(day, fmt, _render(context, fmt)))
    return DayResult(
        day,
        context.coverage.total,
        importance_counts(context),
        paths,
        context,
        kept,
        worse[0] if worse else "",
        worse[1] if worse else 0,
    )


def importance_counts(context: ReportContext) -> dict[str, int]:
    """Commits of the report per importance."""
    counts = {imp.value: 0 for imp in Importance}
    for repo in context.repositories:
        for entry in repo.commits:
            counts[entry.analysis.importance.value] += 1
    return counts


def unit_of(name: str, subscription: Subscription | None) -> str:
    """The folder of a repository's separate report: its group's, else its own."""
    group = subscription.group if subscription is not None else None
    return slugify(group or name, "repo")


def _write_units(
    window: DayWindow,
    inputs: list[RepositoryInput],
    options: ReportOptions,
    formats: Sequence[str],
    generated_at: datetime,
    subscriptions: Mapping[str, Subscription],
) -> DayResult:
    """Separate reports: each unit (a repository, or a group) in ``<out>/<unit>/<day>.*``
    (replaced only by one at least as complete, as a combined report is), then the day's
    index — ``<day>.md``/``.html`` — and the day's combined context ``<day>.json`` made
    from every unit written for the day (those of other shards included)."""
    units: dict[str, list[RepositoryInput]] = {}
    for item in inputs:
        units.setdefault(unit_of(item.name, subscriptions.get(item.name)), []).append(item)
    day = window.key
    paths: list[Path] = []
    kept: list[Path] = []
    worst: tuple[str, int] | None = None
    for unit, unit_inputs in sorted(units.items()):
        result = _write_day(
            window,
            unit_inputs,
            dataclasses.replace(options, out_dir=ReportsFolder(options.out_dir).unit(unit).root),
            tuple(dict.fromkeys([*formats, "json"])),  # the index is made from the JSON
            generated_at,
        )
        paths += result.paths
        kept += result.kept
        if result.kept and (worst is None or result.kept_code > worst[1]):
            worst = (result.kept_reason, result.kept_code)
    folder = ReportsFolder(options.out_dir)
    merged = folder.load_units(day)
    if merged is None:  # pragma: no cover - every unit was just written
        raise OutputError(f"no report of {day} could be read back")
    context, folders = merged.context, merged.folders
    paths.append(folder.write(day, "json", render_json(context)))
    from commitdigest.render.day_index import render_index_html, render_index_markdown

    if "md" in formats:
        paths.append(folder.write(day, "md", render_index_markdown(context, folders)))
    if "html" in formats:
        paths.append(folder.write(day, "html", render_index_html(context, folders)))
    return DayResult(
        day,
        sum(len(i.commits) for i in inputs),
        importance_counts(context),
        paths,
        context,
        kept,
        worst[0] if worst else "",
        worst[1] if worst else 0,
    )


def worse_than(new: ReportContext, old: ReportContext | None) -> tuple[str, int] | None:
    """Why ``new`` is less complete than the earlier report ``old`` (a repository of both
    that could not be read this time, a commit fewer, more rule fallbacks) and the exit
    code that says so, or ``None`` when it is at least as complete (or there is no earlier
    report). A repository the new report does not ask for is the user's choice."""
    if old is None:
        return None
    asked = {r.name: r for r in new.repositories}  # a repository no longer asked for: fine
    for repo in old.repositories:
        now = asked.get(repo.name)
        if repo.error or now is None:
            continue
        if now.error:
            return f"{repo.name} could not be read", SourceError.exit_code
        fewer = {c.sha for c in repo.commits} - {c.sha for c in now.commits}
        if fewer:
            return f"{len(fewer)} commit(s) of {repo.name} are missing", SourceError.exit_code
    if new.coverage.fallback > old.coverage.fallback:
        why = (
            f"{new.coverage.fallback} analyses fell back to the rules "
            f"(the earlier report had {old.coverage.fallback})"
        )
        return why, LLMError.exit_code
    return None


def _render(context: ReportContext, fmt: str) -> str:
    """``context`` in ``fmt``; each renderer is imported when its format is asked for."""
    if fmt == "json":
        return render_json(context)
    if fmt == "html":
        from commitdigest.render.html import render_html

        return render_html(context)
    from commitdigest.render.markdown import render_markdown

    return render_markdown(context)


def render_file(source: Path, formats: Sequence[str], out_dir: Path | None = None) -> list[Path]:
    """Render a JSON context file (``--format json`` output) into other formats."""
    fmts = parse_formats(formats)
    try:
        text = source.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise OutputError(
            f"cannot read {source}: {getattr(exc, 'strerror', None) or exc}"
        ) from None
    context = load_context(text)
    target = ensure_writable_dir(out_dir or source.parent)
    return [
        write_text_atomic(target / f"{source.stem}.{fmt}", _render(context, fmt))
        for fmt in fmts
        if not (fmt == "json" and (target / f"{source.stem}.json") == source)
    ]
