"""git runs on the repository we name, whatever the environment and the config files say:
an inherited ``GIT_DIR``/``GIT_WORK_TREE``… (inside a git hook), a ``~/.gitconfig`` and a
``.git/config`` full of display settings; a failed git, a closed output and a bad URL are
one line and a documented exit code, never an internal error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from gitfixture import CommitSpec, build_repo, commit
from typer.testing import CliRunner

from commitdigest.cli import app
from commitdigest.config import load_settings
from commitdigest.errors import ConfigError, SourceError
from commitdigest.gitcmd import git_argv, git_env
from commitdigest.sources.blobs import BlobReader

runner = CliRunner()
COMMAND = [sys.executable, "-m", "commitdigest"]

HOSTILE_CONFIG = """
[core]
  pager = less -R
  quotePath = true
  abbrev = 12
  fsmonitor = true
  attributesFile = {attributes}
[color]
  ui = always
  diff = always
  grep = always
[diff]
  noprefix = true
  mnemonicPrefix = true
  relative = true
  external = /bin/false
  suppressBlankEmpty = true
  context = 0
  algorithm = patience
  renames = copies
  colorMoved = zebra
  srcPrefix = x/
  dstPrefix = y/
  submodule = log
  interHunkContext = 10
[log]
  showSignature = true
  decorate = full
  abbrevCommit = true
  date = relative
  showRoot = false
  follow = true
[format]
  pretty = oneline
[grep]
  lineNumber = true
  column = true
  fullName = true
  patternType = perl
[i18n]
  logOutputEncoding = ISO-8859-1
[pager]
  log = false
"""


def _repo(path: Path) -> Path:
    build_repo(
        path,
        [
            CommitSpec(
                "feat: add the API",
                "2026-01-13T09:00:00+08:00",
                files={
                    "pkg/api.py": "import os\n\n\ndef old_name(x):\n    return x\n\n\n"
                    "TOKEN = os.environ.get('PKG_TOKEN')\n",
                    "README.md": "hello\n\nworld\n",
                },
            ),
            CommitSpec(
                "refactor!: rename old_name to new_name — naïve <b>café</b>",
                "2026-01-13T12:00:00+08:00",
                files={
                    "pkg/api.py": "import os\n\n\ndef new_name(x):\n    return x\n\n\n"
                    "TOKEN = os.environ.get('PKG_TOKEN')\n",
                    "docs/ünïcode file.md": "a\n\nb\n",
                },
            ),
        ],
    )
    return path


def _report(repo: Path, out: Path, env: dict[str, str]) -> dict[str, object]:
    args = ["report", str(repo), "--date", "2026-01-13", "--tz", "Asia/Shanghai"]
    result = runner.invoke(
        app, [*args, "--format", "md,json", "--lang", "en", "--out", str(out)], env=env
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads((out / "2026-01-13.json").read_text(encoding="utf-8"))
    data.pop("generated_at")
    return data


def test_a_hostile_environment_and_config_give_the_same_report(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    clean = _report(repo, tmp_path / "clean", {"COMMITDIGEST_HOME": str(tmp_path / "h1")})
    assert "new_name" in json.dumps(clean)  # the radar read the blobs

    other = tmp_path / "other"
    build_repo(other, [CommitSpec("other", "2026-01-13T10:00:00+08:00", files={"x": "1\n"})])
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitattributes").write_text("* -diff\n", encoding="utf-8")
    config = HOSTILE_CONFIG.format(attributes=home / ".gitattributes")
    (home / ".gitconfig").write_text(config, encoding="utf-8")
    with (repo / ".git" / "config").open("a", encoding="utf-8") as handle:
        handle.write(config)  # the repository's own config says the same
    hostile = {
        "COMMITDIGEST_HOME": str(tmp_path / "h2"),
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home),
        "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
        "GIT_DIR": str(other / ".git"),  # as inside a git hook of another repository
        "GIT_WORK_TREE": str(other),
        "GIT_INDEX_FILE": str(other / ".git" / "index"),
        "GIT_OBJECT_DIRECTORY": str(other / ".git" / "objects"),
        "GIT_CONFIG_PARAMETERS": "'color.ui'='always'",
        "GIT_EXTERNAL_DIFF": "/bin/false",
        "GIT_PAGER": "less",
    }
    assert _report(repo, tmp_path / "hostile", hostile) == clean


def test_a_git_dir_that_does_not_exist_is_ignored(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    env = {"COMMITDIGEST_HOME": str(tmp_path / "h"), "GIT_DIR": str(tmp_path / "nowhere")}
    data = _report(repo, tmp_path / "out", env)
    assert data["coverage"]["total"] == 2  # type: ignore[index]


def test_the_environment_keeps_only_what_reaches_a_remote() -> None:
    env = git_env(
        {
            "PATH": "/usr/bin",
            "HOME": "/home/u",
            "GIT_DIR": "/x",
            "GIT_WORK_TREE": "/y",
            "GIT_INDEX_FILE": "/z",
            "GIT_CONFIG_PARAMETERS": "'a.b'='c'",
            "GIT_CONFIG_COUNT": "1",
            "GIT_TRACE": "1",
            "GIT_SSH_COMMAND": "ssh -i key",
            "GIT_ASKPASS": "/bin/askpass",
        }
    )
    assert {k for k in env if k.startswith("GIT_")} == {
        "GIT_SSH_COMMAND",
        "GIT_ASKPASS",
        "GIT_PAGER",
        "GIT_TERMINAL_PROMPT",
        "GIT_OPTIONAL_LOCKS",
    }
    assert env["HOME"] == "/home/u" and env["LC_ALL"] == "C"
    argv = git_argv("log", repo=Path("/r"))
    assert argv[:4] == ["git", "--no-pager", "-C", "/r"] and argv[-1] == "log"


def test_a_git_that_stops_answering_is_a_source_error(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    with pytest.raises(SourceError, match=r"git cat-file failed in .*not a git repository"):  # noqa: SIM117
        with BlobReader(tmp_path / "plain") as reader:
            reader.read_text(["HEAD:a", "HEAD:b"])


def test_a_closed_output_is_one_line_and_exit_4(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    commit(repo, CommitSpec("docs: more", "2026-01-13T13:00:00+08:00", files={"a.md": "x\n"}))
    out = str(tmp_path / "out")
    read, write = os.pipe()
    os.close(read)  # nobody reads what the command prints
    done = subprocess.run(
        [*COMMAND, "report", str(repo), "--date", "2026-01-13", "--tz", "UTC", "--out", out],
        stdout=write,
        stderr=subprocess.PIPE,
        env={**os.environ, "COMMITDIGEST_HOME": str(tmp_path / "h")},
        text=True,
        timeout=120,
        check=False,
    )
    os.close(write)
    assert done.returncode == 4, done.stderr
    assert done.stderr.strip().splitlines() == [
        "error: the output was closed before everything was written"
    ]


@pytest.mark.parametrize("value", ["127.0.0.1:8000/v1", "localhost/v1", "ftp://host/v1", "http://"])
def test_a_base_url_without_a_scheme_names_the_variable(
    value: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", value)
    with pytest.raises(ConfigError, match="environment variable OPENAI_BASE_URL: must be an"):
        load_settings(None)
    result = runner.invoke(
        app,
        ["report", str(tmp_path), "--analyser", "llm"],
        env={"OPENAI_BASE_URL": value, "COMMITDIGEST_HOME": str(tmp_path / "h")},
    )
    assert result.exit_code == 2
    assert result.stderr.startswith("error: environment variable OPENAI_BASE_URL: ")
    monkeypatch.delenv("OPENAI_BASE_URL")
    monkeypatch.setenv("COMMITDIGEST_LLM__BASE_URL", value)
    with pytest.raises(ConfigError, match=r"COMMITDIGEST_LLM__BASE_URL: llm\.base_url: must be an"):
        load_settings(None)


def test_a_base_url_with_a_scheme_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", " http://127.0.0.1:8000/v1/ ")
    assert load_settings(None).llm.base_url == "http://127.0.0.1:8000/v1"
