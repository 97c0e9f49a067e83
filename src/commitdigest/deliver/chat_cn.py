"""Feishu / Lark custom bots, DingTalk robots and WeCom group robots.

Each sends the short digest (:mod:`commitdigest.deliver.digest`) cut to the service's
limit on whole lines: Feishu as a card whose lark_md escapes every character of its
syntax (HTML numeric entities, as its card documentation prescribes), DingTalk and WeCom
as plain text (their markdown documents no escape). The three answer HTTP 200 with an
error code in the body when they refuse a message, so the body is checked too; their
rate-limit codes are retried.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from dataclasses import replace
from urllib.parse import urlencode

from pydantic import SecretStr

from commitdigest.config.channels import DingTalkChannel, FeishuChannel, WeComChannel
from commitdigest.errors import DeliveryError

from .channels import (
    Channel,
    DeliveryJob,
    Prepared,
    json_body,
    json_bytes,
    read_secret_env,
    register,
    utf8_bytes,
)
from .digest import PLAIN, DigestLines, Markup, digest_lines, strings

# DingTalk's and WeCom's markdown document no escape character: a commit title in it could
# become a link, bold text, a tag or (WeCom) a mention, and replacing those characters with
# look-alikes would show the title altered. Both robots are sent a plain-text message
# instead ("msgtype": "text"), where a title shows exactly as written. DingTalk's text has
# no markup at all (a mention needs the message's own "at" field, which we never send);
# WeCom's text knows one: "<@userid>" mentions a member, so a word joiner (U+2060, zero
# width, invisible) is put between "<" and "@" — the title shows as written, and pings
# nobody. Links are written after their text, between "<" and ">".


def _wecom_text(text: str) -> str:
    return text.replace("<@", "<\u2060@")


DINGTALK_TEXT = PLAIN
WECOM_TEXT = replace(PLAIN, escape=_wecom_text)

# Feishu's lark_md: a character its markdown uses shows as itself when written as an HTML
# numeric entity (``&#60;``), as its card documentation prescribes; ``&`` too, so a title
# holding ``&lt;`` shows those four characters.
_LARK_SPECIAL = frozenset("&<>*~_!/\\[]()#:+\"'`$")


def _lark_escape(text: str) -> str:
    return "".join(f"&#{ord(ch)};" if ch in _LARK_SPECIAL else ch for ch in text)


LARK_MD = Markup(
    escape=_lark_escape,
    bold=lambda text: f"**{text}**",
    link=lambda text, url: f"[{text}]({url})",
)


# ---- Feishu / Lark --------------------------------------------------------------------
#
# Custom bot ("自定义机器人"), POST to the hook URL (open.feishu.cn/open-apis/bot/v2/hook/…,
# or open.larksuite.com for Lark), an interactive card (message card schema 1.0):
#
#   {"timestamp": "1599360473", "sign": "…",            (only with a signing secret)
#    "msg_type": "interactive",
#    "card": {"config": {"wide_screen_mode": true},
#             "header": {"title": {"tag": "plain_text", "content": TITLE}, "template": "red"},
#             "elements": [{"tag": "div", "text": {"tag": "lark_md", "content": LINES}},
#                          {"tag": "action", "actions": [{"tag": "button", "type": "primary",
#                             "text": {"tag": "plain_text", "content": "…"}, "url": REPORT}]}]}}
#
# Signature: the string timestamp + "\n" + secret is the HMAC-SHA256 KEY, the message is
# empty, the digest is base64-encoded; timestamp in seconds, valid for an hour.
# Answer: {"code": 0, "msg": "success", …} (older: "StatusCode"); 19021 is a bad signature,
# 11232 "frequency limited" (retried). The request body may be at most 20 KB: we keep the
# JSON body within 20,000 UTF-8 bytes, signature fields included.

FEISHU_MAX_BODY = 20_000
_FEISHU_SIGN_ROOM = 120  # "timestamp" and "sign" fields added at send time
_FEISHU_RETRY_CODES = frozenset({11232})


def feishu_sign(timestamp: int, secret: str) -> str:
    key = f"{timestamp}\n{secret}".encode()
    return base64.b64encode(hmac.new(key, b"", hashlib.sha256).digest()).decode("ascii")


@register(FeishuChannel)
class FeishuSender(Channel):
    config: FeishuChannel

    def prepare(self, job: DeliveryJob) -> Prepared:
        digest = self.digest(job)
        url = digest.report_url
        # the link to the full report is a button under the text
        lines = digest_lines(digest, LARK_MD, with_title=False)
        lines = DigestLines(lines.head, lines.items, [])
        template = "red" if digest.has_high else "blue"
        button = strings(digest.lang)["report_link"]

        def build(body: list[str]) -> dict[str, object]:
            elements: list[dict[str, object]] = [
                {"tag": "div", "text": {"tag": "lark_md", "content": "\n".join(body)}}
            ]
            if url:
                action = {
                    "tag": "button",
                    "text": {"tag": "plain_text", "content": button},
                    "type": "primary",
                    "url": url,
                }
                elements.append({"tag": "action", "actions": [action]})
            return {
                "msg_type": "interactive",
                "card": {
                    "config": {"wide_screen_mode": True},
                    "header": {
                        "title": {"tag": "plain_text", "content": digest.title},
                        "template": template,
                    },
                    "elements": elements,
                },
            }

        return self.fit_digest(
            digest,
            lines,
            LARK_MD,
            build=build,
            fits=lambda p: len(json_bytes(p)) + _FEISHU_SIGN_ROOM <= FEISHU_MAX_BODY,
            titled=True,
        )

    async def send(self, message: Prepared) -> None:
        url = read_secret_env(self.config.url_env, what="Feishu webhook URL")
        payload = message.payload
        if self.config.secret_env:
            secret = read_secret_env(self.config.secret_env, what="Feishu signing secret")
            timestamp = int(time.time())
            sign = feishu_sign(timestamp, _s(secret))
            payload = {"timestamp": str(timestamp), "sign": sign, **message.payload}
        data = json_body(await self.post_json(_s(url), payload))
        code = data.get("code", data.get("StatusCode", 0))
        if code not in (0, None):
            text = data.get("msg") or data.get("StatusMessage") or ""
            raise DeliveryError(
                f"Feishu refused the message: code {code} {text}".rstrip(),
                retryable=code in _FEISHU_RETRY_CODES,
            )


# ---- DingTalk -------------------------------------------------------------------------
#
# Custom robot, POST to https://oapi.dingtalk.com/robot/send?access_token=…:
#
#   {"msgtype": "text", "text": {"content": TEXT}}
#
# A text message: no markup, so every title shows as written (see above; the markdown
# type documents no escape). Signature ("加签"): HMAC-SHA256 with the secret as the KEY
# over timestamp + "\n" + secret (timestamp in milliseconds), base64, then URL-encoded,
# added to the URL as the `timestamp` and `sign` query parameters. Answer:
# {"errcode": 0, "errmsg": "ok"}; 310000 is a failed security check, 130101 "send too
# fast" (retried; 20 messages a minute per robot). The documents we found state no size
# for a text; we keep the JSON body within 20,000 UTF-8 bytes.

DINGTALK_MAX_BODY = 20_000
_DINGTALK_RETRY_CODES = frozenset({130101, 130102})


def dingtalk_sign(timestamp_ms: int, secret: str) -> str:
    """The base64 signature (URL-encode it when adding it to the URL)."""
    message = f"{timestamp_ms}\n{secret}".encode()
    digest = hmac.new(secret.encode("utf-8"), message, hashlib.sha256).digest()
    return base64.b64encode(digest).decode("ascii")


@register(DingTalkChannel)
class DingTalkSender(Channel):
    config: DingTalkChannel

    def prepare(self, job: DeliveryJob) -> Prepared:
        digest = self.digest(job)
        lines = digest_lines(digest, DINGTALK_TEXT, with_title=True)

        def build(body: list[str]) -> dict[str, object]:
            return {"msgtype": "text", "text": {"content": "\n".join(body)}}

        return self.fit_digest(
            digest,
            lines,
            DINGTALK_TEXT,
            build=build,
            fits=lambda p: len(json_bytes(p)) <= DINGTALK_MAX_BODY,
        )

    async def send(self, message: Prepared) -> None:
        url = _s(read_secret_env(self.config.url_env, what="DingTalk webhook URL"))
        if self.config.secret_env:
            secret = _s(read_secret_env(self.config.secret_env, what="DingTalk signing secret"))
            timestamp = int(time.time() * 1000)
            query = urlencode({"timestamp": timestamp, "sign": dingtalk_sign(timestamp, secret)})
            url += ("&" if "?" in url else "?") + query
        response = await self.post_json(url, message.payload)
        _check_errcode(json_body(response), "DingTalk", _DINGTALK_RETRY_CODES)


# ---- WeCom ----------------------------------------------------------------------------
#
# Group robot ("群机器人"), POST to https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=…:
#
#   {"msgtype": "text", "text": {"content": TEXT}}
#
# A text message (see above: markdown documents no escape): content at most 2048 bytes,
# UTF-8 (measured in bytes, so a Chinese character counts 3); "<@userid>" in it is a
# mention, kept from forming by a word joiner; mentioned_list is never sent.
# Answer: {"errcode": 0, "errmsg": "ok"}; 45009 is the rate limit (20 messages a minute,
# retried), 40058 a content too long, 93000 an invalid webhook URL.

WECOM_MAX_CONTENT = 2048
_WECOM_RETRY_CODES = frozenset({45009, 45033})


@register(WeComChannel)
class WeComSender(Channel):
    config: WeComChannel

    def prepare(self, job: DeliveryJob) -> Prepared:
        digest = self.digest(job)
        lines = digest_lines(digest, WECOM_TEXT, with_title=True)

        def build(body: list[str]) -> dict[str, object]:
            return {"msgtype": "text", "text": {"content": "\n".join(body)}}

        def fits(payload: dict[str, object]) -> bool:
            text = payload["text"]
            assert isinstance(text, dict)
            return utf8_bytes(text["content"]) <= WECOM_MAX_CONTENT

        return self.fit_digest(digest, lines, WECOM_TEXT, build=build, fits=fits)

    async def send(self, message: Prepared) -> None:
        url = read_secret_env(self.config.url_env, what="WeCom webhook URL")
        response = await self.post_json(_s(url), message.payload)
        _check_errcode(json_body(response), "WeCom", _WECOM_RETRY_CODES)


def _check_errcode(data: object, service: str, retry_codes: frozenset[int]) -> None:
    if not isinstance(data, dict):
        return
    code = data.get("errcode", 0)
    if code not in (0, None):
        raise DeliveryError(
            f"{service} refused the message: errcode {code} {data.get('errmsg', '')}".rstrip(),
            retryable=code in retry_codes,
        )


def _s(secret: SecretStr) -> str:
    return secret.get_secret_value()
