"""The daily job as a team lives with it: a backfill that does not flood the chat, a
failed delivery sent again by the next plain run (once), given up only when its first
failure is old, and the whole job callable from Python without the command line."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from fake_receivers import HttpReceiver, Reply
from gitfixture import CommitSpec, build_repo
from typer.testing import CliRunner

from commitdigest.aio import run_sync
from commitdigest.cli import app
from commitdigest.config import load_settings
from commitdigest.pipeline.job import RunRequest, run_job
from commitdigest.store import Store

UTC8 = ZoneInfo("Asia/Shanghai")
runner = CliRunner()
WEEK = [f"2026-05-{d:02d}" for d in range(1, 8)]


def setup(tmp_path: Path, hook: HttpReceiver, *, days: list[str], extra: str = "") -> Path:
    repo = tmp_path / "repo"
    build_repo(
        repo,
        [
            CommitSpec(f"fix: change of {d} <b>*x*</b>", f"{d}T10:00:00+08:00", files={"a.py": d})
            for d in days
        ],
    )
    config = tmp_path / "commitdigest.toml"
    config.write_text(
        f'timezone = "Asia/Shanghai"\nlanguage = "en"\noutput_dir = "{tmp_path / "out"}"\n'
        f'formats = ["md", "json"]\n\n[[repositories]]\nname = "{repo}"\n\n'
        f'[[deliver]]\nname = "team"\ntype = "webhook"\nurl = "{hook.url()}"\n'
        f"max_attempts = 1\n{extra}",
        encoding="utf-8",
    )
    return config


def sent_days(hook: HttpReceiver) -> list[str]:
    return [r.headers["x-commitdigest-day"] for r in hook.requests]


def test_a_backfill_sends_nothing_unless_asked_and_each_day_once_with_deliver(
    tmp_path: Path,
) -> None:
    env = {"COMMITDIGEST_HOME": str(tmp_path / "home")}
    with HttpReceiver() as hook:
        config = setup(tmp_path, hook, days=WEEK)
        args = ["run", "--config", str(config), "--since", WEEK[0], "--until", "2026-05-08"]
        quiet = runner.invoke(app, args, env=env)
        assert quiet.exit_code == 0, quiet.stderr
        assert hook.requests == []  # the week is written, nobody is pinged
        assert all((tmp_path / "out" / f"{d}.md").is_file() for d in WEEK)
        assert (
            f"not sent: 7 day(s), {WEEK[0]} to {WEEK[-1]}, written without sending them to "
            "team (a backfill: run --since)" in quiet.stderr
        )
        assert f"`commitdigest deliver --date {WEEK[0]}`" in quiet.stderr
        one = runner.invoke(app, ["deliver", "--config", str(config), "--date", WEEK[2]], env=env)
        assert one.exit_code == 0 and sent_days(hook) == [WEEK[2]]  # the way to send one
        loud = runner.invoke(app, [*args, "--deliver"], env=env)
        assert loud.exit_code == 0, loud.stderr
        assert sorted(sent_days(hook)) == sorted(WEEK)  # each day once (WEEK[2] was sent)
        assert "not sent" not in loud.stderr


def test_a_catch_up_of_a_day_or_two_is_sent_and_a_longer_one_is_held(tmp_path: Path) -> None:
    with HttpReceiver() as hook:
        config = setup(tmp_path, hook, days=WEEK, extra="\n[run]\nfirst_run_days_back = 1\n")
        settings = load_settings(config)
        home = tmp_path / "home"

        def run_at(day: int) -> object:
            now = datetime(2026, 5, day, 9, tzinfo=UTC8)
            return run_sync(run_job(settings, home, now=now))

        run_at(2)  # the first run: yesterday, sent
        assert sent_days(hook) == ["2026-05-01"]
        outcome = run_at(4)  # two days missed: a normal catch-up, each day sent
        assert sent_days(hook) == ["2026-05-01", "2026-05-02", "2026-05-03"]
        outcome = run_at(8)  # four days: written, held back
        assert sent_days(hook) == ["2026-05-01", "2026-05-02", "2026-05-03"]
        assert outcome.plan.labels == ["2026-05-04", "2026-05-05", "2026-05-06", "2026-05-07"]  # type: ignore[attr-defined]
        [held] = outcome.held  # type: ignore[attr-defined]
        assert held.channels == ["team"] and "max_catch_up_days = 2" in held.reason
        assert outcome.exit_code == 0  # type: ignore[attr-defined]


def test_a_failed_delivery_is_sent_by_the_next_plain_run_once(tmp_path: Path) -> None:
    env = {"COMMITDIGEST_HOME": str(tmp_path / "home")}
    with HttpReceiver(Reply(503, "down")) as hook:
        config = setup(tmp_path, hook, days=["2026-05-01"])
        first = runner.invoke(app, ["run", "--config", str(config)], env=env)
        assert first.exit_code == 7, first.stderr  # written, not delivered
        assert len(hook.requests) == 1
        hook.default = Reply(200, "ok")  # the chat is back
        again = runner.invoke(app, ["run", "--config", str(config)], env=env)
        assert again.exit_code == 0, again.stderr
        assert "nothing to do" in again.stderr  # no new day, and still the retry
        assert len(hook.requests) == 2 and f"sent team {sent_days(hook)[0]}" in again.stdout
        third = runner.invoke(app, ["run", "--config", str(config)], env=env)
        assert third.exit_code == 0 and len(hook.requests) == 2  # never sent twice
        status = runner.invoke(app, ["deliver", "status", "--config", str(config)], env=env)
        assert status.exit_code == 0 and "  team  sent  2" in status.stdout


def test_given_up_counts_from_the_first_failure_not_from_the_day(tmp_path: Path) -> None:
    """Old days of a backfill sent with --deliver to a channel that is down are tried by
    each run while the first failure is recent, and given up once it is older than
    retry_days — whatever their own date."""
    with HttpReceiver(Reply(503, "down")) as hook:
        config = setup(tmp_path, hook, days=WEEK[:3], extra="retry_days = 2\n")
        settings = load_settings(config)
        home = tmp_path / "home"
        start = datetime.now(tz=UTC8)
        request = RunRequest(since=WEEK[0], until=WEEK[3], deliver=True)
        outcome = run_sync(run_job(settings, home, request))
        assert [r.status for r in outcome.delivered] == ["failed"] * 3
        assert outcome.exit_code == 7
        for later in (timedelta(hours=1), timedelta(days=1.5)):  # plain runs, still failing
            outcome = run_sync(run_job(settings, home, now=start + later))
            assert {r.day for r in outcome.retried.results} >= set(WEEK[:3])
            assert outcome.retried.given_up == []
        with Store.open(home) as store:
            assert {p.day for p in store.deliveries().pending()} >= set(WEEK[:3])
        outcome = run_sync(run_job(settings, home, now=start + timedelta(days=2.5)))
        assert {g.day for g in outcome.retried.given_up} >= set(WEEK[:3])
        assert not {r.day for r in outcome.retried.results} & set(WEEK[:3])
        status = runner.invoke(
            app,
            ["deliver", "status", "--json", "--config", str(config)],
            env={"COMMITDIGEST_HOME": str(home)},
        )
        assert status.exit_code == 0, status.stderr
        assert all(
            "given up" in row["why"]
            for row in __import__("json").loads(status.stdout)
            if row["day"] in WEEK[:3]
        )


def test_the_job_runs_from_python_without_the_command_line(tmp_path: Path) -> None:
    with HttpReceiver() as hook:
        config = setup(tmp_path, hook, days=["2026-05-01"])
        settings = load_settings(config)
        now = datetime(2026, 5, 2, 9, tzinfo=UTC8)
        outcome = run_sync(run_job(settings, tmp_path / "home", now=now))
    assert outcome.plan.labels == ["2026-05-01"]
    assert [p.name for p in outcome.reports.paths] == ["2026-05-01.md", "2026-05-01.json"]
    assert [(r.channel, r.day, r.status) for r in outcome.delivered] == [
        ("team", "2026-05-01", "sent")
    ]
    assert [(h.label, h.status) for h in outcome.health] == [("2026-05-01", "ok")]
    assert outcome.exit_code == 0 and sent_days(hook) == ["2026-05-01"]
    body = hook.requests[0].json()
    assert body["repositories"][0]["commits"][0]["title"] == "fix: change of 2026-05-01 <b>*x*</b>"


def test_the_exit_code_is_computed_in_one_place() -> None:
    from commitdigest.deliver.service import DeliveryResult
    from commitdigest.pipeline.daily import DailyPlan
    from commitdigest.pipeline.job import ReportHealth, RunOutcome, exit_code

    outcome = RunOutcome(DailyPlan([], "run"))
    assert exit_code(outcome) == 0
    outcome.delivered = [DeliveryResult("c", "slack", "2026-05-01", "failed")]
    assert exit_code(outcome) == 7
    outcome.health = [ReportHealth("2026-05-01", "partial", 8, "more fallbacks")]
    assert exit_code(outcome) == 8
    outcome.health.append(ReportHealth("2026-05-02", "partial", 3, "a repository failed"))
    assert exit_code(outcome) == 3


def test_each_channel_has_its_retry_window_and_catch_up_cap(tmp_path: Path) -> None:
    import pytest

    from commitdigest.errors import ConfigError

    def channels(text: str) -> list[tuple[int, int]]:
        config = tmp_path / "c.toml"
        config.write_text(text, encoding="utf-8")
        return [(c.retry_days, c.max_catch_up_days) for c in load_settings(config).deliver]

    hook = '[[deliver]]\nname = "{n}"\ntype = "webhook"\nurl = "http://127.0.0.1:1/"\n'
    two = hook.format(n="a") + "retry_days = 5\nmax_catch_up_days = 7\n" + hook.format(n="b")
    assert channels(two) == [(5, 7), (3, 2)]
    # the old key still counts, for the entries that do not set their own
    assert channels("[run]\ndelivery_retry_days = 1\n\n" + two) == [(5, 7), (1, 2)]
    with pytest.raises(
        ConfigError, match=r"deliver\.0\.webhook\.max_catch_up_days|max_catch_up_days"
    ):
        channels(hook.format(n="a") + "max_catch_up_days = 0\n")
