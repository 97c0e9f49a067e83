"""The commands for unattended use: `run` (the daily job) and `schedule` (run it daily)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

from commitdigest.cli.console import (
    err,
    exit_code_of,
    exit_with,
    out,
    print_written,
)
from commitdigest.cli.options import (
    ConfigOption,
    DownstreamOption,
    HomeOption,
    TzOption,
    takes_options,
)
from commitdigest.errors import EXIT_CODES_HELP

if TYPE_CHECKING:
    from commitdigest.config import Settings
    from commitdigest.pipeline.job import RunOutcome


@dataclass(frozen=True, kw_only=True)
class RunArgs:
    """``run``'s arguments and options (each field one of them, in ``--help`` order)."""

    date: Annotated[
        str | None, typer.Option("--date", help="Re-run one day (YYYY-MM-DD) instead.")
    ] = None
    since: Annotated[
        str | None,
        typer.Option(
            help="Backfill from this day (YYYY-MM-DD, inclusive), oldest first; the daily "
            "catch-up is not moved."
        ),
    ] = None
    until: Annotated[
        str | None,
        typer.Option(help="With --since: up to this day (exclusive; default today)."),
    ] = None
    downstream: DownstreamOption = None
    deliver: Annotated[
        bool,
        typer.Option(
            "--deliver",
            help="Send a backfill's days too (--since, or a catch-up longer than a "
            "channel's max_catch_up_days): by default they are written, not sent.",
        ),
    ] = False
    shard: Annotated[
        str | None,
        typer.Option(
            "--shard",
            metavar="K/N",
            help="Only the K-th of N parts of the subscriptions (by a hash of each name), "
            "for parallel runs against one store and output folder; reports are then "
            "separate (one per repository or group) and `site` merges them.",
        ),
    ] = None
    config: ConfigOption = None
    home: HomeOption = None


def daily_run(args: RunArgs) -> int:
    """One daily run (:func:`commitdigest.pipeline.job.run_job`), printed; its exit code.
    Raises our errors for what stops the whole run."""
    from commitdigest.aio import run_sync
    from commitdigest.cli.progress import RichProgress
    from commitdigest.cli.report import checkouts
    from commitdigest.config import find_config, load_settings
    from commitdigest.pipeline.daily import Shard
    from commitdigest.pipeline.job import RunRequest, run_job

    settings = load_settings(find_config(args.config))
    request = RunRequest(
        date=args.date,
        since=args.since,
        until=args.until,
        deliver=args.deliver,
        shard=Shard.parse(args.shard) if args.shard else None,
        downstream=checkouts(args.downstream) or (),
    )
    with RichProgress(err) as progress:
        outcome = run_sync(run_job(settings, args.home, request, progress=progress))
    print_outcome(settings, outcome)
    return outcome.exit_code


def print_outcome(settings: Settings, outcome: RunOutcome) -> None:
    """What a run did: the files on stdout (one per line), the rest on stderr."""
    from datetime import timedelta

    from commitdigest.cli.deliver import print_results, print_retried

    plan = outcome.plan
    if plan.skipped is not None:
        first, last = plan.skipped
        err.print(
            f"warning: {plan.skipped_days} older missed day(s), {first} to {last}, are "
            f"not caught up (run.max_catch_up_days = {settings.run.max_catch_up_days}); "
            f"backfill them with `commitdigest run --since {first} "
            f"--until {last + timedelta(days=1)}`",
            markup=False,
        )
    print_retried(outcome.retried)
    if not plan.days:
        err.print("nothing to do: every complete day is reported", markup=False)
    reports = outcome.reports
    print_written(out, err, reports.paths, reports.kept_reasons)
    for name, reason in reports.failures.items():
        err.print(f"error: {name}: {reason}", markup=False)
    if reports.degraded:  # too many analyses fell back: one line naming the endpoint
        err.print(f"error: {reports.degraded}", markup=False)
    print_results(outcome.delivered)
    for held in outcome.held:
        days = held.days
        span = days[0] if len(days) == 1 else f"{days[0]} to {days[-1]}"
        err.print(
            f"not sent: {len(days)} day(s), {span}, written without sending them to "
            f"{', '.join(held.channels)} ({held.reason}); send a day with "
            f"`commitdigest deliver --date {days[0]}`, or all of them with --deliver",
            markup=False,
        )
    made = outcome.weekly
    if made is not None and made.context is not None:
        print_written(out, err, made.paths, {})
        for name, reason in made.failures.items():
            err.print(f"error: weekly {made.week}: {name}: {reason}", markup=False)
        print_results(outcome.weekly_delivered)


def register(app: typer.Typer) -> None:
    @app.command(name="run", epilog=EXIT_CODES_HELP)
    @takes_options(RunArgs)
    def run_command(args: RunArgs) -> None:
        """Report every subscribed repository for each complete day since the last good run.

        The first run reports yesterday; a machine that was off catches up the missed days,
        and no day is reported twice. Safe to start twice (a lock) and to kill at any moment.
        A repository that fails does not stop the others; the exit code is 3 if any failed.
        Every run first sends again what failed to reach a [[deliver]] channel before (never
        what was sent); then each new day is sent (exit code 7 if a delivery failed) — but
        the days of a backfill (--since, or a catch-up longer than a channel's
        max_catch_up_days) are written without sending unless --deliver.
        """
        exit_with(lambda: daily_run(args))

    @app.command(epilog=EXIT_CODES_HELP)
    def schedule(
        at: Annotated[str, typer.Option(help="Wall-clock time of the daily run, HH:MM.")],
        tz: TzOption = None,
        config: ConfigOption = None,
        home: HomeOption = None,
    ) -> None:
        """Stay in the foreground and start `run` every day at --at (Ctrl-C stops).

        A failed run is logged and the schedule goes on. For servers prefer cron, a systemd
        timer or GitHub Actions (docs/scheduling.md): they survive reboots.
        """

        def action() -> int:
            from commitdigest.config import find_config, load_settings
            from commitdigest.pipeline.schedule import parse_at, schedule_loop
            from commitdigest.window import resolve_zone

            hours_minutes = parse_at(at)
            settings = load_settings(find_config(config))
            _, zone = resolve_zone(tz or settings.timezone)
            logging.getLogger("commitdigest.schedule").setLevel(logging.INFO)
            err.print(
                f"scheduling `commitdigest run` daily at {at} ({zone.key}); Ctrl-C stops",
                markup=False,
            )
            schedule_loop(
                lambda: exit_code_of(lambda: daily_run(RunArgs(config=config, home=home))),
                at=hours_minutes,
                zone=zone,
            )
            return 0

        exit_with(action)
