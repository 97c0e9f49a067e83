"""A foreground scheduler: trigger the daily run at a wall-clock time in a time zone.

A small loop of our own (no scheduler library): it computes the next occurrence of
``HH:MM`` in the zone (DST-aware), sleeps towards it in short steps (so a suspended laptop
or a clock change is noticed), runs, logs the outcome, and survives a failed run.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from commitdigest.errors import UsageError

log = logging.getLogger("commitdigest.schedule")
MAX_SLEEP_STEP_S = 60.0


def parse_at(text: str) -> tuple[int, int]:
    """``"08:00"`` → ``(8, 0)``; a :class:`UsageError` for anything else."""
    try:
        hours, minutes = (int(part) for part in text.strip().split(":"))
    except ValueError:
        raise UsageError(f"--at {text!r}: use HH:MM, e.g. 08:00") from None
    if not (0 <= hours < 24 and 0 <= minutes < 60):
        raise UsageError(f"--at {text!r}: use HH:MM, e.g. 08:00")
    return hours, minutes


def next_fire(now: datetime, at: tuple[int, int], zone: ZoneInfo) -> datetime:
    """The first ``at`` in ``zone`` strictly after ``now`` (a wall time a DST gap skips
    fires at the first valid moment after it)."""
    local = now.astimezone(zone)
    for offset in range(3):
        day = local.date() + timedelta(days=offset)
        wall = datetime(day.year, day.month, day.day, *at, tzinfo=zone)
        moment = wall.astimezone(UTC).astimezone(zone)  # a wall time in a DST gap moves on
        if moment > local:
            return moment
    raise AssertionError("unreachable: one of three days has the time")


def schedule_loop(
    run_once: Callable[[], int],
    *,
    at: tuple[int, int],
    zone: ZoneInfo,
    now: Callable[[], datetime] = lambda: datetime.now().astimezone(),
    sleep: Callable[[float], None] = time.sleep,
    max_runs: int | None = None,
) -> int:
    """Run ``run_once`` every day at ``at``; return how many runs were made (tests stop it
    with ``max_runs``; the command runs until interrupted)."""
    runs = 0
    while max_runs is None or runs < max_runs:
        target = next_fire(now(), at, zone)
        log.info("next run at %s", target.isoformat(timespec="minutes"))
        while (remaining := (target - now()).total_seconds()) > 0:
            sleep(min(remaining, MAX_SLEEP_STEP_S))
        started = time.monotonic()
        try:
            code = run_once()
        except Exception:  # the schedule survives any failed run
            log.exception("the run failed")
            code = -1
        runs += 1
        log.info(
            "run %d finished with exit code %d after %.1f s",
            runs,
            code,
            time.monotonic() - started,
        )
    return runs
