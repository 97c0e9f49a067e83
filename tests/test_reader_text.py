"""What a native reader of the report flagged on real days, each held by a test: the release
line counts what was announced apart from what the code shows, a quotation is not cut at
"e.g.", a message that repeats its title is not quoted again, an English summary marks the
message's words as a quotation, a line of joined items reads as one sentence."""

from __future__ import annotations

import re
from dataclasses import replace
from zoneinfo import ZoneInfo

from commitdigest.analysis.rules import RuleAnalyser
from commitdigest.analysis.rules_text import code_list, cut_text
from commitdigest.models import ApiChange, ApiChangeType, FileChange, FileStatus, RadarKind
from commitdigest.render.act_on import ActLine
from commitdigest.render.labels import get_labels
from commitdigest.render.view import MarkdownView
from tests.test_rules import commit


def _release(announced: int, found: int, deprecated: int = 0) -> ActLine:
    items = [
        ApiChange(kind=RadarKind.ANNOUNCED, change=ApiChangeType.REMOVED, name=f"a{i}")
        for i in range(announced)
    ] + [
        ApiChange(kind=RadarKind.PYTHON_API, change=ApiChangeType.SIGNATURE_CHANGED, name=f"f{i}")
        for i in range(found)
    ]
    return ActLine(kind="release", repo="", commit=None, items=tuple(items), release="0.28.0",  # type: ignore[arg-type]
                   deprecated=deprecated)  # fmt: skip


def test_the_release_line_counts_the_announced_apart_from_the_code() -> None:
    en, zh = get_labels("en"), get_labels("zh")
    assert en.release_label(_release(2, 16)) == (
        "🏷️ Release 0.28.0: 18 breaking changes (2 announced, 16 found in the code)"
    )
    assert zh.release_label(_release(2, 16)) == (
        "🏷️ 发布 0.28.0：18 项破坏性变更（项目声明 2 项，代码中发现 16 项）"
    )
    # all announced (or none): one count
    assert en.release_label(_release(3, 0)) == "🏷️ Release 0.28.0 announces breaking changes (3)"
    assert zh.release_label(_release(3, 0)) == "🏷️ 发布 0.28.0：声明了 3 项破坏性变更"
    # and what it deprecates (pytest 9.1.0: one break, eleven deprecations), or that alone
    assert en.release_label(_release(1, 0, 11)) == (
        "🏷️ Release 0.28.0 announces breaking changes (1); deprecations (11)"
    )
    assert (
        zh.release_label(_release(1, 0, 11))
        == "🏷️ 发布 0.28.0：声明了 1 项破坏性变更；另声明弃用 11 项"
    )
    assert en.release_label(_release(0, 0, 2)) == "🏷️ Release 0.28.0 announces deprecations (2)"
    assert zh.release_label(_release(0, 0, 2)) == "🏷️ 发布 0.28.0：声明弃用 2 项"


def test_a_release_that_deprecates_is_a_line_of_act_on() -> None:
    """pytest 9.1.0's eleven deprecations sat in its commit's section only; a release that
    announces deprecations alone was not in Act on at all."""
    from fake_receivers import busy_day

    from commitdigest.render.act_on import act_on

    entry = busy_day(1, lang="en").repositories[0].commits[0]

    def announced(name: str, change: ApiChangeType, *, breaking: bool) -> ApiChange:
        return ApiChange(kind=RadarKind.ANNOUNCED, change=change, name=name, release="9.1.0",
                         breaking=breaking)  # fmt: skip

    olds = [announced(f"`old_{i}` is deprecated.", ApiChangeType.DEPRECATED, breaking=False)
            for i in range(3)]  # fmt: skip
    gone = announced("`gone` is removed.", ApiChangeType.REMOVED, breaking=True)
    both = entry.model_copy(update={"api_changes": [gone, *olds]})
    only = entry.model_copy(update={"api_changes": olds})
    daily = entry.model_copy(update={"api_changes": [replace(o, release="")
                                                     for o in olds]})  # fmt: skip
    [line] = [ln for ln in act_on([("r", [both])]).lines if ln.kind == "release"]
    assert (line.release, len(line.items), line.deprecated) == ("9.1.0", 1, 3)
    [line] = act_on([("r", [only])]).lines
    assert (line.kind, line.items, line.deprecated) == ("release", (), 3)
    assert not [ln for ln in act_on([("r", [daily])]).lines if ln.kind == "release"]


def test_a_version_released_by_two_commits_of_a_day_is_one_line() -> None:
    """llm's "Draft release notes for 0.32" dated the version's section; the tag 0.32 is on
    a later commit: both read as release 0.32, and Act on said so twice. The latest commit
    keeps the line; the draft keeps one only for what else it breaks."""
    from datetime import timedelta

    from fake_receivers import busy_day

    from commitdigest.render.act_on import act_on

    entry = busy_day(1, lang="en").repositories[0].commits[0]
    gone = ApiChange(kind=RadarKind.ANNOUNCED, change=ApiChangeType.REMOVED,
                     name="`gone` is removed.", release="0.32")  # fmt: skip
    other = ApiChange(kind=RadarKind.PYTHON_API, change=ApiChangeType.REMOVED, name="pkg.f")
    draft = entry.model_copy(update={"sha": "a" * 40, "api_changes": [gone]})
    tagged = entry.model_copy(
        update={
            "sha": "b" * 40,
            "api_changes": [gone],
            "committed_at": entry.committed_at + timedelta(hours=9),
        }
    )
    lines = act_on([("r", [tagged, draft])]).lines
    assert [(ln.kind, ln.commit.sha[0], ln.release) for ln in lines] == [("release", "b", "0.32")]
    lines = act_on([("r", [draft, tagged])]).lines  # in any order
    assert [(ln.kind, ln.commit.sha[0]) for ln in lines] == [("release", "b")]
    other_package = replace(gone, path="packages/b/CHANGELOG.md")
    elsewhere = tagged.model_copy(update={"sha": "c" * 40, "api_changes": [other_package]})
    lines = act_on([("r", [tagged, draft, elsewhere])]).lines  # a monorepo's other package
    assert sorted(ln.commit.sha[0] for ln in lines) == ["b", "c"]
    more = draft.model_copy(update={"api_changes": [gone, other]})
    lines = act_on([("r", [tagged, more])]).lines
    assert [(ln.kind, ln.commit.sha[0], [i.name for i in ln.items]) for ln in lines] == [
        ("release", "b", ["`gone` is removed."]),
        ("breaking", "a", ["pkg.f"]),
    ]


def test_entries_a_release_of_the_day_announces_again_are_shown_once() -> None:
    """Scrapy wrote its 2.18 release notes (713360c) and released them 44 seconds later
    (2216063): the day's Breaking section listed 16 entries twice, and Act on gave the
    notes a line of their own beside the release's. The release shows them; the commit
    that wrote them keeps them in its own section, and a line for what else it breaks."""
    from fake_receivers import busy_day

    from commitdigest.render.act_on import act_on
    from commitdigest.render.headline import headline

    entry = busy_day(1, lang="en").repositories[0].commits[0]

    def announced(name: str, release: str = "") -> ApiChange:
        return ApiChange(kind=RadarKind.ANNOUNCED, change=ApiChangeType.REMOVED, name=name,
                         release=release, breaking=True)  # fmt: skip

    entries = ["`md5sum()` is removed.", "`xmliter()` is removed."]
    notes = entry.model_copy(
        update={"sha": "a" * 40, "api_changes": [announced(n) for n in entries]}
    )
    bump = entry.model_copy(
        update={"sha": "b" * 40, "api_changes": [announced(n, "2.18.0") for n in entries]}
    )
    found = headline([notes, bump], lambda c: c.api_changes)
    assert [(c.sha[0], i.name, i.release) for c, i in found.breaking] == [
        ("b", entries[0], "2.18.0"), ("b", entries[1], "2.18.0")
    ]  # fmt: skip
    assert (found.public_count, len(found.released)) == (2, 2)
    assert [(ln.kind, ln.commit.sha[0]) for ln in act_on([("r", [notes, bump])]).lines] == [
        ("release", "b")
    ]
    other = ApiChange(kind=RadarKind.PYTHON_API, change=ApiChangeType.REMOVED, name="pkg.f",
                      breaking=True)  # fmt: skip
    more = notes.model_copy(update={"api_changes": [*notes.api_changes, other]})
    lines = act_on([("r", [more, bump])]).lines
    assert [(ln.kind, ln.commit.sha[0], [i.name for i in ln.items]) for ln in lines] == [
        ("breaking", "a", ["pkg.f"]),
        ("release", "b", entries),
    ]
    # a day without the release: the notes' entries are its news
    assert [c.sha[0] for c, _ in headline([notes], lambda c: c.api_changes).breaking] == ["a", "a"]
    # another changelog's entry of the same words (a monorepo's other package) is its own
    moved = [replace(i, path="packages/b/CHANGES.md") for i in notes.api_changes]
    elsewhere = notes.model_copy(update={"api_changes": moved})
    found = headline([elsewhere, bump], lambda c: c.api_changes)
    assert (len(found.breaking), found.released) == (4, [])
    # a security fix that wrote an entry keeps its line
    from commitdigest.models import ChangeType

    fix = notes.model_copy(
        update={"analysis": notes.analysis.model_copy(update={"change_type": ChangeType.SECURITY})}
    )
    assert [(ln.kind, ln.commit.sha[0]) for ln in act_on([("r", [fix, bump])]).lines] == [
        ("release", "b"), ("security", "a")
    ]  # fmt: skip


def test_an_announcement_named_by_the_title_is_not_said_twice() -> None:
    """uv's "Remove bz/lzma/xz support from ZIP handling (#18927)" says in its message
    "This is a breaking change": its announcement is named by the title, and Act on read
    "Remove … (#18927): Remove … (#18927)"."""
    from fake_receivers import busy_day

    from commitdigest.render.act_on import act_on, item_names

    entry = busy_day(1, lang="en").repositories[0].commits[0]
    title = "Remove bz/lzma/xz support from ZIP handling (#18927)"
    said = ApiChange(kind=RadarKind.ANNOUNCED, change=ApiChangeType.REMOVED, name=title)
    code = ApiChange(kind=RadarKind.PYTHON_API, change=ApiChangeType.REMOVED, name="pkg.zip_xz")
    alone = entry.model_copy(update={"title": title, "api_changes": [said]})
    [line] = act_on([("r", [alone])]).lines
    assert item_names(line) == ([], 0)
    assert get_labels("en").act_text(line) == f"💥 Breaking · {title}"
    both = alone.model_copy(update={"api_changes": [said, code]})
    [line] = act_on([("r", [both])]).lines
    assert item_names(line) == ([("pkg.zip_xz", True)], 0)
    assert get_labels("en").act_text(line) == f"💥 Breaking · {title}: pkg.zip_xz"


def test_a_quotation_is_not_cut_after_an_abbreviation() -> None:
    text = (
        "Models that use GELU (e.g. Gemma4) ran the tanh approximation instead of the exact "
        "function, i.e. a large accuracy drop. The fix selects the exact one. " * 2
    )
    cut = cut_text(text, 150)
    assert not cut.endswith(("e.g.", "i.e.")) and "(e.g. Gemma4)" in cut
    assert cut.endswith("accuracy drop.")


def _src(path: str = "pkg/quant.py") -> FileChange:
    return FileChange(path=path, status=FileStatus.MODIFIED, additions=3, deletions=1)


def test_a_body_that_repeats_the_title_is_not_quoted() -> None:
    c = commit(
        "Standardize the naming convention for QuantType enum",
        _src(),
        body="Standardize the naming convention for QuanType enum.\n",
    )
    for lang in ("en", "zh"):
        summary = RuleAnalyser().analyse(c, lang=lang).summary
        assert "QuanType" not in summary, summary
    other = commit("Fix the cache", _src(), body="The cache kept stale entries after a reload.\n")
    en = RuleAnalyser().analyse(other, lang="en").summary
    assert "The message says: “The cache kept stale entries after a reload.”" in en
    zh = RuleAnalyser().analyse(other, lang="zh").summary
    assert "「The cache kept stale entries after a reload」" in zh


def test_joined_items_read_as_one_sentence() -> None:
    zone = ZoneInfo("UTC")
    en = MarkdownView(get_labels("en"), zone)
    items = ["A broad change: run tests after upgrading.", "To use it, read its docs.", "API x."]
    assert [str(i) for i in en.line_items(items)] == [
        "A broad change: run tests after upgrading",
        "to use it, read its docs",
        "API x.",
    ]
    zh = MarkdownView(get_labels("zh"), zone)
    assert [str(i) for i in zh.line_items(["改动范围大。", "请阅读文档。"])] == [
        "改动范围大",
        "请阅读文档。",
    ]
    # an English note in a Chinese report gets no Chinese stop (nor a Chinese one in English)
    assert [str(i) for i in zh.line_items(["tag [Bugfix]"])] == ["tag [Bugfix]"]
    assert [str(i) for i in en.line_items(["改动范围大"])] == ["改动范围大"]


def test_and_more_in_chinese_says_the_others() -> None:
    names = [f"pkg/m{i}" for i in range(6)]
    assert code_list(names, "zh").endswith("及另外 2 项")
    assert code_list(names, "en").endswith("and 2 more")


def test_a_channel_of_another_language_gets_no_sentence_of_the_report_language() -> None:
    """A Slack channel set to English on a Chinese report: labels in English, the commits'
    titles as written, never the zh overview or a zh Act-on reason."""
    from commitdigest.deliver.digest import PLAIN, build_digest, digest_lines, sample_context

    context = sample_context("zh")
    titles = {c.title for r in context.repositories for c in r.commits}

    def texts(lang: str) -> list[str]:
        lines = digest_lines(
            build_digest(context, lang=lang, report_url=None), PLAIN, with_title=True
        )
        return [*lines.head, *(line.text for line in lines.items)]

    zh = texts("zh")
    assert any("主要主题" in t for t in zh) and any("示例提交" in t for t in zh)
    en = texts("en")
    assert any("Act on" in t for t in en)
    for text in en:
        for title in titles:
            text = text.replace(title, "")
        assert not re.search(r"[\u4e00-\u9fff]", text), text


def test_key_changes_are_the_largest_important_commits_not_the_newest() -> None:
    """vllm-ascend 2026-07-10: the rule overview listed the three newest medium commits
    (+8/−4, +1/−1 …) and left out the one that removed 2,000 lines."""
    from commitdigest.analysis.overview import OverviewItem, rule_overview
    from commitdigest.models import ChangeType, Importance

    def item(sha: str, lines: int, importance: Importance = Importance.MEDIUM) -> OverviewItem:
        return OverviewItem(f"Commit {sha}", sha, ChangeType.FEATURE, importance, lines=lines)

    day = [item("a1", 12), item("b2", 2), item("c3", 2465), item("d4", 842), item("e5", 5)]
    assert rule_overview(day, "en").key_refs == ["c3", "d4", "a1"]
    with_high = [*day, item("f6", 3, Importance.HIGH), item("g7", 900, Importance.HIGH)]
    assert rule_overview(with_high, "en").key_refs == ["g7", "f6"]
    # the lines come from the commit's files
    files = [_src(), FileChange(path="b.py", status=FileStatus.ADDED, additions=10, deletions=0)]
    analysis = RuleAnalyser().analyse(commit("Add b", *files), lang="en")
    assert OverviewItem.from_analysis("Add b", "0123456", analysis, files).lines == 14


def test_a_table_row_shortens_the_quotation_and_keeps_the_tools_sentences_whole() -> None:
    from commitdigest.render.view import _short_line

    zh = (
        "这是一次缺陷修复。提交说明写道：「Fix the cache when the reload happens during a long "
        "running sync and the worker restarts」。"
        "改动涉及测试 1 个文件（+1/−1）、CI 与构建配置 2 个文件（+3/−1）。"
    )
    short = _short_line(zh, 100)
    assert len(short) <= 100
    assert short.endswith("改动涉及测试 1 个文件（+1/−1）、CI 与构建配置 2 个文件（+3/−1）。")
    assert "「Fix the cache when" in short and "…」。" in short
    en = "Fix it. The message says: “" + "word " * 60 + "” It changes 1 source file (+1/−1)."
    assert _short_line(en, 120).endswith("…” It changes 1 source file (+1/−1).")
    # no quotation to shorten: cut, and an opened one closed
    assert _short_line("x" * 150 + "「" + "y" * 60, 100).count("」") == 0  # none opened in the cut
    assert _short_line("x" * 80 + "「" + "y" * 60, 100).endswith("…」")


def test_a_risk_in_the_overview_reads_as_one_sentence() -> None:
    from commitdigest.analysis.overview import _risk_sentence

    assert _risk_sentence(
        "A source change of 119 lines comes without test changes",
        "Regressions may go uncaught",
        "Run your own integration tests after upgrading",
    ) == (
        "A source change of 119 lines comes without test changes: regressions may go uncaught;"
        " run your own integration tests after upgrading"
    )
    assert _risk_sentence("源码改动没有同时修改测试", "回归可能未被覆盖", "升级后运行集成测试") == (
        "源码改动没有同时修改测试，回归可能未被覆盖；升级后运行集成测试"
    )
    assert _risk_sentence("API removed", "", "Search your code") == "API removed; search your code"


def test_english_counts_say_one_or_many() -> None:
    from commitdigest.analysis.rules_text import tr

    one = tr("en", "ev_radar", n="1", names="`x`")
    many = tr("en", "ev_radar", n="16", names="`x`")
    assert "1 breaking change:" in one and "16 breaking changes:" in many and "(s)" not in many
    lines = tr("en", "ev_source_size", lines="1", files="1 file", comps="1")
    assert "Touches 1 line of core source" in lines and "across 1 component." in lines
    assert "across 11 components" in tr(
        "en", "ev_source_size", lines="9", files="2 files", comps="11"
    )
    # the commit's own words are never changed
    assert "file(s)" in tr("en", "sum_quote", text="Translated 16 file(s).")


def test_a_message_of_references_only_is_not_quoted() -> None:
    """vllm-ascend's summaries quoted only 「Fixes #11588」 and 「Related RFC issue: Refs
    #11723」; a sentence that mentions an issue is still the message."""
    from commitdigest.analysis.rules_text import first_paragraph

    assert first_paragraph("Fixes #11588") == ""
    assert first_paragraph("Related RFC issue: Refs #11723\n\nThe real text.") == "The real text."
    assert first_paragraph("Fixes #1, #2 and org/repo#3.") == ""
    assert first_paragraph("https://github.com/x/y/pull/1") == ""
    assert first_paragraph("Fix the cache for #12 users.") == "Fix the cache for #12 users."


def test_the_email_text_part_folds_internal_removals_as_its_html_part_does() -> None:
    from fake_receivers import busy_day

    from commitdigest.models import Visibility
    from commitdigest.render.plaintext import render_plain_text

    def removed(name: str, visibility: Visibility) -> ApiChange:
        return ApiChange(
            kind=RadarKind.PYTHON_API,
            change=ApiChangeType.REMOVED,
            name=name,
            path="pkg/ops/gdn.py",
            breaking=True,
            visibility=visibility,
        )

    context = busy_day(2, lang="en")
    repo = context.repositories[0]
    items = [removed("pkg.api.fetch", Visibility.PUBLIC)]
    items += [removed(f"pkg.ops.gdn.helper_{i}", Visibility.INTERNAL) for i in range(3)]
    first = repo.commits[0].model_copy(update={"api_changes": items})
    repo = repo.model_copy(update={"commits": [first, *repo.commits[1:]]})
    text = render_plain_text(context.model_copy(update={"repositories": [repo]}))
    breaking = text.split("\n⚠️ Breaking changes\n", 1)[1].split("\n\n", 1)[0]
    assert "pkg.api.fetch" in breaking and "helper_0" not in breaking
    assert f"internal names removed or changed in pkg.ops.gdn ({first.short_sha})" in text


def test_a_deleted_module_says_it_is_a_module_in_both_languages() -> None:
    """A deleted module without names (scipy's ``scipy.misc``) is named with the word
    "module", in the report's language; a value written as code stays as it is."""
    gone = ApiChange(kind=RadarKind.PYTHON_API, change=ApiChangeType.REMOVED, name="scipy.misc",
                     detail="module")  # fmt: skip
    en, zh = get_labels("en"), get_labels("zh")
    assert en.radar_text(gone) == "Python API scipy.misc — removed (module)"
    assert zh.radar_text(gone).endswith("scipy.misc — 已移除 (模块)")
    moved = replace(gone, detail="modules, paths (+2)")
    assert zh.radar_detail(moved) == "modules, paths (+2)"
