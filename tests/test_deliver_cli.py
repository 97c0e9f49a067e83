"""Delivery wired into `commitdigest run` and `commitdigest deliver`, end to end."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import subprocess
import sys
import time
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


def test_a_test_message_is_in_the_language_reports_are(tmp_path: Path) -> None:
    """`deliver --test` without a channel `lang` or a config `language` writes the sample
    in the locale's language, as `report` and `run` would (not the settings' default)."""
    with HttpReceiver() as hook:
        config, env = setup(tmp_path, hook.url())
        for lang, expected in (("C.UTF-8", "en"), ("zh_CN.UTF-8", "zh")):
            sent = runner.invoke(
                app,
                ["deliver", "--config", str(config), "--test", "hook"],
                env={**env, "LANG": lang, "LC_ALL": "", "LC_MESSAGES": ""},
            )
            assert sent.exit_code == 0, sent.stderr
            assert hook.requests[-1].json()["lang"] == expected
            review = tmp_path / f"review-{expected}"
            dry = ["--test", "hook", "--dry-run", "--out", str(review)]
            written = runner.invoke(
                app,
                ["deliver", "--config", str(config), *dry],
                env={**env, "LANG": lang, "LC_ALL": "", "LC_MESSAGES": ""},
            )
            assert written.exit_code == 0, written.stderr
            [payload] = review.glob("*.hook.json")  # (written, not sent)
            assert json.loads(payload.read_text(encoding="utf-8"))["lang"] == expected


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
            [
                sys.executable,
                "-m",
                "commitdigest",
                "deliver",
                "--config",
                str(config),
                "--test",
                "broken",
            ],
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


def test_dry_run_writes_each_channels_exact_payload_and_sends_nothing(tmp_path: Path) -> None:
    with HttpReceiver() as hook:
        config, env = setup(tmp_path, hook.url())
        config.write_text(
            config.read_text(encoding="utf-8")
            + '\n[[deliver]]\nname = "tg"\ntype = "telegram"\nbot_token_env = "TG_TOKEN"\n'
            'chat_id = 1\nparse_mode = "MarkdownV2"\n'
            '\n[[deliver]]\nname = "mail"\ntype = "email"\nhost = "127.0.0.1"\n'
            'sender = "d@example.org"\nto = ["a@example.org"]\n',
            encoding="utf-8",
        )
        config.write_text(
            config.read_text(encoding="utf-8").replace(
                'formats = ["md"]', 'formats = ["md", "json"]'
            ),
            encoding="utf-8",
        )
        env = {**env, "TG_TOKEN": "123:never-written-anywhere"}
        made = runner.invoke(
            app,
            [
                "report",
                str(tmp_path / "repo"),
                "--config",
                str(config),
                "--date",
                "2026-05-01",
                "--format",
                "md,json",
            ],
            env=env,
        )
        assert made.exit_code == 0, made.stderr
        out = tmp_path / "review"
        args = ["deliver", "--config", str(config), "--date", "2026-05-01", "--dry-run"]
        result = runner.invoke(app, [*args, "--out", str(out)], env=env)
        assert result.exit_code == 0, result.stderr
        assert hook.requests == []  # nothing sent
    files = sorted(p.name for p in out.iterdir())
    assert files == ["2026-05-01.hook.json", "2026-05-01.mail.eml", "2026-05-01.tg.json"]
    body = json.loads((out / "2026-05-01.tg.json").read_text(encoding="utf-8"))
    assert body["parse_mode"] == "MarkdownV2" and "feat: new thing \\(\\#7\\)" in body["text"]
    report = json.loads((out / "2026-05-01.hook.json").read_text(encoding="utf-8"))
    assert report["repositories"][0]["commits"][0]["title"] == "feat: new thing (#7)"
    mail = (out / "2026-05-01.mail.eml").read_bytes()
    assert b"Subject: " in mail and b"multipart/alternative" in mail
    written = b"".join(p.read_bytes() for p in out.iterdir())
    assert SECRET.encode() not in written and b"never-written-anywhere" not in written
    assert "wrote " in result.stdout and "for tg" in result.stdout
