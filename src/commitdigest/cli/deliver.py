"""`commitdigest deliver`: send a day's report to the channels again, or a test message."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from commitdigest.cli.console import err, exit_with, out
from commitdigest.cli.options import ConfigOption, DateOption, HomeOption
from commitdigest.errors import EXIT_CODES_HELP

if TYPE_CHECKING:
    from commitdigest.config import Settings
    from commitdigest.deliver.service import DeliveryResult
    from commitdigest.pipeline.report import ReportOutcome
    from commitdigest.store import Store


def print_results(results: Sequence[DeliveryResult]) -> None:
    for r in results:
        if r.ok:
            detail = f" ({r.detail})" if r.detail else ""
            out.print(f"{r.status} {r.channel} {r.day}{detail}", markup=False)
        else:
            err.print(f"error: deliver {r.channel} {r.day}: {r.error}", markup=False)


def deliver_outcome(settings: Settings, store: Store, outcome: ReportOutcome) -> bool:
    """Send each day a run wrote to every channel; True if a delivery failed.

    Days of a run where a repository failed are not sent: the next run redoes them, and
    sending the incomplete report now would mark the day as delivered.
    """
    from commitdigest.aio import run_sync
    from commitdigest.deliver.service import deliver_day, failed

    if not settings.deliver or outcome.failures:
        return False
    any_failed = False
    for day in outcome.days:
        if day.context is None:
            continue
        paths = {p.suffix.lstrip("."): p for p in day.paths}
        results = run_sync(deliver_day(day.context, settings.deliver, store, report_paths=paths))
        print_results(results)
        any_failed |= bool(failed(results))
    return any_failed


def retry_deliveries(settings: Settings, store: Store, skip_days: Sequence[str] = ()) -> bool:
    """Send again what earlier runs failed to deliver (``run.delivery_retry_days`` days back);
    True if a delivery failed again."""
    from datetime import datetime

    from commitdigest.aio import run_sync
    from commitdigest.deliver.service import failed, retry_pending
    from commitdigest.window import resolve_zone

    if not settings.deliver:
        return False
    _, zone = resolve_zone(settings.timezone)
    days = settings.run.delivery_retry_days
    results, given_up = run_sync(
        retry_pending(
            settings.output_dir,
            settings.deliver,
            store,
            today=datetime.now(tz=zone).date(),
            retry_days=days,
            skip_days=skip_days,
        )
    )
    for day, channel in given_up:
        err.print(
            f"warning: deliver {channel} {day}: given up after {days} days of retries "
            f"(`commitdigest deliver --date {day} --channel {channel}` sends it by hand)",
            markup=False,
        )
    print_results(results)
    return bool(failed(results))


def write_dry_run(
    settings: Settings,
    date: str | None,
    channels: Sequence[str] | None,
    test: str | None,
    out_dir: Path | None,
) -> int:
    """`deliver --dry-run`: each channel's payload for the day (or the sample day with
    --test CHANNEL) written under ``out_dir``; nothing sent, nothing recorded."""
    from datetime import datetime, timedelta

    from commitdigest.aio import run_sync
    from commitdigest.deliver.digest import sample_context
    from commitdigest.deliver.service import dry_run, load_day_context, select_channels
    from commitdigest.window import parse_day, resolve_zone

    target = out_dir or settings.output_dir / "dry-run"
    if test is not None:
        targets = select_channels(settings.deliver, [test])
        lang = targets[0].lang or settings.language
        context, paths = sample_context(lang), dict[str, Path]()
    else:
        targets = select_channels(settings.deliver, channels)
        _, zone = resolve_zone(settings.timezone)
        day = parse_day(date) if date else datetime.now(tz=zone).date() - timedelta(1)
        context, paths = load_day_context(settings.output_dir, day.isoformat())
    if not targets:
        err.print("no [[deliver]] channels configured: nothing to write", markup=False)
        return 0
    written = run_sync(dry_run(context, targets, target, report_paths=paths, test=test is not None))
    for item in written:
        cut = (
            f" ({item.items_shown} items shown, {item.items_omitted} more)"
            if item.items_omitted
            else ""
        )
        out.print(f"wrote {item.path} for {item.channel}{cut}", markup=False)
    return 0


def status_rows(store: Store) -> list[dict[str, object]]:
    """The delivery state: one row per day and channel (its latest record)."""
    from commitdigest.store.deliveries import DeliveryLog

    log = DeliveryLog(store)
    return [
        {
            "day": r.day,
            "channel": r.channel,
            "type": r.channel_type,
            "state": r.status,
            "attempts": log.attempts(r.day, r.channel),
            "last_error": r.error,
            "delivered_at": r.delivered_at,
        }
        for r in log.latest()
    ]


deliver_app = typer.Typer(
    help="Send a day's report to the [[deliver]] channels (again), a test message, or show "
    "what was delivered where.",
    no_args_is_help=False,
)


def register(app: typer.Typer) -> None:
    app.add_typer(deliver_app, name="deliver")

    @deliver_app.command("status", epilog=EXIT_CODES_HELP)
    def status(
        as_json: Annotated[bool, typer.Option("--json", help="One JSON list on stdout.")] = False,
        home: HomeOption = None,
    ) -> None:
        """What was delivered where: day × channel × state × attempts × last error."""

        def action() -> int:
            import json

            from commitdigest.store import Store, default_home

            with Store.open(home or default_home()) as store:
                rows = status_rows(store)
            if as_json:
                out.print(json.dumps(rows, ensure_ascii=False, indent=1), markup=False)
                return 0
            if not rows:
                out.print("no deliveries recorded yet", markup=False)
            for row in rows:
                line = f"{row['day']}  {row['channel']}  {row['state']}  {row['attempts']}"
                if row["last_error"]:
                    line += f"  {row['last_error']}"
                out.print(line, markup=False)
            return 0

        exit_with(action)

    @deliver_app.callback(invoke_without_command=True, epilog=EXIT_CODES_HELP)
    def deliver(
        ctx: typer.Context,
        date: DateOption = None,
        channel: Annotated[
            list[str] | None, typer.Option("--channel", help="Only this channel (repeatable).")
        ] = None,
        force: Annotated[
            bool, typer.Option("--force", help="Send again even if already delivered.")
        ] = False,
        test: Annotated[
            str | None,
            typer.Option("--test", metavar="CHANNEL", help="Send a sample message to CHANNEL."),
        ] = None,
        retry: Annotated[
            bool,
            typer.Option(
                "--retry",
                help="Send again what failed on the last run.delivery_retry_days days "
                "(run does this by itself).",
            ),
        ] = False,
        dry_run: Annotated[
            bool,
            typer.Option(
                "--dry-run",
                help="Send nothing: write each channel's exact payload to a file "
                "(<day>.<channel>.json, .eml for e-mail) under --out, for review.",
            ),
        ] = False,
        out_dir: Annotated[
            Path | None,
            typer.Option(
                "--out",
                metavar="DIR",
                help="Folder for --dry-run's files [default: <output_dir>/dry-run].",
            ),
        ] = None,
        config: ConfigOption = None,
        home: HomeOption = None,
    ) -> None:
        """Send a day's report to the [[deliver]] channels (again), or a test message.

        `run` delivers by itself after writing the files, and sends again what failed on
        earlier days; use this to resend a day (--force sends again where it was already
        delivered), to retry now (--retry) or to check a channel (--test: one sample
        message, one attempt). --dry-run writes what would be sent instead of sending it.
        `deliver status [--json]` shows what was delivered where.
        """
        if ctx.invoked_subcommand is not None:
            return

        def action() -> int:
            from datetime import datetime, timedelta

            from commitdigest.aio import run_sync
            from commitdigest.config import find_config, load_settings
            from commitdigest.deliver.service import (
                deliver_day,
                failed,
                load_day_context,
                select_channels,
                send_test,
            )
            from commitdigest.errors import DeliveryFailed
            from commitdigest.pipeline.daily import run_lock
            from commitdigest.store import Store, default_home
            from commitdigest.window import parse_day, resolve_zone

            settings = load_settings(find_config(config))
            if dry_run:
                return write_dry_run(settings, date, channel, test, out_dir)
            if retry:
                home_dir = home or default_home()
                with run_lock(home_dir, settings.run.lock_timeout_s), Store.open(home_dir) as store:
                    return DeliveryFailed.exit_code if retry_deliveries(settings, store) else 0
            if test is not None:
                (target,) = select_channels(settings.deliver, [test])
                results = [run_sync(send_test(target, lang=target.lang or settings.language))]
            else:
                _, zone = resolve_zone(settings.timezone)
                day = parse_day(date) if date else datetime.now(tz=zone).date() - timedelta(1)
                context, paths = load_day_context(settings.output_dir, day.isoformat())
                targets = select_channels(settings.deliver, channel)
                home_dir = home or default_home()
                with run_lock(home_dir, settings.run.lock_timeout_s), Store.open(home_dir) as store:
                    results = run_sync(
                        deliver_day(context, targets, store, force=force, report_paths=paths)
                    )
            print_results(results)
            return DeliveryFailed.exit_code if failed(results) else 0

        exit_with(action)
