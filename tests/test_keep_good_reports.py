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


def test_a_report_is_replaced_only_by_one_at_least_as_complete(tmp_path: Path) -> None:
    from test_render_markdown import make_analysis, make_commit

    from commitdigest.models import AnalysisStatus, Importance

    commits = [make_commit(f"Fix {i} (#{i})", NOW.replace(day=2, hour=10 + i)) for i in range(3)]
    ok = {c.sha: make_analysis(Importance.MEDIUM) for c in commits}
    options = ReportOptions(repositories=["good"], windows=[DAY], out_dir=tmp_path)

    def day(cs: list, analyses: dict) -> object:  # type: ignore[type-arg]
        return _write_day(DAY, [RepositoryInput("good", None, "main", cs, analyses)], options,
                          ["md", "json"], NOW)  # fmt: skip

    first = day(commits, ok)
    before = {p: p.read_bytes() for p in first.paths}  # type: ignore[attr-defined]
    fewer = day(commits[:2], ok)  # a commit gone (a rewritten history, a flaky read)
    assert fewer.paths == [] and fewer.kept_code == 3  # type: ignore[attr-defined]
    assert "1 commit(s) of good are missing" in fewer.kept_reason  # type: ignore[attr-defined]
    fallback = make_analysis(Importance.MEDIUM).model_copy(
        update={"status": AnalysisStatus.FALLBACK, "notes": ["LLM unavailable", "x"]}
    )
    worse = day(commits, {**ok, commits[0].sha: fallback})  # the LLM failed this time
    assert worse.paths == [] and worse.kept_code == 8  # type: ignore[attr-defined]
    assert {p: p.read_bytes() for p in first.paths} == before  # type: ignore[attr-defined]
    late = make_commit("Late (#9)", NOW.replace(day=2, hour=20))
    more = day([*commits, late], {**ok, late.sha: make_analysis(Importance.LOW)})
    assert len(more.paths) == 2 and more.kept == []  # type: ignore[attr-defined]
