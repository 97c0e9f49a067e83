"""The daily run: every subscribed repository, each complete day since the last good run.

``commitdigest run`` is safe to repeat and to schedule: it catches up the days a machine
was off (nothing is reported twice), takes a lock so two runs never overlap, and writes
atomically, so it can be killed at any moment (cached analyses survive). A repository
that fails is reported and does not stop the others; the days of a run with a failure
are done again next time.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path

from commitdigest.config import Settings
from commitdigest.config.settings import SEPARATE_FROM, WEEKDAYS
from commitdigest.errors import BusyError, UsageError
from commitdigest.models import Subscription
from commitdigest.pipeline.report import (
    Opener,
    ReportOptions,
    ReportOutcome,
    generate_reports,
)
from commitdigest.pipeline.weekly import WeeklyOutcome, generate_weekly
from commitdigest.progress import Progress
from commitdigest.render.folder import ReportsFolder
from commitdigest.store import Store
from commitdigest.window import (
    DayWindow,
    day_start,
    last_complete_week,
    parse_day,
    resolve_zone,
    split_days,
    week_label,
    week_windows,
)

RUN_COMMAND = "run"  # runs that move the catch-up pointer
RERUN_COMMAND = "run-date"  # explicit --date and --since re-runs: never move it


@dataclass(frozen=True)
class DailyPlan:
    """The days a run reports: ``--date``'s, a backfill's (``--since``), or the catch-up's
    (every complete day since the last good run)."""

    days: list[DayWindow]
    command: str
    # older missed days beyond run.max_catch_up_days: the first and the last of them
    skipped: tuple[date, date] | None = None
    backfill: bool = False  # `run --since`: the days are written, not sent (unless --deliver)

    @property
    def labels(self) -> list[str]:
        return [d.day.isoformat() for d in self.days]

    @property
    def skipped_days(self) -> int:
        return 0 if self.skipped is None else (self.skipped[1] - self.skipped[0]).days + 1


def plan_days(
    store: Store,
    settings: Settings,
    *,
    on_date: str | None = None,
    since: str | None = None,
    until: str | None = None,
    now: datetime | None = None,
    command: str = RUN_COMMAND,
) -> DailyPlan:
    """The days to report: ``on_date``; the backfill ``since`` … ``until`` (exclusive,
    default today), oldest first; else each complete day since the last good run, at most
    ``run.max_catch_up_days`` of them (the newest)."""
    zone_name, zone = resolve_zone(settings.timezone)
    today = (now or datetime.now(tz=zone)).astimezone(zone).date()
    if on_date is not None and (since or until):
        raise UsageError("--date cannot be combined with --since or --until")
    if on_date is not None:
        day = parse_day(on_date)
        if day >= today:
            raise UsageError(f"--date {day} is not a complete day yet in {zone_name}")
        return DailyPlan(_days(day, day + timedelta(days=1), zone_name), RERUN_COMMAND)
    if since or until:
        if not since:
            raise UsageError("--until needs --since")
        first = parse_day(since)
        end = min(parse_day(until), today) if until else today
        if first >= end:
            raise UsageError(f"--since {first} leaves no complete day before {end} in {zone_name}")
        return DailyPlan(_days(first, end, zone_name), RERUN_COMMAND, backfill=True)
    last_end = store.last_ok_window_end(command)
    if last_end is None:
        first = today - timedelta(days=settings.run.first_run_days_back)
    else:
        first = last_end.astimezone(zone).date()
    cap = settings.run.max_catch_up_days
    skipped: tuple[date, date] | None = None
    if (today - first).days > cap:
        newest_first = today - timedelta(days=cap)
        skipped = (first, newest_first - timedelta(days=1))
        first = newest_first
    return DailyPlan(_days(first, today, zone_name), command, skipped)


def _days(first: date, end: date, zone_name: str) -> list[DayWindow]:
    """The calendar days ``first`` … ``end`` (exclusive) in the zone."""
    _, zone = resolve_zone(zone_name)
    return split_days(day_start(first, zone), day_start(end, zone), zone_name)


@contextlib.contextmanager
def run_lock(home: Path, timeout_s: float, name: str = "run.lock") -> Iterator[None]:
    """An exclusive lock on ``home/<name>`` (``run.lock``; a shard has its own);
    :class:`BusyError` after ``timeout_s``."""
    home.mkdir(parents=True, exist_ok=True)
    path = home / name
    with open(path, "a+", encoding="utf-8") as handle:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    handle.seek(0)
                    holder = handle.read().strip() or "another process"
                    raise BusyError(
                        f"another commitdigest run is in progress ({holder}); lock {path}"
                    ) from None
                time.sleep(0.1)
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}")
        handle.flush()
        try:
            yield
        finally:
            handle.seek(0)
            handle.truncate()
            fcntl.flock(handle, fcntl.LOCK_UN)


@dataclass(frozen=True)
class RunRequest:
    """What a run is asked for (``commitdigest run``'s options)."""

    date: str | None = None  # --date: one day again
    since: str | None = None  # --since: a backfill from this day …
    until: str | None = None  # … to this one (exclusive; default today)
    deliver: bool = False  # --deliver: send a backfill's days too
    shard: Shard | None = None  # --shard K/N: part of the subscriptions, nothing sent
    downstream: Sequence[Path] = ()  # --downstream: checkouts the radar looks for uses in


async def run_daily(
    settings: Settings,
    store: Store,
    plan: DailyPlan,
    *,
    opener: Opener,
    request: RunRequest | None = None,
    progress: Progress | None = None,
    now: datetime | None = None,
) -> ReportOutcome:
    """Report ``plan``'s days for every subscribed repository — or those of
    ``request.shard`` — in one combined report a day or separate ones
    (:func:`separate_reports`); ``request.downstream``: checkouts the radar looks for uses
    in, for every repository."""
    shard = request.shard if request is not None else None
    subscriptions = settings.subscriptions()
    if not subscriptions:
        raise UsageError(
            "no repositories to follow: add some with `commitdigest repos add OWNER/REPO` "
            "or [[repositories]] in commitdigest.toml"
        )
    separate = separate_reports(settings, subscriptions) or shard is not None
    if shard is not None:
        subscriptions = [s for s in subscriptions if shard.holds(s.name)]
        if not subscriptions:
            return ReportOutcome()
    if not plan.days:
        return ReportOutcome()
    options = ReportOptions.from_settings(
        settings,
        repositories=subscriptions,
        windows=plan.days,
        # delivery (and `deliver --date`) reads the day's JSON context
        formats=[*settings.formats, *(["json"] if settings.deliver else [])],
        keep_going=True,
        command=plan.command,
        downstream=tuple(request.downstream if request is not None else ()),
        separate=separate,
    )
    return await generate_reports(options, store, progress=progress, now=now, opener=opener)


@dataclass(frozen=True)
class Shard:
    """``run --shard K/N``: the K-th of N deterministic parts of the subscriptions."""

    index: int  # 1..count
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        try:
            k, n = (int(part) for part in text.split("/"))
        except ValueError:
            raise UsageError(f"--shard {text!r}: expected K/N, e.g. 1/4") from None
        if not 1 <= k <= n <= 1000:
            raise UsageError(f"--shard {text!r}: K must be between 1 and N (at most 1000)")
        return cls(k, n)

    def holds(self, name: str) -> bool:
        """Whether the repository named ``name`` (as configured) is this shard's: by a
        hash of the name, so adding a repository moves no other one."""
        digest = int(hashlib.sha256(name.encode("utf-8")).hexdigest()[:12], 16)
        return digest % self.count == self.index - 1

    @property
    def label(self) -> str:
        return f"{self.index}-of-{self.count}"


def separate_reports(settings: Settings, subscriptions: Sequence[Subscription]) -> bool:
    """Whether the run writes one report per repository (or group) and a day index:
    run.reports = "separate", or "auto" with SEPARATE_FROM repositories or a group."""
    mode = settings.run.reports
    if mode != "auto":
        return mode == "separate"
    return len(subscriptions) >= SEPARATE_FROM or any(s.group for s in subscriptions)


def weekly_due(settings: Settings, today: date) -> list[Subscription]:
    """The repositories in the weekly digest ``run`` writes ``today``: none unless some
    repository's weekly day (its own ``weekly``, else the config's) is today; then every
    repository whose weekly day has come this week (a later day's weekly holds the earlier
    days' repositories too, so one file per week has them all)."""
    days = [repo.weekly or settings.weekly for repo in settings.repositories]
    name = WEEKDAYS[today.weekday()]
    if name not in days:
        return []
    return [
        subscription
        for subscription, day in zip(settings.subscriptions(), days, strict=True)
        if day != "off" and WEEKDAYS.index(day) <= today.weekday()
    ]


async def run_weekly(
    settings: Settings,
    store: Store,
    *,
    opener: Opener,
    progress: Progress | None = None,
    now: datetime | None = None,
) -> WeeklyOutcome | None:
    """The weekly digest of the last complete week when one is due today (see
    :func:`weekly_due`) and not written yet for these repositories; else None."""
    zone_name, zone = resolve_zone(settings.timezone)
    moment = now or datetime.now(tz=zone)
    due = weekly_due(settings, moment.astimezone(zone).date())
    if not due:
        return None
    monday = last_complete_week(zone, moment)
    label = week_label(monday)
    done = ReportsFolder(settings.output_dir).read_week(label)
    if done is not None and len(done.repositories) >= len(due):
        return None
    options = ReportOptions.from_settings(
        settings,
        repositories=due,
        windows=week_windows(monday, zone_name),
        formats=[*settings.formats, "json"],
        keep_going=True,
        command="weekly",
        separate=separate_reports(settings, settings.subscriptions()),
    )
    return await generate_weekly(options, monday, store, progress=progress, opener=opener)
