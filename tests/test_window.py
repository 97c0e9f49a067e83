from __future__ import annotations

import itertools
from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from commitdigest.errors import UsageError
from commitdigest.window import plan_windows, split_days

SH = ZoneInfo("Asia/Shanghai")


def test_date_is_one_calendar_day_in_the_zone() -> None:
    [w] = plan_windows(tz="Asia/Shanghai", on_date="2026-01-13")
    assert w.start == datetime(2026, 1, 13, tzinfo=SH)
    assert w.end == datetime(2026, 1, 14, tzinfo=SH)
    assert w.start.utcoffset() == timedelta(hours=8)
    assert w.is_full_day
    assert w.info().label == "2026-01-13"


def test_days_are_the_last_complete_days() -> None:
    now = datetime(2026, 3, 10, 9, 30, tzinfo=SH)
    windows = plan_windows(tz="Asia/Shanghai", days=3, now=now)
    assert [w.day for w in windows] == [date(2026, 3, 7), date(2026, 3, 8), date(2026, 3, 9)]
    assert windows[-1].end == datetime(2026, 3, 10, tzinfo=SH)


def test_default_is_yesterday() -> None:
    now = datetime(2026, 3, 10, 0, 5, tzinfo=SH)
    [w] = plan_windows(tz="Asia/Shanghai", now=now)
    assert w.day == date(2026, 3, 9)


def test_since_until_split_per_day_and_clip_partial_days() -> None:
    windows = plan_windows(tz="UTC", since="2026-06-01T12:00", until="2026-06-03")
    assert [w.day.isoformat() for w in windows] == ["2026-06-01", "2026-06-02"]
    assert windows[0].start.hour == 12 and not windows[0].is_full_day
    assert windows[1].is_full_day
    month = plan_windows(tz="UTC", since="2026-06-01", until="2026-07-01")
    assert len(month) == 30


def test_iso_datetime_with_its_own_offset_is_respected() -> None:
    [w] = plan_windows(
        tz="Asia/Shanghai", since="2026-01-13T00:00+00:00", until="2026-01-13T06:00+00:00"
    )
    assert w.start == datetime(2026, 1, 13, 8, tzinfo=SH)
    assert w.end == datetime(2026, 1, 13, 14, tzinfo=SH)


def test_dst_day_has_its_real_length() -> None:
    [w] = plan_windows(tz="Europe/Berlin", on_date="2026-03-29")
    assert w.end.astimezone(UTC) - w.start.astimezone(UTC) == timedelta(hours=23)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"tz": "Mars/Olympus"}, "unknown time zone"),
        ({"on_date": "2026-13-01"}, "is not a date"),
        ({"since": "yesterday"}, "is not a date"),
        ({"since": "2026-02-01", "until": "2026-01-01"}, "must be before"),
        ({"on_date": "2026-01-01", "days": 2}, "cannot be combined"),
        ({"days": 0}, "at least 1"),
        ({"until": "2026-01-01"}, "needs --since"),
        ({"since": "1900-01-01", "until": "2026-01-01"}, "more than ten years"),
    ],
)
def test_bad_windows_are_usage_errors(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        plan_windows(**kwargs)  # type: ignore[arg-type]


def test_split_days_covers_the_range_without_gaps() -> None:
    start = datetime(2026, 1, 1, 5, tzinfo=SH)
    end = datetime(2026, 1, 4, 7, tzinfo=SH)
    windows = split_days(start, end, "Asia/Shanghai")
    assert windows[0].start == start and windows[-1].end == end
    for a, b in itertools.pairwise(windows):
        assert a.end == b.start


def test_a_commit_range_is_one_window_from_the_first_commit_to_the_last() -> None:
    from datetime import UTC, date, datetime

    from commitdigest.window import commit_range, is_day_label

    moments = [
        datetime(2024, 3, 2, 3, 0, 7, tzinfo=UTC),  # 2024-03-02 11:00:07 in Shanghai
        datetime(2024, 3, 1, 17, 0, tzinfo=UTC),  # 2024-03-02 01:00
        datetime(2024, 2, 28, 1, 0, tzinfo=UTC),  # 2024-02-28 09:00
    ]
    window = commit_range(moments, "Asia/Shanghai", 3)
    assert window.start == moments[2] and window.end == moments[0] + timedelta(seconds=1)
    assert window.day == date(2024, 3, 2) and window.tz == "Asia/Shanghai"
    assert window.info().label == "2024-02-28 – 2024-03-02"
    assert window.key == "last-3_2024-02-28_2024-03-02" and not is_day_label(window.key)
    one_day = commit_range(moments[:2], "Asia/Shanghai", 2)
    assert one_day.info().label == "2024-03-02 01:00 – 11:00"
    assert one_day.key == "last-2_2024-03-02"
    # a day's window keeps its day as its label and name
    [day] = split_days(one_day.start, one_day.end, "Asia/Shanghai")
    assert day.key == day.info().label == "2024-03-02" and is_day_label(day.key)
    with pytest.raises(ValueError):
        commit_range([], "UTC", 1)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"days": 999_999}, "--days must be at most"),
        ({"on_date": "9999-12-31"}, "out of range"),
        ({"days": 3661}, "--days must be at most 3660"),
    ],
)
def test_windows_out_of_range_are_usage_errors(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        plan_windows(tz="UTC", **kwargs)
