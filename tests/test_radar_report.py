"""The radar in a report: ``api_changes`` on each commit of the JSON output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitfixture import CommitSpec, build_repo
from typer.testing import CliRunner

from commitdigest.cli import app

runner = CliRunner()
BEFORE = "def get(url, proxies=None):\n    return url\n"
AFTER = "def get(url):\n    return url\n"


def test_json_report_has_api_changes_per_commit(tmp_path: Path) -> None:
    repo = tmp_path / "httpx"
    build_repo(
        repo,
        [
            CommitSpec("init", "2026-03-01T10:00:00+00:00", files={"httpx/api.py": BEFORE}),
            CommitSpec("Drop proxies", "2026-03-02T10:00:00+00:00", files={"httpx/api.py": AFTER}),
            CommitSpec("docs", "2026-03-02T11:00:00+00:00", files={"docs/x.md": "# x\n"}),
        ],
    )
    argv = ["report", str(repo), "--date", "2026-03-02", "--tz", "UTC", "--format", "json"]
    result = runner.invoke(
        app, [*argv, "--out", str(tmp_path / "out")], env={"COMMITDIGEST_HOME": str(tmp_path / "h")}
    )
    assert result.exit_code == 0, result.stderr
    doc = json.loads((tmp_path / "out" / "2026-03-02.json").read_text(encoding="utf-8"))
    commits = {c["title"]: c for r in doc["repositories"] for c in r["commits"]}
    [item] = commits["Drop proxies"]["api_changes"]
    assert item["kind"] == "python_api" and item["change"] == "signature_changed"
    assert item["name"] == "httpx.api.get(proxies)" and item["breaking"] is True
    assert set(item) == {"kind", "change", "name", "breaking", "path", "line", "detail", "affects"}
    assert (item["path"], item["line"]) == ("httpx/api.py", 1)
    assert commits["docs"]["api_changes"] == []
    assert commits["Drop proxies"]["analysis"]["importance"] == "high"

    no_radar = runner.invoke(
        app,
        [*argv, "--no-radar", "--out", str(tmp_path / "out2")],
        env={"COMMITDIGEST_HOME": str(tmp_path / "h")},
    )
    assert no_radar.exit_code == 0, no_radar.stderr
    doc = json.loads((tmp_path / "out2" / "2026-03-02.json").read_text(encoding="utf-8"))
    assert all(c["api_changes"] == [] for r in doc["repositories"] for c in r["commits"])


def test_breaking_section_follows_the_statistics(tmp_path: Path) -> None:
    repo = tmp_path / "httpx"
    build_repo(
        repo,
        [
            CommitSpec("init", "2026-03-01T10:00:00+00:00", files={"httpx/api.py": BEFORE}),
            CommitSpec("Drop proxies", "2026-03-02T10:00:00+00:00", files={"httpx/api.py": AFTER}),
        ],
    )
    for lang, heading in (("en", "### ⚠️ Breaking changes"), ("zh", "### ⚠️ 破坏性变更")):
        out = tmp_path / f"out-{lang}"
        argv = ["report", str(repo), "--date", "2026-03-02", "--tz", "UTC", "--lang", lang]
        result = runner.invoke(
            app,
            [*argv, "--format", "md,html", "--out", str(out)],
            env={"COMMITDIGEST_HOME": str(tmp_path / "h")},
        )
        assert result.exit_code == 0, result.stderr
        md = (out / "2026-03-02.md").read_text(encoding="utf-8")
        stats_at, breaking_at = md.index("-stats"), md.index(heading)
        assert stats_at < breaking_at
        section = md[breaking_at:].split("\n\n")[1]
        [line] = section.splitlines()
        assert line.startswith("- `httpx.api.get(proxies)")
        assert "proxies → (removed)" in line and "`httpx/api.py:1`" in line
        html = (out / "2026-03-02.html").read_text(encoding="utf-8")
        assert heading.removeprefix("### ") in html and "<code>httpx/api.py:1</code>" in html


def test_a_breaking_item_makes_the_commit_at_least_high() -> None:
    from commitdigest.analysis.radar import ApiChange, RadarKind
    from commitdigest.models import Analysis, ApiChangeType, ChangeType, Importance
    from commitdigest.pipeline.report import at_least_high

    low = Analysis(
        change_type=next(iter(ChangeType)),
        importance=Importance.LOW,
        summary="s",
        analyser="rules",
    )
    deprecated, removed = ApiChangeType.DEPRECATED, ApiChangeType.REMOVED
    dep = ApiChange(kind=RadarKind.DEPRECATION, change=deprecated, name="f", breaking=False)
    env = ApiChange(kind=RadarKind.ENV_VAR, change=removed, name="APP_TOKEN")
    assert at_least_high(low, [dep]) is low
    bumped = at_least_high(low, [dep, env])
    assert bumped.importance is Importance.HIGH and "APP_TOKEN" in bumped.notes[-1]


def test_a_rerun_takes_the_radar_facts_from_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "lib"
    build_repo(
        repo,
        [
            CommitSpec("init", "2026-03-01T10:00:00+00:00", files={"lib/api.py": BEFORE}),
            CommitSpec("Drop proxies", "2026-03-02T10:00:00+00:00", files={"lib/api.py": AFTER}),
        ],
    )
    argv = ["report", str(repo), "--date", "2026-03-02", "--tz", "UTC", "--format", "json"]
    env = {"COMMITDIGEST_HOME": str(tmp_path / "h")}
    first = runner.invoke(app, [*argv, "--out", str(tmp_path / "a")], env=env)
    assert first.exit_code == 0, first.stderr

    def no_scan(*args: object, **kwargs: object) -> None:
        raise AssertionError("the radar scanned git again")

    monkeypatch.setattr("commitdigest.analysis.radar.driver.scan_window", no_scan)
    second = runner.invoke(app, [*argv, "--out", str(tmp_path / "b")], env=env)
    assert second.exit_code == 0, second.stderr
    a = (tmp_path / "a" / "2026-03-02.json").read_text(encoding="utf-8")
    b = (tmp_path / "b" / "2026-03-02.json").read_text(encoding="utf-8")
    assert json.loads(a)["repositories"] == json.loads(b)["repositories"]
    assert "proxies" in b and '"change": "signature_changed"' in b
