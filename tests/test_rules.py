"""The rule-based analyser: types, importance evidence, text, Markdown safety."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from string import Formatter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from commitdigest.analysis.classify import Area, classify_path, component_of
from commitdigest.analysis.rules import RULES_VERSION, RuleAnalyser
from commitdigest.analysis.rules_text import code_span, cut_text, first_paragraph
from commitdigest.analysis.tags import change_type_from_title
from commitdigest.i18n import RULE_TEXT as TEMPLATES
from commitdigest.models import (
    Analysis,
    AnalysisStatus,
    ChangeType,
    Commit,
    FileChange,
    FileStatus,
    Importance,
)
from commitdigest.render.mdtext import sanitize_block, sanitize_inline

WHEN = datetime(2026, 1, 13, 12, 0, tzinfo=UTC)
RULES = RuleAnalyser()


def commit(title: str, *files: FileChange, body: str = "") -> Commit:
    return Commit(
        sha="0123456789abcdef0123456789abcdef01234567",
        title=title,
        body=body,
        author="A. Author",
        authored_at=WHEN,
        committed_at=WHEN,
        files=files,
    )


def fc(path: str, add: int | None = 5, delete: int | None = 1, **kw: object) -> FileChange:
    return FileChange.model_validate({"path": path, "additions": add, "deletions": delete, **kw})


def free_text(a: Analysis) -> list[str]:
    out = [a.summary, *a.impact, *a.recommendations, *a.notes]
    out += [t for i in a.insights for t in (i.dimension, i.text)]
    out += [t for r in a.risks for t in (r.risk, r.effect, r.mitigation)]
    return out


def has_cjk(text: str) -> bool:
    return re.search(r"[\u4e00-\u9fff]", text) is not None


# ---- identity ------------------------------------------------------------------------------


def test_identity_and_status() -> None:
    a = RULES.analyse(commit("[Bugfix] Fix x", fc("pkg/mod/a.py")))
    assert RULES.id == "rules" and RULES.version == RULES_VERSION
    assert a.analyser == "rules" and a.analyser_version == RULES_VERSION
    assert a.status is AnalysisStatus.OK


def test_deterministic_and_type_and_importance_independent_of_language() -> None:
    c = commit(
        "[Refactor] Move things (#1)",
        *(fc(f"pkg/c{i}/m.py", 40, 10) for i in range(6)),
        body="Moves things around. Nothing else.\n\nSigned-off-by: A <a@b>",
    )
    zh1, zh2, en = RULES.analyse(c), RULES.analyse(c), RULES.analyse(c, lang="en")
    assert zh1 == zh2
    assert (zh1.change_type, zh1.importance) == (en.change_type, en.importance)
    assert zh1.summary != en.summary


# ---- change type from files ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("paths", "expected"),
    [
        (["docs/usage.md", "README.md"], ChangeType.DOCUMENTATION),
        (["tests/test_a.py", "tests/unit/conftest.py"], ChangeType.TEST),
        ([".github/workflows/ci.yml", "Dockerfile"], ChangeType.CI_BUILD),
        (["requirements/cuda.txt", "uv.lock"], ChangeType.DEPENDENCY),
        (["package.json", "package-lock.json"], ChangeType.DEPENDENCY),
        (["pkg/core/a.py", "tests/test_a.py"], ChangeType.OTHER),
        (["docs/a.md", "tests/test_a.py", "tests/test_b.py"], ChangeType.TEST),  # most lines
        (["docs/a.md", "docs/b.md", "tests/test_a.py"], ChangeType.DOCUMENTATION),
    ],
)
def test_files_only_fallback(paths: list[str], expected: ChangeType) -> None:
    a = RULES.analyse(commit("Tweak things", *(fc(p) for p in paths)))
    assert a.change_type is expected


def test_title_tag_decides_with_code_and_is_noted_but_not_against_the_files() -> None:
    a = RULES.analyse(commit("[Bugfix] Update the guide", fc("pkg/guide.py")), lang="en")
    assert a.change_type is ChangeType.BUGFIX
    assert "`[Bugfix]`" in a.notes[0]
    # a [Bugfix] that edits only the docs is a docs change (docs/importance.md)
    docs = RULES.analyse(commit("[Bugfix] Update the guide", fc("docs/guide.md")), lang="en")
    assert docs.change_type is ChangeType.DOCUMENTATION
    assert "Only docs changed" in docs.notes[0]


@pytest.mark.parametrize(
    ("path", "area"),
    [
        ("vllm/entrypoints/openai/api_server.py", Area.SOURCE),
        ("vllm/benchmarks/serve.py", Area.SOURCE),  # benchmarks/ only counts at the top
        ("vllm/v1/worker/gpu/sample/logit_bias.py", Area.SOURCE),
        ("benchmarks/kernels/bench_fp8.py", Area.BENCHMARKS),
        ("examples/offline_inference/basic.py", Area.EXAMPLES),
        ("tests/v1/test_engine.py", Area.TESTS),
        ("pkg/sub/tests/helpers.py", Area.TESTS),
        ("pkg/foo_test.go", Area.TESTS),
        ("docs/index.md", Area.DOCS),
        ("CHANGELOG.md", Area.DOCS),
        (".buildkite/test-pipeline.yaml", Area.CI_BUILD),
        ("docker/Dockerfile.rocm", Area.CI_BUILD),
        ("setup.py", Area.DEPENDENCY),  # a build manifest, not CI
        ("pyproject.toml", Area.DEPENDENCY),
        ("requirements/rocm-test.txt", Area.DEPENDENCY),
        ("requirements-dev.txt", Area.DEPENDENCY),
        ("Cargo.lock", Area.DEPENDENCY),
        ("third_party/lib/x.c", Area.GENERATED),
        ("api/service_pb2.py", Area.GENERATED),
        ("csrc/moe/ops.cu", Area.SOURCE),
    ],
)
def test_classify_path(path: str, area: Area) -> None:
    assert classify_path(path) is area


def test_component_of() -> None:
    assert component_of("vllm/entrypoints/openai/api_server.py") == "vllm/entrypoints"
    assert component_of("vllm/envs.py") == "vllm"
    assert component_of("src/pkg/sub/m.py") == "src/pkg/sub"
    assert component_of("tests/v1/test_x.py") == "tests"
    assert component_of("setup.py") == "setup.py"


# ---- importance evidence -------------------------------------------------------------------


def test_size_alone_never_makes_a_commit_important() -> None:
    """docs/importance.md: a 1,250-line refactor is routine; a feature that size is medium."""
    files = [fc(f"vllm/{d}/mod{i}.py", 200, 50) for i, d in enumerate("abcde")]
    zh = RULES.analyse(commit("[Refactor] Rework the engine", *files))
    en = RULES.analyse(commit("[Refactor] Rework the engine", *files), lang="en")
    assert zh.importance is Importance.LOW and en.importance is Importance.LOW
    assert any("1,250 行" in n and "5 个组件" in n for n in zh.notes)
    assert any("1,250 lines of core source" in n and "5 component" in n for n in en.notes)
    feature = RULES.analyse(commit("[Feature] A new engine", *files), lang="en")
    assert feature.importance is Importance.MEDIUM
    assert any(i.dimension == "architecture" for i in feature.insights)
    assert feature.risks and feature.recommendations  # no tests touched: say so


def test_docs_only_is_low_even_when_large() -> None:
    a = RULES.analyse(commit("[Doc] Rewrite the guide", fc("docs/guide.md", 3000, 2000)))
    assert a.importance is Importance.LOW
    assert a.change_type is ChangeType.DOCUMENTATION
    assert not a.insights and not a.risks and not a.recommendations


def test_a_fix_is_medium_whatever_its_size_but_a_cosmetic_tweak_is_low() -> None:
    one_line = RULES.analyse(commit("scrape: fix data race in counts", fc("pkg/mod/a.py", 1, 1)))
    ordinary = RULES.analyse(commit("[Bugfix] Fix x", fc("pkg/mod/a.py", 60, 20)))
    assert one_line.importance is Importance.MEDIUM
    assert ordinary.importance is Importance.MEDIUM
    tweak = RULES.analyse(commit("Fix the log message wording", fc("pkg/mod/a.py", 1, 1)))
    hints = RULES.analyse(commit("Fix type hints of the loader", fc("pkg/mod/a.py", 30, 9)))
    assert tweak.importance is Importance.LOW and hints.importance is Importance.LOW


def test_many_small_files_do_not_make_a_big_change() -> None:
    files = [fc(f"pkg/mod/f{i}.py", 1, 1) for i in range(12)]
    a = RULES.analyse(commit("[Misc] Reword error messages", *files))
    assert a.importance is Importance.LOW  # 24 lines in one component


def test_unknown_line_counts_are_judged_by_files() -> None:
    one = RULES.analyse(commit("Tweak", fc("pkg/mod/a.py", None, None)), lang="en")
    many = RULES.analyse(
        commit("Tweak", *(fc(f"pkg/m{i}/a.py", None, None) for i in range(12))), lang="en"
    )
    assert one.importance is Importance.MEDIUM
    assert any("line counts unknown" in n for n in one.notes)
    assert many.importance is Importance.MEDIUM  # more files are no more important


REMOVED_API_PATCH = """@@ -1,10 +1,2 @@
-def normalize(x):
-    return x
-class PoolingParams:
-    pass
-def _private_helper():
-    pass
-async def fetch():
-    pass
+def kept():
+    pass
"""


def test_removed_public_def_is_at_least_medium_with_a_compatibility_risk() -> None:
    c = commit("Tidy", fc("pkg/mod/api.py", 2, 8, patch=REMOVED_API_PATCH))
    a = RULES.analyse(c, lang="en")
    assert a.importance.rank >= Importance.MEDIUM.rank
    removed = "`normalize`, `PoolingParams`, `fetch`"
    assert any(removed in n for n in a.notes)
    assert "_private_helper" not in " ".join(a.notes)
    assert any("`normalize`" in r.risk and "breaks" in r.risk for r in a.risks)
    assert any("Search your code for `normalize`" in r for r in a.recommendations)
    assert any(i.dimension == "compatibility" for i in a.insights)


def test_the_radar_facts_replace_the_guess_of_removed_api() -> None:
    from commitdigest.models import ApiChange, ApiChangeType, RadarKind

    c = commit("Tidy", fc("pkg/mod/api.py", 2, 8, patch=REMOVED_API_PATCH))
    # the radar knows the package still exports them: no item, so no removal is claimed
    quiet = RULES.analyse(c, lang="en", radar=[])
    assert not any("normalize" in n for n in quiet.notes) and not quiet.risks
    found = ApiChange(kind=RadarKind.PYTHON_API, change=ApiChangeType.REMOVED, name="pkg.fetch")
    loud = RULES.analyse(c, lang="en", radar=[found])
    assert loud.importance is Importance.HIGH
    assert any("The code shows 1 breaking change: `pkg.fetch`" in n for n in loud.notes)
    assert any("`pkg.fetch`" in r.risk for r in loud.risks)
    assert not any("normalize" in r.risk for r in loud.risks)
    announced = ApiChange(kind=RadarKind.ANNOUNCED, change=ApiChangeType.REMOVED, name="x")
    zh = RULES.analyse(commit("Tidy", fc("pkg/a.py")), lang="zh", radar=[announced])
    assert zh.importance is Importance.HIGH
    assert any("声明了 1 项破坏性变更" in n for n in zh.notes)


def test_a_def_moved_to_another_file_is_not_removed() -> None:
    moved_out = fc("pkg/a/old.py", 0, 2, patch="-def normalize(x):\n-    return x\n")
    moved_in = fc("pkg/b/new.py", 2, 0, patch="+def normalize(x):\n+    return x\n")
    a = RULES.analyse(commit("Move normalize", moved_out, moved_in))
    assert a.importance is Importance.LOW
    assert not a.risks


def test_removed_and_renamed_modules_are_evidence() -> None:
    gone = fc("pkg/mod/old.py", 0, 10, status=FileStatus.DELETED)
    renamed = fc("pkg/mod/new.py", 1, 1, status=FileStatus.RENAMED, old_path="pkg/mod/was.py")
    a = RULES.analyse(commit("Tidy", gone, renamed), lang="en")
    assert a.importance is Importance.MEDIUM
    assert any("`pkg/mod/old.py`, `pkg/mod/was.py`" in n for n in a.notes)


@pytest.mark.parametrize(
    "title",
    [
        "[Bugfix] Fix CVE-2025-12345 in the tokenizer",
        "Prevent SQL injection in the admin query",
        "Fix heap overflow in the image decoder",
        "Fix XSS in the dashboard",
    ],
)
def test_security_word_is_high(title: str) -> None:
    a = RULES.analyse(commit(title, fc("pkg/mod/a.py", 2, 1)), lang="en")
    assert a.importance is Importance.HIGH
    assert any(i.dimension == "security" for i in a.insights)
    assert any("security" in n for n in a.notes)


def test_numeric_overflow_is_not_a_security_word() -> None:
    a = RULES.analyse(commit("[Quantization] fix: overflow with scaling", fc("pkg/q/a.py", 2, 1)))
    assert a.change_type is ChangeType.BUGFIX
    assert a.importance is Importance.MEDIUM  # a real fix, no security fix
    # vite 709eb8e: a recursion that overflows the stack is a crash (a stack *buffer*
    # overflow is a buffer overflow, still a security word)
    title = "fix(bundled-dev): avoid stack overflow on `import.meta.hot.invalidate()`"
    deep = RULES.analyse(commit(title, fc("packages/vite/src/hmr.ts", 9, 2)))
    assert deep.change_type is ChangeType.BUGFIX and deep.importance is not Importance.HIGH
    smash = RULES.analyse(commit("Fix stack buffer overflow in the parser", fc("src/p.c", 3, 1)))
    assert smash.change_type is ChangeType.SECURITY


def test_breaking_markers_are_high() -> None:
    bang = RULES.analyse(commit("feat(api)!: drop v1 routes", fc("pkg/api/r.py", 5, 5)))
    footer = RULES.analyse(
        commit("Drop v1", fc("pkg/api/r.py", 5, 5), body="Bye.\n\nBREAKING CHANGE: v1 is gone")
    )
    assert bang.importance is Importance.HIGH and footer.importance is Importance.HIGH


def test_revert_removal_feature_and_dependency_raise_importance() -> None:
    tiny = fc("pkg/mod/a.py", 1, 1)
    assert RULES.analyse(commit('Revert "Add x"', tiny)).importance is Importance.MEDIUM
    assert RULES.analyse(commit("[Deprecation] Old flag", tiny)).importance is Importance.MEDIUM
    assert RULES.analyse(commit("Add support for Foo", tiny)).importance is Importance.MEDIUM
    # a runtime dependency changed with source: a point (a pure bump is a routine update)
    deps = RULES.analyse(
        commit(
            "Use the new torch API", fc("requirements/cuda.txt", 1, 1), fc("pkg/mod/a.py", 4, 2)
        ),
        lang="en",
    )
    assert deps.importance is Importance.MEDIUM
    assert any("`requirements/cuda.txt`" in r.mitigation for r in deps.risks)
    bump = RULES.analyse(commit("Bump torch to 2.6", fc("requirements/cuda.txt", 1, 1)), lang="en")
    assert bump.change_type is ChangeType.DEPENDENCY and bump.importance is Importance.LOW
    major = RULES.analyse(
        commit("Bump torch from 2.6 to 3.0", fc("requirements.txt", 1, 1)), lang="en"
    )
    assert major.importance is Importance.LOW  # a new major is flagged, not raised
    assert any("new major version of `torch`" in n for n in major.notes)


def test_no_files_is_judged_by_title_only() -> None:
    a = RULES.analyse(commit("[Misc] Something"), lang="en")
    assert a.importance is Importance.LOW
    assert any("title only" in n for n in a.notes)


# ---- text ----------------------------------------------------------------------------------


def test_summary_uses_clean_title_body_paragraph_and_shape() -> None:
    body = (
        "## Purpose\n\nFix the KV events. The lora name may be missing.\n\n"
        "## Test Plan\n\npytest\n\nSigned-off-by: A <a@b>\nCo-authored-by: B <b@c>\n"
    )
    files = (fc("vllm/distributed/kv.py", 3, 1), fc("tests/test_kv.py", 10, 0))
    en = RULES.analyse(
        commit("[BugFix] [KVConnector] Fix KV events (#32169)", *files, body=body), lang="en"
    )
    assert en.summary.startswith(
        "Fix KV events. The message says: “Fix the KV events. The lora name may be missing.”"
    )
    assert en.summary.endswith("It changes 1 source file (+3/−1) and 1 test file (+10/−0).")
    assert "[" not in en.summary and "#32169" not in en.summary
    assert "Signed" not in en.summary and "Purpose" not in en.summary
    zh = RULES.analyse(commit("[BugFix] Fix KV events (#32169)", *files, body=body))
    assert zh.summary == (
        "这是一次缺陷修复。提交说明写道：「Fix the KV events. The lora name may be missing」。"
        "改动涉及源码 1 个文件（+3/−1）和测试 1 个文件（+10/−0）。"
    )


def test_all_free_text_is_in_the_language() -> None:
    c = commit(
        "Tidy",
        fc("pkg/mod/api.py", 200, 800, patch=REMOVED_API_PATCH),
        *(fc(f"pkg/c{i}/m.py", 30, 10) for i in range(5)),
        fc("requirements.txt", 1, 1),
    )
    zh, en = RULES.analyse(c), RULES.analyse(c, lang="en")
    assert zh.importance is Importance.HIGH
    for text in [*zh.notes, *zh.recommendations, *(r.risk for r in zh.risks)]:
        assert has_cjk(text), text
    for text in free_text(en):
        assert not has_cjk(text), text


def test_impact_lists_components_biggest_first_and_caps() -> None:
    files = [fc(f"pkg/c{i:02}/m.py", i * 10, 0) for i in range(1, 13)]
    a = RULES.analyse(commit("Tweak", *files), lang="en")
    assert a.impact[0] == "`pkg/c12` (+120/−0, 1 file)"
    assert a.impact[1].startswith("`pkg/c11`")
    assert len(a.impact) == 9 and a.impact[-1] == "…and 4 more"


def test_first_paragraph_and_cut() -> None:
    body = (
        "<!-- template -->\n## Purpose\n\n- [ ] checklist\n\n"
        "PLEASE FILL IN THE PR DESCRIPTION HERE ENSURING ALL CHECKLIST ITEMS\n\n"
        "Real text starts here.\nIt continues.\n\nSecond paragraph."
    )
    assert first_paragraph(body) == "Real text starts here. It continues."
    assert first_paragraph("Signed-off-by: A <a@b>\n") == ""
    long = "First sentence is here. " * 30
    cut = cut_text(long, 100)
    assert len(cut) <= 101 and cut.endswith(".")
    assert cut_text("word " * 100, 50).endswith("…")


def test_commit_text_is_kept_as_plain_text_not_escaped() -> None:
    """An analysis holds text, not Markdown escapes: the renderers escape it (JSON shows it)."""
    title = "Fix foo_bar <T> in *scheduler* & [x](y) | #1"
    a = RULES.analyse(commit(title, fc("src/a.py", 3, 1)), lang="en")
    assert title in a.summary
    assert "\\" not in a.summary


def test_code_span_cannot_break_out() -> None:
    assert code_span("a`b") == "`ab`"
    assert code_span("x<y>") == "`x<y>`"
    assert code_span("``") == ""


# ---- Markdown safety (property) ------------------------------------------------------------

MD = MarkdownIt("commonmark").enable("table")
FORBIDDEN = {"heading_open", "html_block", "html_inline", "table_open", "hr", "fence", "code_block"}
HOSTILE = st.sampled_from(
    ["# ", "\n# ", "## Purpose\n", "<script>", "</div>", "<!--", "`", "``", "[a](b)", "![i](x)",
     "|", "---\n", "\n===\n", "- ", "1. ", "> ", "*", "_", "\\", "&lt;", "\x00", "\u2028", "\r",
     "\t", "    ", "<http://x>", "\u202e"]
)  # fmt: skip
TEXT = st.lists(st.one_of(HOSTILE, st.text(max_size=8)), max_size=8).map("".join)
PATH = st.lists(st.one_of(HOSTILE, st.text(max_size=5)), min_size=1, max_size=4).map("/".join)


@settings(max_examples=150, deadline=None)
@given(title=TEXT, body=TEXT, paths=st.lists(PATH, max_size=4), lang=st.sampled_from(["zh", "en"]))
def test_no_heading_or_html_can_come_out(
    title: str, body: str, paths: list[str], lang: str
) -> None:
    files = [fc(p, 500, 500, patch=f"-def {i}x():\n") for i, p in enumerate(paths) if p.strip()]
    a = RULES.analyse(commit(title, *files, body=body), lang=lang)
    for text in free_text(a):  # as the Markdown renderer writes it (one line: inline)
        rendered = sanitize_block(text) if "\n" in text else sanitize_inline(text)
        tokens = MD.parse(rendered)
        assert not [t.type for t in tokens if t.type in FORBIDDEN], rendered
        for t in tokens:
            for child in t.children or []:
                assert child.type not in ("html_inline", "link_open", "image"), rendered


def test_templates_match_across_languages() -> None:
    assert TEMPLATES["zh"].keys() == TEMPLATES["en"].keys()
    for key, zh in TEMPLATES["zh"].items():
        fields = {f for _, f, _, _ in Formatter().parse(zh) if f}
        assert fields == {f for _, f, _, _ in Formatter().parse(TEMPLATES["en"][key]) if f}, key


@pytest.mark.parametrize(
    "title",
    [
        "[ROCm][CI] Fix x (#1)",
        "chore(deps): bump a",
        "feat!: y",
        'Revert "z"',
        "Fix CVE-2024-1 leak",
        "Tweak",
        "[Misc] Add support for w",
    ],
)
def test_analyser_type_agrees_with_change_type_from_title(title: str) -> None:
    a = RULES.analyse(commit(title, fc("pkg/mod/a.py")))
    assert a.change_type is (change_type_from_title(title) or ChangeType.OTHER)


def test_a_def_removed_from_a_private_module_is_not_public_api() -> None:
    """httpx 0.28: SSLConfig, Timer, urlencode left private ``_modules``: no API removal."""
    private = fc("httpx/_config.py", 0, 8, patch=REMOVED_API_PATCH)
    a = RULES.analyse(commit("Tidy", private), lang="en")
    assert not any("normalize" in n for n in a.notes)
    assert not any("normalize" in r.risk for r in a.risks)


@pytest.mark.parametrize(
    ("author", "email"),
    [
        ("dependabot[bot]", "49699333+dependabot[bot]@users.noreply.github.com"),
        ("renovate[bot]", ""),
        ("pre-commit-ci[bot]", ""),
    ],
)
def test_a_bot_bump_is_low_with_the_reason(author: str, email: str) -> None:
    bump = fc("requirements.txt", 1, 1, patch="-httpx==0.27.0\n+httpx==0.28.1\n")
    c = commit("Bump httpx from 0.27.0 to 0.28.1", bump).model_copy(
        update={"author": author, "author_email": email}
    )
    a = RULES.analyse(c, lang="en")
    assert a.importance is Importance.LOW
    assert any("routine dependency or automation update" in n for n in a.notes)
    # a bot that merges a real change in the source is no routine update
    merged = commit("Reject MD5-only hashes", fc("pkg/mod/hashes.py", 40, 3)).model_copy(
        update={"author": author, "author_email": email}
    )
    assert RULES.analyse(merged, lang="en").importance is not Importance.LOW


def test_a_bot_commit_that_says_security_keeps_its_importance() -> None:
    """docs/importance.md: a bot's advisory bump of a dependency users install is medium; of
    a lock file or the project's own tooling it does not reach users: low."""
    bump = fc("requirements.txt", 1, 1, patch="-a==1\n+a==2\n")
    c = commit("Bump a: fixes CVE-2026-1234", bump).model_copy(update={"author": "dependabot[bot]"})
    a = RULES.analyse(c, lang="en")
    assert a.importance is Importance.MEDIUM and a.change_type is ChangeType.DEPENDENCY
    assert any(
        "Updates a dependency users install and mentions `CVE-2026-1234`" in n for n in a.notes
    )
    lock = commit("chore(deps): update esbuild to v0.28.1 [security]", fc("pnpm-lock.yaml", 9, 9))
    lock = lock.model_copy(update={"author": "renovate[bot]"})
    assert RULES.analyse(lock, lang="en").importance is Importance.LOW


def test_a_real_bug_fix_in_source_is_medium_with_the_reason() -> None:
    fix = RULES.analyse(commit("Fix verify=False with cert=", fc("pkg/mod/a.py", 6, 3)), lang="en")
    assert fix.importance is Importance.MEDIUM
    assert any("Fixes a bug in the shipped code" in n for n in fix.notes)
    docs = RULES.analyse(commit("Fix a typo", fc("docs/a.md", 6, 3)), lang="en")
    assert docs.importance is Importance.LOW


def test_a_docs_only_addition_and_a_dev_tool_bump_stay_low() -> None:
    docs = RULES.analyse(commit("Add httpx-ws to third party packages", fc("docs/third.md", 3, 0)))
    assert docs.importance is Importance.LOW
    dev = fc("requirements-dev.txt", 1, 1, patch="-ruff==0.5\n+ruff==0.6\n")
    assert RULES.analyse(commit("Upgrade the formatter", dev)).importance is Importance.LOW
    runtime = fc("requirements.txt", 1, 1, patch="-h11==0.14\n+h11==0.16\n")
    code = fc("pkg/mod/a.py", 3, 3)
    assert RULES.analyse(commit("Support h11 0.16", runtime, code)).importance is Importance.MEDIUM


def test_a_release_with_notes_is_at_least_medium() -> None:
    notes = fc("CHANGELOG.md", 12, 0)
    version = fc("pkg/__init__.py", 1, 1)
    release = RULES.analyse(commit("Version 0.28.0 (#3445)", notes, version), lang="en")
    assert release.importance is not Importance.LOW
    assert any("release commit" in n for n in release.notes)
    assert release.change_type is ChangeType.OTHER
    # a patch release earns its point with notes only; gitmoji titles are releases too
    header = fc("docs/release-notes.md", 2, 0)
    patch = RULES.analyse(commit("🔖 Release version 0.140.12", header, version), lang="en")
    assert patch.importance is Importance.LOW
    assert any("patch release" in n for n in patch.notes)
    noted = RULES.analyse(commit("release: v8.2.2", fc("CHANGELOG.md", 45, 0)), lang="en")
    assert noted.importance is Importance.MEDIUM
    minor = RULES.analyse(commit("🔖 Release version 0.141.0", header, version), lang="en")
    assert minor.importance is Importance.MEDIUM
    bare = RULES.analyse(commit("Version 0.28.1", fc("pkg/__init__.py", 1, 1)), lang="en")
    assert not any("release commit" in n for n in bare.notes)  # no changelog: no release
    docs = RULES.analyse(commit("Sync v0.23.0 release docs to main", notes), lang="en")
    assert docs.change_type is ChangeType.DOCUMENTATION  # a version in passing is no release
