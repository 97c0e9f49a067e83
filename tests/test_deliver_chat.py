"""Each chat service and the generic webhook, against a local HTTP receiver: the payload
each service documents, signatures recomputed here, and the services' error answers."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import html
import re
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote_plus

import pytest
from fake_receivers import HttpReceiver, Reply, busy_day, channel_config

from commitdigest.deliver.digest import sample_context
from commitdigest.deliver.service import DeliveryResult, deliver_day, send_test
from commitdigest.render.json_output import render_json

FEISHU_PATH = "/open-apis/bot/v2/hook/0f8a2b6c-3d4e-4f50-9a1b-2c3d4e5f6a7b"
SECRET = "SEC-signing-secret-0123456789"


def _deliver(context: Any, **fields: Any) -> DeliveryResult:
    results = asyncio.run(deliver_day(context, [channel_config(name="c", **fields)], None))
    assert len(results) == 1
    return results[0]


def test_feishu_card_signed(monkeypatch: pytest.MonkeyPatch) -> None:
    with HttpReceiver(Reply(200, {"code": 0, "msg": "success", "data": {}})) as http:
        monkeypatch.setenv("FEISHU_URL", http.url(FEISHU_PATH))
        monkeypatch.setenv("FEISHU_SECRET", SECRET)
        before = int(time.time())
        result = _deliver(
            sample_context("zh"),
            type="feishu",
            url_env="FEISHU_URL",
            secret_env="FEISHU_SECRET",
            report_base_url="https://example.org/reports/",
        )
        assert result.status == "sent" and result.attempts == 1, result
        request = http.requests[-1]
    assert request.path == FEISHU_PATH
    assert request.headers["content-type"].startswith("application/json")
    body = request.json()
    assert body["msg_type"] == "interactive"
    card = body["card"]
    assert card["header"]["title"] == {
        "tag": "plain_text",
        "content": "example/project 每日更新 · 2026-01-13",
    }
    content = card["elements"][0]["text"]
    assert content["tag"] == "lark_md"
    assert "共 4 个提交 · 🔴2 🟡1 🟢1" in content["content"]
    (button,) = card["elements"][1]["actions"]
    assert button["url"] == "https://example.org/reports/2026-01-13.html"
    assert button["text"] == {"tag": "plain_text", "content": "查看完整报告"}
    # Feishu: timestamp + "\n" + secret is the HMAC key, the message is empty, base64
    timestamp = int(body["timestamp"])
    assert before - 1 <= timestamp <= int(time.time()) + 1
    key = f"{timestamp}\n{SECRET}".encode()
    expected = base64.b64encode(hmac.new(key, b"", hashlib.sha256).digest()).decode()
    assert body["sign"] == expected


def test_feishu_error_code_in_a_200_is_a_failure_not_retried(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    refusal = {"code": 19021, "msg": "sign match fail or timestamp is not within one hour"}
    with HttpReceiver(Reply(200, refusal)) as http:
        monkeypatch.setenv("FEISHU_URL", http.url(FEISHU_PATH))
        result = _deliver(sample_context("zh"), type="feishu", url_env="FEISHU_URL")
        assert len(http.requests) == 1
    assert result.status == "failed" and result.attempts == 1
    assert result.error is not None and "code 19021" in result.error


def test_dingtalk_text_signed_in_the_query(monkeypatch: pytest.MonkeyPatch) -> None:
    with HttpReceiver(Reply(200, {"errcode": 0, "errmsg": "ok"})) as http:
        monkeypatch.setenv("DT_URL", http.url("/robot/send?access_token=abcdef0123456789"))
        monkeypatch.setenv("DT_SECRET", SECRET)
        result = _deliver(
            sample_context("en"), type="dingtalk", url_env="DT_URL", secret_env="DT_SECRET"
        )
        assert result.status == "sent", result
        request = http.requests[-1]
    assert request.path == "/robot/send"
    assert request.query["access_token"] == ["abcdef0123456789"]  # kept, not replaced
    timestamp = request.query["timestamp"][0]
    assert abs(int(timestamp) - time.time() * 1000) < 10_000  # milliseconds
    # DingTalk: HMAC-SHA256 keyed with the secret over timestamp + "\n" + secret, base64,
    # then URL-encoded in the query
    mac = hmac.new(SECRET.encode(), f"{timestamp}\n{SECRET}".encode(), hashlib.sha256)
    expected = base64.b64encode(mac.digest()).decode()
    assert request.query["sign"] == [expected]
    assert f"sign={quote_plus(expected)}" in request.raw_query
    body = request.json()
    assert body == {"msgtype": "text", "text": {"content": body["text"]["content"]}}
    assert body["text"]["content"].startswith(
        "example/project · daily update · 2026-01-13\n4 commits · 🔴2 🟡1 🟢1\n"
    )


def test_dingtalk_rate_limit_code_is_retried(monkeypatch: pytest.MonkeyPatch) -> None:
    with HttpReceiver(Reply(200, {"errcode": 0, "errmsg": "ok"})) as http:
        http.script(Reply(200, {"errcode": 130101, "errmsg": "send too fast"}))
        monkeypatch.setenv("DT_URL", http.url("/robot/send?access_token=abcdef0123456789"))
        result = _deliver(sample_context("zh"), type="dingtalk", url_env="DT_URL")
        assert len(http.requests) == 2
    assert (result.status, result.attempts) == ("sent", 2)


def test_wecom_text_within_2048_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    with HttpReceiver(Reply(200, {"errcode": 0, "errmsg": "ok"})) as http:
        monkeypatch.setenv("WECOM_URL", http.url("/cgi-bin/webhook/send?key=693a91f6-7xxx"))
        result = _deliver(busy_day(200), type="wecom", url_env="WECOM_URL", max_items=None)
        assert result.status == "sent", result
        body = http.requests[-1].json()
    assert set(body) == {"msgtype", "text"} and body["msgtype"] == "text"
    assert set(body["text"]) == {"content"}  # never a mentioned_list
    content = body["text"]["content"]
    assert len(content.encode("utf-8")) <= 2048
    assert content.splitlines()[-1].startswith("……另有 ")
    assert result.detail is not None and "more in the report" in result.detail


def test_wecom_error_code(monkeypatch: pytest.MonkeyPatch) -> None:
    with HttpReceiver(Reply(200, {"errcode": 93000, "errmsg": "invalid webhook url"})) as http:
        monkeypatch.setenv("WECOM_URL", http.url("/cgi-bin/webhook/send?key=k"))
        result = _deliver(sample_context("zh"), type="wecom", url_env="WECOM_URL")
    assert result.status == "failed" and "errcode 93000" in (result.error or "")


def test_slack_blocks_with_text_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    with HttpReceiver(Reply(200, "ok")) as http:
        monkeypatch.setenv("SLACK_URL", http.url("/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX"))
        result = _deliver(
            sample_context("en"),
            type="slack",
            url_env="SLACK_URL",
            report_base_url="https://example.org/r/",
        )
        assert result.status == "sent", result
        body = http.requests[-1].json()
    assert body["text"] == "example/project · daily update · 2026-01-13 · 4 commits · 🔴2 🟡1 🟢1"
    header, *sections = body["blocks"]
    assert header["type"] == "header" and header["text"]["type"] == "plain_text"
    assert all(s["type"] == "section" and s["text"]["type"] == "mrkdwn" for s in sections)
    text = "\n".join(s["text"]["text"] for s in sections)
    assert "<https://example.org/r/2026-01-13.html|open the full report>" in text
    # the high commits come first, as Act-on lines with the commit's link; the high list
    # after the overview repeats none of them
    sha = "5f1e2d3c4b5a69788796a5b4c3d2e1f001122334"
    link = f"<https://github.com/example/project/commit/{sha}|5f1e2d3>"
    lines = text.splitlines()
    assert lines.index("*🎯 Act on*") < lines.index("*Themes*")
    [act] = [line for line in lines if line.startswith("• 🔴 High importance · [Bugfix] Fix out")]
    assert act.endswith(f"({link})")
    assert "*🔴 High importance (" not in text and text.count(sha) == 2  # the line, the key change


def test_slack_4xx_is_not_retried(monkeypatch: pytest.MonkeyPatch) -> None:
    with HttpReceiver(Reply(400, "invalid_blocks")) as http:
        monkeypatch.setenv("SLACK_URL", http.url("/services/T/B/X"))
        result = _deliver(sample_context("en"), type="slack", url_env="SLACK_URL")
        assert len(http.requests) == 1
    assert result.status == "failed" and result.error == "HTTP 400 Bad Request: invalid_blocks"


def test_discord_embed_and_429_retry_after_in_the_body(monkeypatch: pytest.MonkeyPatch) -> None:
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    with HttpReceiver(Reply(204)) as http:
        http.script(Reply(429, {"message": "You are being rate limited.", "retry_after": 1.5}))
        monkeypatch.setenv("DISCORD_URL", http.url("/api/webhooks/123/tok-abcdefghijklmnop"))
        config = channel_config(name="d", type="discord", url_env="DISCORD_URL")
        (result,) = asyncio.run(deliver_day(busy_day(3), [config], None, sleep=sleep))
        bodies = [r.json() for r in http.requests]
    assert (result.status, result.attempts) == ("sent", 2)
    assert slept == [1.5]  # the server's retry_after, longer than the backoff
    assert bodies[0] == bodies[1]  # the same message on every attempt
    embed = bodies[0]["embeds"][0]
    assert embed["title"] == "org/repo0 每日更新 · 2026-01-13"
    assert len(embed["description"]) <= 4096 and embed["color"] == 0xE74C3C
    assert bodies[0]["allowed_mentions"] == {"parse": []}


def test_discord_content_style(monkeypatch: pytest.MonkeyPatch) -> None:
    with HttpReceiver(Reply(204)) as http:
        monkeypatch.setenv("DISCORD_URL", http.url("/api/webhooks/1/t"))
        result = _deliver(
            busy_day(200), type="discord", url_env="DISCORD_URL", style="content", max_items=None
        )
        body = http.requests[-1].json()
    assert result.status == "sent" and set(body) == {"content", "allowed_mentions"}
    assert len(body["content"]) <= 2000 and "……另有 " in body["content"].splitlines()[-1]


@pytest.mark.parametrize("mode", ["HTML", "MarkdownV2"])
def test_telegram_send_message(monkeypatch: pytest.MonkeyPatch, mode: str) -> None:
    token = "123456:AAbbCCddEEffGGhhIIjjKKllMMnnOOppQQ"
    with HttpReceiver(Reply(200, {"ok": True, "result": {"message_id": 1}})) as http:
        monkeypatch.setenv("TG_TOKEN", token)
        result = _deliver(
            busy_day(200),
            type="telegram",
            bot_token_env="TG_TOKEN",
            chat_id=-100123,
            api_url=http.base_url,
            parse_mode=mode,
            max_items=None,
        )
        request = http.requests[-1]
    assert result.status == "sent", result
    assert request.path == f"/bot{token}/sendMessage"
    body = request.json()
    assert body["chat_id"] == -100123 and body["parse_mode"] == mode
    assert body["link_preview_options"] == {"is_disabled": True}
    # Telegram counts UTF-16 code units of the text after its markup is parsed
    visible = body["text"]
    if mode == "HTML":
        visible = html.unescape(re.sub(r"<[^>]*>", "", visible))
    assert 3500 < len(visible.encode("utf-16-le")) // 2 <= 4096
    assert "……另有 " in body["text"].splitlines()[-1]


def test_telegram_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    refusal = {"ok": False, "error_code": 400, "description": "Bad Request: chat not found"}
    with HttpReceiver(Reply(400, refusal)) as http:
        monkeypatch.setenv("TG_TOKEN", "42:tokenvalue-abcdefghij")
        result = _deliver(
            sample_context("en"),
            type="telegram",
            bot_token_env="TG_TOKEN",
            chat_id="@channel",
            api_url=http.base_url,
        )
        assert len(http.requests) == 1
    assert result.status == "failed" and "chat not found" in (result.error or "")


def test_webhook_posts_the_json_report_signed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    context = busy_day(2)
    json_file = tmp_path / "2026-01-13.json"
    json_file.write_text(render_json(context), encoding="utf-8")
    with HttpReceiver(Reply(202)) as http:
        monkeypatch.setenv("HOOK_SECRET", SECRET)
        config = channel_config(
            name="w",
            type="webhook",
            url=http.url("/receive"),
            secret_env="HOOK_SECRET",
            headers={"X-Team": "infra"},
        )
        (result,) = asyncio.run(
            deliver_day(context, [config], None, report_paths={"json": json_file})
        )
        request = http.requests[-1]
    assert result.status == "sent", result
    assert request.body == json_file.read_bytes()
    expected = hmac.new(SECRET.encode(), request.body, hashlib.sha256).hexdigest()
    assert request.headers["x-commitdigest-signature"] == f"sha256={expected}"
    assert abs(int(request.headers["x-commitdigest-timestamp"]) - time.time()) < 10
    assert request.headers["x-commitdigest-event"] == "report"
    assert request.headers["x-commitdigest-day"] == "2026-01-13"
    assert request.headers["x-team"] == "infra"


def test_send_test_uses_the_sample_day(monkeypatch: pytest.MonkeyPatch) -> None:
    with HttpReceiver(Reply(202)) as http:
        config = channel_config(name="w", type="webhook", url=http.url("/receive"))
        result = asyncio.run(send_test(config, lang="en"))
        request = http.requests[-1]
    assert result.status == "sent" and result.day == "2026-01-13"
    assert request.headers["x-commitdigest-event"] == "test"
    assert "x-commitdigest-signature" not in request.headers
    assert request.json()["repositories"][0]["name"] == "example/project"


def _standard_verify(secret: bytes, headers: dict[str, str], body: bytes, seen: set[str]) -> str:
    """The receiver of docs/webhook.md, as a function: "ok", "replay", "forged" or "duplicate"."""
    import base64

    msg_id, stamp = headers["webhook-id"], headers["webhook-timestamp"]
    if abs(time.time() - int(stamp)) > 300:
        return "replay"
    signed = f"{msg_id}.{stamp}.".encode() + body
    expected = base64.b64encode(hmac.new(secret, signed, hashlib.sha256).digest()).decode()
    given = [
        p.split(",", 1)[1] for p in headers["webhook-signature"].split() if p.startswith("v1,")
    ]
    if not any(hmac.compare_digest(expected, g) for g in given):
        return "forged"
    if msg_id in seen:
        return "duplicate"
    seen.add(msg_id)
    return "ok"


def test_webhook_carries_standard_webhooks_headers_a_receiver_can_verify(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import base64

    context = busy_day(2)
    with HttpReceiver(Reply(202)) as http:
        http.script(Reply(503))  # the first attempt fails: the retry carries the same id
        key = base64.b64encode(b"0123456789abcdef0123456789abcdef").decode()
        monkeypatch.setenv("HOOK_SECRET", f"whsec_{key}")
        config = channel_config(
            name="w", type="webhook", url=http.url("/r"), secret_env="HOOK_SECRET"
        )
        (result,) = asyncio.run(deliver_day(context, [config], None))
        first, second = http.requests[-2:]
    assert result.status == "sent"
    assert first.headers["webhook-id"] == second.headers["webhook-id"]
    assert second.headers["webhook-id"].startswith("msg_")
    seen: set[str] = set()
    secret = b"0123456789abcdef0123456789abcdef"
    assert _standard_verify(secret, dict(second.headers), second.body, seen) == "ok"
    assert _standard_verify(secret, dict(first.headers), first.body, seen) == "duplicate"
    assert _standard_verify(b"wrong", dict(second.headers), second.body, set()) == "forged"
    old = {**dict(second.headers), "webhook-timestamp": str(int(time.time()) - 3600)}
    assert _standard_verify(secret, old, second.body, set()) == "replay"
    tampered = second.body.replace(b"2026-01-13", b"2026-01-14", 1)
    assert _standard_verify(secret, dict(second.headers), tampered, set()) == "forged"
