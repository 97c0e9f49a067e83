"""The command line's shell: cheap start-up, one error guard, shared options declared once."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from commitdigest.cli import app, console
from commitdigest.errors import EXIT_INTERNAL, StoreError

HEAVY = ("openai", "jinja2", "markdown_it", "httpx2", "pydantic_settings")


def test_import_cli_loads_no_heavy_library() -> None:
    code = (
        "import sys, commitdigest.cli; "
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r}))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def _loaded(imports: str, libraries: tuple[str, ...]) -> list[str]:
    code = (
        f"import sys, {imports}; "
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {set(libraries)!r}))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return list(ast.literal_eval(result.stdout))


def test_the_report_pipeline_imports_no_llm_sdk_until_an_llm_is_used() -> None:
    """A rule-analyser report never pays for openai (0.4 s), the HTML renderer or GitHub."""
    imports = "commitdigest.pipeline.report, commitdigest.pipeline.factory, commitdigest.render"
    assert _loaded(imports, ("openai", "markdown_it", "httpx2")) == []


def test_the_command_line_collects_garbage_in_larger_steps() -> None:
    """``commitdigest`` (the script and ``python -m``) runs the cycle collector every
    20,000 new objects: a report makes millions of short-lived objects."""
    code = (
        "import atexit, gc, sys; from commitdigest.cli import main; "
        "atexit.register(lambda: print(gc.get_threshold()[0])); "
        "sys.argv = ['commitdigest', '--version']; main()"
    )
    ours = subprocess.run([sys.executable, "-c", code], capture_output=True)
    assert ours.stdout.split()[-1] == b"20000", ours.stderr


@pytest.mark.parametrize("entry", ["script", "main"])
def test_the_command_line_ends_with_its_output_written_and_its_exit_code(entry: str) -> None:
    """The script ends without the interpreter's teardown, but after the exit handlers ran
    and what the command wrote was flushed, with the command's exit code; ``main`` raises
    ``SystemExit`` for a caller to catch."""
    code = (
        f"import atexit, sys; from commitdigest.cli import {entry}; "
        "atexit.register(lambda: print('handler ran', file=sys.stderr)); "
        "sys.argv = ['commitdigest', *sys.argv[1:]]\n"
        f"try:\n    {entry}()\n"
        "except SystemExit as exc:\n    print('caught', exc.code, file=sys.stderr); raise"
    )
    shown = subprocess.run([sys.executable, "-c", code, "--version"], capture_output=True)
    assert shown.returncode == 0 and shown.stdout.startswith(b"commitdigest ")
    caught = b"caught 0\n" if entry == "main" else b""
    assert shown.stderr == caught + b"handler ran\n"
    wrong = subprocess.run([sys.executable, "-c", code, "no-such-command"], capture_output=True)
    assert wrong.returncode == 2 and b"No such command" in wrong.stderr
    assert wrong.stderr.endswith((b"caught 2\n" if entry == "main" else b"") + b"handler ran\n")


def test_the_script_ends_as_usual_under_a_profiler(tmp_path: Path) -> None:
    """``python -m cProfile -m commitdigest …`` writes its profile: the fast end is skipped
    under a profiler or a tracer."""
    out = tmp_path / "profile.out"
    done = subprocess.run(
        [sys.executable, "-m", "cProfile", "-o", str(out), "-m", "commitdigest", "--version"],
        capture_output=True,
    )
    assert done.returncode == 0, done.stderr
    assert out.stat().st_size > 0


def test_help_lists_every_command() -> None:
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("report", "render", "runs", "run", "schedule", "deliver", "site", "serve"):
        assert command in result.output


def test_report_help_documents_the_default_language() -> None:
    result = CliRunner().invoke(app, ["report", "--help"], terminal_width=200)
    assert result.exit_code == 0
    assert "LANG starting with zh" in result.output
    assert "--last" in result.output


def _run(action: object, verbose: bool = False) -> int:
    console.state["verbose"] = verbose
    try:
        console.guard(action)  # type: ignore[arg-type]
    except typer.Exit as exc:
        return exc.exit_code
    finally:
        console.state["verbose"] = False
    return 0


def _raise(exc: BaseException) -> None:
    raise exc


def test_guard_maps_our_errors_to_one_line_and_their_code(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert _run(lambda: _raise(StoreError("cannot open the store"))) == StoreError.exit_code
    err = capsys.readouterr().err
    assert err == "error: cannot open the store\n"


def test_guard_maps_a_bug_to_exit_70_without_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert _run(lambda: _raise(ValueError("boom"))) == EXIT_INTERNAL
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "ValueError: boom" in err and "Traceback" not in err


def test_guard_shows_the_traceback_with_verbose(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(lambda: _raise(ValueError("boom")), verbose=True) == EXIT_INTERNAL
    assert "Traceback" in capsys.readouterr().err


def test_guard_maps_ctrl_c_to_130() -> None:
    assert _run(lambda: _raise(KeyboardInterrupt())) == 130


def test_shared_options_are_declared_once() -> None:
    """--config and --home are declared only in cli/options.py."""
    from pathlib import Path

    import commitdigest.cli as package

    folder = Path(package.__file__).parent
    for option in ('"--config"', '"--home"', 'envvar="COMMITDIGEST_HOME"'):
        where = [p.name for p in folder.glob("*.py") if option in p.read_text(encoding="utf-8")]
        assert where == ["options.py"], (option, where)


def test_only_cli_imports_typer_and_rich() -> None:
    from pathlib import Path

    import commitdigest

    root = Path(commitdigest.__file__).parent
    offenders = [
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if p.parent.name != "cli"
        and any(
            line.strip().startswith(("import typer", "from typer", "import rich", "from rich"))
            for line in p.read_text(encoding="utf-8").splitlines()
        )
    ]
    assert offenders == []


def test_the_package_gives_typers_app_whatever_was_imported_first() -> None:
    """``commitdigest.cli`` loads ``app`` and ``main`` on first use (its ``script`` reads the
    command line before typer is imported): no submodule of that name shadows them, when
    the commands' module was imported first too."""
    code = (
        "import typer; from commitdigest.cli.commands import app as made, main as run; "
        "from commitdigest.cli import app, main; "
        "print(app is made and isinstance(app, typer.Typer), main is run)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True"]
