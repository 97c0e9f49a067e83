"""The period's chart in a real browser: the weekly digest and the archive's index and
repository page, served by our server on 127.0.0.1 and browsed with Debian's chromium
through Playwright (:mod:`browser`). Each bar is a link to its day, named by its figures;
the picture has a title and a description; the numbers are a table for screen readers;
the pages' Content-Security-Policy lets it all through without a script."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import running_chromium
from serverthread import serving
from test_weekly import WEEK, week_repo
from typer.testing import CliRunner

from commitdigest.cli import app
from commitdigest.site import make_server
from commitdigest.site.summary import repo_slug

DAYS = [f"2026-03-0{d}" for d in range(2, 9)]
TITLE = "Commits per day by importance"


@pytest.fixture(scope="module")
def site_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("chart")
    week_repo(root / "repo")
    out, site = root / "out", root / "site"
    args = ["weekly", str(root / "repo"), "--week", WEEK, "--tz", "UTC", "--lang", "en"]
    args += ["--out", str(out), "--format", "md,json,html", "--home", str(root / "home")]
    runner = CliRunner()
    made = runner.invoke(app, args)
    assert made.exit_code == 0, made.output
    built = runner.invoke(app, ["site", "--reports", str(out), "--out", str(site)])
    assert built.exit_code == 0, built.output
    server = make_server(site, 0)
    with serving(server, poll_interval=0.05):
        yield f"http://127.0.0.1:{server.server_port}/"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with running_chromium() as chromium:
        yield chromium


@pytest.fixture(params=["light", "dark"])
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    context = browser.new_context(
        viewport={"width": 375, "height": 740}, color_scheme=request.param
    )
    try:
        new = context.new_page()
        problems: list[str] = []  # e.g. a Content-Security-Policy violation
        new.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
        yield new
        assert problems == []
    finally:
        context.close()


def check_chart(page: Any, hrefs: list[str]) -> Any:
    """The chart on ``page``: one figure; a bar per day linking to ``hrefs``; a title and
    a description; each bar named by its figures; the numbers as a table that the eye
    does not see and a screen reader does. Returns the figure."""
    figure = page.locator("figure.chart")
    assert figure.count() == 1
    svg = figure.locator("svg")
    # the text alternative: the picture's name and description, by id
    assert svg.get_attribute("aria-labelledby") and svg.get_attribute("aria-describedby")
    name = page.locator(f"[id='{svg.get_attribute('aria-labelledby')}']")
    assert name.text_content() == TITLE
    desc = page.locator(f"[id='{svg.get_attribute('aria-describedby')}']").text_content()
    assert desc == (
        "2026-03-02 to 2026-03-08 — commits: 4 (High 1, Medium 2, Low 1); days with "
        "breaking changes: 1."
    )
    bars = svg.locator("a.bar")
    assert [bars.nth(i).get_attribute("href") for i in range(bars.count())] == hrefs
    # every bar is a link named by its figures (its SVG <title>), the breaking day marked
    friday = page.get_by_role("link", name=re.compile(r"^2026-03-06 — commits: 1 \(High 1"))
    assert friday.count() == 1 and "breaking changes: 2" in (friday.text_content() or "")
    assert svg.locator("a.bar:has(path.breaking)").count() == 1
    assert svg.locator("a.bar:has(path.breaking)").get_attribute("href") == hrefs[4]
    # heights follow the figures: Monday's 2 commits twice Wednesday's 1
    monday = float(bars.nth(0).locator("rect.bar-medium").get_attribute("height") or 0)
    wednesday = float(bars.nth(2).locator("rect.bar-low").get_attribute("height") or 0)
    assert monday == pytest.approx(2 * wednesday) and monday > 0
    assert bars.nth(1).locator("rect[class^='bar-']").count() == 0  # Tuesday: none
    # the numbers as a table: in the accessibility tree, not on the screen
    table = page.get_by_role("table", name=TITLE)
    assert table.count() == 1
    box = figure.locator(".sr-only").bounding_box()
    assert box is not None and box["width"] <= 1 and box["height"] <= 1
    rows = table.locator("tbody tr")
    assert rows.count() == 7
    assert rows.nth(0).locator("th, td").all_text_contents() == [
        "2026-03-02",
        "2",
        "0",
        "2",
        "0",
        "0",
    ]
    assert rows.nth(4).locator("th, td").all_text_contents() == [
        "2026-03-06",
        "1",
        "1",
        "0",
        "0",
        "2",
    ]
    # drawn without a script: none on the page but the site's own search
    assert page.locator("figure.chart script").count() == 0
    return figure


def test_the_weekly_shows_the_week_as_a_chart(page: Any, site_url: str) -> None:
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    page.goto(f"{site_url}{WEEK}.html")
    figure = check_chart(page, [f"{day}.html" for day in DAYS])
    assert all(url.startswith(site_url) for url in requested), requested
    box = figure.locator("svg").bounding_box()  # the week fits a phone (its tables do not)
    assert box is not None and box["x"] + box["width"] <= 375
    # a bar takes the reader to its day
    page.locator("figure.chart a.bar").nth(4).click()
    page.wait_for_url(f"{site_url}2026-03-06.html")


def test_the_site_index_and_repository_page_show_the_period(page: Any, site_url: str) -> None:
    page.goto(site_url)
    figure = check_chart(page, [f"{day}.html" for day in DAYS])
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    # the stylesheet (allowed by its hash) colours the bars for the scheme
    fill = figure.locator("rect.bar-high").first.evaluate("e => getComputedStyle(e).fill")
    dark = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    assert fill == ("rgb(255, 123, 114)" if dark else "rgb(207, 34, 46)")
    figure.locator("a.bar").first.click()
    page.wait_for_url(f"{site_url}2026-03-02.html")

    page.goto(f"{site_url}repos/{repo_slug('repo')}.html")
    bars = page.locator("figure.chart a.bar")
    hrefs = [bars.nth(i).get_attribute("href") or "" for i in range(bars.count())]
    assert [h.split("#")[0] for h in hrefs] == [f"../{day}.html" for day in DAYS]
    bars.nth(4).click()
    page.wait_for_url(f"{site_url}2026-03-06.html#*")
    anchor = hrefs[4].split("#", 1)[1]
    assert page.locator(f"[id='{anchor}']").count() == 1


def test_the_chart_pages_keep_their_policy(site_url: str, tmp_path: Path) -> None:
    """Inline SVG needs nothing from the policy: no script, no 'unsafe-inline' style on
    the archive's pages (the chart uses presentation attributes, never style="…")."""
    from urllib.request import urlopen

    for path in ("", f"{WEEK}.html", f"repos/{repo_slug('repo')}.html"):
        with urlopen(site_url + path) as answer:
            text = answer.read().decode("utf-8")
        figure = text[text.index('<figure class="chart"') : text.index("</figure>")]
        assert " style=" not in figure and "<script" not in figure
        policy = re.search(r'Content-Security-Policy" content="([^"]+)"', text)
        assert policy is not None and "script-src" not in policy.group(1)
        if path != f"{WEEK}.html":  # the weekly page allows inline styles, as before
            assert "unsafe-inline" not in policy.group(1)
