"""Every runtime dependency is imported by the package, and every import is declared."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "commitdigest"
# distribution name -> the top-level module it provides, where the two differ
MODULE_OF = {"pydantic-settings": "pydantic_settings", "markdown-it-py": "markdown_it"}


def declared() -> dict[str, str]:
    """Runtime requirements of pyproject.toml as {module: requirement}."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    out = {}
    for requirement in project["dependencies"]:
        name = re.split(r"[\s<>=!~\[;]", requirement, maxsplit=1)[0].lower()
        out[MODULE_OF.get(name, name.replace("-", "_"))] = requirement
    return out


def imported() -> dict[str, str]:
    """Third-party top-level modules the package imports, with one file that does."""
    found: dict[str, str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top != "commitdigest" and top not in sys.stdlib_module_names:
                    found.setdefault(top, str(path.relative_to(ROOT)))
    return found


def test_every_runtime_dependency_is_imported() -> None:
    unused = sorted(set(declared()) - set(imported()))
    assert unused == [], f"declared in pyproject.toml but imported by nothing: {unused}"


def test_every_imported_library_is_declared() -> None:
    missing = {m: where for m, where in imported().items() if m not in declared()}
    assert missing == {}, f"imported but not declared in pyproject.toml: {missing}"


def test_the_parser_sees_through_names_and_markers() -> None:
    assert "pydantic_settings" in declared()
    assert "markdown_it" in declared()
    assert "typer" in imported()
