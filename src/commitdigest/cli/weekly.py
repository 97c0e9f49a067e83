"""``weekly``: one ISO week in one page, built from the daily reports."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import typer

from commitdigest.cli.console import err, exit_with, out, print_written
from commitdigest.cli.options import (
    AnalyserOption,
    BranchOption,
    ConfigOption,
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


@dataclass(frozen=True, kw_only=True)
class WeeklyArgs:
    """``weekly``'s arguments and options (each field one of them, in ``--help`` order)."""

    repositories: Annotated[
        list[str] | None,
        typer.Argument(
            help="Local git repositories, or GitHub owner/repo or URLs (default: the "
            "config file's [[repositories]])."
        ),
    ] = None
    week: Annotated[
        str | None,
        typer.Option(
            help="The ISO week, YYYY-Www (e.g. 2026-W09), in --tz; default: the last complete week."
        ),
    ] = None
    tz: TzOption = None
    branch: BranchOption = None
    lang: LangOption = None
    fmt: FormatOption = None
    out_dir: OutOption = None
    analyser: AnalyserOption = None
    model: ModelOption = None
    overview: Annotated[
        bool | None,
        typer.Option("--overview/--no-overview", help="An overview of the week per repository."),
    ] = None
    radar: RadarOption = None
    downstream: DownstreamOption = None
    config: ConfigOption = None
    home: HomeOption = None


def register(app: typer.Typer) -> None:
    @app.command(epilog=EXIT_CODES_HELP)
    @takes_options(WeeklyArgs)
    def weekly(args: WeeklyArgs) -> None:
        """Write the weekly digest YYYY-Www.md/.json/.html next to the daily reports.

        It is built from the week's daily reports in the output folder; a day without one
        is reported first, through the same cache (with every day cached: no per-commit
        LLM call, at most one overview call per repository). The weekly lists what forces
        action, the week's themes, its high-importance commits and every commit by day,
        each linking to its section of the daily report.
        """

        def action() -> int:
            from commitdigest.aio import run_sync
            from commitdigest.cli.console import closing
            from commitdigest.cli.progress import RichProgress
            from commitdigest.cli.report import given_options
            from commitdigest.config import find_config, load_settings
            from commitdigest.errors import UsageError
            from commitdigest.models import Subscription
            from commitdigest.pipeline.daily import separate_reports
            from commitdigest.pipeline.report import (
                ReportOptions,
                check_lang,
                parse_formats,
            )
            from commitdigest.pipeline.weekly import generate_weekly
            from commitdigest.sources.open import RepositoryOpener
            from commitdigest.store import Store, default_home
            from commitdigest.window import (
                last_complete_week,
                parse_week,
                resolve_zone,
                week_windows,
            )

            settings = load_settings(find_config(args.config))
            zone_name, zone = resolve_zone(args.tz or settings.timezone)
            monday = parse_week(args.week) if args.week else last_complete_week(zone)
            subscriptions = (
                [Subscription(name=name, branch=args.branch) for name in args.repositories]
                if args.repositories
                else settings.subscriptions()
            )
            if not subscriptions:
                raise UsageError("name a repository, or add [[repositories]] to commitdigest.toml")
            model = args.model
            llm = (
                settings.llm if model is None else settings.llm.model_copy(update={"model": model})
            )
            given = given_options(settings, args)
            options = ReportOptions.from_settings(
                settings,
                repositories=subscriptions,
                windows=week_windows(monday, zone_name),
                llm=llm,
                command="weekly",
                # the days it makes are laid out as `run` lays them out
                separate=separate_reports(settings, subscriptions),
                **given,
            )
            check_lang(options.lang)
            parse_formats(options.formats)
            home_dir = args.home or default_home()
            with Store.open(home_dir) as store, RichProgress(err) as progress:
                opener = RepositoryOpener(store=store, home=home_dir, github=settings.github)
                outcome = run_sync(
                    closing(
                        opener,
                        generate_weekly(options, monday, store, progress=progress, opener=opener),
                    )
                )
            if outcome.made_days:
                err.print(
                    f"made the daily reports of {', '.join(outcome.made_days)} first",
                    markup=False,
                )
            print_written(out, err, outcome.paths, {})
            for name, reason in outcome.failures.items():
                err.print(f"error: {name}: {reason}", markup=False)
            from commitdigest.errors import SourceError

            return SourceError.exit_code if outcome.failures else 0

        exit_with(action)
