"""Each layer imports only its own layer and the layers below it (ARCHITECTURE.md):

    base  <- sources, analysis  <- store  <- render  <- deliver, site  <- pipeline, agent  <- cli

and, inside the base and inside ``analysis/``, each room only the rooms of the tiers below
it (:data:`BASE_ORDER`, :data:`ANALYSIS_ORDER`). ``from commitdigest.x import y`` counts as an
import of the module ``commitdigest.x.y`` when ``y`` is one, so ``from commitdigest import
pipeline`` is an import of ``pipeline``; the package root (the library's front door, above
every layer) is imported by no module.

Imports under ``if TYPE_CHECKING:`` and inside functions count too: a type is a dependency.
No two modules import each other, directly or around a circle, when they are imported (the
module-level imports, not those under ``TYPE_CHECKING`` or inside a function). Only ``cli/``
imports typer and rich. Each checker is a function of the sources it reads, and the tests at
the end feed each one a made-up violation that it must report.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping, Sequence
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
    "root": 7,  # commitdigest/__init__.py: the public API, loads every layer lazily
}
# The base, tier by tier: a base module imports only base modules of a lower tier.
BASE_ORDER: tuple[frozenset[str], ...] = (
    # import nothing of ours
    frozenset({"facts", "redaction", "text", "gitcmd", "aio", "progress", "lazy", "_version"}),
    # models <- facts (its enumerations and the radar's facts, without pydantic); errors <-
    # redaction (messages masked); version <- _version
    frozenset({"models", "errors", "version"}),
    frozenset({"window", "files", "http", "i18n"}),  # <- errors, models, redaction, version
    frozenset({"config"}),  # <- errors, files
)
BASE_MODULES = frozenset().union(*BASE_ORDER)
# The rooms of analysis/, tier by tier: the radar and the rules never import the LLM room.
ANALYSIS_ORDER: tuple[frozenset[str], ...] = (
    # what a file is (by its path) and what a title's words say (its tags and keywords, the
    # deprecation warnings it handles), which every fact reads
    frozenset({"classify", "tags"}),
    # the facts (API changes) and the rules' sentences
    frozenset({"radar", "rules_text"}),
    frozenset({"automation", "focus", "grounding", "overview"}),
    frozenset({"rules"}),  # the rule analyser: rules.py and the modules of ANALYSIS_ROOMS
    frozenset({"llm"}),  # llm/: the LLM analyser, which falls back to the rules
    frozenset({"analysers"}),  # the registry of analysers and the built-in plugin
)
ANALYSIS_ROOMS = {  # a module of analysis/ that is part of a larger room
    "default_analysers": "analysers",
    "rules_facts": "rules",
    "rules_importance": "rules",
    "rules_type": "rules",
    "rules_writeup": "rules",
}
CLI_ONLY = {"typer", "rich", "click"}
Imports = Mapping[str, Sequence[tuple[str, int]]]  # module -> (what it imports, line)


def ours(name: str) -> bool:
    return name == "commitdigest" or name.startswith("commitdigest.")


def layer_of(module: str) -> str:
    """``commitdigest.sources.git`` -> ``sources``; base modules -> ``base``; the package
    root -> ``root``."""
    parts = module.split(".")
    if len(parts) < 2:
        return "root"
    if parts[1] == "__main__":  # `python -m commitdigest`: the command line
        return "cli"
    if parts[1] in BASE_MODULES:
        return "base"
    if parts[1] not in RANK:
        raise AssertionError(f"{module}: add its room to RANK or BASE_ORDER in this test")
    return parts[1]


def base_room(module: str) -> str | None:
    """``commitdigest.config.settings`` -> ``config``; None outside the base."""
    return module.split(".")[1] if layer_of(module) == "base" else None


def analysis_room(module: str) -> str | None:
    """``commitdigest.analysis.radar.pyapi`` -> ``radar``, ``...analysis.rules_type`` ->
    ``rules``; None outside ``analysis/`` (and for its empty package module)."""
    parts = module.split(".")
    if len(parts) < 3 or parts[1] != "analysis":
        return None
    room = ANALYSIS_ROOMS.get(parts[2], parts[2])
    if not any(room in tier for tier in ANALYSIS_ORDER):
        raise AssertionError(f"{module}: add its room to ANALYSIS_ORDER in this test")
    return room


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_module(name: str) -> bool:
    """Whether ``name`` is a module or a package of the source tree."""
    where = PACKAGE.parent.joinpath(*name.split("."))
    return where.with_suffix(".py").is_file() or (where / "__init__.py").is_file()


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _run_on_import(node: ast.AST) -> Iterator[ast.AST]:
    """The nodes Python runs when the module is imported: not a function's body, not what
    ``if TYPE_CHECKING:`` guards (its ``else:`` runs)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        if isinstance(child, ast.If) and _type_checking(child.test):
            for other in child.orelse:
                yield other
                yield from _run_on_import(other)
            continue
        yield child
        yield from _run_on_import(child)


def imports_in(
    source: str, module: str, *, package: bool = False, on_import: bool = False
) -> list[tuple[str, int]]:
    """Absolute names of what ``module`` (its ``source``; ``package``: an ``__init__.py``)
    imports, relative imports resolved, ``from a import b`` as ``a.b`` when that is a module,
    with lines; ``on_import``: only what runs when the module is imported."""
    tree = ast.parse(source)
    here = module.split(".")
    parent = here if package else here[:-1]
    out: list[tuple[str, int]] = []
    for node in _run_on_import(tree) if on_import else ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = parent[: len(parent) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            found = [f"{name}.{a.name}" for a in node.names if is_module(f"{name}.{a.name}")]
            if len(found) < len(node.names):  # a name defined in the module itself
                found.append(name)
            out.extend((n, node.lineno) for n in dict.fromkeys(found))
    return out


def imports_of(path: Path, *, on_import: bool = False) -> list[tuple[str, int]]:
    """What the module at ``path`` imports (:func:`imports_in`)."""
    source = path.read_text(encoding="utf-8")
    package = path.name == "__init__.py"
    return imports_in(source, module_name(path), package=package, on_import=on_import)


def sources() -> list[Path]:
    """Every module but the package root: ``commitdigest/__init__.py`` is the library's front
    door (it loads the public names of every layer lazily), above every layer."""
    return sorted(p for p in PACKAGE.rglob("*.py") if p != PACKAGE / "__init__.py")


def all_imports(*, on_import: bool = False) -> dict[str, list[tuple[str, int]]]:
    return {module_name(p): imports_of(p, on_import=on_import) for p in sources()}


# ---- the checkers: each reads a module -> imports map, so a test can feed it a made-up one


def layer_violations(imports: Imports) -> list[str]:
    """Imports of a higher layer, or of another room of the same layer."""
    wrong = []
    for module, found in imports.items():
        mine = layer_of(module)
        for name, line in found:
            if not ours(name):
                continue
            theirs = layer_of(name)
            if RANK[theirs] > RANK[mine] or (RANK[theirs] == RANK[mine] and theirs != mine):
                wrong.append(f"{module}:{line} ({mine}) imports {name} ({theirs})")
    return wrong


def order_violations(
    imports: Imports, room_of: Callable[[str], str | None], order: Sequence[frozenset[str]]
) -> list[str]:
    """Imports, between two rooms that ``room_of`` names, of a room of the same tier of
    ``order`` or a higher one."""
    tier = {room: i for i, rooms in enumerate(order) for room in rooms}
    wrong = []
    for module, found in imports.items():
        mine = room_of(module)
        if mine is None:
            continue
        for name, line in found:
            theirs = room_of(name) if ours(name) else None
            if theirs is not None and theirs != mine and tier[theirs] >= tier[mine]:
                wrong.append(f"{module}:{line} ({mine}) imports {name} ({theirs})")
    return wrong


def cycles(imports: Imports) -> list[list[str]]:
    """The circles of modules that import each other (Tarjan's strongly connected
    components of more than one module, or one that imports itself), each sorted."""
    graph = {m: sorted({n for n, _ in found if n in imports}) for m, found in imports.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(node: str) -> None:  # recursion depth: the longest import chain (tens)
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1 or node in graph[node]:
                out.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(out)


def test_every_module_imports_only_its_layer_or_below() -> None:
    wrong = layer_violations(all_imports())
    assert wrong == [], "\n".join(wrong)


def test_the_base_imports_its_rooms_in_order() -> None:
    wrong = order_violations(all_imports(), base_room, BASE_ORDER)
    assert wrong == [], "\n".join(wrong)


def test_the_rooms_of_analysis_import_in_order() -> None:
    """The radar and the rules never import the LLM room; the facts import no judgement."""
    wrong = order_violations(all_imports(), analysis_room, ANALYSIS_ORDER)
    assert wrong == [], "\n".join(wrong)


def test_no_modules_import_each_other_when_imported() -> None:
    found = cycles(all_imports(on_import=True))
    assert found == [], "\n".join(" <-> ".join(c) for c in found)


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
        if ours(name) and layer_of(name) != "base"
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


# ---- each checker reports a made-up violation ---------------------------------------


def test_from_the_package_import_a_room_is_an_import_of_the_room() -> None:
    found = imports_in("from commitdigest import pipeline\n", "commitdigest.window")
    assert found == [("commitdigest.pipeline", 1)]
    assert layer_violations({"commitdigest.window": found}) == [
        "commitdigest.window:1 (base) imports commitdigest.pipeline (pipeline)"
    ]
    relative = imports_in("from .. import store\n", "commitdigest.sources.git")
    assert relative == [("commitdigest.store", 1)]
    assert layer_violations({"commitdigest.sources.git": relative}) != []


def test_a_name_from_the_package_root_is_an_import_of_the_root() -> None:
    found = imports_in("from commitdigest import __version__\n", "commitdigest.cli.commands")
    assert found == [("commitdigest", 1)]
    assert layer_violations({"commitdigest.cli.commands": found}) == [
        "commitdigest.cli.commands:1 (cli) imports commitdigest (root)"
    ]


def test_a_base_module_importing_a_higher_tier_is_reported() -> None:
    source = "from commitdigest.config import Settings\nfrom commitdigest import errors\n"
    found = {"commitdigest.models": imports_in(source, "commitdigest.models")}
    assert order_violations(found, base_room, BASE_ORDER) == [
        "commitdigest.models:1 (models) imports commitdigest.config (config)",
        "commitdigest.models:2 (models) imports commitdigest.errors (errors)",
    ]
    same_tier = {"commitdigest.window": [("commitdigest.http", 3)]}
    assert order_violations(same_tier, base_room, BASE_ORDER) != []
    inside = {"commitdigest.config.settings": [("commitdigest.config.channels", 1)]}
    assert order_violations(inside, base_room, BASE_ORDER) == []


def test_the_radar_or_the_rules_importing_the_llm_room_is_reported() -> None:
    radar = "def f():\n    from commitdigest.analysis.llm import chat\n"
    rules = "from commitdigest.analysis import llm\n"
    found = {
        "commitdigest.analysis.radar.public": imports_in(
            radar, "commitdigest.analysis.radar.public"
        ),
        "commitdigest.analysis.rules_facts": imports_in(rules, "commitdigest.analysis.rules_facts"),
    }
    assert order_violations(found, analysis_room, ANALYSIS_ORDER) == [
        "commitdigest.analysis.radar.public:2 (radar) imports commitdigest.analysis.llm.chat (llm)",
        "commitdigest.analysis.rules_facts:1 (rules) imports commitdigest.analysis.llm (llm)",
    ]


def test_modules_that_import_each_other_are_a_cycle() -> None:
    repo, public, models = (
        "commitdigest.analysis.radar.repo",
        "commitdigest.analysis.radar.public",
        "commitdigest.analysis.radar.models",
    )
    sources = {
        repo: "from commitdigest.analysis.radar.public import PublicSurface\n",
        public: "from commitdigest.analysis.radar import repo, models\n",
        models: "import commitdigest.analysis.radar.models\n",  # itself
    }
    found = {m: imports_in(s, m, on_import=True) for m, s in sources.items()}
    assert cycles(found) == [[models], [public, repo]]
    # what waits for a type check or a call is not run on import: no cycle
    deferred = {
        repo: "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from commitdigest.analysis.radar.public import PublicSurface\n",
        public: "def f():\n    from commitdigest.analysis.radar.repo import RepoView\n",
        models: "",
    }
    found = {m: imports_in(s, m, on_import=True) for m, s in deferred.items()}
    assert cycles(found) == []
    assert cycles({m: imports_in(s, m) for m, s in deferred.items()}) == [[public, repo]]
