"""Repositories on any git host: git://, smart HTTP with a nested group path, file://, ssh and
scp-like names; the same report as the local clone; links that follow the host; a push after
the first report shows up in the next; no credential in any output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitfixture import CommitSpec, build_repo, commit, git
from githosts import git_daemon, smart_http
from typer.testing import CliRunner

from commitdigest.cli import app
from commitdigest.sources.remote import commit_template, parse_remote, web_address

runner = CliRunner()
DAY1, DAY2 = "2026-03-02", "2026-03-03"


def upstream(base: Path) -> tuple[Path, Path]:
    """A work tree with commits on DAY1 and its bare copy at base/group/sub/project.git."""
    work = base / "work"
    build_repo(
        work,
        [
            CommitSpec(
                f"fix: change {i}", f"{DAY1}T1{i}:00:00+00:00", files={f"src/m{i}.py": f"v = {i}\n"}
            )
            for i in range(3)
        ],
    )
    bare = base / "served" / "group" / "sub" / "project.git"
    bare.parent.mkdir(parents=True)
    git(base, "clone", "-q", "--bare", str(work), str(bare))
    git(bare, "config", "uploadpack.allowFilter", "true")
    return work, bare


def report(name: str, tmp: Path, day: str, out: str) -> dict[str, object]:
    argv = ["report", name, "--date", day, "--tz", "UTC", "--lang", "en", "--format", "md,json"]
    result = runner.invoke(app, [*argv, "--out", str(tmp / out), "--home", str(tmp / "home")])
    assert result.exit_code == 0, result.stderr
    return json.loads((tmp / out / f"{day}.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def titles(doc: dict[str, object]) -> list[str]:
    repos = doc["repositories"]
    assert isinstance(repos, list)
    return [c["title"] for r in repos for c in r["commits"]]


def test_git_daemon_smart_http_and_file_urls_give_the_local_report(tmp_path: Path) -> None:
    work, bare = upstream(tmp_path)
    local = titles(report(str(work), tmp_path, DAY1, "local"))
    assert local == ["fix: change 2", "fix: change 1", "fix: change 0"]
    with git_daemon(tmp_path / "served") as daemon, smart_http(tmp_path / "served") as http:
        for url in (
            f"{daemon}/group/sub/project.git",
            f"{http}/group/sub/project.git",
            f"file://{bare}",
        ):
            doc = report(url, tmp_path, DAY1, f"out-{abs(hash(url))}")
            assert titles(doc) == local, url
        doc = report(f"{http}/group/sub/project.git", tmp_path, DAY1, "named")
        [repo] = doc["repositories"]  # type: ignore[misc]
        assert repo["name"] == "127.0.0.1/group/sub/project"
        port = http.rsplit(":", 1)[1]
        first = repo["commits"][0]
        assert first["url"] == f"http://127.0.0.1:{port}/group/sub/project/commit/{first['sha']}"
        # a push after the first report shows up in the next (the mirror is fetched)
        commit(
            work,
            CommitSpec(
                "feat: pushed later", f"{DAY2}T09:00:00+00:00", files={"src/n.py": "x = 1\n"}
            ),
        )
        git(work, "push", "-q", str(bare), "HEAD:refs/heads/main")
        later = report(f"{http}/group/sub/project.git", tmp_path, DAY2, "later")
        assert titles(later) == ["feat: pushed later"]
        mirrors = sorted(p.name for p in (tmp_path / "home" / "mirrors").iterdir())
        assert len(mirrors) == 3  # one per URL, cloned once each


def test_credentials_never_reach_a_report_a_message_or_a_folder_name(tmp_path: Path) -> None:
    _, _ = upstream(tmp_path)
    secret = "s3cr3t-t0ken-value"
    with smart_http(tmp_path / "served") as http:
        url = http.replace("http://", f"http://user:{secret}@") + "/group/sub/project.git"
        report(url, tmp_path, DAY1, "out")
        missing = http.replace("http://", f"http://user:{secret}@") + "/group/nope.git"
        result = runner.invoke(
            app,
            ["report", missing, "--date", DAY1, "--tz", "UTC", "--out", str(tmp_path / "x"),
             "--home", str(tmp_path / "home")],
        )  # fmt: skip
    assert result.exit_code == 3
    assert secret not in result.stderr and "group/nope" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    for path in (tmp_path / "out").iterdir():
        assert secret not in path.read_text(encoding="utf-8")
    assert not any(secret in p.name for p in (tmp_path / "home").rglob("*"))


@pytest.mark.parametrize(
    ("name", "display", "link"),
    [
        ("https://gitlab.com/group/sub/project.git", "gitlab.com/group/sub/project",
         "https://gitlab.com/group/sub/project/-/commit/{sha}"),
        ("git@gitlab.example.org:team/app.git", "gitlab.example.org/team/app",
         "https://gitlab.example.org/team/app/-/commit/{sha}"),
        ("ssh://git@gitee.com/owner/repo.git", "gitee.com/owner/repo",
         "https://gitee.com/owner/repo/commit/{sha}"),
        ("https://codeberg.org/forgejo/forgejo", "codeberg.org/forgejo/forgejo",
         "https://codeberg.org/forgejo/forgejo/commit/{sha}"),
        ("git://git.example.org/project.git", "git.example.org/project", None),
        ("file:///srv/git/project.git", "/srv/git/project.git", None),
    ],
)  # fmt: skip
def test_url_forms_names_and_commit_links(name: str, display: str, link: str | None) -> None:
    remote = parse_remote(name)
    assert remote is not None and remote.display == display
    assert commit_template(remote) == link
    assert (web_address(remote) is None) is (link is None)
    custom = commit_template(remote, "https://code.example/{path}/commits/{sha}")
    assert custom == f"https://code.example/{remote.path}/commits/{{sha}}"
    for not_a_url in ("./local/path", "owner/repo", "C:\\\\repo", "just-a-name"):
        assert parse_remote(not_a_url) is None
