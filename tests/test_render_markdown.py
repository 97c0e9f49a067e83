"""The Markdown report: structure, anchors, labels, hostile text, both languages."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import mdcheck
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_mdtext import HOSTILE, SEED_TITLES, SEED_WHO, free_text

from commitdigest.errors import UsageError
from commitdigest.models import (
    IMPORTANCE_ORDER,
    Analysis,
    AnalysisStatus,
    ChangeType,
    Commit,
    CommitEntry,
    Importance,
    Insight,
    ReportContext,
    RepositoryEntry,
    Risk,
    WindowInfo,
)
from commitdigest.render import (
    RepositoryInput,
    build_context,
    get_labels,
    render_markdown,
)
from commitdigest.text import clean_line

SHANGHAI = ZoneInfo("Asia/Shanghai")
GENERATED = datetime(2026, 1, 14, 1, 2, 3, tzinfo=UTC)

# The seed report's table (daily-2026-01-13.md), verbatim: time, author, title per row.
SEED_ROWS = [
    (*line.split(" | "), title)
    for line, title in zip(SEED_WHO.splitlines(), SEED_TITLES, strict=True)
]
SEED_TABLE = "| 提交时间 | 作者 | 提交信息 |\n|----------|------|----------|\n" + "".join(
    f"| {when} | {author} | {title} |\n" for when, author, title in SEED_ROWS
)


# ---- builders (also used by test_render_json) -----------------------------------------


def sha_of(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()


def day_window(day: str = "2026-01-13", tz: str = "Asia/Shanghai") -> WindowInfo:
    start = datetime.fromisoformat(day).replace(tzinfo=ZoneInfo(tz))
    return WindowInfo(start=start, end=start + timedelta(days=1), tz=tz, label=day)


def make_commit(
    title: str,
    when: datetime,
    *,
    sha: str | None = None,
    author: str = "Test Author",
    repo: str = "vllm-project/vllm",
    pr: int | None = None,
    url: str | None = "",
) -> Commit:
    sha = sha or sha_of(f"{repo}:{title}:{when.isoformat()}")
    return Commit(
        sha=sha,
        title=title,
        author=author,
        authored_at=when,
        committed_at=when,
        url=f"https://github.com/{repo}/commit/{sha}" if url == "" else url,
        pr_number=pr,
    )


def make_analysis(
    importance: Importance,
    *,
    text: str = "Summary sentence.",
    analyser: str = "rules",
    status: AnalysisStatus = AnalysisStatus.OK,
    change_type: ChangeType = ChangeType.BUGFIX,
    notes: Sequence[str] = ("tag [Bugfix] in the title",),
) -> Analysis:
    return Analysis(
        change_type=change_type,
        importance=importance,
        summary=text,
        impact=[text, "vllm/engine"],
        insights=[Insight(dimension="performance", text=text), Insight(dimension="x", text="y")],
        risks=[Risk(risk=text, effect=text, mitigation=text)],
        recommendations=[text],
        analyser=analyser,
        status=status,
        notes=list(notes),
    )


def seed_commits() -> list[Commit]:
    commits = []
    for when, author, title in SEED_ROWS:
        moment = datetime.strptime(when, "%Y-%m-%d %H:%M:%S").replace(tzinfo=SHANGHAI)
        pr = int(title.rsplit("(#", 1)[1].rstrip(")"))
        commits.append(make_commit(title, moment, author=author, pr=pr))
    return commits


def repo_input(
    commits: Sequence[Commit],
    name: str = "vllm-project/vllm",
    analyses: dict[str, Analysis] | None = None,
) -> RepositoryInput:
    if analyses is None:
        analyses = {
            c.sha: make_analysis(IMPORTANCE_ORDER[i % 3], analyser="llm" if i % 2 else "rules")
            for i, c in enumerate(commits)
        }
    return RepositoryInput(
        name=name,
        url=f"https://github.com/{name}",
        branch="main",
        commits=commits,
        analyses=analyses,
    )


def seed_context(lang: str = "zh") -> ReportContext:
    return build_context(
        [repo_input(seed_commits())], day_window(), lang=lang, generated_at=GENERATED
    )


def collapsed(repo: RepositoryEntry) -> list[CommitEntry]:
    """The commits of the automation block (low-importance automated commits)."""
    return [c for c in repo.commits if c.automated and c.analysis.importance is Importance.LOW]


def is_row(commit: CommitEntry) -> bool:
    """A low commit shown as one table row of its group (no section of its own)."""
    return (
        commit.analysis.importance is Importance.LOW
        and not commit.api_changes
        and commit.analysis.status is not AnalysisStatus.FALLBACK
        and not commit.analysis.omitted_files
    )


def sections(ctx: ReportContext) -> list[CommitEntry]:
    """The commits that get a section (a ### heading, fields, ---)."""
    return [
        c
        for repo in ctx.repositories
        for c in repo.commits
        if c not in collapsed(repo) and not is_row(c)
    ]


def expected_outline(ctx: ReportContext) -> list[tuple[int, str]]:
    """The headings the template writes for ``ctx``, in order."""
    labels = get_labels(ctx.lang)
    s = labels.s
    out = [(1, labels.report_title(ctx.window.label)), (2, s["act_on"])]
    for repo in ctx.repositories:
        out.append((2, repo.name))
        if repo.commits:
            out.append((3, s["stats"]))
            items = [
                i
                for c in repo.commits
                for i in c.api_changes
                if i.affects or (i.breaking and i.public)
            ]
            if items:
                out.append((3, s["breaking_n"].format(n=len(items))))
    out.append((2, s["toc"]))
    several = len(ctx.repositories) > 1
    for repo in ctx.repositories:
        if several:
            out.append((2, s["changes"].format(name=repo.name)))
        auto = collapsed(repo)
        for importance in IMPORTANCE_ORDER:
            group = [c for c in repo.commits if c.analysis.importance == importance]
            group = [c for c in group if c not in auto]
            if group:
                out.append((4, labels.group(importance, len(group))))
                out += [(3, clean_line(c.title) or s["untitled"]) for c in group if not is_row(c)]
        if auto:
            out.append((4, s["automation"].format(n=len(auto))))
    return out


LABEL_KEYS = (
    "change_type",
    "importance",
    "summary",
    "low_summary",
    "impact",
    "recommendations",
    "insights",
    "risks",
    "notes",
)


def check_report_outline(ctx: ReportContext) -> list[tuple[int, str]]:
    text = render_markdown(ctx)
    assert text.endswith("\n") and not text.endswith("\n\n")
    return mdcheck.parse(text).heading_outline()


def check_report(ctx: ReportContext) -> tuple[str, mdcheck.MdDoc]:
    """Render ``ctx`` and assert everything that must hold for any report."""
    text = render_markdown(ctx)
    assert text.endswith("\n") and not text.endswith("\n\n")
    assert [line for line in text.splitlines() if line != line.rstrip()] == []
    doc = mdcheck.parse(text)
    assert doc.heading_outline() == expected_outline(ctx)
    assert doc.internal_links(), "the table of contents has links"
    assert doc.unresolved_links() == []
    assert doc.duplicate_anchors() == []
    assert doc.html == []
    commits = [c for repo in ctx.repositories for c in repo.commits]
    shown = sections(ctx)
    assert doc.blocks["hr"] == len(shown)  # one --- after each commit section
    assert {c.anchor for c in commits} <= set(doc.anchors)  # rows carry their anchor too
    toc_targets = [link.href[1:] for link in doc.internal_links()]
    for repo in ctx.repositories:
        assert repo.anchor in toc_targets
    assert all(c.anchor in toc_targets for c in shown)
    # the only other links: each commit's own (a row's is its short SHA), and its PR's
    s = get_labels(ctx.lang).s
    external = {link.text for link in doc.links if not link.href.startswith("#")}
    shas = {f"`{c.short_sha}`" for c in commits}
    assert external <= {s["view_commit"], *shas, *(f"#{c.pr_number}" for c in commits)}
    # every field label starts its own top-level paragraph (nothing ran into it)
    inline = ("change_type", "importance")  # on the SHA line
    labels = ["**SHA**", *(f"**{s[key]}**" for key in LABEL_KEYS if key not in inline)]
    starts: Counter[str] = Counter()
    for tok in doc.tokens:
        for label in labels:
            if tok.type == "inline" and label in tok.content and tok.level == 1:
                assert tok.content.startswith(label), tok.content
                starts[label] += 1
    assert starts["**SHA**"] == len(shown)  # one SHA line per section, with type and importance
    for tok in doc.tokens:
        if tok.type == "inline" and tok.content.startswith("**SHA**"):
            assert (
                f"**{s['change_type']}**" in tok.content and f"**{s['importance']}**" in tok.content
            )
    return text, doc


# ---- the seed ---------------------------------------------------------------------------


def test_seed_table_is_reproduced_row_for_row() -> None:
    text = render_markdown(seed_context())
    assert "\n\n\n" not in text
    lines = text.splitlines()
    start = lines.index("| 提交时间 | 作者 | 提交信息 |")
    assert "\n".join(lines[start : start + 47]) + "\n" == SEED_TABLE
    assert lines[start + 47] == ""


def test_seed_table_cells_render_back_to_the_commit() -> None:
    ctx = seed_context()
    _, doc = check_report(ctx)
    table = doc.tables[0]
    assert table.header == ["提交时间", "作者", "提交信息"]
    commits = ctx.repositories[0].commits
    assert [row[2] for row in table.rows] == [c.title for c in commits]
    assert [row[1] for row in table.rows] == [c.author for c in commits]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_seed_report_structure(lang: str) -> None:
    ctx = seed_context(lang)
    text, _ = check_report(ctx)
    labels = get_labels(lang)
    # statistics add up, and match the groups
    counts = {
        imp: sum(1 for c in ctx.repositories[0].commits if c.analysis.importance == imp)
        for imp in IMPORTANCE_ORDER
    }
    assert sum(counts.values()) == 45
    total = labels.s["stats_total_day"].format(n=45)
    items = " | ".join(labels.stats_item(imp, n) for imp, n in counts.items())
    assert f"> {total} | {items}\n" in text
    if lang == "zh":
        assert "> 本日共 45 个提交 | 🔴高 15 | 🟡中 15 | 🟢低 15\n" in text
        assert "# 每日更新报告（2026-01-13）\n" in text
        assert "> 时间窗口：2026-01-13 00:00 — 2026-01-14 00:00（Asia/Shanghai）\n" in text
        assert "> 生成时间：2026-01-14 09:02:03（Asia/Shanghai）\n" in text
        assert "覆盖：45/45 已分析（LLM 22 · 规则 23）\n" in text
    else:
        assert "> 45 commits | 🔴 High 15 | 🟡 Medium 15 | 🟢 Low 15\n" in text
        assert "Coverage: 45/45 analysed (LLM 22 · rules 23)\n" in text
    # labels: one spelling per importance / change type, in every section (the low
    # commits are rows of one table, with their change type)
    for imp, n in counts.items():
        line = f"**{labels.s['importance']}**{labels.s['colon']}{labels.importance(imp)} · "
        assert text.count(line) == (0 if imp is Importance.LOW else n)
    assert text.count(labels.change_type(ChangeType.BUGFIX)) == 45
    # the commit section's first line, as in the seed
    first = ctx.repositories[0].commits[4]
    assert first.title.startswith("[Refactor] [6/N]")
    view = "查看提交" if lang == "zh" else "View commit"
    assert (
        f'<a id="{first.anchor}"></a>\n### {first.title}\n**SHA**: `{first.sha[:7]}` | 🔗 '
        f"[{view}](https://github.com/vllm-project/vllm/commit/{first.sha}) | PR "
        "[#32240](https://github.com/vllm-project/vllm/pull/32240)\n"
    ) in text


def test_toc_links_use_the_seed_cut_and_stay_links() -> None:
    ctx = seed_context()
    text, doc = check_report(ctx)
    texts = [link.text for link in doc.internal_links()]
    assert "[Refactor] [6/N] to simplify the vLLM openai chat_complet..." in texts
    assert all(len(t) <= 60 for t in texts)
    low = [c for c in ctx.repositories[0].commits if c.analysis.importance is Importance.LOW]
    # a low commit is a row of its group's table, reached through the group's link
    assert not any(link.href == f"#{low[0].anchor}" for link in doc.internal_links())
    assert f'<a id="{low[0].anchor}"></a>' in text


# ---- sections -------------------------------------------------------------------------


def _one(analysis: Analysis, title: str = "Fix it (#1)", lang: str = "zh", **kw: object) -> str:
    commit = make_commit(title, datetime(2026, 1, 13, 12, tzinfo=SHANGHAI), **kw)  # type: ignore[arg-type]
    ctx = build_context(
        [repo_input([commit], analyses={commit.sha: analysis})],
        day_window(),
        lang=lang,
        generated_at=GENERATED,
    )
    return check_report(ctx)[0]


def test_high_section_has_every_block() -> None:
    text = _one(make_analysis(Importance.HIGH, text="risky change"))
    tables = mdcheck.parse(_one(make_analysis(Importance.HIGH, text="a | *b* [c]"))).tables
    assert tables[1].rows == [["性能影响", "a | ⟨em_open⟩b⟨em_close⟩ [c]"], ["x", "y"]]
    assert tables[2].rows == [["a | ⟨em_open⟩b⟨em_close⟩ [c]"] * 3]
    for label in (
        "🎯 影响范围",
        "💡 关注建议",
        "🔍 技术洞察",
        "⚠️ 潜在风险",
        "📋 变更摘要",
        "🧾 判断依据",
    ):
        assert f"**{label}**" in text
    assert "| 维度 | 分析 |\n|------|------|\n| 性能影响 | risky change |\n| x | y |\n" in text
    assert "| 风险 | 影响 | 缓解措施 |" in text
    assert "**⚡ 重要程度**：🔴 高 · 🤖 规则分析\n" in text


def test_medium_section_has_no_insights_or_risks() -> None:
    text = _one(make_analysis(Importance.MEDIUM))
    assert "**🎯 影响范围**" in text and "**💡 关注建议**" in text
    assert "技术洞察" not in text and "潜在风险" not in text


def test_a_low_commit_is_one_table_row() -> None:
    text = _one(make_analysis(Importance.LOW, text="One line.\nTwo."), lang="en")
    rows = mdcheck.parse(text).tables[1].rows
    sha = "⟨html_inline⟩⟨html_inline⟩⟨link_open⟩`8a404ad`⟨link_close⟩"  # anchor, link
    assert rows == [[sha, "Fix it (#1)", "Bug fix", "One line. Two."]]
    for label in ("Impact", "Recommendations", "Technical insights", "Potential risks", "\n---\n"):
        assert label not in text
    # the summary leaves out the title it repeats
    text = _one(make_analysis(Importance.LOW, text="Fix it. Then more."), lang="en")
    assert mdcheck.parse(text).tables[1].rows[0][3] == "Then more."


def test_empty_lists_are_omitted() -> None:
    analysis = Analysis(
        change_type=ChangeType.FEATURE,
        importance=Importance.HIGH,
        summary="",
        impact=["", "  "],
        analyser="llm",
        analyser_version="model-x",
    )
    text = _one(analysis)
    for label in ("影响范围", "关注建议", "技术洞察", "潜在风险", "判断依据"):
        assert label not in text
    assert "**⚡ 重要程度**：🔴 高 · 🧠 LLM 分析（model-x）\n" in text


def test_fallback_is_marked_with_its_reason() -> None:
    analysis = make_analysis(
        Importance.HIGH,
        status=AnalysisStatus.FALLBACK,
        notes=["model output cut off (finish_reason=length)", "tag [Bugfix]"],
    )
    text = _one(analysis)
    assert (
        " · ⚠️ LLM 分析失败，已使用规则分析：model output cut off (finish_reason=length)\n" in text
    )
    assert "**🧾 判断依据**：tag [Bugfix]\n" in text
    assert "覆盖：1/1 已分析（规则 1，其中 1 个为 LLM 失败后的规则回退）" in text
    en = _one(analysis, lang="en")
    assert (
        "Coverage: 1/1 analysed (rules 1, 1 of them rule-based fallbacks after an LLM failure)"
        in en
    )


def test_links_are_omitted_without_a_url_and_pr_link_needs_github() -> None:
    text = _one(make_analysis(Importance.LOW), url=None, pr=5)
    assert "查看提交" not in text and "/pull/" not in text
    text = _one(make_analysis(Importance.MEDIUM), url="https://git.example/c/1", pr=5)
    assert "[查看提交](https://git.example/c/1)" in text and "/pull/" not in text
    row = _one(make_analysis(Importance.LOW), url="https://git.example/c/1", pr=5)
    assert "[`8a404ad`](https://git.example/c/1)" in row  # a row links its short SHA
    for importance in (Importance.LOW, Importance.MEDIUM):
        text = _one(make_analysis(importance), url="javascript:alert(1)", pr=5)
        assert "javascript" not in text


# ---- hostile text -----------------------------------------------------------------------


def test_hostile_titles_bodies_and_names_keep_the_structure() -> None:
    when = datetime(2026, 1, 13, 12, tzinfo=SHANGHAI)
    commits = [
        make_commit(title, when - timedelta(minutes=i), author=title[:20] or "x")
        for i, title in enumerate(HOSTILE)
    ]
    analyses = {
        c.sha: make_analysis(IMPORTANCE_ORDER[i % 3], text="\n".join(HOSTILE))
        for i, c in enumerate(commits)
    }
    for lang in ("zh", "en"):
        ctx = build_context(
            [repo_input(commits, name="evil|<b>/`repo`", analyses=analyses)],
            day_window(),
            lang=lang,
            generated_at=GENERATED,
        )
        _, doc = check_report(ctx)
        table = doc.tables[0]
        assert [row[2] for row in table.rows] == [clean_line(c.title) for c in commits]
        assert [row[1] for row in table.rows] == [clean_line(c.author) for c in commits]
        assert [link for link in doc.links if "javascript" in link.href] == []


_SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(title=free_text, text=free_text, importance=st.sampled_from(list(Importance)))
def test_any_text_yields_exactly_the_template_headings(
    title: str, text: str, importance: Importance
) -> None:
    when = datetime(2026, 1, 13, 12, tzinfo=SHANGHAI)
    commit = make_commit(title, when, author=text)
    analysis = make_analysis(importance, text=text, notes=[text, text])
    ctx = build_context(
        [repo_input([commit], analyses={commit.sha: analysis})],
        day_window(),
        lang="en",
        generated_at=GENERATED,
    )
    _, doc = check_report(ctx)  # asserts the heading outline, anchors, links, hr count
    high_tables = 2 + (1 if clean_line(text) else 0)  # insights (one always), risks
    tables = {Importance.HIGH: high_tables, Importance.MEDIUM: 1, Importance.LOW: 2}
    assert doc.blocks["table"] == tables[importance]  # a low commit: a row of its own table
    external = [link.href for link in doc.links if not link.href.startswith("#")]
    assert external == [f"https://github.com/vllm-project/vllm/commit/{commit.sha}"]
    shown_title = clean_line(title) or "(untitled)"
    assert doc.tables[0].rows == [["2026-01-13 12:00:00", clean_line(text), shown_title]]


# ---- several repositories, empty windows, determinism -------------------------------


def test_several_repositories_with_a_short_sha_collision() -> None:
    when = datetime(2026, 1, 13, 12, tzinfo=SHANGHAI)
    a = make_commit("A (#1)", when, sha="abcdef1" + "1" * 33, repo="o/one")
    b = make_commit("B (#2)", when, sha="abcdef1" + "2" * 33, repo="o/two")
    c = make_commit("C (#3)", when, sha="abcdef1" + "1" * 32 + "0", repo="o/two")
    same = make_commit("Shared (#4)", when, sha="f" * 40, repo="o/one")
    ctx = build_context(
        [
            repo_input([a, same], "o/one"),
            repo_input([b, c, same], "o/two"),
            repo_input([], "O.one"),
        ],
        day_window(),
        lang="zh",
        generated_at=GENERATED,
    )
    anchors = [c.anchor for r in ctx.repositories for c in r.commits]
    assert anchors[0] != anchors[3]
    assert len(set(anchors)) == len(anchors) == 5
    assert {x[:7] for x in anchors[:1] + anchors[2:4]} == {"abcdef1"}
    assert [r.anchor for r in ctx.repositories] == ["o-one", "o-two", "o-one-2"]
    text, _ = check_report(ctx)
    assert "全部仓库覆盖：5/5 已分析" in text
    assert text.count("覆盖：") == 4


def test_repository_anchor_never_collides_with_a_commit_anchor() -> None:
    when = datetime(2026, 1, 13, 12, tzinfo=SHANGHAI)
    commit = make_commit("x", when, sha="deadbee" + "0" * 33)
    ctx = build_context(
        [repo_input([commit], "deadbee"), repo_input([], "deadbee-stats")],
        day_window(),
        lang="en",
        generated_at=GENERATED,
    )
    assert [r.anchor for r in ctx.repositories] == ["deadbee-2", "deadbee-stats"]
    check_report(ctx)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_empty_window_gives_a_short_valid_report(lang: str) -> None:
    ctx = build_context(
        [repo_input([], "o/a"), repo_input([], "o/b")],
        day_window(),
        lang=lang,
        generated_at=GENERATED,
    )
    text = render_markdown(ctx)
    doc = mdcheck.parse(text)
    assert doc.heading_outline() == expected_outline(ctx)
    assert doc.unresolved_links() == [] and doc.tables == []
    no_commits = get_labels(lang).s["no_commits"]
    assert text.count(no_commits) == 2
    assert ("覆盖：0/0 已分析" if lang == "zh" else "Coverage: 0/0 analysed") in text
    assert len(text.splitlines()) < 40  # 2 repos: act on, table, changes heading, coverage
    assert get_labels(lang).s["act_nothing"] in text  # the first screen says so
    nothing = build_context([], day_window(), lang=lang, generated_at=GENERATED)
    assert check_report_outline(nothing) == [
        (1, get_labels(lang).s["report_title"].format(label="2026-01-13")),
        (2, get_labels(lang).s["act_on"]),
        (2, get_labels(lang).s["toc"]),
    ]


def test_window_that_is_not_a_day_says_so() -> None:
    start = datetime(2026, 1, 12, tzinfo=SHANGHAI)
    window = WindowInfo(
        start=start,
        end=start + timedelta(days=2),
        tz="Asia/Shanghai",
        label="2026-01-12 – 2026-01-14",
    )
    commit = make_commit("x", start + timedelta(hours=1))
    ctx = build_context([repo_input([commit])], window, lang="zh", generated_at=GENERATED)
    text, _ = check_report(ctx)
    assert "> 本期共 1 个提交 |" in text
    assert text.startswith("# 更新报告（2026-01-12 – 2026-01-14）\n")  # not "每日"


def test_times_are_shown_in_the_window_zone() -> None:
    commit = make_commit("x", datetime(2026, 1, 13, 4, 0, 5, tzinfo=UTC))
    ctx = build_context([repo_input([commit])], day_window(), lang="en", generated_at=GENERATED)
    _, doc = check_report(ctx)
    assert doc.tables[0].rows[0][0] == "2026-01-13 12:00:05"


def test_commits_are_listed_newest_first() -> None:
    old = make_commit("old", datetime(2026, 1, 13, 1, tzinfo=SHANGHAI))
    new = make_commit("new", datetime(2026, 1, 13, 2, tzinfo=SHANGHAI))
    ctx = build_context([repo_input([old, new])], day_window(), lang="en", generated_at=GENERATED)
    assert [c.title for c in ctx.repositories[0].commits] == ["new", "old"]


def test_same_context_same_bytes_and_only_generated_at_varies() -> None:
    first = render_markdown(seed_context())
    assert render_markdown(seed_context()) == first
    later = build_context(
        [repo_input(seed_commits())],
        day_window(),
        lang="zh",
        generated_at=GENERATED + timedelta(hours=1),
    )
    diff = [
        (a, b)
        for a, b in zip(first.splitlines(), render_markdown(later).splitlines(), strict=True)
        if a != b
    ]
    assert diff == [
        (
            "> 生成时间：2026-01-14 09:02:03（Asia/Shanghai）",
            "> 生成时间：2026-01-14 10:02:03（Asia/Shanghai）",
        )
    ]


def test_missing_analysis_is_an_error_naming_the_commit() -> None:
    commit = make_commit("x", datetime(2026, 1, 13, 1, tzinfo=SHANGHAI))
    with pytest.raises(ValueError, match=commit.sha):
        build_context(
            [repo_input([commit], analyses={})], day_window(), lang="zh", generated_at=GENERATED
        )


def test_unknown_language_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="fr"):
        build_context([], day_window(), lang="fr", generated_at=GENERATED)
