"""The weekly digest: built from the daily reports, every commit of the week in it, every
link resolving next to the dailies, no per-commit LLM call when the week is cached."""

from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from fake_openai import FakeOpenAI, RecordedRequest, answer
from gitfixture import CommitSpec, build_repo
from markdown_it import MarkdownIt
from typer.testing import CliRunner

from commitdigest.analysis.llm.prompt import DATA_OPEN
from commitdigest.cli import app
from commitdigest.errors import UsageError
from commitdigest.window import last_complete_week, parse_week, week_label, week_windows

runner = CliRunner()
WEEK = "2026-W10"  # Monday 2026-03-02 … Sunday 2026-03-08


def week_repo(path: Path) -> list[str]:
    specs = [
        CommitSpec("feat: add the scheduler", "2026-03-02T09:00:00+00:00",
                   files={"src/core/scheduler.py": "def schedule():\n    return 1\n"}),
        CommitSpec("fix: handle <b>&</b> in *names*", "2026-03-02T15:00:00+00:00",
                   files={"src/core/names.py": "N = 1\n"}),
        CommitSpec("docs: explain the queue", "2026-03-04T10:00:00+00:00",
                   files={"docs/queue.md": "# Queue\n"}),
        CommitSpec("refactor!: drop the legacy API", "2026-03-06T11:00:00+00:00",
                   body="BREAKING CHANGE: legacy_run() is gone.",
                   files={"src/core/legacy.py": "X = 1\n"}),
        CommitSpec("chore: outside the week", "2026-03-09T11:00:00+00:00",
                   files={"src/core/later.py": "Y = 1\n"}),
    ]  # fmt: skip
    return build_repo(path, specs)


def links_resolve(text: str, folder: Path, pattern: str) -> list[str]:
    """The relative links of ``text`` whose file or anchor is missing in ``folder``."""
    bad = []
    for href in re.findall(pattern, text):
        if href.startswith(("http://", "https://")):
            continue
        name, _, anchor = href.partition("#")
        target = folder / name
        missing = not target.is_file()
        if missing or (anchor and f'id="{anchor}"' not in target.read_text(encoding="utf-8")):
            bad.append(href)
    return bad


def test_iso_weeks() -> None:
    assert parse_week("2026-W10") == date(2026, 3, 2) == parse_week("2026w10")
    assert week_label(date(2026, 3, 2)) == WEEK
    assert week_label(date(2026, 12, 28)) == "2026-W53"
    with pytest.raises(UsageError):
        parse_week("2026-W54")
    now = datetime(2026, 3, 11, 12, tzinfo=UTC)  # a Wednesday
    assert last_complete_week(ZoneInfo("UTC"), now) == date(2026, 3, 2)
    windows = week_windows(date(2026, 3, 2), "Asia/Shanghai")
    assert [w.day.isoformat() for w in windows][::6] == ["2026-03-02", "2026-03-08"]


def test_rules_weekly_from_the_dailies(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shas = week_repo(repo)
    out = tmp_path / "out"
    args = ["weekly", str(repo), "--week", WEEK, "--tz", "UTC", "--lang", "en", "--out", str(out)]
    args += ["--format", "md,json,html", "--home", str(tmp_path / "home")]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.stderr
    assert "made the daily reports of 2026-03-02" in first.stderr
    assert (out / "2026-03-02.md").is_file() and (out / "2026-03-08.json").is_file()
    data = json.loads((out / f"{WEEK}.json").read_text(encoding="utf-8"))
    (repo_data,) = data["repositories"]
    assert [c["entry"]["sha"] for c in repo_data["commits"]] == [
        shas[1],
        shas[0],
        shas[2],
        shas[3],
    ]  # every commit of the week, by day (each day newest first), none outside it
    assert [d["commits"] for d in data["days"]] == [2, 0, 1, 0, 1, 0, 0]
    md = (out / f"{WEEK}.md").read_text(encoding="utf-8")
    page = (out / f"{WEEK}.html").read_text(encoding="utf-8")
    # every commit links to its section of the daily report, and every link resolves
    for c in repo_data["commits"]:
        assert f"({c['day']}.md#{c['entry']['anchor']})" in md
        assert f'href="{c["day"]}.html#{c["entry"]["anchor"]}"' in page
    assert links_resolve(md, out, r"\]\(([^)\s]+)\)") == []
    assert links_resolve(page, out, r'href="([^"]+)"') == []
    # commit text stays text; the breaking change is listed first
    html = MarkdownIt("commonmark").enable("table").render(md)
    assert "<b>&</b>" not in html and "<b>&</b>" not in page
    assert md.index("Breaking changes of the week") < md.index("High-importance changes")
    assert "<script" not in page
    # again: the dailies are read, not made again
    again = runner.invoke(app, args)
    assert again.exit_code == 0 and "made the daily reports" not in again.stderr


def _llm_reply(request: RecordedRequest) -> Any:
    if "commit_analyses" in request.prompt and DATA_OPEN not in request.prompt:
        return answer({"themes": ["Scheduling"], "key_changes": [], "risks": []})
    return answer(
        {
            "change_type": "feature",
            "change_type_reason": "",
            "importance": "medium",
            "summary": "A change to `src/core` code.",
            "impact": [],
            "insights": [],
            "risks": [],
            "recommendations": [],
        }
    )


def test_llm_weekly_from_a_cached_week_makes_no_per_commit_call(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    week_repo(repo)
    out = tmp_path / "out"
    with FakeOpenAI(_llm_reply) as server:
        environ = {
            "COMMITDIGEST_HOME": str(tmp_path / "home"),
            "OPENAI_BASE_URL": server.base_url,
            "OPENAI_API_KEY": "sk-test-weekly",
            "COMMITDIGEST_LLM__MODEL": "fake-model",
        }
        common = ["--tz", "UTC", "--analyser", "llm", "--out", str(out), "--format", "md,json"]
        daily = runner.invoke(
            app,
            ["report", str(repo), "--since", "2026-03-02", "--until", "2026-03-09", *common],
            env=environ,
        )
        assert daily.exit_code == 0, daily.stderr
        commit_calls = [r for r in server.requests if DATA_OPEN in r.prompt]
        assert len(commit_calls) == 4
        for path in out.iterdir():  # the files are gone; the store still has every analysis
            path.unlink()
        before = len(server.requests)
        weekly = runner.invoke(app, ["weekly", str(repo), "--week", WEEK, *common], env=environ)
        assert weekly.exit_code == 0, weekly.stderr
        made = server.requests[before:]
        assert [r for r in made if DATA_OPEN in r.prompt] == []  # no per-commit call
        assert len(made) == 1  # the week's overview (the days' ones are cached)
        again = runner.invoke(app, ["weekly", str(repo), "--week", WEEK, *common], env=environ)
        assert again.exit_code == 0 and len(server.requests) == before + 1
    data = json.loads((out / f"{WEEK}.json").read_text(encoding="utf-8"))
    assert len(data["repositories"][0]["commits"]) == 4
    assert data["repositories"][0]["overview"]["themes"] == ["Scheduling"]


def test_which_repositories_a_run_puts_in_the_weekly() -> None:
    from commitdigest.config.settings import Settings
    from commitdigest.pipeline.daily import weekly_due

    settings = Settings.model_validate(
        {
            "repositories": [
                {"name": "/tmp/a", "weekly": "monday"},
                {"name": "/tmp/b", "weekly": "thursday"},
                {"name": "/tmp/c"},  # the config's: off
                {"name": "/tmp/d", "weekly": "off"},
            ]
        }
    )
    names = lambda day: [s.name for s in weekly_due(settings, day)]  # noqa: E731
    assert names(date(2026, 3, 9)) == ["/tmp/a"]  # a Monday
    assert names(date(2026, 3, 11)) == []  # a Wednesday: nobody's day
    assert names(date(2026, 3, 12)) == ["/tmp/a", "/tmp/b"]  # Thursday: Monday's too
    everyone = Settings.model_validate(
        {"weekly": "sunday", "repositories": [{"name": "/tmp/a"}, {"name": "/tmp/b"}]}
    )
    assert [s.name for s in weekly_due(everyone, date(2026, 3, 15))] == ["/tmp/a", "/tmp/b"]


def test_run_writes_the_weekly_on_its_day_and_sends_it_where_asked(tmp_path: Path) -> None:
    from datetime import timedelta

    from fake_receivers import HttpReceiver

    today = datetime.now(UTC).date()
    monday = today - timedelta(days=today.weekday() + 7)  # of the last complete week
    repo = tmp_path / "repo"
    build_repo(
        repo,
        [
            CommitSpec(f"feat: change {i}", f"{monday + timedelta(days=i)}T10:00:00+00:00",
                       files={f"src/m{i}.py": f"X = {i}\n"})
            for i in range(3)
        ],
    )  # fmt: skip
    weekday = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    with HttpReceiver() as weekly_hook, HttpReceiver() as daily_hook:
        config = tmp_path / "commitdigest.toml"
        config.write_text(
            f'timezone = "UTC"\nlanguage = "en"\noutput_dir = "{tmp_path / "out"}"\n'
            f'weekly = "{weekday[today.weekday()]}"\n\n'
            f'[[repositories]]\nname = "{repo}"\n\n'
            f'[[deliver]]\nname = "team"\ntype = "webhook"\nurl = "{weekly_hook.url()}"\n'
            "weekly = true\n\n"
            f'[[deliver]]\nname = "daily-only"\ntype = "webhook"\nurl = "{daily_hook.url()}"\n',
            encoding="utf-8",
        )
        env = {"COMMITDIGEST_HOME": str(tmp_path / "home")}
        first = runner.invoke(app, ["run", "--config", str(config)], env=env)
        assert first.exit_code == 0, first.stderr
        label = week_label(monday)
        assert (tmp_path / "out" / f"{label}.md").is_file()
        days = [r.headers["x-commitdigest-day"] for r in weekly_hook.requests]
        assert days[-1] == label and label not in [
            r.headers["x-commitdigest-day"] for r in daily_hook.requests
        ]
        weekly = weekly_hook.requests[-1]
        assert weekly.headers["x-commitdigest-event"] == "weekly"
        weekly_body = weekly.json()  # the weekly digest itself, as written to <week>.json
        assert weekly_body["kind"] == "weekly" and weekly_body["week"] == label
        assert weekly.body == (tmp_path / "out" / f"{label}.json").read_bytes()
        assert len(weekly_body["repositories"][0]["commits"]) == 3
        sent = len(weekly_hook.requests)
        again = runner.invoke(app, ["run", "--config", str(config)], env=env)
        assert again.exit_code == 0, again.stderr
        assert len(weekly_hook.requests) == sent  # written once, sent once


def test_site_lists_the_weekly_and_its_links_resolve(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    week_repo(repo)
    out = tmp_path / "out"
    args = ["weekly", str(repo), "--week", WEEK, "--tz", "UTC", "--lang", "en", "--out", str(out)]
    made = runner.invoke(app, [*args, "--format", "md,json", "--home", str(tmp_path / "h")])
    assert made.exit_code == 0, made.stderr
    site = tmp_path / "site"
    built = runner.invoke(
        app,
        ["site", "--reports", str(out), "--out", str(site), "--base-url", "https://x.example/"],
    )
    assert built.exit_code == 0, built.stderr
    page = (site / f"{WEEK}.html").read_text(encoding="utf-8")
    assert links_resolve(page, site, r'href="([^"]+)"') == []
    assert f'href="{WEEK}.html"' in (site / "index.html").read_text(encoding="utf-8")
    feed = (site / "feed.xml").read_text(encoding="utf-8")
    assert f"https://x.example/{WEEK}.html" in feed and f"{WEEK}: 4 commits" in feed


def test_a_weekly_is_delivered_as_a_weekly_in_every_channel(tmp_path: Path) -> None:
    """`deliver --date 2026-W10` reads the week's own digest (no day in disguise): the chat
    title says weekly, the e-mail's text part lists the week's commits, titles as written."""
    repo = tmp_path / "repo"
    week_repo(repo)
    out = tmp_path / "out"
    args = ["weekly", str(repo), "--week", WEEK, "--tz", "UTC", "--lang", "en", "--out", str(out)]
    made = runner.invoke(app, [*args, "--format", "md,json"])
    assert made.exit_code == 0, made.stderr
    config = tmp_path / "commitdigest.toml"
    config.write_text(
        f'timezone = "UTC"\nlanguage = "en"\noutput_dir = "{out}"\n\n'
        '[[deliver]]\nname = "chat"\ntype = "slack"\nurl_env = "X"\nweekly = true\n\n'
        '[[deliver]]\nname = "robot"\ntype = "wecom"\nurl_env = "X"\nweekly = true\n\n'
        '[[deliver]]\nname = "mail"\ntype = "email"\nhost = "127.0.0.1"\n'
        'sender = "d@example.org"\nto = ["a@example.org"]\nweekly = true\n',
        encoding="utf-8",
    )
    review = tmp_path / "review"
    result = runner.invoke(
        app,
        ["deliver", "--config", str(config), "--date", WEEK, "--dry-run", "--out", str(review)],
        env={"COMMITDIGEST_HOME": str(tmp_path / "home")},
    )
    assert result.exit_code == 0, result.stderr
    slack = json.loads((review / f"{WEEK}.chat.json").read_text(encoding="utf-8"))
    assert "weekly digest" in slack["text"] and WEEK in slack["text"]
    wecom = json.loads((review / f"{WEEK}.robot.json").read_text(encoding="utf-8"))
    assert wecom["text"]["content"].startswith(f"repo · weekly digest · {WEEK}\n")
    from email import message_from_bytes, policy
    from email.message import EmailMessage

    mail = message_from_bytes((review / f"{WEEK}.mail.eml").read_bytes(), policy=policy.default)
    assert isinstance(mail, EmailMessage)
    plain = mail.get_body(preferencelist=("plain",))
    assert isinstance(plain, EmailMessage)
    text = plain.get_content()
    assert "- fix: handle <b>&</b> in *names* (" in text  # the text part, as written
    assert WEEK in text and "chore: outside the week" not in text
    # the HTML part: titled as the weekly, the week's days as a row of table bars
    part = mail.get_body(preferencelist=("html",))
    assert isinstance(part, EmailMessage)
    html = part.get_content()
    assert f"<title>Weekly digest {WEEK}</title>" in html
    bars = html[html.index("Commits per day by importance") :]
    bars = bars[: bars.index("</table>")]
    days = re.findall(r'<td valign="bottom"[^>]*title="([^"]+)"', bars)
    assert [d.split(" — ")[0] for d in days] == [f"2026-03-0{i}" for i in range(2, 9)]
    assert "Fri ⚠" in bars and "<img" not in html and "<svg" not in html
