"""Time windows: which calendar days (in which zone) a report covers.

A report covers one or more calendar days in an IANA time zone; each day is the
half-open interval ``[00:00, next 00:00)`` in that zone, clipped to ``--since/--until``.
``--last N`` is the one report that is not a day: the span of the branch's last N commits
(:func:`commit_range`), labelled with their first and last commit date.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .errors import UsageError

if TYPE_CHECKING:  # (the models import pydantic: not for planning a window, which the
    # command line does before it has parsed its options, see cli.early)
    from .models import WindowInfo


@dataclass(frozen=True)
class DayWindow:
    """A day of a report (``day``), or the span of a run of commits (``label`` and
    ``name`` set, ``day`` its last day)."""

    day: date
    start: datetime  # aware, inclusive
    end: datetime  # aware, exclusive
    tz: str
    label: str = ""  # a commit range's title label ("2024-03-01 – 2024-03-02"); "": the day
    name: str = ""  # a commit range's file name ("last-20_2024-03-01_2024-03-02"); "": the day

    @property
    def key(self) -> str:
        """The report's file name without extension: the day (YYYY-MM-DD), or the range's
        name."""
        return self.name or self.day.isoformat()

    @property
    def is_full_day(self) -> bool:
        return self.start == day_start(self.day, self.start.tzinfo) and self.end == day_start(
            self.day + timedelta(days=1), self.start.tzinfo
        )

    def info(self) -> WindowInfo:
        from .models import WindowInfo

        label = self.label or self.day.isoformat()
        return WindowInfo(start=self.start, end=self.end, tz=self.tz, label=label)


def day_start(day: date, zone: tzinfo | None) -> datetime:
    return datetime.combine(day, time(0), tzinfo=zone)


def local_zone_name() -> str:
    """The machine's IANA zone name: $TZ, /etc/timezone, the /etc/localtime link, else UTC."""
    candidates: list[str] = []
    if os.environ.get("TZ"):
        candidates.append(os.environ["TZ"].lstrip(":"))
    with contextlib.suppress(OSError):
        candidates.append(Path("/etc/timezone").read_text(encoding="utf-8").strip())
    try:
        target = os.readlink("/etc/localtime")
        if "zoneinfo/" in target:
            candidates.append(target.split("zoneinfo/", 1)[1])
    except OSError:
        pass
    for name in candidates:
        try:
            ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            continue
        return name
    return "UTC"


def resolve_zone(name: str | None) -> tuple[str, ZoneInfo]:
    zone_name = name or local_zone_name()
    try:
        return zone_name, ZoneInfo(zone_name)
    except (ZoneInfoNotFoundError, ValueError):
        raise UsageError(
            f"unknown time zone {zone_name!r}: use an IANA name such as Asia/Shanghai or UTC"
        ) from None


def parse_point(text: str, zone: ZoneInfo, option: str) -> datetime:
    """A date (midnight in ``zone``) or an ISO datetime (its own offset, else ``zone``)."""
    value = text.strip()
    try:
        if len(value) == 10:
            return day_start(date.fromisoformat(value), zone)
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise UsageError(
            f"{option}: {text!r} is not a date (YYYY-MM-DD) or ISO datetime (YYYY-MM-DDTHH:MM)"
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=zone)


def parse_day(text: str, option: str = "--date") -> date:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(f"{option}: {text!r} is not a date (YYYY-MM-DD)") from None


def plan_windows(
    *,
    tz: str | None = None,
    on_date: str | None = None,
    since: str | None = None,
    until: str | None = None,
    days: int | None = None,
    now: datetime | None = None,
) -> list[DayWindow]:
    """The day windows a report command covers, oldest first.

    Exactly one way of choosing: ``on_date``; ``since``/``until``; ``days`` (the last N
    complete days); or nothing, meaning yesterday (the last complete day).
    """
    try:
        start, end, zone_name = _plan_bounds(tz, on_date, since, until, days, now)
    except (OverflowError, ValueError) as exc:  # a day beyond year 1..9999
        raise UsageError(
            f"the window is out of range ({exc}): dates lie in years 1 to 9999"
        ) from None
    return split_days(start, end, zone_name)


MAX_WINDOW_DAYS = 3660  # ten years of daily reports in one command


def _plan_bounds(
    tz: str | None,
    on_date: str | None,
    since: str | None,
    until: str | None,
    days: int | None,
    now: datetime | None,
) -> tuple[datetime, datetime, str]:
    zone_name, zone = resolve_zone(tz)
    if on_date is not None and (since or until or days):
        raise UsageError("--date cannot be combined with --since, --until or --days")
    if days is not None and (since or until):
        raise UsageError("--days cannot be combined with --since or --until")
    if days is not None and days < 1:
        raise UsageError("--days must be at least 1")
    today = (now or datetime.now(tz=zone)).astimezone(zone).date()

    if on_date is not None:
        day = parse_day(on_date)
        start, end = day_start(day, zone), day_start(day + timedelta(days=1), zone)
    elif since or until:
        if not since:
            raise UsageError("--until needs --since")
        start = parse_point(since, zone, "--since")
        end = (
            parse_point(until, zone, "--until")
            if until
            else day_start(today + timedelta(days=1), zone)
        )
        if start >= end:
            raise UsageError(f"--since ({since}) must be before --until ({until or 'now'})")
    else:
        n = days or 1
        if n > MAX_WINDOW_DAYS:
            raise UsageError(f"--days must be at most {MAX_WINDOW_DAYS}")
        start, end = day_start(today - timedelta(days=n), zone), day_start(today, zone)
    return start, end, zone_name


def split_days(start: datetime, end: datetime, zone_name: str) -> list[DayWindow]:
    zone = ZoneInfo(zone_name)
    start, end = start.astimezone(zone), end.astimezone(zone)
    if (end - start).days > MAX_WINDOW_DAYS:
        raise UsageError("the window spans more than ten years; choose a shorter range")
    windows: list[DayWindow] = []
    day = start.date()
    while day_start(day, zone) < end:
        lo = max(start, day_start(day, zone))
        hi = min(end, day_start(day + timedelta(days=1), zone))
        if lo < hi:
            windows.append(DayWindow(day=day, start=lo, end=hi, tz=zone_name))
        day += timedelta(days=1)
    return windows


DAY_LABEL = re.compile(r"\d{4}-\d{2}-\d{2}")
"""A day as a report's label and file name: ``2026-03-02``."""


def is_day_label(label: str) -> bool:
    """Whether ``label`` names a calendar day (``2026-03-02``), as a day's report does."""
    if DAY_LABEL.fullmatch(label) is None:
        return False
    try:
        date.fromisoformat(label)
    except ValueError:
        return False
    return True


def commit_range(moments: Iterable[datetime], zone_name: str, count: int) -> DayWindow:
    """The one window that holds ``moments`` (the committer times of a branch's last
    ``count`` commits): from the first to just after the last (git dates are whole
    seconds), labelled with their first and last date in ``zone_name``
    (``2024-03-01 – 2024-03-02``; ``2024-03-02 09:00 – 11:00`` within one day) and named
    ``last-<count>_<first day>_<last day>`` (one day: ``last-<count>_<day>``)."""
    zone = ZoneInfo(zone_name)
    local = sorted(m.astimezone(zone) for m in moments)
    if not local:
        raise ValueError("a commit range needs at least one commit")
    first, last = local[0], local[-1]
    if first.date() == last.date():
        label = f"{first:%Y-%m-%d %H:%M} – {last:%H:%M}"
        name = f"last-{count}_{first:%Y-%m-%d}"
    else:
        label = f"{first:%Y-%m-%d} – {last:%Y-%m-%d}"
        name = f"last-{count}_{first:%Y-%m-%d}_{last:%Y-%m-%d}"
    end = last.replace(microsecond=0) + timedelta(seconds=1)
    return DayWindow(day=last.date(), start=first, end=end, tz=zone_name, label=label, name=name)


# ---- ISO weeks ----------------------------------------------------------------------------

WEEK_LABEL = re.compile(r"\d{4}-W\d{2}")
"""A week as :func:`week_label` writes it: the weekly digest's file name and its label."""


def parse_week(text: str, option: str = "--week") -> date:
    """``2026-W09`` (or ``2026W09``) -> the Monday of that ISO week; a UsageError else."""
    m = re.fullmatch(r"(\d{4})-?[Ww](\d{1,2})", text.strip())
    if m:
        try:
            return date.fromisocalendar(int(m.group(1)), int(m.group(2)), 1)
        except ValueError:
            pass
    raise UsageError(f"{option} {text!r}: expected an ISO week such as 2026-W09")


def week_label(monday: date) -> str:
    """The ISO week of ``monday`` as ``YYYY-Www`` (also the weekly report's file name)."""
    year, week, _ = monday.isocalendar()
    return f"{year}-W{week:02d}"


def last_complete_week(zone: tzinfo, now: datetime | None = None) -> date:
    """The Monday of the last ISO week that has ended in ``zone``."""
    today = (now or datetime.now(tz=zone)).astimezone(zone).date()
    return today - timedelta(days=today.weekday() + 7)


def week_windows(monday: date, zone_name: str) -> list[DayWindow]:
    """The seven day windows of the week that starts on ``monday``, in ``zone_name``."""
    _, zone = resolve_zone(zone_name)
    start = day_start(monday, zone)
    return split_days(start, day_start(monday + timedelta(days=7), zone), zone_name)
