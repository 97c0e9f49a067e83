"""The archive site: index, repository pages, report pages, Atom feed, incremental
rebuilds, the local server and the two commands."""

from __future__ import annotations

import base64
import hashlib
import html
import os
import re
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urlsplit

import feedparser
import pytest
import typer
from serverthread import serving
from test_render_markdown import day_window, make_analysis, make_commit, repo_input
from typer.testing import CliRunner

from commitdigest.cli.site import register
from commitdigest.errors import UsageError
from commitdigest.models import Importance, ReportContext
from commitdigest.render import build_context, render_json, render_markdown
from commitdigest.render.html import render_html
from commitdigest.site import build as site_build
from commitdigest.site import build_site, make_server
from commitdigest.site.feed import ATOM_NS, entry_id
from commitdigest.site.summary import repo_slug

H, M, L = Importance.HIGH, Importance.MEDIUM, Importance.LOW
VLLM, SGL = "vllm-project/vllm", "sgl-project/sglang"
HOSTILE = '<script>alert("x")</script> 恶意标题 (#106)'
# day -> repository -> [(title, importance)], newest first within a repository
DAYS: dict[str, dict[str, list[tuple[str, Importance]]]] = {
    "2026-01-12": {
        VLLM: [
            ("[Bugfix] 修复调度器死锁 (#101)", H),
            ("[Feature] 新增 FP8 支持 (#102)", M),
            ("docs: 更新文档 (#103)", L),
        ],
        SGL: [("[Perf] faster prefill (#7)", M)],
    },
    "2026-01-13": {  # no high change: the index shows the medium ones
        VLLM: [("重构 KV 缓存 (#104)", M), ("[Misc] 清理代码 (#105)", M), ("ci: 更新 (#99)", L)],
    },
    "2026-01-14": {
        VLLM: [(HOSTILE, H), ("[Bugfix] 修复内存泄漏 (#107)", H)],
        SGL: [("ci: bump runner (#8)", L)],
    },
}
NEW_DAY = ("2026-01-15", {SGL: [("[Bugfix] fix router crash (#9)", H)]})


def make_context(
    day: str, repos: dict[str, list[tuple[str, Importance]]], lang: str = "zh"
) -> ReportContext:
    start = datetime.fromisoformat(day).replace(tzinfo=UTC)
    inputs = []
    for name, rows in repos.items():
        commits = [
            make_commit(title, start + timedelta(hours=10 - i), repo=name)
            for i, (title, _) in enumerate(rows)
        ]
        analyses = {c.sha: make_analysis(imp) for c, (_, imp) in zip(commits, rows, strict=True)}
        inputs.append(repo_input(commits, name=name, analyses=analyses))
    generated = start + timedelta(days=1, hours=1)
    return build_context(inputs, day_window(day), lang=lang, generated_at=generated)


def write_report(folder: Path, ctx: ReportContext) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    day = ctx.window.label
    (folder / f"{day}.json").write_text(render_json(ctx), encoding="utf-8")
    (folder / f"{day}.md").write_text(render_markdown(ctx), encoding="utf-8")


def write_reports(folder: Path, lang: str = "zh") -> dict[str, ReportContext]:
    contexts = {day: make_context(day, repos, lang) for day, repos in DAYS.items()}
    for ctx in contexts.values():
        write_report(folder, ctx)
    return contexts


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.srcs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "a" and values.get("href"):
            self.hrefs.append(values["href"] or "")
        if values.get("src"):
            self.srcs.append(values["src"] or "")
        if values.get("id"):
            self.ids.add(values["id"] or "")


def links(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def day_order(index: str) -> list[str]:
    return re.findall(r'<article class="day" id="d-(\d{4}-\d{2}-\d{2})">', index)


def card(page: str, day: str) -> str:
    """One day's card of an index or repository page."""
    start = page.index(f'id="d-{day}"')
    return page[start : page.index("</article>", start)]


def counts_of(card_html: str) -> tuple[int, int, int]:
    found = re.findall(r"class=\"imp imp-(\w+)[^\"]*\">[^<]* (\d+)</span>", card_html)
    counts = {imp: int(n) for imp, n in found}
    return counts["high"], counts["medium"], counts["low"]


def anchor_of(ctx: ReportContext, title: str) -> str:
    return next(c.anchor for r in ctx.repositories for c in r.commits if c.title == title)


@pytest.fixture
def built(tmp_path: Path) -> tuple[Path, Path, dict[str, ReportContext]]:
    reports, site = tmp_path / "reports", tmp_path / "site"
    contexts = write_reports(reports)
    build_site(reports, site, base_url="https://example.github.io/digest")
    return reports, site, contexts


# ---- the pages ------------------------------------------------------------------------


def test_index_lists_days_newest_first_with_counts_and_top_changes(
    built: tuple[Path, Path, dict[str, ReportContext]],
) -> None:
    _, site, contexts = built
    index = (site / "index.html").read_text(encoding="utf-8")
    assert day_order(index) == ["2026-01-14", "2026-01-13", "2026-01-12"]
    assert counts_of(card(index, "2026-01-12")) == (1, 2, 1)
    assert counts_of(card(index, "2026-01-13")) == (0, 2, 1)
    assert counts_of(card(index, "2026-01-14")) == (2, 0, 1)
    assert "4 个提交" in card(index, "2026-01-12")
    # top changes: the high ones; a day without any shows its medium ones
    day14, day13 = card(index, "2026-01-14"), card(index, "2026-01-13")
    ctx14, ctx13 = contexts["2026-01-14"], contexts["2026-01-13"]
    assert f'href="2026-01-14.html#{anchor_of(ctx14, "[Bugfix] 修复内存泄漏 (#107)")}"' in day14
    assert f'href="2026-01-14.html#{anchor_of(ctx14, HOSTILE)}"' in day14
    assert "ci: bump runner" not in day14
    assert f'href="2026-01-13.html#{anchor_of(ctx13, "重构 KV 缓存 (#104)")}"' in day13
    assert "[Misc] 清理代码 (#105)" in day13 and "ci: 更新" not in day13
    # the hostile title is text, never markup
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; 恶意标题" in day14
    assert '<html lang="zh-CN">' in index and '<h2 id="reports-heading">报告</h2>' in index


def test_repository_pages_list_their_days_with_counts_and_anchored_links(
    built: tuple[Path, Path, dict[str, ReportContext]],
) -> None:
    _, site, contexts = built
    sgl = (site / "repos" / f"{repo_slug(SGL)}.html").read_text(encoding="utf-8")
    vllm = (site / "repos" / f"{repo_slug(VLLM)}.html").read_text(encoding="utf-8")
    assert sorted(p.name for p in (site / "repos").iterdir()) == sorted(
        f"{repo_slug(name)}.html" for name in (SGL, VLLM)
    )
    assert day_order(sgl) == ["2026-01-14", "2026-01-12"]  # not on the 13th
    assert day_order(vllm) == ["2026-01-14", "2026-01-13", "2026-01-12"]
    anchor = contexts["2026-01-12"].repositories[1].anchor
    assert f'href="../2026-01-12.html#{anchor}"' in card(sgl, "2026-01-12")
    assert counts_of(card(sgl, "2026-01-12")) == (0, 1, 0)
    assert counts_of(card(vllm, "2026-01-12")) == (1, 1, 1)
    assert "2 份报告 · 2 个提交" in sgl and "8 个提交" in vllm
    assert 'href="https://github.com/sgl-project/sglang"' in sgl
    assert 'href="../index.html"' in sgl
    assert "<script" not in vllm.lower() and "&lt;script&gt;" in vllm
    index = (site / "index.html").read_text(encoding="utf-8")
    assert f'href="repos/{repo_slug(SGL)}.html"' in index


def test_report_pages_and_copies(built: tuple[Path, Path, dict[str, ReportContext]]) -> None:
    reports, site, contexts = built
    for day, ctx in contexts.items():
        page = render_html(ctx, site_root="")  # with the archive's search form
        assert (site / f"{day}.html").read_text(encoding="utf-8") == page
        for ext in ("md", "json"):
            assert (site / f"{day}.{ext}").read_bytes() == (reports / f"{day}.{ext}").read_bytes()
    assert (site / ".nojekyll").read_bytes() == b""


def test_every_link_is_relative_and_lands_on_a_file_and_anchor(
    built: tuple[Path, Path, dict[str, ReportContext]],
) -> None:
    _, site, _ = built
    pages = [site / "index.html", *sorted((site / "repos").iterdir())]
    checked = 0
    for page in pages:
        found = links(page)
        assert found.srcs == []  # nothing loaded from anywhere
        text = page.read_text(encoding="utf-8")
        assert re.findall(r"<link [^>]*>", text) == [
            '<link rel="alternate" type="application/atom+xml" href="'
            f'{"../" if page.parent.name == "repos" else ""}feed.xml" '
            'title="commitdigest · 每日更新报告">'
        ]
        for href in found.hrefs:
            if href.startswith("https://github.com/"):  # the upstream repository
                continue
            assert not urlsplit(href).scheme and not href.startswith("/"), href
            target, fragment = urldefrag(href)
            path = (page.parent / target).resolve()
            assert path.is_file(), href
            if fragment:
                assert fragment in links(path).ids, href
            checked += 1
    assert checked > 30


def test_pages_allow_only_their_own_stylesheet(
    built: tuple[Path, Path, dict[str, ReportContext]],
) -> None:
    _, site, _ = built
    index = (site / "index.html").read_text(encoding="utf-8")
    css = index.split("<style>", 1)[1].split("</style>", 1)[0]
    digest = base64.b64encode(hashlib.sha256(css.encode("utf-8")).digest()).decode()
    meta = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', index)
    assert meta is not None
    assert html.unescape(meta[1]).startswith(f"default-src 'none'; style-src 'sha256-{digest}';")
    assert "prefers-color-scheme:dark" in css and "WenQuanYi Micro Hei" in css
    assert 'name="viewport" content="width=device-width, initial-scale=1"' in index


def test_english_reports_make_an_english_site(tmp_path: Path) -> None:
    write_reports(tmp_path / "reports", lang="en")
    build_site(tmp_path / "reports", tmp_path / "site", title="Upstream <watch>")
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="en">' in index and ">Reports</h2>" in index
    assert "<title>Upstream &lt;watch&gt;</title>" in index
    assert "🔴 High 1" in card(index, "2026-01-12") and "4 commits" in index
    sgl = (tmp_path / "site" / "repos" / f"{repo_slug(SGL)}.html").read_text(encoding="utf-8")
    assert "1 commit<" in card(sgl, "2026-01-12")


def test_markdown_only_days_are_links_and_bad_json_is_skipped(tmp_path: Path) -> None:
    reports = tmp_path / "reports"
    write_reports(reports)
    (reports / "2026-01-10.md").write_text("# 旧报告\n", encoding="utf-8")
    (reports / "2026-01-11.json").write_text("{not json", encoding="utf-8")
    (reports / "2026-01-11.md").write_text("# 坏的 JSON\n", encoding="utf-8")
    (reports / "2026-01-09.json").write_text('{"lang": "zh"}', encoding="utf-8")
    for name in ("notes.json", "2026-13-45.json", "2026-01-08.txt"):
        (reports / name).write_text("{}", encoding="utf-8")
    result = build_site(reports, tmp_path / "site")
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert day_order(index) == [
        "2026-01-14",
        "2026-01-13",
        "2026-01-12",
        "2026-01-11",
        "2026-01-10",
    ]
    assert '<h3><a href="2026-01-10.md">2026-01-10</a></h3>' in index
    assert "仅有 Markdown 版本" in card(index, "2026-01-11")
    assert not (tmp_path / "site" / "2026-01-11.html").exists()
    assert not (tmp_path / "site" / "2026-01-09.json").exists()
    warned = "\n".join(result.warnings)
    assert "2026-01-11.json skipped: invalid JSON report context" in warned
    assert "2026-01-09.json skipped: invalid report context" in warned
    assert "2026-01-10: no usable JSON context" in warned
    assert "relative links" in warned  # no --base-url
    assert len(feedparser.parse((tmp_path / "site" / "feed.xml").read_bytes()).entries) == 3


def test_bad_arguments_are_usage_errors(tmp_path: Path) -> None:
    write_reports(tmp_path / "reports")
    for url in ("example.com", "ftp://example.com/", "https://example.com/?q=1"):
        with pytest.raises(UsageError, match="--base-url"):
            build_site(tmp_path / "reports", tmp_path / "site", base_url=url)
    with pytest.raises(UsageError, match="must not be the reports folder"):
        build_site(tmp_path / "reports", tmp_path / "reports")
    with pytest.raises(UsageError, match="does not exist"):
        build_site(tmp_path / "missing", tmp_path / "site")


# ---- incremental rebuilds ------------------------------------------------------------


OLD_NS = 1_600_000_000 * 10**9  # a recognisable modification time


def age_all(site: Path) -> dict[str, bytes]:
    """Every file's bytes, after setting every mtime to OLD_NS."""
    files = {}
    for path in site.rglob("*"):
        if path.is_file():
            os.utime(path, ns=(OLD_NS, OLD_NS))
            files[path.relative_to(site).as_posix()] = path.read_bytes()
    return files


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The report days render_html is called for."""
    calls: list[str] = []

    def counting(ctx: ReportContext, **options: Any) -> str:
        calls.append(ctx.window.label)
        return render_html(ctx, **options)

    monkeypatch.setattr(site_build, "render_html", counting)
    return calls


def test_adding_a_day_rewrites_only_what_it_changes(tmp_path: Path, renders: list[str]) -> None:
    reports, site = tmp_path / "reports", tmp_path / "site"
    write_reports(reports)
    first = build_site(reports, site, base_url="https://example.github.io/digest/")
    assert first.unchanged == 0 and len(first.written) == 21 and sorted(renders) == list(DAYS)
    assert first.summary() == "21 written, 0 unchanged"
    before = age_all(site)
    renders.clear()

    write_report(reports, make_context(*NEW_DAY))
    second = build_site(reports, site, base_url="https://example.github.io/digest/")
    new_day = NEW_DAY[0]
    assert sorted(second.written) == sorted(
        [
            "index.html",
            "feed.xml",
            f"repos/{repo_slug(SGL)}.html",
            f"{new_day}.html",
            f"{new_day}.json",
            f"{new_day}.md",
            f"search/{new_day}.json",  # the day's search records, and the index made again
            "search-data.js",
            "pagefind/",
        ]
    )
    assert second.unchanged == 16 and second.removed == ()
    assert second.summary() == "9 written, 16 unchanged"
    assert renders == [new_day]  # old reports are neither loaded nor rendered again
    for name, data in before.items():
        if name in second.written or name == ".manifest.json" or name.startswith("pagefind/"):
            continue
        assert (site / name).read_bytes() == data, name
        assert (site / name).stat().st_mtime_ns == OLD_NS, name
    assert day_order((site / "index.html").read_text(encoding="utf-8"))[0] == new_day

    renders.clear()
    third = build_site(reports, site, base_url="https://example.github.io/digest/")
    assert third.written == () and third.unchanged == 24 and renders == []


def test_a_rerun_day_changes_its_page_and_a_removed_day_its_outputs(tmp_path: Path) -> None:
    reports, site = tmp_path / "reports", tmp_path / "site"
    write_reports(reports)
    build_site(reports, site)
    age_all(site)
    # the 13th is reported again with one more commit
    redo = {VLLM: [*DAYS["2026-01-13"][VLLM], ("[Bugfix] 新问题 (#110)", H)]}
    write_report(reports, make_context("2026-01-13", redo))
    result = build_site(reports, site)
    assert sorted(result.written) == sorted(
        ["index.html", "feed.xml", f"repos/{repo_slug(VLLM)}.html"]
        + [f"2026-01-13.{ext}" for ext in ("html", "json", "md")]
        + ["search/2026-01-13.json", "search-data.js", "pagefind/"]
    )
    # the 12th disappears from the reports: its files go, nothing else of ours stays
    for ext in ("json", "md"):
        (reports / f"2026-01-12.{ext}").unlink()
    (site / "mine.txt").write_text("not the site's", encoding="utf-8")
    result = build_site(reports, site)
    assert result.removed == (
        *(f"2026-01-12.{ext}" for ext in ("html", "json", "md")),
        "search/2026-01-12.json",
    )
    assert not list(site.glob("2026-01-12.*")) and (site / "mine.txt").exists()
    assert day_order((site / "index.html").read_text(encoding="utf-8")) == [
        "2026-01-14",
        "2026-01-13",
    ]


def test_damaged_outputs_and_manifest_are_repaired_without_needless_writes(
    tmp_path: Path, renders: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    reports, site = tmp_path / "reports", tmp_path / "site"
    write_reports(reports)
    build_site(reports, site)
    (site / "2026-01-12.html").unlink()
    (site / "2026-01-13.json").write_text("edited", encoding="utf-8")
    renders.clear()
    result = build_site(reports, site)
    assert sorted(result.written) == ["2026-01-12.html", "2026-01-13.json"]
    assert sorted(renders) == ["2026-01-12", "2026-01-13"]
    # an unreadable manifest, or another renderer: everything is rendered, nothing rewritten
    (site / ".manifest.json").write_text("{", encoding="utf-8")
    renders.clear()
    assert build_site(reports, site).written == () and sorted(renders) == list(DAYS)
    monkeypatch.setattr(site_build, "generator_fingerprint", lambda: "another renderer")
    renders.clear()
    assert build_site(reports, site).written == () and sorted(renders) == list(DAYS)


def test_manifest_paths_outside_the_site_are_never_deleted(tmp_path: Path) -> None:
    reports, site = tmp_path / "reports", tmp_path / "site"
    write_reports(reports)
    build_site(reports, site)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me", encoding="utf-8")
    manifest = site_build.load_manifest(site)
    manifest.pages["../victim.txt"] = "0" * 64
    manifest.pages[str(victim)] = "0" * 64
    (site / ".manifest.json").write_text(manifest.model_dump_json(), encoding="utf-8")
    build_site(reports, site)
    assert victim.read_text(encoding="utf-8") == "keep me"


# ---- the feed ------------------------------------------------------------------------


def test_feed_is_valid_atom_with_one_entry_per_day(
    built: tuple[Path, Path, dict[str, ReportContext]],
) -> None:
    reports, site, contexts = built
    data = (site / "feed.xml").read_bytes()
    root = ET.fromstring(data)  # well-formed
    assert root.tag == f"{{{ATOM_NS}}}feed"
    feed = feedparser.parse(data)
    assert feed.bozo == 0, feed.get("bozo_exception")
    assert feed.feed.title == "commitdigest · 每日更新报告"
    assert [link.href for link in feed.feed.links] == [
        "https://example.github.io/digest/index.html",
        "https://example.github.io/digest/feed.xml",
    ]
    days = ["2026-01-14", "2026-01-13", "2026-01-12"]
    titles = [e.title for e in feed.entries]
    assert all(t.split(" · ")[1].startswith(d) for t, d in zip(titles, days, strict=True))
    assert all("个提交" in t and "个高重要度" in t for t in titles)  # repositories and counts
    assert titles[0].startswith("vllm-project/vllm, sgl-project/sglang · 2026-01-14：3 个提交")
    assert [e.link for e in feed.entries] == [
        f"https://example.github.io/digest/{d}.html" for d in days
    ]
    ids = [e.id for e in feed.entries]
    assert len(set(ids)) == 3 and all(i.startswith("urn:uuid:") for i in ids)
    assert ids[0] == entry_id("https://example.github.io/digest/", "2026-01-14")
    for entry, day in zip(feed.entries, days, strict=True):
        generated = contexts[day].generated_at.astimezone(UTC)
        assert entry.updated == generated.strftime("%Y-%m-%dT%H:%M:%SZ")
        assert tuple(entry.updated_parsed[:6]) == generated.timetuple()[:6]
    summary = root.find(f"{{{ATOM_NS}}}entry/{{{ATOM_NS}}}summary")
    assert summary is not None and summary.text is not None
    assert summary.text.splitlines() == [
        "3 个提交 · 🔴 高 2 · 🟡 中 0 · 🟢 低 1",
        f"- {HOSTILE}（{VLLM}）",
        f"- [Bugfix] 修复内存泄漏 (#107)（{VLLM}）",
    ]
    assert b"<script>" not in data
    # ids stay the same when the site is rebuilt with a new day
    write_report(reports, make_context(*NEW_DAY))
    build_site(reports, site, base_url="https://example.github.io/digest")
    again = feedparser.parse((site / "feed.xml").read_bytes())
    assert [e.id for e in again.entries][1:] == ids and len(again.entries) == 4
    # a day reported again keeps the time it was first published
    updated = {e.id: e.updated for e in again.entries}
    rerun = contexts["2026-01-13"].model_copy(
        update={"generated_at": contexts["2026-01-13"].generated_at + timedelta(days=3)}
    )
    write_report(reports, rerun)
    build_site(reports, site, base_url="https://example.github.io/digest")
    later = feedparser.parse((site / "feed.xml").read_bytes())
    assert {e.id: e.updated for e in later.entries} == updated


def test_feed_without_base_url_is_well_formed_with_relative_links(tmp_path: Path) -> None:
    write_reports(tmp_path / "reports")
    result = build_site(tmp_path / "reports", tmp_path / "site")
    data = (tmp_path / "site" / "feed.xml").read_bytes()
    root = ET.fromstring(data)
    hrefs = [link.get("href") for link in root.iter(f"{{{ATOM_NS}}}link")]
    assert hrefs == ["index.html", "2026-01-14.html", "2026-01-13.html", "2026-01-12.html"]
    assert feedparser.parse(data).bozo == 0
    assert b"built with a base URL" in data and any("--base-url" in w for w in result.warnings)


def test_feed_of_an_empty_folder(tmp_path: Path) -> None:
    (tmp_path / "reports").mkdir()
    result = build_site(tmp_path / "reports", tmp_path / "site", base_url="https://x.test/")
    assert result.days == 0
    feed = feedparser.parse((tmp_path / "site" / "feed.xml").read_bytes())
    assert feed.bozo == 0 and feed.entries == []
    assert "还没有报告。" in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")


# ---- the server ----------------------------------------------------------------------


@pytest.fixture
def server(
    built: tuple[Path, Path, dict[str, ReportContext]],
) -> Iterator[str]:
    httpd = make_server(built[1], 0)
    with serving(httpd, poll_interval=0.05):
        yield f"http://127.0.0.1:{httpd.server_port}/"


def fetch(url: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.headers["Content-Type"], response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers["Content-Type"], b""


def test_server_serves_the_site_on_loopback(
    server: str, built: tuple[Path, Path, dict[str, ReportContext]]
) -> None:
    site = built[1]
    status, kind, body = fetch(server)
    assert (status, kind) == (200, "text/html; charset=utf-8")
    assert body == (site / "index.html").read_bytes()
    assert fetch(server + "2026-01-14.md")[1] == "text/markdown; charset=utf-8"
    assert fetch(server + "2026-01-14.json")[1] == "application/json"
    assert fetch(server + "repos/" + repo_slug(VLLM) + ".html")[0] == 200
    assert fetch(server + "nope.html")[0] == 404
    assert fetch(server + "../reports/2026-01-14.json")[0] == 404


def test_server_errors_are_usage_errors(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="no site at"):
        make_server(tmp_path / "missing", 0)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        with pytest.raises(UsageError, match=r"cannot listen on 127\.0\.0\.1"):
            make_server(tmp_path, taken.getsockname()[1])


def test_ctrl_c_stops_the_server_cleanly(tmp_path: Path) -> None:
    code = (  # Ctrl-C's handler, unblocked, whatever SIGINT state the test run passes on
        "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
        "signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT}); "
        "from pathlib import Path; from commitdigest.site import serve; "
        "serve(Path(sys.argv[1]), 0, on_ready=lambda url: print(url, flush=True)); "
        "print('returned', flush=True)"
    )
    (tmp_path / "index.html").write_text("<p>hi</p>", encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", url), url
        assert fetch(url)[2] == b"<p>hi</p>"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)  # a loaded 2-core runner is slow
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()  # closes the pipes
    assert proc.returncode == 0 and out == "returned\n" and "Traceback" not in err
    with pytest.raises(OSError):
        urllib.request.urlopen(url, timeout=2)


# ---- the commands --------------------------------------------------------------------


def commands() -> typer.Typer:
    app = typer.Typer()
    register(app)
    return app


def run_cli(args: Sequence[str]) -> tuple[int, str, str]:
    result = CliRunner().invoke(commands(), list(args))
    return result.exit_code, result.stdout, result.stderr


def test_site_command_builds_and_reports_counts(tmp_path: Path) -> None:
    write_reports(tmp_path / "reports")
    args = ["site", "--out", str(tmp_path / "site"), "--reports", str(tmp_path / "reports")]
    args += ["--title", "上游"]
    code, out, err = run_cli([*args, "--base-url", "https://x.test/d"])
    assert code == 0, err
    assert out == f"{tmp_path / 'site'}: 3 days; 21 written, 0 unchanged\n" and err == ""
    assert "<title>上游</title>" in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    code, out, err = run_cli(args)  # no base URL: the feed's links change, with a warning
    assert code == 0 and out.endswith("1 written, 19 unchanged\n")
    assert err.startswith("warning: feed.xml has relative links")
    code, out, err = run_cli([*args, "--base-url", "example.com"])
    assert code == 2 and err.startswith("error: --base-url must be an absolute http(s) URL")


def test_site_command_reads_the_reports_folder_from_the_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COMMITDIGEST_HOME", str(tmp_path / "home"))
    (tmp_path / "commitdigest.toml").write_text('output_dir = "daily"\n', encoding="utf-8")
    write_reports(tmp_path / "daily")
    code, out, err = run_cli(["site"])
    assert code == 0, err
    assert (tmp_path / "site" / "2026-01-14.html").is_file() and out.startswith("site: 3 days")


def test_serve_command_without_a_site_is_a_usage_error(tmp_path: Path) -> None:
    code, _, err = run_cli(["serve", "--dir", str(tmp_path / "none"), "--port", "0"])
    assert code == 2 and err.startswith("error: no site at")


def test_quiet_days_collapse_and_the_feed_has_only_days_with_commits(tmp_path: Path) -> None:
    reports, site = tmp_path / "reports", tmp_path / "site"
    busy = {VLLM: [("[Bugfix] fix a leak (#1)", H)]}
    write_report(reports, make_context("2026-02-01", busy, "en"))
    for day in ("2026-02-02", "2026-02-03", "2026-02-04"):
        write_report(reports, make_context(day, {VLLM: []}, "en"))
    write_report(reports, make_context("2026-02-05", busy, "en"))
    write_report(reports, make_context("2026-02-06", {VLLM: []}, "en"))
    build_site(reports, site, base_url="https://example.org/d")
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "No commits on 3 days (2026-02-02 – 2026-02-04)" in index
    assert "No commits on 2026-02-06" in index
    assert 'id="d-2026-02-03"' not in index and 'id="d-2026-02-05"' in index
    [repo_page] = (site / "repos").glob("*.html")
    page = repo_page.read_text(encoding="utf-8")
    assert "No commits on 3 days (2026-02-02 – 2026-02-04)" in page
    feed = feedparser.parse((site / "feed.xml").read_bytes())
    assert [e.title for e in feed.entries] == [
        f"{VLLM} · 2026-02-05: 1 commit, 1 high",
        f"{VLLM} · 2026-02-01: 1 commit, 1 high",
    ]
