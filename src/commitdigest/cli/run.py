"""The commands for unattended use: `run` (the daily job) and `schedule` (run it daily)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from commitdigest.cli.console import (
    degraded_code,
    err,
    exit_code_of,
    exit_with,
    out,
    print_written,
)
from commitdigest.cli.options import ConfigOption, DownstreamOption, HomeOption, TzOption
from commitdigest.errors import EXIT_CODES_HELP

if TYPE_CHECKING:
    from commitdigest.config import Settings
    from commitdigest.store import Store


def daily_run(
    config: Path | None,
    home: Path | None,
    date: str | None = None,
    downstream: list[Path] | None = None,
    since: str | None = None,
    until: str | None = None,
    shard: str | None = None,
) -> int:
    """One daily run; the exit code (3 if a repository failed). Raises our errors."""
    from datetime import timedelta

    from commitdigest.aio import run_sync
    from commitdigest.cli.console import closing
    from commitdigest.cli.deliver import deliver_outcome, retry_deliveries
    from commitdigest.cli.progress import RichProgress
    from commitdigest.cli.report import checkouts
    from commitdigest.config import find_config, load_settings
    from commitdigest.errors import DeliveryFailed, SourceError
    from commitdigest.pipeline.daily import RUN_COMMAND, Shard, plan_days, run_daily, run_lock
    from commitdigest.sources.open import RepositoryOpener
    from commitdigest.store import Store, default_home

    settings = load_settings(find_config(config))
    home_dir = home or default_home()
    part = Shard.parse(shard) if shard else None
    lock = f"run-shard-{part.label}.lock" if part else "run.lock"
    command = f"{RUN_COMMAND}-shard-{part.label}" if part else RUN_COMMAND
    with run_lock(home_dir, settings.run.lock_timeout_s, lock), Store.open(home_dir) as store:
        plan = plan_days(store, settings, on_date=date, since=since, until=until, command=command)
        if plan.skipped is not None:
            first, last = plan.skipped
            err.print(
                f"warning: {plan.skipped_days} older missed day(s), {first} to {last}, are "
                f"not caught up (run.max_catch_up_days = {settings.run.max_catch_up_days}); "
                f"backfill them with `commitdigest run --since {first} "
                f"--until {last + timedelta(days=1)}`",
                markup=False,
            )
        if not plan.days:
            err.print("nothing to do: every complete day is reported", markup=False)
            return 0 if part else weekly_step(settings, store, home_dir)
        with RichProgress(err) as progress:
            opener = RepositoryOpener(store=store, home=home_dir, github=settings.github)
            outcome = run_sync(
                closing(
                    opener,
                    run_daily(
                        settings,
                        store,
                        plan,
                        opener=opener,
                        progress=progress,
                        downstream=checkouts(downstream) or (),
                        shard=part,
                    ),
                )
            )
        print_written(out, err, outcome.paths, outcome.kept_reasons)
        for name, reason in outcome.failures.items():
            err.print(f"error: {name}: {reason}", markup=False)
        delivery_failed, weekly_code = False, 0
        if part is None:  # a shard holds part of the day: `deliver` runs after all of them
            delivery_failed = deliver_outcome(settings, store, outcome)  # after the files
            # what failed to reach a channel on earlier days goes again (never what was sent)
            done = [d.label for d in outcome.days]
            delivery_failed |= retry_deliveries(settings, store, done)
            weekly_code = weekly_step(settings, store, home_dir)
    if outcome.failures:
        return SourceError.exit_code
    if code := degraded_code(outcome):  # too many analyses fell back to the rules
        return code
    if outcome.partial_code:  # an earlier, more complete report was kept
        return outcome.partial_code
    return weekly_code or (DeliveryFailed.exit_code if delivery_failed else 0)


def weekly_step(settings: Settings, store: Store, home_dir: Path) -> int:
    """The weekly digest when one is due today (``weekly = "monday"``), then its delivery
    to the channels with ``weekly = true``; the exit code of that part (0, 3 or 7)."""
    from commitdigest.aio import run_sync
    from commitdigest.cli.console import closing
    from commitdigest.cli.deliver import print_results
    from commitdigest.cli.progress import RichProgress
    from commitdigest.deliver.service import deliver_day, failed
    from commitdigest.errors import DeliveryFailed, SourceError
    from commitdigest.pipeline.daily import run_weekly
    from commitdigest.sources.open import RepositoryOpener

    with RichProgress(err) as progress:
        opener = RepositoryOpener(store=store, home=home_dir, github=settings.github)
        made = run_sync(
            closing(opener, run_weekly(settings, store, opener=opener, progress=progress))
        )
    if made is None or made.context is None:
        return 0
    print_written(out, err, made.paths, {})
    for name, reason in made.failures.items():
        err.print(f"error: weekly {made.week}: {name}: {reason}", markup=False)
    channels = [c for c in settings.deliver if c.weekly]
    delivery_failed = False
    if channels and not made.failures:
        results = run_sync(deliver_day(made.context.as_report(), channels, store))
        print_results(results)
        delivery_failed = bool(failed(results))
    if made.failures:
        return SourceError.exit_code
    return DeliveryFailed.exit_code if delivery_failed else 0


def register(app: typer.Typer) -> None:
    @app.command(name="run", epilog=EXIT_CODES_HELP)
    def run_command(
        date: Annotated[
            str | None, typer.Option("--date", help="Re-run one day (YYYY-MM-DD) instead.")
        ] = None,
        since: Annotated[
            str | None,
            typer.Option(
                help="Backfill from this day (YYYY-MM-DD, inclusive), oldest first; the daily "
                "catch-up is not moved."
            ),
        ] = None,
        until: Annotated[
            str | None,
            typer.Option(help="With --since: up to this day (exclusive; default today)."),
        ] = None,
        downstream: DownstreamOption = None,
        shard: Annotated[
            str | None,
            typer.Option(
                "--shard",
                metavar="K/N",
                help="Only the K-th of N parts of the subscriptions (by a hash of each name), "
                "for parallel runs against one store and output folder; reports are then "
                "separate (one per repository or group) and `site` merges them.",
            ),
        ] = None,
        config: ConfigOption = None,
        home: HomeOption = None,
    ) -> None:
        """Report every subscribed repository for each complete day since the last good run.

        The first run reports yesterday; a machine that was off catches up the missed days,
        and no day is reported twice. Safe to start twice (a lock) and to kill at any moment.
        A repository that fails does not stop the others; the exit code is 3 if any failed.
        Then each day is sent to the [[deliver]] channels (exit code 7 if one failed).
        """
        exit_with(lambda: daily_run(config, home, date, downstream, since, until, shard))

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
                lambda: exit_code_of(lambda: daily_run(config, home)), at=hours_minutes, zone=zone
            )
            return 0

        exit_with(action)
