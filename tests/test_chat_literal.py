"""A commit title reaches every chat channel literally: each channel's payload, read back
the way that service reads it (tests/chat_render.py), shows the title's text with nothing
in it turned into markup, a link or a mention — and Telegram accepts every message."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx2
import pytest
from chat_render import PLAIN, Refused, plain_span, read, read_telegram_mdv2, shown_as, visible
from fake_receivers import busy_day, channel_config
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_deliver_digest import CASES

from commitdigest.deliver.channels import DeliveryJob, Prepared, build_channel
from commitdigest.deliver.digest import report_day, sample_context
from commitdigest.render.labels import get_labels
from commitdigest.text import clean_line

VARIANTS = CASES  # the eight channel variants, as the digest tests name them
# Slack's mrkdwn has no escape for *bold*, _italic_, ~strike~ and `code` (only &, <, >):
# there a title keeps its text and can neither link nor mention, but may show styled
STYLE_FREE = set(VARIANTS) - {"slack"}
# DingTalk and WeCom get a plain-text message (their markdown documents no escape)
TEXT_KINDS = {"dingtalk", "wecom"}
COMMIT_URL = "https://github.com/example/project/commit/"

MARKUP = "_*[]()~`>#+-=|{}.!\\<>&@:/\"'"
TOKENS = [
    "@here", "@everyone", "<@123>", "<!channel>", "<at id=all></at>", "<b>x</b>", "&lt;",
    "&#60;", "https://evil.example/x", "[a](https://evil.example)", "**b**", "__u__", "||s||",
    ":smile:", "`code`", "<font color=red>", "修复", "調整", "🚀", "👩‍💻", "\u200f", "\u202e",
    "عربى", "*", "_", "\\", "  ",
]  # fmt: skip
titles = st.lists(
    st.one_of(
        st.sampled_from(TOKENS),
        st.text(alphabet=MARKUP + "abcXYZ09 中文", min_size=1, max_size=6),
    ),
    min_size=1,
    max_size=12,
).map("".join)


def prepare(kind: str, context: Any, **fields: Any) -> Prepared:
    async def run() -> Prepared:
        async with httpx2.AsyncClient() as client:
            config = channel_config(name="c", **VARIANTS[kind], **fields)
            return build_channel(config, client).prepare(DeliveryJob(context, report_day(context)))

    return asyncio.run(run())


def with_title(title: str, lang: str = "en") -> Any:
    """The sample day with ``title`` as its second high-importance commit (the one the
    overview does not cite, so the digest lists it with its link)."""
    context = sample_context(lang)
    repo = context.repositories[0]
    commits = list(repo.commits)
    commits[1] = commits[1].model_copy(update={"title": title})
    repo = repo.model_copy(update={"commits": commits})
    return context.model_copy(update={"repositories": [repo]})


def check_literal(
    kind: str, payload: dict[str, object], title: str, sha: str, lang: str = "en"
) -> None:
    """The commit's Act-on line shows its label, then the title literally, then its SHA."""
    expected = shown_as(kind, clean_line(title))
    label = f"{get_labels(lang).s['act_high']} · "
    lines = read(kind, payload)
    item = [line for line in lines if visible(line).startswith("• ") and sha in visible(line)]
    assert len(item) == 1, [visible(line) for line in lines]
    line = item[0]
    # a plain-text message writes the commit's address after its short SHA
    link = f"{sha} <{COMMIT_URL}{sha}" if kind in TEXT_KINDS else sha
    shown = visible(line)
    assert shown.startswith(f"• {label}{expected}"), (shown, expected)
    assert f"({link}" in shown[2 + len(label) + len(expected) :] and shown.endswith(")"), shown
    start = 2 + len(label)
    end = start + len(expected)
    # in plain text an address in a title may be made a link by the client: one that shows
    # its own target, never a text hiding another
    banned = ("mention",) if kind in TEXT_KINDS else ("link", "mention")
    if kind in STYLE_FREE - TEXT_KINDS:
        assert plain_span(line, start, end), line
    else:
        pos = 0
        for seg in line:  # no link, no mention out of the title
            if pos < end and pos + len(seg.text) > start:
                assert seg.kind not in banned, line
            pos += len(seg.text)
    # the commit's short SHA (or, in plain text, its address) is the one link of the line
    assert [s.kind for s in line if link.split()[-1].lstrip("<") in s.text][-1:] == ["link"]
    assert all(s.kind != "mention" for text_line in lines for s in text_line)


@pytest.mark.parametrize("kind", list(VARIANTS))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(title=titles)
def test_any_title_shows_literally_in_every_channel(kind: str, title: str) -> None:
    if not clean_line(title):
        return
    payload = prepare(kind, with_title(title)).payload
    check_literal(kind, payload, title, "6a7b8c9")


@pytest.mark.parametrize("kind", list(VARIANTS))
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_sample_and_a_busy_day_parse_in_every_channel(kind: str, lang: str) -> None:
    for context in (sample_context(lang), busy_day(200, lang=lang)):
        payload = prepare(kind, context, report_base_url="https://example.org/r/").payload
        lines = read(kind, payload)  # Telegram refuses a bare reserved character
        assert any(s.kind == "link" for line in lines for s in line)
        assert all(s.kind != "mention" for line in lines for s in line)
        if kind == "discord-embed":  # the title is the embed's own field
            assert payload["embeds"][0]["title"]  # type: ignore[index]


def test_markdownv2_reader_refuses_what_telegram_refuses() -> None:
    """The reader is as strict as the Bot API, so the tests above can fail."""
    with pytest.raises(Refused, match="'\\(' is reserved"):
        read_telegram_mdv2("• a title ([abc1234](https://x.example/c))")
    with pytest.raises(Refused, match="end of the entity"):
        read_telegram_mdv2("*bold")
    (line,) = read_telegram_mdv2(r"• a\_b \(x\) [abc](https://x.example/c\))")
    assert visible(line) == "• a_b (x) abc"
    assert [s.kind for s in line][-1] == "link" and line[0].kind == PLAIN


@pytest.mark.parametrize("kind", list(VARIANTS))
def test_a_long_title_is_shown_whole(kind: str) -> None:
    title = "fix: " + "a very long title with *stars* and <tags> " * 8  # ~350 characters
    payload = prepare(kind, with_title(title)).payload
    check_literal(kind, payload, title, "6a7b8c9")
