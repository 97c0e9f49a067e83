"""`commitdigest deliver`: send a day's report to the channels again, or a test message."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from commitdigest.cli.console import err, exit_with, out
from commitdigest.cli.options import ConfigOption, DateOption, HomeOption, takes_options
from commitdigest.errors import EXIT_CODES_HELP

if TYPE_CHECKING:
    from commitdigest.config import Settings
    from commitdigest.deliver.service import DeliveryResult, DeliveryState, Retried


def print_results(results: Sequence[DeliveryResult]) -> None:
    for r in results:
        if r.ok:
            detail = f" ({r.detail})" if r.detail else ""
            out.print(f"{r.status} {r.channel} {r.day}{detail}", markup=False)
        else:
            err.print(f"error: deliver {r.channel} {r.day}: {r.error}", markup=False)


def print_retried(retried: Retried) -> None:
    """What a run (or ``deliver --retry``) sent again, and what it gave up."""
    for item in retried.given_up:
        err.print(
            f"warning: deliver {item.channel} {item.day}: given up, its first failure "
            f"({item.first_failure:%Y-%m-%d %H:%M} UTC) is older than retry_days = "
            f"{item.retry_days} (`commitdigest deliver --date {item.day} --channel "
            f"{item.channel}` sends it by hand)",
            markup=False,
        )
    print_results(retried.results)


def report_label(settings: Settings, date: str | None) -> str:
    """``--date``'s report: a day (default yesterday in the config's zone), or a week
    (``2026-W09``: its weekly digest)."""
    from datetime import datetime, timedelta

    from commitdigest.render.folder import is_week
    from commitdigest.window import parse_day, resolve_zone

    if date is not None and is_week(date.strip()):
        return date.strip()
    _, zone = resolve_zone(settings.timezone)
    return (parse_day(date) if date else datetime.now(tz=zone).date() - timedelta(1)).isoformat()


def write_dry_run(
    settings: Settings,
    date: str | None,
    channels: Sequence[str] | None,
    test: str | None,
    out_dir: Path | None,
) -> int:
    """`deliver --dry-run`: each channel's payload for the day (or the sample day with
    --test CHANNEL) written under ``out_dir``; nothing sent, nothing recorded."""
    from commitdigest.aio import run_sync
    from commitdigest.deliver.digest import sample_context
    from commitdigest.deliver.service import dry_run, select_channels
    from commitdigest.render.folder import Report, ReportsFolder

    target = out_dir or settings.output_dir / "dry-run"
    context: Report
    if test is not None:
        targets = select_channels(settings.deliver, [test])
        lang = targets[0].lang or settings.report_language()
        context, paths = sample_context(lang), dict[str, Path]()
    else:
        targets = select_channels(settings.deliver, channels)
        label = report_label(settings, date)
        folder = ReportsFolder(settings.output_dir)
        context, paths = folder.load(label), folder.files(label)
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


def status_rows(states: Sequence[DeliveryState]) -> list[dict[str, object]]:
    """The delivery state: one row per day and channel (its latest record)."""
    return [
        {
            "day": st.day,
            "channel": st.channel,
            "type": st.type,
            "state": st.state,
            "attempts": st.attempts,
            "last_error": st.last_error,
            "delivered_at": st.delivered_at,
            "first_failure": st.first_failure.isoformat() if st.first_failure else None,
            "retry_until": st.retry_until.isoformat() if st.retry_until else None,
            "next_retry": st.next_retry,
            "why": st.why,
        }
        for st in states
    ]


deliver_app = typer.Typer(
    help="Send a day's report to the [[deliver]] channels (again), a test message, or show "
    "what was delivered where.",
    no_args_is_help=False,
)


@dataclass(frozen=True, kw_only=True)
class DeliverArgs:
    """``deliver``'s arguments and options (each field one of them, in ``--help`` order)."""

    date: DateOption = None
    channel: Annotated[
        list[str] | None, typer.Option("--channel", help="Only this channel (repeatable).")
    ] = None
    force: Annotated[
        bool, typer.Option("--force", help="Send again even if already delivered.")
    ] = False
    test: Annotated[
        str | None,
        typer.Option("--test", metavar="CHANNEL", help="Send a sample message to CHANNEL."),
    ] = None
    retry: Annotated[
        bool,
        typer.Option(
            "--retry",
            help="Send again what failed to reach a channel, now (every run does this "
            "first); a delivery whose first failure is older than its channel's "
            "retry_days is given up.",
        ),
    ] = False
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run",
            help="Send nothing: write each channel's exact payload to a file "
            "(<day>.<channel>.json, .eml for e-mail) under --out, for review.",
        ),
    ] = False
    out_dir: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="DIR",
            help="Folder for --dry-run's files [default: <output_dir>/dry-run].",
        ),
    ] = None
    config: ConfigOption = None
    home: HomeOption = None


def register(app: typer.Typer) -> None:
    app.add_typer(deliver_app, name="deliver")

    @deliver_app.command("status", epilog=EXIT_CODES_HELP)
    def status(
        as_json: Annotated[bool, typer.Option("--json", help="One JSON list on stdout.")] = False,
        config: ConfigOption = None,
        home: HomeOption = None,
    ) -> None:
        """What was delivered where: day × channel × state × attempts × last error, and
        when a failed delivery is sent again (each run, until its first failure is older
        than the channel's retry_days) or why it is not."""

        def action() -> int:
            import json

            from commitdigest.config import find_config, load_settings
            from commitdigest.deliver.service import delivery_states
            from commitdigest.store import Store, default_home

            settings = load_settings(find_config(config))
            with Store.open(home or default_home()) as store:
                known = settings.deliver if settings.config_file or settings.deliver else None
                rows = status_rows(delivery_states(store, known))
            if as_json:
                out.print(json.dumps(rows, ensure_ascii=False, indent=1), markup=False)
                return 0
            if not rows:
                out.print("no deliveries recorded yet", markup=False)
            for row in rows:
                line = f"{row['day']}  {row['channel']}  {row['state']}  {row['attempts']}"
                if row["last_error"]:
                    line += f"  {row['last_error']}"
                if row["state"] != "sent":
                    retry = row["next_retry"] or "no"
                    line += f"  (next retry: {retry}; {row['why']})"
                out.print(line, markup=False)
            return 0

        exit_with(action)

    @deliver_app.callback(invoke_without_command=True, epilog=EXIT_CODES_HELP)
    @takes_options(DeliverArgs, context=True)
    def deliver(ctx: typer.Context, args: DeliverArgs) -> None:
        """Send a day's report to the [[deliver]] channels (again), or a test message.

        `run` delivers by itself after writing the files, and first sends again what failed
        on earlier runs; use this to send a day a backfill wrote without sending, to resend
        a day (--force sends again where it was already delivered), a weekly digest
        (--date 2026-W09), to retry now (--retry) or to check a channel (--test: one sample
        message, one attempt). --dry-run writes what would be sent instead of sending it.
        `deliver status [--json]` shows what was delivered where, and what is sent again.
        """
        if ctx.invoked_subcommand is not None:
            return

        def action() -> int:
            from commitdigest.aio import run_sync
            from commitdigest.config import find_config, load_settings
            from commitdigest.deliver.service import failed, select_channels, send_test
            from commitdigest.errors import DeliveryFailed
            from commitdigest.pipeline.job import deliver_report, retry_deliveries

            settings = load_settings(find_config(args.config))
            date, channel, test, home = args.date, args.channel, args.test, args.home
            if args.dry_run:
                return write_dry_run(settings, date, channel, test, args.out_dir)
            if args.retry:
                retried = run_sync(retry_deliveries(settings, home))
                print_retried(retried)
                return DeliveryFailed.exit_code if failed(retried.results) else 0
            if test is not None:
                (target,) = select_channels(settings.deliver, [test])
                results = [
                    run_sync(send_test(target, lang=target.lang or settings.report_language()))
                ]
            else:
                label = report_label(settings, date)
                results = run_sync(
                    deliver_report(settings, label, home, channels=channel, force=args.force)
                )
            print_results(results)
            return DeliveryFailed.exit_code if failed(results) else 0

        exit_with(action)
