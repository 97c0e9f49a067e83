"""The command line: options (argparse, click, typer) that the touched files stop declaring,
and commands (console scripts: ``[project.scripts]``, Poetry's ``[tool.poetry.scripts]``,
``console_scripts`` in ``setup.cfg`` or ``setup.py``) that the packaging stops installing.

A command's own options go with it: those removed by the same commit from the modules of
its entry point (``openai = "openai.cli:main"``: ``openai/cli/…``) are one item, the
command's (openai-python 2.35.0 removed its CLI: 37 options, one line)."""

from __future__ import annotations

import configparser
import re
import tomllib
from functools import lru_cache
from typing import Any

from commitdigest.analysis.radar.models import (
    ApiChange,
    CommitView,
    RadarKind,
    is_own_python,
    is_test_or_docs,
    removed_from,
)

_DECL = re.compile(
    r"""(?:add_argument|option|Option)\(\s*(?:["']-[A-Za-z]["']\s*,\s*)?["'](--[A-Za-z0-9][A-Za-z0-9-]*)["']"""
)
_PACKAGING = frozenset({"pyproject.toml", "setup.cfg", "setup.py"})
# "name = module:attr" in setup.py's console_scripts list
_SETUP_PY_SCRIPT = re.compile(r"""["']\s*([\w.-]+)\s*=\s*([A-Za-z_][\w.]*\s*:\s*[\w.]+)""")
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


def is_packaging(path: str) -> bool:
    """A file that declares the commands a package installs (not a test's or an example's)."""
    return path.rpartition("/")[2] in _PACKAGING and not is_test_or_docs(path)


def _wants_packaging(changed: str | None, path: str) -> bool:
    return is_packaging(path) and (changed is None or ":" in changed or "script" in changed)


def commands(path: str, text: str | None) -> dict[str, str]:
    """The commands ``text`` (the packaging file ``path``) installs: name -> entry point
    (``module:attr``)."""
    if not text or "script" not in text:
        return {}
    return dict(_cached_commands(path.rpartition("/")[2], text))


@lru_cache(maxsize=256)
def _cached_commands(name: str, text: str) -> tuple[tuple[str, str], ...]:
    found: dict[str, str] = {}
    if name == "pyproject.toml":
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            return ()
        for table in (("project", "scripts"), ("project", "gui-scripts"),
                      ("tool", "poetry", "scripts")):  # fmt: skip
            node: Any = data
            for key in table:
                node = node.get(key) if isinstance(node, dict) else None
            if isinstance(node, dict):
                for command, target in node.items():
                    if isinstance(target, dict):  # Poetry: {reference = "…", type = "console"}
                        target = target.get("reference")
                    if isinstance(target, str):
                        found[str(command)] = target.strip()
    elif name == "setup.cfg":
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read_string(text)
            value = parser.get("options.entry_points", "console_scripts", fallback="")
        except configparser.Error:
            return ()
        for line in value.splitlines():
            command, _, target = line.partition("=")
            if command.strip() and target.strip():
                found[command.strip()] = target.strip()
    elif "console_scripts" in text:  # setup.py
        found.update(
            (m.group(1), m.group(2).replace(" ", "")) for m in _SETUP_PY_SCRIPT.finditer(text)
        )
    return tuple(found.items())


def detect(view: CommitView) -> list[ApiChange]:
    touched = [p for p in view.paths if wants(view.changed.get(p), p)]
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


def _commands(view: CommitView, removed: dict[str, str]) -> list[ApiChange]:
    """The commands the commit stops installing, each with the options of ``removed``
    (option -> path, taken out of it) that lived in the modules of its entry point."""
    packaging = [p for p in view.paths if _wants_packaging(view.changed.get(p), p)]
    if not packaging:
        return []
    old: dict[str, tuple[str, str]] = {}  # command -> (entry point, where it was declared)
    new: set[str] = set()
    for p in packaging:
        old.update((c, (t, p)) for c, t in commands(p, view.before.get(p)).items())
        new.update(commands(p, view.after.get(p)))
    items = []
    for command in sorted(old.keys() - new):
        target, path = old[command]
        module = target.partition(":")[0].strip().replace(".", "/")
        own = sorted(o for o, p in removed.items() if _in_module(p, module))
        for option in own:
            del removed[option]
        shown = ", ".join(own[:OPTIONS_SHOWN]) + (
            f" (+{len(own) - OPTIONS_SHOWN})" if len(own) > OPTIONS_SHOWN else ""
        )
        text = view.before.get(path) or ""
        at = re.search(rf"""^[ \t]*["']?{re.escape(command)}["']?[ \t]*=""", text, re.M)
        needle = text[at.start() : at.end()] if at else None  # its declaration's line
        item = removed_from(RadarKind.CLI_COMMAND, command, path, text, needle)
        items.append(
            item.model_copy(update={"detail": f"{target}; {shown}" if own else target,
                                    "symbols": own})
        )  # fmt: skip
    return items


def _in_module(path: str, module: str) -> bool:
    """Whether ``path`` is the module ``module`` (``openai/cli``) or one of its package's,
    at any depth of the repository (``src/openai/cli/_api/audio.py``)."""
    path = "/" + path
    return path.endswith((f"/{module}.py", f"/{module}/__init__.py")) or f"/{module}/" in path
