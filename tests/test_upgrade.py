"""``commitdigest upgrade``: small upstream repositories with tags, one per shape of change,
and a downstream checkout that uses them; the JSON, the Markdown and the exit codes."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from gitfixture import CommitSpec, build_repo, commit, git
from typer.testing import CliRunner

from commitdigest.cli import app
from commitdigest.models import ApiChange

DAY = "2026-03-{:02d}T10:00:00+00:00"

INIT_V1 = "from ._api import *\nfrom .client import Client\n\n__version__ = '1.0.0'\n"
API_V1 = """import warnings

__all__ = ["old_fetch", "fetch", "connect", "parse"]


def old_fetch(url):
    warnings.warn(
        "old_fetch() is deprecated and will be removed in 2.0. Use fetch() instead.",
        DeprecationWarning,
        stacklevel=2,
    )
    return fetch(url)


def fetch(url, retries=3):
    return url


def connect(url, timeout=None, proxies=None):
    if proxies is not None:
        warnings.warn(
            "The 'proxies' argument is deprecated, use 'proxy' instead.",
            DeprecationWarning,
        )
    return url


def parse(text):
    return text
"""
CLIENT_V1 = """class Client:
    def __init__(self, base="", legacy=False, **options):
        self.base = base

    def send(self, request):
        return self.prepare(request)

    def prepare(self, request):
        return request

    def hook(self, event):
        return event
"""
HELPERS = "from .client import Client\n\n\ndef helper(x):\n    return x\n"
CHANGELOG_V1 = "# Changelog\n\n## 1.0.0 (2026-03-01)\n\n- First release.\n"

API_V2 = """__all__ = ["fetch", "connect", "parse"]


def fetch(url, retries=0):
    return url


def connect(url, timeout=None, proxy=None):
    return url


def parse(text):
    return text
"""
CLIENT_V2 = """class Client:
    def __init__(self, base="", **options):
        self.base = base

    def send(self, request):
        return request

    def hook(self, event):
        return event
"""
CHANGELOG_V2 = (
    "# Changelog\n\n## 2.0.0 (2026-03-20)\n\n### Removed\n\n"
    "- The deprecated `legacy` argument has been removed.\n"
    "- `old_fetch()` has been removed, use `fetch()` instead.\n\n"
    "## 1.1.0 (2026-03-10)\n\n- Faster parsing.\n\n" + CHANGELOG_V1.split("\n\n", 1)[1]
)

DOWNSTREAM = {
    "app/main.py": (
        "import lib\n"
        "from lib import old_fetch, parse\n"
        "from lib.helpers import helper\n"
        "\n"
        "\n"
        "def run(url, extra):\n"
        "    a = old_fetch(url)\n"
        "    b = lib.connect(url, proxies={'http': 'x'})\n"
        "    c = lib.connect(url)\n"
        "    d = lib.connect(url, **extra)\n"
        "    e = lib.fetch(url)\n"
        "    f = lib.Client(legacy=True)\n"
        "    g = parse(url)\n"
        "    return a, b, c, d, e, f, g, helper(1)\n"
    ),
    "app/custom.py": (
        "from lib import Client\n"
        "\n"
        "\n"
        "class MyClient(Client):\n"
        "    def send(self, request):\n"
        "        request = self.prepare(request)\n"
        "        return super().send(request)\n"
    ),
}


def _upstream(tmp_path: Path) -> Path:
    """lib 1.0.0 → (1.1.0) → 2.0.0 with every shape of change, a temporary name added and
    removed inside the range, a module renamed with a re-export left behind, a maintenance
    tag on another branch and an archive tag that is not a release."""
    repo = tmp_path / "lib"
    build_repo(
        repo,
        [
            CommitSpec(
                "Release 1.0.0",
                DAY.format(1),
                files={
                    "lib/__init__.py": INIT_V1,
                    "lib/_api.py": API_V1,
                    "lib/client.py": CLIENT_V1,
                    "lib/helpers.py": HELPERS,
                    "CHANGELOG.md": CHANGELOG_V1,
                },
            )
        ],
    )
    git(repo, "tag", "v1.0.0")
    git(repo, "tag", "1.x")  # an archive tag: not a release
    git(repo, "checkout", "-q", "-b", "maint")
    commit(repo, CommitSpec("Fix on 1.0", DAY.format(3), files={"lib/fix.py": "X = 1\n"}))
    git(repo, "tag", "v1.0.1")  # a maintenance release on another branch
    git(repo, "checkout", "-q", "main")
    commit(
        repo,
        CommitSpec(
            "Add a temporary helper",
            DAY.format(5),
            files={"lib/_api.py": API_V1 + "\n\ndef temporary(x):\n    return x\n"},
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Release 1.1.0",
            DAY.format(10),
            files={
                "lib/_api.py": API_V1,  # temporary() goes again
                "CHANGELOG.md": CHANGELOG_V2.split("## 1.1.0")[0].split("## 2.0.0")[0]
                + "## 1.1.0"
                + CHANGELOG_V2.split("## 1.1.0")[1],
            },
        ),
    )
    git(repo, "tag", "v1.1.0")
    commit(
        repo,
        CommitSpec(
            "Move helpers to utils, keep a shim",
            DAY.format(12),
            files={
                "lib/utils.py": HELPERS,
                "lib/helpers.py": "from .utils import *  # noqa: F403\n",
            },
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Release 2.0.0",
            DAY.format(20),
            files={
                "lib/_api.py": API_V2,
                "lib/client.py": CLIENT_V2,
                "CHANGELOG.md": CHANGELOG_V2,
            },
        ),
    )
    git(repo, "tag", "v2.0.0")
    return repo


@pytest.fixture(scope="module")
def upstream(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _upstream(tmp_path_factory.mktemp("upstream"))


@pytest.fixture(scope="module")
def downstream(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("downstream") / "app-repo"
    build_repo(root, [CommitSpec("App", DAY.format(2), files=DOWNSTREAM)])
    return root


def upgrade(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(
        app,
        ["upgrade", *args, "--home", str(tmp_path / "home"), "--out", str(tmp_path / "out")],
    )
    return result.exit_code, result.stdout, result.stderr


def report(tmp_path: Path, stem: str, fmt: str) -> str:
    return (tmp_path / "out" / f"{stem}.{fmt}").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def ran(
    upstream: Path, downstream: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("ran")
    code, stdout, stderr = upgrade(
        tmp,
        str(upstream),
        "--from", "1.0.0", "--to", "2.0.0",
        "--downstream", str(downstream),
        "--format", "md,json,html",
        "--lang", "en",
    )  # fmt: skip
    return {
        "code": code,
        "stdout": stdout,
        "stderr": stderr,
        "json": json.loads(report(tmp, "upgrade-1.0.0-2.0.0", "json")),
        "md": report(tmp, "upgrade-1.0.0-2.0.0", "md"),
        "html": report(tmp, "upgrade-1.0.0-2.0.0", "html"),
    }


def by_name(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in data["changes"]}


def lines_of(change: dict[str, Any], path: str = "app/main.py") -> list[int]:
    return [p["line"] for p in change["affects"] if p["path"] == path]


def test_the_json_names_both_endpoints_the_verdict_and_the_range(
    ran: dict[str, Any], upstream: Path
) -> None:
    data = ran["json"]
    assert ran["code"] == 0
    for key in ("repository", "from", "to", "verdict", "changes", "releases", "commits"):
        assert key in data
    assert data["from"]["ref"] == "1.0.0"
    assert data["from"]["sha"] == git(upstream, "rev-parse", "v1.0.0^{commit}").strip()
    assert data["to"]["sha"] == git(upstream, "rev-parse", "v2.0.0^{commit}").strip()
    assert data["to"]["date"].startswith("2026-03-20")
    assert data["verdict"] == "affected"
    # the range's first-parent commits, newest first; none of the maintenance branch
    titles = [c["title"] for c in data["commits"]]
    assert titles == [
        "Release 2.0.0",
        "Move helpers to utils, keep a shim",
        "Release 1.1.0",
        "Add a temporary helper",
    ]
    assert all(c["importance"] in ("high", "medium", "low") for c in data["commits"])


def test_each_change_carries_the_daily_fields_and_its_uses(ran: dict[str, Any]) -> None:
    daily = {f.name for f in fields(ApiChange)}
    for change in ran["json"]["changes"]:
        assert set(change) == daily
        assert change["visibility"] in ("public", "internal")


def test_a_removed_name_re_exported_by_a_star_import_and_its_uses(ran: dict[str, Any]) -> None:
    changes = by_name(ran["json"])
    old = changes["lib.old_fetch"]
    assert (old["change"], old["breaking"], old["visibility"]) == ("removed", True, "public")
    assert lines_of(old) == [2, 7]  # the import and the call
    assert "fetch()" in old["replacement"] and "instead" in old["replacement"]


def test_a_removed_parameter_flags_only_calls_that_pass_it(ran: dict[str, Any]) -> None:
    proxies = by_name(ran["json"])["lib.connect(proxies)"]
    assert proxies["change"] == "removed"
    assert lines_of(proxies) == [8]  # not the call without it, not the **extra one
    assert "proxy" in proxies["replacement"]


def test_a_changed_default_flags_calls_that_rely_on_it(ran: dict[str, Any]) -> None:
    retries = by_name(ran["json"])["lib.fetch(retries)"]
    assert retries["change"] == "default_changed"
    assert "3" in retries["detail"] and "0" in retries["detail"]
    assert lines_of(retries) == [11]
    assert retries["replacement"] == ""  # a changed default has nothing to write instead


def test_a_use_through_a_subclass_is_found(ran: dict[str, Any]) -> None:
    prepare = by_name(ran["json"])["lib.client.Client.prepare"]
    assert prepare["change"] == "removed"
    assert lines_of(prepare, "app/custom.py") == [6]  # self.prepare() in MyClient.send


def test_an_announced_only_removal_finds_the_calls_that_pass_it(ran: dict[str, Any]) -> None:
    legacy = [
        c for c in ran["json"]["changes"] if c["kind"] == "announced" and "legacy" in c["name"]
    ]
    assert len(legacy) == 1 and legacy[0]["release"] == "2.0.0"
    assert lines_of(legacy[0]) == [12]
    code = by_name(ran["json"])["lib.client.Client.__init__(legacy)"]
    assert lines_of(code) == [12]


def test_what_the_range_adds_and_removes_again_is_no_change(ran: dict[str, Any]) -> None:
    names = " ".join(by_name(ran["json"]))
    assert "temporary" not in names
    # a module renamed with a re-export left at the old path breaks nobody
    assert not any("helpers" in n or n.rsplit(".", 1)[-1] == "helper" for n in by_name(ran["json"]))
    assert "app/main.py:3" not in ran["md"]


def test_releases_are_the_range_s_version_tags_in_order(ran: dict[str, Any]) -> None:
    releases = ran["json"]["releases"]
    assert [(r["version"], r["tag"]) for r in releases] == [
        ("1.1.0", "v1.1.0"),
        ("2.0.0", "v2.0.0"),
    ]
    assert releases[0]["breaking"] == []
    said = [i["name"] for i in releases[1]["breaking"]]
    assert any("legacy" in s for s in said) and any("old_fetch" in s for s in said)
    assert all(i["affects"] for i in releases[1]["breaking"])


def test_the_markdown_is_a_migration_checklist_behind_the_verdict(ran: dict[str, Any]) -> None:
    md = ran["md"]
    lines = md.splitlines()
    verdict = next(line for line in lines if line.startswith("**"))
    assert verdict.startswith("**⚠️ 6 places in your code break:")
    assert md.index(verdict) < md.index("## ✅ Migration checklist")
    checklist = md.split("## ✅ Migration checklist")[1].split("\n## ")[0]
    items = [line for line in checklist.splitlines() if line.startswith("- [ ] ")]
    assert [i.split("`")[1] for i in items] == [
        "app/custom.py:6",
        "app/main.py:2",
        "app/main.py:7",
        "app/main.py:8",
        "app/main.py:11",
        "app/main.py:12",
    ]
    assert "the project says: “`old_fetch()` has been removed, use `fetch()` instead.”" not in md
    line7 = next(i for i in items if "app/main.py:7" in i)
    assert "the project says: “" in line7 and "fetch()" in line7.split("the project says:")[1]
    line11 = next(i for i in items if "app/main.py:11" in i)
    assert "the project names no replacement" in line11
    assert "## 🏷️ Releases (2)" in md and "### 1.1.0" in md
    assert "## 🗒️ Commits (4)" in md
    assert "<h1>" in ran["html"] and "app/custom.py:6" in ran["html"]
    assert (
        ran["stdout"].split() == [str(Path(p)) for p in ran["stdout"].split()]
        and ran["stdout"].count("upgrade-1.0.0-2.0.0") == 3
    )
    assert "6 places in your code break" in ran["stderr"]


def test_the_gate_exit_codes(upstream: Path, downstream: Path, tmp_path: Path) -> None:
    base = [str(upstream), "--from", "v1.0.0", "--to", "v2.0.0", "--format", "json"]
    used = [*base, "--downstream", str(downstream)]
    assert upgrade(tmp_path, *used, "--fail-on", "affected")[0] == 9
    assert upgrade(tmp_path, *used, "--fail-on", "never")[0] == 0
    assert upgrade(tmp_path, *used)[0] == 0
    # without a checkout nothing is used: breaking, not affected
    assert upgrade(tmp_path, *base, "--fail-on", "affected")[0] == 0
    assert upgrade(tmp_path, *base, "--fail-on", "breaking")[0] == 9
    data = json.loads(report(tmp_path, "upgrade-v1.0.0-v2.0.0", "json"))
    assert data["verdict"] == "breaking"
    # a range with no breaking change passes every gate
    assert upgrade(tmp_path, str(upstream), "--from", "1.0.0", "--to", "1.1.0",
                   "--fail-on", "breaking", "--format", "json")[0] == 0  # fmt: skip
    data = json.loads(report(tmp_path, "upgrade-1.0.0-1.1.0", "json"))
    assert data["verdict"] == "safe" and data["changes"] == []


def test_a_used_deprecation_is_listed_not_a_verdict(tmp_path: Path, upstream: Path) -> None:
    app_repo = tmp_path / "app"
    build_repo(
        app_repo,
        [CommitSpec("App", DAY.format(2), files={"m.py": "import lib\nlib.parse('x')\n"})],
    )
    repo = tmp_path / "dep"
    build_repo(
        repo,
        [
            CommitSpec(
                "v1", DAY.format(1), files={"lib/__init__.py": "def parse(t):\n    return t\n"}
            ),
            CommitSpec(
                "Deprecate parse",
                DAY.format(5),
                files={
                    "lib/__init__.py": (
                        "import warnings\n\n\ndef parse(t):\n"
                        "    warnings.warn('parse() is deprecated, use load() instead',"
                        " DeprecationWarning)\n    return t\n"
                    )
                },
            ),
        ],
    )
    git(repo, "tag", "v1", "HEAD~1")
    code, _, _ = upgrade(
        tmp_path, str(repo), "--from", "v1", "--to", "main", "--downstream", str(app_repo),
        "--fail-on", "affected", "--format", "json,md", "--lang", "en",
    )  # fmt: skip
    assert code == 0
    data = json.loads(report(tmp_path, "upgrade-v1-main", "json"))
    assert data["verdict"] == "safe"
    assert [(c["kind"], c["name"]) for c in data["changes"]] == [("deprecation", "lib.parse")]
    assert data["changes"][0]["affects"] == [{"path": "m.py", "line": 2}]
    md = report(tmp_path, "upgrade-v1-main", "md")
    assert "**No breaking change**" in md
    said = "the project says: “parse() is deprecated, use load() instead”"
    assert f"- `lib.parse` — `m.py:2` — {said}" in md


def test_a_check_that_cannot_complete_never_exits_0_or_9(upstream: Path, tmp_path: Path) -> None:
    code, _, err = upgrade(tmp_path, str(upstream), "--from", "9.9.9", "--to", "2.0.0")
    assert code == 3 and "unknown ref '9.9.9'" in err and "Traceback" not in err
    code, _, err = upgrade(tmp_path, str(upstream), "--from", "2.0.0", "--to", "1.0.0")
    assert code == 2 and "not an ancestor" in err
    code, _, err = upgrade(tmp_path, str(tmp_path / "nowhere"), "--from", "1", "--to", "2")
    assert code not in (0, 9) and "Traceback" not in err
    code, _, err = upgrade(tmp_path, str(upstream), "--from", "1.0.0", "--to", "2.0.0",
                           "--fail-on", "sometimes")  # fmt: skip
    assert code == 2 and "--fail-on" in err


def test_a_module_that_does_not_parse_is_named_and_the_run_fails(tmp_path: Path) -> None:
    repo = tmp_path / "dep"
    build_repo(
        repo,
        [
            CommitSpec("v1", DAY.format(1), files={"lib/__init__.py": "def run(a):\n    pass\n"}),
            CommitSpec("broken", DAY.format(2), files={"lib/__init__.py": "def run(a:\n"}),
        ],
    )
    git(repo, "tag", "v1", "HEAD~1")
    git(repo, "tag", "v2")
    code, _, err = upgrade(
        tmp_path, str(repo), "--from", "v1", "--to", "v2", "--format", "json",
        "--fail-on", "never",
    )  # fmt: skip
    assert code == 3, err
    assert "lib/__init__.py" in err and "incomplete" in err
    data = json.loads(report(tmp_path, "upgrade-v1-v2", "json"))
    assert data["unreadable"] == ["lib/__init__.py"]


def test_chinese_report(upstream: Path, downstream: Path, tmp_path: Path) -> None:
    code, _, err = upgrade(
        tmp_path, str(upstream), "--from", "1.0.0", "--to", "2.0.0",
        "--downstream", str(downstream), "--lang", "zh", "--format", "md",
    )  # fmt: skip
    assert code == 0
    md = report(tmp_path, "upgrade-1.0.0-2.0.0", "md")
    assert "**⚠️ 你的代码中有 6 处会出错：" in md and "## ✅ 迁移清单" in md
    assert "你的代码中有 6 处会出错" in err
