"""Settings: the file, the environment, secrets, errors, and `commitdigest config`."""

from __future__ import annotations

import re
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest
import typer
from isolated import isolate_settings
from pydantic import BaseModel
from typer.testing import CliRunner

from commitdigest.analysis.focus import focus_matches
from commitdigest.cli.config import config_app, repos_app
from commitdigest.config import (
    Settings,
    find_config,
    load_settings,
    validate_file_data,
)
from commitdigest.errors import UsageError

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "commitdigest.toml"
DOCS = ROOT / "docs" / "config.md"
SECRET = "sk-test-0123456789abcdef"

app = typer.Typer()
app.add_typer(config_app, name="config")
app.add_typer(repos_app, name="repos")
runner = CliRunner()


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    return isolate_settings(monkeypatch, tmp_path)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def error_of(text: str, tmp_path: Path) -> str:
    with pytest.raises(UsageError) as info:
        load_settings(write(tmp_path / "c.toml", text))
    return info.value.message


def test_defaults_without_a_file() -> None:
    s = load_settings(None)
    assert (s.language, s.formats, s.timezone, s.config_file) == ("zh", ["md"], None, None)
    assert s.github.api_url == "https://api.github.com"
    assert (s.github.max_concurrency, s.github.rate_limit_max_wait_s) == (4, 900)
    assert (s.run.first_run_days_back, s.repositories) == (1, [])
    assert s.llm.api_key is None and s.github.token is None


def test_the_example_file_loads_and_uses_every_section() -> None:
    s = load_settings(EXAMPLE)
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    assert set(data) == set(Settings.model_fields) - {"repositories"} | {"repositories"}
    assert s.config_file == EXAMPLE and s.timezone == "Asia/Shanghai"
    assert [r.source for r in s.repositories] == ["github", "git", "git"]
    vllm = s.repositories[0]
    assert vllm.slug == "vllm-project/vllm" and vllm.branch == "main"
    assert vllm.focus.emphasis is not None and "昇腾" in vllm.focus.emphasis
    assert focus_matches(vllm.focus, ["vllm/platforms/npu.py"], "")


def _fields(model: type[BaseModel], prefix: str = "") -> list[str]:
    names: list[str] = []
    for name, field in model.model_fields.items():
        names.append(prefix + name)
        ann = field.annotation
        inner = getattr(ann, "__args__", (ann,))
        for t in inner:
            if isinstance(t, type) and issubclass(t, BaseModel) and name != "repositories":
                names.extend(_fields(t, f"{prefix}{name}."))
    return names


def test_docs_describe_every_field() -> None:
    docs = DOCS.read_text(encoding="utf-8")
    from commitdigest.config import Focus, Repository

    keys = _fields(Settings) + _fields(Repository) + _fields(Focus)
    assert len(keys) > 40
    forms = ("| `{}` |", "`[{}]`", "`[[{}]]`")  # a table row, or a section heading
    missing = [k for k in keys if not any(f.format(k.rsplit(".", 1)[-1]) in docs for f in forms)]
    assert not missing, f"docs/config.md lacks {missing}"


def test_environment_overrides_the_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = write(tmp_path / "c.toml", 'language = "zh"\n[llm]\nmodel = "gpt-4o"\ntimeout_s = 30\n')
    monkeypatch.setenv("COMMITDIGEST_LLM__MODEL", "qwen3")
    monkeypatch.setenv("COMMITDIGEST_LANGUAGE", "en")
    monkeypatch.setenv("COMMITDIGEST_FORMATS", "md, JSON")
    monkeypatch.setenv("COMMITDIGEST_GITHUB__MAX_CONCURRENCY", "2")
    s = load_settings(path)
    assert (s.llm.model, s.language, s.formats) == ("qwen3", "en", ["md", "json"])
    assert s.llm.timeout_s == 30  # the file's other keys in the same table stay
    assert s.github.max_concurrency == 2
    monkeypatch.setenv("COMMITDIGEST_FORMATS", '["json"]')
    assert load_settings(path).formats == ["json"]


def test_an_unparsable_environment_value_is_a_usage_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COMMITDIGEST_LLM", "{not json")
    with pytest.raises(UsageError, match=r"COMMITDIGEST_LLM: cannot parse its value"):
        load_settings(None)


@pytest.mark.parametrize(
    ("text", "key", "var"),
    [
        ('[llm]\napi_key = "sk-abc"\n', "llm.api_key", "OPENAI_API_KEY"),
        ('[github]\ntoken = "ghp_abc"\n', "github.token", "GITHUB_TOKEN"),
        ('[[repositories]]\nname = "a/b"\ntoken = "x"\n', "repositories[0].token", "GITHUB_TOKEN"),
    ],
)
def test_secrets_in_the_file_are_refused(text: str, key: str, var: str, tmp_path: Path) -> None:
    message = error_of(text, tmp_path)
    assert key in message and var in message and "environment" in message
    assert "abc" not in message


def test_secrets_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("GH_TOKEN", "gh-second")
    s = load_settings(None)
    assert s.llm.api_key is not None and s.llm.api_key.get_secret_value() == SECRET
    assert s.secret_source("llm.api_key") == "OPENAI_API_KEY"
    assert s.github.token is not None and s.github.token.get_secret_value() == "gh-second"
    assert s.secret_source("github.token") == "GH_TOKEN"
    monkeypatch.setenv("GITHUB_TOKEN", "gh-first")
    s = load_settings(None)
    assert s.github.token is not None and s.github.token.get_secret_value() == "gh-first"
    assert s.secret_source("github.token") == "GITHUB_TOKEN"
    monkeypatch.setenv("COMMITDIGEST_LLM__API_KEY", "sk-own")
    s = load_settings(None)
    assert s.llm.api_key is not None and s.llm.api_key.get_secret_value() == "sk-own"
    assert s.secret_source("llm.api_key") == "COMMITDIGEST_LLM__API_KEY"
    assert SECRET not in repr(s) and "gh-first" not in str(s)


def test_standard_urls_fill_only_what_the_file_leaves_out(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("GITHUB_API_URL", "https://ghe.example.com/api/v3/")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://localhost:8000/v1")
    s = load_settings(None)
    assert s.github.api_url == "https://ghe.example.com/api/v3"
    assert s.llm.base_url == "http://localhost:8000/v1"
    path = write(tmp_path / "c.toml", '[github]\napi_url = "https://api.github.com"\n')
    assert load_settings(path).github.api_url == "https://api.github.com"
    monkeypatch.setenv("GITHUB_API_URL", "ftp://nope")
    with pytest.raises(UsageError, match="GITHUB_API_URL"):
        load_settings(None)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('language = "fr"\n', r"c\.toml: language: Input should be 'zh' or 'en' \(got 'fr'\)"),
        ("[llm]\nmodle = 1\n", r"llm\.modle: unknown key"),
        ('timezone = "Mars/Base"\n', r"timezone: unknown time zone 'Mars/Base'"),
        ("formats = []\n", r"formats: needs at least one format"),
        ('formats = ["pdf"]\n', r"formats\[0\]: .*'md', 'json' or 'html'"),
        ("[github]\nmax_concurrency = 0\n", r"github\.max_concurrency: .*greater than or equal"),
        ('[github]\napi_url = "api.github.com"\n', r"github\.api_url: must be an http\(s\) URL"),
        ("[run]\nfirst_run_days_back = 0\n", r"run\.first_run_days_back"),
        ('[[repositories]]\nname = "  "\n', r"repositories\[0\]\.name: must not be empty"),
        ("[[repositories]]\nbranch = 'main'\n", r"repositories\[0\]\.name: Field required"),
        (
            '[[repositories]]\nname = "a/b"\nsource = "svn"\n',
            r"repositories\[0\]\.source: Input should be 'github' or 'git' \(got 'svn'\)",
        ),
        (
            '[[repositories]]\nname = "./local"\nsource = "github"\n',
            r"repositories\[0\]: source 'github' needs owner/repo",
        ),
        (
            '[[repositories]]\nname = "a/b"\n[repositories.focus]\npaths = ["x", " "]\n',
            r"repositories\[0\]\.focus\.paths: item 1 is empty",
        ),
        (
            '[[repositories]]\nname = "a/b"\n[repositories.focus]\nkeywords = [""]\n',
            r"repositories\[0\]\.focus\.keywords: item 0 is empty",
        ),
        (
            '[[repositories]]\nname = "https://github.com/a"\n',
            r"repositories\[0\]\.name: not a GitHub repository URL",
        ),
        (
            '[[repositories]]\nname = "Owner/Repo"\n[[repositories]]\n'
            'name = "https://github.com/owner/repo.git"\n',
            r"repositories: repositories\[1\] 'https://github.com/owner/repo.git' is the same "
            r"repository as repositories\[0\] 'Owner/Repo'",
        ),
        ("language = \n", r"is not valid TOML: .*line 1"),
    ],
)
def test_invalid_files_give_one_line_with_the_key(text: str, expected: str, tmp_path: Path) -> None:
    message = error_of(text, tmp_path)
    assert "\n" not in message
    assert message.startswith(("config file ", f"config file {tmp_path}"))
    assert re.search(expected, message), message


def test_an_error_from_the_environment_names_the_variable(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("COMMITDIGEST_LLM__TEMPERATURE", "9")
    message = error_of('[llm]\nmodel = "x"\n', tmp_path)
    assert message.startswith("environment variable COMMITDIGEST_LLM__TEMPERATURE: llm.temperature")


def test_validate_file_data_ignores_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("COMMITDIGEST_LANGUAGE", "fr")
    assert validate_file_data({"language": "en"}, tmp_path / "c.toml").language == "en"


def test_find_config_prefers_the_current_folder(clean_env: Path, tmp_path: Path) -> None:
    assert find_config() is None
    home_file = write(clean_env / "commitdigest.toml", "")
    assert find_config() == home_file
    here = write(Path.cwd() / "commitdigest.toml", "")
    assert find_config() == here
    assert find_config(home_file) == home_file
    with pytest.raises(UsageError, match="does not exist"):
        find_config(tmp_path / "nope.toml")


def test_loading_is_fast_and_has_no_side_effects(clean_env: Path) -> None:
    code = (
        "import sys, time; from pathlib import Path; t = time.perf_counter();"
        "from commitdigest.config import load_settings; s = load_settings(Path(sys.argv[1]));"
        "assert 'tomlkit' not in sys.modules, 'tomlkit imported';"
        "print(time.perf_counter() - t)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(EXAMPLE)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert not clean_env.exists()  # nothing created in the home folder
    start = time.perf_counter()
    for _ in range(20):
        load_settings(EXAMPLE)
    assert (time.perf_counter() - start) / 20 < 0.05  # measured: about 1 ms


def cli(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_config_check_prints_the_effective_settings_with_secrets_masked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("COMMITDIGEST_LLM__MODEL", "qwen3")
    monkeypatch.setenv("FEISHU_WEBHOOK_URL", "https://open.feishu.cn/open-apis/bot/v2/hook/x")
    monkeypatch.setenv("FEISHU_SECRET", "feishu-secret-value")
    monkeypatch.setenv("SMTP_PASSWORD", "smtp-password-value")
    code, out, err = cli("config", "check", "--config", str(EXAMPLE))
    assert code == 0, err
    assert out.splitlines()[0] == f"# config file: {EXAMPLE}"
    assert SECRET not in out and 'api_key = "********" # from OPENAI_API_KEY' in out
    assert "# token: not set (set GITHUB_TOKEN or GH_TOKEN)" in out
    shown: dict[str, Any] = tomllib.loads(out)  # the whole output is TOML
    assert shown["llm"]["model"] == "qwen3" and shown["timezone"] == "Asia/Shanghai"
    assert [r["name"] for r in shown["repositories"]] == [
        r.name for r in load_settings(EXAMPLE).repositories
    ]
    del shown["llm"]["api_key"]
    assert validate_file_data(shown, EXAMPLE).llm.model == "qwen3"  # round-trips


def test_config_check_names_each_missing_secret_and_a_password_without_tls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HOOK_URL", raising=False)
    monkeypatch.setenv("SLACK_URL", "not-a-url-secret-value")
    monkeypatch.setenv("SMTP_PASS", "smtp-secret-value")
    path = write(
        tmp_path / "c.toml",
        '[[deliver]]\nname = "hook"\ntype = "webhook"\nurl_env = "HOOK_URL"\n\n'
        '[[deliver]]\nname = "s"\ntype = "slack"\nurl_env = "SLACK_URL"\n\n'
        '[[deliver]]\nname = "mail"\ntype = "email"\nhost = "smtp.example.org"\n'
        'security = "none"\nusername = "u"\npassword_env = "SMTP_PASS"\n'
        'sender = "a@example.org"\nto = ["b@example.org"]\n',
    )
    code, out, err = cli("config", "check", "--config", str(path))
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert any("HOOK_URL" in line and "is not set" in line for line in lines)
    assert any("SLACK_URL does not hold an http(s) URL" in line for line in lines)
    assert any(line.startswith("warning:") and "without TLS" in line for line in lines)
    assert "secret-value" not in err


def test_config_check_without_a_file_shows_the_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = cli("config", "check")
    assert code == 0 and "none found" in out.splitlines()[0]
    assert tomllib.loads(out)["language"] == "zh"  # (the tests' locale is zh_CN)
    # the language reports are written in: the locale's where the file sets none
    monkeypatch.setenv("LANG", "C.UTF-8")
    code, out, _ = cli("config", "check")
    assert code == 0 and tomllib.loads(out)["language"] == "en"
    assert 'language = "en" # from the locale' in out
    for name in ("LANG", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    code, out, _ = cli("config", "check")
    assert code == 0 and 'language = "en" # no locale set' in out


def test_config_check_shows_the_language_the_file_sets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "C.UTF-8")
    path = write(tmp_path / "commitdigest.toml", 'language = "zh"\n')
    code, out, _ = cli("config", "check", "--config", str(path))
    assert code == 0 and tomllib.loads(out)["language"] == "zh" and "locale" not in out


def test_config_check_rejects_an_invalid_file_with_exit_2(tmp_path: Path) -> None:
    path = write(tmp_path / "bad.toml", '[[repositories]]\nname = "a/b"\nsource = "svn"\n')
    code, out, err = cli("config", "check", "--config", str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"error: config file {path}: ")
    assert "repositories[0].source" in err
    code, _, err = cli("config", "check", "--config", str(tmp_path / "missing.toml"))
    assert code == 2 and "does not exist" in err


def test_config_path_prints_the_file_in_use_or_the_one_to_create(clean_env: Path) -> None:
    code, out, err = cli("config", "path")
    assert (code, out.strip()) == (0, str(clean_env / "commitdigest.toml"))
    assert "does not exist yet" in err
    here = write(Path.cwd() / "commitdigest.toml", "")
    code, out, err = cli("config", "path")
    assert (code, out.strip(), err) == (0, str(here), "")
    code, out, err = cli("config", "path", "--config", "elsewhere.toml")
    assert (code, out.strip()) == (0, "elsewhere.toml") and "does not exist yet" in err
