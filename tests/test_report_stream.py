"""A report run that works while ``git log`` is read: the radar's workers and the analyses
start on the first commits. Its failures stay contained, and the report is the one a run
that read everything first would write."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import threading
import time
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from gitfixture import CommitSpec, build_repo
from test_radar_report import UPSTREAM_V1, UPSTREAM_V2
from typer.testing import CliRunner

from commitdigest.analysis.radar.commit import CommitInput
from commitdigest.analysis.radar.models import ApiChange
from commitdigest.analysis.rules import RuleAnalyser
from commitdigest.cli import app
from commitdigest.models import Analysis, Commit
from commitdigest.pipeline import radar_scan, report
from commitdigest.pipeline.factory import AnalysisSetup
from commitdigest.pipeline.report import ReportOptions, generate_reports
from commitdigest.sources.open import LocalGitRepository
from commitdigest.store import Store
from commitdigest.window import DayWindow, plan_windows

runner = CliRunner()


def _day(n: int, title: str = "c") -> list[CommitSpec]:
    return [
        CommitSpec(f"{title}{i}", f"2026-03-02T{i // 60:02d}:{i % 60:02d}:00+00:00",
                   files={f"f{i}.txt": f"{title} {i}\n"})
        for i in range(n)
    ]  # fmt: skip


def _windows() -> list[DayWindow]:
    return plan_windows(tz="UTC", on_date="2026-03-02")


def json_reports(tmp_path: Path, argv: list[str], name: str) -> list[object]:
    """The repositories of each day's JSON report of ``commitdigest <argv>``, written to
    its own folder with its own store (``name``)."""
    home = {"COMMITDIGEST_HOME": str(tmp_path / f"{name}-home")}
    result = runner.invoke(app, [*argv, "--out", str(tmp_path / name)], env=home)
    assert result.exit_code == 0, result.stderr
    return [
        json.loads(p.read_text(encoding="utf-8"))["repositories"]
        for p in sorted((tmp_path / name).glob("*.json"))
    ]


@pytest.fixture
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(report, "EARLY_BATCH", 4)
    monkeypatch.setattr(radar_scan, "PARALLEL_FROM", 2)


def after_the_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, argv: list[str], name: str = "after"
) -> list[object]:
    """The reports of ``argv`` (:func:`json_reports`) with no radar while git is read: it
    scans the whole window after the read, in this process (the reference a run that scans
    while it reads must equal)."""

    def none(*args: object) -> None:
        return None

    with monkeypatch.context() as m:
        m.setattr(report.ReportRun, "_radar_stream", none)
        return json_reports(tmp_path, argv, name)


def test_two_repositories_of_the_same_name_keep_their_own_commits(tmp_path: Path) -> None:
    build_repo(tmp_path / "x" / "proj", [CommitSpec("x-one", "2026-03-02T10:00:00+00:00",
                                                    files={"a.txt": "1\n"})])  # fmt: skip
    build_repo(tmp_path / "y" / "proj", [CommitSpec("y-one", "2026-03-02T11:00:00+00:00",
                                                    files={"b.txt": "1\n"})])  # fmt: skip
    argv = ["report", str(tmp_path / "x" / "proj"), str(tmp_path / "y" / "proj"), "--date",
            "2026-03-02", "--tz", "UTC", "--format", "json", "--out",
            str(tmp_path / "out")]  # fmt: skip
    result = runner.invoke(app, argv, env={"COMMITDIGEST_HOME": str(tmp_path / "h")})
    assert result.exit_code == 0, result.stderr
    doc = json.loads((tmp_path / "out" / "2026-03-02.json").read_text(encoding="utf-8"))
    titles = sorted(c["title"] for r in doc["repositories"] for c in r["commits"])
    assert titles == ["x-one", "y-one"]


@pytest.mark.parametrize("radar", [False, True])
def test_a_repository_that_fails_mid_read_leaves_no_work_behind(
    tmp_path: Path, small_batches: None, radar: bool
) -> None:
    """``--keep-going``: a repository whose ``git log`` fails after some commits were
    analysed (or sent to the radar) counts for nothing, and the others are reported."""
    shas = build_repo(tmp_path / "bad", _day(30))
    build_repo(tmp_path / "good", [CommitSpec("g", "2026-03-02T12:00:00+00:00",
                                              files={"g.txt": "g\n"})])  # fmt: skip
    blob = subprocess.run(
        ["git", "-C", str(tmp_path / "bad"), "rev-parse", f"{shas[5]}:f5.txt"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    os.remove(tmp_path / "bad" / ".git" / "objects" / blob[:2] / blob[2:])
    options = ReportOptions(
        repositories=[str(tmp_path / "bad"), str(tmp_path / "good")],
        windows=_windows(),
        lang="en",
        out_dir=tmp_path / "out",
        keep_going=True,
        radar=radar,
    )
    outcome = asyncio.run(generate_reports(options, Store.open(tmp_path / "home")))
    assert list(outcome.failures) == ["bad"]
    assert [d.commits for d in outcome.days] == [1]
    assert (outcome.analysed, outcome.cached) == (1, 0)


class _Failing:
    """Rules, slowly; one commit raises."""

    id = "failing"
    version = "1"
    uses_focus = False

    def __init__(self) -> None:
        self.rules = RuleAnalyser()
        self.after_failure = 0
        self.failed = False

    async def analyse(
        self, commit: Commit, *, repository: str, lang: str, focus: str | None = None
    ) -> Analysis:
        if commit.title == "c29":  # the newest: the first batch
            self.failed = True
            raise RuntimeError("boom")
        await asyncio.sleep(0.2)
        if self.failed:
            self.after_failure += 1
        return self.rules.analyse(commit, lang=lang)


def test_an_analysis_that_raises_stops_every_other_one(tmp_path: Path, small_batches: None) -> None:
    build_repo(tmp_path / "r", _day(30))
    analyser = _Failing()
    options = ReportOptions(
        repositories=[str(tmp_path / "r")],
        windows=_windows(),
        lang="en",
        out_dir=tmp_path / "out",
        radar=False,
    )

    async def run() -> tuple[int, int]:
        with pytest.raises(RuntimeError, match="boom"):
            await generate_reports(
                options, Store.open(tmp_path / "home"), setup=AnalysisSetup(analyser=analyser)
            )
        left = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        made = analyser.after_failure
        await asyncio.sleep(0.5)
        return len(left), analyser.after_failure - made

    assert asyncio.run(run()) == (0, 0)


def test_a_window_read_wider_than_listed_gets_the_radar_of_a_whole_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A commit with a skewed clock hides the commits behind it from the quick listing
    (``--since`` stops there); the run notices that the window starts elsewhere and the
    report is the one of a run that read everything first."""
    specs = [CommitSpec("root", "2026-02-20T10:00:00+00:00", files={
        "pkg/__init__.py": "from .mod import foo, bar\n__all__ = ['foo', 'bar']\n",
        "pkg/mod.py": "def foo(x):\n    return x\n\n\ndef bar(y):\n    return y\n"})]  # fmt: skip
    for i in range(24):
        files = {"notes.txt": f"{i}\n"}
        date = f"2026-03-02T{8 + i // 6:02d}:{i % 6 * 10:02d}:00+00:00"
        if i == 2:
            files = {"pkg/__init__.py": "from .mod import bar\n__all__ = ['bar']\n"}
        if i == 5:
            date = "2026-02-25T10:00:00+00:00"  # before the window
        if i == 20:
            files = {"pkg/mod.py": "def bar(y):\n    return y\n"}
        specs.append(CommitSpec(f"c{i}", date, files=files))
    build_repo(tmp_path / "r", specs)
    argv = ["report", str(tmp_path / "r"), "--since", "2026-03-01", "--until", "2026-03-04",
            "--tz", "UTC", "--format", "json"]  # fmt: skip

    whole = after_the_read(monkeypatch, tmp_path, argv, "whole")
    on_a_thread = json_reports(tmp_path, argv, "thread")  # a short window: a thread here
    monkeypatch.setattr(radar_scan, "PARALLEL_FROM", 2)
    monkeypatch.setattr(report, "EARLY_BATCH", 2)
    streamed = json_reports(tmp_path, argv, "streamed")
    assert streamed == on_a_thread == whole
    items = [
        (c["title"], i["name"], i["visibility"])
        for day in whole
        for r in day  # type: ignore[attr-defined]
        for c in r["commits"]
        for i in c["api_changes"]
    ]
    assert ("c20", "pkg.mod.foo", "public") in items


def _upstream_history(tmp_path: Path) -> list[str]:
    """An upstream whose commits each change one module of its API (a day apart), and the
    report command of their window."""
    repo = tmp_path / "httpx"
    specs = [CommitSpec("init", "2026-03-01T10:00:00+00:00", files=dict(UPSTREAM_V1))]
    for n, (path, text) in enumerate(UPSTREAM_V2.items()):
        specs.append(CommitSpec(f"Change {path}", f"2026-03-0{2 + n}T10:00:00+00:00",
                                files={path: text, "NOTES.md": f"{n}\n"}))  # fmt: skip
    build_repo(repo, specs)
    return ["report", str(repo), "--since", "2026-03-02", "--until", "2026-03-07", "--tz", "UTC",
            "--format", "json"]  # fmt: skip


def test_a_radar_scanned_while_git_reads_gives_the_same_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long window's radar runs in worker processes fed as ``git log`` is read, a short
    one's on a thread of the run; either report is the report of the radar run after the
    read."""
    argv = _upstream_history(tmp_path)

    after_read = after_the_read(monkeypatch, tmp_path, argv)
    here: list[str] = []
    real_here = radar_scan._Here.__init__

    def spy_here(
        self: radar_scan._Here, stream: radar_scan.RadarStream, on_items: radar_scan.OnItems
    ) -> None:
        def counted(sha: str, items: list[ApiChange]) -> None:
            here.append(sha)
            on_items(sha, items)

        real_here(self, stream, counted)

    with monkeypatch.context() as m:
        m.setattr(radar_scan._Here, "__init__", spy_here)
        on_a_thread = json_reports(tmp_path, argv, "thread")
    assert len(here) == len(UPSTREAM_V2)  # scanned on the thread, commit by commit
    assert on_a_thread == after_read
    started: list[object] = []
    answered: list[str] = []
    real = radar_scan._Worker.start

    def spy(
        root: Path,
        base: str,
        on_items: radar_scan.OnItems,
        stream: radar_scan.RadarStream,
        parts: range,
    ) -> object:
        started.append(root)

        def counted(sha: str, items: list[object]) -> None:
            answered.append(sha)
            on_items(sha, items)  # type: ignore[arg-type]

        return real(root, base, counted, stream, parts)

    monkeypatch.setattr(radar_scan, "PARALLEL_FROM", 2)
    monkeypatch.setattr(radar_scan._Worker, "start", spy)
    while_read = json_reports(tmp_path, argv, "while")
    assert started  # the workers ran, and answered commit by commit (this process scans
    # what they left once its read is over: on a slow start, all of it)
    assert len(answered) <= len(UPSTREAM_V2) and len(set(answered)) == len(answered)
    assert while_read == after_read
    names = {
        i["name"]
        for day in while_read
        for r in day  # type: ignore[attr-defined]
        for c in r["commits"]
        for i in c["api_changes"]
    }
    assert {"HTTPX_OLD_CACHE", "httpx.api.get(proxies)"} <= names


@pytest.mark.parametrize("parallel_from", [2, 1000])  # worker processes / a thread here
def test_commits_read_before_the_radar_is_planned_go_to_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, parallel_from: int
) -> None:
    """The radar's plan (a quick listing of the window) runs beside ``git log``: git's read
    does not wait for it. A listing that ends after the read handed over what was read
    meanwhile, and the report is the one of the radar run after the read."""
    argv = _upstream_history(tmp_path)
    after_read = after_the_read(monkeypatch, tmp_path, argv)

    read_first: list[int] = []
    waited: list[bool] = []
    real_listing = LocalGitRepository.window_commits
    real_read = LocalGitRepository.stream_commits

    def slow_listing(
        self: LocalGitRepository, start: datetime, end: datetime
    ) -> list[tuple[str, str | None]]:
        listed = real_listing(self, start, end)
        waited.append(read.wait(timeout=30))  # (on the plan's thread) until git's read is over
        return listed

    async def reading(self: LocalGitRepository, *args: Any, **kwargs: Any) -> AsyncIterator[Commit]:
        async for commit in real_read(self, *args, **kwargs):
            yield commit
        read_first.append(1)
        read.set()

    read = threading.Event()
    handed: list[str] = []  # the commits the radar's stream was given
    real_add = radar_scan.RadarStream.add

    def add(self: radar_scan.RadarStream, commit: CommitInput) -> None:
        handed.append(commit.sha)
        real_add(self, commit)

    monkeypatch.setattr(radar_scan.RadarStream, "add", add)
    monkeypatch.setattr(radar_scan, "PARALLEL_FROM", parallel_from)
    monkeypatch.setattr(LocalGitRepository, "window_commits", slow_listing)
    monkeypatch.setattr(LocalGitRepository, "stream_commits", reading)
    planned_late = json_reports(tmp_path, argv, "late")
    assert read_first == [1]
    assert waited == [True]  # the read ended while the plan still listed the window
    assert len(handed) == len(set(handed)) == len(UPSTREAM_V2)  # each handed over, once
    assert planned_late == after_read
    changes = [i["name"] for day in planned_late for r in day for c in r["commits"]  # type: ignore[attr-defined]
               for i in c["api_changes"]]  # fmt: skip
    assert changes  # the radar's items are in the report


def test_the_radar_plan_is_not_held_up_by_a_read_that_keeps_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The read keeps the event loop while git is ahead of it (it parses what was read,
    commit after commit, without waiting): the radar's plan runs on a thread of its own, so
    its workers get their commits while the read goes on, not once it lets the loop go
    (vllm-ascend's 12 weeks: 0.3-1.8 s late, the worker process idle)."""
    argv = _upstream_history(tmp_path)
    made = threading.Event()
    real_init = radar_scan.RadarStream.__init__

    def init(self: radar_scan.RadarStream, *args: Any, **kwargs: Any) -> None:
        real_init(self, *args, **kwargs)
        made.set()

    real_read = LocalGitRepository.stream_commits
    in_time: list[bool] = []

    async def reading(self: LocalGitRepository, *args: Any, **kwargs: Any) -> AsyncIterator[Commit]:
        first = True
        async for commit in real_read(self, *args, **kwargs):
            if first:  # the loop is held here, no await, until the plan has made its stream
                in_time.append(made.wait(timeout=10))
                first = False
            yield commit

    real_listing = LocalGitRepository.window_commits

    def slow_listing(
        self: LocalGitRepository, start: datetime, end: datetime
    ) -> list[tuple[str, str | None]]:
        time.sleep(0.5)  # (done while the read holds the loop)
        return real_listing(self, start, end)

    monkeypatch.setattr(radar_scan.RadarStream, "__init__", init)
    monkeypatch.setattr(LocalGitRepository, "stream_commits", reading)
    monkeypatch.setattr(LocalGitRepository, "window_commits", slow_listing)
    reports = json_reports(tmp_path, argv, "held")
    assert in_time == [True]
    changes = [i["name"] for day in reports for r in day for c in r["commits"]  # type: ignore[attr-defined]
               for i in c["api_changes"]]  # fmt: skip
    assert changes  # and the radar's items are in the report


def test_with_the_radar_the_read_keeps_the_patches_it_reads_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the radar, the read asks the source to keep the cut patches of the files a kind
    reads whole (modules, changelogs, configuration), and of no other; without it, none.
    The budget of the report's own patches is the same."""
    asked: list[Any] = []
    real_read = LocalGitRepository.stream_commits

    def reading(self: LocalGitRepository, *args: Any, **kwargs: Any) -> AsyncIterator[Commit]:
        asked.append(kwargs["limits"])
        return real_read(self, *args, **kwargs)

    monkeypatch.setattr(LocalGitRepository, "stream_commits", reading)
    argv = _upstream_history(tmp_path)
    json_reports(tmp_path, [*argv, "--no-radar"], "plain")
    assert [limits.whole for limits in asked] == [None]
    json_reports(tmp_path, argv, "radar")
    whole = asked[1].whole
    assert whole("httpx/_client.py") and whole("CHANGELOG.md") and whole("pyproject.toml")
    assert not whole("tests/test_client.py") and not whole("docs/index.txt")
    assert not whole("NOTES.txt") and not whole("assets/logo.png")
    assert (asked[1].max_patch_bytes_per_file, asked[1].max_patch_bytes_per_commit) == (
        asked[0].max_patch_bytes_per_file,
        asked[0].max_patch_bytes_per_commit,
    )


@pytest.mark.parametrize("parallel_from", [2, 1000])  # worker processes / a thread here
def test_each_day_is_written_once_its_commits_are_analysed_while_the_radar_scans(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, parallel_from: int
) -> None:
    """A day's report does not wait for the radar's last commit: it is written as soon as
    every commit of that day has its items and its analysis (while the workers scan the
    rest of a long window, this process is idle), and the reports are the ones written after
    everything."""
    argv = _upstream_history(tmp_path)
    after_read = after_the_read(monkeypatch, tmp_path, argv)
    written: list[str] = []
    real_write = report._write_day

    def write(window: DayWindow, *args: Any) -> report.DayResult:
        written.append(window.key)
        return real_write(window, *args)

    real_finish = report._finish_radar
    by_the_end: list[int] = []  # the days written when the radar's step ends

    async def slow_finish(*args: Any) -> dict[str, list[ApiChange]]:
        found = await real_finish(*args)  # (every commit's items are in)
        for _ in range(400):  # the days whose commits are analysed are written meanwhile
            if len(written) == 5:
                break
            await asyncio.sleep(0.025)
        by_the_end.append(len(written))
        return found

    monkeypatch.setattr(report, "READY_BATCH", 1)
    monkeypatch.setattr(radar_scan, "PARALLEL_FROM", parallel_from)
    monkeypatch.setattr(report, "_write_day", write)
    monkeypatch.setattr(report, "_finish_radar", slow_finish)
    early = json_reports(tmp_path, argv, "early")
    assert by_the_end == [5]  # (2026-03-02 .. 03-06: all written before the radar's end)
    assert sorted(written) == sorted(set(written))  # each once
    assert early == after_read


def test_a_day_that_cannot_be_written_stops_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Writing a day fails (a full disk): the run stops with that error at once, the radar
    and the analyses with it, and nothing is left running."""
    argv = _upstream_history(tmp_path)
    repo = Path(argv[1])

    def refuse(*args: Any) -> report.DayResult:
        raise report.OutputError("cannot write 2026-03-02.json: No space left on device")

    monkeypatch.setattr(report, "_write_day", refuse)
    options = ReportOptions(
        repositories=[str(repo)],
        windows=plan_windows(tz="UTC", since="2026-03-01", until="2026-03-07"),
        lang="en",
        out_dir=tmp_path / "out",
    )

    async def run() -> int:
        with pytest.raises(report.OutputError, match="No space left"):
            await generate_reports(options, Store.open(tmp_path / "home"))
        return len([t for t in asyncio.all_tasks() if t is not asyncio.current_task()])

    assert asyncio.run(run()) == 0
    assert not list((tmp_path / "out").glob("*.json"))


class _SlowRules:
    """Rules, each commit after half a second (an LLM, a busy store)."""

    id, version, uses_focus = "slow-rules", "1", False

    def __init__(self) -> None:
        self.rules = RuleAnalyser()

    async def analyse(
        self, commit: Commit, *, repository: str, lang: str, focus: str | None = None
    ) -> Analysis:
        await asyncio.sleep(0.5)
        return self.rules.analyse(commit, lang=lang)


def test_a_repository_that_fails_leaves_a_namesake_its_radar_items(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two checkouts of the same name, one of which fails its read once the other's radar
    items are in (``--keep-going``): the other's days are written with every item (a
    reviewer's: what the failed one made was forgotten by name, the other's items with it,
    and its days written without them while its radar step still ran)."""
    good, bad = tmp_path / "y" / "proj", tmp_path / "x" / "proj"
    _upstream_history(tmp_path)
    good.parent.mkdir()
    (tmp_path / "httpx").rename(good)
    build_repo(bad, [CommitSpec("b", "2026-03-02T12:00:00+00:00", files={"b.txt": "b\n"})])
    real_read = report.ReportRun._read_one

    async def read_one(self: report.ReportRun, repo: Any, start: Any, end: Any) -> list[Commit]:
        if Path(repo.identity).parent.name == "x":  # fails once the other's items are in
            while not self._early or any(k[0] == str(good) for k in self._awaiting):
                await asyncio.sleep(0.02)
            raise report.SourceError("x: git log failed")
        return await real_read(self, repo, start, end)

    real_finish = report._finish_radar

    async def slow_finish(*args: Any) -> dict[str, list[ApiChange]]:
        found = await real_finish(*args)
        await asyncio.sleep(2.0)  # (the workers still scan the rest of a long window)
        return found

    monkeypatch.setattr(report.ReportRun, "_read_one", read_one)
    monkeypatch.setattr(report, "_finish_radar", slow_finish)
    monkeypatch.setattr(report, "EARLY_BATCH", 1)
    options = ReportOptions(
        repositories=[str(bad), str(good)],
        windows=plan_windows(tz="UTC", since="2026-03-02", until="2026-03-07"),
        lang="en",
        formats=("json",),
        out_dir=tmp_path / "out",
        keep_going=True,
    )
    setup = AnalysisSetup(analyser=_SlowRules())
    outcome = asyncio.run(generate_reports(options, Store.open(tmp_path / "home"), setup=setup))
    assert list(outcome.failures) == ["proj"]
    items = [
        (c["title"], len(c["api_changes"]))
        for p in sorted((tmp_path / "out").glob("*.json"))
        for r in json.loads(p.read_text(encoding="utf-8"))["repositories"]
        for c in r["commits"]
    ]
    assert len(items) == len(UPSTREAM_V2) and all(n for _, n in items), items


def test_a_day_named_twice_is_written_twice(tmp_path: Path) -> None:
    """The library's caller may name the same day twice: the run ends, the day written for
    each (a reviewer's: the writer waited forever for a second day that never came)."""
    build_repo(tmp_path / "r", _day(2))
    [day] = _windows()
    options = ReportOptions(
        repositories=[str(tmp_path / "r")], windows=[day, day], lang="en",
        out_dir=tmp_path / "out", radar=False,
    )  # fmt: skip

    async def run() -> list[int]:
        outcome = await asyncio.wait_for(generate_reports(options, Store.open(tmp_path / "h")), 30)
        return [d.commits for d in outcome.days]

    assert asyncio.run(run()) == [2, 2]


def test_a_run_that_fails_after_writing_days_records_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The radar's step fails after the days whose commits were analysed were written: each
    stays (a whole report of its day), and the failed run's record names them."""
    argv = _upstream_history(tmp_path)
    real = report._finish_radar

    async def failing_finish(*args: Any) -> dict[str, list[ApiChange]]:
        await real(*args)
        for _ in range(400):  # (the days are written meanwhile)
            if len(list((tmp_path / "out").glob("*.json"))) == 5:
                break
            await asyncio.sleep(0.025)
        raise RuntimeError("a radar kind raised on the last commit")

    monkeypatch.setattr(report, "_finish_radar", failing_finish)
    monkeypatch.setattr(report, "READY_BATCH", 1)
    options = ReportOptions(
        repositories=[argv[1]],
        windows=plan_windows(tz="UTC", since="2026-03-02", until="2026-03-07"),
        lang="en", formats=("json",), out_dir=tmp_path / "out",
    )  # fmt: skip
    store = Store.open(tmp_path / "home")
    with pytest.raises(RuntimeError, match="radar kind raised"):
        asyncio.run(generate_reports(options, store))
    written = sorted(str(p) for p in (tmp_path / "out").glob("*.json"))
    [run] = store.runs(1)
    assert len(written) == 5 and run.status == "failed"
    assert sorted(run.outputs) == written and run.commits == len(UPSTREAM_V2)


def test_the_analysis_bar_comes_before_the_days_bar(tmp_path: Path) -> None:
    """The days are written while the commits are still analysed: the progress shows the
    analysis first (its bar above the days'), and each bar ends full."""

    class Recorded:
        def __init__(self) -> None:
            self.started: list[tuple[str, int]] = []
            self.done: dict[str, int] = {}

        def start(self, stage: str, total: int) -> None:
            self.started.append((stage, total))
            self.done[stage] = 0

        def advance(self, stage: str, amount: int = 1) -> None:
            self.done[stage] += amount

    build_repo(tmp_path / "r", _day(3))
    progress = Recorded()
    options = ReportOptions(
        repositories=[str(tmp_path / "r")], windows=_windows(), lang="en",
        out_dir=tmp_path / "out",
    )  # fmt: skip
    asyncio.run(generate_reports(options, Store.open(tmp_path / "h"), progress=progress))
    stages = [stage for stage, _ in progress.started]
    assert stages.index("analyse") < stages.index("render")
    totals = dict(progress.started)
    assert progress.done == {"read": 1, "analyse": 3, "render": 1} and totals["analyse"] == 3
