"""Many repositories per run: separate reports (one per repository, or per group) with an
index of the day, deterministic shards whose reports together equal the unsharded run,
and the site, deliveries and the MCP archive reading the day as one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitfixture import CommitSpec, build_repo
from typer.testing import CliRunner

from commitdigest.cli import app
from commitdigest.errors import UsageError
from commitdigest.pipeline.daily import Shard

runner = CliRunner()
DAY = "2026-03-02"


def setup(root: Path, repos: int = 7, group: int = 0, out: str = "out") -> Path:
    lines = ['timezone = "UTC"', 'language = "en"', 'formats = ["md", "json", "html"]',
             f'output_dir = "{root / out}"', ""]  # fmt: skip
    for r in range(repos):
        path = root / "repos" / f"r{r}"
        if not path.exists():
            specs = [
                CommitSpec(f"feat: change {r}-{i}", f"{DAY}T1{i}:00:00+00:00",
                           files={f"src/m{i}.py": f"X = {i}\n"})
                for i in range(2)
            ]  # fmt: skip
            if r == 1:
                specs.append(
                    CommitSpec("refactor!: remove the old API", f"{DAY}T15:00:00+00:00",
                               body="BREAKING CHANGE: `old_call()` is gone.",
                               files={"src/old.py": "O = 1\n"})
                )  # fmt: skip
            build_repo(path, specs)
        lines += ["[[repositories]]", f'name = "{path}"']
        if r < group:
            lines.append('group = "inference"')
        lines.append("")
    config = root / f"{out}.toml"
    config.write_text("\n".join(lines), encoding="utf-8")
    return config


def run(config: Path, home: Path, *extra: str) -> None:
    result = runner.invoke(
        app,
        ["run", "--config", str(config), "--date", DAY, *extra],
        env={"COMMITDIGEST_HOME": str(home)},
    )
    assert result.exit_code == 0, result.stderr


def units(folder: Path) -> dict[str, dict[str, object]]:
    found = {}
    for path in sorted(folder.glob(f"*/{DAY}.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        data.pop("generated_at")
        found[path.parent.name] = data
    return found


def test_many_repositories_get_a_report_each_and_an_index(tmp_path: Path) -> None:
    config = setup(tmp_path, repos=7, group=3)
    run(config, tmp_path / "home")
    out = tmp_path / "out"
    reports = units(out)
    assert sorted(reports) == ["inference", "r3", "r4", "r5", "r6"]  # 3 grouped, 4 alone
    names = [r["name"] for r in reports["inference"]["repositories"]]  # type: ignore[index]
    assert names == ["r0", "r1", "r2"]
    for unit in reports:
        for fmt in ("md", "html"):
            assert (out / unit / f"{DAY}.{fmt}").is_file()
    index = (out / f"{DAY}.md").read_text(encoding="utf-8")
    assert index.count("](inference/2026-03-02.md#") >= 3
    assert "(r4/2026-03-02.md#r4)" in index
    assert ("Breaking" in index and "old_call" in index) or "remove the old API" in index
    page = (out / f"{DAY}.html").read_text(encoding="utf-8")
    assert 'href="r5/2026-03-02.html#r5"' in page and "<script" not in page
    # the day's JSON is every repository together: what delivery, site and MCP read
    day = json.loads((out / f"{DAY}.json").read_text(encoding="utf-8"))
    assert len(day["repositories"]) == 7 and day["coverage"]["total"] == 15
    # the links of the index resolve to the reports' anchors
    unit_md = (out / "inference" / f"{DAY}.md").read_text(encoding="utf-8")
    assert '<a id="r1"></a>' in unit_md


def test_shards_together_equal_the_unsharded_run(tmp_path: Path) -> None:
    # a repository's shard is a hash of its name, here a temporary path: enough of them that
    # each shard holds one (six fall in one shard in one run of 32)
    repos = 6
    while len({Shard(1, 2).holds(str(tmp_path / "repos" / f"r{r}")) for r in range(repos)}) < 2:
        repos += 1
    whole = setup(tmp_path, repos=repos, out="whole")
    sharded = setup(tmp_path, repos=repos, out="sharded")
    run(whole, tmp_path / "home-a")
    run(sharded, tmp_path / "home-b", "--shard", "1/2")
    first = units(tmp_path / "sharded")
    assert 0 < len(first) < repos  # a part, by the hash of each name
    run(sharded, tmp_path / "home-b", "--shard", "2/2")
    assert units(tmp_path / "sharded") == units(tmp_path / "whole")
    top = [json.loads((tmp_path / f / f"{DAY}.json").read_text(encoding="utf-8"))
           for f in ("whole", "sharded")]  # fmt: skip
    for data in top:
        data.pop("generated_at")
    assert top[0] == top[1]
    # the site merges the shards' reports into one day
    site = tmp_path / "site"
    built = runner.invoke(app, ["site", "--reports", str(tmp_path / "sharded"), "--out",
                                str(site)])  # fmt: skip
    assert built.exit_code == 0, built.stderr
    records = json.loads((site / "search" / f"{DAY}.json").read_text(encoding="utf-8"))
    assert len(records) == 2 * repos + 1  # every commit of every shard: two each, one more in r1


def test_shard_partition_is_deterministic_and_complete() -> None:
    names = [f"org/repo{i}" for i in range(200)]
    parts = [Shard(k, 4) for k in range(1, 5)]
    owners = [[p.index for p in parts if p.holds(n)] for n in names]
    assert all(len(o) == 1 for o in owners)  # each repository in exactly one shard
    assert all(20 < sum(1 for o in owners if o == [k]) < 80 for k in range(1, 5))
    assert Shard.parse("2/4") == Shard(2, 4)
    for bad in ("0/2", "3/2", "x", "1/0"):
        with pytest.raises(UsageError):
            Shard.parse(bad)


def test_the_weekly_links_into_separate_reports(tmp_path: Path) -> None:
    from test_weekly import links_resolve

    config = setup(tmp_path, repos=7, group=2)
    run(config, tmp_path / "home")
    result = runner.invoke(
        app,
        ["weekly", "--config", str(config), "--week", "2026-W10", "--tz", "UTC", "--format",
         "md,json,html"],
        env={"COMMITDIGEST_HOME": str(tmp_path / "home")},
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    out = tmp_path / "out"
    md = (out / "2026-W10.md").read_text(encoding="utf-8")
    assert "(inference/2026-03-02.md#" in md and "(r5/2026-03-02.md#" in md
    assert links_resolve(md, out, r"\]\(([^)\s]+)\)") == []
    page = (out / "2026-W10.html").read_text(encoding="utf-8")
    assert links_resolve(page, out, r'href="([^"]+)"') == []
    data = json.loads((out / "2026-W10.json").read_text(encoding="utf-8"))
    assert sum(len(r["commits"]) for r in data["repositories"]) == 15


def test_the_site_shows_a_day_of_separate_reports_as_its_index_and_pages(tmp_path: Path) -> None:
    from test_weekly import links_resolve

    config = setup(tmp_path, repos=7, group=2)
    run(config, tmp_path / "home")
    site = tmp_path / "site"
    built = runner.invoke(app, ["site", "--reports", str(tmp_path / "out"), "--out", str(site)])
    assert built.exit_code == 0, built.stderr
    day_page = (site / f"{DAY}.html").read_text(encoding="utf-8")
    assert 'href="r/inference/2026-03-02.html#r0"' in day_page  # the index, not 15 sections
    for unit in ("inference", "r2", "r6"):
        page = site / "r" / unit / f"{DAY}.html"
        assert page.is_file()
        assert links_resolve(page.read_text(encoding="utf-8"), page.parent,
                             r'href="(\.\./\.\./[^"#]+\.html)"') == []  # fmt: skip
    for page in ("index.html", f"{DAY}.html"):
        text = (site / page).read_text(encoding="utf-8")
        assert links_resolve(text, site, r'href="([^"]+\.html(?:#[^"]*)?)"') == [], page
    records = json.loads((site / "search" / f"{DAY}.json").read_text(encoding="utf-8"))
    assert all(r["u"].startswith("r/") for r in records)
    assert links_resolve("\n".join(f'href="{r["u"]}"' for r in records), site,
                         r'href="([^"]+)"') == []  # fmt: skip


def test_a_site_built_inside_the_reports_folder_is_not_taken_for_a_report(tmp_path: Path) -> None:
    from commitdigest.render.folder import ReportsFolder

    config = setup(tmp_path, repos=6)
    run(config, tmp_path / "home")
    out = tmp_path / "out"
    built = runner.invoke(app, ["site", "--reports", str(out), "--out", str(out / "site")])
    assert built.exit_code == 0, built.stderr
    assert (out / "site" / f"{DAY}.json").is_file()  # the site's copy of the day
    units = ReportsFolder(out).load_units(DAY)
    assert units is not None and "site" not in units.reports and len(units.reports) == 6
    again = runner.invoke(app, ["site", "--reports", str(out), "--out", str(out / "site")])
    assert again.exit_code == 0 and "0 written" in again.stdout  # nothing seen twice
