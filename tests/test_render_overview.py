"""What the report shows beyond the commit sections: the day's overview, the files an
analyser never saw, and the report's token cost."""

from __future__ import annotations

from datetime import datetime, timedelta

import mdcheck
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it.token import Token
from test_mdtext import HOSTILE, free_text
from test_render_markdown import (
    GENERATED,
    SHANGHAI,
    check_report,
    day_window,
    make_analysis,
    make_commit,
    repo_input,
    seed_commits,
)

from commitdigest.models import (
    Analysis,
    AnalysisStatus,
    Importance,
    Overview,
    ReportContext,
    Usage,
)
from commitdigest.render import (
    build_context,
    get_labels,
    load_context,
    render_html,
    render_json,
    render_markdown,
)
from commitdigest.text import clean_line

WHEN = datetime(2026, 1, 13, 12, tzinfo=SHANGHAI)
# model text that would change the document if it were not sanitised
EVIL = ["## x", "| a | b |", "<script>alert(1)</script>", "```python", "---", "# h", "> q"]


def _ctx(
    lang: str = "zh",
    overview: Overview | None = None,
    analyses: list[Analysis] | None = None,
    n: int = 3,
) -> ReportContext:
    commits = [make_commit(f"Commit {i} (#{i})", WHEN - timedelta(minutes=i)) for i in range(n)]
    chosen = analyses or [make_analysis(list(Importance)[i % 3]) for i in range(n)]
    inp = repo_input(commits, analyses={c.sha: a for c, a in zip(commits, chosen, strict=True)})
    inp.overview = overview
    return build_context([inp], day_window(), lang=lang, generated_at=GENERATED)


def _list_items(doc: mdcheck.MdDoc, after: str) -> list[str]:
    """The items of the bullet list that follows the bold label ``after``."""
    tokens: list[Token] = doc.tokens
    start = next(
        i
        for i, t in enumerate(tokens)
        if t.type == "inline" and t.content == f"**{after}**" and t.level == 1
    )
    assert tokens[start + 2].type == "bullet_list_open"
    items = []
    for t in tokens[start + 3 :]:
        if t.type == "bullet_list_close":
            break
        if t.type == "inline":
            items.append(mdcheck.plain(t))
    return items


# ---- the overview -----------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_overview_with_hostile_model_text_keeps_the_structure(lang: str) -> None:
    s = get_labels(lang).s
    overview = Overview(
        themes=EVIL,
        key_changes=[*HOSTILE[:5], "Plain `code` stays code"],
        risks=["Run `pip install -U x`\n\n## now", "  "],
        analyser="llm",
    )
    plain_ctx = _ctx(lang)
    text, doc = check_report(_ctx(lang, overview))  # the heading outline is exactly the template's
    plain_text, plain_doc = check_report(plain_ctx)
    # the commit table and the section tables, exactly
    assert [(t.header, t.rows) for t in doc.tables] == [
        (t.header, t.rows) for t in plain_doc.tables
    ]
    assert (
        doc.blocks["fence"] == 0 and doc.blocks["blockquote"] == plain_doc.blocks["blockquote"] + 1
    )
    assert _list_items(doc, s["ov_themes"]) == [clean_line(t) for t in EVIL]
    assert _list_items(doc, s["ov_key_changes"]) == [
        *(clean_line(t) for t in HOSTILE[:5]),
        "Plain `code` stays code",
    ]
    assert _list_items(doc, s["ov_risks"]) == ["Run `pip install -U x` ## now"]
    # placed after the statistics line, before the table of contents
    title = s["overview_day"]
    stats = text.index("\n> " + s["stats_total_day"].format(n=3))
    assert (
        stats
        < text.index(f"\n**{title}**\n\n> {s['ov_by_llm']}\n\n**{s['ov_themes']}**\n")
        < text.index(f"\n## {s['toc']}\n")
    )
    # nothing else changed: the overview sits between the statistics and the commit table
    cut = text.index(f"**{title}**")
    rest = text.index("\n<a id=", cut) + 1
    assert text[:cut] + text[rest:] == plain_text


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=st.lists(free_text, min_size=1, max_size=4), note=free_text)
def test_any_overview_text_keeps_the_outline(texts: list[str], note: str) -> None:
    overview = Overview(
        themes=texts,
        key_changes=texts[::-1],
        risks=texts[:1],
        analyser="rules",
        status=AnalysisStatus.FALLBACK,
        notes=[note],
    )
    _, doc = check_report(_ctx("en", overview, n=1))  # outline, anchors, links, no raw HTML
    assert doc.blocks["table"] == 3 and doc.blocks["fence"] == 0


def test_overview_labels_and_empty_lists_in_both_languages() -> None:
    overview = Overview(risks=["Upgrade now."], analyser="llm")
    zh = render_markdown(_ctx("zh", overview))
    assert '**🧭 今日概览**\n\n> 🧠 LLM 概览\n\n**需关注的风险**\n\n- Upgrade now.\n\n<a id="' in zh
    assert "主要主题" not in zh and "重要变更" not in zh
    overview = Overview(themes=["Speed"], key_changes=["A"], risks=[], analyser="rules")
    en = render_markdown(_ctx("en", overview))
    assert (
        "**🧭 Overview**\n\n> 🤖 Rule-based overview (counted from the commits)\n\n"
        '**Themes**\n\n- Speed\n\n**Key changes**\n\n- A\n\n<a id="'
    ) in en
    assert "Risks to act on" not in en


def test_fallback_overview_is_marked_with_its_reason() -> None:
    overview = Overview(
        themes=["3 bug fixes"],
        analyser="rules",
        status=AnalysisStatus.FALLBACK,
        notes=["LLM unavailable: HTTP 500 after 4 attempts", "other"],
    )
    zh = render_markdown(_ctx("zh", overview))
    assert "> ⚠️ LLM 概览失败，已使用规则概览：LLM unavailable: HTTP 500 after 4 attempts\n" in zh
    en = render_markdown(_ctx("en", overview))
    assert (
        "> ⚠️ LLM overview failed; rule-based overview used instead: "
        "LLM unavailable: HTTP 500 after 4 attempts\n"
    ) in en
    no_reason = overview.model_copy(update={"notes": []})
    assert "已使用规则概览：原因未知\n" in render_markdown(_ctx("zh", no_reason))


def test_overview_without_items_shows_nothing() -> None:
    plain = render_markdown(_ctx("zh"))
    for overview in (Overview(analyser="rules"), Overview(themes=["", " \n"], analyser="llm")):
        assert render_markdown(_ctx("zh", overview)) == plain
    assert "🧭" not in plain and "💰" not in plain and "🗂️" not in plain


def test_overview_of_a_window_that_is_not_a_day() -> None:
    start = datetime(2026, 1, 12, tzinfo=SHANGHAI)
    window = day_window().model_copy(
        update={"start": start, "end": start + timedelta(days=2), "label": "x – y"}
    )
    inp = repo_input([make_commit("x", start + timedelta(hours=1))])
    inp.overview = Overview(themes=["t"], analyser="llm")
    text = render_markdown(build_context([inp], window, lang="zh", generated_at=GENERATED))
    assert "**🧭 本期概览**\n" in text


# ---- files not analysed -------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_omitted_files_are_listed_in_every_group(lang: str) -> None:
    s = get_labels(lang).s
    many = [f"vllm/model_executor/f{i}.py" for i in range(23)]
    odd = ["a`b.py", "x|y <b>.md", "", "## not/a/heading.py"]
    analyses = [
        make_analysis(Importance.HIGH).model_copy(update={"omitted_files": many}),
        make_analysis(Importance.MEDIUM),
        make_analysis(Importance.LOW).model_copy(update={"omitted_files": odd}),
    ]
    text, doc = check_report(_ctx(lang, analyses=analyses))
    label = f"**{s['omitted_files']}**{s['colon']}"
    lines = [line for line in text.splitlines() if line.startswith(label)]
    assert len(lines) == 2  # high and low; the medium commit omitted nothing
    sep = s["list_sep"]
    assert lines[0] == label + sep.join(f"`{p}`" for p in many[:20]) + s["omitted_more"].format(n=3)
    assert lines[0].endswith("……另有 3 个" if lang == "zh" else " … and 3 more")
    paragraphs = [t for t in doc.tokens if t.type == "inline" and t.content.startswith(label)]
    assert mdcheck.plain(paragraphs[1]).split(s["colon"], 1)[1] == sep.join(
        ["``a`b.py``", "`x|y <b>.md`", "`## not/a/heading.py`"]
    )
    assert [t.type for t in paragraphs[1].children or []].count("code_inline") == 3
    # it sits inside the low commit's section (a low commit with omitted files keeps one)
    low = text[text.index(lines[1]) :]
    assert "\n---\n" in low.split("\n### ", 1)[0]  # its section ends before the next one


# ---- the cost line ----------------------------------------------------------------------


def _with_usage(lang: str, *usages: Usage | None, overview: Overview | None = None) -> str:
    analyses = [make_analysis(Importance.LOW).model_copy(update={"usage": u}) for u in usages]
    return render_markdown(_ctx(lang, overview, analyses=analyses, n=len(usages)))


@pytest.mark.parametrize(
    ("cost", "zh", "en"),
    [
        (0.42, " · 费用 ≈ 0.42", " · cost ≈ 0.42"),
        (0.004321, " · 费用 ≈ 0.0043", " · cost ≈ 0.0043"),
        (1234.5, " · 费用 ≈ 1,234.50", " · cost ≈ 1,234.50"),
        (0.0, " · 费用 ≈ 0.00", " · cost ≈ 0.00"),
        (None, "", ""),
    ],
)
def test_cost_line_formats(cost: float | None, zh: str, en: str) -> None:
    a = Usage(prompt_tokens=100_000, completion_tokens=12_000, calls=40, cost=cost)
    b = Usage(prompt_tokens=23_456, completion_tokens=345, calls=6, cost=None)
    ov = Overview(themes=["t"], analyser="llm", usage=Usage(calls=1))
    text = _with_usage("zh", a, None, b, overview=ov)
    assert text.endswith(
        "覆盖：3/3 已分析（规则 3）\n\n> 💰 Token：输入 123,456 · 输出 12,345 · 调用 47 次"
        + zh
        + "\n"
    )
    text = _with_usage("en", a, None, b, overview=ov)
    assert text.endswith("\n\n> 💰 Tokens: input 123,456 · output 12,345 · 47 calls" + en + "\n")


def test_cost_line_single_call_several_repositories_and_no_repositories() -> None:
    one = Usage(prompt_tokens=5, completion_tokens=2, calls=1)
    commit = make_commit("x", WHEN)
    analysis = make_analysis(Importance.LOW).model_copy(update={"usage": one})
    ctx = build_context(
        [repo_input([commit], "o/a", {commit.sha: analysis}), repo_input([], "o/b")],
        day_window(),
        lang="en",
        generated_at=GENERATED,
    )
    assert ctx.usage == one
    text, _ = check_report(ctx)
    assert text.endswith("analysed (rules 1)\n\n> 💰 Tokens: input 5 · output 2 · 1 call\n")
    empty = build_context([], day_window(), lang="zh", generated_at=GENERATED)
    text = render_markdown(empty.model_copy(update={"usage": one}))
    assert "\n\n\n" not in text and text.endswith("\n\n> 💰 Token：输入 5 · 输出 2 · 调用 1 次\n")


def test_usage_is_summed_from_analyses_and_overviews() -> None:
    assert _ctx("zh").usage is None  # rule analyses cost nothing: no line, as before
    ov = Overview(themes=["t"], analyser="llm", usage=Usage(prompt_tokens=7, calls=1, cost=0.5))
    ctx = _ctx("zh", ov, analyses=[make_analysis(Importance.HIGH)], n=1)
    assert ctx.usage == Usage(prompt_tokens=7, calls=1, cost=0.5)
    assert ctx.repositories[0].overview == ov
    assert load_context(render_json(ctx)) == ctx  # the JSON keeps overview and usage


def test_seed_report_has_none_of_the_new_parts() -> None:
    ctx = build_context(
        [repo_input(seed_commits())], day_window(), lang="zh", generated_at=GENERATED
    )
    text, _ = check_report(ctx)
    assert ctx.usage is None
    for label in ("🧭", "💰", "🗂️"):
        assert label not in text
    assert text.endswith("覆盖：45/45 已分析（LLM 22 · 规则 23）\n")


def test_key_changes_link_to_the_commit_they_are_about() -> None:
    probe = _ctx("en")
    commits = probe.repositories[0].commits
    first, second = commits[0], commits[1]
    overview = Overview(
        themes=["two fixes"],
        key_changes=["Faster decoding", "Something invented", "Hostile ](#x) text"],
        key_refs=[second.short_sha, "", first.short_sha],
        type_counts={"bugfix": 2},
        analyser="llm",
    )
    ctx = _ctx("en", overview)
    md, doc = check_report(ctx)  # every link still points at an anchor of the report
    assert f"- Faster decoding [↓](#{second.anchor})" in md
    assert "- Something invented\n" in md  # no commit named: no link
    assert _list_items(doc, "Key changes")[2].startswith("Hostile ](#x) text")
    html = render_html(ctx)
    assert f'Faster decoding <a class="to-commit" href="#{second.anchor}">↓</a>' in html
    assert f'id="{second.anchor}"' in html
    data = load_context(render_json(ctx)).repositories[0].overview
    assert data is not None and data.key_refs == overview.key_refs
    assert data.type_counts == {"bugfix": 2}
