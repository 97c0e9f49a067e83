"""Golden reports, git-cliff style: each folder of ``tests/golden/`` is one case.

A case holds ``case.py`` (``build(repo)`` makes the repository with fixed dates and
identities, so its SHAs never change; ``ARGS`` are the ``report`` options; optional
``ORIGIN`` is the remote URL that makes commit links), and the reports it must give:
``expected.md`` and ``expected.json``. Optional, in ``case.py``:

* ``HTML = True``: the HTML report too, ``expected.html`` (its inlined stylesheet and
  script, and the policy that hashes them, are replaced by placeholders: the page's
  content is what is compared);
* ``DOWNSTREAM``: ``{path: text}`` of a user's checkout, written to a folder passed as
  ``--downstream``;
* ``CHAT``: ``[[deliver]]`` entries (TOML); ``deliver --dry-run`` writes each channel's
  payload for the day, compared as ``expected.<channel>.<json|eml>``.

Only the generation time is normalised.

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
    # the HTML page: "Generated at: … (UTC)" / "生成时间：…（UTC）"
    (
        re.compile(rf"((?:Generated at: |生成时间：)){STAMP}((?: \(UTC\)|（UTC）))"),
        r"\1<generated>\2",
    ),
]
PAGE_ASSETS = [  # (pattern, replacement): the HTML page's inlined assets, not its content
    (re.compile(r"(<style>).*?(</style>)", re.S), r"\1<stylesheet>\2"),
    (re.compile(r"(<script>).*?(</script>)", re.S), r"\1<script>\2"),
    (re.compile(r'(http-equiv="Content-Security-Policy" content=")[^"]*(")'), r"\1<policy>\2"),
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


def normalise_page(text: str) -> str:
    for pattern, replacement in PAGE_ASSETS:
        text = pattern.sub(replacement, text)
    return normalise(text)


def run_case(name: str, tmp_path: Path) -> dict[str, str]:
    case = load_case(name)
    repo = tmp_path / name
    init_repo(repo, origin=getattr(case, "ORIGIN", None))
    case.build(repo)
    out = tmp_path / "out"
    html = getattr(case, "HTML", False)
    formats = "md,json,html" if html else "md,json"
    args = ["report", str(repo), "--tz", "UTC", "--format", formats, "--out", str(out)]
    downstream = getattr(case, "DOWNSTREAM", None)
    if downstream:
        for path, text in downstream.items():
            target = tmp_path / "downstream" / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        args += ["--downstream", str(tmp_path / "downstream")]
    env = {"COMMITDIGEST_HOME": str(tmp_path / "home")}
    result = CliRunner().invoke(app, [*args, *case.ARGS], env=env)
    assert result.exit_code == 0, result.output
    reports = sorted(out.glob("*.md"))
    assert len(reports) == 1, f"a case makes one day's report, not {reports}"
    md = reports[0]
    got = {
        "expected.md": normalise(md.read_text(encoding="utf-8")),
        "expected.json": normalise(md.with_suffix(".json").read_text(encoding="utf-8")),
    }
    if html:
        got["expected.html"] = normalise_page(md.with_suffix(".html").read_text(encoding="utf-8"))
    chat = getattr(case, "CHAT", None)
    if chat:
        got.update(chat_payloads(chat, md.stem, out, tmp_path, env))
    return got


def chat_payloads(
    channels: str, day: str, out: Path, tmp_path: Path, env: dict[str, str]
) -> dict[str, str]:
    """What ``deliver --dry-run`` writes for the day's report, by ``expected.<channel>.<ext>``."""
    config = tmp_path / "commitdigest.toml"
    config.write_text(
        f'timezone = "UTC"\noutput_dir = "{out.as_posix()}"\n\n{channels}', encoding="utf-8"
    )
    review = tmp_path / "review"
    args = ["deliver", "--config", str(config), "--date", day, "--dry-run", "--out", str(review)]
    result = CliRunner().invoke(app, args, env=env)
    assert result.exit_code == 0, result.output
    return {
        f"expected.{path.name.removeprefix(day + '.')}": normalise(path.read_text(encoding="utf-8"))
        for path in sorted(review.iterdir())
    }


def test_there_are_enough_cases() -> None:
    assert len(CASES) >= 15, CASES


def test_a_page_is_compared_by_its_content() -> None:
    page = (
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'">\n'
        "<style>body{x:1}\n</style><script>go()</script>\n"
        "<p>Generated at: 2026-11-25 03:46:15 (UTC)</p><p>生成时间：2026-11-25 03:46:15（UTC）</p>"
    )
    assert normalise_page(page) == (
        '<meta http-equiv="Content-Security-Policy" content="<policy>">\n'
        "<style><stylesheet></style><script><script></script>\n"
        "<p>Generated at: <generated> (UTC)</p><p>生成时间：<generated>（UTC）</p>"
    )


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
