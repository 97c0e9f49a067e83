"""Golden reports, git-cliff style: each folder of ``tests/golden/`` is one case.

A case's ``case.py`` builds its repositories with fixed dates and identities (so the SHAs
never change) and names the command and its options; a config-driven ``run`` reads the
``commitdigest.toml`` beside it. Every file the command writes is compared with the case's
``expected.*`` (one report) or ``expected/<path>`` (several), and every chat payload of
``deliver --dry-run`` with ``expected.<channel>.<ext>``; the case's option set is declared
in its ``options.txt``. tests/golden/README.md describes the format; ``tests/goldencase.py``
reads it.

Only what differs between two runs is normalised: the generation time, the temporary
folder, the package's version, and a page's inlined assets. Every relative link of the
reports written must resolve.

After an intended change: ``python -m pytest tests/test_golden.py --update-golden``, then
read the diff of ``tests/golden/`` before committing it.
"""

from __future__ import annotations

import contextlib
import difflib
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from goldencase import (
    CONFIG_FILE,
    GOLDEN,
    OPTIONS_FILE,
    Case,
    build,
    case_names,
    collect,
    commands,
    dangling_links,
    llm_env,
    load_case,
    normalise,
    normalise_page,
    option_set,
)
from typer.testing import CliRunner

from commitdigest.cli import app

CASES = case_names()
MIN_CASES = 25
MIN_OPTION_SETS = 8


def run_case(case: Case, work: Path) -> dict[str, str]:
    """Run the case's commands in ``work`` and return its outputs by expected file."""
    build(case, work)
    env = {"COMMITDIGEST_HOME": str(work / "home")}
    got = {OPTIONS_FILE: option_set(case) + "\n"}
    with llm_env(case) as (llm, script), contextlib.chdir(work):
        for argv in commands(case, work):
            result = CliRunner().invoke(app, argv, env={**env, **llm})
            assert result.exit_code == 0, f"{argv[0]}: {result.output}"
        if script is not None:
            assert script.unscripted == [], f"requests the script does not answer: {script}"
    outputs = collect(case, case.out_dir(work), work)
    assert outputs, f"{case.name}: the command wrote nothing"
    assert not dangling_links(case.out_dir(work)), dangling_links(case.out_dir(work))
    got.update(outputs)
    if case.chat:
        for path in sorted((work / "review").iterdir()):
            day_prefix = path.name.split(".", 1)[0] + "."
            name = f"expected.{path.name.removeprefix(day_prefix)}"
            got[name] = normalise(path.read_text(encoding="utf-8"), work)
    return got


def kept(folder: Path) -> set[str]:
    """The expected files of a case folder, and its declared option set."""
    files = {p.name for p in folder.glob("expected.*")}
    files |= {OPTIONS_FILE} if (folder / OPTIONS_FILE).is_file() else set()
    files |= {p.relative_to(folder).as_posix() for p in folder.glob("expected/**/*") if p.is_file()}
    return files


@pytest.mark.parametrize("name", CASES)
def test_golden(name: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    case = load_case(name)
    got = run_case(case, tmp_path)
    folder = GOLDEN / name
    if request.config.getoption("--update-golden"):
        for stale in kept(folder) - got.keys():
            (folder / stale).unlink()
        for file, text in got.items():
            (folder / file).parent.mkdir(parents=True, exist_ok=True)
            (folder / file).write_text(text, encoding="utf-8")
        return
    missing, extra = sorted(got.keys() - kept(folder)), sorted(kept(folder) - got.keys())
    assert not missing, f"{name}: {missing} missing: run pytest with --update-golden"
    assert not extra, f"{name}: {extra} are no longer written: run pytest with --update-golden"
    for file, text in got.items():
        want = (folder / file).read_text(encoding="utf-8")
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


# ---- the floor: how many cases, how many option sets, and every kind -----------------------


def expected_texts(case: Case, suffix: str) -> list[str]:
    return [
        (case.folder / f).read_text(encoding="utf-8")
        for f in sorted(kept(case.folder))
        if f.endswith(suffix)
    ]


def is_llm(case: Case) -> bool:
    """An LLM report whose analyses came from the script (not all fallen back)."""
    return "--analyser=llm" in option_set(case) and any(
        '"analyser": "llm"' in text for text in expected_texts(case, ".json")
    )


def is_weekly(case: Case) -> bool:
    return case.command == "weekly" and any(
        text.startswith("# Weekly digest") or text.startswith("# 周报")
        for text in expected_texts(case, ".md")
    )


def is_separate(case: Case) -> bool:
    """Separate reports: one per repository in its own folder, and the day's index."""
    files = kept(case.folder)
    index = [f for f in files if f.count("/") == 1 and f.endswith(".md")]
    reports = {f.split("/")[1] for f in files if f.count("/") == 2 and f.endswith(".md")}
    return case.command == "run" and bool(index) and len(reports) >= 2


KINDS: dict[str, Callable[[Case], bool]] = {
    "html": lambda c: any(f.endswith(".html") for f in kept(c.folder)),
    "llm": is_llm,
    "weekly": is_weekly,
    "separate reports with a day index": is_separate,
    "downstream": lambda c: "--downstream" in option_set(c),
    "config-driven run": lambda c: c.command == "run" and (c.folder / CONFIG_FILE).is_file(),
    "chat payload": lambda c: any(
        f.startswith("expected.")
        and f.count(".") == 2
        and f.endswith(".json")
        and f != "expected.json"
        for f in kept(c.folder)
    ),
}


def declared_option_set(case: Case) -> str:
    """The option set the case folder declares (its ``options.txt``)."""
    path = case.folder / OPTIONS_FILE
    assert path.is_file(), (
        f"{case.name} declares no {OPTIONS_FILE}: run pytest with --update-golden"
    )
    return path.read_text(encoding="utf-8").strip()


def test_the_floor_cases_option_sets_and_kinds() -> None:
    cases = [load_case(name) for name in CASES]
    assert len(cases) >= MIN_CASES, CASES
    for case in cases:
        assert declared_option_set(case) == option_set(case), f"{case.name}: stale {OPTIONS_FILE}"
        assert kept(case.folder) - {OPTIONS_FILE}, f"{case.name} has no expected files"
    sets = Counter(declared_option_set(c) for c in cases)
    assert len(sets) >= MIN_OPTION_SETS, "\n".join(sorted(sets))
    for kind, has in KINDS.items():
        having = [c.name for c in cases if has(c)]
        assert having, f"no golden case of kind {kind!r}"


def test_an_option_set_keeps_choices_and_drops_data() -> None:
    report = load_case("basic_en")
    assert option_set(report) == "report --date --format=md,json --lang --out --tz"
    run = next(load_case(n) for n in CASES if load_case(n).command == "run")
    assert option_set(run).startswith("run --date ")
    assert f"{CONFIG_FILE}:repositories[].name" in option_set(run)


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


def test_normalise_hides_only_the_generation_time_folder_and_version() -> None:
    text = '"generated_at": "2026-11-25T03:46:15Z",\n> Generated at: 2026-11-25 03:46:15 (UTC)\n'
    assert normalise(text) == '"generated_at": "<generated>",\n> Generated at: <generated> (UTC)\n'
    assert normalise("> 生成时间：2026-11-25 03:47:35（UTC）") == "> 生成时间：<generated>（UTC）"
    assert normalise("> Generated at 2026-11-25 03:47:35") == "> Generated at <generated>"
    window = "> Window: 2026-11-25 03:46:15 (UTC) x"
    assert normalise(window) == window
    assert normalise("see /tmp/x/out/a.md", Path("/tmp/x")) == "see <tmp>/out/a.md"
    assert json.loads(normalise('{"p": "/tmp/x/a"}', Path("/tmp/x"))) == {"p": "<tmp>/a"}


def test_a_dangling_link_is_found(tmp_path: Path) -> None:
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / "2026-03-02.md").write_text('<a id="abc1234"></a>\n', encoding="utf-8")
    (tmp_path / "2026-03-02.md").write_text(
        "[ok](repo/2026-03-02.md#abc1234) [web](https://example.com/x) [\\](javascript:x)\n"
        "[no anchor](repo/2026-03-02.md#fff0000) [no file](other/2026-03-02.md)\n",
        encoding="utf-8",
    )
    (tmp_path / "2026-03-02.html").write_text(
        '<a href="repo/2026-03-02.html">gone</a> <a href="#top">self</a>', encoding="utf-8"
    )
    assert dangling_links(tmp_path) == [
        "2026-03-02.html: repo/2026-03-02.html",
        "2026-03-02.html: #top",
        "2026-03-02.md: repo/2026-03-02.md#fff0000",
        "2026-03-02.md: other/2026-03-02.md",
    ]
