"""The short digest: its lines, its escaping, and cutting it to each service's size limit."""

from __future__ import annotations

import html
import re
from typing import Any

import httpx2
import pytest
from chat_render import read, shown_as, visible
from fake_receivers import busy_day, channel_config

from commitdigest.deliver.channels import (
    DeliveryJob,
    Prepared,
    build_channel,
    json_bytes,
    utf8_bytes,
    utf16_units,
)
from commitdigest.deliver.digest import (
    PLAIN,
    SAMPLE_HOSTILE_EN,
    SAMPLE_HOSTILE_ZH,
    DigestLines,
    DigestTooLarge,
    Line,
    build_digest,
    fit,
    report_day,
    report_link,
    repos_label,
    sample_context,
    subject,
)
from commitdigest.render.labels import get_labels


def _prepare(context: Any, **fields: Any) -> Prepared:
    async def run() -> Prepared:
        async with httpx2.AsyncClient() as client:
            channel = build_channel(channel_config(**fields), client)
            return channel.prepare(DeliveryJob(context, report_day(context)))

    import asyncio

    return asyncio.run(run())


def _text_and_size(kind: str, payload: Any) -> tuple[str, int, int]:
    """(the message text, its size as the service measures it, the service's limit)."""
    if kind == "feishu":
        return payload["card"]["elements"][0]["text"]["content"], len(json_bytes(payload)), 20_000
    if kind == "dingtalk":  # a plain-text message
        return payload["text"]["content"], len(json_bytes(payload)), 20_000
    if kind == "wecom":
        text = payload["text"]["content"]
        return text, utf8_bytes(text), 2048
    if kind == "slack":
        sections = [b["text"]["text"] for b in payload["blocks"] if b["type"] == "section"]
        assert all(len(s) <= 3000 for s in sections) and len(payload["blocks"]) <= 50
        return "\n".join(sections), sum(len(s) for s in sections), 12_000
    if kind == "discord-embed":
        text = payload["embeds"][0]["description"]
        return text, len(text), 4096
    if kind == "discord-content":
        return payload["content"], len(payload["content"]), 2000
    if kind == "telegram-html":
        text = payload["text"]
        visible = html.unescape(re.sub(r"<[^>]*>", "", text))
        return text, utf16_units(visible), 4096
    assert kind == "telegram-md"
    return payload["text"], utf16_units(payload["text"]), 4096


CASES: dict[str, dict[str, Any]] = {
    "feishu": {"type": "feishu", "url_env": "X"},
    "dingtalk": {"type": "dingtalk", "url_env": "X"},
    "wecom": {"type": "wecom", "url_env": "X"},
    "slack": {"type": "slack", "url_env": "X"},
    "discord-embed": {"type": "discord", "url_env": "X"},
    "discord-content": {"type": "discord", "url_env": "X", "style": "content"},
    "telegram-html": {"type": "telegram", "bot_token_env": "X", "chat_id": 1},
    "telegram-md": {
        "type": "telegram",
        "bot_token_env": "X",
        "chat_id": 1,
        "parse_mode": "MarkdownV2",
    },
}


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("kind", list(CASES))
def test_200_important_commits_are_cut_to_the_limit_on_whole_lines(kind: str, lang: str) -> None:
    context = busy_day(200, lang=lang)
    base = "https://example.org/reports/"
    message = _prepare(context, name="c", max_items=None, report_base_url=base, **CASES[kind])
    text, size, limit = _text_and_size(kind, message.payload)
    assert size <= limit
    # 2 overview items + 200 commits: most are cut, and the message says how many
    assert message.items_shown + message.items_omitted == 202
    assert 5 < message.items_shown < 202 and message.items_omitted > 0
    more = (
        f"……另有 {message.items_omitted} 条"
        if lang == "zh"
        else f"…and {message.items_omitted} more"
    )
    lines = text.split("\n")
    assert any(more in html.unescape(line.replace("\\", "")) for line in lines)
    # every line is a whole line of the uncut digest (or the "more" line)
    whole = _prepare_uncut_lines(kind, context, lang)
    more_lines = [line for line in lines if more in html.unescape(line.replace("\\", ""))]
    assert len(more_lines) == 1
    for line in lines:
        assert line in whole or line in more_lines, line
    # the link to the full report survives the cut (Slack and Feishu show it in the text too)
    assert f"{base}2026-01-13.html".replace("/", "/") in text or "2026-01-13.html" in str(
        message.payload
    )
    # the cut is as late as it can be: one more commit line would not fit
    assert size > limit * 0.8


def _prepare_uncut_lines(kind: str, context: Any, lang: str) -> set[str]:
    """All lines the message could have, from a channel with an unlimited budget."""
    from commitdigest.deliver import chat_cn, chat_intl
    from commitdigest.deliver.digest import digest_lines

    markups = {
        "feishu": chat_cn.LARK_MD,
        "dingtalk": chat_cn.DINGTALK_TEXT,
        "wecom": chat_cn.WECOM_TEXT,
        "slack": chat_intl.SLACK_MRKDWN,
        "discord-embed": chat_intl.DISCORD_MD,
        "discord-content": chat_intl.DISCORD_MD,
        "telegram-html": chat_intl.TELEGRAM_HTML,
        "telegram-md": chat_intl.TELEGRAM_MDV2,
    }
    digest = build_digest(
        context, lang=lang, report_url=report_link("https://example.org/reports/", "2026-01-13")
    )
    result: set[str] = set()
    for with_title in (True, False):
        lines = digest_lines(digest, markups[kind], with_title=with_title)
        result.update(lines.head, (i.text for i in lines.items), lines.tail)
    return result


def test_max_items_caps_the_list_before_the_size_does() -> None:
    message = _prepare(busy_day(200), name="c", type="wecom", url_env="X", max_items=5)
    assert (message.items_shown, message.items_omitted) == (5, 197)
    assert message.payload["text"]["content"].splitlines()[-1] == "……另有 197 条"


def test_a_small_day_is_sent_whole() -> None:
    message = _prepare(sample_context("en"), name="c", type="slack", url_env="X")
    assert message.items_omitted == 0 and "more" not in message.text
    assert "[Bugfix] Fix out-of-bounds KV cache access" in message.text


def test_fit_keeps_whole_lines_and_never_ends_on_a_heading() -> None:
    lines = DigestLines(
        head=["title"],
        items=[Line("## A", False), Line("a1", True), Line("a2", True), Line("## B", False)]
        + [Line(f"b{i}", True) for i in range(5)],
        tail=["link"],
    )
    fitted = fit(
        lines,
        build=lambda body: "\n".join(body),
        fits=lambda text: len(text) <= len("title\n## A\na1\na2\n## B\n…5\nlink"),
        more=lambda n: f"…{n}",
    )
    # "## B" alone would fit, but a heading is never left without its items
    assert fitted.payload == "title\n## A\na1\na2\n…5\nlink"
    assert (fitted.shown, fitted.omitted) == (2, 5)
    with pytest.raises(DigestTooLarge):
        fit(lines, build="\n".join, fits=lambda text: len(text) < 5, more=str)


def test_escaping_per_service() -> None:
    context = busy_day(1, lang="en")
    tg = _prepare(context, name="t", type="telegram", bot_token_env="X", chat_id=1).payload["text"]
    assert "&lt;b&gt;&amp;&lt;/b&gt;" in tg and "<b>&</b>" not in tg
    md = _prepare(
        context, name="t", type="telegram", bot_token_env="X", chat_id=1, parse_mode="MarkdownV2"
    ).payload["text"]
    assert r"\[Bugfix\] Fix memory leak \#0 in the scheduler <b\>&</b\> \*batching\*" in md
    slack = _prepare(context, name="s", type="slack", url_env="X").payload
    assert "&lt;b&gt;&amp;&lt;/b&gt;" in str(slack) and "<b>" not in str(slack["blocks"])
    discord = _prepare(context, name="d", type="discord", url_env="X").payload
    assert discord["allowed_mentions"] == {"parse": []}
    assert r"\*batching\*" in discord["embeds"][0]["description"]
    for kind in ("dingtalk", "wecom"):  # plain text: the title as written
        payload = _prepare(context, name="x", type=kind, url_env="X").payload
        assert payload["msgtype"] == "text" and set(payload["text"]) == {"content"}
        assert "<b>&</b> *batching*" in payload["text"]["content"]


def test_subject_and_repository_names() -> None:
    digest = build_digest(busy_day(4), report_url=None)
    assert subject(digest, "[commitdigest]") == "[commitdigest] org/repo0 2026-01-13 · 🔴4 🟡1 🟢1"
    names = [f"some-organisation/a-rather-long-repository-{i}" for i in range(6)]
    short = repos_label(names, "en")
    assert len(short) <= 60 and short.endswith("more")
    assert repos_label(["a/x", "b/y"], "zh") == "a/x, b/y"
    several = build_digest(busy_day(1, repos=3), report_url=None)
    assert subject(several, "[cd]").startswith("[cd] org/repo0, org/repo1, org/repo2 2026-01-13")


def test_report_link() -> None:
    assert (
        report_link("https://example.org/r", "2026-01-13")
        == "https://example.org/r/2026-01-13.html"
    )
    assert (
        report_link("https://example.org/{date}/index.html", "2026-01-13")
        == "https://example.org/2026-01-13/index.html"
    )
    assert report_link(None, "2026-01-13") is None


def test_plain_digest_of_the_sample() -> None:
    from commitdigest.deliver.digest import digest_lines

    digest = build_digest(sample_context("zh"), report_url="https://example.org/x.html", test=True)
    lines = digest_lines(digest, PLAIN, with_title=True)
    assert lines.head == [
        "🧪 测试消息 · example/project 每日更新 · 2026-01-13",
        "共 4 个提交 · 🔴2 🟡1 🟢1",
    ]
    assert lines.tail == ["📄 完整报告：查看完整报告 <https://example.org/x.html>"]


# ---- the hostile title of the test message: literal in every chat syntax -----------------


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("kind", list(CASES))
def test_the_test_message_shows_the_hostile_title_literally(kind: str, lang: str) -> None:
    title = SAMPLE_HOSTILE_ZH if lang == "zh" else SAMPLE_HOSTILE_EN
    context = sample_context(lang)
    assert title in [c.title for c in context.repositories[0].commits]
    message = _prepare(context, name="c", **CASES[kind])
    text, _, _ = _text_and_size(kind, message.payload)
    assert "\\\\" not in text  # never escaped twice
    shown = [visible(line) for line in read(kind, message.payload)]
    shown = [line for line in shown if "foo_bar" in line]
    sha = "6a7b8c9"
    if kind in ("dingtalk", "wecom"):  # plain text: the address follows the short SHA
        sha += (
            " <https://github.com/example/project/commit/6a7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f7>"
        )
    # the high commit is an Act-on line: its label, the title as written, a reason, the SHA
    high = get_labels(lang).s["act_high"]
    assert len(shown) == 1, text
    assert shown[0].startswith(f"• {high} · {shown_as(kind, title)}"), text
    assert shown[0].endswith(f"({sha})"), text
    # "@here" stays text: Slack and chat_cn get no mention syntax (<!here>, <at …>, the
    # "at" field), Discord parses no mentions
    assert "<!" not in text and "<at" not in text and "<@" not in text
    assert "at" not in message.payload or not message.payload["at"].get("isAtAll")
    if kind.startswith("discord"):
        assert message.payload["allowed_mentions"] == {"parse": []}


def _with_radar(lang: str) -> Any:
    from commitdigest.models import ApiChange, ApiChangeType, Place, RadarKind

    ctx = busy_day(3, lang=lang)
    repo = ctx.repositories[0]
    used = ApiChange(
        kind=RadarKind.ENV_VAR,
        change=ApiChangeType.REMOVED,
        name="VLLM_OLD_*FLAG*",
        affects=[Place(path="deploy/run.sh", line=2)],
    )
    other = ApiChange(kind=RadarKind.CLI_OPTION, change=ApiChangeType.REMOVED, name="--legacy")
    quiet = ApiChange(
        kind=RadarKind.DEPRECATION, change=ApiChangeType.DEPRECATED, name="f", breaking=False
    )
    last = repo.commits[-1].model_copy(update={"api_changes": [used, other, quiet]})
    commits = [*repo.commits[:-1], last]
    return ctx.model_copy(update={"repositories": [repo.model_copy(update={"commits": commits})]})


def test_the_feed_counts_items_when_one_line_shows_many() -> None:
    """The same change of one member of many classes is one line of the feed's summary, and
    its title still counts every item (the report's heading does: 148, not 4)."""
    from commitdigest.models import ApiChange, ApiChangeType, RadarKind
    from commitdigest.site.feed import entry_title, summary_text
    from commitdigest.site.summary import summarise

    ctx = _with_radar("en")
    repo = ctx.repositories[0]
    methods = [
        ApiChange(kind=RadarKind.PYTHON_API, change=ApiChangeType.REMOVED,
                  name=f"pkg.p{n}.Pipe{n}.enable_slicing")
        for n in range(5)
    ]  # fmt: skip
    last = repo.commits[-1].model_copy(update={"api_changes": methods})
    commits = [*repo.commits[:-1], last]
    ctx = ctx.model_copy(update={"repositories": [repo.model_copy(update={"commits": commits})]})
    summary = summarise("2026-01-13", ctx)
    assert len(summary.breaking) == 1 and summary.breaking_count == 5
    assert entry_title(summary).endswith(", 5 breaking")
    assert "enable_slicing" in summary_text(summary)


def test_a_release_of_one_repository_repeats_no_entry_of_another() -> None:
    """The day's summary reads every repository's items: an entry that repository A's
    release announces again leaves A's Breaking lines once, and B's entry of the same words
    in a changelog of the same name stays B's."""
    from commitdigest.models import ApiChange, ApiChangeType, RadarKind
    from commitdigest.site.summary import summarise

    ctx = busy_day(2, lang="en")
    repo = ctx.repositories[0]

    def said(release: str) -> ApiChange:
        return ApiChange(kind=RadarKind.ANNOUNCED, change=ApiChangeType.REMOVED,
                         name="Drop support for Python 3.9.", path="CHANGES.md",
                         release=release)  # fmt: skip

    first, second = repo.commits[0], repo.commits[1]
    a = repo.model_copy(update={"name": "a", "commits": [
        first.model_copy(update={"api_changes": [said("")]}),
        second.model_copy(update={"api_changes": [said("2.0")]}),
    ]})  # fmt: skip
    b = repo.model_copy(update={"name": "b", "commits": [
        first.model_copy(update={"api_changes": [said("")]})
    ]})  # fmt: skip
    summary = summarise("2026-01-13", ctx.model_copy(update={"repositories": [a, b]}))
    shas = [line.rpartition("(")[2].rstrip(")") for line in summary.breaking]
    assert shas == [second.short_sha, first.short_sha]  # a's release, then b's entry


def test_what_needs_action_comes_first_in_the_digest_and_the_feed() -> None:
    from commitdigest.deliver.digest import digest_lines
    from commitdigest.site.feed import summary_text
    from commitdigest.site.summary import summarise

    ctx = _with_radar("en")
    lines = [
        line.text
        for line in digest_lines(build_digest(ctx, report_url=None), PLAIN, with_title=False).items
    ]
    last = ctx.repositories[0].commits[-1]
    sha = last.short_sha
    ref = f"{sha} <{last.url}>"
    title = " ".join(last.title.split())
    assert lines[:3] == [
        "🎯 Act on",
        f"• ⚠️ Affects your code · Env var VLLM_OLD_*FLAG* — removed · used at deploy/run.sh:2"
        f" · {title} ({ref})",
        f"• 💥 Breaking · {title}: --legacy ({ref})",
    ]
    high = [c for c in ctx.repositories[0].commits[:-1] if c.analysis.importance.value == "high"]
    assert all(any(c.short_sha in line for line in lines[3 : 3 + len(high)]) for c in high)
    assert not any(" f — deprecated" in line for line in lines)  # not breaking, not used
    from commitdigest.site.feed import entry_title

    assert entry_title(summarise("2026-01-13", ctx)).endswith(", 3 high, 2 breaking")
    feed = summary_text(summarise("2026-01-13", ctx)).splitlines()
    assert feed[1:4] == [
        "⚠️ Breaking changes",
        f"- Env var VLLM_OLD_*FLAG* — removed · used at deploy/run.sh:2 ({sha})",
        f"- CLI option --legacy — removed ({sha})",
    ]
