"""The period's chart (render/chart.py) without a browser: what is drawn, what is said,
what is linked; the e-mail's bars; the archive's period."""

from __future__ import annotations

import re
from datetime import date, timedelta
from xml.etree import ElementTree

from commitdigest.render.chart import ChartDay, chart_html, email_bars
from commitdigest.render.email import EMAIL_MAX_BYTES
from commitdigest.render.labels import get_labels
from commitdigest.site.pages import CHART_DAYS, period

EN, ZH = get_labels("en"), get_labels("zh")
SVG = "{http://www.w3.org/2000/svg}"


def week() -> list[ChartDay]:
    return [
        ChartDay(day="2026-03-02", axis="Mon", href="2026-03-02.html", high=1, medium=2, low=3),
        ChartDay(day="2026-03-03", axis="Tue", known=False),
        ChartDay(day="2026-03-04", axis="Wed", href="2026-03-04.html", low=3, breaking=2),
        ChartDay(day="2026-03-05", axis="Thu", href="2026-03-05.html"),
    ]


def svg_of(html: str) -> ElementTree.Element:
    return ElementTree.fromstring(html[html.index("<svg") : html.index("</svg>") + 6])


def test_bars_links_marks_and_words() -> None:
    html = str(chart_html(week(), EN, ident="c"))
    svg = svg_of(html)
    assert svg.get("aria-labelledby") == "c-title" and svg.get("aria-describedby") == "c-desc"
    assert svg.findtext(f"{SVG}title") == "Commits per day by importance"
    assert svg.findtext(f"{SVG}desc") == (
        "2026-03-02 to 2026-03-05 — commits: 9 (High 1, Medium 2, Low 6); days with breaking "
        "changes: 1."
    )
    links = svg.findall(f"{SVG}a")
    assert [a.get("href") for a in links] == [
        "2026-03-02.html",
        "2026-03-04.html",
        "2026-03-05.html",
    ]
    names = [a.findtext(f"{SVG}title") for a in links]
    assert names == [
        "2026-03-02 — commits: 6 (High 1, Medium 2, Low 3)",
        "2026-03-04 — commits: 3 (High 0, Medium 0, Low 3); breaking changes: 2",
        "2026-03-05 — commits: 0 (High 0, Medium 0, Low 0)",
    ]
    # stacked, high at the bottom; heights in proportion to the busiest day (6 -> 96 px)
    monday = {r.get("class"): r for r in links[0].findall(f"{SVG}rect")}
    heights = {k: float(v.get("height") or 0) for k, v in monday.items() if k != "hit"}
    assert heights == {"bar-high": 16, "bar-medium": 32, "bar-low": 48}
    assert float(monday["bar-high"].get("y") or 0) > float(monday["bar-low"].get("y") or 0)
    assert [a.find(f"{SVG}path") is not None for a in links] == [False, True, False]
    # a day without figures: its label, no bar, "no figures" in the table
    assert [t.text for t in svg.findall(f"{SVG}text")][1:] == ["Mon", "Tue", "Wed", "Thu"]
    table = html[html.index("<table") :]
    assert '<tr><th scope="row">2026-03-03</th><td colspan="5">no figures</td></tr>' in table
    assert (
        '<tr><th scope="row">2026-03-04</th><td>3</td><td>0</td><td>0</td><td>3</td><td>2</td>'
        in table
    )
    assert " style=" not in html and "<script" not in html  # the archive's policy allows neither


def test_the_chart_speaks_chinese() -> None:
    html = str(chart_html(week(), ZH))
    svg = svg_of(html)
    assert svg.findtext(f"{SVG}title") == "每日提交（按重要度）"
    assert svg.findtext(f"{SVG}desc") == (
        "2026-03-02 至 2026-03-05：共 9 个提交（高 1，中 2，低 6）；期间 1 天有破坏性变更。"
    )
    assert "2026-03-04：3 个提交（高 0，中 0，低 3）；破坏性变更 2 项" in html
    assert "<caption>每日提交（按重要度）</caption>" in html and "无统计" in html


def test_what_is_drawn_is_escaped() -> None:
    hostile = '"><script>alert(1)</script>'
    day = ChartDay(day=hostile, axis=hostile, href='x.html" onclick="alert(1)', low=1)
    html = str(chart_html([day], EN))
    assert "<script>" not in html and 'onclick="' not in html
    svg_of(html)  # still well-formed XML
    mail = str(email_bars([day], EN))
    assert "<script>" not in mail and "&lt;script&gt;" in mail


def test_a_long_period_labels_each_week() -> None:
    first = date(2026, 1, 1)
    days = [
        ChartDay(day=(first + timedelta(i)).isoformat(), axis=f"{i}", href=f"{i}.html", low=i)
        for i in range(30)
    ]
    svg = svg_of(str(chart_html(days, EN)))
    assert [t.text for t in svg.findall(f"{SVG}text")][1:] == ["0", "7", "14", "21", "28", "29"]
    assert len(svg.findall(f"{SVG}a")) == 30


def test_the_email_gets_table_bars_with_inline_styles() -> None:
    mail = str(email_bars(week(), EN))
    assert "<svg" not in mail and "<img" not in mail and "class=" not in mail
    assert re.findall(r"<td [^>]*title=\"([^\"]+)\"", mail) == [
        "2026-03-02 — commits: 6 (High 1, Medium 2, Low 3)",
        "2026-03-04 — commits: 3 (High 0, Medium 0, Low 3); breaking changes: 2",
        "2026-03-05 — commits: 0 (High 0, Medium 0, Low 0)",
    ]  # a day without figures has no column
    assert "Wed ⚠" in mail and "background-color:#cf222e" in mail
    assert re.findall(r'style="height:(\d+)px', mail)[:3] == ["24", "16", "8"]  # low, medium, high
    # a day of many repositories stays small: at most 14 columns
    many = [ChartDay(day=f"o/r{i}", axis=f"r{i}", medium=i) for i in range(60)]
    assert str(email_bars(many, EN)).count("<td ") == 14
    assert len(str(email_bars(many, EN)).encode("utf-8")) < EMAIL_MAX_BYTES // 10
    assert str(email_bars([ChartDay(day="x", axis="x", known=False)], EN)) == ""


def test_the_archive_charts_its_newest_thirty_days() -> None:
    assert period([]) == []
    assert period(["2026-01-14", "2026-01-12"]) == ["2026-01-12", "2026-01-13", "2026-01-14"]
    days = [(date(2026, 1, 1) + timedelta(i)).isoformat() for i in range(0, 90, 3)]
    shown = period(days)
    assert len(shown) == CHART_DAYS and shown[-1] == max(days)


def test_a_days_email_shows_its_repositories_as_bars() -> None:
    from datetime import datetime

    from test_render_markdown import GENERATED, SHANGHAI, day_window, make_commit, repo_input

    from commitdigest.render import build_context
    from commitdigest.render.email import render_email_html

    when = datetime(2026, 1, 13, 12, tzinfo=SHANGHAI)
    inputs = [
        repo_input([make_commit(f"c{i}", when, repo="o/alpha") for i in range(3)], "o/alpha"),
        repo_input([make_commit("d", when, repo="o/beta")], "o/beta"),
    ]
    ctx = build_context(inputs, day_window(), lang="en", generated_at=GENERATED)
    html = render_email_html(ctx)
    assert html.index("Act on") < html.index("Commits per repository by importance")
    titles = re.findall(r'<td valign="bottom"[^>]*title="([^"]+)"', html)
    assert titles == [
        "o/alpha — commits: 3 (High 1, Medium 1, Low 1)",
        "o/beta — commits: 1 (High 1, Medium 0, Low 0)",
    ]
    assert ">alpha</div>" in html and ">beta</div>" in html
