"""Followed repositories: names, focus matching, and `commitdigest repos` editing the file."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest
import typer
from hypothesis import given
from hypothesis import strategies as st
from isolated import isolate_settings
from pydantic import ValidationError
from typer.testing import CliRunner

from commitdigest.analysis.focus import focus_matches
from commitdigest.cli.config import config_app, repos_app
from commitdigest.config import load_settings
from commitdigest.config.edit import add_subscription
from commitdigest.config.subscriptions import (
    NEW_FILE_HEADER,
    Focus,
    Repository,
    append_entry,
    find_entry,
    parse_repository_name,
    remove_entry,
)
from commitdigest.errors import UsageError

app = typer.Typer()
app.add_typer(config_app, name="config")
app.add_typer(repos_app, name="repos")
runner = CliRunner()

EXISTING = """\
# My settings — keep this header.
language = "en"  # English, please
formats = ["md", "json"]

[llm]
model = "qwen3"  # served locally

# vLLM: watch the platform layer
[[repositories]]
name = "vllm-project/vllm"  # upstream
branch = "main"

[repositories.focus]
paths = ["vllm/platforms/**"]
emphasis = "对昇腾 NPU 插件的影响"

# sglang comes next
[[repositories]]
name = "sgl-project/sglang"

[github]
max_concurrency = 2  # be gentle
"""


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    return isolate_settings(monkeypatch, tmp_path)


def cli(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def config_file(tmp_path: Path, text: str = EXISTING) -> Path:
    path = tmp_path / "commitdigest.toml"
    path.write_bytes(text.encode("utf-8"))
    return path


# --- names -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "kind", "key", "slug"),
    [
        ("vllm-project/vllm", "github", "github.com/vllm-project/vllm", "vllm-project/vllm"),
        ("VLLM-Project/vLLM", "github", "github.com/vllm-project/vllm", "VLLM-Project/vLLM"),
        ("https://github.com/a/b", "github", "github.com/a/b", "a/b"),
        ("https://www.github.com/A/B.git/", "github", "github.com/a/b", "A/B"),
        ("git@github.com:a/b.git", "github", "github.com/a/b", "a/b"),
        ("ssh://git@github.com/a/b.git", "github", "github.com/a/b", "a/b"),
        ("github.com/a/b", "github", "github.com/a/b", "a/b"),
        ("https://gitlab.com/g/sub/p.git", "url", "gitlab.com/g/sub/p", None),
        ("https://ghe.corp/o/r", "url", "ghe.corp/o/r", "o/r"),
        ("./vllm-project/vllm", "path", "path:vllm-project/vllm", None),
        ("/src/x/", "path", "path:/src/x", None),
        ("vllm", "path", "path:vllm", None),
        ("a/b/c", "path", "path:a/b/c", None),
    ],
)
def test_names_are_classified_and_normalised(
    name: str, kind: str, key: str, slug: str | None
) -> None:
    assert parse_repository_name(name) == (kind, key, slug)


def test_home_paths_are_expanded_in_the_key() -> None:
    assert parse_repository_name("~/src/x")[1] == "path:" + os.path.expanduser("~/src/x")


@pytest.mark.parametrize("name", ["https://github.com/a", "https://github.com/a/b/tree/main"])
def test_github_urls_need_owner_and_repo(name: str) -> None:
    with pytest.raises(ValueError, match="not a GitHub repository URL"):
        parse_repository_name(name)


def test_source_defaults_from_the_name_and_is_checked() -> None:
    assert Repository(name="a/b").source == "github"  # type: ignore[call-arg]
    assert Repository(name="~/src/x").source == "git"  # type: ignore[call-arg]
    assert Repository(name="https://gitlab.com/g/p").source == "git"  # type: ignore[call-arg]
    assert Repository(name="a/b", source="git").source == "git"  # mirror mode
    assert Repository(name="https://ghe.corp/o/r", source="github").slug == "o/r"
    with pytest.raises(ValidationError, match="source 'github' needs owner/repo"):
        Repository(name="./here", source="github")
    with pytest.raises(ValidationError, match="not a branch name"):
        Repository(name="a/b", branch="-x")  # type: ignore[call-arg]


# --- focus -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("glob", "path", "hit"),
    [
        ("vllm/platforms/**", "vllm/platforms/npu.py", True),
        ("vllm/platforms/**", "vllm/platforms/ascend/ops/x.py", True),
        ("vllm/platforms/**", "vllm/platform.py", False),
        ("vllm/platforms", "vllm/platforms/npu.py", True),  # a folder: what is in it
        ("docs/", "docs/a/b.md", True),
        ("vllm/*.py", "vllm/config.py", True),
        ("vllm/*.py", "vllm/core/config.py", False),  # * stays within a level
        ("vllm/**/*.py", "vllm/config.py", True),  # ** also matches no level
        ("vllm/**/*.py", "vllm/a/b/config.py", True),
        ("*.cu", "csrc/attention/attn.cu", True),  # no slash: any depth
        ("*.cu", "csrc/attention/attn.cuh", False),
        ("/setup.py", "setup.py", True),
        ("/setup.py", "tools/setup.py", False),  # anchored
        ("setup.py", "tools/setup.py", True),
        ("csrc/[ab]*.cu", "csrc/a1.cu", True),
        ("csrc/[!ab]*.cu", "csrc/a1.cu", False),
        ("csrc/?.cu", "csrc/ab.cu", False),
        ("Vllm/**", "vllm/x.py", False),  # paths are case-sensitive
        ("a[b", "a[b", True),  # an unclosed [ is literal
    ],
)
def test_focus_globs(glob: str, path: str, hit: bool) -> None:
    assert focus_matches(Focus(paths=[glob]), [path], "") is hit


@pytest.mark.parametrize(
    ("keyword", "text", "hit"),
    [
        ("NPU", "[Hardware] add npu graph mode", True),
        ("npu", "Fix NPU OOM", True),
        ("npu", "torch_npu 2.5 support", True),
        ("npu", "AscendNPU backend", True),  # camelCase word start
        ("npu", "npus are faster", True),
        ("npu", "validate inputs", False),  # not a word start
        ("custom op", "Register Custom Op for rotary", True),
        ("昇腾", "适配昇腾芯片", True),  # Chinese: anywhere
        ("kv", "", False),
    ],
)
def test_focus_keywords(keyword: str, text: str, hit: bool) -> None:
    assert focus_matches(Focus(keywords=[keyword]), [], text) is hit


def test_focus_matches_either_and_nothing_when_empty() -> None:
    focus = Focus(paths=["csrc/**"], keywords=["NPU"], emphasis=" 影响 ")
    assert focus.emphasis == "影响" and focus.is_set
    assert focus_matches(focus, ["README.md", "csrc/x.cu"], "docs")
    assert focus_matches(focus, ["README.md"], "npu fix")
    assert not focus_matches(focus, ["README.md"], "docs")
    assert not focus_matches(Focus(), ["a.py"], "anything") and not Focus().is_set


segment = st.text(alphabet="abcXYZ019_-.", min_size=1, max_size=6).filter(
    lambda s: s not in {".", ".."}
)


@given(st.lists(segment, min_size=1, max_size=5), st.integers(min_value=1, max_value=5))
def test_a_literal_path_and_its_folders_match_it(parts: list[str], cut: int) -> None:
    path = "/".join(parts)
    folder = "/".join(parts[: min(cut, len(parts))])
    assert focus_matches(Focus(paths=[path]), [path], "")
    assert focus_matches(Focus(paths=[folder]), [path], "")
    assert focus_matches(Focus(paths=[folder + "/**"]), [path], "") is (len(parts) > cut)


# --- text edits --------------------------------------------------------------------------


def test_append_keeps_every_byte_and_adds_one_table() -> None:
    new = append_entry(EXISTING, {"name": "a/b", "focus": {"keywords": ["x"]}})
    assert new.startswith(EXISTING + "\n[[repositories]]\n")
    assert tomllib.loads(new)["repositories"][-1] == {"name": "a/b", "focus": {"keywords": ["x"]}}
    crlf = EXISTING.replace("\n", "\r\n")
    assert "\n" not in append_entry(crlf, {"name": "a/b"}).replace("\r\n", "")


def test_remove_takes_the_entry_and_its_comment_only() -> None:
    new = remove_entry(EXISTING, 0)
    before, after = EXISTING.split("# vLLM: watch", 1)
    assert new == before + "# sglang comes next" + after.split("# sglang comes next", 1)[1]
    last = remove_entry(EXISTING, 1)
    assert last == EXISTING.replace(
        '# sglang comes next\n[[repositories]]\nname = "sgl-project/sglang"\n\n', ""
    )
    assert "[github]\nmax_concurrency = 2  # be gentle\n" in last


def test_remove_the_only_entry_at_the_end_of_the_file() -> None:
    text = NEW_FILE_HEADER + '\n[[repositories]]\nname = "a/b"\n\n'
    assert remove_entry(text, 0) == NEW_FILE_HEADER


def test_edits_refuse_layouts_they_cannot_do_safely() -> None:
    inline = 'repositories = [{ name = "a/b" }]\n'
    with pytest.raises(ValueError, match="inline array"):
        append_entry(inline, {"name": "c/d"})
    with pytest.raises(ValueError, match="edit the file by hand"):
        remove_entry(inline, 0)
    tricky = '[[repositories]]\nname = "a/b"\n[repositories.focus]\nemphasis = """\n[x]\n"""\n'
    with pytest.raises(ValueError, match="edit it by hand"):
        remove_entry(tricky, 0)


def test_find_entry_uses_every_name_form() -> None:
    entries = [{"name": "x"}, {"name": "https://github.com/A"}, {"name": "Owner/Repo"}]
    assert find_entry(entries, "git@github.com:owner/repo.git") == 2
    assert find_entry(entries, "./x/") == 0
    assert find_entry(entries, "other/repo") is None


# --- commands ----------------------------------------------------------------------------


def test_add_keeps_comments_and_unrelated_keys(tmp_path: Path) -> None:
    path = config_file(tmp_path)
    code, out, err = cli(
        "repos", "add", "https://github.com/vllm-project/vllm-ascend", "--config", str(path),
        "--branch", "v0.9", "--path", "vllm_ascend/**", "--path", "csrc/*.cpp",
        "--keyword", "NPU", "--emphasis", "对 vllm 升级的适配：接口变化、算子注册",
    )  # fmt: skip
    assert code == 0, err
    assert "following https://github.com/vllm-project/vllm-ascend" in out
    text = path.read_bytes().decode("utf-8")  # strict UTF-8
    assert text.startswith(EXISTING)
    added = tomllib.loads(text)["repositories"][-1]
    assert added == {
        "name": "https://github.com/vllm-project/vllm-ascend",
        "branch": "v0.9",
        "focus": {
            "paths": ["vllm_ascend/**", "csrc/*.cpp"],
            "keywords": ["NPU"],
            "emphasis": "对 vllm 升级的适配：接口变化、算子注册",
        },
    }
    repo = load_settings(path).repositories[-1]
    assert (
        repo.source == "github" and repo.focus.emphasis == "对 vllm 升级的适配：接口变化、算子注册"
    )


def test_add_creates_the_file_with_a_header(clean_env: Path) -> None:
    code, out, err = cli("repos", "add", "a/b", "--source", "git")
    assert code == 0, err
    path = clean_env / "commitdigest.toml"
    text = path.read_text(encoding="utf-8")
    assert text == NEW_FILE_HEADER + '\n[[repositories]]\nname = "a/b"\nsource = "git"\n'
    assert str(path) in out


def test_add_refuses_a_duplicate_and_leaves_the_file(tmp_path: Path) -> None:
    path = config_file(tmp_path)
    code, _, err = cli(
        "repos", "add", "git@github.com:VLLM-PROJECT/vllm.git", "--config", str(path)
    )
    assert code == 2 and "already followed" in err and "'vllm-project/vllm'" in err
    assert err.count("\n") == 1
    assert path.read_text(encoding="utf-8") == EXISTING


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("a/b", "--source", "svn"), "repository 'a/b': source: Input should be 'github' or 'git'"),
        (("./here", "--source", "github"), "source 'github' needs owner/repo"),
        (("a/b", "--path", " "), "repository 'a/b': focus.paths: item 0 is empty"),
        (("  ",), "repository '  ': name: must not be empty"),
    ],
)
def test_add_refuses_an_invalid_entry(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    path = config_file(tmp_path)
    code, _, err = cli("repos", "add", *args, "--config", str(path))
    assert code == 2 and message in err, err
    assert path.read_text(encoding="utf-8") == EXISTING


def test_add_refuses_to_edit_an_invalid_file(tmp_path: Path) -> None:
    bad = EXISTING.replace('language = "en"', 'language = "fr"')
    path = config_file(tmp_path, bad)
    code, _, err = cli("repos", "add", "a/b", "--config", str(path))
    assert code == 2 and f"config file {path}: language:" in err
    path.write_text("not toml at all", encoding="utf-8")
    code, _, err = cli("repos", "add", "a/b", "--config", str(path))
    assert code == 2 and "is not valid TOML" in err
    assert path.read_text(encoding="utf-8") == "not toml at all"


def test_remove_keeps_everything_else(tmp_path: Path) -> None:
    path = config_file(tmp_path)
    code, out, err = cli(
        "repos", "remove", "https://github.com/VLLM-project/vllm", "--config", str(path)
    )
    assert code == 0, err
    assert "removed vllm-project/vllm" in out
    assert path.read_text(encoding="utf-8") == remove_entry(EXISTING, 0)
    assert [r.name for r in load_settings(path).repositories] == ["sgl-project/sglang"]


def test_remove_an_absent_repository_is_exit_2(tmp_path: Path, clean_env: Path) -> None:
    path = config_file(tmp_path)
    code, _, err = cli("repos", "remove", "a/b", "--config", str(path))
    assert (
        code == 2
        and err == f"error: a/b is not followed in {path} (see: commitdigest repos list)\n"
    )
    assert path.read_text(encoding="utf-8") == EXISTING
    code, _, err = cli("repos", "remove", "a/b")
    assert code == 2 and "does not exist" in err


def test_remove_fixes_a_duplicate(tmp_path: Path) -> None:
    dup = EXISTING + '\n[[repositories]]\nname = "SGL-Project/SGLang"\n'
    path = config_file(tmp_path, dup)
    with pytest.raises(UsageError, match="same repository"):
        load_settings(path)
    code, _, err = cli("repos", "remove", "sgl-project/sglang", "--config", str(path))
    assert code == 0, err
    assert [r.name for r in load_settings(path).repositories] == [
        "vllm-project/vllm",
        "SGL-Project/SGLang",
    ]


def test_add_then_remove_restores_the_file(tmp_path: Path) -> None:
    path = config_file(tmp_path)
    add_subscription(path, "x/y", emphasis="中文 emphasis")
    assert path.read_text(encoding="utf-8") != EXISTING
    assert cli("repos", "remove", "x/y", "--config", str(path))[0] == 0
    assert path.read_text(encoding="utf-8") == EXISTING


def test_edits_follow_a_symlinked_file(tmp_path: Path) -> None:
    real = config_file(tmp_path)
    link = tmp_path / "link.toml"
    link.symlink_to(real)
    assert cli("repos", "add", "x/y", "--config", str(link))[0] == 0
    assert link.is_symlink() and "x/y" in real.read_text(encoding="utf-8")


def test_list_shows_the_repositories(tmp_path: Path) -> None:
    path = config_file(tmp_path)
    code, out, err = cli("repos", "list", "--config", str(path))
    assert code == 0, err
    for cell in ("vllm-project/vllm", "sgl-project/sglang", "github", "main", "vllm/platforms/**"):
        assert cell in out
    assert "昇腾" in out
    code, out, _ = cli("repos", "list")
    assert code == 0 and "no repositories followed" in out


def test_the_focus_raises_one_level_and_names_what_matched() -> None:
    from datetime import UTC, datetime

    from commitdigest.analysis.focus import apply_focus
    from commitdigest.models import (
        Analysis,
        ChangeType,
        Commit,
        FileChange,
        FileStatus,
        Importance,
    )

    def commit(title: str, *paths: str) -> Commit:
        when = datetime(2026, 7, 28, tzinfo=UTC)
        files = tuple(
            FileChange(path=p, status=FileStatus.MODIFIED, additions=1, deletions=1, patch="")
            for p in paths
        )
        return Commit(
            sha="a" * 40,
            parents=(),
            title=title,
            body="",
            author="a",
            author_email="",
            authored_at=when,
            committed_at=when,
            files=files,
        )

    medium = Analysis(change_type=ChangeType.OTHER, importance=Importance.MEDIUM, summary="s",
                      analyser="rules", analyser_version="1")  # fmt: skip
    focus = Focus(paths=["crates/uv-cli/**", "crates/uv-resolver/**"], keywords=["pylock", "hash"])
    got = apply_focus(medium, commit("Tidy", "crates/uv-cli/src/lib.rs", "README.md"), focus, "en")
    assert got.importance is Importance.HIGH
    assert got.notes[-1] == "focus: matched `crates/uv-cli/src/lib.rs`; importance raised one level"
    # a version bump touches every crate's manifest: that is not the focus's code
    bump = commit(
        "Bump version to 0.12.0", "crates/uv-cli/Cargo.toml", "Cargo.lock", "CHANGELOG.md"
    )
    assert apply_focus(medium, bump, focus, "en") == medium
    got = apply_focus(medium, commit("Reject MD5-only hash pins", "src/x.rs"), focus, "zh")
    assert got.notes[-1] == "关注范围：提到了关键词 `hash`，重要程度上调一级"
