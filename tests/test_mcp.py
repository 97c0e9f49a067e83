"""`commitdigest mcp` through the official SDK's own client: over stdio (a real process,
as an agent launches it) and over streamable HTTP on 127.0.0.1. Every tool answers; bad
arguments are tool errors; nothing outside the reports folder can be named."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from gitfixture import CommitSpec, build_repo
from mcp import Client, StdioServerParameters
from typer.testing import CliRunner

from commitdigest.agent.archive import MAX_RESULTS, Archive, ArchiveError
from commitdigest.cli import app

runner = CliRunner()


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("mcp")
    repo = root / "repo"
    build_repo(
        repo,
        [
            CommitSpec("feat: add the zeppelin scheduler", "2026-03-02T09:00:00+00:00",
                       files={"src/sched.py": "def zeppelin():\n    return 1\n"}),
            CommitSpec("fix: quieter logs", "2026-03-03T09:00:00+00:00",
                       files={"src/log.py": "L = 1\n"}),
            CommitSpec("refactor!: remove the old entry point", "2026-03-03T12:00:00+00:00",
                       body="BREAKING CHANGE: `old_main()` is removed.",
                       files={"src/main.py": "M = 1\n"}),
        ],
    )  # fmt: skip
    out = root / "out"
    args = ["report", str(repo), "--since", "2026-03-02", "--until", "2026-03-04"]
    args += ["--tz", "UTC", "--format", "md,json", "--out", str(out)]
    made = runner.invoke(app, [*args, "--home", str(root / "home")])
    assert made.exit_code == 0, made.stderr
    return out


def test_archive_answers_and_refuses(reports: Path) -> None:
    archive = Archive(reports)
    listed = archive.list_reports()
    assert [r["date"] for r in listed["reports"]] == ["2026-03-03", "2026-03-02"]
    repo = listed["reports"][0]["repositories"][0]["name"]
    hits = archive.search_commits("zeppelin")["commits"]
    assert [h["title"] for h in hits] == ["feat: add the zeppelin scheduler"]
    assert hits[0]["section"].startswith("2026-03-02.html#")
    commit = archive.get_commit(repo, hits[0]["sha"][:7])
    assert commit["analysis"]["change_type"] == "feature"
    report = archive.get_report(repo, "2026-03-03", "summary")
    assert "quieter logs" in report["text"] and not report["truncated"]
    for bad in (
        lambda: archive.get_report(repo, "../../etc/passwd", "md"),
        lambda: archive.get_report(repo, "2026-02-30", "md"),
        lambda: archive.get_report(repo, "2026-03-03", "exe"),
        lambda: archive.get_report("nobody/else", "2026-03-03", "md"),
        lambda: archive.search_commits(""),
        lambda: archive.search_commits("x" * 500),
        lambda: archive.get_commit(repo, "zzzzzzz"),
        lambda: archive.breaking_changes(since="yesterday"),
    ):
        with pytest.raises(ArchiveError):
            bad()
    assert MAX_RESULTS == 50


async def _exercise(client: Client) -> dict[str, Any]:
    tools = await client.list_tools()
    names = sorted(t.name for t in tools.tools)
    assert names == sorted(
        ["list_reports", "get_report", "search_commits", "breaking_changes", "get_commit"]
    )
    assert all(t.annotations and t.annotations.read_only_hint for t in tools.tools)
    listed = await client.call_tool("list_reports", {})
    assert not listed.is_error, listed.content
    repo = listed.structured_content["reports"][0]["repositories"][0]["name"]
    found = await client.call_tool("search_commits", {"query": "zeppelin", "repo": repo})
    (hit,) = found.structured_content["commits"]
    commit = await client.call_tool("get_commit", {"repo": repo, "sha": hit["sha"][:9]})
    assert commit.structured_content["title"] == "feat: add the zeppelin scheduler"
    report = await client.call_tool(
        "get_report", {"repo": repo, "date": "2026-03-02", "format": "md"}
    )
    assert "zeppelin" in report.structured_content["text"]
    breaking = await client.call_tool("breaking_changes", {"since": "2026-03-01"})
    assert not breaking.is_error
    items = breaking.structured_content["breaking_changes"]
    assert any("entry point" in i["title"] for i in items), items
    refused = await client.call_tool(
        "get_report", {"repo": repo, "date": "../../../etc/passwd", "format": "md"}
    )
    assert refused.is_error and "YYYY-MM-DD" in refused.content[0].text
    return {"repo": repo}


def test_every_tool_through_the_sdk_client_over_stdio(reports: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "commitdigest", "mcp", "--reports", str(reports)]
    )

    async def main() -> None:
        async with Client(params) as client:
            await _exercise(client)

    anyio.run(main)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_streamable_http_on_localhost(reports: Path) -> None:
    port = _free_port()
    command = [sys.executable, "-m", "commitdigest", "mcp", "--reports", str(reports)]
    server = subprocess.Popen(
        [*command, "--http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.2)

        async def main() -> None:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                await _exercise(client)

        anyio.run(main)
    finally:
        server.terminate()
        server.wait(timeout=10)
        if server.stderr is not None:
            server.stderr.close()


def test_a_missing_reports_folder_is_a_one_line_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["mcp", "--reports", str(tmp_path / "nope")])
    assert result.exit_code == 2
    assert "does not exist" in result.stderr and "Traceback" not in result.stderr
    assert json.dumps({}) == "{}"
