"""``report`` (one report per day of a window), ``render`` (again from JSON) and ``runs``.

The stages are imported inside the commands, so that ``--help`` stays fast.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Protocol

import typer

from commitdigest.cli.console import degraded_code, err, exit_with, guard, out, print_written
from commitdigest.cli.early import long_local_window
from commitdigest.cli.options import (
    AnalyserOption,
    BranchOption,
    ConfigOption,
    DateOption,
    DownstreamOption,
    FormatOption,
    HomeOption,
    LangOption,
    ModelOption,
    OutOption,
    RadarOption,
    TzOption,
    takes_options,
)
from commitdigest.errors import EXIT_CODES_HELP

log = logging.getLogger("commitdigest")

if TYPE_CHECKING:
    from commitdigest.config import Settings
    from commitdigest.window import DayWindow


def last_window(
    repositories: Sequence[str], branch: str | None, count: int, tz: str | None
) -> DayWindow:
    """The one window of ``--last``: the span of the last ``count`` commits (along first
    parents) of each local repository, labelled with the first and last commit date."""
    from commitdigest.errors import UsageError
    from commitdigest.models import Subscription
    from commitdigest.sources.open import is_remote, recent_commit_times
    from commitdigest.window import commit_range, resolve_zone

    zone_name, _ = resolve_zone(tz)
    named = [Subscription(name=name, branch=branch) for name in repositories]
    # (a path that does not exist gets the git source's own error, not this one)
    remote = [s.name for s in named if is_remote(s)]
    if remote:
        raise UsageError(f"--last reads local repositories only, not {', '.join(remote)}")
    moments = [moment for s in named for moment in recent_commit_times(s, count)]
    if not moments:
        raise UsageError("--last: the branch has no commits")
    return commit_range(moments, zone_name, count)


def empty_window_hint(
    repositories: Sequence[str], branch: str | None, windows: Sequence[DayWindow]
) -> str | None:
    """One line for a window without commits: the latest day that has some, and how to
    get it; None when no local repository has commits."""
    from commitdigest.models import Subscription
    from commitdigest.sources.open import is_local, recent_commit_times

    if not windows:
        return None
    zone = windows[0].start.tzinfo
    latest = [
        moment
        for name in repositories
        if is_local(named := Subscription(name=name, branch=branch))
        for moment in recent_commit_times(named, 1)
    ]
    if not latest:
        return None
    day = max(latest).astimezone(zone).date().isoformat()
    start, end = windows[0].start, windows[-1].end
    return (
        f"no commits between {start:%Y-%m-%d %H:%M} and {end:%Y-%m-%d %H:%M} "
        f"({windows[0].tz}); latest commit day: {day} — try --date {day} or --last 20"
    )


@dataclass(frozen=True, kw_only=True)
class ReportArgs:
    """``report``'s arguments and options (each field one of them, in ``--help`` order)."""

    repositories: Annotated[
        list[str],
        typer.Argument(help="Local git repositories (paths), or GitHub owner/repo or URLs."),
    ]
    date: DateOption = None
    since: Annotated[
        str | None,
        typer.Option(help="Start: a date or ISO datetime (inclusive). One report per day."),
    ] = None
    until: Annotated[
        str | None, typer.Option(help="End: a date or ISO datetime (exclusive); default now.")
    ] = None
    days: Annotated[
        int | None, typer.Option(help="The last N complete days, one report per day.")
    ] = None
    last: Annotated[
        int | None,
        typer.Option(
            "--last",
            min=1,
            help="Exactly the last N commits of the branch (local repositories), as one "
            "report titled with their first and last commit date.",
        ),
    ] = None
    tz: TzOption = None
    branch: BranchOption = None
    lang: LangOption = None
    fmt: FormatOption = None
    out_dir: OutOption = None
    analyser: AnalyserOption = None
    model: ModelOption = None
    concurrency: Annotated[
        int | None,
        typer.Option(min=1, max=64, help="Concurrent LLM requests (llm.max_concurrency)."),
    ] = None
    overview: Annotated[
        bool | None,
        typer.Option("--overview/--no-overview", help="A daily overview per repository."),
    ] = None
    radar: RadarOption = None
    downstream: DownstreamOption = None
    config: ConfigOption = None
    home: HomeOption = None


def register(app: typer.Typer) -> None:
    """Add ``report``, ``render`` and ``runs`` to ``app``."""

    @app.command(epilog=EXIT_CODES_HELP)
    @takes_options(ReportArgs)
    def report(args: ReportArgs) -> None:
        """Write the report of each day in the window (default: yesterday) and print the paths.

        --last N writes one report of exactly the branch's last N commits instead.
        Without --date, --since/--until, --days or --last the window is yesterday in --tz;
        when it holds no commits, a hint names the latest day that has some. Options
        given here override the config file; OPENAI_API_KEY / OPENAI_BASE_URL configure the
        LLM. The language follows --lang, else the config's language, else the locale.
        """

        def action() -> int:
            if long_local_window(args):  # (started already, unless cli.early misread argv)
                from commitdigest.pipeline.radar_scan import prestart

                prestart()  # while this process imports the rest
            from commitdigest.aio import run_sync
            from commitdigest.cli.console import closing
            from commitdigest.cli.progress import RichProgress
            from commitdigest.config import find_config, load_settings
            from commitdigest.errors import UsageError
            from commitdigest.pipeline.report import (
                ReportOptions,
                check_lang,
                generate_reports,
                parse_formats,
            )
            from commitdigest.sources.open import RepositoryOpener
            from commitdigest.store import Store, default_home
            from commitdigest.window import plan_windows

            settings = load_settings(find_config(args.config))
            llm = settings.llm.model_copy(
                update={
                    k: v
                    for k, v in (("model", args.model), ("max_concurrency", args.concurrency))
                    if v is not None
                }
            )
            tz = args.tz or settings.timezone
            if args.last is not None:
                if args.date or args.since or args.until or args.days:
                    raise UsageError(
                        "--last cannot be combined with --date, --since, --until or --days"
                    )
                windows = [last_window(args.repositories, args.branch, args.last, tz)]
            else:
                windows = plan_windows(
                    tz=tz, on_date=args.date, since=args.since, until=args.until, days=args.days
                )
            options = ReportOptions.from_settings(
                settings,
                repositories=args.repositories,
                windows=windows,
                branch=args.branch,
                llm=llm,
                last=args.last,
                **given_options(settings, args),
            )
            check_lang(options.lang)  # bad values fail before the store is touched
            parse_formats(options.formats)
            home_dir = args.home or default_home()
            with Store.open(home_dir) as store, RichProgress(err) as progress:
                opener = RepositoryOpener(store=store, home=home_dir, github=settings.github)
                outcome = run_sync(
                    closing(
                        opener, generate_reports(options, store, progress=progress, opener=opener)
                    )
                )
            print_written(out, err, outcome.paths, outcome.kept_reasons)
            if not outcome.failures and not sum(d.commits for d in outcome.days):
                hint = empty_window_hint(args.repositories, args.branch, windows)
                if hint:
                    err.print(hint, markup=False)
            if outcome.fallback:
                err.print(
                    f"warning: the LLM failed on {outcome.fallback} commit(s); rule-based "
                    "analysis stands in (marked in the report)",
                    markup=False,
                )
            log.debug(
                "analysed %d, cached %d, timings %s",
                outcome.analysed,
                outcome.cached,
                outcome.timings,
            )
            # 8 when too many analyses fell back, or an earlier, more complete report was kept
            return degraded_code(outcome) or outcome.partial_code

        exit_with(action)

    @app.command(epilog=EXIT_CODES_HELP)
    def render(
        source: Annotated[Path, typer.Argument(help="A report's JSON context (--format json).")],
        fmt: Annotated[
            str, typer.Option("--format", help="Formats to write: md, json, html.")
        ] = "md",
        out_dir: Annotated[
            Path | None, typer.Option("--out", help="Output folder (default: beside the JSON).")
        ] = None,
    ) -> None:
        """Render a report again from its JSON context, without git or analysis."""

        def action() -> list[Path]:
            from commitdigest.pipeline.report import parse_formats, render_file

            return list(render_file(source, parse_formats(fmt), out_dir))

        for path in guard(action):
            out.print(str(path), markup=False)

    @app.command()
    def runs(
        limit: Annotated[int, typer.Option(help="How many recent runs to list.")] = 10,
        home: HomeOption = None,
    ) -> None:
        """List recent report runs recorded in the store."""

        def action() -> None:
            from rich.table import Table

            from commitdigest.store import Store

            with Store.open(home) as store:
                records = store.runs(limit)
            table = Table(
                "id",
                "started (UTC)",
                "window",
                "repositories",
                "commits",
                "new",
                "cached",
                "LLM",
                "status",
            )
            for r in records:
                table.add_row(
                    str(r.id),
                    r.started_at,
                    f"{r.window_start} → {r.window_end}",
                    ", ".join(r.repositories),
                    str(r.commits),
                    str(r.analysed),
                    str(r.cached),
                    llm_counts(r.llm),
                    r.status if not r.error else f"{r.status}: {r.error}",
                )
            out.print(table)

        guard(action)


def llm_counts(llm: dict[str, object]) -> str:
    """A run's LLM figures in a few words: ``20 made, 12 fell back, 3 retries``."""
    if not llm:
        return ""
    words = {"made": "made", "fallback": "fell back", "retries": "retries", "waits": "waits",
             "hedges": "hedged", "refused": "refused"}  # fmt: skip
    return ", ".join(f"{llm[k]} {w}" for k, w in words.items() if llm.get(k))


class GivenReportOptions(Protocol):
    """The report options ``report`` and ``weekly`` share (:class:`ReportArgs`)."""

    @property
    def lang(self) -> str | None: ...
    @property
    def fmt(self) -> str | None: ...
    @property
    def out_dir(self) -> Path | None: ...
    @property
    def analyser(self) -> str | None: ...
    @property
    def overview(self) -> bool | None: ...
    @property
    def radar(self) -> bool | None: ...
    @property
    def downstream(self) -> list[Path] | None: ...


def given_options(settings: Settings, args: GivenReportOptions) -> dict[str, object]:
    """The report options given on the command line (``report``, ``weekly``), as
    :meth:`ReportOptions.from_settings` overrides; the language defaults as the config says."""
    given = {
        "lang": args.lang or settings.report_language(),
        "formats": args.fmt,
        "out_dir": args.out_dir,
        "analyser": args.analyser,
        "overview": args.overview,
        "radar": args.radar,
        "downstream": checkouts(args.downstream),
    }
    return {k: v for k, v in given.items() if v is not None}


def checkouts(paths: list[Path] | None) -> tuple[Path, ...] | None:
    """The --downstream folders; a missing one is a usage error (exit 2)."""
    if not paths:
        return None
    from commitdigest.errors import UsageError

    for path in paths:
        if not path.expanduser().exists():
            raise UsageError(f"--downstream {path}: no such file or folder")
    return tuple(p.expanduser() for p in paths)
