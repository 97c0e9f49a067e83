"""Each layer imports only its own layer and the layers below it (ARCHITECTURE.md):

    base (errors, models, files, window, redaction, http, progress, text, config/, i18n/)
      <- sources, analysis  <- store  <- render  <- deliver, site  <- pipeline  <- cli

Imports under ``if TYPE_CHECKING:`` count too: a type is a dependency. Only ``cli/`` imports
typer and rich.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "commitdigest"

RANK = {
    "base": 0,
    "sources": 1,
    "analysis": 1,
    "store": 2,
    "render": 3,
    "deliver": 4,
    "site": 4,
    "pipeline": 5,
    "agent": 5,  # the MCP server: reads the reports (render's JSON), below the CLI
    "cli": 6,
}
BASE_MODULES = {
    "errors", "models", "files", "window", "redaction", "progress", "config", "i18n", "http",
    "_version", "aio", "gitcmd", "text",
}  # fmt: skip
CLI_ONLY = {"typer", "rich", "click"}


def layer_of(module: str) -> str:
    """``commitdigest.sources.git`` -> ``sources``; base modules and the root -> ``base``."""
    parts = module.split(".")
    if len(parts) < 2 or parts[1] in BASE_MODULES or parts[1] == "__init__":
        return "base"
    if parts[1] == "__main__":  # `python -m commitdigest`: the command line
        return "cli"
    if parts[1] not in RANK:
        raise AssertionError(f"{module}: add its room to RANK or BASE_MODULES in this test")
    return parts[1]


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> list[tuple[str, int]]:
    """Absolute names of what ``path`` imports, relative imports resolved, with lines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    out: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            out.append((name, node.lineno))
    return out


def sources() -> list[Path]:
    """Every module but the package root: ``commitdigest/__init__.py`` is the library's front
    door (it loads the public names of every layer lazily), above every layer."""
    return sorted(p for p in PACKAGE.rglob("*.py") if p != PACKAGE / "__init__.py")


def test_every_module_imports_only_its_layer_or_below() -> None:
    wrong = []
    for path in sources():
        mine = layer_of(module_name(path))
        for name, line in imports_of(path):
            if not name.startswith("commitdigest."):
                continue
            theirs = layer_of(name)
            if RANK.get(theirs, 0) > RANK.get(mine, 0) or (
                RANK.get(theirs, 0) == RANK.get(mine, 0) and theirs != mine and mine != "base"
            ):
                wrong.append(f"{path.relative_to(PACKAGE)}:{line} ({mine}) imports {name}")
    assert wrong == [], "\n".join(wrong)


def test_only_cli_imports_typer_or_rich() -> None:
    wrong = [
        f"{path.relative_to(PACKAGE)}:{line} imports {name}"
        for path in sources()
        if layer_of(module_name(path)) != "cli"
        for name, line in imports_of(path)
        if name.split(".")[0] in CLI_ONLY
    ]
    assert wrong == [], "\n".join(wrong)


def test_the_base_imports_no_stage() -> None:
    wrong = [
        f"{path.relative_to(PACKAGE)}:{line} imports {name}"
        for path in sources()
        if layer_of(module_name(path)) == "base"
        for name, line in imports_of(path)
        if name.startswith("commitdigest.") and layer_of(name) != "base"
    ]
    assert wrong == [], "\n".join(wrong)


def test_the_rules_see_through_relative_imports() -> None:
    path = PACKAGE / "sources" / "open.py"
    names = {name for name, _ in imports_of(path)}
    assert "commitdigest.sources.git" in names
    assert "commitdigest.errors" in names


def test_no_sql_outside_the_store() -> None:
    wrong = [
        f"{path.relative_to(PACKAGE)}:{line} {what}"
        for path in sources()
        if layer_of(module_name(path)) != "store"
        for what, line in [
            *((n, ln) for n, ln in imports_of(path) if n == "sqlite3"),
            *(
                ("._conn", i)
                for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if "._conn" in text
            ),
        ]
    ]
    assert wrong == [], "\n".join(wrong)


def test_render_only_renders() -> None:
    """``render/`` shows what the context holds: it imports no analysis (a version bump,
    an importance, a type are the analysis stage's, stored on the analysis) and no text
    helper of its own that every output needs (those are ``commitdigest.text``'s)."""
    wrong = [
        f"{path.relative_to(PACKAGE)}:{line} imports {name}"
        for path in sorted((PACKAGE / "render").rglob("*.py"))
        for name, line in imports_of(path)
        if name.startswith("commitdigest.analysis")
    ]
    assert wrong == [], "\n".join(wrong)


def test_text_helpers_live_in_one_module() -> None:
    """The plain-text helpers every output uses are defined once, in the base's
    ``commitdigest/text.py``, and imported from there (no copy, no re-export)."""
    helpers = {"clean_line", "clean_lines", "shorten_title", "safe_url", "slugify",
               "is_anchor", "strip_controls", "BIDI_CONTROLS"}  # fmt: skip
    wrong = []
    for path in sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.relative_to(PACKAGE)
        for node in tree.body:  # module level: a class may have a method of the same name
            if isinstance(node, ast.FunctionDef | ast.Assign) and path.name != "text.py":
                names = (
                    [node.name]
                    if isinstance(node, ast.FunctionDef)
                    else [t.id for t in node.targets if isinstance(t, ast.Name)]
                )
                wrong += [f"{where}: defines {n}" for n in names if n in helpers]
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module != "commitdigest.text":
                wrong += [
                    f"{where}: imports {a.name} from {node.module}"
                    for a in node.names
                    if a.name in helpers
                ]
    assert wrong == [], "\n".join(wrong)
