from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from commitdigest.errors import UsageError
from commitdigest.pipeline.schedule import next_fire, parse_at, schedule_loop

SH = ZoneInfo("Asia/Shanghai")


def test_next_fire_today_or_tomorrow() -> None:
    assert next_fire(datetime(2026, 5, 1, 7, 59, tzinfo=SH), (8, 0), SH) == datetime(
        2026, 5, 1, 8, 0, tzinfo=SH
    )
    assert next_fire(datetime(2026, 5, 1, 8, 0, tzinfo=SH), (8, 0), SH) == datetime(
        2026, 5, 2, 8, 0, tzinfo=SH
    )
    # "now" in another zone: 23:30 UTC is 07:30 the next day in Shanghai
    assert next_fire(datetime(2026, 5, 1, 23, 30, tzinfo=UTC), (8, 0), SH) == datetime(
        2026, 5, 2, 8, 0, tzinfo=SH
    )


def test_a_time_in_a_dst_gap_fires_after_it() -> None:
    berlin = ZoneInfo("Europe/Berlin")
    fire = next_fire(datetime(2026, 3, 29, 0, 0, tzinfo=berlin), (2, 30), berlin)
    assert fire.astimezone(UTC) == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)  # 03:30 CEST


@pytest.mark.parametrize("text", ["8", "24:00", "08:60", "eight"])
def test_bad_times(text: str) -> None:
    with pytest.raises(UsageError, match="HH:MM"):
        parse_at(text)


def test_loop_runs_daily_and_survives_a_failed_run() -> None:
    clock = [datetime(2026, 5, 1, 7, 0, tzinfo=SH)]
    fired: list[datetime] = []
    sleeps: list[float] = []

    def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        clock[0] += timedelta(seconds=seconds)

    def run_once() -> int:
        fired.append(clock[0])
        if len(fired) == 1:
            raise RuntimeError("boom")
        return 0

    runs = schedule_loop(
        run_once, at=(8, 0), zone=SH, now=lambda: clock[0], sleep=sleep, max_runs=3
    )
    assert runs == 3
    assert fired == [datetime(2026, 5, d, 8, 0, tzinfo=SH) for d in (1, 2, 3)]
    assert max(sleeps) <= 60  # sleeps in short steps
