"""Delivery wired into `commitdigest run` and `commitdigest deliver`, end to end."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
import hmac
from pathlib import Path

from fake_receivers import HttpReceiver, Reply
from gitfixture import CommitSpec, build_repo
from typer.testing import CliRunner

from commitdigest.cli import app

runner = CliRunner()
SECRET = "whsec-test-do-not-print"


def setup(
    tmp_path: Path, hook_url: str, broken_url: str | None = None
) -> tuple[Path, dict[str, str]]:
    repo = tmp_path / "repo"
    build_repo(
        repo,
        [
            CommitSpec(
                "feat: new thing (#7)", "2026-05-01T10:00:00+08:00", files={"src/a.py": "a = 1\n"}
            )
        ],
    )
    extra = (
        (
            f'\n[[deliver]]\nname = "broken"\ntype = "webhook"\nurl = "{broken_url}"\n'
            "max_attempts = 2\nbackoff_s = 0\n"
        )
        if broken_url
        else ""
    )
    config = tmp_path / "commitdigest.toml"
    config.write_text(
        f'timezone = "Asia/Shanghai"\noutput_dir = "{tmp_path / "out"}"\nformats = ["md"]\n\n'
        f'[[repositories]]\nname = "{repo}"\n\n'
        f'[[deliver]]\nname = "hook"\ntype = "webhook"\nurl = "{hook_url}"\n'
        f'secret_env = "HOOK_SECRET"\n{extra}',
        encoding="utf-8",
    )
    env = {"COMMITDIGEST_HOME": str(tmp_path / "home"), "HOOK_SECRET": SECRET}
    return config, env


def test_run_delivers_once_and_deliver_resends_on_demand(tmp_path: Path) -> None:
    with HttpReceiver() as hook:
        config, env = setup(tmp_path, hook.url())
        result = runner.invoke(
            app, ["run", "--config", str(config), "--date", "2026-05-01"], env=env
        )
        assert result.exit_code == 0, result.stderr
        assert (tmp_path / "out" / "2026-05-01.json").exists()  # added for delivery
        [sent] = hook.requests
        body = sent.json()
        assert body["window"]["label"] == "2026-05-01"
        assert body["repositories"][0]["commits"][0]["title"] == "feat: new thing (#7)"
        expected = hmac.new(SECRET.encode(), sent.body, hashlib.sha256).hexdigest()
        assert sent.headers["x-commitdigest-signature"] == f"sha256={expected}"

        again = runner.invoke(
            app, ["deliver", "--config", str(config), "--date", "2026-05-01"], env=env
        )
        assert again.exit_code == 0 and len(hook.requests) == 1  # not delivered twice
        assert "skipped hook" in again.stdout
        forced = runner.invoke(
            app, ["deliver", "--config", str(config), "--date", "2026-05-01", "--force"], env=env
        )
        assert forced.exit_code == 0 and len(hook.requests) == 2
        test = runner.invoke(app, ["deliver", "--config", str(config), "--test", "hook"], env=env)
        assert test.exit_code == 0 and len(hook.requests) == 3
    for output in (result, again, forced, test):
        assert SECRET not in output.stdout + output.stderr


def test_a_failing_channel_leaves_the_report_and_sets_the_exit_code(tmp_path: Path) -> None:
    with HttpReceiver() as hook, HttpReceiver(Reply(500, "down")) as broken:
        config, env = setup(tmp_path, hook.url(), broken.url())
        result = runner.invoke(
            app, ["run", "--config", str(config), "--date", "2026-05-01"], env=env
        )
        assert len(broken.requests) == 2  # retried
        assert len(hook.requests) == 1  # the other channel still got it
    assert result.exit_code == 7
    assert "error: deliver broken 2026-05-01" in result.stderr
    report = (tmp_path / "out" / "2026-05-01.md").read_text(encoding="utf-8")
    assert "feat: new thing (#7)" in report


def test_a_test_message_fails_fast_and_the_failure_is_printed_once(tmp_path: Path) -> None:
    """`deliver --test` makes one attempt (no backoff), and the service's own answer is
    printed once, with the channel's name — not again by a log line — in a real process."""
    with HttpReceiver() as hook, HttpReceiver(Reply(500, "bad hook token")) as broken:
        config, env = setup(tmp_path, hook.url(), broken.url())
        config.write_text(
            config.read_text(encoding="utf-8").replace("max_attempts = 2\nbackoff_s = 0\n", ""),
            encoding="utf-8",
        )  # the default retries (and their backoff) of a real delivery
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "commitdigest", "deliver", "--config", str(config)]
            + ["--test", "broken"],
            env={**os.environ, **env},
            capture_output=True,
            text=True,
            timeout=60,
        )
        elapsed = time.monotonic() - started
        assert len(broken.requests) == 1
    assert done.returncode == 7, done.stderr
    assert elapsed < 10
    lines = [line for line in done.stderr.splitlines() if "bad hook token" in line]
    assert len(lines) == 1 and lines[0].startswith("error: deliver broken "), done.stderr
    assert SECRET not in done.stdout + done.stderr
