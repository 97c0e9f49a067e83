"""The rule analyser judges the whole commit (issue 25): the misjudgements seen on real
commits, each as it was seen, and the signals that replaced the last word of the title.

The cases are small extracts of real commits (titles, paths, line counts, a sentence of the
body): astral-sh/uv, vllm-project/vllm, prometheus/prometheus, caddyserver/caddy, pypa/pip.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_rules import commit, fc

from commitdigest.analysis.classify import Area, area_by_role, classify_path
from commitdigest.analysis.overview import OverviewItem, rule_overview
from commitdigest.analysis.rules import RuleAnalyser
from commitdigest.analysis.rules_facts import gather_facts, user_facing_answer
from commitdigest.analysis.tags import effective_title, parse_title
from commitdigest.models import (
    ApiChange,
    ApiChangeType,
    ChangeType,
    Importance,
    RadarKind,
    Visibility,
)

RULES = RuleAnalyser()


# ---- the misjudgements of the issue --------------------------------------------------------


def test_a_trailing_tests_word_does_not_make_a_feature_a_test() -> None:
    c = commit(
        "Add retry support to the client; tests",
        fc("pkg/client/retry.py", 120, 4),
        fc("tests/test_retry.py", 80, 0),
    )
    a = RULES.analyse(c, lang="en")
    assert a.change_type is ChangeType.FEATURE
    assert "`Add`" in a.notes[0]
    assert a.importance is Importance.MEDIUM


def test_package_by_default_update_documentation_is_a_low_docs_change() -> None:
    """uv 571bf092d9: the topic says "by default", the clause says what the commit does."""
    c = commit(
        "Package by default: Update documentation (#19026)",
        fc("crates/uv-cli/src/lib.rs", 2, 17),
        fc("docs/concepts/projects/init.md", 80, 77),
        fc("docs/guides/projects.md", 25, 11),
        fc("docs/concepts/projects/config.md", 3, 3),
        fc("pyproject.toml", 1, 0),
        body="Application and packaged application trade places.",
    )
    a = RULES.analyse(c, lang="en")
    assert a.change_type is ChangeType.DOCUMENTATION
    assert a.importance is Importance.LOW
    assert not any("default changes" in n for n in a.notes)


def test_require_package_entries_in_pylock_files_is_not_low_and_says_why() -> None:
    """uv 3050c22590: malformed lock files are now rejected — a behaviour change users meet."""
    c = commit(
        "Require package entries in pylock files (#20402)",
        fc("crates/uv-resolver/src/lock/export/pylock_toml.rs", 0, 1),
        fc("crates/uv/tests/pip/pip_sync.rs", 27, 0),
        body=(
            "A pylock.toml missing the required packages array is treated as an empty lock, "
            "so sync can uninstall an environment instead of rejecting malformed input."
        ),
    )
    a = RULES.analyse(c, lang="en")
    assert a.importance is not Importance.LOW
    assert any("Tightens what the code accepts (`Require`)" in n for n in a.notes)


def test_a_colon_after_the_tags_is_not_part_of_the_title() -> None:
    info = parse_title("[ROCm][Bugfix]: Only save the KV cache once (#33012)")
    assert info.tags == ("ROCm", "Bugfix") and info.clean_title == "Only save the KV cache once"
    a = RULES.analyse(commit(info.title, fc("vllm/v1/worker/kv.py", 9, 3)), lang="en")
    assert a.summary.startswith("Only save the KV cache once.")
    assert a.change_type is ChangeType.BUGFIX


def test_the_summary_keeps_the_opening_clause_of_the_message() -> None:
    """uv b187a5124c: the body's first line starts "#20418 moved …" — an issue reference,
    not a Markdown heading."""
    body = (
        "#20418 moved certificate overrides out of `BaseClientBuilder` and\n"
        "applied them to the main HTTP client. The separate client used by `uv\n"
        "run https://...` was left unconfigured.\n\n"
        "Apply the environment certificate overrides directly to the\n"
        "remote-script client before downloading. Preserve the default trust\n"
        "store when neither override is set, but fail closed when an explicitly\n"
        "configured certificate source is missing or invalid.\n"
    )
    c = commit(
        "Honor certificate overrides when running remote scripts (#20767)",
        fc("crates/uv/src/lib.rs", 31, 31),
        fc("crates/uv/src/settings.rs", 14, 2),
        fc("crates/uv/tests/project/run.rs", 21, 0),
        body=body,
    )
    en = RULES.analyse(c, lang="en")
    assert "remote scripts. The message says: “#20418 moved certificate overrides out of" in (
        en.summary
    )
    zh = RULES.analyse(c, lang="zh")
    assert "「#20418 moved certificate overrides out of" in zh.summary


def test_evidence_quotes_the_words_that_decided() -> None:
    """The same commit: "certificate" in the title tightens nothing; "fail closed" in the
    message does, and the note quotes it."""
    body = (
        "The remote-script client fell back to the default trust store.\n\n"
        "Preserve the default trust store when neither override is set, but fail closed\n"
        "when an explicitly configured certificate source is missing or invalid.\n"
    )
    c = commit(
        "Honor certificate overrides when running remote scripts (#20767)",
        fc("crates/uv/src/lib.rs", 31, 31),
        body=body,
    )
    a = RULES.analyse(c, lang="en")
    assert not any("`certificate`" in n for n in a.notes)
    assert "Change type from the verb that opens the title, `Honor`." in a.notes
    assert any("Tightens what the code accepts (`fail closed`)" in n for n in a.notes)


def test_one_lock_file_warning_is_not_repeated_for_every_commit() -> None:
    """uv's day: four commits touching Cargo.lock gave "Risks to act on" the same line four
    times. A lock file binds no user's versions (no risk at all); and one risk that several
    commits share is one line naming them all."""
    locked = commit("Update aws-lc-rs", fc("crates/uv/src/a.rs", 40, 2), fc("Cargo.lock", 9, 9))
    a = RULES.analyse(locked, lang="en")
    assert not any("Dependency manifests" in r.risk for r in a.risks)
    items = [
        OverviewItem(
            f"commit {i}",
            f"000000{i}",
            ChangeType.FEATURE,
            Importance.HIGH,
            risks=("Manifests changed — check `Cargo.toml`",),
        )
        for i in range(1, 5)
    ]
    got = rule_overview(items, "en")
    assert got.risks == [
        "Manifests changed — check `Cargo.toml` (`0000001`, `0000002`, `0000003`, `0000004`)"
    ]


def test_a_bump_title_in_chinese_has_a_whole_summary() -> None:
    """vllm: "Bump Flashinfer Version and Re-enable …" gave "。改动：源码 1 个文件（+2/−0）。"."""
    c = commit(
        "Bump Flashinfer Version and Re-enable DeepSeek NVFP4 AR+Norm Fusion",
        fc("vllm/compilation/pass_config.py", 2, 0),
    )
    zh = RULES.analyse(c, lang="zh")
    assert zh.summary.startswith("这是一次")
    assert zh.summary.endswith("改动涉及源码 1 个文件（+2/−0）。")
    assert "。。" not in zh.summary and not zh.summary.startswith("。")


# ---- the whole commit ----------------------------------------------------------------------


def test_a_merge_commit_is_named_by_its_pull_request() -> None:
    """prometheus merges pull requests: the body's first line is the pull request's title."""
    title = "Merge pull request #19433 from thc1006/rules-grouploader-nil-logger"
    body = "rules: fix nil logger panic in the default group loader"
    assert effective_title(title, body) == f"{body} (#19433)"
    c = commit(title, fc("rules/manager.go", 6, 4), fc("rules/manager_test.go", 18, 0), body=body)
    a = RULES.analyse(c, lang="en")
    assert a.change_type is ChangeType.BUGFIX and a.importance is Importance.MEDIUM
    assert a.summary.startswith("rules: fix nil logger panic in the default group loader.")
    fork = "Merge commit from fork"
    advisory = "Caddy's header filter (GHSA-f59h-q822-g45g) only checked for `_`.\nMore."
    assert effective_title(fork, advisory).startswith("Caddy's header filter (GHSA")


@pytest.mark.parametrize(
    ("title", "subject", "expected"),
    [
        ("caddyhttp: mitigate slowloris via idle read/write deadlines", "mitigate slowloris "
         "via idle read/write deadlines", ChangeType.SECURITY),
        ("discovery/ionos: guard nil optional fields to avoid panic", "guard nil optional "
         "fields to avoid panic", ChangeType.BUGFIX),
        ("reverseproxy: reduce allocation/CPU overhead in request hot paths", "reduce "
         "allocation/CPU overhead in request hot paths", ChangeType.PERFORMANCE),
        ("Use fmt::from_fn for uv-auth realm username", "Use fmt::from_fn for uv-auth realm "
         "username", ChangeType.REFACTOR),
        ("Remove unused helpers", "Remove unused helpers", ChangeType.REFACTOR),
        ("Remove a bunch of allocations", "Remove a bunch of allocations", ChangeType.PERFORMANCE),
        ("Remove bz/lzma/xz support from ZIP handling", "Remove bz/lzma/xz support from ZIP "
         "handling", ChangeType.REMOVAL),
        ("Preserve transitive self-constraints in recursive extras", "Preserve transitive "
         "self-constraints in recursive extras", ChangeType.BUGFIX),
    ],
)  # fmt: skip
def test_the_verb_that_opens_the_clause_decides(
    title: str, subject: str, expected: ChangeType
) -> None:
    assert parse_title(title).subject == subject
    a = RULES.analyse(commit(title, fc("pkg/mod/a.go", 30, 10)), lang="en")
    assert a.change_type is expected


def test_a_removal_of_something_users_had_is_high_a_cleanup_is_not() -> None:
    gone = RULES.analyse(commit("Remove the --legacy-resolver flag", fc("src/pkg/cli.py", 3, 40)))
    assert gone.change_type is ChangeType.REMOVAL and gone.importance is Importance.HIGH
    tidy = RULES.analyse(commit("Remove unused helpers", fc("src/pkg/util.py", 0, 40)))
    assert tidy.change_type is ChangeType.REFACTOR and tidy.importance is Importance.LOW
    # xarray 78707f5 handles NumPy's deprecation warnings: it was "High: removes or
    # deprecates a feature"; deprecating one of its own still counts
    handled = commit(
        "Address additional upstream deprecation warnings (#11296)",
        fc("xarray/coding/times.py", 1, 1),
        fc("xarray/core/variable.py", 1, 1),
    )
    upkeep = RULES.analyse(handled, lang="en")
    assert upkeep.change_type is ChangeType.REFACTOR and upkeep.importance is Importance.LOW
    warned = commit(
        "Deprecate the `decode_times` argument (#11296)",
        fc("xarray/coding/times.py", 6, 1),
        fc("xarray/core/variable.py", 1, 1),
    )
    own = RULES.analyse(warned, lang="en")
    assert own.change_type is ChangeType.REMOVAL and own.importance is not Importance.LOW


def test_a_template_that_says_no_user_facing_change_is_believed() -> None:
    body = (
        "### What this PR does / why we need it?\nRemove dead code.\n\n"
        "### Does this PR introduce _any_ user-facing change?\n<!-- note -->\nNo.\n"
    )
    assert user_facing_answer(body) is False
    yes = body.replace("No.", "Delete flashcomm1.")
    assert user_facing_answer(yes) is True
    assert user_facing_answer("Plain message.") is None
    # "[Refactor] remove X" whose template says it deletes a feature users had: a removal
    c = commit("[Refactor] remove FlashComm v1 (#13946)", fc("vllm_ascend/ops/a.py", 3, 300),
               body=yes)  # fmt: skip
    a = RULES.analyse(c, lang="en")
    assert a.change_type is ChangeType.REMOVAL and a.importance is Importance.HIGH


def test_internal_radar_items_do_not_make_a_commit_high_public_ones_do() -> None:
    internal = ApiChange(kind=RadarKind.PYTHON_API, change=ApiChangeType.REMOVED,
                         name="pkg.kv.metadata.helper", visibility=Visibility.INTERNAL)  # fmt: skip
    public = replace(internal, visibility=Visibility.PUBLIC, name="pkg.Client")
    c = commit("[Refactor] Simplify metadata helpers", fc("pkg/kv/metadata.py", 40, 200))
    quiet = RULES.analyse(c, lang="en", radar=[internal])
    assert quiet.importance is Importance.LOW
    assert not quiet.risks and any("1 internal change:" in n for n in quiet.notes)
    loud = RULES.analyse(c, lang="en", radar=[public])
    assert loud.importance is Importance.HIGH
    assert any("`pkg.Client`" in r.risk for r in loud.risks)


def test_the_projects_tooling_and_harness_are_not_its_code() -> None:
    release_script = RULES.analyse(
        commit("Use an explicit PyPI index during release preparation", fc("scripts/release.sh")),
        lang="en",
    )
    assert release_script.change_type is ChangeType.CI_BUILD
    assert release_script.importance is Importance.LOW
    harness = RULES.analyse(commit("Fix flaky adapt test", fc("caddytest/integration/a.go")))
    assert harness.change_type is ChangeType.TEST and harness.importance is Importance.LOW
    for path in ("src/_pytest/pastebin.py", "pytest_asyncio/plugin.py"):  # a test framework's
        assert area_by_role(path, classify_path(path)) is Area.SOURCE  # own code is its code
    facts = gather_facts(commit("x", fc("internal/tools/go.mod"), fc("go.mod")))
    assert facts.installed == ["go.mod"]


def test_a_vendored_dependency_upgrade_is_a_dependency_users_get() -> None:
    c = commit(
        "Upgrade packaging to 26.3",
        fc("src/pip/_vendor/packaging/specifiers.py", 400, 800),
        fc("src/pip/_vendor/vendor.txt", 1, 1),
        fc("news/packaging.vendor.rst", 1, 0),
    )
    a = RULES.analyse(c, lang="en")
    assert a.change_type is ChangeType.DEPENDENCY and a.importance is Importance.MEDIUM


def test_security_from_the_message_and_not_from_a_repository_name() -> None:
    ci = commit("Sync `uv-security` from public `main`", fc(".github/workflows/sync.yml", 100, 0))
    assert RULES.analyse(ci, lang="en").change_type is ChangeType.CI_BUILD
    attack = commit(
        "Ensure full Git commit pins resolve to the requested commit",
        fc("crates/uv-git-types/src/lib.rs", 120, 4),
        body="A repository owner can point a branch at different content and an attacker-"
        "selected commit is recorded despite the pin.",
    )
    a = RULES.analyse(attack, lang="en")
    assert a.change_type is ChangeType.SECURITY and a.importance is Importance.HIGH
    body = "Splitting turned files into PHP scripts (GHSA-3g8v-8r37-cgjm)."
    advisory = commit("Merge commit from fork", fc("modules/fastcgi/fastcgi.go", 20, 30), body=body)
    assert RULES.analyse(advisory, lang="en").change_type is ChangeType.SECURITY


@pytest.mark.parametrize(
    ("title", "path", "body"),
    [  # each typed a security fix, and opened "Act on"
        ("✏️ Fix typo in `fastapi/security/oauth2.py`", "fastapi/security/oauth2.py", ""),
        ("🐛 Fix OpenAPI security scheme OAuth2 scopes declaration", "fastapi/openapi/utils.py",
         ""),
        ("♻️ Make the result of `Depends()` and `Security()` hashable", "fastapi/params.py", ""),
        ("provide OSSF security insight", "SECURITY-INSIGHTS.yml", ""),
        ("fix: CSS injection point error with nested name IIFE output",
         "packages/vite/src/node/plugins/css.ts", ""),
        ("uv audit: add context/warnings for ignored vulnerabilities",
         "crates/uv/src/commands/audit.rs", ""),
        ("Add audit malware-check configuration settings", "crates/uv-settings/src/settings.rs",
         "Enable automatic malware checks and select a vulnerability service."),
        ("[security scheme] docs", "fastapi/openapi/models.py", ""),
        ("Security scheme docs", "fastapi/openapi/models.py", ""),
        # words in quotes are mentioned, not claimed (this project's own history, whose
        # README first run opened "Act on" with five such "Security fix" lines)
        ("Rules: a phrase across a no-break space ('SQL injection', 'security fix') reads "
         "as across a space; test", "src/commitdigest/analysis/tags.py", ""),
        ('Docs: explain the "security fix" label', "src/app/labels.py", ""),
        ("Docs: explain the \u201csecurity fix\u201d label", "src/app/labels.py", ""),
        ("文档：说明「SQL injection」标签", "src/app/labels.py", ""),
    ],
)  # fmt: skip
def test_security_words_that_name_no_fix(title: str, path: str, body: str) -> None:
    """fastapi's ``fastapi.security`` module and its "security schemes", a bundler that
    injects code, and uv's ``uv audit`` (a feature about vulnerabilities) fix none."""
    a = RULES.analyse(commit(title, fc(path, 6, 2), body=body), lang="en")
    assert a.change_type is not ChangeType.SECURITY


@pytest.mark.parametrize(
    ("title", "body"),
    [
        ("Update module golang.org/x/crypto to v0.52.0 [SECURITY]", ""),
        ("[Security] Harden the session cookie", ""),
        ("Security: reject oversized headers", ""),
        ("Security enhancements for client IP parsing", ""),
        ("Fix security issue in the proxy", ""),
        ("Prevent SQL injection in the admin query", ""),
        ("fastcgi: fix HTTPoxy vulnerability", ""),
        ("【main】【bugfix】Resolved memory deallocation failure in the pooling layer",
         "Resolved a double-free memory vulnerability in the pooling layer."),
        ("Fix stack buffer overflow in the parser", ""),
        ("fix(security): escape user input", ""),
        ("Fix XSS/CSRF in login form", ""),
        ("Fix SQL-injection/XSS", ""),
        ("Fix NoSQL injection", ""),
        ("Fix SQL\u00a0injection in the search box", ""),  # (a no-break space)
        ("Add input validation to fix vulnerability in upload handler", ""),
        ("🔒 Security: reject oversized headers", ""),
        ("Bump lodash (security)", ""),
        # an apostrophe opens no quote: the words between are still read
        ("Don't allow SQL injection in the users' search", ""),
        ("Fix the parser's heap overflow on 'long' names", ""),
        # git's own title around a fix's title is the fix's claim
        ('Reapply "Fix XSS in comment rendering"', ""),
    ],
)  # fmt: skip
def test_security_words_that_name_a_fix(title: str, body: str) -> None:
    a = RULES.analyse(commit(title, fc("pkg/mod/a.go", 6, 2), body=body), lang="en")
    assert a.change_type is ChangeType.SECURITY


def test_a_merge_from_a_security_advisorys_private_fork_is_a_security_fix() -> None:
    """caddy eec32a0bb: GitHub's advisory merge button writes "Merge commit from fork"; the
    message names no advisory and no security word ("fast path" once made it performance).
    A pull request merged from any other fork is "Merge pull request #N from …"."""
    body = (
        "Normalize exact hosts at provisioning and reqHost in the fast path so case-different "
        "Host variants can’t bypass host-gated routes.\n\nCo-authored-by: A <a@example.com>"
    )
    fix = commit("Merge commit from fork", fc("modules/caddyhttp/routes.go", 10, 5), body=body)
    a = RULES.analyse(fix, lang="en")
    assert a.change_type is ChangeType.SECURITY and a.importance is Importance.HIGH
    assert "Merge commit from fork" in a.notes[0]
    assert any("security advisory" in n for n in a.notes[1:])  # the evidence says why
    zh = RULES.analyse(fix, lang="zh")
    assert zh.change_type is ChangeType.SECURITY and "安全公告" in zh.notes[0]
    # the same message merged as a pull request from a fork: what the words say
    routes = fc("modules/caddyhttp/routes.go", 10, 5)
    pr = commit("Merge pull request #7 from someone/hosts", routes, body=body)
    assert RULES.analyse(pr, lang="en").change_type is ChangeType.PERFORMANCE
    # an advisory fork that changes only the project's CI ships nothing to users
    ci = commit("Merge commit from fork", fc(".github/workflows/release.yml", 3, 3), body="Pin.")
    assert RULES.analyse(ci, lang="en").change_type is not ChangeType.SECURITY


def test_a_removal_word_is_no_removal_when_no_source_is_removed() -> None:
    """prometheus 6f81b2271 ("delete last_update_timestamp metric on config reload", +2/−0)
    opened the report's "Act on" as a high-importance removal; uv 049c73d09 ("Remove
    dangling archives in `uv cache clean`", +52/−0) was one too. Neither removes a line."""
    title = "Merge pull request #19131 from someone/fix/discovery-last-update-metric-leak"
    body = "discovery: delete last_update_timestamp metric on config reload"
    files = (fc("discovery/manager.go", 2, 0), fc("discovery/manager_test.go", 8, 0))
    a = RULES.analyse(commit(title, *files, body=body), lang="en")
    assert a.change_type is ChangeType.BUGFIX and a.importance is Importance.MEDIUM
    assert "removes no line or file of source code" in a.notes[0] and "`delete`" in a.notes[0]
    assert "merged branch, `someone/fix/discovery-last-update-metric-leak`" in a.notes[0]
    nameless = RULES.analyse(commit("Merge pull request #19131 from someone/patch-1", *files,
                                    body=body), lang="en")  # fmt: skip
    assert nameless.change_type is ChangeType.OTHER and nameless.importance is Importance.LOW
    assert nameless.notes[0].startswith("The title says `delete`, but the commit removes no")
    cache = RULES.analyse(commit("Remove dangling archives in `uv cache clean`",
                                 fc("crates/uv-cache/src/lib.rs", 52, 0)), lang="en")  # fmt: skip
    assert cache.change_type is not ChangeType.REMOVAL and cache.importance is not Importance.HIGH
    fixed = commit("Remove tool.uv.sources table if it is empty",
                   fc("crates/uv/src/edit.rs", 14, 0), body="Resolves #8362")  # fmt: skip
    assert RULES.analyse(fixed, lang="en").change_type is ChangeType.BUGFIX
    # the look-alikes that stay removals: lines removed, a file deleted, a deprecation
    gone = commit(title, fc("discovery/manager.go", 2, 5), body=body)
    assert RULES.analyse(gone, lang="en").change_type is ChangeType.REMOVAL
    empty = commit("Remove the legacy module", fc("src/pkg/legacy.py", 0, 0, status="deleted"))
    assert RULES.analyse(empty, lang="en").change_type is ChangeType.REMOVAL
    going = commit("Removing dangling archives in `uv cache clean`", fc("crates/c/src/l.rs", 6, 0))
    assert RULES.analyse(going, lang="en").change_type is not ChangeType.REMOVAL
    warned = commit("Deprecate `--project` arg for init", fc("crates/uv-cli/src/lib.rs", 30, 0))
    assert RULES.analyse(warned, lang="en").change_type is ChangeType.REMOVAL
    # a tag the project chose is its own word, whatever the line counts
    stated = commit("[Removal] Drop the v1 endpoint", fc("src/pkg/api.py", 3, 0))
    assert RULES.analyse(stated, lang="en").change_type is ChangeType.REMOVAL


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("修复调度器在空队列时崩溃的问题", ChangeType.BUGFIX),
        ("新增缓存层", ChangeType.FEATURE),
        ("重构调度器", ChangeType.REFACTOR),
        ("移除旧的缓存接口", ChangeType.REMOVAL),
    ],
)
def test_a_chinese_title_states_its_type_too(title: str, expected: ChangeType) -> None:
    a = RULES.analyse(commit(title, fc("pkg/sched.py", 12, 3), body="队列为空时直接返回。"))
    assert a.change_type is expected
    assert "「队列为空时直接返回」。" in a.summary  # the quote's own full stop is not doubled


def test_a_scope_in_parentheses_after_the_tags_is_a_topic() -> None:
    info = parse_title("[Refactor] (kv_pool): simplify metadata helpers and unit tests (#14465)")
    assert info.clean_title == "simplify metadata helpers and unit tests"
    assert info.topic == "kv_pool"
    body = "### What?\nTranslated **16** file(s):\n"
    c = commit("[Doc] Translated Doc files", fc("docs/a.po", 9, 9), body=body)
    a = RULES.analyse(c, lang="en")
    assert "Translated **16** file(s).” It changes" in a.summary  # no sentence runs on


def test_the_lock_files_of_the_projects_tooling_are_its_tooling() -> None:
    """uv: a PEP 723 script's lock file and the benchmark's uv.lock are tooling, not a
    dependency users get."""
    c = commit(
        "Add SOCKS proxy support for publish tests",
        fc("scripts/publish/test_publish.py", 1, 1),
        fc("scripts/publish/test_publish.py.lock", 15, 1),
    )
    a = RULES.analyse(c, lang="en")
    assert a.change_type is ChangeType.CI_BUILD and a.importance is Importance.LOW


def test_a_message_in_chinese_is_quoted_in_english() -> None:
    c = commit("[Bugfix] Fix draft token offset", fc("pkg/a.py", 3, 1), body="同步上游更改")
    assert "The message says: “同步上游更改.”" in RULES.analyse(c, lang="en").summary
