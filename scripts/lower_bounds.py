"""Print a pip constraints file that pins every runtime dependency of pyproject.toml at its
declared lower bound (``typer>=0.12`` -> ``typer==0.12``), for ``scripts/test --lowest``:
the ranges we publish are promises, and their lower ends are tested this way."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(.*)$")


def lower_bounds(dependencies: list[str]) -> list[str]:
    """``name==lower`` for every dependency with a ``>=`` bound; an error for any other."""
    pins: list[str] = []
    for dependency in dependencies:
        match = REQUIREMENT.match(dependency.split(";")[0])
        if match is None:
            raise ValueError(f"cannot read the dependency {dependency!r}")
        name, spec = match.groups()
        lower = re.search(r">=\s*([^,\s]+)", spec)
        if lower is None:
            raise ValueError(f"{dependency!r} declares no lower bound (>=)")
        pins.append(f"{name}=={lower.group(1)}")
    return pins


def main() -> int:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    try:
        print("\n".join(lower_bounds(project["dependencies"])))
    except ValueError as exc:
        print(f"lower_bounds: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
