"""The command line: options (argparse, click, typer) that the touched files stop declaring,
and commands (``[project.scripts]``/``gui-scripts``, Poetry's ``[tool.poetry.scripts]``,
``console_scripts``/``gui_scripts`` in ``setup.cfg`` or ``setup.py``) that the packaging
stops installing.

A command's own options go with it: those removed by the same commit from the modules of
its entry point (``openai = "openai.cli:main"``: ``openai/cli/…``) are one item, the
command's (openai-python 2.35.0 removed its CLI: 37 options, one line)."""

from __future__ import annotations

import ast
import configparser
import re
from dataclasses import replace
from functools import lru_cache
from typing import Any

from commitdigest.analysis.radar.models import (
    ApiChange,
    CommitView,
    RadarKind,
    is_own_python,
    removed_from,
    toml_of,
)
from commitdigest.analysis.radar.public import shipped
from commitdigest.analysis.radar.reads import is_packaging

_DECL = re.compile(
    r"""(?:add_argument|option|Option)\(\s*(?:["']-[A-Za-z]["']\s*,\s*)?["'](--[A-Za-z0-9][A-Za-z0-9-]*)["']"""
)
_SCRIPT_GROUPS = ("console_scripts", "gui_scripts")  # setup.cfg's and setup.py's
OPTIONS_SHOWN = 3  # a command's options named in its item's detail, the rest counted


def options(code: str | None) -> set[str]:
    if not code or ("add_argument" not in code and "ption(" not in code):
        return set()
    return set(_cached_options(code))


@lru_cache(maxsize=2048)
def _cached_options(code: str) -> frozenset[str]:
    return frozenset(_DECL.findall(code))


def wants(changed: str | None, path: str) -> bool:
    """Whether a commit's changed lines of ``path`` may add or remove an option."""
    return is_own_python(path) and (
        changed is None or "add_argument" in changed or "option(" in changed or "Option(" in changed
    )


def wants_packaging(changed: str | None, path: str) -> bool:
    """Whether a commit's changed lines of ``path`` may add or remove a command."""
    return is_packaging(path) and (changed is None or ":" in changed or "script" in changed)


def commands(path: str, text: str | None) -> dict[str, str]:
    """The commands ``text`` (the packaging file ``path``) installs: name -> entry point
    (``module:attr``)."""
    if not text or "script" not in text:
        return {}
    return dict(_cached_commands(path.rpartition("/")[2], text))


@lru_cache(maxsize=256)
def _cached_commands(name: str, text: str) -> tuple[tuple[str, str], ...]:
    if name == "pyproject.toml":
        return tuple(_pyproject_commands(text).items())
    if name == "setup.cfg":
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read_string(text)
            values = [
                parser.get("options.entry_points", group, fallback="") for group in _SCRIPT_GROUPS
            ]
        except configparser.Error:
            return ()
        return tuple(_ini_commands("\n".join(values)).items())
    return tuple(_setup_py_commands(text).items())


def _pyproject_commands(text: str) -> dict[str, str]:
    """``[project.scripts]``, ``[project.gui-scripts]``, Poetry's ``[tool.poetry.scripts]``
    (a string, or a table with ``reference`` or ``callable``)."""
    data = toml_of(text)
    if data is None:
        return {}
    found: dict[str, str] = {}
    for table in (("project", "scripts"), ("project", "gui-scripts"),
                  ("tool", "poetry", "scripts")):  # fmt: skip
        node: Any = data
        for key in table:
            node = node.get(key) if isinstance(node, dict) else None
        if not isinstance(node, dict):
            continue
        for command, target in node.items():
            if isinstance(target, dict):  # Poetry: {reference = "…"} or {callable = "…"}
                target = target.get("reference") or target.get("callable")
            if isinstance(target, str):
                found[str(command)] = target.strip()
    return found


def _ini_commands(value: str) -> dict[str, str]:
    """``name = module:attr`` lines (a ``console_scripts`` value)."""
    found: dict[str, str] = {}
    for line in value.splitlines():
        command, _, target = line.partition("=")
        if command.strip() and target.strip():
            found[command.strip()] = target.strip()
    return found


def _setup_py_commands(text: str) -> dict[str, str]:
    """The ``console_scripts`` and ``gui_scripts`` of a ``setup.py``'s ``entry_points``
    (a dict of lists of ``"name = module:attr"``, or an INI string): not its other entry
    point groups (a flake8 plugin's ``"flake8.extension"`` is no command)."""
    if "console_scripts" not in text and "gui_scripts" not in text:
        return {}
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return {}
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value in _SCRIPT_GROUPS:
                    entries = value.elts if isinstance(value, ast.List | ast.Tuple) else []
                    for entry in entries:
                        if isinstance(entry, ast.Constant) and isinstance(entry.value, str):
                            found.update(_ini_commands(entry.value))
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and ("[console_scripts]" in node.value or "[gui_scripts]" in node.value)
        ):
            parser = configparser.ConfigParser(interpolation=None)
            try:
                parser.read_string(node.value)
                for group in _SCRIPT_GROUPS:
                    if parser.has_section(group):
                        found.update((k, v.strip()) for k, v in parser.items(group))
            except configparser.Error:
                continue
    return found


def detect(view: CommitView) -> list[ApiChange]:
    touched = [p for p in view.paths if wants(view.changed.get(p), p)]
    touched = shipped(view.repo, [p for p in touched if not _a_helper(p)])
    before: set[str] = set()
    after: set[str] = set()
    for p in touched:
        before |= options(view.before.get(p))
        after |= options(view.after.get(p))
    removed = {
        opt: next(p for p in touched if opt in options(view.before.get(p)))
        for opt in sorted(before - after)
    }
    items = _commands(view, removed)
    for opt, path in removed.items():
        items.append(removed_from(RadarKind.CLI_OPTION, opt, path, view.before.get(path)))
    return items


# a package's private build or development helpers (scipy's ``scipy/_build_utils/``, whose
# ``tempita.py`` lost ``--outfile``): their options are no command line users run (not
# openai's ``cli/_tools/``, subcommands of its ``openai`` command)
_HELPERS = re.compile(r"^_+(?:build|dev)(?:[_-]\w+)?$", re.I)


def _a_helper(path: str) -> bool:
    return any(_HELPERS.match(part) for part in path.split("/")[:-1])


def _commands(view: CommitView, removed: dict[str, str]) -> list[ApiChange]:
    """The commands the commit stops installing, each with the options of ``removed``
    (option -> path, taken out of it) that lived in the modules of its entry point."""
    packaging = [p for p in view.paths if wants_packaging(view.changed.get(p), p)]
    if not packaging:
        return []
    old: dict[str, tuple[str, str]] = {}  # command -> (entry point, where it was declared)
    new: dict[str, str] = {}
    for p in packaging:
        old.update((c, (t, p)) for c, t in commands(p, view.before.get(p)).items())
        new.update(commands(p, view.after.get(p)))
    kept = [_module(target) for target in new.values()]  # what still-installed ones run
    items = []
    for command in sorted(old.keys() - new.keys()):
        target, path = old[command]
        module = _module(target)
        own = sorted(
            o
            for o, p in removed.items()
            if _in_module(p, module) and not any(_in_module(p, k) for k in kept)
        )
        for option in own:
            del removed[option]
        shown = ", ".join(own[:OPTIONS_SHOWN]) + (
            f" (+{len(own) - OPTIONS_SHOWN})" if len(own) > OPTIONS_SHOWN else ""
        )
        text = view.before.get(path) or ""
        at = re.search(rf"""(?:^|["'])[ \t]*{re.escape(command)}["']?[ \t]*=""", text, re.M)
        needle = text[at.start() : at.end()] if at else None  # its declaration's line
        item = removed_from(RadarKind.CLI_COMMAND, command, path, text, needle)
        items.append(
            replace(item, detail=f"{target}; {shown}" if own else target, symbols=own)
        )  # fmt: skip
    return items


def _module(target: str) -> str:
    """``openai.cli:main`` -> ``openai/cli``."""
    return target.partition(":")[0].strip().replace(".", "/")


def _in_module(path: str, module: str) -> bool:
    """Whether ``path`` is the module ``module`` (``openai/cli``) or one of its package's,
    at any depth of the repository (``src/openai/cli/_api/audio.py``)."""
    path = "/" + path
    return path.endswith((f"/{module}.py", f"/{module}/__init__.py")) or f"/{module}/" in path
