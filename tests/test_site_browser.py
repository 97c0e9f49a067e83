"""The archive in a real browser: served by our server on 127.0.0.1, browsed with
Debian's chromium through Playwright (one browser for the module, from :mod:`browser`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from browser import running_chromium
from serverthread import serving
from test_site import DAYS, VLLM, write_reports

from commitdigest.site import build_site, make_server
from commitdigest.site.summary import repo_slug

NEWEST = max(DAYS)


@pytest.fixture(scope="module")
def site_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("browser")
    write_reports(root / "reports")
    build_site(root / "reports", root / "site")
    server = make_server(root / "site", 0)
    with serving(server, poll_interval=0.05):
        yield f"http://127.0.0.1:{server.server_port}/"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with running_chromium() as chromium:
        yield chromium


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 375, "height": 740}, color_scheme="dark")
    try:
        yield context.new_page()
    finally:
        context.close()


def test_browse_index_to_report_and_back(page: Any, site_url: str) -> None:
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    problems: list[str] = []
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)

    page.goto(site_url)
    assert page.title() == "commitdigest · 每日更新报告"
    cards = page.locator("article.day")
    assert cards.count() == len(DAYS)
    assert cards.first.get_attribute("id") == f"d-{NEWEST}"
    # everything the index needed came from our server (no other host, not even a font)
    hosts = {urlsplit(url).netloc for url in requested}
    assert hosts == {urlsplit(site_url).netloc}, requested
    assert problems == []  # e.g. a Content-Security-Policy violation
    # the inline stylesheet applies (allowed by its hash), in dark mode, at 375 px
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(13, 17, 23)"
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    # the hostile title is shown as text
    assert page.locator("article.day script").count() == 0
    assert page.get_by_text('<script>alert("x")</script> 恶意标题').count() >= 1

    page.locator(f"#d-{NEWEST} h3 a").click()
    page.wait_for_url(f"{site_url}{NEWEST}.html")
    assert page.title().endswith(f"（{NEWEST}）")
    page.go_back()
    page.wait_for_url(site_url)
    assert page.title() == "commitdigest · 每日更新报告"


def test_top_change_and_repository_links_land_on_their_anchors(page: Any, site_url: str) -> None:
    page.goto(site_url)
    link = page.locator(f"#d-{NEWEST} ul.top a").first
    href = link.get_attribute("href")
    assert href is not None and href.startswith(f"{NEWEST}.html#")
    link.click()
    page.wait_for_url(site_url + href)
    anchor = href.split("#", 1)[1]
    assert page.locator(f"[id='{anchor}']").count() == 1

    page.goto(site_url + f"repos/{repo_slug(VLLM)}.html")
    assert page.title().startswith(VLLM)
    page.locator(f"#d-{NEWEST} h2 a").click()
    page.wait_for_url(f"{site_url}{NEWEST}.html#*")
    page.go_back()
    page.locator("p.back a").click()
    page.wait_for_url(f"{site_url}index.html")
    assert page.locator("article.day").count() == len(DAYS)
