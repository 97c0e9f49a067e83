"""Slack incoming webhooks, Discord webhooks and Telegram bots.

Each sends the short digest (:mod:`commitdigest.deliver.digest`) cut to the service's
limit on whole lines, measured as the service measures: Slack and Discord count
characters, Telegram UTF-16 code units of the text after its markup is parsed.
"""

from __future__ import annotations

import html
import re

from commitdigest.config.channels import DiscordChannel, SlackChannel, TelegramChannel
from commitdigest.errors import DeliveryError

from .channels import (
    Channel,
    DeliveryJob,
    Prepared,
    json_body,
    read_secret_env,
    register,
    utf16_units,
)
from .digest import Markup, digest_lines

# ---- Slack ----------------------------------------------------------------------------
#
# Incoming webhook, POST to https://hooks.slack.com/services/T…/B…/…:
#
#   {"text": FALLBACK,                                     (notifications; title + counts)
#    "blocks": [{"type": "header", "text": {"type": "plain_text", "text": TITLE}},  (≤ 150)
#               {"type": "section", "text": {"type": "mrkdwn", "text": LINES}}, …],
#    "unfurl_links": false}
#
# A section's text is at most 3,000 characters, a message at most 50 blocks; lines are
# packed into as many sections as needed, and we keep all of them within 12,000 characters
# (Slack rejects long block messages with msg_blocks_too_long well below its 40,000-char
# text limit). mrkdwn escapes only &, < and >; links are <url|text>. Answer: "ok";
# errors are 4xx with a short text (invalid_blocks, no_service …), 429 with Retry-After.

SLACK_SECTION_CHARS = 3000
SLACK_MAX_BLOCKS = 50
SLACK_TOTAL_CHARS = 12_000
SLACK_HEADER_CHARS = 150


def _slack_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


SLACK_MRKDWN = Markup(
    escape=_slack_escape,
    bold=lambda text: f"*{text}*",
    link=lambda text, url: f"<{url}|{text}>",
)


def pack_sections(lines: list[str], limit: int = SLACK_SECTION_CHARS) -> list[str]:
    """Whole lines packed into texts of at most ``limit`` characters."""
    sections: list[str] = []
    current = ""
    for line in lines:
        candidate = f"{current}\n{line}" if current else line
        if current and len(candidate) > limit:
            sections.append(current)
            candidate = line
        current = candidate
    if current:
        sections.append(current)
    return sections


@register(SlackChannel)
class SlackSender(Channel):
    config: SlackChannel

    def prepare(self, job: DeliveryJob) -> Prepared:
        digest = self.digest(job)
        lines = digest_lines(digest, SLACK_MRKDWN, with_title=False)
        title = digest.title[:SLACK_HEADER_CHARS]

        def build(body: list[str]) -> dict[str, object]:
            blocks: list[dict[str, object]] = [
                {"type": "header", "text": {"type": "plain_text", "text": title, "emoji": True}}
            ]
            blocks += [
                {"type": "section", "text": {"type": "mrkdwn", "text": text}}
                for text in pack_sections(body)
            ]
            fallback = _slack_escape(f"{digest.title} · {digest.counts_line()}")
            return {"text": fallback, "blocks": blocks, "unfurl_links": False}

        def fits(payload: dict[str, object]) -> bool:
            blocks = payload["blocks"]
            assert isinstance(blocks, list)
            texts = [str(b["text"]["text"]) for b in blocks if b["type"] == "section"]
            return (
                len(blocks) <= SLACK_MAX_BLOCKS
                and all(len(t) <= SLACK_SECTION_CHARS for t in texts)
                and sum(len(t) for t in texts) <= SLACK_TOTAL_CHARS
            )

        return self.fit_digest(digest, lines, SLACK_MRKDWN, build=build, fits=fits, titled=True)

    async def send(self, message: Prepared) -> None:
        url = read_secret_env(self.config.url_env, what="Slack webhook URL")
        await self.post_json(url.get_secret_value(), message.payload)


# ---- Discord --------------------------------------------------------------------------
#
# Execute webhook, POST to https://discord.com/api/webhooks/{id}/{token}:
#
#   style "embed":   {"embeds": [{"title": TITLE (≤ 256), "description": LINES (≤ 4096),
#                                 "url": REPORT, "color": 0xE74C3C}],
#                     "allowed_mentions": {"parse": []}}
#   style "content": {"content": LINES (≤ 2000), "allowed_mentions": {"parse": []}}
#
# Lengths are characters; an embed's title + description stay within the 6,000 characters
# of all embeds of a message. allowed_mentions with no "parse" keeps a commit title's
# @everyone from pinging anyone. Answer: 204 No Content; 429 carries Retry-After (and
# "retry_after" in its JSON body).

DISCORD_CONTENT_CHARS = 2000
DISCORD_DESCRIPTION_CHARS = 4096
DISCORD_TITLE_CHARS = 256
DISCORD_EMBEDS_TOTAL = 6000
# Discord's markdown takes a backslash before any ASCII punctuation as "this character";
# these are those its markdown, mentions (<@id>, @everyone), emoji (:name:), timestamps
# and bare links (https://) start with
_DISCORD_SPECIAL = re.compile(r"([\\*_~`|<>\[\]()#\-@:])")

DISCORD_MD = Markup(
    escape=lambda text: _DISCORD_SPECIAL.sub(r"\\\1", text),
    bold=lambda text: f"**{text}**",
    link=lambda text, url: f"[{text}]({url})",
)


@register(DiscordChannel)
class DiscordSender(Channel):
    config: DiscordChannel

    def prepare(self, job: DeliveryJob) -> Prepared:
        digest = self.digest(job)
        url = digest.report_url
        embed = self.config.style == "embed"
        lines = digest_lines(digest, DISCORD_MD, with_title=not embed)
        title = digest.title[:DISCORD_TITLE_CHARS]
        red = digest.has_high

        def build(body: list[str]) -> dict[str, object]:
            text = "\n".join(body)
            if not embed:
                return {"content": text, "allowed_mentions": {"parse": []}}
            item: dict[str, object] = {
                "title": title,
                "description": text,
                "color": 0xE74C3C if red else 0x3498DB,
            }
            if url:
                item["url"] = url
            return {"embeds": [item], "allowed_mentions": {"parse": []}}

        def fits(payload: dict[str, object]) -> bool:
            if not embed:
                return len(str(payload["content"])) <= DISCORD_CONTENT_CHARS
            description = str(payload["embeds"][0]["description"])  # type: ignore[index]
            return (
                len(description) <= DISCORD_DESCRIPTION_CHARS
                and len(description) + len(title) <= DISCORD_EMBEDS_TOTAL
            )

        # an embed's title is not in its lines: the text names it first
        return self.fit_digest(digest, lines, DISCORD_MD, build=build, fits=fits, titled=embed)

    async def send(self, message: Prepared) -> None:
        url = read_secret_env(self.config.url_env, what="Discord webhook URL")
        await self.post_json(url.get_secret_value(), message.payload)


# ---- Telegram -------------------------------------------------------------------------
#
# Bot API sendMessage, POST to {api_url}/bot{TOKEN}/sendMessage:
#
#   {"chat_id": CHAT, "text": TEXT, "parse_mode": "HTML" | "MarkdownV2",
#    "link_preview_options": {"is_disabled": true}, "disable_notification": false}
#
# text: 1-4096 characters after entities parsing; Telegram counts UTF-16 code units. For
# HTML we measure the visible text (tags removed, entities decoded); for MarkdownV2 the
# raw text (an over-estimate). HTML escapes <, > and &; MarkdownV2 escapes
# _ * [ ] ( ) ~ ` > # + - = | { } . ! and \ with a backslash, and ) and \ inside a link's
# URL. Answer: {"ok": true, …} or {"ok": false, "error_code": 400, "description": …};
# a 429 has "parameters": {"retry_after": N}.

TELEGRAM_TEXT_UNITS = 4096
_MDV2_SPECIAL = re.compile(r"([_*\[\]()~`>#+\-=|{}.!\\])")
_TAG = re.compile(r"<[^>]*>")

TELEGRAM_HTML = Markup(
    escape=lambda text: html.escape(text, quote=False),
    bold=lambda text: f"<b>{text}</b>",
    link=lambda text, url: f'<a href="{html.escape(url, quote=True)}">{text}</a>',
)
TELEGRAM_MDV2 = Markup(
    escape=lambda text: _MDV2_SPECIAL.sub(r"\\\1", text),
    bold=lambda text: f"*{text}*",
    link=lambda text, url: "[{}]({})".format(text, url.replace("\\", "\\\\").replace(")", "\\)")),
)


def telegram_visible_units(text: str, parse_mode: str) -> int:
    """The message's length as Telegram counts it (UTF-16 code units)."""
    if parse_mode == "HTML":
        return utf16_units(html.unescape(_TAG.sub("", text)))
    return utf16_units(text)


@register(TelegramChannel)
class TelegramSender(Channel):
    config: TelegramChannel

    def prepare(self, job: DeliveryJob) -> Prepared:
        digest = self.digest(job)
        mode = self.config.parse_mode
        markup = TELEGRAM_HTML if mode == "HTML" else TELEGRAM_MDV2
        lines = digest_lines(digest, markup, with_title=True)

        def build(body: list[str]) -> dict[str, object]:
            return {
                "chat_id": self.config.chat_id,
                "text": "\n".join(body),
                "parse_mode": mode,
                "link_preview_options": {"is_disabled": True},
                "disable_notification": self.config.disable_notification,
            }

        return self.fit_digest(
            digest,
            lines,
            markup,
            build=build,
            fits=lambda p: telegram_visible_units(str(p["text"]), mode) <= TELEGRAM_TEXT_UNITS,
        )

    async def send(self, message: Prepared) -> None:
        token = read_secret_env(self.config.bot_token_env, what="Telegram bot token")
        url = f"{self.config.api_url}/bot{token.get_secret_value()}/sendMessage"
        data = json_body(await self.post_json(url, message.payload))
        if data.get("ok") is False:
            raise DeliveryError(
                f"Telegram refused the message: {data.get('description', 'not ok')}"
            )
