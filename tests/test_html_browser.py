"""The HTML report in a real browser (Debian's chromium, driven by Playwright).

One browser for the module; each test opens the rendered fixture report (two
repositories, Chinese text, every importance, a fallback, an overview, a cost line and
an XSS-laden commit: :func:`test_render_html.rich_context`) from ``file://`` in a fresh
page whose every request is routed through a :class:`browser.RequestRecorder`.
Screenshots go to :func:`browser.artifact_dir`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import browser
import pytest
from test_render_html import XSS_IMG, XSS_LINK, rich_context

from commitdigest.models import ReportContext
from commitdigest.render.html import render_html

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CJK = "每日更新报告"
MISSING = "\U0010fffd"  # a private-use code point no font maps: drawn as "tofu"
CJK_FAMILIES = {"PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", "WenQuanYi Micro Hei"}


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    with browser.running_chromium() as instance:
        yield instance


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[ReportContext, str]:
    ctx = rich_context("zh")
    path = tmp_path_factory.mktemp("html") / "2026-01-13.html"
    path.write_text(render_html(ctx), encoding="utf-8")
    return ctx, path.as_uri()


class Opened:
    """A page showing the report, with what it requested and what it logged."""

    def __init__(
        self, chromium: Browser, url: str, width: int, *, height: int = 800, dark: bool = False
    ) -> None:
        self.context = chromium.new_context(
            viewport={"width": width, "height": height},
            color_scheme="dark" if dark else "light",
        )
        self.page: Page = self.context.new_page()
        self.requests = browser.RequestRecorder()
        self.requests.attach(self.page)
        self.console: list[str] = []
        self.page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}"))
        self.page.on("pageerror", lambda e: self.console.append(f"pageerror: {e}"))
        self.page.goto(url)

    def visible_commits(self) -> int:
        count: int = self.page.evaluate(
            "[...document.querySelectorAll('details.commit')]"
            ".filter((d) => d.checkVisibility()).length"
        )
        return count

    def js(self, script: str, arg: Any = None) -> Any:
        return self.page.evaluate(script, arg)


@pytest.fixture
def opened(chromium: Browser, report: tuple[ReportContext, str]) -> Iterator[Opened]:
    page = Opened(chromium, report[1], 1280)
    yield page
    page.context.close()


def _commits(ctx: ReportContext) -> list[Any]:
    return [c for repo in ctx.repositories for c in repo.commits]


def test_loads_offline_runs_its_script_and_nothing_else(
    opened: Opened, report: tuple[ReportContext, str]
) -> None:
    assert opened.requests.foreign() == []
    assert opened.requests.allowed == [report[1]]
    assert opened.console == []  # a CSP violation (a wrong hash) would be logged here
    assert opened.page.locator("#cd_filters").is_visible()  # the inline script ran
    assert opened.js("window.__xss") is None


def test_recorder_sees_and_blocks_foreign_requests(chromium: Browser) -> None:
    context = chromium.new_context()
    page = context.new_page()
    recorder = browser.RequestRecorder()
    recorder.attach(page)
    page.set_content('<img src="http://example.invalid/x.png">', wait_until="load")
    context.close()
    assert recorder.foreign() == ["http://example.invalid/x.png"]


def test_filters_and_search_change_what_is_visible(
    opened: Opened, report: tuple[ReportContext, str]
) -> None:
    ctx = report[0]
    commits = _commits(ctx)
    page = opened.page
    assert opened.visible_commits() == len(commits) == 8
    page.uncheck("input[name=importance][value=high]")
    assert opened.visible_commits() == 5
    page.uncheck("input[name=importance][value=low]")
    assert opened.visible_commits() == 2
    assert page.locator("#cd_shown").text_content() == "显示 2 / 8 个提交"
    page.click("button[type=reset]")
    page.wait_for_function("document.querySelectorAll('details.commit.is-filtered').length === 0")
    page.select_option("select[name=type]", "feature")
    assert opened.visible_commits() == 2
    page.select_option("select[name=repo]", ctx.repositories[1].anchor)
    assert opened.visible_commits() == 1
    assert not page.locator(f"#{ctx.repositories[0].anchor}").is_visible()
    page.select_option("select[name=type]", "")
    assert opened.visible_commits() == 3
    page.select_option("select[name=repo]", "")
    page.fill("input[name=q]", "调度器")  # a title word
    assert opened.visible_commits() == 1
    page.fill("input[name=q]", "李四")  # an author (the XSS commit's author is another)
    assert opened.visible_commits() == 2
    page.fill("input[name=q]", "寄存器压力")  # a summary phrase
    assert opened.visible_commits() == 1
    page.fill("input[name=q]", "没有这个词")
    assert opened.visible_commits() == 0
    assert page.locator("#cd_empty").is_visible()
    # table rows and contents entries follow the filters
    assert (
        page.locator("tr[data-ref]").evaluate_all(
            "rs => rs.filter(r => r.checkVisibility()).length"
        )
        == 0
    )


def test_high_open_low_closed_and_anchors_open_their_commit(
    chromium: Browser, report: tuple[ReportContext, str]
) -> None:
    ctx, url = report
    vllm = ctx.repositories[0].commits
    high, medium, low = (
        next(c for c in vllm if c.analysis.importance.value == imp)
        for imp in ("high", "medium", "low")
    )
    other_low = next(c for c in ctx.repositories[1].commits if c.analysis.importance.value == "low")
    view = Opened(chromium, f"{url}#{low.anchor}", 1280, height=450)
    try:
        state = "(id) => document.getElementById(id).open"
        assert view.js(state, high.anchor) is True
        assert view.js(state, other_low.anchor) is False  # low: closed unless asked for
        _assert_shown_at_top(view, low.anchor)
        # a hash change (a link, the address bar) does the same, even for a filtered-out one
        view.page.uncheck("input[name=importance][value=medium]")
        view.js("(id) => { location.hash = id; }", medium.anchor)
        view.page.wait_for_function(state, arg=medium.anchor)
        _assert_shown_at_top(view, medium.anchor)
        assert view.visible_commits() == 8  # the filters were reset to show it
        # the link to the commit the address already names (no hashchange) reopens it
        view.js(
            "(id) => { document.getElementById(id).open = false; scrollTo(0, 0); }", medium.anchor
        )
        view.page.click(f"tr[data-ref='{medium.anchor}'] a")
        _assert_shown_at_top(view, medium.anchor)
        # a group's anchor (the Markdown's REPO-medium) works too
        group = f"{ctx.repositories[0].anchor}-medium"
        view.js("(id) => { location.hash = id; }", group)
        view.page.wait_for_function(
            "(id) => Math.abs(document.getElementById(id).getBoundingClientRect().top"
            " - document.getElementById('cd_bar').offsetHeight) < 16",
            arg=group,
        )
    finally:
        view.context.close()


def _assert_shown_at_top(view: Opened, anchor: str) -> None:
    """The commit is open, visible, and starts just below the sticky bar."""
    box = view.js(
        """(id) => { const el = document.getElementById(id), r = el.getBoundingClientRect();
        return {top: r.top, bar: document.getElementById('cd_bar').offsetHeight, open: el.open};
        }""",
        anchor,
    )
    assert box["open"] is True
    assert box["bar"] <= box["top"] <= box["bar"] + 16, box
    assert view.page.locator(f"[id='{anchor}'] .body").is_visible()


def test_xss_payloads_run_nothing_and_show_as_text(opened: Opened) -> None:
    page = opened.page
    evil = page.locator("details.commit", has_text="onerror")
    assert evil.count() == 1
    assert (
        evil.locator("h3").text_content() == f'{XSS_IMG} "><script>window.__xss=1</script> (#32005)'
    )
    assert page.locator("script").count() == 1 and page.locator("img").count() == 0
    assert page.locator("a[href^='javascript:' i]").count() == 0
    summary = evil.locator("p.summary")
    assert XSS_LINK in (summary.text_content() or "")
    summary.click()  # the "link" is text: clicking it goes nowhere
    evil.locator("li", has_text="javascript").first.click()
    assert page.url.endswith(".html") and opened.js("window.__xss") is None
    assert opened.console == [] and opened.requests.foreign() == []


def test_print_shows_every_section_and_hides_the_filters(opened: Opened) -> None:
    page = opened.page
    closed = page.locator("details.commit:not([open]) .body").first
    assert not closed.is_visible()
    page.emulate_media(media="print")
    assert closed.is_visible()
    assert not page.locator("#cd_filters").is_visible()
    page.emulate_media(media="screen")


def test_screenshots_phone_width_dark_mode_and_chinese_glyphs(
    chromium: Browser, report: tuple[ReportContext, str]
) -> None:
    url = report[1]
    out = browser.artifact_dir()
    desktop = Opened(chromium, url, 1280)
    try:
        desktop.page.screenshot(path=out / "report-desktop-1280.png", full_page=True)
        _assert_chinese_glyphs(desktop)
    finally:
        desktop.context.close()
    for dark in (False, True):
        phone = Opened(chromium, url, 375, dark=dark)
        try:
            name = f"report-phone-375{'-dark' if dark else ''}.png"
            phone.page.screenshot(path=out / name, full_page=True)
            widths = phone.js("[document.documentElement.scrollWidth, innerWidth]")
            assert widths[0] <= 375, widths  # no horizontal scrolling of the page
            background = phone.js("getComputedStyle(document.body).backgroundColor")
            assert background == ("rgb(13, 17, 23)" if dark else "rgb(255, 255, 255)")
            wide = phone.js(
                "[...document.querySelectorAll('.table-wrap')]"
                ".filter((w) => w.scrollWidth > w.clientWidth).length"
            )
            assert wide >= 1  # the commit table scrolls inside its own box
        finally:
            phone.context.close()
    assert (out / "report-phone-375.png").stat().st_size > 10_000


def _assert_chinese_glyphs(view: Opened) -> None:
    """Chinese text is drawn with real glyphs, two independent ways.

    1. Chromium says which fonts drew the <h1> (DevTools ``CSS.getPlatformFontsForNode``):
       one of the CJK fonts of our stack must have drawn at least the six Chinese
       characters of the title.
    2. Each of "每日更新报告", drawn on a canvas in the page's font, differs from every
       other and from U+10FFFD, which no font maps: were the glyphs missing, all would
       be the same "tofu" box (pixel-identical), whatever its width.
    """
    assert view.page.locator("h1").text_content() == f"{CJK}（2026-01-13）"
    cdp = view.context.new_cdp_session(view.page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": "h1"})["nodeId"]
    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    cjk = [f for f in fonts if f["familyName"] in CJK_FAMILIES]
    assert cjk and sum(f["glyphCount"] for f in cjk) >= len(CJK), fonts
    images = view.js(
        """(chars) => chars.map((ch) => {
          const canvas = document.createElement('canvas');
          canvas.width = 48; canvas.height = 48;
          const g = canvas.getContext('2d');
          g.font = `32px ${getComputedStyle(document.querySelector('h1')).fontFamily}`;
          g.fillText(ch, 4, 36);
          return canvas.toDataURL();
        })""",
        [*CJK, MISSING],
    )
    assert len(set(images)) == len(CJK) + 1, "Chinese characters rendered as tofu"


def test_artifact_dir_honours_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMMITDIGEST_ARTIFACTS", str(tmp_path / "shots"))
    assert browser.artifact_dir() == tmp_path / "shots" and (tmp_path / "shots").is_dir()
