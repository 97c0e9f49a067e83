"""The GitHub client: tokens, rate limits, retries, conditional requests and clear errors."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import socket
import stat
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fake_github import (
    FakeGitHub,
    FakeRepo,
    Reply,
    open_options,
    repo_from_git,
    secondary_limit,
)
from gitfixture import CommitSpec, build_repo
from pydantic import SecretStr

from commitdigest.errors import RateLimitError, SourceError
from commitdigest.models import Commit
from commitdigest.sources.github_api import GitHubAPI, GitHubLimits
from commitdigest.sources.github_auth import default_api_url, discover_token
from commitdigest.sources.github_source import GitHubRepository, open_github_repository
from commitdigest.store import Store

CST = timezone(timedelta(hours=8))
DAY = (datetime(2026, 1, 13, tzinfo=CST), datetime(2026, 1, 14, tzinfo=CST))
TOKEN = "ghp_S3cr3tT0kenValue42"


@pytest.fixture(scope="module")
def fake_repo(tmp_path_factory: pytest.TempPathFactory) -> FakeRepo:
    path = tmp_path_factory.mktemp("api") / "repo"
    specs = [
        CommitSpec(f"Change {i} (#{i})", f"2026-01-13T{10 + i:02d}:00:00+08:00",
                   files={f"f{i}.txt": f"{i}\n", "bin.dat": bytes([0, i])})
        for i in range(4)
    ]  # fmt: skip
    build_repo(path, specs, origin="https://github.com/octo/widgets")
    return repo_from_git(path, "octo/widgets")


async def _open(fake: FakeGitHub, **kw: Any) -> GitHubRepository:
    kw.setdefault("token", None)
    owner, name = kw.pop("spec", "octo/widgets").split("/")
    options: dict[str, Any] = {"retry_base": 0.001, "secondary_base": 0.001, "reset_margin": 0.0}
    return await open_github_repository(
        owner, name, api_url=fake.base_url, **open_options(**(options | kw))
    )


def _read(fake: FakeGitHub, **kw: Any) -> list[Commit]:
    async def go() -> list[Commit]:
        async with await _open(fake, **kw) as repo:
            return await repo.read_commits(*DAY)

    return asyncio.run(go())


def _fails(fake: FakeGitHub, **kw: Any) -> SourceError:
    with pytest.raises(SourceError) as info:
        _read(fake, **kw)
    assert info.value.exit_code == 3 and "\n" not in str(info.value)
    return info.value


# ---- tokens ------------------------------------------------------------------------------


def _fake_gh(tmp_path: Path, script: str, monkeypatch: pytest.MonkeyPatch) -> None:
    gh = tmp_path / "bin" / "gh"
    gh.parent.mkdir()
    gh.write_text(f"#!/bin/sh\n{script}\n")
    gh.chmod(gh.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{gh.parent}{os.pathsep}{os.environ.get('PATH', '')}")


def test_token_from_env_then_gh_then_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    both = {"GITHUB_TOKEN": "a1", "GH_TOKEN": "b2"}
    assert discover_token(env=both).source == "GITHUB_TOKEN"
    info = discover_token(env={"GH_TOKEN": " b2 "}, use_gh=False)
    assert (info.source, info.token and info.token.get_secret_value()) == ("GH_TOKEN", "b2")
    assert "b2" not in repr(info) and "b2" not in str(info.token)
    _fake_gh(tmp_path, 'echo "gho_fromGh"', monkeypatch)
    info = discover_token(env={})
    assert info.source == "gh auth token" and info.token is not None
    assert info.token.get_secret_value() == "gho_fromGh"


@pytest.mark.parametrize("script", ["echo 'not logged in' >&2; exit 1", "sleep 5"])
def test_gh_failing_or_hanging_means_no_token(
    script: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    _fake_gh(tmp_path, script, monkeypatch)
    with caplog.at_level(logging.WARNING):
        info = discover_token(env={}, gh_timeout=0.3)
    assert (info.token, info.source) == (None, "none")
    assert "60 an hour" in caplog.text


def test_api_url_from_env() -> None:
    assert default_api_url({}) == "https://api.github.com"
    assert default_api_url({"GITHUB_API_URL": "https://ghe.corp/api/v3/"}) == (
        "https://ghe.corp/api/v3"
    )


def test_the_token_never_leaks(
    fake_repo: FakeRepo, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)  # httpx2's loggers included
    with Store.open(tmp_path) as store, FakeGitHub(fake_repo, tokens={TOKEN}) as fake:
        commits = _read(fake, token=SecretStr(TOKEN), store=store)
        assert len(commits) == 4
        assert {r.headers.get("authorization") for r in fake.requests} == {f"Bearer {TOKEN}"}
        wrong = "ghp_Wr0ngS3cretValue"
        error = _fails(fake, token=SecretStr(wrong), store=store)
        assert "401" in str(error) and "Bad credentials" in str(error)
        fake.push(Reply(502), Reply(502), Reply(502), Reply(502))
        error5 = _fails(fake, token=SecretStr(TOKEN), store=store, max_retries=3)
        assert "502" in str(error5)

        async def show() -> str:
            async with await _open(fake, token=SecretStr(TOKEN), store=store) as repo:
                return repr(vars(repo)) + repr(vars(repo.api)) + repr(repo.api._client.headers)

        shown = asyncio.run(show())
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    assert b"github_cache" in stored or len(stored) > 0
    for secret in (TOKEN, wrong):
        assert secret not in caplog.text
        assert secret not in str(error) + repr(error) + str(error5) + shown
        assert secret.encode() not in stored
    assert "HTTP Request: GET" in caplog.text  # the client's log was really captured


# ---- rate limits -------------------------------------------------------------------------


def test_primary_limit_within_the_bound_is_waited_out(
    fake_repo: FakeRepo, caplog: pytest.LogCaptureFixture
) -> None:
    with FakeGitHub(fake_repo) as fake:
        fake.set_rate(remaining=5, reset_in=0.3)
        with caplog.at_level(logging.WARNING):
            commits = _read(fake)
        assert len(commits) == 4 and fake.count(status=403) >= 1
    assert "rate limit exhausted; waiting" in caplog.text and " s until " in caplog.text


def test_primary_limit_past_the_bound_stops_and_keeps_fetched_details(
    fake_repo: FakeRepo, tmp_path: Path
) -> None:
    with Store.open(tmp_path) as store, FakeGitHub(fake_repo) as fake:
        fake.set_rate(remaining=8, reset_in=120)
        with pytest.raises(RateLimitError) as info:
            _read(fake, store=store, max_wait=5, concurrency=1, fetch_pulls=False)
        message = str(info.value)
        assert info.value.exit_code == 3 and "\n" not in message
        assert info.value.reset_at is not None
        assert f"resets at {info.value.reset_at.isoformat(timespec='seconds')}" in message
        assert "unauthenticated" in message and "re-run continues" in message
        _, cached = store.github_cache().count()
        assert 1 <= cached < 4
        fake.set_rate(remaining=5000, reset_in=3600)  # the reset passed
        fake.reset_counts()
        assert len(_read(fake, store=store)) == 4
        assert fake.count("detail") == 4 - cached


@pytest.mark.parametrize(
    "replies",
    [
        [secondary_limit("0.05")],
        [secondary_limit(None), secondary_limit(None)],  # exponential from secondary_base
        [secondary_limit("0", status=429)],
        [Reply(429, "Too many requests")],
    ],
)
def test_secondary_limits_are_waited_out(
    fake_repo: FakeRepo, replies: list[Reply], caplog: pytest.LogCaptureFixture
) -> None:
    with FakeGitHub(fake_repo) as fake:
        fake.push(*replies)
        with caplog.at_level(logging.WARNING):
            assert len(_read(fake)) == 4
        assert fake.count(status=403) + fake.count(status=429) == len(replies)
    assert "secondary rate limit; waiting" in caplog.text


def test_a_persistent_secondary_limit_is_an_error(fake_repo: FakeRepo) -> None:
    with FakeGitHub(fake_repo) as fake:
        fake.push(*[secondary_limit(None)] * 4)
        error = _fails(fake, max_secondary=3)
    assert isinstance(error, RateLimitError) and "secondary rate limit persists" in str(error)


# ---- errors ------------------------------------------------------------------------------


def test_5xx_is_retried(fake_repo: FakeRepo) -> None:
    with FakeGitHub(fake_repo) as fake:
        fake.push(Reply(502), Reply(503, match="/commits"))
        assert len(_read(fake)) == 4
        assert fake.count(status=502) == fake.count(status=503) == 1


@pytest.mark.parametrize(
    ("setup", "expected"),
    [
        ({"tokens": {TOKEN}, "token": SecretStr("bad")}, "GitHub rejected the token from token"),
        ({"forbidden": {"octo/widgets"}}, "no access to /repos/octo/widgets on GitHub (403:"),
        ({"spec": "octo/nope"}, "unknown GitHub repository octo/nope or no access to it"),
        ({"branch": "nope"}, "unknown branch 'nope' in octo/widgets"),
        ({"replies": [Reply(500)] * 4}, "GitHub API error 500 for /repos/octo/widgets after 4"),
    ],
)
def test_clear_errors(fake_repo: FakeRepo, setup: dict[str, Any], expected: str) -> None:
    server = {k: setup.pop(k) for k in ("tokens", "forbidden") if k in setup}
    with FakeGitHub(fake_repo, **server) as fake:
        fake.push(*setup.pop("replies", []))
        assert expected in str(_fails(fake, **setup))


@pytest.mark.parametrize("status", [404, 422])
def test_unknown_default_branch_in_the_list(fake_repo: FakeRepo, status: int) -> None:
    broken = dataclasses.replace(fake_repo, default_branch="gone")
    with FakeGitHub(broken, unknown_ref_status=status) as fake:
        assert str(_fails(fake)) == "unknown branch 'gone' in octo/widgets"


def test_unreachable_api() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"

    async def go() -> None:
        await open_github_repository(
            "o", "r", api_url=url, token=None, limits=GitHubLimits(retry_base=0.001)
        )

    with pytest.raises(SourceError, match=rf"^cannot reach {url}: ") as info:
        asyncio.run(go())
    assert info.value.exit_code == 3


def test_empty_repository_has_no_commits() -> None:
    with FakeGitHub(FakeRepo("octo/empty", "main", {}, {})) as fake:
        assert _read(fake, spec="octo/empty") == []


# ---- the client itself --------------------------------------------------------------------


def test_conditional_get_uses_the_stored_body(fake_repo: FakeRepo) -> None:
    async def go(url: str) -> None:
        async with GitHubAPI(url) as api:
            first = await api.get("/repos/octo/widgets", kind="repo", conditional=True)
            again = await api.get("/repos/octo/widgets", kind="repo", conditional=True)
            plain = await api.get("/repos/octo/widgets", kind="repo")
            assert not first.not_modified and again.not_modified and not plain.not_modified
            assert first.json() == again.json() == plain.json()
            assert (api.stats.total, api.stats.conditional, api.stats.not_modified) == (3, 1, 1)

    with FakeGitHub(fake_repo, prefix="/api/v3") as fake:  # GitHub Enterprise's path
        asyncio.run(go(fake.base_url))
        assert [r.status for r in fake.requests] == [200, 304, 200]


def test_requests_run_concurrently_within_the_limit(fake_repo: FakeRepo) -> None:
    with FakeGitHub(fake_repo, delay=0.03) as fake:
        _read(fake, concurrency=2)
        assert fake.max_in_flight == 2


def test_links_to_another_host_are_not_followed() -> None:
    def handler(request: httpx2.Request) -> httpx2.Response:
        link = '<https://evil.example/repos/o/r/commits?page=2>; rel="next"'
        return httpx2.Response(200, json=[], headers={"Link": link})

    async def go() -> None:
        async with GitHubAPI(
            "https://api.github.com",
            token=SecretStr(TOKEN),
            transport=httpx2.MockTransport(handler),
        ) as api:
            await api.get_pages("/repos/o/r/commits", kind="list")

    with pytest.raises(SourceError, match="link to another host"):
        asyncio.run(go())


@pytest.mark.parametrize(
    ("body", "expect", "message"),
    [
        ("<html>Unicorn!</html>", None, "not JSON"),
        ('{"message": "ok"}', list, "JSON dict where a list was expected"),
        ("[1, 2]", dict, "JSON list where a dict was expected"),
    ],
)
def test_an_answer_of_the_wrong_shape_is_a_source_error_naming_the_endpoint(
    body: str, expect: type[Any] | None, message: str
) -> None:
    from commitdigest.errors import SourceError
    from commitdigest.sources.github_api import Reply as APIReply

    url = "https://api.github.com/repos/o/r/commits"
    with pytest.raises(SourceError, match=message) as info:
        APIReply(body, None, url=url).json(expect)
    assert url in str(info.value) and info.value.exit_code == 3
