"""The git source against real repositories built with tests/gitfixture.py."""

from __future__ import annotations

import asyncio
import os
import subprocess
import threading
import time
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from gitfixture import CommitSpec, build_repo, commit, git, init_repo, merge

from commitdigest.errors import SourceError
from commitdigest.models import Commit, FileStatus
from commitdigest.sources import git as git_source
from commitdigest.sources.git import git_log_argv, iter_commits, read_commits
from commitdigest.sources.gitlog_parse import GitLogParser, PatchLimits, parse_log
from commitdigest.sources.repo_info import (
    RepositoryInfo,
    git_env,
    github_slug,
    resolve_repository,
    resolve_repository_sync,
)
from commitdigest.sources.window_plan import window_commits

CST = timezone(timedelta(hours=8))
EVER = (datetime(2000, 1, 1, tzinfo=UTC), datetime(2100, 1, 1, tzinfo=UTC))
ORIGIN = "git@github.com:vllm-project/vllm.git"
BIG_LINES = 5000
AWKWARD = ["a b.txt", "中文/文件 名.txt", "tab\there.txt", "new\nline.txt"]


def _read(repo: RepositoryInfo, start: datetime, end: datetime, **kw: PatchLimits) -> list[Commit]:
    return asyncio.run(read_commits(repo, start, end, **kw))


def _by_title(commits: list[Commit]) -> dict[str, Commit]:
    return {c.title: c for c in commits}


def _gitlink(repo: Path, sha: str) -> None:
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{sha},vendor/sub")


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> tuple[RepositoryInfo, list[Commit]]:
    """One repository exercising every case; read once over all time."""
    repo = tmp_path_factory.mktemp("hist") / "repo"
    files: dict[str, str | bytes | None] = {name: "one line\n" for name in AWKWARD}
    files |= {"bin.dat": b"\x00\x01\x02", "gone.txt": "1\n2\n3\n", "run.sh": "echo hi\n"}
    files |= {"link.txt": "plain file\n"}
    init_repo(repo, origin=ORIGIN)
    _gitlink(repo, "1" * 40)
    initial = CommitSpec("[Feature] Initial import (#1)", "2026-01-10T10:00:00+08:00", files=files)
    commit(repo, initial)
    renames = {"a b.txt": "dir/c d.txt"}
    commit(repo, CommitSpec("Rename (#2)", "2026-01-10T11:00:00+08:00", renames=renames))
    _gitlink(repo, "2" * 40)
    changes: dict[str, str | bytes | None] = {"bin.dat": b"\x00\x09\x09", "gone.txt": None}
    commit(repo, CommitSpec("Binary, delete, bump", "2026-01-10T12:00:00+08:00", files=changes))
    git(repo, "update-index", "--chmod=+x", "run.sh")
    (repo / "link.txt").unlink()
    os.symlink("run.sh", repo / "link.txt")
    git(repo, "add", "link.txt")
    commit(repo, CommitSpec("Mode and type change", "2026-01-11T09:00:00+08:00"))
    latin1 = "Café crème (#5)\n\nLatin-1 body é\n".encode("latin-1")
    commit(
        repo, CommitSpec("", "2026-01-11T10:00:00+08:00", message_bytes=latin1, files={"l": "l\n"})
    )
    commit(repo, CommitSpec("Empty commit", "2026-01-11T11:00:00+08:00", allow_empty=True))
    big = {"big.txt": "".join(f"line {i}\n" for i in range(BIG_LINES)), "small.txt": "small\n"}
    commit(repo, CommitSpec("Big diff", "2026-01-12T09:00:00+08:00", files=big))
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, CommitSpec("Feature one", "2026-01-12T10:00:00+08:00", files={"f1.txt": "1\n"}))
    commit(repo, CommitSpec("Feature two", "2026-01-12T11:00:00+08:00", files={"f2.txt": "2\n"}))
    git(repo, "checkout", "-q", "main")
    commit(repo, CommitSpec("Main side", "2026-01-12T12:00:00+08:00", files={"m.txt": "m\n"}))
    merge(repo, "feature", "Merge feature", "2026-01-12T13:00:00+08:00")
    late = CommitSpec(
        "Late (#8)",
        "2026-01-13T23:59:59+08:00",
        author="Zhang San",
        author_date="2026-01-13T20:00:00+05:30",
        files={"late.txt": "x\n"},
    )
    commit(repo, late)
    commit(repo, CommitSpec("Midnight", "2026-01-14T00:00:00+08:00", files={"late.txt": "y\n"}))
    info = resolve_repository_sync(repo)
    return info, _read(info, *EVER)


def test_first_parent_history_newest_first(history: tuple[RepositoryInfo, list[Commit]]) -> None:
    _, commits = history
    assert [c.title for c in commits] == [
        "Midnight",
        "Late (#8)",
        "Merge feature",
        "Main side",
        "Big diff",
        "Empty commit",
        "Café crème (#5)",
        "Mode and type change",
        "Binary, delete, bump",
        "Rename (#2)",
        "[Feature] Initial import (#1)",
    ]  # the feature branch's own commits are not listed


def test_merge_files_are_its_diff_against_first_parent(
    history: tuple[RepositoryInfo, list[Commit]],
) -> None:
    _, commits = history
    m = _by_title(commits)["Merge feature"]
    assert len(m.parents) == 2 and m.parents[0] == _by_title(commits)["Main side"].sha
    assert sorted(f.path for f in m.files) == ["f1.txt", "f2.txt"]
    assert all(f.status is FileStatus.ADDED and f.additions == 1 for f in m.files)


def test_metadata_url_pr_and_timezones(history: tuple[RepositoryInfo, list[Commit]]) -> None:
    info, commits = history
    c = _by_title(commits)["Late (#8)"]
    assert (
        info.name == "vllm-project/vllm" and info.web_url == "https://github.com/vllm-project/vllm"
    )
    assert c.url == f"https://github.com/vllm-project/vllm/commit/{c.sha}"
    assert c.pr_number == 8 and c.author == "Zhang San" and c.author_email == "author@example.com"
    assert c.committed_at.isoformat() == "2026-01-13T23:59:59+08:00"
    assert c.authored_at.utcoffset() == timedelta(hours=5, minutes=30)
    assert _by_title(commits)["Midnight"].pr_number is None


def test_initial_commit_paths_and_gitlink(history: tuple[RepositoryInfo, list[Commit]]) -> None:
    _, commits = history
    first = _by_title(commits)["[Feature] Initial import (#1)"]
    paths = {f.path: f for f in first.files}
    for name in AWKWARD:
        assert paths[name].additions == 1 and paths[name].status is FileStatus.ADDED
        assert paths[name].patch.startswith("diff --git ")
    assert first.parents == () and "中文/文件 名.txt" in paths["中文/文件 名.txt"].patch
    assert paths["vendor/sub"].patch.count("Subproject commit 1111111") == 1


def test_rename(history: tuple[RepositoryInfo, list[Commit]]) -> None:
    _, commits = history
    [f] = _by_title(commits)["Rename (#2)"].files
    assert (f.status, f.path, f.old_path) == (FileStatus.RENAMED, "dir/c d.txt", "a b.txt")
    assert "rename from a b.txt" in f.patch


def test_binary_deletion_and_submodule_bump(history: tuple[RepositoryInfo, list[Commit]]) -> None:
    _, commits = history
    files = {f.path: f for f in _by_title(commits)["Binary, delete, bump"].files}
    assert (files["bin.dat"].binary, files["bin.dat"].additions) == (True, None)
    assert files["bin.dat"].deletions is None and "Binary files" in files["bin.dat"].patch
    assert (files["gone.txt"].status, files["gone.txt"].deletions) == (FileStatus.DELETED, 3)
    sub = files["vendor/sub"]
    assert (sub.status, sub.additions, sub.deletions) == (FileStatus.MODIFIED, 1, 1)
    assert "+Subproject commit 2222222" in sub.patch


def test_mode_and_type_change(history: tuple[RepositoryInfo, list[Commit]]) -> None:
    _, commits = history
    files = {f.path: f for f in _by_title(commits)["Mode and type change"].files}
    run = files["run.sh"]
    assert (run.status, run.additions, run.deletions) == (FileStatus.MODIFIED, 0, 0)
    assert "old mode 100644\nnew mode 100755" in run.patch
    link = files["link.txt"]
    assert link.status is FileStatus.TYPE_CHANGED
    assert "deleted file mode 100644" in link.patch and "new file mode 120000" in link.patch


def test_latin1_message_and_empty_commit(history: tuple[RepositoryInfo, list[Commit]]) -> None:
    _, commits = history
    c = _by_title(commits)["Café crème (#5)"]  # re-encoded to UTF-8 by git from ISO-8859-1
    assert c.body == "Latin-1 body é" and c.pr_number == 5
    assert _by_title(commits)["Empty commit"].files == ()


def test_big_diff_counts_exact_patch_budgeted(history: tuple[RepositoryInfo, list[Commit]]) -> None:
    _, commits = history
    c = _by_title(commits)["Big diff"]
    big, small = c.files
    assert (big.path, big.additions, big.deletions) == ("big.txt", BIG_LINES, 0)
    assert big.patch_truncated and 15_000 < len(big.patch.encode()) <= 16 * 1024
    assert small.patch.endswith("+small\n") and not small.patch_truncated
    assert not c.patch_truncated


def test_big_diff_with_tight_commit_budget(history: tuple[RepositoryInfo, list[Commit]]) -> None:
    info, _ = history
    day = (datetime(2026, 1, 12, tzinfo=CST), datetime(2026, 1, 12, 9, 30, tzinfo=CST))
    limits = PatchLimits(max_patch_bytes_per_file=4000, max_patch_bytes_per_commit=4000)
    [c] = _read(info, *day, limits=limits)
    big, small = c.files
    assert big.additions == BIG_LINES and len(big.patch.encode()) <= 4000 and big.patch_truncated
    assert small.patch == "" and small.patch_truncated and c.patch_truncated


def test_window_bounds_in_utc_plus_8(history: tuple[RepositoryInfo, list[Commit]]) -> None:
    info, _ = history
    jan13 = datetime(2026, 1, 13, tzinfo=CST)
    jan14 = jan13 + timedelta(days=1)
    assert [c.title for c in _read(info, jan13, jan14)] == ["Late (#8)"]  # end exclusive
    assert [c.title for c in _read(info, jan14, jan14 + timedelta(days=1))] == ["Midnight"]
    # the same instants in another zone select the same commits
    utc = jan13.astimezone(UTC), jan14.astimezone(UTC)
    assert [c.title for c in _read(info, *utc)] == ["Late (#8)"]
    last = datetime(2026, 1, 13, 23, 59, 59, tzinfo=CST)
    assert [c.title for c in _read(info, last, last + timedelta(seconds=1))] == ["Late (#8)"]
    assert _read(info, jan14, jan13) == []


def test_naive_datetimes_rejected(history: tuple[RepositoryInfo, list[Commit]]) -> None:
    info, _ = history
    with pytest.raises(ValueError):
        _read(info, datetime(2026, 1, 1), datetime(2026, 1, 2))


def test_real_stream_in_small_chunks(history: tuple[RepositoryInfo, list[Commit]]) -> None:
    info, commits = history
    data = subprocess.run(git_log_argv(info, *EVER), capture_output=True, env=git_env(), check=True)
    parser = GitLogParser(web_url=info.web_url)
    out = [c for i in range(0, len(data.stdout), 7) for c in parser.feed(data.stdout[i : i + 7])]
    assert out + parser.close() == parse_log(data.stdout, web_url=info.web_url) == commits


def test_breaking_out_early_stops_git(history: tuple[RepositoryInfo, list[Commit]]) -> None:
    info, _ = history

    async def first() -> str:
        agen = iter_commits(info, *EVER)
        async for c in agen:
            await agen.aclose()
            return c.title
        return ""

    assert asyncio.run(first()) == "Midnight"
    time.sleep(0.2)
    assert not [t for t in threading.enumerate() if t.name == "git-log-reader"]


def test_a_parser_far_behind_git_gets_every_commit(
    history: tuple[RepositoryInfo, list[Commit]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """git's output is read on a thread, a bounded number of chunks ahead of a parser that
    works slowly (the analysis and the radar run between commits): nothing lost, nothing
    doubled, in order."""
    info, commits = history
    monkeypatch.setattr(git_source, "CHUNK_SIZE", 97)
    monkeypatch.setattr(git_source, "AHEAD_CHUNKS", 2)

    async def slowly() -> list[Commit]:
        out = []
        async for c in iter_commits(info, *EVER):
            await asyncio.sleep(0.01)  # the pump fills its two chunks and waits
            out.append(c)
        return out

    assert asyncio.run(slowly()) == commits


def test_what_git_wrote_before_a_pause_goes_to_the_parser_at_once() -> None:
    """git pauses (a big diff to work out, or the walk of older history after the window's
    last commit): the commits it wrote are parsed meanwhile, not once a whole chunk or the
    end has come (a short window's output, far below a chunk, waited for git to end)."""

    first, rest = asyncio.run(_pumped(*os.pipe()))
    assert first == b"the first commit"
    assert rest == [b", the rest", b""]


async def _pumped(ours: int, gits: int) -> tuple[bytes, list[bytes]]:
    """What a pump reading ``ours`` hands on: what git wrote before a pause, then the rest
    and the end once git wrote more and closed ``gits``."""
    pump = git_source._Pump(ours, asyncio.get_running_loop())
    try:
        os.write(gits, b"the first commit")
        first = await asyncio.wait_for(pump.read(), timeout=20)  # git writes no more yet
        os.write(gits, b", the rest")
        os.close(gits)
        gits = -1
        return first, [await pump.read(), await pump.read()]
    finally:
        if gits >= 0:
            os.close(gits)  # (the pump's thread ends with the pipe)
        pump.close()


def test_a_pump_on_a_descriptor_above_1023_reads_too() -> None:
    """A run with many files open gets a high descriptor for git's output: ``select`` refuses
    one above 1023 (the pump's thread died and the read waited forever); ``poll`` does not."""
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft <= 1100:
        pytest.skip(f"this machine opens at most {soft} files")
    ours, gits = os.pipe()
    high = os.dup2(ours, 1090)
    os.close(ours)
    first, rest = asyncio.run(_pumped(high, gits))
    assert (first, rest) == (b"the first commit", [b", the rest", b""])


def test_the_window_is_listed_before_it_is_read(
    history: tuple[RepositoryInfo, list[Commit]],
) -> None:
    """``window_commits`` names exactly the commits (and first parents) a read gives."""
    info, commits = history
    assert window_commits(info, *EVER) == [
        (c.sha, c.parents[0] if c.parents else None) for c in commits
    ]
    start = datetime(2026, 1, 10, 11, 30, tzinfo=CST)
    end = datetime(2026, 1, 11, tzinfo=CST)
    read = _read(info, start, end)
    assert read and len(read) < len(commits)
    assert [sha for sha, _ in window_commits(info, start, end)] == [c.sha for c in read]


# ---- repository identity and errors ------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "https://github.com/o-1/r.x.git",
        "https://github.com/o-1/r.x",
        "https://github.com/o-1/r.x/",
        "http://www.github.com/o-1/r.x",
        "https://token@github.com/o-1/r.x.git",
        "git@github.com:o-1/r.x.git",
        "git@github.com:o-1/r.x",
        "ssh://git@github.com/o-1/r.x",
        "ssh://git@github.com/o-1/r.x.git",
        "ssh://git@ssh.github.com:443/o-1/r.x.git",
        "git://github.com/o-1/r.x.git",
        "HTTPS://GitHub.com/o-1/r.x.git",
    ],
)
def test_github_urls(url: str) -> None:
    assert github_slug(url) == ("o-1", "r.x")


@pytest.mark.parametrize(
    "url",
    [
        "https://gitlab.com/o/r.git",
        "git@example.com:o/r.git",
        "https://github.com/o",
        "https://github.com.evil.com/o/r",
        "https://github.com/o/r/tree/main",
        "/srv/git/r.git",
    ],
)
def test_not_github_urls(url: str) -> None:
    assert github_slug(url) is None


def _small(tmp_path: Path, origin: str | None = None) -> Path:
    repo = tmp_path / "proj"
    build_repo(
        repo, [CommitSpec("one", "2026-01-01T00:00:00+00:00", files={"a": "a\n"})], origin=origin
    )
    return repo


def test_resolve_plain_repo_from_subfolder_and_https_origin(tmp_path: Path) -> None:
    repo = _small(tmp_path, origin="https://github.com/octo/cat")
    (repo / "sub").mkdir()
    info = resolve_repository_sync(repo / "sub")
    assert info.root == repo.resolve() and info.name == "octo/cat" and info.branch == "main"
    assert info.head_sha == git(repo, "rev-parse", "HEAD").strip()
    assert info.origin_url == "https://github.com/octo/cat"


def test_resolve_non_github_origin_uses_folder_name_and_the_hosts_links(tmp_path: Path) -> None:
    info = resolve_repository_sync(_small(tmp_path, origin="https://gitlab.com/a/b.git"))
    assert (info.name, info.web_url) == ("proj", "https://gitlab.com/a/b")
    assert info.commit_url("abc") == "https://gitlab.com/a/b/-/commit/abc"


def test_resolve_branch_detached_and_bare(tmp_path: Path) -> None:
    repo = _small(tmp_path)
    git(repo, "branch", "other")
    assert resolve_repository_sync(repo, "other").branch == "other"
    git(repo, "checkout", "-q", "--detach")
    assert resolve_repository_sync(repo).branch == "HEAD"
    bare = tmp_path / "mirror.git"
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(bare))
    info = resolve_repository_sync(bare)
    assert (info.root, info.name, info.branch) == (bare.resolve(), "mirror", "main")
    assert [c.title for c in _read(info, *EVER)] == ["one"]


def test_empty_repository_gives_no_commits(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "empty")
    info = resolve_repository_sync(repo)
    assert (info.branch, info.head_sha) == ("main", None)
    assert resolve_repository_sync(repo, "main").head_sha is None
    assert _read(info, *EVER) == []


def test_missing_path(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="does not exist"):
        resolve_repository_sync(tmp_path / "nope")


def test_not_a_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    (tmp_path / "plain").mkdir()
    with pytest.raises(SourceError, match="not a git repository"):
        resolve_repository_sync(tmp_path / "plain")
    (tmp_path / "file.txt").write_text("x")
    with pytest.raises(SourceError, match="not a git repository"):
        resolve_repository_sync(tmp_path / "file.txt")


def test_unknown_branch_is_named(tmp_path: Path) -> None:
    repo = _small(tmp_path)
    with pytest.raises(SourceError, match="unknown branch 'nope'") as exc:
        resolve_repository_sync(repo, "nope")
    assert "\n" not in str(exc.value) and exc.value.exit_code == 3
    with pytest.raises(SourceError, match="unknown branch"):
        resolve_repository_sync(repo, "--all")


def test_git_not_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _small(tmp_path)
    info = resolve_repository_sync(repo)
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))
    with pytest.raises(SourceError, match="git is not installed"):
        resolve_repository_sync(repo)
    with pytest.raises(SourceError, match="git is not installed"):
        _read(info, *EVER)


def test_git_failure_maps_to_one_line_source_error(tmp_path: Path) -> None:
    info = resolve_repository_sync(_small(tmp_path))
    broken = RepositoryInfo(info.root, info.name, None, "main", "0123456789" * 4)
    with pytest.raises(SourceError, match="git log failed") as exc:
        _read(broken, *EVER)
    assert "\n" not in str(exc.value)


def test_async_resolve_matches_sync(tmp_path: Path) -> None:
    repo = _small(tmp_path)
    assert asyncio.run(resolve_repository(repo, "main")) == resolve_repository_sync(repo, "main")
    with pytest.raises(SourceError, match="does not exist"):
        asyncio.run(resolve_repository(tmp_path / "nope"))


def test_author_goes_through_mailmap(tmp_path: Path) -> None:
    repo = tmp_path / "mm"
    mailmap = "Real Name <real@example.com> Test Author <author@example.com>\n"
    specs = [CommitSpec("add mailmap", "2026-01-01T00:00:00+00:00", files={".mailmap": mailmap})]
    build_repo(repo, specs)
    [c] = _read(resolve_repository_sync(repo), *EVER)
    assert (c.author, c.author_email) == ("Real Name", "real@example.com")


def _numstat(repo: Path) -> dict[str, list[tuple[str, int | None, int | None]]]:
    """Every first-parent commit's files as git's own ``--numstat`` counts them."""
    out = git(repo, "log", "--first-parent", "--diff-merges=first-parent", "-M", "--numstat",
              "-z", "--format=%x01%H")  # fmt: skip
    found: dict[str, list[tuple[str, int | None, int | None]]] = {}
    for chunk in out.split("\x01")[1:]:
        sha, rest = chunk[:40], chunk[40:].lstrip("\n").split("\x00")
        files: list[tuple[str, int | None, int | None]] = []
        i = 0
        while i < len(rest):
            entry = rest[i].lstrip("\n")
            if not entry:
                i += 1
                continue
            added, deleted, path = entry.split("\t", 2)
            if not path:  # a rename: "\0old\0new"
                path, i = rest[i + 2], i + 3
            else:
                i += 1
            files.append((path, None if added == "-" else int(added),
                          None if deleted == "-" else int(deleted)))  # fmt: skip
        found[sha] = files
    return found


def test_line_counts_are_what_git_numstat_says(tmp_path: Path) -> None:
    """The parser counts each file's lines from its patch (git is not asked for
    ``--numstat``): the same counts as git's own, for lines that look like patch headers,
    CRLF and no final newline, binary files, renames with edits, type changes, a file cut
    by the budget and the files after a spent commit budget."""
    repo = init_repo(tmp_path / "r")
    start: dict[str, str | bytes | None] = {
        "g.txt": "--- x\n+++ y\nkeep\n-- a\n", "crlf.txt": "a\r\nb\r\n", "bin.dat": b"\x00a",
        "move.py": "".join(f"line {i}\n" for i in range(40)), "kind": "was a file\n",
    }  # fmt: skip
    commit(repo, CommitSpec("one", "2026-01-10T10:00:00+00:00", files=start))
    edits: dict[str, str | bytes | None] = {
        "g.txt": "+++ y\nkeep\n++ new\n--- z", "crlf.txt": "a\r\nc\r\n", "bin.dat": b"\x00b",
        "big.txt": "".join(f"row {i}\n" for i in range(3000)), "after.txt": "1\n2\n3\n",
    }  # fmt: skip
    commit(repo, CommitSpec("two", "2026-01-10T11:00:00+00:00", files=edits,
                            renames={"move.py": "moved.py"}))  # fmt: skip
    (repo / "moved.py").write_text("".join(f"line {i}\n" for i in range(1, 42)))
    (repo / "kind").unlink()
    os.symlink("g.txt", repo / "kind")
    git(repo, "add", "-A")
    commit(repo, CommitSpec("three", "2026-01-10T12:00:00+00:00"))
    info = resolve_repository_sync(repo)
    limits = PatchLimits(max_patch_bytes_per_file=1000, max_patch_bytes_per_commit=1200)
    commits = _read(info, *EVER, limits=limits)
    expected = _numstat(repo)
    assert len(commits) == 3
    for c in commits:
        got = sorted((f.path, f.additions, f.deletions) for f in c.files)
        assert got == sorted(expected[c.sha]), c.title
    two = _by_title(commits)["two"]
    assert two.patch_truncated and any(f.patch == "" for f in two.files)  # counted unread
    assert {f.path: f.binary for f in two.files}["bin.dat"]
