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
