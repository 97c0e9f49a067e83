"""The report pipeline: sources -> analysis -> store -> render -> deliver (files).

Reads each repository once for the whole range, splits the commits into day windows,
analyses every commit (cache first), renders each day and writes its files.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Protocol

from .analysis.runner import AsyncRuleAnalyser, CommitAnalyser, analyse_commits
from .deliver import ensure_writable_dir, write_text_atomic
from .errors import OutputError, UsageError
from .models import Analysis, Commit, Importance, ReportContext
from .render.context import RepositoryInput, build_context
from .render.json_output import load_context, render_json
from .render.markdown import render_markdown
from .sources.git import PatchLimits, read_commits
from .sources.repo_info import RepositoryInfo, resolve_repository
from .store import Store
from .window import DayWindow

FORMATS: tuple[str, ...] = ("md", "json")
LANGS: tuple[str, ...] = ("zh", "en")


class Progress(Protocol):
    """What the pipeline tells about long work (the CLI shows it as progress bars)."""

    def start(self, stage: str, total: int) -> None: ...

    def advance(self, stage: str, amount: int = 1) -> None: ...


class _NoProgress:
    def start(self, stage: str, total: int) -> None:
        pass

    def advance(self, stage: str, amount: int = 1) -> None:
        pass


@dataclass(frozen=True)
class ReportOptions:
    repositories: Sequence[str]
    windows: Sequence[DayWindow]
    branch: str | None = None
    lang: str = "zh"
    formats: Sequence[str] = ("md",)
    out_dir: Path = Path("reports")
    limits: PatchLimits = field(default_factory=PatchLimits)


@dataclass(frozen=True)
class DayResult:
    label: str
    commits: int
    importance: dict[str, int]
    paths: list[Path]


@dataclass
class ReportOutcome:
    days: list[DayResult] = field(default_factory=list)
    analysed: int = 0  # analyses computed in this run
    cached: int = 0  # analyses taken from the store
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def paths(self) -> list[Path]:
        return [p for day in self.days for p in day.paths]


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
    analyser: CommitAnalyser | None = None,
) -> ReportOutcome:
    """Write one report per day window; return what was written and what it cost."""
    progress = progress or _NoProgress()
    analyser = analyser or AsyncRuleAnalyser()
    check_lang(options.lang)
    formats = parse_formats(options.formats)
    if not options.windows:
        raise UsageError("the window is empty")
    if not options.repositories:
        raise UsageError("name at least one repository")
    ensure_writable_dir(options.out_dir)
    outcome = ReportOutcome()
    clock = time.perf_counter()

    infos = await _resolve_all(options.repositories, options.branch)
    start, end = options.windows[0].start, options.windows[-1].end
    run_id = store.start_run(
        command="report",
        window_start=start,
        window_end=end,
        tz=options.windows[0].tz,
        repositories=[i.name for i in infos],
    )
    try:
        progress.start("read", len(infos))
        commits_by_repo = await asyncio.gather(
            *(_read(info, start, end, options.limits, progress) for info in infos)
        )
        outcome.timings["read_s"] = round(time.perf_counter() - clock, 3)

        clock = time.perf_counter()
        work = [
            (i.name, c) for i, commits in zip(infos, commits_by_repo, strict=True) for c in commits
        ]
        progress.start("analyse", len(work))
        analyses, tally = await analyse_commits(
            analyser,
            work,
            lang=options.lang,
            store=store,
            on_done=lambda n: progress.advance("analyse", n),
        )
        outcome.analysed, outcome.cached = tally.made, tally.cached
        outcome.timings["analyse_s"] = round(time.perf_counter() - clock, 3)

        clock = time.perf_counter()
        generated_at = now or datetime.now(tz=options.windows[0].start.tzinfo)
        progress.start("render", len(options.windows))
        for window in options.windows:
            outcome.days.append(
                _write_day(window, infos, commits_by_repo, analyses, options, formats, generated_at)
            )
            progress.advance("render")
        outcome.timings["render_s"] = round(time.perf_counter() - clock, 3)
    except BaseException as exc:
        store.finish_run(run_id, status="failed", error=str(exc)[:500], timings=outcome.timings)
        raise
    store.finish_run(
        run_id,
        status="ok",
        commits=sum(d.commits for d in outcome.days),
        analysed=outcome.analysed,
        cached=outcome.cached,
        timings=outcome.timings,
        outputs=[str(p) for p in outcome.paths],
    )
    return outcome


async def _resolve_all(paths: Sequence[str], branch: str | None) -> list[RepositoryInfo]:
    infos: list[RepositoryInfo] = []
    seen: set[Path] = set()
    for raw in paths:
        info = await resolve_repository(Path(raw), branch)
        if info.root not in seen:
            seen.add(info.root)
            infos.append(info)
    return infos


async def _read(
    info: RepositoryInfo, start: datetime, end: datetime, limits: PatchLimits, progress: Progress
) -> list[Commit]:
    commits = await read_commits(info, start, end, limits=limits)
    progress.advance("read")
    return commits


def _write_day(
    window: DayWindow,
    infos: Sequence[RepositoryInfo],
    commits_by_repo: Sequence[list[Commit]],
    analyses: dict[tuple[str, str], Analysis],
    options: ReportOptions,
    formats: Sequence[str],
    generated_at: datetime,
) -> DayResult:
    inputs: list[RepositoryInput] = []
    for info, commits in zip(infos, commits_by_repo, strict=True):
        day_commits = [c for c in commits if window.start <= c.committed_at < window.end]
        inputs.append(
            RepositoryInput(
                name=info.name,
                url=info.web_url,
                branch=info.branch,
                commits=day_commits,
                analyses={c.sha: analyses[(info.name, c.sha)] for c in day_commits},
            )
        )
    context = build_context(inputs, window.info(), lang=options.lang, generated_at=generated_at)
    paths = [
        write_text_atomic(
            options.out_dir / f"{window.day.isoformat()}.{fmt}", _render(context, fmt)
        )
        for fmt in formats
    ]
    counts = {imp.value: 0 for imp in Importance}
    for repo in context.repositories:
        for entry in repo.commits:
            counts[entry.analysis.importance.value] += 1
    return DayResult(window.day.isoformat(), context.coverage.total, counts, paths)


def _render(context: ReportContext, fmt: str) -> str:
    return render_json(context) if fmt == "json" else render_markdown(context)


def render_file(source: Path, formats: Sequence[str], out_dir: Path | None = None) -> list[Path]:
    """Render a JSON context file (``--format json`` output) into other formats."""
    fmts = parse_formats(formats)
    try:
        text = source.read_text(encoding="utf-8")
    except OSError as exc:
        raise OutputError(f"cannot read {source}: {exc.strerror or exc}") from None
    context = load_context(text)
    target = ensure_writable_dir(out_dir or source.parent)
    return [
        write_text_atomic(target / f"{source.stem}.{fmt}", _render(context, fmt))
        for fmt in fmts
        if not (fmt == "json" and (target / f"{source.stem}.json") == source)
    ]
