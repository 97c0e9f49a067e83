"""What a native reader of the report flagged on real days, each held by a test: the release
line counts what was announced apart from what the code shows, a quotation is not cut at
"e.g.", a message that repeats its title is not quoted again, an English summary marks the
message's words as a quotation, a line of joined items reads as one sentence."""

from __future__ import annotations

import re
from zoneinfo import ZoneInfo

from commitdigest.analysis.rules import RuleAnalyser
from commitdigest.analysis.rules_text import code_list, cut_text
from commitdigest.models import ApiChange, ApiChangeType, FileChange, FileStatus, RadarKind
from commitdigest.render.act_on import ActLine
from commitdigest.render.labels import get_labels
from commitdigest.render.view import MarkdownView
from tests.test_rules import commit


def _release(announced: int, found: int) -> ActLine:
    items = [
        ApiChange(kind=RadarKind.ANNOUNCED, change=ApiChangeType.REMOVED, name=f"a{i}")
        for i in range(announced)
    ] + [
        ApiChange(kind=RadarKind.PYTHON_API, change=ApiChangeType.SIGNATURE_CHANGED, name=f"f{i}")
        for i in range(found)
    ]
    return ActLine(kind="release", repo="", commit=None, items=tuple(items), release="0.28.0")  # type: ignore[arg-type]


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
