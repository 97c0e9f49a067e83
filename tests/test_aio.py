"""Synchronous entry points work where the calling thread already runs an event loop (a
notebook, an async caller, Playwright's sync API in a test): ``run_sync`` runs the work on a
worker thread then, and a command called from inside a loop behaves as from a shell."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
from gitfixture import CommitSpec, build_repo
from typer.testing import CliRunner

from commitdigest.aio import loop_running, run_sync
from commitdigest.cli import app
from commitdigest.errors import UsageError


async def _where(value: int) -> tuple[int, str]:
    await asyncio.sleep(0)
    return value * 2, threading.current_thread().name


async def _fails() -> None:
    raise UsageError("bad input")


def test_without_a_loop_it_runs_here() -> None:
    assert not loop_running()
    assert run_sync(_where(21)) == (42, threading.current_thread().name)


def test_inside_a_running_loop_it_runs_on_a_worker_thread() -> None:
    async def caller() -> tuple[int, str]:
        assert loop_running()
        return run_sync(_where(4))

    value, thread = asyncio.run(caller())
    assert value == 8
    assert thread == "commitdigest-run-sync"


def test_an_error_reaches_the_caller_as_it_was_raised() -> None:
    async def caller() -> None:
        run_sync(_fails())

    with pytest.raises(UsageError, match="bad input"):
        asyncio.run(caller())
    with pytest.raises(UsageError, match="bad input"):
        run_sync(_fails())


def test_a_command_called_inside_a_running_loop_writes_its_report(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    build_repo(repo, [CommitSpec("feat: first (#1)", "2026-03-02T10:00:00+00:00",
                                 files={"src/a.py": "A = 1\n"})])  # fmt: skip
    out = tmp_path / "out"
    args = ["report", str(repo), "--date", "2026-03-02", "--tz", "UTC", "--out", str(out),
            "--home", str(tmp_path / "home"), "--lang", "en"]  # fmt: skip

    async def caller() -> tuple[int, str]:
        made = CliRunner().invoke(app, args)
        return made.exit_code, made.stderr

    code, stderr = asyncio.run(caller())
    assert code == 0, stderr
    assert "internal error" not in stderr
    assert "feat: first (#1)" in (out / "2026-03-02.md").read_text(encoding="utf-8")
