"""`commitdigest run`: subscriptions from the config file, catch-up, lock, failures, GitHub."""

from __future__ import annotations

import asyncio
import threading
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import mdcheck
import pytest
from fake_github import FakeGitHub, repo_from_git
from gitfixture import CommitSpec, build_repo
from seedday import build_seed_day, seed_table_lines
from typer.testing import CliRunner

from commitdigest.cli import app
from commitdigest.config import load_settings
from commitdigest.errors import BusyError
from commitdigest.pipeline.daily import plan_days, run_daily, run_lock
from commitdigest.sources.open import RepositoryOpener
from commitdigest.store import Store

UTC8 = ZoneInfo("Asia/Shanghai")
runner = CliRunner()


def day_repo(path: Path, name: str, days: list[str]) -> Path:
    build_repo(
        path,
        [
            CommitSpec(
                f"fix: {name} change on {d}",
                f"{d}T10:00:00+08:00",
                files={f"src/{name}_{i}.py": f"v = {i}\n"},
            )
            for i, d in enumerate(days)
        ],
    )
    return path


def write_config(tmp_path: Path, *repos: str) -> Path:
    entries = "\n".join(f'[[repositories]]\nname = "{r}"\n' for r in repos)
    config = tmp_path / "commitdigest.toml"
    config.write_text(
        f'timezone = "Asia/Shanghai"\nlanguage = "en"\noutput_dir = "{tmp_path / "out"}"\n'
        f'formats = ["md", "json"]\n\n# the repositories we follow\n{entries}',
        encoding="utf-8",
    )
    return config


def run_at(tmp_path: Path, config: Path, now: datetime, on_date: str | None = None):  # type: ignore[no-untyped-def]
    settings = load_settings(config)

    async def go():  # type: ignore[no-untyped-def]
        with Store.open(tmp_path / "home") as store:
            plan = plan_days(store, settings, on_date=on_date, now=now)
            opener = RepositoryOpener(store=store, home=tmp_path / "home")
            try:
                outcome = await run_daily(settings, store, plan, opener=opener, now=now)
            finally:
                await opener.aclose()
            return plan, outcome

    return asyncio.run(go())


def test_catch_up_reports_each_missed_day_once(tmp_path: Path) -> None:
    days = ["2026-05-01", "2026-05-02", "2026-05-03", "2026-05-04"]
    a = day_repo(tmp_path / "alpha", "alpha", days)
    b = day_repo(tmp_path / "beta", "beta", days[1:])
    config = write_config(tmp_path, str(a), "beta")  # a relative path: beside the config

    plan, outcome = run_at(tmp_path, config, datetime(2026, 5, 2, 9, tzinfo=UTC8))
    assert [d.day.isoformat() for d in plan.days] == ["2026-05-01"]  # first run: yesterday
    assert [p.name for p in outcome.paths] == ["2026-05-01.md", "2026-05-01.json"]

    plan, outcome = run_at(tmp_path, config, datetime(2026, 5, 5, 1, tzinfo=UTC8))
    assert [d.day.isoformat() for d in plan.days] == ["2026-05-02", "2026-05-03", "2026-05-04"]
    text = (tmp_path / "out" / "2026-05-03.md").read_text(encoding="utf-8")
    doc = mdcheck.parse(text)
    assert [h.text for h in doc.headings if h.level == 2][1:3] == ["alpha", "beta"]  # after Act on
    assert "fix: alpha change on 2026-05-03" in text and "fix: beta change on 2026-05-03" in text
    assert doc.unresolved_links() == []

    plan, outcome = run_at(tmp_path, config, datetime(2026, 5, 5, 23, tzinfo=UTC8))
    assert plan.days == [] and outcome.paths == []  # nothing is reported twice
    plan, _ = run_at(tmp_path, config, datetime(2026, 5, 5, 23, tzinfo=UTC8), "2026-05-02")
    assert [d.day.isoformat() for d in plan.days] == ["2026-05-02"]  # --date re-runs a day
    plan, _ = run_at(tmp_path, config, datetime(2026, 5, 6, 8, tzinfo=UTC8))
    assert [d.day.isoformat() for d in plan.days] == ["2026-05-05"]  # --date moved nothing
    assert b.exists()


def test_a_failing_repository_does_not_stop_the_others(tmp_path: Path) -> None:
    good = day_repo(tmp_path / "good", "good", ["2026-05-01"])
    config = write_config(tmp_path, str(good), str(tmp_path / "gone"))
    now = datetime(2026, 5, 2, 9, tzinfo=UTC8)
    plan, outcome = run_at(tmp_path, config, now)
    assert list(outcome.failures) == [str(tmp_path / "gone")]
    assert "does not exist" in outcome.failures[str(tmp_path / "gone")]
    report = (tmp_path / "out" / "2026-05-01.md").read_text("utf-8")
    assert "fix: good change" in report
    assert "This repository could not be read this time" in report  # not silently missing
    assert mdcheck.parse(report).unresolved_links() == []
    plan, _ = run_at(tmp_path, config, now)
    assert [d.day.isoformat() for d in plan.days] == ["2026-05-01"]  # the day is done again


def test_when_every_repository_fails_no_report_is_replaced(tmp_path: Path) -> None:
    config = write_config(tmp_path, str(tmp_path / "gone"))
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "2026-05-01.md").write_text("an earlier, good report", encoding="utf-8")
    _, outcome = run_at(tmp_path, config, datetime(2026, 5, 2, 9, tzinfo=UTC8))
    assert outcome.failures and outcome.paths == []
    assert (tmp_path / "out" / "2026-05-01.md").read_text("utf-8") == "an earlier, good report"


def test_cli_run_exit_codes_and_output(tmp_path: Path) -> None:
    good = day_repo(tmp_path / "good", "good", ["2026-05-01"])
    config = write_config(tmp_path, str(good), str(tmp_path / "gone"))
    env = {"COMMITDIGEST_HOME": str(tmp_path / "home")}
    result = runner.invoke(app, ["run", "--config", str(config), "--date", "2026-05-01"], env=env)
    assert result.exit_code == 3, result.stderr
    assert result.stdout.split() == [
        str(tmp_path / "out" / "2026-05-01.md"),
        str(tmp_path / "out" / "2026-05-01.json"),
    ]
    assert "gone" in result.stderr and "Traceback" not in result.stderr
    (tmp_path / "empty").mkdir()
    empty = write_config(tmp_path / "empty")
    result = runner.invoke(app, ["run", "--config", str(empty)], env=env)
    assert result.exit_code == 2 and "no repositories to follow" in result.stderr


def test_two_runs_at_once_are_refused(tmp_path: Path) -> None:
    home = tmp_path / "home"
    config = write_config(tmp_path, str(day_repo(tmp_path / "r", "r", ["2026-05-01"])))
    held, release = threading.Event(), threading.Event()

    def holder() -> None:
        with run_lock(home, 1):
            held.set()
            release.wait(10)

    thread = threading.Thread(target=holder)
    thread.start()
    try:
        assert held.wait(5)
        with (
            pytest.raises(BusyError, match="another commitdigest run is in progress"),
            run_lock(home, 0.2),
        ):
            pass
        result = runner.invoke(
            app,
            ["run", "--config", str(config)],
            env={"COMMITDIGEST_HOME": str(home), "COMMITDIGEST_RUN__LOCK_TIMEOUT_S": "0.2"},
        )
        assert result.exit_code == 6 and "in progress" in result.stderr
    finally:
        release.set()
        thread.join()
    with run_lock(home, 0.2):  # free again once the first run ended
        pass


def test_report_from_github_matches_the_git_report(tmp_path: Path) -> None:
    """`report owner/repo` through the REST API gives the seed table, like the clone does."""
    repo = tmp_path / "vllm"
    build_seed_day(repo)
    fake = repo_from_git(repo, "vllm-project/vllm")
    with FakeGitHub(fake) as server:
        env = {
            "COMMITDIGEST_HOME": str(tmp_path / "home"),
            "GITHUB_API_URL": server.base_url,
            "GITHUB_TOKEN": "ghp_test_never_printed",
        }
        args = ["--date", "2026-01-13", "--tz", "Asia/Shanghai", "--format", "md"]
        via_api = runner.invoke(
            app, ["report", "vllm-project/vllm", *args, "--out", str(tmp_path / "api")], env=env
        )
        assert via_api.exit_code == 0, via_api.stderr
        requests_first = server.count()
        again = runner.invoke(
            app,
            [
                "report",
                "https://github.com/vllm-project/vllm",
                *args,
                "--out",
                str(tmp_path / "api"),
            ],
            env=env,
        )
        assert again.exit_code == 0, again.stderr
        assert server.count() - requests_first == server.not_modified  # re-run: only 304s
    via_git = runner.invoke(
        app, ["report", str(repo), *args, "--out", str(tmp_path / "git")], env=env
    )
    assert via_git.exit_code == 0, via_git.stderr
    api_text = (tmp_path / "api" / "2026-01-13.md").read_text(encoding="utf-8")
    git_text = (tmp_path / "git" / "2026-01-13.md").read_text(encoding="utf-8")
    table = seed_table_lines()
    for text in (api_text, git_text):
        lines = text.splitlines()
        start = lines.index(table[0])
        assert lines[start : start + len(table)] == table
    assert "ghp_test_never_printed" not in api_text + via_api.stderr + via_api.stdout


def test_catch_up_is_capped_by_the_config_and_since_backfills(tmp_path: Path) -> None:
    from commitdigest.errors import UsageError

    days = ["2026-05-01", "2026-05-02", "2026-05-03", "2026-05-04"]
    a = day_repo(tmp_path / "alpha", "alpha", days)
    config = write_config(tmp_path, str(a))
    config.write_text(
        config.read_text(encoding="utf-8")
        + "\n[run]\nfirst_run_days_back = 5\nmax_catch_up_days = 2\n",
        encoding="utf-8",
    )
    now = datetime(2026, 5, 6, 9, tzinfo=UTC8)
    plan, _ = run_at(tmp_path, config, now)
    assert [d.day.isoformat() for d in plan.days] == ["2026-05-04", "2026-05-05"]
    assert plan.skipped is not None and [d.isoformat() for d in plan.skipped] == [
        "2026-05-01",
        "2026-05-03",
    ]
    assert plan.skipped_days == 3
    settings = load_settings(config)
    with Store.open(tmp_path / "home") as store:
        backfill = plan_days(store, settings, since="2026-05-01", until="2026-05-04", now=now)
        assert [d.day.isoformat() for d in backfill.days] == [
            "2026-05-01",
            "2026-05-02",
            "2026-05-03",
        ]
        assert backfill.command != "run"  # never moves the catch-up
        to_today = plan_days(store, settings, since="2026-05-04", now=now)
        assert [d.day.isoformat() for d in to_today.days] == ["2026-05-04", "2026-05-05"]
        for kwargs in (
            {"since": "2026-05-06"},
            {"until": "2026-05-03"},
            {"since": "2026-05-02", "on_date": "2026-05-01"},
        ):
            with pytest.raises(UsageError):
                plan_days(store, settings, now=now, **kwargs)  # type: ignore[arg-type]
