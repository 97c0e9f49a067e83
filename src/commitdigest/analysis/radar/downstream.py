"""Which radar items a downstream checkout uses (``--downstream PATH``, a subscription's
``downstream = [...]``): each such item gets ``affects`` entries, the path and line of every use.

The checkout is read once per report, only for the names the day's items name:

* **Python files** are parsed (never run): imports from the upstream's packages (the first
  component of the items' dotted names), the names they bind (``import httpx as hx``,
  ``from httpx import Client``), attribute chains on them (``hx.Client``) and calls with the
  keyword arguments they pass. An object item (a removed function, class or attribute) is used
  wherever its name is referenced; a parameter item (``httpx.get(proxies)``) only at a call that
  passes that keyword (a call of ``httpx.get(url)`` does not care that ``proxies`` is gone) —
  or, for a changed default, at a call that does *not* pass it (it relies on the default). A
  class's call stands for its ``__init__``. A name used through another path (``httpx.get``
  for ``httpx._api.get``) matches when only module names (lower case) lie between the package
  and the object, as they do for re-exports.
* **Every text file** (shell, YAML, Dockerfile, ``.env``, Markdown, Python too) is searched for
  the environment variable names and CLI flags of the items, as whole words, and for the last
  part of config keys written as a key (``key:``, ``key =``, ``"key":``).

Version control folders, virtual environments, ``node_modules``, build output and caches are
skipped, as are files over :data:`MAX_FILE_BYTES` and files that are not UTF-8 text. Paths are
relative to the checkout (prefixed with its folder name when several are given).
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from commitdigest.analysis.radar.models import ApiChange, RadarKind
from commitdigest.models import ApiChangeType, Place

__all__ = ["MAX_FILE_BYTES", "attach_affects", "scan_downstream"]

MAX_FILE_BYTES = 1_000_000
MAX_PLACES = 50  # per item: enough to act on, bounded for a vendored copy of the upstream
SKIP_DIRS = frozenset(
    {
        ".git", ".hg", ".svn", ".venv", "venv", ".tox", ".nox", "node_modules", "__pycache__",
        "site-packages", "build", "dist", ".mypy_cache", ".pytest_cache", ".ruff_cache",
        ".eggs", "target",
    }
)  # fmt: skip
_ITEM_RE = re.compile(r"^([\w.]+?)(?:\((\w+)\))?$")
_WORD = r"(?<![\w-]){}(?![\w-])"


@dataclass
class Uses:
    """What a downstream uses of the names asked for."""

    refs: dict[str, list[Place]] = field(default_factory=lambda: defaultdict(list))
    calls: dict[str, list[tuple[Place, frozenset[str]]]] = field(
        default_factory=lambda: defaultdict(list)
    )
    words: dict[str, list[Place]] = field(default_factory=lambda: defaultdict(list))
    keys: dict[str, list[Place]] = field(default_factory=lambda: defaultdict(list))


def _files(roots: Sequence[Path]) -> Iterator[tuple[Path, str]]:
    """(file, its name in reports) under every root; skipped folders left out."""
    several = len(roots) > 1
    for root in roots:
        root = root.expanduser()
        if root.is_file():
            yield root, root.name
            continue
        stack = [root]
        while stack:
            folder = stack.pop()
            try:
                entries = sorted(folder.iterdir())
            except OSError:
                continue
            for entry in entries:
                if entry.is_symlink():
                    continue
                if entry.is_dir():
                    if entry.name not in SKIP_DIRS:
                        stack.append(entry)
                elif entry.is_file():
                    rel = entry.relative_to(root).as_posix()
                    yield entry, f"{root.name}/{rel}" if several else rel


def _read(path: Path) -> str | None:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if b"\0" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


class _PythonUses(ast.NodeVisitor):
    """Imports of ``packages``, attribute chains on them and calls, in one module."""

    def __init__(self, packages: frozenset[str], name: str, uses: Uses) -> None:
        self.packages = packages
        self.name = name
        self.uses = uses
        self.aliases: dict[str, str] = {}

    def _place(self, node: ast.AST) -> Place:
        return Place(path=self.name, line=getattr(node, "lineno", 0))

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            top = alias.name.split(".")[0]
            if top not in self.packages:
                continue
            if alias.asname:
                self.aliases[alias.asname] = alias.name
            else:
                self.aliases[top] = top
            self.uses.refs[alias.name].append(self._place(node))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level or module.split(".")[0] not in self.packages:
            return
        for alias in node.names:
            if alias.name == "*":
                continue
            dotted = f"{module}.{alias.name}"
            self.aliases[alias.asname or alias.name] = dotted
            self.uses.refs[dotted].append(self._place(node))

    def _dotted(self, node: ast.expr) -> str | None:
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name) and node.id in self.aliases:
            return ".".join([self.aliases[node.id], *reversed(parts)])
        return None

    def visit_Attribute(self, node: ast.Attribute) -> None:
        dotted = self._dotted(node)
        if dotted is not None:
            self.uses.refs[dotted].append(self._place(node))
            return  # the chain's prefixes are not uses of their own
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in self.aliases and isinstance(node.ctx, ast.Load):
            self.uses.refs[self.aliases[node.id]].append(self._place(node))

    def visit_Call(self, node: ast.Call) -> None:
        dotted = self._dotted(node.func)
        if dotted is not None:
            keywords = frozenset(k.arg for k in node.keywords if k.arg)
            self.uses.calls[dotted].append((self._place(node), keywords))
        self.generic_visit(node)


def _wanted(items: Sequence[ApiChange]) -> tuple[frozenset[str], set[str], set[str]]:
    """(upstream packages, words to find, config key names) of ``items``."""
    packages: set[str] = set()
    words: set[str] = set()
    keys: set[str] = set()
    for item in items:
        if item.kind in (RadarKind.PYTHON_API, RadarKind.DEPRECATION):
            m = _ITEM_RE.match(item.name)
            if m:
                packages.add(m.group(1).split(".")[0])
        elif item.kind in (RadarKind.ENV_VAR, RadarKind.CLI_OPTION):
            words.add(item.name)
        elif item.kind is RadarKind.CONFIG_KEY:
            keys.add(item.name.rsplit(".", 1)[-1])
    return frozenset(packages), words, keys


def scan_downstream(roots: Sequence[Path], items: Sequence[ApiChange]) -> Uses:
    """What the checkouts under ``roots`` use of the names ``items`` name."""
    packages, words, keys = _wanted(items)
    uses = Uses()
    if not (packages or words or keys):
        return uses
    word_re = (
        re.compile("|".join(_WORD.format(re.escape(w)) for w in sorted(words, key=len)[::-1]))
        if words
        else None
    )
    key_re = (
        re.compile(
            r"""^\s*["']?(""" + "|".join(re.escape(k) for k in sorted(keys)) + r""")["']?\s*[:=]""",
            re.M,
        )
        if keys
        else None
    )
    for path, name in _files(roots):
        text = _read(path)
        if text is None:
            continue
        if packages and path.suffix == ".py" and any(p in text for p in packages):
            try:
                tree = ast.parse(text, filename=name)
            except (SyntaxError, ValueError, RecursionError):
                tree = None
            if tree is not None:
                _PythonUses(packages, name, uses).visit(tree)
        if word_re is not None:
            for m in word_re.finditer(text):
                uses.words[m.group(0)].append(Place(path=name, line=_line(text, m.start())))
        if key_re is not None:
            for m in key_re.finditer(text):
                uses.keys[m.group(1)].append(Place(path=name, line=_line(text, m.start(1))))
    return uses


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _same_object(changed: str, used: str) -> bool:
    """Whether ``used`` (a downstream's dotted name) names the object ``changed`` names."""
    if changed == used:
        return True
    c, u = changed.split("."), used.split(".")
    if c[0] != u[0] or len(u) < 2 or len(c) <= len(u):
        return False
    tail = len(u) - 1
    if c[-tail:] != u[1:]:
        return False
    between = c[1 : len(c) - tail]
    return all(part.islower() or (part.startswith("_") and part[1:].islower()) for part in between)


def _places(item: ApiChange, uses: Uses) -> list[Place]:
    if item.kind in (RadarKind.ENV_VAR, RadarKind.CLI_OPTION):
        return list(uses.words.get(item.name, []))
    if item.kind is RadarKind.CONFIG_KEY:
        return list(uses.keys.get(item.name.rsplit(".", 1)[-1], []))
    if item.kind not in (RadarKind.PYTHON_API, RadarKind.DEPRECATION):
        return []
    m = _ITEM_RE.match(item.name)
    if m is None:
        return []
    target, param = m.group(1), m.group(2)
    targets = {target, target.removesuffix(".__init__")}
    if param is None:
        found = [p for used, ps in uses.refs.items() for p in ps if _matches(targets, used)]
        found += [p for used, cs in uses.calls.items() for p, _ in cs if _matches(targets, used)]
        return found
    relies_on_default = item.change is ApiChangeType.DEFAULT_CHANGED
    return [
        place
        for used, calls in uses.calls.items()
        if _matches(targets, used)
        for place, keywords in calls
        if (param not in keywords) is relies_on_default
    ]


def _matches(targets: set[str], used: str) -> bool:
    return any(_same_object(t, used) for t in targets)


def attach_affects(
    items_by_sha: Mapping[str, Sequence[ApiChange]], uses: Uses
) -> dict[str, list[ApiChange]]:
    """``items_by_sha`` with each item's downstream uses as ``affects`` (sorted, distinct)."""
    out: dict[str, list[ApiChange]] = {}
    for sha, items in items_by_sha.items():
        out[sha] = []
        for item in items:
            places = sorted(set(_places(item, uses)), key=lambda p: (p.path, p.line))
            if places:
                item = item.model_copy(update={"affects": places[:MAX_PLACES]})
            out[sha].append(item)
    return out
