"""How each chat service reads a message's text: per line, the visible text as segments,
each plain or markup (bold, italic, code, a link, a mention, a tag …).

A reader follows the service's documented syntax, strictly where the service is strict:
Telegram's MarkdownV2 reader refuses a reserved character that is not escaped, as the
Bot API does ("can't parse entities"), and its HTML reader refuses a tag or an entity the
API does not support. The tests use them to check that a commit title shows literally and
that nothing in it became markup, a link or a mention.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from html.parser import HTMLParser

PLAIN = "text"


class Refused(ValueError):
    """The service would refuse this text."""


@dataclass(frozen=True)
class Segment:
    text: str
    kind: str = PLAIN  # "text", "bold", "italic", "code", "strike", "link", "mention", "tag"


Line = list[Segment]


def visible(line: Line) -> str:
    return "".join(s.text for s in line)


def plain_span(line: Line, start: int, end: int) -> bool:
    """Whether the visible characters ``start:end`` of ``line`` are all plain text."""
    pos = 0
    for seg in line:
        seg_end = pos + len(seg.text)
        if seg.kind != PLAIN and pos < end and seg_end > start:
            return False
        pos = seg_end
    return True


class _Builder:
    def __init__(self) -> None:
        self.lines: list[Line] = [[]]

    def add(self, text: str, kind: str = PLAIN) -> None:
        parts = text.split("\n")
        for i, part in enumerate(parts):
            if i:
                self.lines.append([])
            line = self.lines[-1]
            if part and line and line[-1].kind == kind:  # one segment per run of a kind
                line[-1] = Segment(line[-1].text + part, kind)
            elif part:
                line.append(Segment(part, kind))


# ---- generic inline scanner -------------------------------------------------------------

Rule = tuple[re.Pattern[str], Callable[[re.Match[str]], list[Segment]]]


def _scan(text: str, rules: list[Rule]) -> list[Line]:
    """Try each rule at each position (first match wins); else one plain character."""
    out = _Builder()
    pos = 0
    while pos < len(text):
        for pattern, make in rules:
            m = pattern.match(text, pos)
            if m and m.end() > pos:
                for seg in make(m):
                    out.add(seg.text, seg.kind)
                pos = m.end()
                break
        else:
            out.add(text[pos])
            pos += 1
    return out.lines


def _seg(kind: str, group: int = 1) -> Callable[[re.Match[str]], list[Segment]]:
    return lambda m: [Segment(m.group(group), kind)]


# ---- Slack mrkdwn ----------------------------------------------------------------------
# &amp; &lt; &gt; are the only escapes; <url|text> links, <!here> <@U1> <#C1> mentions;
# *bold* _italic_ ~strike~ `code` cannot be escaped (Slack documents no way to).


def read_slack(text: str) -> list[Line]:
    def angle(m: re.Match[str]) -> list[Segment]:
        inner = m.group(1)
        if inner[:1] in "!@#":
            return [Segment(inner, "mention")]
        label = inner.split("|", 1)[-1]
        return [Segment(_slack_unescape(label), "link")]

    rules: list[Rule] = [
        (re.compile(r"<([^<>]*)>"), angle),
        (re.compile(r"&(amp|lt|gt);"), lambda m: [Segment(html.unescape(m.group(0)))]),
    ]  # styling (*bold* …) is left as its characters: Slack offers no way to escape it
    return _scan(text, rules)


def _slack_unescape(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


# ---- Discord markdown ------------------------------------------------------------------
# A backslash before ASCII punctuation is that character; **bold**, *italic*, _italic_,
# __underline__, ~~strike~~, `code`, ||spoiler||, [text](url), <@id> <#id> <:e:1> <t:1>,
# @everyone / @here, :emoji:, and bare https:// links.


def read_discord(text: str) -> list[Line]:
    rules: list[Rule] = [
        (re.compile(r"\\([!-/:-@\[-`{-~])"), _seg(PLAIN)),
        (re.compile(r"\[((?:\\.|[^\]\\])*)\]\(([^)\s]+)\)"), lambda m: [
            Segment(_discord_unescape(m.group(1)), "link")]),
        (re.compile(r"\*\*((?:\\.|[^\\*])+)\*\*"), lambda m: [
            Segment(_discord_unescape(m.group(1)), "bold")]),
        (re.compile(r"(\*|_)((?:\\.|(?!\1)[^\\\n])+)\1"), lambda m: [
            Segment(m.group(2), "italic")]),
        (re.compile(r"~~(.+?)~~"), _seg("strike")),
        (re.compile(r"\|\|(.+?)\|\|"), _seg("tag")),
        (re.compile(r"`([^`]+)`"), _seg("code")),
        (re.compile(r"<(@[!&]?\d+|#\d+|a?:\w+:\d+|t:\d+(?::\w)?)>"), _seg("mention")),
        (re.compile(r"@(everyone|here)"), _seg("mention", 0)),
        (re.compile(r"https?://[^\s<]+"), _seg("link", 0)),
        (re.compile(r":\w{2,}:"), _seg("tag", 0)),
    ]  # fmt: skip
    return _scan(text, rules)


def _discord_unescape(text: str) -> str:
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)


# ---- Telegram HTML -----------------------------------------------------------------------

_TG_TAGS = {
    "b": "bold", "strong": "bold", "i": "italic", "em": "italic", "u": "italic",
    "ins": "italic", "s": "strike", "strike": "strike", "del": "strike", "code": "code",
    "pre": "code", "a": "link", "tg-spoiler": "tag", "span": "tag", "blockquote": "tag",
    "tg-emoji": "tag",
}  # fmt: skip
_TG_ENTITY = re.compile(r"&(?:(lt|gt|amp|quot)|#(\d+)|#x([0-9a-fA-F]+));")


def read_telegram_html(text: str) -> list[Line]:
    for m in re.finditer(r"&[^;\s]*;?", text):
        if not _TG_ENTITY.match(m.group(0)):
            raise Refused(f"Can't parse entities: unsupported entity {m.group(0)!r}")
    out = _Builder()
    stack: list[str] = []

    class Parser(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag not in _TG_TAGS:
                raise Refused(f"Can't parse entities: unsupported start tag {tag!r}")
            stack.append(tag)

        def handle_endtag(self, tag: str) -> None:
            if not stack or stack[-1] != tag:
                raise Refused(f"Can't parse entities: unexpected end tag {tag!r}")
            stack.pop()

        def handle_data(self, data: str) -> None:
            out.add(data, _TG_TAGS[stack[-1]] if stack else PLAIN)

    parser = Parser(convert_charrefs=True)
    parser.feed(text)
    parser.close()
    if stack:
        raise Refused(f"Can't parse entities: can't find end tag corresponding to {stack[-1]!r}")
    return out.lines


# ---- Telegram MarkdownV2 -----------------------------------------------------------------

_MDV2_RESERVED = set("_*[]()~`>#+-=|{}.!")
_MDV2_STYLES = {"*": "bold", "_": "italic", "__": "italic", "~": "strike", "||": "tag"}


def read_telegram_mdv2(text: str) -> list[Line]:
    """Telegram's MarkdownV2 as the Bot API documents it; a reserved character that is not
    escaped (outside an entity's markers) is refused, as the API refuses it."""
    out = _Builder()
    styles: list[str] = []
    pos = 0
    line_start = True
    while pos < len(text):
        ch = text[pos]
        kind = _MDV2_STYLES[styles[-1]] if styles else PLAIN
        if ch == "\\":
            if pos + 1 >= len(text) or not 1 <= ord(text[pos + 1]) <= 126:
                raise Refused("Can't parse entities: a lone backslash")
            out.add(text[pos + 1], kind)
            pos += 2
        elif ch == "[":
            end = _mdv2_close(text, pos + 1, "]")
            if text[end + 1 : end + 2] != "(":
                raise Refused("Can't parse entities: character '[' is reserved")
            url_end = _mdv2_close(text, end + 2, ")")
            for line in read_telegram_mdv2(text[pos + 1 : end]):
                for seg in line:
                    out.add(seg.text, "link")
            pos = url_end + 1
        elif ch == "`":
            end = text.find("`", pos + 1)
            if end < 0:
                raise Refused("Can't parse entities: can't find end of Code entity")
            out.add(text[pos + 1 : end].replace("\\`", "`").replace("\\\\", "\\"), "code")
            pos = end + 1
        elif ch == ">" and line_start:
            pos += 1  # a blockquote's marker
            out.add("", "tag")
        elif text.startswith(("__", "||"), pos) or ch in "*_~":
            marker = text[pos : pos + 2] if text.startswith(("__", "||"), pos) else ch
            if styles and styles[-1] == marker:
                styles.pop()
            else:
                styles.append(marker)
            pos += len(marker)
        elif ch in _MDV2_RESERVED:
            raise Refused(
                f"Can't parse entities: character '{ch}' is reserved and must be escaped "
                "with the preceding '\\'"
            )
        else:
            out.add(ch, kind)
            pos += 1
        line_start = ch == "\n"
    if styles:
        raise Refused(f"Can't parse entities: can't find end of the entity {styles[-1]!r}")
    return out.lines


def _mdv2_close(text: str, pos: int, closer: str) -> int:
    while pos < len(text):
        if text[pos] == "\\":
            pos += 2
            continue
        if text[pos] == closer:
            return pos
        pos += 1
    raise Refused(f"Can't parse entities: can't find end of the entity {closer!r}")


# ---- Feishu lark_md ----------------------------------------------------------------------
# HTML entities show their character; **bold**, __bold__, *italic*, ~~strike~~,
# [text](url), <at id=…></at>, <a href=…>…</a>, <font …>, <text_tag …>, :EMOJI_KEY:.


def read_lark_md(text: str) -> list[Line]:
    def unescape(m: re.Match[str]) -> list[Segment]:
        return [Segment(html.unescape(m.group(0)))]

    rules: list[Rule] = [
        (re.compile(r"&(#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);"), unescape),
        (re.compile(r"<at\b[^>]*>(</at>)?"), lambda m: [Segment("@", "mention")]),
        (re.compile(r"</?[a-zA-Z_]+[^>]*>"), _seg("tag", 0)),
        (re.compile(r"\[([^\]]*)\]\(([^)]*)\)"), lambda m: [
            Segment(html.unescape(m.group(1)), "link")]),
        (re.compile(r"(\*\*|__)(.+?)\1"), lambda m: [
            Segment(html.unescape(m.group(2)), "bold")]),
        (re.compile(r"\*([^*]+)\*"), _seg("italic")),
        (re.compile(r"~~(.+?)~~"), _seg("strike")),
        (re.compile(r"`([^`]+)`"), _seg("code")),
        (re.compile(r":[A-Za-z_]+:"), _seg("tag", 0)),
    ]  # fmt: skip
    return _scan(text, rules)


# ---- DingTalk and WeCom text messages ----------------------------------------------------
# No markup: the text shows as it is (clients make a bare http(s) address a link). WeCom's
# one documented syntax in a text message is "<@userid>", a mention; a zero-width word
# joiner (U+2060) shows as nothing.


def read_plain_text(text: str) -> list[Line]:
    rules: list[Rule] = [(re.compile(r"https?://[^\s<>]+"), _seg("link", 0))]
    return _scan(text, rules)


def read_wecom_text(text: str) -> list[Line]:
    rules: list[Rule] = [
        (re.compile(r"<@[^>]*>"), _seg("mention", 0)),
        (re.compile("\u2060"), lambda m: []),
        (re.compile(r"https?://[^\s<>]+"), _seg("link", 0)),
    ]
    return _scan(text, rules)


# ---- per channel variant ------------------------------------------------------------------


def message_text(kind: str, payload: dict[str, object]) -> str:
    """The marked-up text of a channel variant's payload."""
    p: object = payload
    path = {
        "feishu": ("card", "elements", 0, "text", "content"),
        "dingtalk": ("text", "content"),
        "wecom": ("text", "content"),
        "discord-embed": ("embeds", 0, "description"),
        "discord-content": ("content",),
        "telegram-html": ("text",),
        "telegram-md": ("text",),
    }.get(kind)
    if kind == "slack":
        blocks = payload["blocks"]
        assert isinstance(blocks, list)
        return "\n".join(b["text"]["text"] for b in blocks if b["type"] == "section")
    assert path is not None, kind
    for key in path:
        p = p[key]  # type: ignore[index]
    assert isinstance(p, str)
    return p


READERS: dict[str, Callable[[str], list[Line]]] = {
    "feishu": read_lark_md,
    "dingtalk": read_plain_text,
    "wecom": read_wecom_text,
    "slack": read_slack,
    "discord-embed": read_discord,
    "discord-content": read_discord,
    "telegram-html": read_telegram_html,
    "telegram-md": read_telegram_mdv2,
}


def read(kind: str, payload: dict[str, object]) -> list[Line]:
    return READERS[kind](message_text(kind, payload))


def shown_as(kind: str, title: str) -> str:
    """How ``title`` shows in ``kind``: as written, in every channel."""
    return title
