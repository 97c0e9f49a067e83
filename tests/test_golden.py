"""Golden reports, git-cliff style: each folder of ``tests/golden/`` is one case.

A case holds ``case.py`` (``build(repo)`` makes the repository with fixed dates and
identities, so its SHAs never change; ``ARGS`` are the ``report`` options; optional
``ORIGIN`` is the remote URL that makes commit links), and the reports it must give:
``expected.md`` and ``expected.json``. Only the generation time is normalised.

After an intended change: ``python -m pytest tests/test_golden.py --update-golden``, then
read the diff of ``tests/golden/`` before committing it.
"""

from __future__ import annotations

import difflib
import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest
from gitfixture import init_repo
from typer.testing import CliRunner

from commitdigest.cli import app

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(p.name for p in GOLDEN.iterdir() if (p / "case.py").is_file())
STAMP = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"
VOLATILE = [  # (pattern, replacement): what differs between two runs of the same case
    (re.compile(r'"generated_at": "[^"]*"'), '"generated_at": "<generated>"'),
    (re.compile(rf"^(> [^:\n]*: ){STAMP}( \(UTC\))$", re.M), r"\1<generated>\2"),
    (re.compile(rf"^(> [^：\n]*：){STAMP}(（UTC）)$", re.M), r"\1<generated>\2"),
]


def load_case(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"golden_{name}", GOLDEN / name / "case.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def normalise(text: str) -> str:
    for pattern, replacement in VOLATILE:
        text = pattern.sub(replacement, text)
    return text


def run_case(name: str, tmp_path: Path) -> dict[str, str]:
    case = load_case(name)
    repo = tmp_path / name
    init_repo(repo, origin=getattr(case, "ORIGIN", None))
    case.build(repo)
    out = tmp_path / "out"
    args = ["report", str(repo), "--tz", "UTC", "--format", "md,json", "--out", str(out)]
    result = CliRunner().invoke(
        app, [*args, *case.ARGS], env={"COMMITDIGEST_HOME": str(tmp_path / "home")}
    )
    assert result.exit_code == 0, result.output
    reports = sorted(out.glob("*.md"))
    assert len(reports) == 1, f"a case makes one day's report, not {reports}"
    md = reports[0]
    return {
        "expected.md": normalise(md.read_text(encoding="utf-8")),
        "expected.json": normalise(md.with_suffix(".json").read_text(encoding="utf-8")),
    }


def test_there_are_enough_cases() -> None:
    assert len(CASES) >= 15, CASES


def test_normalise_hides_only_the_generation_time() -> None:
    text = '"generated_at": "2026-11-25T03:46:15Z",\n> Generated at: 2026-11-25 03:46:15 (UTC)\n'
    assert normalise(text) == '"generated_at": "<generated>",\n> Generated at: <generated> (UTC)\n'
    assert normalise("> 生成时间：2026-11-25 03:47:35（UTC）") == "> 生成时间：<generated>（UTC）"
    window = "> Window: 2026-11-25 03:46:15 (UTC) x"
    assert normalise(window) == window


@pytest.mark.parametrize("name", CASES)
def test_golden(name: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    got = run_case(name, tmp_path)
    folder = GOLDEN / name
    if request.config.getoption("--update-golden"):
        for file, text in got.items():
            (folder / file).write_text(text, encoding="utf-8")
        return
    for file, text in got.items():
        path = folder / file
        assert path.is_file(), f"{path} is missing: run pytest with --update-golden"
        want = path.read_text(encoding="utf-8")
        if text != want:
            diff = "".join(
                difflib.unified_diff(
                    want.splitlines(keepends=True),
                    text.splitlines(keepends=True),
                    f"{name}/{file} (expected)",
                    f"{name}/{file} (got)",
                )
            )
            pytest.fail(f"{name}/{file} differs:\n{diff}", pytrace=False)
