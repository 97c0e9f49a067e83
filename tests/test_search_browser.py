"""Search across the archive in Chromium: from file:// (the records script) and served on
127.0.0.1 (the Pagefind index) — a word only one commit of an old day has is found from the
search box of a page, the hit lands on that commit's open section; filters narrow it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import running_chromium
from gitfixture import CommitSpec, build_repo
from serverthread import serving
from typer.testing import CliRunner

from commitdigest.cli import app
from commitdigest.site import make_server

runner = CliRunner()
WORD = "quetzalcoatl"  # in one commit of the oldest day, and nowhere else


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("search")
    repo = root / "repo"
    specs = [
        CommitSpec(f"feat: routine change {i}", f"2026-03-0{2 + i % 4}T1{i % 9}:00:00+00:00",
                   files={f"src/m{i}.py": f"X = {i}\n"})
        for i in range(12)
    ]  # fmt: skip
    specs.insert(
        0,
        CommitSpec("fix: the <b>tricky</b> parser", "2026-03-02T08:00:00+00:00",
                   files={f"src/{WORD}/parser.py": "P = 1\n"}),
    )  # fmt: skip
    build_repo(repo, specs)
    out = root / "out"
    args = ["report", str(repo), "--since", "2026-03-02", "--until", "2026-03-06", "--tz", "UTC"]
    made = runner.invoke(app, [*args, "--format", "md,json", "--out", str(out), "--lang", "en",
                               "--home", str(root / "home")])  # fmt: skip
    assert made.exit_code == 0, made.stderr
    built = runner.invoke(app, ["site", "--reports", str(out), "--out", str(root / "site")])
    assert built.exit_code == 0, built.stderr
    assert (root / "site" / "pagefind" / "pagefind.js").is_file()
    return root / "site"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with running_chromium() as chromium:
        yield chromium


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    try:
        yield context.new_page()
    finally:
        context.close()


def _search_and_land(page: Any, start: str) -> None:
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    missing: list[str] = []
    page.on("response", lambda r: missing.append(r.url) if r.status >= 400 else None)
    page.goto(start)
    box = page.locator(".site-search input[name=q]")
    box.fill(WORD)
    box.press("Enter")
    page.wait_for_selector("#cd_results li")
    hits = page.locator("#cd_results li a")
    assert hits.count() == 1
    assert hits.first.inner_text() == "fix: the <b>tricky</b> parser"  # text, not markup
    assert page.locator("#cd_results b").count() == 0
    hits.first.click()
    page.wait_for_url("**/2026-03-02.html#*")
    anchor = page.evaluate("location.hash.slice(1)")
    opened = page.evaluate(f"document.getElementById({anchor!r}).open")
    assert opened is True
    assert page.locator(f"[id='{anchor}'] h3").inner_text() == "fix: the <b>tricky</b> parser"
    missing = [url for url in missing if not url.endswith("/favicon.ico")]  # the browser's
    assert missing == []
    assert [p for p in problems if "Failed to load resource" not in p or missing] == []


def test_search_from_file_urls(page: Any, site: Path) -> None:
    _search_and_land(page, (site / "index.html").as_uri())


def test_search_served_uses_the_pagefind_index(page: Any, site: Path) -> None:
    server = make_server(site, 0)
    with serving(server, poll_interval=0.05):
        base = f"http://127.0.0.1:{server.server_port}/"
        requested: list[str] = []
        page.on("request", lambda r: requested.append(r.url))
        _search_and_land(page, base + "2026-03-05.html")  # from a report page's search form
        assert any("/pagefind/pagefind.js" in url for url in requested)
        # filters: no high-importance commit has the word; every kind narrows to one
        page.goto(base + f"search.html?q={WORD}&importance=high")
        page.wait_for_function("document.getElementById('cd_status').textContent.length > 0")
        page.wait_for_timeout(300)
        assert page.locator("#cd_results li").count() == 0
        page.goto(base + "search.html?q=routine")
        page.wait_for_selector("#cd_results li")
        assert page.locator("#cd_results li").count() == 12
