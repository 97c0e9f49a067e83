"""A day's report is never replaced by one that is missing a repository."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

from commitdigest.pipeline.report import ReportOptions, _write_day
from commitdigest.render.context import RepositoryInput
from commitdigest.window import DayWindow

DAY = DayWindow(
    date(2026, 3, 2), datetime(2026, 3, 2, tzinfo=UTC), datetime(2026, 3, 3, tzinfo=UTC), "UTC"
)
NOW = datetime(2026, 3, 3, 1, tzinfo=UTC)


def _inputs(error: str | None) -> list[RepositoryInput]:
    return [
        RepositoryInput("good", None, "main", [], {}),
        RepositoryInput("flaky", None, "main", [], {}, error=error),
    ]


def test_a_partial_day_keeps_the_earlier_report(tmp_path: Path) -> None:
    options = ReportOptions(repositories=["good", "flaky"], windows=[DAY], out_dir=tmp_path)
    first = _write_day(DAY, _inputs(None), options, ["md", "json"], NOW)
    assert [p.name for p in first.paths] == ["2026-03-02.md", "2026-03-02.json"]
    before = {p: p.read_bytes() for p in first.paths}

    partial = _write_day(DAY, _inputs("cannot read flaky"), options, ["md", "json"], NOW)
    assert partial.paths == [] and sorted(partial.kept) == sorted(first.paths)
    assert {p: p.read_bytes() for p in first.paths} == before  # untouched

    fresh = tmp_path / "fresh"
    fresh.mkdir()
    alone = ReportOptions(repositories=["good", "flaky"], windows=[DAY], out_dir=fresh)
    only = _write_day(DAY, _inputs("cannot read flaky"), alone, ["md"], NOW)
    assert [p.name for p in only.paths] == ["2026-03-02.md"]  # nothing to keep: written
    assert "cannot read flaky" in only.paths[0].read_text(encoding="utf-8")
