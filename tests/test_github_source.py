"""The GitHub source against the fake GitHub API (tests/fake_github.py), history from git."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from fake_github import FakeGitHub, FakeRepo, open_options, pull, repo_from_git
from gitfixture import CommitSpec, build_repo, commit, git, init_repo, merge

from commitdigest.models import Commit, FileChange, FileStatus
from commitdigest.sources.diffparse import budget_patches, split_diff, strip_header, unquote_path
from commitdigest.sources.git import read_commits
from commitdigest.sources.github_source import (
    GitHubRepository,
    first_parent_only,
    open_github_repository,
    parse_github_spec,
)
from commitdigest.sources.gitlog_parse import PatchLimits
from commitdigest.sources.repo_info import resolve_repository_sync
from commitdigest.store import Store

CST = timezone(timedelta(hours=8))
EVER = (datetime(2000, 1, 1, tzinfo=UTC), datetime(2100, 1, 1, tzinfo=UTC))
DAY = (datetime(2026, 1, 13, tzinfo=CST), datetime(2026, 1, 14, tzinfo=CST))
WIDE = PatchLimits(1 << 30, 1 << 30)


def fast_import(path: Path, commits: list[tuple[str, datetime, dict[str, str]]]) -> None:
    """A linear history on ``main`` in one ``git fast-import`` (title, date, files)."""
    init_repo(path, origin="https://github.com/octo/widgets")
    out: list[bytes] = []
    for i, (title, when, files) in enumerate(commits, start=1):
        stamp = f"{int(when.timestamp())} +0800"
        msg = title.encode()
        out.append(f"commit refs/heads/main\nmark :{i}\n".encode())
        out.append(
            f"author Dev <dev@example.com> {stamp}\ncommitter Dev <dev@example.com> ".encode()
        )
        out.append(f"{stamp}\ndata {len(msg)}\n".encode() + msg + b"\n")
        if i > 1:
            out.append(f"from :{i - 1}\n".encode())
        for name, content in files.items():
            data = content.encode()
            out.append(f"M 100644 inline {name}\ndata {len(data)}\n".encode() + data + b"\n")
    subprocess.run(["git", "-C", str(path), "fast-import", "--quiet"], input=b"".join(out),
                   check=True, capture_output=True)  # fmt: skip
    git(path, "reset", "-q", "--hard", "main")


async def _open(fake: FakeGitHub, store: Store | None = None, **kw: Any) -> GitHubRepository:
    owner, name = kw.pop("spec", "octo/widgets").split("/")
    kw.setdefault("token", None)
    return await open_github_repository(
        owner, name, api_url=fake.base_url, store=store, **open_options(retry_base=0.001,
        secondary_base=0.001, reset_margin=0.0, **kw),
    )  # fmt: skip


async def _read(
    fake: FakeGitHub, window: tuple[datetime, datetime] = EVER, **kw: Any
) -> tuple[list[Commit], GitHubRepository]:
    limits = kw.pop("limits", WIDE)
    repo = await _open(fake, **kw)
    async with repo:
        return await repo.read_commits(*window, limits=limits), repo


# ---- same commits as the git source ------------------------------------------------------


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, FakeRepo]:
    repo = tmp_path_factory.mktemp("gh") / "repo"
    init_repo(repo, origin="https://github.com/octo/widgets.git")
    files: dict[str, str | bytes | None] = {
        "a b.txt": "one\n", "bin.dat": b"\x00\x01\x02", "gone.txt": "1\n2\n3\n",
        "中文/名.txt": "zh\n", "tab\there.txt": "t\n", "empty.txt": "",
    }  # fmt: skip
    commit(repo, CommitSpec("Initial import (#1)", "2026-01-12T10:00:00+08:00", files=files))
    commit(repo, CommitSpec("Rename (#2)", "2026-01-13T09:00:00+08:00",
                            renames={"a b.txt": "dir/c d.txt"}))  # fmt: skip
    changes: dict[str, str | bytes | None] = {"bin.dat": b"\x00\x09\x09", "gone.txt": None}
    commit(repo, CommitSpec("Binary and delete", "2026-01-13T10:00:00+08:00", files=changes))
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, CommitSpec("Feature one", "2026-01-13T11:00:00+08:00", files={"f.txt": "1\n"}))
    git(repo, "checkout", "-q", "main")
    body = "Longer body.\n\nSigned-off-by: x"
    side = CommitSpec("Main side (#4)", "2026-01-13T12:00:00+08:00", files={"m.txt": "m\n" * 40})
    side.body = body
    commit(repo, side)
    merge(repo, "feature", "Merge feature (#5)", "2026-01-13T13:00:00+08:00")
    commit(repo, CommitSpec("Midnight", "2026-01-14T00:00:00+08:00", files={"m.txt": "n\n"}))
    return repo, repo_from_git(repo, "octo/widgets")


def _meta(f: FileChange) -> tuple[object, ...]:
    return (f.path, f.old_path, f.status, f.additions, f.deletions, f.binary)


def _same(a: Commit, b: Commit) -> None:
    assert (a.sha, a.parents, a.title, a.body, a.author, a.author_email) == (
        b.sha, b.parents, b.title, b.body, b.author, b.author_email,
    )  # fmt: skip
    assert (a.authored_at, a.committed_at, a.url, a.pr_number) == (
        b.authored_at, b.committed_at, b.url, b.pr_number,
    )  # fmt: skip
    assert [_meta(f) for f in a.files] == [_meta(f) for f in b.files]
    assert [f.patch for f in a.files] == [strip_header(f.patch) for f in b.files]


@pytest.mark.parametrize("window", [EVER, DAY], ids=["all", "day"])
def test_same_commits_as_the_git_source(history: tuple[Path, FakeRepo], window: Any) -> None:
    path, fake_repo = history
    want = asyncio.run(read_commits(resolve_repository_sync(path), *window, limits=WIDE))
    with FakeGitHub(fake_repo) as fake:
        got, repo = asyncio.run(_read(fake, window))
    assert [c.title for c in got] == [c.title for c in want]
    assert "Feature one" not in [c.title for c in got]  # first parents only, like git
    for a, b in zip(got, want, strict=True):
        _same(a, b)
    assert (repo.name, repo.web_url, repo.branch) == (
        "octo/widgets", "https://github.com/octo/widgets", "main",
    )  # fmt: skip
    if window is DAY:
        return
    files = {f.path: f for c in got for f in c.files}
    assert files["bin.dat"].binary and files["bin.dat"].additions is None
    assert files["dir/c d.txt"].status is FileStatus.RENAMED
    assert files["empty.txt"].binary is False and files["empty.txt"].additions == 0


def test_patch_budget_matches_the_git_parsers_rules(history: tuple[Path, FakeRepo]) -> None:
    _, fake_repo = history
    limits = PatchLimits(max_patch_bytes_per_file=50, max_patch_bytes_per_commit=60)
    with FakeGitHub(fake_repo) as fake:
        got, _ = asyncio.run(_read(fake, limits=limits))
    c = next(c for c in got if c.title == "Main side (#4)")
    [m] = c.files
    assert m.patch_truncated and len(m.patch.encode()) <= 50 and m.patch.endswith("+m\n")
    first = next(c for c in got if c.title.startswith("Initial"))
    kept = sum(len(f.patch.encode()) for f in first.files)
    assert kept <= 60 and first.patch_truncated
    assert first.files[-1].patch == "" and first.files[-1].patch_truncated


def test_window_is_half_open_on_the_committer_date(history: tuple[Path, FakeRepo]) -> None:
    _, fake_repo = history
    with FakeGitHub(fake_repo) as fake:
        got, _ = asyncio.run(_read(fake, DAY))
        assert "Midnight" not in [c.title for c in got]  # at the end: excluded
        got, _ = asyncio.run(_read(fake, (DAY[1], DAY[1] + timedelta(seconds=1))))
        assert [c.title for c in got] == ["Midnight"]
        list_query = [r.query for r in fake.requests if r.kind == "list"][-1]
    assert list_query["since"] == "2026-01-13T16:00:00Z" and list_query["per_page"] == "100"
    assert list_query["until"] == "2026-01-13T16:00:01Z" and list_query["sha"] == "main"


# ---- pull requests ---------------------------------------------------------------------


def test_pr_number_url_and_labels_from_the_pulls_lookup(history: tuple[Path, FakeRepo]) -> None:
    _, fake_repo = history
    sha = next(s for s, c in fake_repo.commits.items() if c.title == "Binary and delete")
    fake_repo.pulls[sha] = [
        pull(7, merged=False, base="main"),
        pull(9, labels=("bug", "ci"), merge_commit_sha=sha, title="Fix the binary"),
    ]
    try:
        with FakeGitHub(fake_repo) as fake:
            got, repo = asyncio.run(_read(fake, DAY))
    finally:
        del fake_repo.pulls[sha]
    c = next(c for c in got if c.sha == sha)
    assert c.pr_number == 9 and repo.labels_for(sha) == ("bug", "ci")
    assert repo.pull_requests[sha].url.endswith("/pull/9")
    titled = next(c for c in got if c.title == "Rename (#2)")
    assert titled.pr_number == 2 and repo.labels_for(titled.sha) == ()


# ---- volume: pages of commits, pages of files ---------------------------------------------


@pytest.fixture(scope="module")
def busy_day(tmp_path_factory: pytest.TempPathFactory) -> FakeRepo:
    path = tmp_path_factory.mktemp("busy") / "repo"
    start = datetime(2026, 1, 13, 0, 1, tzinfo=CST)
    commits = [(f"Change {i}", start + timedelta(minutes=5 * i), {f"f{i % 7}.txt": f"{i}\n"})
               for i in range(250)]  # fmt: skip
    commits.insert(0, ("Before", start - timedelta(days=1), {"x.txt": "x\n"}))
    fast_import(path, commits)
    return repo_from_git(path, "octo/widgets")


def test_250_commits_in_a_day_take_3_list_pages(busy_day: FakeRepo) -> None:
    with FakeGitHub(busy_day) as fake:
        got, _ = asyncio.run(_read(fake, DAY, fetch_pulls=False))
        kinds = fake.by_kind()
    assert len(got) == 250 and got[0].title == "Change 249" and got[-1].title == "Change 0"
    assert kinds == {"repo": 1, "list": 3, "detail": 250}


@pytest.fixture(scope="module")
def wide_commit(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, FakeRepo]:
    path = tmp_path_factory.mktemp("wide") / "repo"
    when = datetime(2026, 1, 13, 9, tzinfo=CST)
    files = {f"pkg/m{i:03d}.py": f"x = {i}\n" for i in range(700)}
    big = "".join(f"line {i}\n" for i in range(3000))
    files["big.txt"] = big
    fast_import(path, [("Seed", when, {"seed": "s\n"}), ("Touch 701 files", when, files)])
    return path, repo_from_git(path, "octo/widgets")


def test_700_files_come_from_3_pages(wide_commit: tuple[Path, FakeRepo]) -> None:
    path, fake_repo = wide_commit
    [want, _] = asyncio.run(read_commits(resolve_repository_sync(path), *EVER, limits=WIDE))
    with FakeGitHub(fake_repo) as fake:
        [got, _], _ = asyncio.run(_read(fake, fetch_pulls=False))
        assert fake.count("detail") == 1 + 3 and fake.count("diff") == 0
    _same(got, want)


def test_a_patch_github_leaves_out_comes_from_the_diff(wide_commit: tuple[Path, FakeRepo]) -> None:
    path, fake_repo = wide_commit
    [want, _] = asyncio.run(read_commits(resolve_repository_sync(path), *EVER, limits=WIDE))
    with FakeGitHub(fake_repo, max_json_patch=4096) as fake:
        [got, _], _ = asyncio.run(_read(fake, fetch_pulls=False))
        assert fake.count("diff") == 1
    _same(got, want)
    assert next(f for f in got.files if f.path == "big.txt").patch.count("\n+line") == 3000


def test_files_past_githubs_cap_come_from_the_diff(wide_commit: tuple[Path, FakeRepo]) -> None:
    path, fake_repo = wide_commit
    [want, _] = asyncio.run(read_commits(resolve_repository_sync(path), *EVER, limits=WIDE))
    with FakeGitHub(fake_repo, max_files=120, files_per_page=100) as fake:
        [got, _], _ = asyncio.run(_read(fake, fetch_pulls=False, max_files=120))
        assert fake.count("diff") == 1 and fake.count("detail") == 1 + 2
    _same(got, want)


# ---- re-runs ---------------------------------------------------------------------------


def test_rerun_makes_only_conditional_requests_answered_304(
    history: tuple[Path, FakeRepo], tmp_path: Path
) -> None:
    _, fake_repo = history
    with Store.open(tmp_path) as store, FakeGitHub(fake_repo, tokens={"t0k"}) as fake:
        first, _ = asyncio.run(_read(fake, DAY, store=store, token=_secret("t0k")))
        assert fake.count("detail") == 4 and fake.count("diff") == 1
        fake.reset_counts()
        again, repo = asyncio.run(_read(fake, DAY, store=store, token=_secret("t0k")))
        assert again == first
        assert all(r.conditional and r.status == 304 for r in fake.requests)
        assert fake.by_kind() == {"repo": 1, "list": 1, "pulls": 4}
        assert repo.stats.not_modified == repo.stats.total == 6


def test_first_parent_only_drops_side_branches_of_merges() -> None:
    def c(sha: str, *parents: str) -> dict[str, Any]:
        return {"sha": sha, "parents": [{"sha": p} for p in parents]}

    items = [c("m2", "m1", "s2"), c("s2", "s1"), c("m1", "m0", "t1"), c("t1", "m0"),
             c("s1", "m0"), c("m0", "old")]  # fmt: skip
    assert [i["sha"] for i in first_parent_only(items)] == ["m2", "m1", "m0"]
    linear = [c("b", "a"), c("a", "z")]
    assert first_parent_only(linear) == linear


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("vllm-project/vllm", ("vllm-project", "vllm")),
        ("octo/widgets.git", ("octo", "widgets")),
        ("https://github.com/octo/widgets", ("octo", "widgets")),
        ("https://github.com/octo/widgets.git", ("octo", "widgets")),
        ("git@github.com:octo/widgets.git", ("octo", "widgets")),
        ("https://gitlab.com/octo/widgets", None),
        ("./octo/widgets", None),
        ("octo", None),
        ("a/b/c", None),
        ("octo/..", None),
    ],
)
def test_parse_github_spec(text: str, expected: tuple[str, str] | None) -> None:
    assert parse_github_spec(text) == expected


def _secret(value: str) -> Any:
    from pydantic import SecretStr

    return SecretStr(value)


@pytest.fixture
def merged_outside(tmp_path: Path) -> Iterator[FakeRepo]:
    """A side branch whose merge lands after the window (documented: its commits stay)."""
    path = tmp_path / "r"
    build_repo(path, [CommitSpec("Base", "2026-01-12T10:00:00+08:00", files={"a": "a\n"})])
    git(path, "checkout", "-q", "-b", "side")
    commit(path, CommitSpec("Side", "2026-01-13T10:00:00+08:00", files={"s": "s\n"}))
    git(path, "checkout", "-q", "main")
    commit(path, CommitSpec("Main", "2026-01-13T11:00:00+08:00", files={"m": "m\n"}))
    merge(path, "side", "Merge side", "2026-01-14T10:00:00+08:00")
    yield repo_from_git(path, "octo/widgets")


def test_side_commits_of_a_later_merge_are_kept(merged_outside: FakeRepo) -> None:
    with FakeGitHub(merged_outside) as fake:
        got, _ = asyncio.run(_read(fake, DAY, fetch_pulls=False))
    assert [c.title for c in got] == ["Main", "Side"]


# ---- diffparse -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("limits"),
    [PatchLimits(50, 60), PatchLimits(16, 1000), PatchLimits(1000, 0), PatchLimits(0, 100)],
)
def test_budget_patches_is_the_git_parsers_budget(
    history: tuple[Path, FakeRepo], limits: PatchLimits
) -> None:
    path, _ = history
    info = resolve_repository_sync(path)
    full = asyncio.run(read_commits(info, *EVER, limits=WIDE))
    cut = asyncio.run(read_commits(info, *EVER, limits=limits))
    for whole, git_cut in zip(full, cut, strict=True):
        kept, commit_cut = budget_patches([f.patch for f in whole.files], limits)
        assert kept == [(f.patch, f.patch_truncated) for f in git_cut.files]
        assert commit_cut == git_cut.patch_truncated


def test_split_diff_reads_paths_statuses_and_binaries(history: tuple[Path, FakeRepo]) -> None:
    _, fake_repo = history
    first = next(c for c in fake_repo.commits.values() if c.title.startswith("Initial"))
    sections = split_diff("".join(f.patch for f in first.files))
    assert [s.path for s in sections] == [f.path for f in first.files]
    by = {s.path: s for s in sections}
    assert by["bin.dat"].binary and by["bin.dat"].body.startswith("Binary files ")
    assert (by["empty.txt"].body, by["empty.txt"].status) == ("", FileStatus.ADDED)
    assert (by["a b.txt"].additions, by["tab\there.txt"].additions) == (1, 1)
    renamed = next(c for c in fake_repo.commits.values() if c.title == "Rename (#2)")
    [s] = split_diff(renamed.files[0].patch)
    assert (s.path, s.old_path, s.status, s.body) == ("dir/c d.txt", "a b.txt",
                                                      FileStatus.RENAMED, "")  # fmt: skip
    gone = next(c for c in fake_repo.commits.values() if c.title == "Binary and delete")
    deleted = {s.path: s for s in split_diff("".join(f.patch for f in gone.files))}["gone.txt"]
    assert (deleted.status, deleted.deletions, deleted.old_path) == (FileStatus.DELETED, 3, None)


@pytest.mark.parametrize(
    ("quoted", "plain"),
    [
        ('"tab\\there.txt"', "tab\there.txt"),
        ('"\\344\\270\\255\\346\\226\\207.txt"', "中文.txt"),
        ('"say \\"hi\\"\\\\"', 'say "hi"\\'),
        ("plain name.txt", "plain name.txt"),
    ],
)
def test_unquote_path(quoted: str, plain: str) -> None:
    assert unquote_path(quoted) == plain
