"""Compiled report templates are kept between runs, in a folder of this user's only; a
cache that cannot be used only costs time."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import jinja2
import pytest

from commitdigest.render import jinja_env


def _environment() -> jinja2.Environment:
    return jinja_env.template_environment.__wrapped__("commitdigest.render", autoescape=False)


@pytest.fixture
def tmp_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path / f"commitdigest-jinja-{os.getuid()}"


def test_a_second_run_loads_the_compiled_template(
    tmp_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _environment().get_template("report.md.j2")
    assert list(tmp_root.rglob("*.cache")), "the compiled template was not kept"
    assert tmp_root.stat().st_mode & 0o777 == 0o700

    def no_compile(*args: object, **kwargs: object) -> None:
        raise AssertionError("compiled again")

    monkeypatch.setattr(jinja2.Environment, "compile", no_compile)
    assert _environment().get_template("report.md.j2") is not None


def test_a_folder_others_can_write_is_never_used(tmp_root: Path) -> None:
    tmp_root.mkdir(mode=0o777)
    tmp_root.chmod(0o777)
    assert jinja_env._bytecode_cache("x") is None
    assert _environment().get_template("report.md.j2") is not None  # compiled, not loaded


def test_a_cache_that_cannot_be_written_costs_only_time(
    tmp_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full_disk(self: object, bucket: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(jinja2.FileSystemBytecodeCache, "dump_bytecode", full_disk)
    assert _environment().get_template("report.md.j2") is not None
    assert not list(tmp_root.rglob("*.cache"))


def test_a_corrupt_entry_is_compiled_again(tmp_root: Path) -> None:
    _environment().get_template("report.md.j2")
    for entry in tmp_root.rglob("*.cache"):
        entry.write_bytes(b"garbage")
    assert _environment().get_template("report.md.j2") is not None
