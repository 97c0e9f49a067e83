"""The HTML report without a browser: structure, anchors, parity with the Markdown,
escaping of hostile text, self-containment (CSP, no external resources), determinism.

The page is parsed with :mod:`html.parser` into a small tree (:func:`parse`); the tree
builder insists that every element is closed where it was opened, so a title that
smuggled markup in would show up as an unknown element or a nesting error.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from html.parser import HTMLParser

import mdcheck
import pytest
from hypothesis import HealthCheck, given, settings
from test_mdtext import HOSTILE, free_text
from test_render_markdown import (
    GENERATED,
    SHANGHAI,
    day_window,
    make_analysis,
    make_commit,
    repo_input,
    sections,
    seed_context,
)

from commitdigest.models import (
    Analysis,
    AnalysisStatus,
    ChangeType,
    Commit,
    Importance,
    Insight,
    Overview,
    ReportContext,
    Risk,
    Usage,
)
from commitdigest.render import build_context, get_labels, load_context, render_json
from commitdigest.render.html import render_html
from commitdigest.render.htmltext import SafeMarkdown
from commitdigest.render.markdown import render_markdown
from commitdigest.render.view import format_cost
from commitdigest.text import clean_line

WHEN = datetime(2026, 1, 13, 12, tzinfo=SHANGHAI)
XSS_IMG = '<img src=x onerror="window.__xss=1">'
XSS_SCRIPT = '"><script>window.__xss=1</script>'
XSS_LINK = "[x](javascript:window.__xss=1)"

# ---- a small DOM ------------------------------------------------------------------------

VOID = frozenset({"meta", "br", "input", "hr", "img", "link", "wbr", "col", "source", "area"})
# every element the page may contain: the template's, and markdown-it's for model text
_TAGS = """html head meta title style body header p span details summary output form fieldset
legend label input select option button main br section h1 h2 h3 h4 div table thead tbody tr
th td a ul ol li strong em code pre script bdi"""
ALLOWED_TAGS = frozenset(_TAGS.split())


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    parent: Node | None = None
    children: list[Node | str] = field(default_factory=list)

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def iter(self) -> Iterator[Node]:
        for child in self.children:
            if isinstance(child, Node):
                yield child
                yield from child.iter()

    def all(self, tag: str | None = None, cls: str | None = None) -> list[Node]:
        return [
            n
            for n in self.iter()
            if (tag is None or n.tag == tag) and (cls is None or cls in n.classes)
        ]

    def one(self, tag: str | None = None, cls: str | None = None) -> Node:
        found = self.all(tag, cls)
        assert len(found) == 1, (tag, cls, len(found))
        return found[0]

    @property
    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {})
        self.current = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = [name for name, _ in attrs]
        assert len(names) == len(set(names)), f"duplicate attribute in <{tag}>"
        node = Node(tag, {k: v or "" for k, v in attrs}, self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        assert tag in VOID, f"<{tag} /> is not a void element"
        self.current.children.append(Node(tag, {k: v or "" for k, v in attrs}, self.current))

    def handle_endtag(self, tag: str) -> None:
        assert tag not in VOID, f"</{tag}>"
        assert self.current.tag == tag, f"</{tag}> closes <{self.current.tag}>"
        assert self.current.parent is not None
        self.current = self.current.parent

    def handle_data(self, data: str) -> None:
        self.current.children.append(data)


def parse(page: str) -> Node:
    builder = _Builder()
    builder.feed(page)
    builder.close()
    assert builder.current is builder.root, f"<{builder.current.tag}> is never closed"
    return builder.root


# ---- contexts ---------------------------------------------------------------------------


def _usage(cost: float | None = 0.0042) -> Usage:
    return Usage(prompt_tokens=1500, completion_tokens=400, calls=1, cost=cost)


def _analysis(
    importance: Importance, change_type: ChangeType, summary: str, **kw: object
) -> Analysis:
    fields: dict[str, object] = {
        "impact": ["`vllm/core/scheduler.py`", "调度器与执行器之间的接口"],
        "insights": [
            Insight(dimension="architecture", text="调度逻辑从执行器中**拆分**出来"),
            Insight(dimension="performance", text="长提示的首 token 延迟下降约 20%"),
        ],
        "risks": [
            Risk(
                risk="旧配置不再生效",
                effect="升级后吞吐下降",
                mitigation="检查 `vllm/model_executor/layers/fused_moe/fused_moe_triton.py`",
            )
        ],
        "recommendations": ["升级前在预发环境中压测"],
        "analyser": "llm",
        "analyser_version": "qwen3-32b",
        "notes": ["标题带有 [Core] 标签"],
        "usage": _usage(),
    }
    fields.update(kw)
    return Analysis(
        change_type=change_type,
        importance=importance,
        summary=summary,
        **fields,
    )


def rich_context(lang: str = "zh") -> ReportContext:
    """Two repositories, Chinese text, every importance, a fallback, an overview, a cost
    line, and one commit whose title, body, author, labels and analysis carry XSS."""
    H, M, L = Importance.HIGH, Importance.MEDIUM, Importance.LOW
    vllm: list[tuple[str, Analysis]] = [
        (
            "[Core] 重构调度器以支持分块预填充 (#32001)",
            _analysis(H, ChangeType.FEATURE, "调度器现在支持**分块预填充**，长提示不再阻塞解码。"),
        ),
        (
            "[Bugfix] 修复 KV 缓存在抢占后的泄漏 (#32002)",
            _analysis(
                H,
                ChangeType.BUGFIX,
                "抢占后释放的块重新回到空闲列表。",
                analyser="rules",
                status=AnalysisStatus.FALLBACK,
                notes=["模型输出被截断（finish_reason=length）", "标题带有 [Bugfix] 标签"],
                usage=None,
            ),
        ),
        (
            "[Perf] 优化注意力内核的内存访问 (#32003)",
            _analysis(
                M, ChangeType.PERFORMANCE, "合并访存，减少寄存器压力。\n\n- 第一点\n- 第二点"
            ),
        ),
        (
            "[Doc] 更新安装文档 (#32004)",
            _analysis(L, ChangeType.DOCUMENTATION, "补充 ROCm 安装步骤。"),
        ),
        (
            f"{XSS_IMG} {XSS_SCRIPT} (#32005)",
            _analysis(
                H,
                ChangeType.SECURITY,
                f"{XSS_LINK} {XSS_IMG} {XSS_SCRIPT}",
                impact=[XSS_LINK, XSS_IMG],
                insights=[Insight(dimension=XSS_SCRIPT, text=XSS_LINK)],
                risks=[Risk(risk=XSS_IMG, effect=XSS_SCRIPT, mitigation=XSS_LINK)],
                recommendations=[XSS_SCRIPT],
                notes=[XSS_IMG],
                omitted_files=[f"{XSS_SCRIPT}.py", "vllm/<b>bold</b>.py"],
            ),
        ),
    ]
    sglang: list[tuple[str, Analysis]] = [
        (
            "[Feature] 支持推测解码的树形注意力 (#9001)",
            _analysis(M, ChangeType.FEATURE, "新增树形注意力掩码。"),
        ),
        (
            "[Test] 补充 MoE 单元测试 (#9002)",
            _analysis(L, ChangeType.TEST, "增加专家路由的测试用例。"),
        ),
        ("[CI] 缓存 pip 依赖 (#9003)", _analysis(L, ChangeType.CI_BUILD, "CI 运行时间缩短。")),
    ]
    inputs = []
    for name, items in (("vllm-project/vllm", vllm), ("sgl-project/sglang", sglang)):
        commits: list[Commit] = []
        for i, (title, _) in enumerate(items):
            author = ("张三", "李四", "Wang Wu")[i % 3]
            moment = WHEN - timedelta(minutes=7 * i)
            commit = make_commit(title, moment, repo=name, pr=32001 + i, author=author)
            if XSS_IMG in title:
                commit = commit.model_copy(
                    update={
                        "body": f"{XSS_SCRIPT}\n{XSS_IMG}",
                        "author": XSS_SCRIPT,
                        "labels": ("bug", XSS_IMG),
                    }
                )
            commits.append(commit)
        inp = repo_input(
            commits,
            name=name,
            analyses={c.sha: a for c, (_, a) in zip(commits, items, strict=True)},
        )
        inputs.append(inp)
    inputs[0].overview = Overview(
        themes=["调度器重构", "KV 缓存修复"],
        key_changes=["分块预填充上线"],
        risks=[f"升级后需复查配置 {XSS_IMG}"],
        analyser="llm",
        usage=_usage(0.001),
    )
    return build_context(inputs, day_window(), lang=lang, generated_at=GENERATED)


def _one(analysis: Analysis, title: str = "Fix it (#1)", lang: str = "zh") -> ReportContext:
    commit = make_commit(title, WHEN)
    return build_context(
        [repo_input([commit], analyses={commit.sha: analysis})],
        day_window(),
        lang=lang,
        generated_at=GENERATED,
    )


def check_page(ctx: ReportContext) -> tuple[str, Node]:
    """Render ``ctx`` and assert what must hold for every page."""
    page = render_html(ctx)
    assert page.startswith("<!DOCTYPE html>\n") and page.endswith("</html>\n")
    root = parse(page)
    nodes = list(root.iter())
    assert {n.tag for n in nodes} <= ALLOWED_TAGS
    for n in nodes:
        assert not [a for a in n.attrs if a.startswith("on") or a in ("src", "style", "srcdoc")]
    ids = [n.attrs["id"] for n in nodes if "id" in n.attrs]
    assert len(ids) == len(set(ids)), "ids are unique"
    # the Markdown report's anchors are all here, and every in-page link resolves
    markdown_anchors = mdcheck.parse(render_markdown(ctx)).anchors
    assert set(markdown_anchors) <= set(ids)
    commits = [c for repo in ctx.repositories for c in repo.commits]
    external = {c.url for c in commits} | {
        f"https://github.com/{repo.name}/pull/{c.pr_number}"
        for repo in ctx.repositories
        for c in repo.commits
    }
    for a in root.all("a"):
        href = a.attrs["href"]
        assert href[1:] in ids if href.startswith("#") else href in external, href
        if not href.startswith("#"):
            assert a.attrs["rel"] == "noopener noreferrer"
    # one inline style, one inline script, each allowed by its hash and nothing else
    style, script = root.one("style"), root.one("script")
    assert script.attrs == {} and not root.all("link")
    csp = next(
        m.attrs["content"]
        for m in root.all("meta")
        if m.attrs.get("http-equiv") == "Content-Security-Policy"
    )
    for directive, node in (("style-src", style), ("script-src", script)):
        digest = base64.b64encode(hashlib.sha256(node.text().encode()).digest()).decode()
        assert f"{directive} 'sha256-{digest}';" in csp
    assert csp.startswith("default-src 'none';")
    for family in ("PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", "WenQuanYi Micro Hei"):
        assert f'"{family}"' in style.text()
    assets = style.text() + script.text()
    assert not re.search(r"https?:|url\(|@import|fetch\(|XMLHttpRequest|import\(|\.src\b", assets)
    # one <details> per commit, in the Markdown's order, carrying the filter data
    details = root.all("details", "commit")
    assert [d.attrs["id"] for d in details] == markdown_commit_order(ctx)
    by_anchor = {c.anchor: (repo, c) for repo in ctx.repositories for c in repo.commits}
    for d in details:
        repo, c = by_anchor[d.attrs["id"]]
        assert d.attrs["data-importance"] == c.analysis.importance.value
        assert d.attrs["data-type"] == c.analysis.change_type.value
        assert d.attrs["data-repo"] == repo.anchor
        assert ("open" in d.attrs) == (c.analysis.importance == Importance.HIGH)
        assert d.one("h3").text() == (clean_line(c.title) or get_labels(ctx.lang).s["untitled"])
    return page, root


def markdown_commit_order(ctx: ReportContext) -> list[str]:
    doc = mdcheck.parse(render_markdown(ctx))
    commit_anchors = {c.anchor for repo in ctx.repositories for c in repo.commits}
    return [a for a in doc.anchors if a in commit_anchors]


def section_labels_md(markdown: str, anchor: str) -> list[str]:
    """The bold labels of one commit's section in the Markdown report, in order."""
    section = markdown.split(f'<a id="{anchor}"></a>', 1)[1].split("\n---\n", 1)[0]
    return re.findall(r"\*\*([^*]+)\*\*", section)


# ---- structure and parity ---------------------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_rich_report_structure_and_parity_with_the_markdown(lang: str) -> None:
    ctx = rich_context(lang)
    page, root = check_page(ctx)
    s = get_labels(lang).s
    assert root.one("html").attrs["lang"] == s["html_lang"]
    markdown = render_markdown(ctx)
    with_section = {c.anchor for c in sections(ctx)}  # the Markdown's low rows have none
    compared = 0
    for d in root.all("details", "commit"):
        if d.attrs["id"] not in with_section:
            continue
        body = d.one("div", "body")
        labels = [n.text() for n in body.all("strong")]
        assert labels == section_labels_md(markdown, d.attrs["id"])
        compared += 1
    assert compared == len(with_section) > 0
    # lines the Markdown prints once, printed here too (as text)
    text = " ".join(root.one("main").text().split())
    for line in markdown.splitlines():
        if line.startswith(
            ("> 覆盖", "> Coverage", "> 💰", "覆盖", "Coverage", "全部仓库", "> 📊")
        ):
            assert line.lstrip("> ") in text
    assert s["report_title"].format(label="2026-01-13") == root.one("h1").text()
    assert s["generated"].format(at="2026-01-14 09:02:03", tz="Asia/Shanghai") in text
    # the fallback, with its reason, and the overview
    fallback = root.one(cls="fallback")
    assert fallback.text() == s["fallback"].format(reason="模型输出被截断（finish_reason=length）")
    overview = root.one("div", "overview")
    assert [li.text() for li in overview.all("li")][:3] == [
        "调度器重构",
        "KV 缓存修复",
        "分块预填充上线",
    ]
    # the sticky bar: counts for the whole report, coverage and cost
    bar = root.one("header")
    chips = [" ".join(c.text().split()) for c in bar.all("span", "chip")]
    assert chips[1:4] == [
        get_labels(lang).stats_item(Importance.HIGH, 3),
        get_labels(lang).stats_item(Importance.MEDIUM, 2),
        get_labels(lang).stats_item(Importance.LOW, 3),
    ]
    assert ctx.usage is not None and ctx.usage.cost is not None
    assert chips[-1].endswith(format_cost(ctx.usage.cost))
    # the filters offer what the report holds
    select = {n.attrs["name"]: n for n in bar.all("select")}
    assert [o.attrs["value"] for o in select["repo"].all("option")] == [
        "",
        *(r.anchor for r in ctx.repositories),
    ]
    types = [o.attrs["value"] for o in select["type"].all("option")][1:]
    assert types == [
        t.value
        for t in ChangeType
        if any(c.analysis.change_type == t for r in ctx.repositories for c in r.commits)
    ]
    assert page.count("data-search=") == 8


def test_seed_report_page() -> None:
    ctx = seed_context()
    _, root = check_page(ctx)
    rows = root.one("table", "commits").all("tr")[1:]
    commits = ctx.repositories[0].commits
    assert [r.all("td")[2].text() for r in rows] == [c.title for c in commits]
    assert [r.attrs["data-ref"] for r in rows] == [c.anchor for c in commits]
    toc = [a.text() for a in root.one("details", "toc").all("a")]
    assert "[Refactor] [6/N] to simplify the vLLM openai chat_complet..." in toc


def test_sections_follow_the_markdown_rules() -> None:
    low = _one(make_analysis(Importance.LOW, text="One line.\nTwo."))
    _, root = check_page(low)
    body = root.one("div", "body")
    assert [n.text() for n in body.all("strong")] == [
        "SHA",
        "🎯 变更类型",
        "⚡ 重要程度",
        "📋 摘要",
    ]  # the evidence is for high commits, as in the Markdown
    assert body.one("p", "summary").text() == "📋 摘要：One line. Two."
    medium = _one(make_analysis(Importance.MEDIUM, text="*a*\n\n- b\n- c"), lang="en")
    _, root = check_page(medium)
    summary = root.one("div", "summary")
    assert [n.tag for n in summary.iter()] == ["p", "em", "ul", "li", "li"]
    assert not root.all("table", None)[1:]  # the commit table only: no insights for medium


def test_links_only_for_http_urls() -> None:
    for url, expected in (
        (None, 0),
        ("javascript:alert(1)", 0),
        ("https://git.example/c/1", 1),
    ):
        commit = make_commit("Fix (#5)", WHEN, url=url, pr=5)
        ctx = build_context([repo_input([commit])], day_window(), lang="en", generated_at=GENERATED)
        page, root = check_page(ctx)
        assert len([a for a in root.all("a") if not a.attrs["href"].startswith("#")]) == expected
        assert "javascript" not in page


# ---- hostile text -----------------------------------------------------------------------


def test_xss_payloads_are_text() -> None:
    ctx = rich_context()
    page, root = check_page(ctx)
    assert "<img" not in page and "<script>window" not in page and "javascript:" in page
    evil = next(d for d in root.all("details", "commit") if "img src" in d.one("h3").text())
    assert evil.one("h3").text() == f"{XSS_IMG} {XSS_SCRIPT} (#32005)"
    summary = evil.one("p", "summary")
    assert summary.text().endswith(f"{XSS_LINK} {XSS_IMG} {XSS_SCRIPT}")
    assert [n.tag for n in summary.iter()] == ["strong"]
    assert XSS_SCRIPT in evil.one("span", "who").text()
    assert [c.text() for c in evil.one("p", "refs").all("code")][1:] == ["bug", XSS_IMG]
    assert XSS_IMG.lower() in evil.attrs["data-search"]


@pytest.mark.parametrize("title", HOSTILE)
def test_hostile_titles(title: str) -> None:
    ctx = _one(make_analysis(Importance.HIGH, text=title), title=title)
    check_page(ctx)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(title=free_text, text=free_text)
def test_any_text_keeps_the_page_structure(title: str, text: str) -> None:
    check_page(_one(make_analysis(Importance.HIGH, text=text), title=title))


def test_model_markdown_renderer_refuses_html_images_and_foreign_links() -> None:
    md = SafeMarkdown()
    out = md.renderInline(
        "[a](javascript:alert(1)) [b](data:text/html,x) [c](https://ok.example/x) "
        "![i](https://e.example/i.png) <b>raw</b> <https://auto.example>"
    )
    assert 'href="https://ok.example/x"' in out and 'href="https://auto.example"' in out
    assert "javascript:alert" not in out.replace("[a](javascript:alert(1))", "")
    assert out.count("<a ") == 3  # the image is left a plain link: nothing is loaded
    assert "<img" not in out and "<b>" not in out and "&lt;b&gt;raw&lt;/b&gt;" in out


# ---- output -------------------------------------------------------------------------------


def test_deterministic_and_the_same_from_the_json() -> None:
    ctx = rich_context()
    page = render_html(ctx)
    assert render_html(ctx) == page
    assert render_html(load_context(render_json(ctx))) == page
    assert render_html(rich_context()) == page


def test_empty_repository() -> None:
    ctx = build_context([repo_input([])], day_window(), lang="en", generated_at=GENERATED)
    _, root = check_page(ctx)
    assert root.one("p", "empty").text() == "No commits in this window."


def test_automated_commits_have_their_own_group_and_none_is_hidden() -> None:
    commits = [
        make_commit(f"Update Rust crate c{i} to v1.0.{i}", WHEN, author="renovate[bot]")
        for i in range(3)
    ]
    commits.append(make_commit("Fix the scheduler (#9)", WHEN))
    analyses = {c.sha: make_analysis(Importance.LOW) for c in commits}
    inp = repo_input(commits, analyses=analyses)
    inp.automated = frozenset(c.sha for c in commits[:3])
    ctx = build_context([inp], day_window(), lang="en", generated_at=GENERATED)
    _, root = check_page(ctx)
    ids = {d.attrs["id"] for d in root.all("details", "commit")}
    assert ids == {c.anchor for c in ctx.repositories[0].commits}  # every commit has a section
    group = root.one("section", "automation")
    assert group.one("h4").text() == "🤖 Dependency and automation updates (3)"
    assert len(group.all("details", "commit")) == 3
    markdown = render_markdown(ctx)
    assert "#### 🤖 Dependency and automation updates (3)" in markdown


def test_direction_controls_never_reorder_neighbours() -> None:
    evil = "Kim \u202eRtl \u2066x\u2069"
    commit = make_commit("Fix \u202ethe order (#5)", WHEN, author=evil)
    ctx = build_context([repo_input([commit])], day_window(), lang="en", generated_at=GENERATED)
    page, root = check_page(ctx)
    markdown = render_markdown(ctx)
    for text in (page, markdown):
        assert not any(
            ch in text for ch in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
        )
    cells = root.one("table", "commits").all("tr")[1].all("td")
    assert cells[1].text() == "Kim Rtl x"  # isolated, in <bdi>
    assert "<bdi>Kim Rtl x</bdi>" in page
