"""Commit titles -> tags, conventional prefixes, reverts, change types."""

from __future__ import annotations

import pytest

from commitdigest.analysis.tags import (
    change_type_from_title,
    merged_branch_type,
    normalise_tag,
    parse_title,
)
from commitdigest.models import ChangeType

B, F, R, D = ChangeType.BUGFIX, ChangeType.FEATURE, ChangeType.REFACTOR, ChangeType.DOCUMENTATION
CI, P, T = ChangeType.CI_BUILD, ChangeType.PERFORMANCE, ChangeType.TEST

# All 45 titles of the vllm-project/vllm seed day 2026-01-13, with the type a reader expects.
# None: the title states no type (the files decide).
SEED_DAY_2026_01_13: list[tuple[str, ChangeType | None]] = [
    ("[BugFix] [KVConnector] Fix KV events for LMCache connector (#32169)", B),
    ("[Refactor] [7/N] to simplify the vLLM lora serving architecture (#32251)", R),
    ("[Refactor] Remove `MultiModalProfiler` (#32254)", R),
    ("[6/N][Attention] Move utils to more appropriate locations (#32215)", R),
    (
        "[Refactor] [6/N] to simplify the vLLM openai chat_completion serving"
        " architecture (#32240)",
        R,
    ),
    ("[Quantization] fix: overflow with static per-tensor scaling (#29867)", B),
    ("[Docs] Nixl Usage recommend `fail` kv_load_failure_policy (#32198)", D),
    ("[Bugfix] Replace `PoolingParams.normalize` with `use_activation` (#32243)", B),
    ("[Refactor] Remove `get_encoder_dummy_data` (#32241)", R),
    ("[Model] Use mm_position to compute mrope positions for Qwen2-VL/2.5-VL (#32126)", None),
    ("[ROCm][CI] Fix engine core client tests for ROCm spawn multiprocessing (#32061)", CI),
    ("[Doc] Update installation from source command (#32239)", D),
    ("[BugFix]Fix eagle draft_model_config and add tests (#31753)", B),
    (
        "[ROCm][CI] Fix HuggingFace flash_attention_2 accuracy issue in Isaac"
        " vision encoder (#32233)",
        CI,
    ),
    ("[ROCm][Bugfix] Fix Mamba batched decode producing incorrect output (#32099)", B),
    ("[Perf] Optimize requests abort (#32211)", P),
    ("Fix various typos found in `docs` (#32212)", D),
    ("[Frontend] Add `reasoning_effort` to `OpenAIServing._preprocess_chat()` (#31956)", F),
    ("[Misc] improve warning/assert messages (#32226)", None),
    ("[BugFix] Fix engine crash caused by chat tools + response_format (#32127)", B),
    ("[Misc] Allow enabling NCCL for DP sync when async scheduling (#32197)", F),
    ("[Model] Handle `trust_remote_code` for transformers backend (#32194)", None),
    ("[responsesAPI] add unit test for optional function tool call id (#32036)", T),
    ("[ROCm][CI] Handle pytest status code 5 when a shard isn't allocated any tests  (#32040)", CI),
    (
        "[Kernel][MoE] fix computation order of MoE weight multiplication and"
        " improve flow (#31962)",
        B,
    ),
    ("[Model Runner V2] Add support for M-RoPE (#32143)", F),
    ("[Model Runner V2] Minor refactor for logit_bias (#32209)", R),
    ("[BUGFIX] Add missed remaping of the names of fp8 kv-scale (#32199)", B),
    ("[NIXL][Bugfix] Failure logging overhaul + early metadata free on failure (#32031)", B),
    ("[Model Runner V2] Support logit_bias, allowed_token_ids, min_tokens (#32163)", F),
    ("[Misc][BE] Type coverage for vllm/compilation [3/3] (#31748)", R),
    ("[Misc] Change log level for batch queue log (#32192)", None),
    ("[BugFix] scheduler: Fix ordering preserving of skipped requests (#32173)", B),
    ("[Misc] Set default torch num threads for input processing (#31879)", None),
    ("[Refactor] EPLB rebalance algo to NumPy (#30697)", R),
    ("[BugFix] fix FusedMoE.make_expert_params_mapping in EXAONE-MoE (#32196)", B),
    (
        "[3/N][Attention] Move AttentionMetadata-related code from utils.py to backend.py (#32054)",
        R,
    ),
    ("[Benchmark] Share data between SLA runs (#32184)", None),
    ("[Misc][PD] Fix `get_attn_backend` usage in transfer connectors (#31988)", B),
    ("[Bugfix] Fix stale SSM state for new Mamba requests scheduled as decode (#32118)", B),
    ("[Model] Standardize pooling heads (#32148)", R),
    ("[FIX] Add NO_MUL activation support for modular kernel path (#31528)", B),
    ("[MODEL] New model support for kakaocorp/kanana-1.5-v-3b-instruct (#29384)", F),
    ("Add K-EXAONE-236B-A23B (#31621)", F),
    ("doc: Update model references in supported_models.md (#32188)", D),
]


def test_the_seed_day_is_complete() -> None:
    assert len(SEED_DAY_2026_01_13) == 45
    assert len({t for t, _ in SEED_DAY_2026_01_13}) == 45


@pytest.mark.parametrize(("title", "expected"), SEED_DAY_2026_01_13)
def test_seed_day_titles(title: str, expected: ChangeType | None) -> None:
    assert change_type_from_title(title) == expected


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("[Bugfix] x", B),
        ("[BugFix] x", B),
        ("[bugfix] x", B),
        ("[BUGFIX] x", B),
        ("[Bug Fix] x", B),
        ("[FIX] x", B),
        ("[Doc] x", D),
        ("[Docs] x", D),
        ("[CI] x", CI),
        ("[CI/Build] x", CI),
        ("[Perf] x", P),
        ("[PERF] x", P),
        ("[Refactor] x", R),
        ("[Chore] x", R),
        ("[Security] x", ChangeType.SECURITY),
        ("[Deprecation] x", ChangeType.REMOVAL),
        ("[Feature] x", F),
        ("[New Model] x", F),
        ("[Test] x", T),
        ("[Deps] x", ChangeType.DEPENDENCY),
        ("[Revert] x", ChangeType.REVERT),
    ],
)
def test_type_tags_in_any_case(title: str, expected: ChangeType) -> None:
    assert change_type_from_title(title) == expected


@pytest.mark.parametrize(
    "title",
    [
        "[Misc] x",
        "[Model Runner V2] x",
        "[1/N] x",
        "[ROCm] x",
        "[Core] x",
        "[Model] x",
        "[MODEL] x",
        "[Kernel][MoE] x",
        "[Frontend] x",
        "[Benchmark] x",
        "[6/N][Attention] x",
    ],
)
def test_area_tags_are_skipped_not_other(title: str) -> None:
    assert change_type_from_title(title) is None


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("[ROCm][Bugfix] Fix x", B),  # area tag + type tag
        ("[CI][Bugfix] Fix flaky x", B),  # bugfix > ci_build
        ("[Doc][Bugfix] Fix broken link", B),
        ("[Perf][Refactor] Rewrite x", P),  # performance > refactor
        ("[Refactor][Deprecation] x", ChangeType.REMOVAL),
        ("[Bugfix][Security] x", ChangeType.SECURITY),
        ("[ROCm][CI] Fix x", CI),  # a type tag beats the keyword "fix": a fix to CI
        ("[Refactor] Remove x", R),  # the tag beats the keyword "remove"
        ("[Bugfix] Fix CVE-2025-12345 in the loader", ChangeType.SECURITY),  # security word wins
        ('Revert "[Bugfix] Fix x (#1)" (#2)', ChangeType.REVERT),  # revert wins over everything
        ("[Misc][BE] x", R),  # BE ("better engineering") is a refactor tag
    ],
)
def test_precedence(title: str, expected: ChangeType) -> None:
    assert change_type_from_title(title) == expected


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("fix: handle empty input", B),
        ("fix(parser): handle empty input", B),
        ("feat(x): add y", F),
        ("feat!: drop python 3.8", F),
        ("docs: fix typo", D),
        ("perf: cache lookups", P),
        ("refactor!: split module", R),
        ("chore(deps): bump foo from 1.2 to 1.3", ChangeType.DEPENDENCY),
        ("build(deps): bump foo", ChangeType.DEPENDENCY),
        ("chore: tidy", R),
        ("build: use setuptools 69", CI),
        ("ci: run on py3.13", CI),
        ("test: cover the edge case", T),
        ("revert: feat(x): add y", ChangeType.REVERT),
        ('Revert "Add foo"', ChangeType.REVERT),
        ("Revert: add foo", ChangeType.REVERT),
        ("[Quantization] fix: overflow", B),  # conventional prefix after tags
    ],
)
def test_conventional_commits_and_reverts(title: str, expected: ChangeType) -> None:
    assert change_type_from_title(title) == expected


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Fix crash on empty batch", B),
        ("Bug in scheduler ordering", B),
        ("Correct typo in README", D),
        ("Add support for Qwen3", F),
        ("New model: Foo-7B", F),
        ("Remove the legacy engine", ChangeType.REMOVAL),
        ("Deprecate the old flag", ChangeType.REMOVAL),
        ("Remove unused helpers", R),  # removing dead code is a cleanup, not a removal
        # deprecation warnings handled, NumPy's (xarray 78707f5): no deprecation of its own
        ("Address additional upstream deprecation warnings", R),
        ("Silence the pandas deprecation warning in io", R),
        # a noun before them ("filter", "resolver") is no handling: werkzeug adb0cd74
        ("default filter add changelog add deprecation warning", ChangeType.REMOVAL),
        ("The legacy resolver now shows a deprecation warning", ChangeType.REMOVAL),
        ("Deprecate the decode_times argument", ChangeType.REMOVAL),
        ("Patch for CVE-2024-0001", ChangeType.SECURITY),
        ("Harden against a path traversal vulnerability", ChangeType.SECURITY),
        ("Bump torch from 2.4 to 2.5", ChangeType.DEPENDENCY),
        ("Upgrade transformers to 4.50", ChangeType.DEPENDENCY),
        ("Speed-up of GDN attention decode", P),
        ("Optimize the sampler", P),
        ("Move utils into a package", R),
        ("Tweak the thing", None),
        ("scheduler: keep order", None),  # not a conventional type
        ("make 500: InternalServerError more informative", None),
    ],
)
def test_keyword_fallbacks(title: str, expected: ChangeType | None) -> None:
    assert change_type_from_title(title) == expected


def test_parse_title_parts() -> None:
    info = parse_title("[ROCm][CI] Fix engine core client tests  (#32061)")
    assert info.tags == ("ROCm", "CI")
    assert info.tag_keys == ("rocm", "ci")
    assert info.clean_title == "Fix engine core client tests"
    assert info.pr_number == 32061
    assert info.conventional_type is None and not info.is_revert and not info.breaking

    info = parse_title("[Misc][BE] Type coverage for vllm/compilation [3/3] (#31748)")
    assert info.tags == ("Misc", "BE", "3/3")
    assert info.clean_title == "Type coverage for vllm/compilation [3/3]"

    info = parse_title("[BugFix]Fix eagle")
    assert info.tags == ("BugFix",) and info.clean_title == "Fix eagle" and info.pr_number is None

    info = parse_title("feat(api)!: drop v1 (#7)")
    assert info.conventional_type == "feat"
    assert info.conventional_scope == "api"
    assert info.breaking
    assert info.clean_title == "drop v1"
    assert info.pr_number == 7

    info = parse_title('Revert "[Bugfix] Fix x (#1)" (#2)')
    assert info.is_revert and info.tags == () and info.pr_number == 2


def test_parse_title_edge_cases() -> None:
    assert parse_title("").clean_title == ""
    assert parse_title("[Misc]").clean_title == "[Misc]"
    assert parse_title("first line\nsecond line").title == "first line"
    assert normalise_tag("Model Runner V2") == "modelrunnerv2"
    assert normalise_tag("CI/Build") == "cibuild"


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Merge pull request #19131 from someone/fix/discovery-metric-leak", ChangeType.BUGFIX),
        ("Merge pull request #19399 from owner/owner/fix-uds-conn-reuse", ChangeType.BUGFIX),
        ("Merge pull request #7 from someone/feature_tracing", ChangeType.FEATURE),
        ("Merge pull request #8 from someone/perf/postings", ChangeType.PERFORMANCE),
        ("Merge pull request #7 From someone/fix-x", ChangeType.BUGFIX),  # (once an IndexError)
        ("Merge pull request #9 from fix/patch-1", None),  # the owner "fix" is no branch
        ("Merge pull request #10 from someone/prefix-cache", None),  # "prefix" is no "fix"
        ("Merge pull request #11 from someone/patch-1", None),
        ("fix/discovery: delete a metric", None),  # not a merge's title
    ],
)
def test_a_merged_branch_name_says_its_type(title: str, expected: ChangeType | None) -> None:
    found = merged_branch_type(title)
    assert (found[0] if found else None) is expected
