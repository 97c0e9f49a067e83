"""Secrets (webhook URLs with tokens, signing secrets, bot tokens, SMTP passwords) never show:
not in results, errors, logs (httpx2's included, at DEBUG), output, reprs or the store."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fake_receivers import HttpReceiver, Received, Reply, SmtpServer, busy_day, channel_config
from pydantic import TypeAdapter, ValidationError

from commitdigest.config import describe_error
from commitdigest.config.channels import ChannelConfig, check_unique_names
from commitdigest.deliver.channels import build_channel, read_secret_env
from commitdigest.deliver.service import deliver_day, send_test
from commitdigest.errors import DeliveryError
from commitdigest.redaction import redact
from commitdigest.store import Store

SECRETS = {
    "FEISHU_URL_TOKEN": "feishu-hook-7c1e9d52-aa10-4f4b-b0d3-5e6f7a8b9c0d",
    "FEISHU_SECRET": "feishu-sign-Secret-Q9w8e7r6",
    "DT_TOKEN": "dingtalk0access0token0e9a8118c8a3dc",
    "DT_SECRET": "SECdingtalk-sign-secret-10d6e79b42bd",
    "WECOM_KEY": "wecom-key-693a91f6-7a0c-4bc4-97a0-0ec2",
    "SLACK_TOKEN": "slackXXtokenXXYYZZ0123456789",
    "DISCORD_TOKEN": "discord-webhook-token-AbCdEfGhIjKlMnOp",
    "TG_TOKEN": "987654:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw",
    "HOOK_TOKEN": "hook-query-token-1f2e3d4c5b6a",
    "HOOK_SECRET": "hook-hmac-secret-aa55bb66cc77",
    "SMTP_PASSWORD": "smtp-secret-Password-99",
}


def _echo(received: Received) -> Reply:
    """A careless server that repeats the URL it was called on in its error."""
    return Reply(500, f"no route for {received.path}?{received.raw_query}")


def test_secrets_never_show(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    caplog.set_level(logging.DEBUG)  # every logger, httpx2's and httpcore2's included
    s = SECRETS
    with HttpReceiver(_echo) as http, SmtpServer(username="u", password="other") as smtp:
        env = {
            "FEISHU_URL": http.url(f"/open-apis/bot/v2/hook/{s['FEISHU_URL_TOKEN']}"),
            "FEISHU_SECRET": s["FEISHU_SECRET"],
            "DT_URL": http.url(f"/robot/send?access_token={s['DT_TOKEN']}"),
            "DT_SECRET": s["DT_SECRET"],
            "WECOM_URL": http.url(f"/cgi-bin/webhook/send?key={s['WECOM_KEY']}"),
            "SLACK_URL": http.url(f"/services/T0/B0/{s['SLACK_TOKEN']}"),
            "DISCORD_URL": http.url(f"/api/webhooks/42/{s['DISCORD_TOKEN']}"),
            "TG_TOKEN": s["TG_TOKEN"],
            "HOOK_URL": http.url(f"/hook?token={s['HOOK_TOKEN']}"),
            "HOOK_SECRET": s["HOOK_SECRET"],
            "SMTP_PASSWORD": s["SMTP_PASSWORD"],
            # an unreachable host with a token in its URL
            "DEAD_URL": f"http://127.0.0.1:9/services/T/B/{s['SLACK_TOKEN']}",
        }
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        fast = {"max_attempts": 2}
        channels = [
            channel_config(
                name="fs", type="feishu", url_env="FEISHU_URL", secret_env="FEISHU_SECRET", **fast
            ),
            channel_config(
                name="dt", type="dingtalk", url_env="DT_URL", secret_env="DT_SECRET", **fast
            ),
            channel_config(name="wc", type="wecom", url_env="WECOM_URL", **fast),
            channel_config(name="sl", type="slack", url_env="SLACK_URL", **fast),
            channel_config(name="dc", type="discord", url_env="DISCORD_URL", **fast),
            channel_config(
                name="tg",
                type="telegram",
                bot_token_env="TG_TOKEN",
                chat_id=1,
                api_url=http.base_url,
                **fast,
            ),
            channel_config(
                name="wh", type="webhook", url_env="HOOK_URL", secret_env="HOOK_SECRET", **fast
            ),
            channel_config(name="dead", type="slack", url_env="DEAD_URL", **fast),
            channel_config(
                name="mail",
                type="email",
                host=smtp.host,
                port=smtp.port,
                security="none",
                username="u",
                password_env="SMTP_PASSWORD",
                sender="d@example.org",
                to=["a@example.org"],
                **fast,
            ),
        ]
        with Store.open(tmp_path) as store:
            results = asyncio.run(deliver_day(busy_day(3), channels, store))
        test_result = asyncio.run(send_test(channels[5], lang="en"))
        assert len(http.requests) >= 14  # every HTTP channel really called (and retried)

        async def reprs() -> str:
            async with httpx2.AsyncClient() as client:
                return " ".join(repr(build_channel(c, client)) + repr(c) for c in channels)

        shown = asyncio.run(reprs())

    assert all(r.status == "failed" for r in results), results
    assert "HTTP Request: POST" in caplog.text  # httpx2's own log was captured
    assert "no route for /" in " ".join(r.error or "" for r in results)  # the echo came back
    texts = [caplog.text, shown, repr(results), repr(test_result), *capsys.readouterr()]
    texts += [str(r.error) + str(r.detail) for r in [*results, test_result]]
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    assert b"deliveries" in stored or len(stored) > 0
    for secret in SECRETS.values():
        for text in texts:
            assert secret not in text
        assert secret.encode() not in stored


def test_missing_and_present_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOPE_URL", raising=False)
    with pytest.raises(DeliveryError) as missing:
        read_secret_env("NOPE_URL", what="Slack webhook URL")
    assert str(missing.value) == "environment variable NOPE_URL (Slack webhook URL) is not set"
    assert missing.value.retryable is False
    monkeypatch.setenv("SOME_SECRET", "s3cr3t-value-xyz")
    secret = read_secret_env("SOME_SECRET", what="x")
    assert "s3cr3t" not in repr(secret) and secret.get_secret_value() == "s3cr3t-value-xyz"
    error = DeliveryError("server said: s3cr3t-value-xyz is wrong")
    assert str(error) == "server said: *** is wrong" and "s3cr3t" not in repr(error)
    assert redact("url=https://x.org/a?k=s3cr3t-value-xyz") == "url=https://x.org/a?k=***"


ADAPTER: TypeAdapter[Any] = TypeAdapter(ChannelConfig)
MAIL = {"type": "email", "host": "h", "sender": "a@b.c", "to": ["d@e.f"]}
PW = "pw-in-file-123"


@pytest.mark.parametrize(
    ("entry", "hint"),
    [
        ({**MAIL, "password": PW}, "password_env"),
        ({"type": "feishu", "url_env": "X", "secret": PW}, "secret_env"),
        ({"type": "slack", "url": f"https://hooks.slack.com/services/{PW}"}, "url_env"),
        ({"type": "telegram", "chat_id": 1, "bot_token": PW}, "bot_token_env"),
        ({"type": "webhook", "url": "https://x.org", "headers": {"Cookie": PW}}, "credential"),
    ],
)  # fmt: skip
def test_secrets_in_the_file_are_refused_without_echo(entry: dict[str, Any], hint: str) -> None:
    with pytest.raises(ValidationError) as info:
        ADAPTER.validate_python({"name": "c", **entry})
    message = describe_error(info.value, origin="config file commitdigest.toml")
    assert hint in message and PW not in message


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ({"type": "slack"}, "url_env"),
        ({"type": "slack", "url_env": "not a name"}, "environment variable name"),
        ({"type": "webhook"}, "exactly one of url and url_env"),
        ({"type": "webhook", "url": "ftp://x"}, "http(s) URL"),
        ({**MAIL, "sender": "nobody"}, "not an e-mail address"),
        ({**MAIL, "to": []}, "at least 1"),
        ({**MAIL, "password_env": "P"}, "needs a username"),
        ({"type": "pager", "url_env": "X"}, "does not match any of the expected tags"),
    ],
)  # fmt: skip
def test_settings_validation(entry: dict[str, Any], problem: str) -> None:
    with pytest.raises(ValidationError) as info:
        ADAPTER.validate_python({"name": "c", **entry})
    assert problem in describe_error(info.value, origin="config")


def test_channel_names_are_unique() -> None:
    entries = [ADAPTER.validate_python({"name": n, "type": "slack", "url_env": "X"}) for n in "aba"]
    with pytest.raises(ValueError, match=r"deliver\[2\] name 'a' is already used by deliver\[0\]"):
        check_unique_names(entries)
    email = ADAPTER.validate_python(
        {"name": "m", "type": "email", "host": "h", "sender": "a@b.c", "to": ["x@y.z"]}
    )
    assert email.effective_port == 587
