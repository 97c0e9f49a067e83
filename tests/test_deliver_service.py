"""Delivering a day: retries and backoff, the store's records, no duplicates unless forced,
and a failing channel that never touches the report files."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from fake_receivers import HttpReceiver, Reply, busy_day, channel_config

from commitdigest.deliver import chat_intl
from commitdigest.deliver.service import (
    DeliveryResult,
    deliver_day,
    failed,
    select_channels,
)
from commitdigest.errors import OutputError, UsageError
from commitdigest.files import write_text_atomic
from commitdigest.render.folder import ReportsFolder
from commitdigest.render.json_output import render_json
from commitdigest.render.markdown import render_markdown
from commitdigest.store import Store

OK = Reply(200, "ok")


def _slack(http: HttpReceiver, name: str = "slack", **fields: Any) -> Any:
    return channel_config(name=name, type="slack", url_env="SLACK_URL", **fields)


def _run(context: Any, channels: list[Any], store: Store | None, **kw: Any) -> list[DeliveryResult]:
    return asyncio.run(deliver_day(context, channels, store, **kw))


@pytest.fixture
def http(monkeypatch: pytest.MonkeyPatch) -> Any:
    with HttpReceiver(OK) as receiver:
        monkeypatch.setenv("SLACK_URL", receiver.url("/services/T1/B1/abcdefghijklmnopqrstuvwx"))
        yield receiver


def test_server_errors_are_retried_with_backoff(http: HttpReceiver, tmp_path: Path) -> None:
    http.script(Reply(500, "boom"), Reply(502), Reply(503))
    with Store.open(tmp_path) as store:
        (result,) = _run(busy_day(2), [_slack(http, max_attempts=4)], store)
        (record,) = store.deliveries().records()
    assert (result.status, result.attempts, result.error) == ("sent", 4, None)
    assert len(http.requests) == 4
    assert (record.day, record.channel, record.channel_type) == ("2026-01-13", "slack", "slack")
    assert (record.status, record.attempts, record.error) == ("sent", 4, None)
    assert record.delivered_at is not None and len(record.digest_hash) == 16


def test_backoff_doubles_and_is_capped(http: HttpReceiver) -> None:
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    http.script(*[Reply(500)] * 5)
    config = _slack(http, max_attempts=6, backoff_s=1, max_backoff_s=5)
    (result,) = _run(busy_day(1), [config], None, sleep=sleep)
    assert result.status == "sent" and slept == [1, 2, 4, 5, 5]


def test_a_timeout_is_retried(http: HttpReceiver) -> None:
    http.script(Reply(200, "ok", delay=1.5))
    started = time.monotonic()
    (result,) = _run(busy_day(1), [_slack(http, timeout_s=0.3)], None)
    assert (result.status, result.attempts) == ("sent", 2)
    assert time.monotonic() - started < 1.4  # the slow answer was not waited for


def test_retries_give_up_and_say_why(http: HttpReceiver, tmp_path: Path) -> None:
    http.default = Reply(500, "upstream exploded")
    with Store.open(tmp_path) as store:
        (result,) = _run(busy_day(1), [_slack(http, max_attempts=3)], store)
        (record,) = store.deliveries().records()
    assert (result.status, result.attempts) == ("failed", 3)
    assert result.error == "HTTP 500 Internal Server Error: upstream exploded"
    assert (record.status, record.attempts, record.error) == ("failed", 3, result.error)
    assert record.delivered_at is None


def test_client_errors_are_not_retried(http: HttpReceiver) -> None:
    http.default = Reply(404, "no_service")
    (result,) = _run(busy_day(1), [_slack(http)], None)
    assert (result.status, result.attempts) == ("failed", 1) and len(http.requests) == 1


def test_retry_after_is_honoured_up_to_a_bound(http: HttpReceiver) -> None:
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    http.script(Reply(429, "rate_limited", headers={"Retry-After": "7"}))
    (result,) = _run(busy_day(1), [_slack(http)], None, sleep=sleep)
    assert (result.status, result.attempts, slept) == ("sent", 2, [7.0])
    http.script(Reply(429, "rate_limited", headers={"Retry-After": "3600"}))
    (late,) = _run(busy_day(1), [_slack(http, max_retry_after_s=60)], None, sleep=sleep)
    assert (late.status, late.attempts) == ("failed", 1)
    assert late.error is not None and "retry after 3600 s" in late.error


def test_a_day_is_delivered_once_unless_forced(http: HttpReceiver, tmp_path: Path) -> None:
    context = busy_day(2)
    with Store.open(tmp_path) as store:
        (first,) = _run(context, [_slack(http)], store)
        (again,) = _run(context, [_slack(http)], store)
        assert (first.status, again.status) == ("sent", "skipped")
        assert again.detail is not None and again.detail.startswith("already delivered at ")
        assert "changed" not in again.detail
        assert len(http.requests) == 1
        (forced,) = _run(context, [_slack(http)], store, force=True)
        assert forced.status == "sent" and len(http.requests) == 2
        # a re-run whose report changed is still skipped, and says so
        (changed,) = _run(busy_day(3), [_slack(http)], store)
        assert changed.status == "skipped" and "use --force" in (changed.detail or "")
        records = store.deliveries().records(day="2026-01-13", channel="slack")
    assert [(r.status, r.forced) for r in records] == [("sent", True), ("sent", False)]
    assert len(http.requests) == 2


def test_a_failed_delivery_is_tried_again_by_the_next_run(
    http: HttpReceiver, tmp_path: Path
) -> None:
    http.script(*[Reply(503)] * 2)
    with Store.open(tmp_path) as store:
        (first,) = _run(busy_day(1), [_slack(http, max_attempts=2)], store)
        (second,) = _run(busy_day(1), [_slack(http, max_attempts=2)], store)
        statuses = [r.status for r in store.deliveries().records()]
    assert (first.status, second.status) == ("failed", "sent")
    assert statuses == ["sent", "failed"]


def test_a_failing_channel_leaves_the_files_and_the_others_alone(
    http: HttpReceiver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    context = busy_day(3)
    out = tmp_path / "reports"
    paths = {
        "md": write_text_atomic(out / "2026-01-13.md", render_markdown(context)),
        "json": write_text_atomic(out / "2026-01-13.json", render_json(context)),
    }
    before = {p: p.read_bytes() for p in out.iterdir()}

    def broken(self: Any, job: Any) -> Any:
        raise RuntimeError("renderer bug")

    monkeypatch.setattr(chat_intl.DiscordSender, "prepare", broken)
    monkeypatch.delenv("MISSING_URL", raising=False)
    channels = [
        channel_config(name="down", type="webhook", url="http://127.0.0.1:9/x", max_attempts=2),
        channel_config(name="no-secret", type="wecom", url_env="MISSING_URL"),
        channel_config(name="bug", type="discord", url_env="SLACK_URL"),
        _slack(http, name="fine"),
    ]
    with Store.open(tmp_path / "home") as store:
        results = _run(context, channels, store, report_paths=paths)
    assert [(r.channel, r.status) for r in results] == [
        ("down", "failed"),
        ("no-secret", "failed"),
        ("bug", "failed"),
        ("fine", "sent"),
    ]
    down, missing, bug, _ = results
    assert down.attempts == 2 and (down.error or "").startswith("connection failed")
    assert missing.error == "environment variable MISSING_URL (WeCom webhook URL) is not set"
    assert missing.attempts == 1
    assert bug.error == "cannot build the message: RuntimeError: renderer bug"
    assert [r.channel for r in failed(results)] == ["down", "no-secret", "bug"]
    assert {p: p.read_bytes() for p in out.iterdir()} == before  # untouched, nothing added


def test_disabled_channels_are_left_out(http: HttpReceiver) -> None:
    results = _run(busy_day(1), [_slack(http, enabled=False), _slack(http, name="on")], None)
    assert [r.channel for r in results] == ["on"]


def test_command_line_helpers(tmp_path: Path) -> None:
    context = busy_day(1)
    write_text_atomic(tmp_path / "2026-01-13.json", render_json(context))
    write_text_atomic(tmp_path / "2026-01-13.md", render_markdown(context))
    folder = ReportsFolder(tmp_path)
    loaded, paths = folder.load("2026-01-13"), folder.files("2026-01-13")
    assert loaded == context and sorted(paths) == ["json", "md"]
    with pytest.raises(OutputError, match="keep json among the formats"):
        folder.load("2026-01-12")
    channels = [channel_config(name=n, type="slack", url_env="X") for n in ("a", "b")]
    assert [c.name for c in select_channels(channels, ["b"])] == ["b"]
    assert select_channels(channels, None) == channels
    with pytest.raises(UsageError, match="unknown channel 'c' \\(configured: a, b\\)"):
        select_channels(channels, ["c"])


def test_the_next_run_sends_again_what_failed_and_gives_up_after_the_window(
    http: HttpReceiver, tmp_path: Path
) -> None:
    from datetime import UTC, datetime, timedelta

    from commitdigest.deliver.service import retry_pending

    out = ReportsFolder(tmp_path / "out")
    ctx = busy_day(1, lang="en")
    day = ctx.window.label  # 2026-01-13: long ago; the window counts from the failure
    out.write(day, "json", render_json(ctx))
    slack = _slack(http, max_attempts=1)
    ok_channel = channel_config(name="other", type="slack", url_env="SLACK_URL", max_attempts=1)
    http.script(Reply(503))  # slack fails on the day, "other" gets it
    start = datetime.now(tz=UTC)
    with Store.open(tmp_path / "home") as store:
        (failed_one,) = _run(ctx, [slack], store)
        (sent_one,) = _run(ctx, [ok_channel], store)
        assert (failed_one.status, sent_one.status) == ("failed", "sent")
        sent_before = len(http.requests)
        # the next run, a day later: only the failed channel is sent again
        done = asyncio.run(
            retry_pending(out, [slack, ok_channel], store, now=start + timedelta(days=1))
        )
        assert [(r.channel, r.status) for r in done.results] == [("slack", "sent")]
        assert done.given_up == [] and len(http.requests) == sent_before + 1
        # nothing left to retry: nothing is sent twice
        done = asyncio.run(
            retry_pending(out, [slack, ok_channel], store, now=start + timedelta(days=2))
        )
        assert done.results == [] and len(http.requests) == sent_before + 1
        # a day that keeps failing is tried by every run while its first failure is recent
        http.default = Reply(503)
        later = busy_day(1, lang="en").model_copy(
            update={"window": ctx.window.model_copy(update={"label": "2026-01-20"})}
        )
        shift = timedelta(days=7)
        later = later.model_copy(
            update={
                "window": later.window.model_copy(
                    update={"start": ctx.window.start + shift, "end": ctx.window.end + shift}
                )
            }
        )
        out.write("2026-01-20", "json", render_json(later))
        _run(later, [slack], store)
        for days in (1, 2, 2.9):
            done = asyncio.run(retry_pending(out, [slack], store, now=start + timedelta(days=days)))
            assert [(r.day, r.status) for r in done.results] == [("2026-01-20", "failed")]
            assert done.given_up == []
        # … and given up once it is older than retry_days (3)
        done = asyncio.run(retry_pending(out, [slack], store, now=start + timedelta(days=3.1)))
        assert done.results == [] and [(g.day, g.channel) for g in done.given_up] == [
            ("2026-01-20", "slack")
        ]
        assert done.given_up[0].first_failure >= start.replace(microsecond=0)
        rows = {(r.day, r.channel): r.status for r in store.deliveries().latest()}
    assert rows == {
        ("2026-01-20", "slack"): "given up",
        (day, "slack"): "sent",
        (day, "other"): "sent",
    }


def test_deliver_status_lists_day_channel_state_attempts_and_error(
    http: HttpReceiver, tmp_path: Path
) -> None:
    import json

    from typer.testing import CliRunner

    from commitdigest.cli import app

    http.script(Reply(503), Reply(503))
    with Store.open(tmp_path / "home") as store:
        _run(busy_day(1, lang="en"), [_slack(http, max_attempts=2)], store)
    result = CliRunner().invoke(
        app, ["deliver", "status", "--json", "--home", str(tmp_path / "home")]
    )
    assert result.exit_code == 0, result.stderr
    [row] = json.loads(result.stdout)
    assert (row["day"], row["channel"], row["state"], row["attempts"]) == (
        "2026-01-13",
        "slack",
        "failed",
        2,
    )
    assert "503" in row["last_error"] and "abcdefghijklmnop" not in result.stdout
    plain = CliRunner().invoke(app, ["deliver", "status", "--home", str(tmp_path / "home")])
    assert plain.exit_code == 0 and plain.stdout.startswith("2026-01-13  slack  failed  2")
