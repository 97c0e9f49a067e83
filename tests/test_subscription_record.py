"""One subscription record from the config file to the sources, analysis and pipeline."""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from gitfixture import CommitSpec, build_repo
from isolated import isolate_settings
from pydantic import ValidationError

import commitdigest.analysis.focus as focus_module
from commitdigest.analysis.focus import apply_focus, focus_matches, match_focus
from commitdigest.config import load_settings
from commitdigest.config.subscriptions import Repository
from commitdigest.models import Analysis, ChangeType, Focus, Importance, Subscription
from commitdigest.pipeline.daily import plan_days, run_daily
from commitdigest.sources.git import PatchLimits
from commitdigest.sources.open import SourceRepository, open_local
from commitdigest.store import Store

UTC8 = ZoneInfo("Asia/Shanghai")

CONFIG = """\
timezone = "Asia/Shanghai"
language = "en"
output_dir = "{out}"
formats = ["md"]

[[repositories]]
name = "upstream"
branch = "main"
downstream = ["mine"]
group = "team"

[repositories.focus]
paths = ["src/hot/**"]
keywords = ["NPU"]
emphasis = " the NPU plugin "

[[repositories]]
name = "vllm-project/vllm"
commit_url = "https://code.example/{{path}}/commits/{{sha}}"
"""


def _settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    isolate_settings(monkeypatch, tmp_path)
    config = tmp_path / "conf" / "commitdigest.toml"
    config.parent.mkdir()
    config.write_text(CONFIG.format(out=tmp_path / "out"), encoding="utf-8")
    return load_settings(config)


def test_a_config_entry_becomes_a_frozen_subscription(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = _settings(tmp_path, monkeypatch)
    first, second = settings.subscriptions()
    base = tmp_path / "conf"
    assert isinstance(first, Subscription) and isinstance(first, Repository)
    # relative paths are taken beside the config file; the entry itself is left as written
    assert first.name == str(base / "upstream") and settings.repositories[0].name == "upstream"
    assert first.downstream == (str(base / "mine"),)
    assert first.branch == "main" and first.group == "team" and first.source == "git"
    assert first.focus == Focus(paths=("src/hot/**",), keywords=("NPU",), emphasis="the NPU plugin")
    assert second.name == "vllm-project/vllm" and second.source == "github"
    assert second.commit_url == "https://code.example/{path}/commits/{sha}"
    with pytest.raises(ValidationError):
        first.name = "other"  # type: ignore[misc]
    with pytest.raises(ValidationError):
        first.focus.keywords = ()  # type: ignore[misc]
    assert isinstance(first.focus.paths, tuple) and isinstance(first.downstream, tuple)
    assert hash(first) == hash(settings.subscriptions()[0])  # usable as a key


def test_focus_is_one_frozen_record_checked_once() -> None:
    focus = Focus(paths=[" a/** ", "a/**"], keywords=["x", "x"])  # type: ignore[arg-type]
    assert focus.paths == ("a/**",) and focus.keywords == ("x",)
    with pytest.raises(ValidationError):
        Focus(keywords=[" "])  # type: ignore[list-item]
    with pytest.raises(ValidationError):
        Focus(paths=("/",))
    assert not hasattr(Focus, "matches") and not hasattr(Focus, "match")


def test_focus_matching_lives_in_analysis_focus() -> None:
    focus = Focus(paths=("csrc/**",), keywords=("npu",))
    assert match_focus(focus, ["README.md", "csrc/x.cu"], "") == ("path", "csrc/x.cu")
    assert match_focus(focus, ["README.md"], "Fix AscendNPU init") == ("keyword", "npu")
    assert match_focus(focus, ["README.md"], "inputs") is None
    assert focus_matches(focus, ["csrc/a/b.cu"], "") and not focus_matches(Focus(), ["x"], "npu")
    assert focus_module.glob_to_regex("*.cu") == "^(?:.*/)?[^/]*\\.cu(?:/.*)?$"


def _analysis(importance: Importance) -> Analysis:
    return Analysis(
        change_type=ChangeType.BUGFIX, importance=importance, summary="s", analyser="rules"
    )


def test_a_subscription_focus_raises_what_it_matches(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    build_repo(
        repo,
        [
            CommitSpec("fix: hot path", "2026-05-01T10:00:00+08:00", files={"src/hot/a.py": "1"}),
            CommitSpec("docs: readme", "2026-05-01T11:00:00+08:00", files={"README.md": "x"}),
        ],
    )
    subscription = Subscription(name=str(repo), focus=Focus(paths=("src/hot",)))

    async def commits():  # type: ignore[no-untyped-def]
        source = await open_local(subscription)
        start = datetime(2026, 5, 1, tzinfo=UTC8)
        end = datetime(2026, 5, 2, tzinfo=UTC8)
        return await source.read_commits(start, end, limits=PatchLimits())

    by_title = {c.title: c for c in asyncio.run(commits())}
    hot, readme = by_title["fix: hot path"], by_title["docs: readme"]
    raised = apply_focus(_analysis(Importance.LOW), hot, subscription.focus, "en")
    assert raised.importance is Importance.MEDIUM and any("src/hot/a.py" in n for n in raised.notes)
    same = apply_focus(_analysis(Importance.LOW), readme, subscription.focus, "en")
    assert same.importance is Importance.LOW


def test_the_pipeline_opens_each_repository_with_its_subscription(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = _settings(tmp_path, monkeypatch)
    build_repo(
        tmp_path / "conf" / "upstream",
        [CommitSpec("fix: x", "2026-05-01T10:00:00+08:00", files={"a.py": "1"})],
    )
    settings = settings.model_copy(update={"repositories": settings.repositories[:1]})
    opened: list[Subscription] = []

    async def opener(subscription: Subscription) -> SourceRepository:
        opened.append(subscription)
        return await open_local(subscription)

    async def go() -> None:
        with Store.open(tmp_path / "home") as store:
            now = datetime(2026, 5, 2, 9, tzinfo=UTC8)
            plan = plan_days(store, settings, now=now)
            await run_daily(settings, store, plan, opener=opener, now=now)

    asyncio.run(go())
    assert opened == settings.subscriptions()  # the record itself, no copy field by field
    assert opened[0].focus.emphasis == "the NPU plugin" and opened[0].group == "team"
