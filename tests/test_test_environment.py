"""The test environment is reproducible: requirements/test.lock pins, with hashes, every
dependency pyproject.toml declares (runtime and test extras) at a version its range allows,
so `scripts/test` on a fresh machine installs what CI last passed with; the lower bounds
`scripts/test --lowest` pins are the declared ones."""

from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path
from types import ModuleType

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements" / "test.lock"


def _project() -> dict[str, object]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert isinstance(project, dict)
    return project


def _pins() -> dict[str, tuple[str, int]]:
    """name -> (version, number of hashes) from the lock."""
    pins: dict[str, tuple[str, int]] = {}
    current = ""
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)", line)
        if match:
            current = canonicalize_name(match.group(1))
            pins[current] = (match.group(2), 0)
        elif line.strip().startswith("--hash=sha256:") and current:
            version, hashes = pins[current]
            pins[current] = (version, hashes + 1)
    return pins


def _declared() -> list[Requirement]:
    project = _project()
    runtime = project["dependencies"]
    extras = project["optional-dependencies"]
    assert isinstance(runtime, list) and isinstance(extras, dict)
    return [Requirement(text) for text in [*runtime, *extras["test"]]]


def _lower_bounds_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "lower_bounds", ROOT / "scripts" / "lower_bounds.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_lock_pins_every_declared_dependency_inside_its_range_with_hashes() -> None:
    pins = _pins()
    assert len(pins) > 30
    for requirement in _declared():
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is declared but not locked: run bash scripts/lock"
        version, _ = pins[name]
        assert requirement.specifier.contains(version, prereleases=True), (
            f"{name}=={version} in the lock is outside {requirement.specifier}: bash scripts/lock"
        )
    assert all(hashes > 0 for _, hashes in pins.values())


def test_lowest_pins_each_runtime_dependency_at_its_declared_lower_bound() -> None:
    lower_bounds = _lower_bounds_module().lower_bounds
    runtime = _project()["dependencies"]
    assert isinstance(runtime, list)
    pins = lower_bounds(runtime)
    assert len(pins) == len(runtime)
    for text, pin in zip(runtime, pins, strict=True):
        requirement = Requirement(text)
        name, _, version = pin.partition("==")
        assert name == requirement.name
        assert requirement.specifier.contains(version)
        assert any(
            spec.operator == ">=" and spec.version == version for spec in requirement.specifier
        )
    assert lower_bounds(["pagefind[bin]>=1.5; python_version >= '3.11'"]) == ["pagefind==1.5"]


def test_a_dependency_without_a_lower_bound_is_refused() -> None:
    lower_bounds = _lower_bounds_module().lower_bounds
    try:
        lower_bounds(["typer"])
    except ValueError as exc:
        assert "no lower bound" in str(exc)
    else:
        raise AssertionError("a dependency without >= must be refused")


def test_ci_runs_the_readme_test_command_first() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "\nbash scripts/test\n" in readme
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [
        line.strip()
        for line in ci.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    first = next(c for c in commands if "scripts/test" in c)
    assert first.startswith("bash scripts/test ||")
    assert "scripts/test --latest" in ci
