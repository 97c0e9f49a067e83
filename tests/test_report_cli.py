"""End to end: `commitdigest report` on fixture repositories, through the real CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path

import mdcheck
import pytest
from gitfixture import CommitSpec, build_repo, commit, git, merge
from seedday import build_seed_day, seed_rows, seed_table_lines
from typer.testing import CliRunner

from commitdigest.cli import app
from commitdigest.render.labels import get_labels
from commitdigest.store import Store

runner = CliRunner()
GENERATED_LINE = re.compile(r"^> (生成时间|Generated at).*$", re.M)


@pytest.fixture(scope="module")
def seed_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = tmp_path_factory.mktemp("seed") / "vllm"
    build_seed_day(repo)
    return repo


def cli(*args: str, home: Path) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), env={"COMMITDIGEST_HOME": str(home)})
    return result.exit_code, result.stdout, result.stderr


def report_seed(seed_repo: Path, tmp_path: Path, *extra: str) -> Path:
    code, _, err = cli(
        "report",
        str(seed_repo),
        "--date",
        "2026-01-13",
        "--tz",
        "Asia/Shanghai",
        "--out",
        str(tmp_path / "out"),
        *extra,
        home=tmp_path / "home",
    )
    assert code == 0, err
    return tmp_path / "out"


def test_seed_day_reproduces_the_seed_table_with_a_section_per_commit(
    seed_repo: Path, tmp_path: Path
) -> None:
    out = report_seed(seed_repo, tmp_path, "--lang", "zh", "--format", "md,json")
    assert sorted(p.name for p in out.iterdir()) == ["2026-01-13.json", "2026-01-13.md"]
    text = (out / "2026-01-13.md").read_bytes().decode("utf-8")  # strict UTF-8 read-back
    lines = text.splitlines()

    # the commit table equals the seed's, row for row
    start = lines.index(seed_table_lines()[0])
    assert lines[start : start + 47] == seed_table_lines()

    doc = mdcheck.parse(text)
    assert doc.unresolved_links() == [] and doc.duplicate_anchors() == []
    titles = [title for _, _, title in seed_rows()]
    commit_headings = [h.text for h in doc.headings if h.level == 3 and h.text in titles]
    # a section per high and medium commit, a row of the group's table per low one
    [_, low_table] = doc.tables
    low_titles = [row[1] for row in low_table.rows]
    assert sorted(commit_headings + low_titles) == sorted(titles)
    assert len(low_titles) == text.count("\n| <a id=")
    assert len(doc.internal_links()) >= len(commit_headings)

    stats = re.search(r"本日共 (\d+) 个提交 \| 🔴高 (\d+) \| 🟡中 (\d+) \| 🟢低 (\d+)", text)
    assert stats is not None
    total, high, medium, low = map(int, stats.groups())
    assert total == 45 == high + medium + low
    for label, count in (("高", high), ("中", medium), ("低", low)):
        if count:
            assert f"重要度变更（{count}）" in text, label
    assert "覆盖：45/45 已分析（规则 45）" in text
    assert "2026-01-13 00:00 — 2026-01-14 00:00（Asia/Shanghai）" in text

    context = json.loads((out / "2026-01-13.json").read_text(encoding="utf-8"))
    [repo] = context["repositories"]
    assert repo["name"] == "vllm-project/vllm" and len(repo["commits"]) == 45
    first = repo["commits"][0]
    assert first["pr_number"] == 32169 and first["analysis"]["analyser"] == "rules"
    assert first["url"].startswith("https://github.com/vllm-project/vllm/commit/")
    assert context["coverage"]["total"] == 45 and context["window"]["tz"] == "Asia/Shanghai"


def test_rerun_analyses_nothing_and_writes_the_same_report(seed_repo: Path, tmp_path: Path) -> None:
    first = (report_seed(seed_repo, tmp_path) / "2026-01-13.md").read_text(encoding="utf-8")
    second = (report_seed(seed_repo, tmp_path) / "2026-01-13.md").read_text(encoding="utf-8")
    assert GENERATED_LINE.sub("", first) == GENERATED_LINE.sub("", second)
    with Store.open(tmp_path / "home") as store:
        latest, earlier = store.runs(2)
    assert (earlier.analysed, earlier.cached) == (45, 0)
    assert (latest.analysed, latest.cached, latest.commits) == (0, 45, 45)
    assert latest.status == "ok" and latest.outputs == [str(tmp_path / "out" / "2026-01-13.md")]


def test_english_report_mirrors_the_structure(seed_repo: Path, tmp_path: Path) -> None:
    text = (report_seed(seed_repo, tmp_path, "--lang", "en") / "2026-01-13.md").read_text(
        encoding="utf-8"
    )
    assert text.startswith("# Daily update report (2026-01-13)")
    assert "| Time | Author | Commit |" in text and "Coverage: 45/45 analysed (rules 45)" in text
    assert mdcheck.parse(text).unresolved_links() == []


def test_render_from_json_gives_the_same_markdown(seed_repo: Path, tmp_path: Path) -> None:
    out = report_seed(seed_repo, tmp_path, "--format", "json,md")
    written = (out / "2026-01-13.md").read_text(encoding="utf-8")
    (out / "2026-01-13.md").unlink()
    code, stdout, err = cli("render", str(out / "2026-01-13.json"), home=tmp_path / "home")
    assert code == 0, err
    assert stdout.strip() == str(out / "2026-01-13.md")
    assert (out / "2026-01-13.md").read_text(encoding="utf-8") == written


def test_range_gives_one_file_per_day_and_empty_days_say_so(
    seed_repo: Path, tmp_path: Path
) -> None:
    code, stdout, err = cli(
        "report",
        str(seed_repo),
        "--since",
        "2026-01-12",
        "--until",
        "2026-01-15",
        "--tz",
        "Asia/Shanghai",
        "--out",
        str(tmp_path / "out"),
        "--lang",
        "en",
        home=tmp_path / "home",
    )
    assert code == 0, err
    names = ["2026-01-12.md", "2026-01-13.md", "2026-01-14.md"]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == names
    assert stdout.split() == [str(tmp_path / "out" / n) for n in names]
    empty = (tmp_path / "out" / "2026-01-14.md").read_text(encoding="utf-8")
    assert "No commits in this window." in empty and "Coverage: 0/0 analysed" in empty
    assert "Coverage: 1/1 analysed" in (tmp_path / "out" / "2026-01-12.md").read_text("utf-8")


def test_a_day_boundary_in_another_zone(seed_repo: Path, tmp_path: Path) -> None:
    """The seed day in +08:00 is split over two UTC days: 00:00–07:59 +08 is the 12th UTC."""
    code, _, err = cli(
        "report",
        str(seed_repo),
        "--date",
        "2026-01-12",
        "--tz",
        "UTC",
        "--format",
        "json",
        "--out",
        str(tmp_path / "out"),
        home=tmp_path / "home",
    )
    assert code == 0, err
    context = json.loads((tmp_path / "out" / "2026-01-12.json").read_text(encoding="utf-8"))
    times = [c["committed_at"] for c in context["repositories"][0]["commits"]]
    # seed commits before 08:00 +08:00 are 16:00–23:59 UTC on the 12th, plus the root commit
    expected = 1 + sum(1 for when, _, _ in seed_rows() if when[11:13] < "08")
    assert len(times) == expected


def test_several_repositories_share_one_report(tmp_path: Path) -> None:
    a = tmp_path / "alpha"
    b = tmp_path / "beta"
    day = "2026-03-02T10:00:00+00:00"
    build_repo(
        a,
        [CommitSpec("feat: alpha thing", day, files={"src/a.py": "x = 1\n"})],
        origin="git@github.com:acme/alpha.git",
    )
    build_repo(b, [CommitSpec("docs: beta guide", day, files={"docs/b.md": "# b\n"})])
    code, _, err = cli(
        "report",
        str(a),
        str(b),
        "--date",
        "2026-03-02",
        "--tz",
        "UTC",
        "--out",
        str(tmp_path / "out"),
        home=tmp_path / "home",
    )
    assert code == 0, err
    text = (tmp_path / "out" / "2026-03-02.md").read_text(encoding="utf-8")
    doc = mdcheck.parse(text)
    h2 = [h.text for h in doc.headings if h.level == 2]
    assert h2[:3] == [get_labels("zh").s["act_on"], "acme/alpha", "beta"]
    assert doc.unresolved_links() == []
    assert "全部仓库覆盖：2/2 已分析" in text


def test_hostile_commit_text_cannot_change_the_structure(tmp_path: Path) -> None:
    repo = tmp_path / "evil"
    titles = [
        "| a | b | <script>alert(1)</script>",
        "# not a heading",
        "[click](javascript:alert(1)) `unbalanced",
    ]
    build_repo(
        repo,
        [
            CommitSpec(
                t,
                f"2026-03-02T1{i}:00:00+00:00",
                body="## injected\n\n---\n<img src=x>",
                files={f"f{i}.py": "print(1)\n"},
            )
            for i, t in enumerate(titles)
        ],
    )
    code, _, err = cli(
        "report",
        str(repo),
        "--date",
        "2026-03-02",
        "--tz",
        "UTC",
        "--out",
        str(tmp_path / "out"),
        home=tmp_path / "home",
    )
    assert code == 0, err
    doc = mdcheck.parse((tmp_path / "out" / "2026-03-02.md").read_text(encoding="utf-8"))
    table, *groups = doc.tables
    assert len(table.rows) == 3 and all(len(r) == 3 for r in table.rows)
    assert sorted(r[2] for r in table.rows) == sorted(titles)
    assert doc.html == []  # only our anchors are raw HTML
    assert not [link for link in doc.links if link.href.startswith("javascript")]
    rows = [row for group in groups for row in group.rows]  # the low ones: one row each
    assert all(len(r) == 4 for r in rows)
    sections = sum(1 for h in doc.headings if h.level == 3) - 1  # less the statistics
    assert sections + len(rows) == 3


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["report", "{missing}"], 3, "does not exist"),
        (["report", "{plain}"], 3, "not a git repository"),
        (["report", "{repo}", "--branch", "nope"], 3, "nope"),
        (["report", "{repo}", "--date", "2026-02-30"], 2, "is not a date"),
        (["report", "{repo}", "--tz", "Nowhere/City"], 2, "unknown time zone"),
        (
            ["report", "{repo}", "--since", "2026-02-01", "--until", "2026-01-01"],
            2,
            "must be before",
        ),
        (["report", "{repo}", "--out", "{file}/sub"], 4, "cannot write to output folder"),
        (["report", "{repo}", "--format", "pdf"], 2, "unknown format pdf"),
        (["report", "{repo}", "--lang", "fr"], 2, "unknown language"),
        (["render", "{file}"], 4, "invalid JSON"),
    ],
)
def test_errors_are_one_line_with_an_exit_code(
    tmp_path: Path, args: list[str], code: int, message: str
) -> None:
    repo = tmp_path / "repo"
    build_repo(repo, [CommitSpec("init", "2026-01-01T00:00:00+00:00", files={"a": "a\n"})])
    (tmp_path / "plain").mkdir()
    (tmp_path / "file").write_text("not json", encoding="utf-8")
    paths = {
        "missing": tmp_path / "missing",
        "plain": tmp_path / "plain",
        "repo": repo,
        "file": tmp_path / "file",
    }
    argv = [a.format(**paths) for a in args]
    got, stdout, stderr = (
        cli(*argv, "--out", str(tmp_path / "o"), home=tmp_path / "h")
        if (argv[0] == "report" and "--out" not in argv)
        else cli(*argv, home=tmp_path / "h")
    )
    assert got == code, stderr
    assert stderr.startswith("error: ") and message in stderr
    assert len(stderr.strip().splitlines()) == 1 and "Traceback" not in stderr + stdout


def test_help_documents_exit_codes_and_options() -> None:
    result = runner.invoke(app, ["report", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for text in (
        "--date",
        "--since",
        "--days",
        "--tz",
        "--lang",
        "--format",
        "--out",
        "Exit codes",
    ):
        assert text in result.stdout


def test_new_commits_are_analysed_while_old_ones_come_from_the_cache(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    build_repo(repo, [CommitSpec("fix: one", "2026-03-02T08:00:00+00:00", files={"a.py": "1\n"})])
    args = (
        "report",
        str(repo),
        "--date",
        "2026-03-02",
        "--tz",
        "UTC",
        "--out",
        str(tmp_path / "out"),
    )
    assert cli(*args, home=tmp_path / "home")[0] == 0
    commit(repo, CommitSpec("fix: two", "2026-03-02T09:00:00+00:00", files={"b.py": "2\n"}))
    assert cli(*args, home=tmp_path / "home")[0] == 0
    with Store.open(tmp_path / "home") as store:
        latest = store.runs(1)[0]
    assert (latest.analysed, latest.cached, latest.commits) == (1, 1, 2)


def test_default_language_follows_config_then_locale(tmp_path: Path) -> None:
    from commitdigest.config import load_settings

    unset = load_settings(None)
    assert unset.report_language({"LANG": "zh_CN.UTF-8"}) == "zh"
    assert unset.report_language({"LANG": "en_US.UTF-8"}) == "en"
    assert unset.report_language({"LC_ALL": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"}) == "zh"
    assert unset.report_language({"LC_MESSAGES": "C", "LANG": "zh_CN.UTF-8"}) == "en"
    assert unset.report_language({}) == "en"
    config = tmp_path / "commitdigest.toml"
    config.write_text('language = "zh"\n', encoding="utf-8")
    assert load_settings(config).report_language({"LANG": "en_US.UTF-8"}) == "zh"


def _three_days(path: Path) -> Path:
    build_repo(
        path,
        [
            CommitSpec("one", "2024-02-28T10:00:00+00:00", files={"a.txt": "1\n"}),
            CommitSpec("two", "2024-03-01T10:00:00+00:00", files={"a.txt": "2\n"}),
            CommitSpec("three", "2024-03-02T09:00:00+00:00", files={"a.txt": "3\n"}),
            CommitSpec("four", "2024-03-02T11:00:00+00:00", files={"b.txt": "4\n"}),
        ],
    )
    return path


def test_empty_window_hints_at_the_latest_commit_day(tmp_path: Path) -> None:
    repo = _three_days(tmp_path / "repo")
    args = ("report", str(repo), "--tz", "UTC", "--out", str(tmp_path / "out"))
    code, _, err = cli(*args, "--date", "2024-03-05", home=tmp_path / "home")
    assert code == 0, err
    assert err.strip() == (
        "no commits between 2024-03-05 00:00 and 2024-03-06 00:00 (UTC); latest commit "
        "day: 2024-03-02 — try --date 2024-03-02 or --last 20"
    )
    code, _, err = cli(*args, "--date", "2024-03-02", home=tmp_path / "home")
    assert code == 0 and "latest commit day" not in err


def test_last_reports_exactly_the_last_commits_as_one_report(tmp_path: Path) -> None:
    repo = _three_days(tmp_path / "repo")
    out = tmp_path / "out"
    args = ("report", str(repo), "--tz", "UTC", "--out", str(out), "--lang", "en")
    code, stdout, err = cli(*args, "--last", "3", "--format", "md,json", home=tmp_path / "home")
    assert code == 0, err
    name = "last-3_2024-03-01_2024-03-02"
    assert stdout.split() == [str(out / f"{name}.md"), str(out / f"{name}.json")]
    doc = json.loads((out / f"{name}.json").read_text(encoding="utf-8"))
    titles = [c["title"] for r in doc["repositories"] for c in r["commits"]]
    assert titles == ["four", "three", "two"]  # not "one", nor the rest of a day
    assert doc["window"]["label"] == "2024-03-01 – 2024-03-02"
    md = (out / f"{name}.md").read_text(encoding="utf-8")
    assert md.startswith("# Update report (2024-03-01 – 2024-03-02)\n")
    # within one day the title says the hours; the day's third commit is left out
    code, stdout, err = cli(*args, "--last", "2", home=tmp_path / "home")
    assert code == 0, err
    md = Path(stdout.strip()).read_text(encoding="utf-8")
    assert Path(stdout.strip()).name == "last-2_2024-03-02.md"
    assert md.startswith("# Update report (2024-03-02 09:00 – 11:00)\n")
    assert "three" in md and "four" in md and "two" not in md
    # more than the branch holds: all of it
    code, stdout, err = cli(*args, "--last", "50", home=tmp_path / "home")
    assert code == 0 and Path(stdout.strip()).name == "last-50_2024-02-28_2024-03-02.md", err
    code, _, err = cli(*args, "--last", "2", "--days", "2", home=tmp_path / "home")
    assert code == 2 and "--last cannot be combined" in err
    code, _, err = cli("report", "owner/name", "--last", "2", home=tmp_path / "home")
    assert code == 2 and "local repositories only" in err
    # a path that does not exist is no remote repository: the git source's own error
    missing = str(tmp_path / "no-such-dir")
    code, _, err = cli("report", missing, "--last", "2", home=tmp_path / "home")
    assert code == 3 and err.strip() == f"error: repository path does not exist: {missing}"
    code, _, err = cli("report", "./no-such-dir", "--last", "2", home=tmp_path / "home")
    assert code == 3 and "repository path does not exist" in err and "remote" not in err


def test_last_counts_first_parent_commits_and_skips_a_skewed_clock(tmp_path: Path) -> None:
    """A merged branch is one commit (its merge), as the report lists it; a commit dated
    inside the span but older on the branch is not among the last N."""
    repo = tmp_path / "repo"
    build_repo(
        repo,
        [
            CommitSpec("base", "2024-03-01T08:00:00+00:00", files={"a.txt": "0\n"}),
            # committed later than its position: its date falls inside the last two's span
            CommitSpec("skewed", "2024-03-02T10:30:00+00:00", files={"a.txt": "1\n"}),
            CommitSpec("older", "2024-03-02T09:00:00+00:00", files={"a.txt": "2\n"}),
            CommitSpec("newest", "2024-03-02T11:00:00+00:00", files={"a.txt": "3\n"}),
        ],
    )
    out = tmp_path / "out"
    args = ("report", str(repo), "--tz", "UTC", "--out", str(out), "--format", "json")
    code, stdout, err = cli(*args, "--last", "2", home=tmp_path / "home")
    assert code == 0, err
    doc = json.loads(Path(stdout.strip()).read_text(encoding="utf-8"))
    assert [c["title"] for c in doc["repositories"][0]["commits"]] == ["newest", "older"]
    # a side branch of three commits merged: one commit of the branch, its merge
    git(repo, "checkout", "-q", "-b", "side", "HEAD~1")
    for i in range(3):
        commit(repo, CommitSpec(f"side {i}", f"2024-03-03T0{i}:00:00+00:00", files={"s": f"{i}"}))
    git(repo, "checkout", "-q", "main")
    merge(repo, "side", "Merge side", "2024-03-03T12:00:00+00:00")
    code, stdout, err = cli(*args, "--last", "2", home=tmp_path / "home")
    assert code == 0, err
    doc = json.loads(Path(stdout.strip()).read_text(encoding="utf-8"))
    assert [c["title"] for c in doc["repositories"][0]["commits"]] == ["Merge side", "newest"]


def test_options_from_the_config_follow_the_locale_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """``run`` builds its options from the settings: no language set -> the locale's."""
    from commitdigest.config import Settings
    from commitdigest.pipeline.report import ReportOptions

    monkeypatch.setenv("LANG", "en_US.UTF-8")
    options = ReportOptions.from_settings(Settings(), repositories=["."], windows=[])
    assert options.lang == "en"
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert ReportOptions.from_settings(Settings(), repositories=["."], windows=[]).lang == "zh"


def test_the_analysis_starts_while_git_log_is_read(
    seed_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the radar, each batch of commits is analysed as soon as it is parsed: by the
    end of the read most of the day is analysed already, and the report is the same."""
    from commitdigest.pipeline import report

    with monkeypatch.context() as m:  # read whole first, then analysed: the reference
        m.setattr(report, "LocalGitRepository", type("NotLocal", (), {}))
        plain = report_seed(seed_repo, tmp_path / "a", "--no-radar", "--format", "json")
    seen: list[int] = []
    real = report.ReportRun.analyse

    async def spy(self: report.ReportRun) -> None:
        seen.append(len(self._early))  # analyses started during the read
        await real(self)

    monkeypatch.setattr(report, "EARLY_BATCH", 2)
    monkeypatch.setattr(report.ReportRun, "analyse", spy)
    early = report_seed(seed_repo, tmp_path / "b", "--no-radar", "--format", "json")
    assert seen and seen[0] >= 2
    a = json.loads((plain / "2026-01-13.json").read_text(encoding="utf-8"))
    b = json.loads((early / "2026-01-13.json").read_text(encoding="utf-8"))
    assert a["repositories"] == b["repositories"]
