"""The radar in a report: ``api_changes`` on each commit of the JSON output."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from gitfixture import CommitSpec, build_repo
from typer.testing import CliRunner

from commitdigest.cli import app

runner = CliRunner()
BEFORE = "def get(url, proxies=None):\n    return url\n"
AFTER = "def get(url):\n    return url\n"


def test_json_report_has_api_changes_per_commit(tmp_path: Path) -> None:
    repo = tmp_path / "httpx"
    build_repo(
        repo,
        [
            CommitSpec("init", "2026-03-01T10:00:00+00:00", files={"httpx/api.py": BEFORE}),
            CommitSpec("Drop proxies", "2026-03-02T10:00:00+00:00", files={"httpx/api.py": AFTER}),
            CommitSpec("docs", "2026-03-02T11:00:00+00:00", files={"docs/x.md": "# x\n"}),
        ],
    )
    argv = ["report", str(repo), "--date", "2026-03-02", "--tz", "UTC", "--format", "json"]
    result = runner.invoke(
        app, [*argv, "--out", str(tmp_path / "out")], env={"COMMITDIGEST_HOME": str(tmp_path / "h")}
    )
    assert result.exit_code == 0, result.stderr
    doc = json.loads((tmp_path / "out" / "2026-03-02.json").read_text(encoding="utf-8"))
    commits = {c["title"]: c for r in doc["repositories"] for c in r["commits"]}
    [item] = commits["Drop proxies"]["api_changes"]
    assert item["kind"] == "python_api" and item["change"] == "removed"
    assert item["name"] == "httpx.api.get(proxies)" and item["breaking"] is True
    assert set(item) == {
        "kind",
        "change",
        "name",
        "breaking",
        "path",
        "line",
        "detail",
        "visibility",
        "position",
        "release",
        "symbols",
        "replacement",
        "hook",
        "affects",
    }
    assert (item["path"], item["line"]) == ("httpx/api.py", 1)
    assert commits["docs"]["api_changes"] == []
    assert commits["Drop proxies"]["analysis"]["importance"] == "high"

    no_radar = runner.invoke(
        app,
        [*argv, "--no-radar", "--out", str(tmp_path / "out2")],
        env={"COMMITDIGEST_HOME": str(tmp_path / "h")},
    )
    assert no_radar.exit_code == 0, no_radar.stderr
    doc = json.loads((tmp_path / "out2" / "2026-03-02.json").read_text(encoding="utf-8"))
    assert all(c["api_changes"] == [] for r in doc["repositories"] for c in r["commits"])


def test_breaking_section_follows_the_statistics(tmp_path: Path) -> None:
    repo = tmp_path / "httpx"
    build_repo(
        repo,
        [
            CommitSpec("init", "2026-03-01T10:00:00+00:00", files={"httpx/api.py": BEFORE}),
            CommitSpec("Drop proxies", "2026-03-02T10:00:00+00:00", files={"httpx/api.py": AFTER}),
        ],
    )
    for lang, heading in (("en", "### ⚠️ Breaking changes"), ("zh", "### ⚠️ 破坏性变更")):
        out = tmp_path / f"out-{lang}"
        argv = ["report", str(repo), "--date", "2026-03-02", "--tz", "UTC", "--lang", lang]
        result = runner.invoke(
            app,
            [*argv, "--format", "md,html", "--out", str(out)],
            env={"COMMITDIGEST_HOME": str(tmp_path / "h")},
        )
        assert result.exit_code == 0, result.stderr
        md = (out / "2026-03-02.md").read_text(encoding="utf-8")
        stats_at, breaking_at = md.index("-stats"), md.index(heading)
        assert stats_at < breaking_at
        section = md[breaking_at:].split("\n\n")[1]
        [line] = section.splitlines()
        assert line.startswith("- **Python API** `httpx.api.get(proxies)` — ")
        assert line.endswith(" · `httpx/api.py:1`")
        html = (out / "2026-03-02.html").read_text(encoding="utf-8")
        assert heading.removeprefix("### ") in html and "<code>httpx/api.py:1</code>" in html


def test_a_breaking_item_makes_the_commit_at_least_high() -> None:
    from commitdigest.analysis.radar import ApiChange, RadarKind
    from commitdigest.models import Analysis, ApiChangeType, ChangeType, Importance
    from commitdigest.pipeline.report import at_least_high

    low = Analysis(
        change_type=next(iter(ChangeType)),
        importance=Importance.LOW,
        summary="s",
        analyser="rules",
    )
    deprecated, removed = ApiChangeType.DEPRECATED, ApiChangeType.REMOVED
    dep = ApiChange(kind=RadarKind.DEPRECATION, change=deprecated, name="f", breaking=False)
    env = ApiChange(kind=RadarKind.ENV_VAR, change=removed, name="APP_TOKEN")
    assert at_least_high(low, [dep]) is low
    bumped = at_least_high(low, [dep, env])
    assert bumped.importance is Importance.HIGH and "APP_TOKEN" in bumped.notes[-1]


def _dropped_proxies(tmp_path: Path) -> Path:
    """A repository whose second commit (2026-03-02) drops ``lib.api.get(proxies)``."""
    repo = tmp_path / "lib"
    build_repo(
        repo,
        [
            CommitSpec("init", "2026-03-01T10:00:00+00:00", files={"lib/api.py": BEFORE}),
            CommitSpec("Drop proxies", "2026-03-02T10:00:00+00:00", files={"lib/api.py": AFTER}),
        ],
    )
    return repo


def test_a_rerun_takes_the_radar_facts_from_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _dropped_proxies(tmp_path)
    argv = ["report", str(repo), "--date", "2026-03-02", "--tz", "UTC", "--format", "json"]
    env = {"COMMITDIGEST_HOME": str(tmp_path / "h")}
    first = runner.invoke(app, [*argv, "--out", str(tmp_path / "a")], env=env)
    assert first.exit_code == 0, first.stderr

    def no_scan(*args: object, **kwargs: object) -> None:
        raise AssertionError("the radar scanned git again")

    monkeypatch.setattr("commitdigest.analysis.radar.driver.scan_window", no_scan)
    second = runner.invoke(app, [*argv, "--out", str(tmp_path / "b")], env=env)
    assert second.exit_code == 0, second.stderr
    a = (tmp_path / "a" / "2026-03-02.json").read_text(encoding="utf-8")
    b = (tmp_path / "b" / "2026-03-02.json").read_text(encoding="utf-8")
    assert json.loads(a)["repositories"] == json.loads(b)["repositories"]
    assert "proxies" in b and '"change": "removed"' in b


def _radar_modules_loaded(tmp_path: Path, setup: str = "") -> set[str]:
    """The radar's modules a fresh interpreter imported for a report of
    ``_dropped_proxies``'s second day (``setup``: Python run first), by their last name;
    the report is written to ``tmp_path / "out"``, the store kept in ``tmp_path / "h"``."""
    repo = tmp_path / "lib"
    if not repo.exists():
        _dropped_proxies(tmp_path)
    argv = ["report", str(repo), "--date", "2026-03-02", "--tz", "UTC", "--format", "json"]
    argv += ["--out", str(tmp_path / "out")]
    code = (
        f"{setup}import atexit, sys; from commitdigest.cli import main; "
        "atexit.register(lambda: print(sorted(m for m in sys.modules "
        "if m.startswith('commitdigest.analysis.radar.')))); "
        f"sys.argv = ['commitdigest', *{argv!r}]; main()"
    )
    env = {**os.environ, "COMMITDIGEST_HOME": str(tmp_path / "h")}
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return {m.rsplit(".", 1)[1] for m in ast.literal_eval(run.stdout.strip().splitlines()[-1])}


RADAR_KINDS = {"python_api", "env_var", "cli_option", "config_key", "dependency", "deprecation"}


def test_a_rerun_imports_none_of_the_radars_kinds(tmp_path: Path) -> None:
    """A re-run whose radar items the store has imports no kind of the radar (their imports,
    their patterns compiled, cost such a run a sixth of a second of its busy core, a warm
    run 1.09x the plain report's): the source asks ``radar.reads`` alone which files the
    radar reads. The first run, which scans the commit, imports them."""
    assert _radar_modules_loaded(tmp_path) >= RADAR_KINDS  # scanned
    again = _radar_modules_loaded(tmp_path)
    assert "reads" in again and not again & (RADAR_KINDS | {"announced", "changelog", "driver"})
    report = json.loads((tmp_path / "out" / "2026-03-02.json").read_text(encoding="utf-8"))
    assert "proxies" in json.dumps(report)  # (the item, from the store)


def test_a_long_windows_run_imports_none_of_the_radars_kinds(tmp_path: Path) -> None:
    """A long window is scanned by the radar's worker processes (the late helper forked by
    the first after the read): the process that reads it sends each commit as the source
    gives it (``radar.commit``) and imports no kind, no driver, no public surface (a thread
    of its own scanned beside the workers until the thirty-first session: the kinds'
    imports and the texts read and parsed again cost it 0.3-0.4 s of CPU)."""
    setup = (
        "import os; os.cpu_count = lambda: 2; "
        "import commitdigest.pipeline.radar_scan as scan; scan.PARALLEL_FROM = 1; "
    )
    loaded = _radar_modules_loaded(tmp_path, setup)
    assert "commit" in loaded
    assert not loaded & (RADAR_KINDS | {"announced", "changelog", "driver", "public", "pyapi"})
    report = json.loads((tmp_path / "out" / "2026-03-02.json").read_text(encoding="utf-8"))
    assert "lib.api.get(proxies)" in json.dumps(report)  # (scanned by the worker process)


UPSTREAM_V1 = {
    "httpx/__init__.py": "from httpx.api import get\nfrom httpx.client import Client\n",
    "httpx/api.py": "def get(url, proxies=None, timeout=5):\n    return url\n",
    "httpx/client.py": (
        "class Client:\n    def __init__(self, proxies=None, timeout=5):\n        pass\n"
    ),
    "httpx/envs.py": (
        'import os\nCACHE = os.getenv("HTTPX_OLD_CACHE")\nLOG = os.getenv("HTTPX_LOG")\n'
    ),
    "httpx/cli.py": (
        "import argparse\np = argparse.ArgumentParser()\n"
        'p.add_argument("--legacy-mode")\np.add_argument("--verbose")\n'
    ),
}
UPSTREAM_V2 = {
    "httpx/api.py": "def get(url, timeout=10):\n    return url\n",
    "httpx/client.py": "class Client:\n    def __init__(self, timeout=5):\n        pass\n",
    "httpx/envs.py": 'import os\nLOG = os.getenv("HTTPX_LOG")\n',
    "httpx/cli.py": (
        'import argparse\np = argparse.ArgumentParser()\np.add_argument("--verbose")\n'
    ),
}
DOWNSTREAM = {
    "app/main.py": (
        "import httpx\n"
        "from httpx import Client\n"
        "\n"
        "def fetch(url, p):\n"
        "    httpx.get(url, timeout=3)\n"  # line 5: passes timeout: the new default is moot
        "    httpx.get(url, proxies=p, timeout=3)\n"  # line 6: uses the removed proxies
        "    Client(timeout=1)\n"  # line 7: unaffected
        "    return Client(proxies=p)\n"  # line 8: affected
    ),
    "deploy/run.sh": "export HTTPX_OLD_CACHE=/tmp/c\nhttpx-cli --legacy-mode --verbose\n",
    "README.md": "Set HTTPX_LOG to debug.\n",
    ".venv/lib/httpx/api.py": "httpx.get(u, proxies=1)\n",  # not the user's code
}


def test_downstream_uses_are_pointed_at_and_listed_first(tmp_path: Path) -> None:
    repo = tmp_path / "httpx"
    build_repo(
        repo,
        [
            CommitSpec("init", "2026-03-01T10:00:00+00:00", files=UPSTREAM_V1),
            CommitSpec("Drop proxies and legacy", "2026-03-02T10:00:00+00:00", files=UPSTREAM_V2),
        ],
    )
    mine = tmp_path / "mine"
    for name, text in DOWNSTREAM.items():
        (mine / name).parent.mkdir(parents=True, exist_ok=True)
        (mine / name).write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    argv = ["report", str(repo), "--date", "2026-03-02", "--tz", "UTC", "--lang", "en"]
    result = runner.invoke(
        app,
        [*argv, "--format", "md,json", "--out", str(out), "--downstream", str(mine)],
        env={"COMMITDIGEST_HOME": str(tmp_path / "h")},
    )
    assert result.exit_code == 0, result.stderr
    doc = json.loads((out / "2026-03-02.json").read_text(encoding="utf-8"))
    [commit] = doc["repositories"][0]["commits"]
    affects = {
        i["name"]: [(p["path"], p["line"]) for p in i["affects"]] for i in commit["api_changes"]
    }
    assert affects["httpx.api.get(proxies)"] == [("app/main.py", 6)]
    assert affects["httpx.client.Client.__init__(proxies)"] == [("app/main.py", 8)]
    assert affects["HTTPX_OLD_CACHE"] == [("deploy/run.sh", 1)]
    assert affects["--legacy-mode"] == [("deploy/run.sh", 2)]
    # a call that passes timeout does not rely on its changed default
    assert affects.get("httpx.api.get(timeout)", []) == []
    md = (out / "2026-03-02.md").read_text(encoding="utf-8")
    section = md[md.index("### ⚠️ Breaking changes") :]
    assert section.index("**Affects you (4)**") < section.index("HTTPX_OLD_CACHE")
    assert "used at `app/main.py:6`" in section

    bad = runner.invoke(
        app,
        [*argv, "--out", str(out), "--downstream", str(tmp_path / "nowhere")],
        env={"COMMITDIGEST_HOME": str(tmp_path / "h")},
    )
    assert bad.exit_code == 2 and "--downstream" in bad.stderr


def test_a_removal_says_what_the_old_code_told_users_to_write_instead(tmp_path: Path) -> None:
    """The old code's deprecation message names the replacement: the item carries it and
    the Markdown report says it next to the item."""
    before = (
        "import warnings\n\n\ndef get(url, proxies=None):\n"
        "    if proxies is not None:\n"
        "        warnings.warn(\n"
        "            \"The 'proxies' argument is deprecated. \"\n"
        "            \"Use 'proxy' instead.\",\n"
        "            DeprecationWarning,\n"
        "        )\n"
        "    return url\n"
    )
    repo = tmp_path / "httpx"
    build_repo(
        repo,
        [
            CommitSpec("init", "2026-03-01T10:00:00+00:00", files={"httpx/api.py": before}),
            CommitSpec("Drop proxies", "2026-03-02T10:00:00+00:00", files={"httpx/api.py": AFTER}),
        ],
    )
    argv = ["report", str(repo), "--date", "2026-03-02", "--tz", "UTC", "--format", "json,md"]
    result = runner.invoke(
        app,
        [*argv, "--out", str(tmp_path / "out"), "--lang", "en"],
        env={"COMMITDIGEST_HOME": str(tmp_path / "h")},
    )
    assert result.exit_code == 0, result.stderr
    doc = json.loads((tmp_path / "out" / "2026-03-02.json").read_text(encoding="utf-8"))
    [item] = doc["repositories"][0]["commits"][0]["api_changes"]
    assert item["name"] == "httpx.api.get(proxies)"
    assert item["replacement"] == "Use 'proxy' instead."
    md = (tmp_path / "out" / "2026-03-02.md").read_text(encoding="utf-8")
    assert "`httpx.api.get(proxies)` — removed" in md
    assert "the project says: “Use 'proxy' instead.”" in md  # its words, "instead" once


def test_a_days_items_are_judged_by_its_own_window_whatever_the_store_holds(
    tmp_path: Path,
) -> None:
    """A class the package re-exports from day 1 on, changed on day 2: a window that starts
    before day 1 reads the surface there, where it was not exported (internal); the report
    of day 2 alone reads it at day 2's start (public). Each is the same whichever ran first
    with the same store (the cache held the window's answer for the day's report)."""
    repo = tmp_path / "lib"
    api = "class Client:\n    def send(self, url, timeout=5):\n        return url\n"
    init = 'from lib.util import helper\n\n__all__ = ["helper"]\n'
    build_repo(repo, [
        CommitSpec("init", "2026-03-01T10:00:00+00:00", files={
            "lib/__init__.py": init, "lib/util.py": "def helper():\n    pass\n",
            "lib/client.py": api}),
        CommitSpec("Export Client", "2026-03-02T10:00:00+00:00", files={"lib/__init__.py": (
            'from lib.client import Client\nfrom lib.util import helper\n\n'
            '__all__ = ["Client", "helper"]\n')}),
        CommitSpec("Drop timeout", "2026-03-03T10:00:00+00:00",
                   files={"lib/client.py": api.replace(", timeout=5", "")}),
    ])  # fmt: skip
    env = {"COMMITDIGEST_HOME": str(tmp_path / "h")}
    base = ["report", str(repo), "--tz", "UTC", "--format", "json"]

    def visibility(out: str, *window: str) -> str:
        result = runner.invoke(app, [*base, *window, "--out", str(tmp_path / out)], env=env)
        assert result.exit_code == 0, result.stderr
        doc = json.loads((tmp_path / out / "2026-03-03.json").read_text(encoding="utf-8"))
        [item] = [i for r in doc["repositories"] for c in r["commits"] for i in c["api_changes"]]
        assert item["name"].endswith("Client.send(timeout)"), item
        return str(item["visibility"])

    assert visibility("range", "--since", "2026-03-02", "--until", "2026-03-04") == "internal"
    assert visibility("day", "--date", "2026-03-03") == "public"
    assert visibility("range-again", "--since", "2026-03-02", "--until", "2026-03-04") == "internal"
