"""Public Python API breaks of the touched modules, compared with griffe.

Public follows Python's conventions: no underscore in the module path or the name, the
module's ``__all__`` when it has one, and re-exports: a private module's names that the
package's ``__init__.py`` re-exports (``from ._client import Client``, or ``import *`` of
the module's ``__all__``) are public under the package's name (``httpx.Client``), so a
parameter removed from ``httpx/_client.py``'s ``Client`` is ``httpx.Client.__init__(proxies)``,
while what the package does not export (``httpx._utils.Timer``) stays silent."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    import griffe

from commitdigest.analysis.radar.models import (
    ApiChange,
    CommitView,
    RadarKind,
    is_private_module,
    is_test_or_docs,
)
from commitdigest.models import ApiChangeType


def init_paths(paths: tuple[str, ...]) -> list[str]:
    """The package ``__init__.py`` files that may re-export the touched modules."""
    out: list[str] = []
    for path in paths:
        if path.endswith(".py") and "/" in path:
            out.append(path.rsplit("/", 1)[0] + "/__init__.py")
    return out


def _module_name(path: str) -> str:
    parts = path.removesuffix(".py").split("/")
    if parts and parts[0] == "src":
        parts = parts[1:]
    if parts and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts) or "module"


def _visit(path: str, code: str) -> griffe.Module | None:
    import griffe  # heavy: imported on the first module that needs it

    try:
        return griffe.visit(_module_name(path), Path(path), code)
    except Exception:  # a syntax error in either version: no API facts
        return None


def _all_names(code: str) -> set[str] | None:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
            and isinstance(node.value, (ast.List, ast.Tuple))
        ):
            return {
                e.value
                for e in node.value.elts
                if isinstance(e, ast.Constant) and isinstance(e.value, str)
            }
    return None


def _public(dotted: str, module: str, exported: set[str] | None) -> bool:
    rel = dotted.removeprefix(module + ".").split(".")
    if any(p.startswith("_") and not (p.startswith("__") and p.endswith("__")) for p in rel):
        return False
    return exported is None or rel[0] in exported


def package_exports(path: str, init_code: str | None, module_code: str) -> dict[str, str]:
    """Names of the private module ``path`` that its package's ``__init__.py`` re-exports:
    {name in the module: name in the package}; empty when the package is private too or the
    ``__init__`` does not re-export it."""
    if "/" not in path or init_code is None:
        return {}
    package, file = path.rsplit("/", 1)
    if is_private_module(package + "/__init__.py"):
        return {}
    module = file.removesuffix(".py")
    dotted = _module_name(path)
    try:
        tree = ast.parse(init_code)
    except SyntaxError:
        return {}
    out: dict[str, str] = {}
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom):
            continue
        if not ((node.level == 1 and node.module == module) or node.module == dotted):
            continue
        for alias in node.names:
            if alias.name == "*":
                names = _all_names(module_code)
                if names is None:
                    names = {n for n in _top_level_names(module_code) if not n.startswith("_")}
                out.update({n: n for n in names})
            else:
                out[alias.name] = alias.asname or alias.name
    exported = _all_names(init_code)
    if exported is not None:
        out = {k: v for k, v in out.items() if v in exported}
    return out


def _top_level_names(code: str) -> set[str]:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set()
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def _reexported(name: str, init_code: str | None) -> bool:
    return init_code is not None and re.search(rf"\b{re.escape(name)}\b", init_code) is not None


def _shimmed(param: str, after: str) -> bool:
    """The old parameter name is still handled with a deprecation warning."""
    return (
        bool(re.search(rf"[\"']{re.escape(param)}[\"']", after))
        and re.search("deprecat", after, re.I) is not None
    )


def detect(view: CommitView) -> list[ApiChange]:
    import griffe

    items: list[ApiChange] = []
    for path in view.paths:
        if not path.endswith(".py") or is_test_or_docs(path):
            continue
        before, after = view.before.get(path), view.after.get(path)
        if before is None:
            continue
        init = path.rsplit("/", 1)[0] + "/__init__.py" if "/" in path else ""
        init_after = view.after.get(init) if init else None
        reexports: dict[str, str] | None = None  # a private module: what the package exports
        if is_private_module(path):
            reexports = package_exports(path, view.before.get(init) if init else None, before)
            if not reexports or after is None:
                continue
        if after is None:  # a deleted public module: each of its public names is gone
            old = _visit(path, before)
            if old is None:
                continue
            exported = _all_names(before)
            for name, member in old.members.items():
                if member.is_alias and not _exports_imports(path, name, exported):
                    continue  # an import (`from __future__ import annotations`), not its API
                if _public(f"{old.path}.{name}", old.path, exported) and not _reexported(
                    name, init_after
                ):
                    items.append(
                        ApiChange(
                            kind=RadarKind.PYTHON_API,
                            change=ApiChangeType.REMOVED,
                            name=f"{old.path}.{name}",
                            path=path,
                            line=_own_line(member),
                        )
                    )
            continue
        if before == after or surface(before) == surface(after):
            continue  # bodies only: no API change (values of attributes are not compared)
        old, new = _visit(path, before), _visit(path, after)
        if old is None or new is None:
            continue
        exported = _all_names(before) if reexports is None else set(reexports)
        try:
            breakages = list(griffe.find_breaking_changes(old, new))
        except griffe.GriffeError:  # e.g. an alias only the whole package resolves: no facts
            continue
        removed_in = {
            b.obj.path for b in breakages if b.kind is griffe.BreakageKind.PARAMETER_REMOVED
        }
        for brk in breakages:
            if brk.kind is griffe.BreakageKind.PARAMETER_MOVED and brk.obj.path in removed_in:
                continue  # the later parameters move because one was removed: one item
            obj = brk.obj
            dotted = obj.path
            if not _public(dotted, old.path, exported):
                continue
            if reexports is not None:  # named as the package exports it
                first, _, rest = dotted.removeprefix(old.path + ".").partition(".")
                package = old.path.rsplit(".", 1)[0]
                dotted = f"{package}.{reexports[first]}" + (f".{rest}" if rest else "")
            kind = brk.kind
            if kind is griffe.BreakageKind.OBJECT_REMOVED and _reexported(obj.name, init_after):
                continue
            if kind is griffe.BreakageKind.PARAMETER_REMOVED:
                pname = getattr(brk.old_value, "name", "")
                if _shimmed(pname, after):
                    continue
                what, old_s, new_s = f"{dotted}({pname})", pname, "(removed)"
            elif kind is griffe.BreakageKind.OBJECT_REMOVED:
                what, old_s, new_s = dotted, obj.name, "(removed)"
            elif isinstance(brk.old_value, griffe.Parameter):  # one parameter changed
                pname = brk.old_value.name
                what = f"{dotted}({pname})"
                if kind is griffe.BreakageKind.PARAMETER_CHANGED_DEFAULT:
                    old_s = str(brk.old_value.default)
                    new_s = str(getattr(brk.new_value, "default", ""))
                else:
                    old_s, new_s = _text(brk.old_value), _text(brk.new_value)
            else:
                what = dotted
                old_s, new_s = _text(brk.old_value), _text(brk.new_value)
            line = _new_line(new, obj.path.removeprefix(old.path + ".")) or (
                _line_in(after, obj.name) or _own_line(obj)
            )
            items.append(
                ApiChange(
                    kind=RadarKind.PYTHON_API,
                    change=_CHANGE.get(kind.value, ApiChangeType.SIGNATURE_CHANGED),
                    name=what,
                    detail=_detail(kind.value, old_s, new_s),
                    path=path,
                    line=line,
                )
            )
    return items


_SURFACE = re.compile(
    r"^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+\w+[ \t]*(?:\((?:[^()]|\([^()]*\))*\))?[^\n:]*:"
    r"|^[A-Za-z_]\w*[ \t]*(?::[^=\n]*)?=|^__all__[^\]\)]*[\]\)]|^(?:from|import)[ \t].*$",
    re.M,
)


def _own_line(obj: griffe.Object | griffe.Alias) -> int | None:
    """Where ``obj`` is written in its module: an alias's own line (its ``import``), as its
    target lies in another module that a module read alone cannot resolve."""
    if obj.is_alias:
        return cast("griffe.Alias", obj).alias_lineno
    return obj.lineno


def _exports_imports(path: str, name: str, exported: set[str] | None) -> bool:
    """Whether the imported ``name`` is part of the module's API: listed in ``__all__``, or
    imported into a package's ``__init__.py`` (its re-exports)."""
    return name in exported if exported is not None else path.endswith("__init__.py")


def surface(code: str) -> list[str]:
    """The lines that make a module's API (signatures, top-level names, ``__all__``,
    imports): when they are equal before and after, griffe has nothing to report."""
    return [" ".join(m.split()) for m in _SURFACE.findall(code)]


def _new_line(module: griffe.Module, rel: str) -> int | None:
    """The line of ``rel`` (``Client.__init__``) in the module after the commit, if it is
    still there."""
    try:
        line = module[rel].lineno
    except Exception:  # gone, or not a member griffe can name: another way to find it
        return None
    return line if isinstance(line, int) else None


def _detail(kind: str, old: str, new: str) -> str:
    """What changed beyond the item's name and change: nothing for a removal, ``old → new``
    for a default, else griffe's words for the breakage and ``old → new``."""
    if new == "(removed)" or old == new:
        return ""
    if _CHANGE.get(kind) is ApiChangeType.DEFAULT_CHANGED:
        return f"{old} → {new}"
    return f"{kind}: {old} → {new}"


def _text(value: object) -> str:
    name = getattr(value, "name", None)
    return str(name if isinstance(name, str) else value)[:120]


def _line_in(code: str, name: str) -> int | None:
    m = re.search(
        rf"^\s*(?:async\s+)?(?:def|class)\s+{re.escape(name)}\b|^{re.escape(name)}\s*[:=]",
        code,
        re.M,
    )
    return None if m is None else code.count("\n", 0, m.start()) + 1


_CHANGE = {  # griffe's BreakageKind values (griffe is imported lazily)
    "Public object was removed": ApiChangeType.REMOVED,
    "Parameter was removed": ApiChangeType.REMOVED,
    "Parameter default was changed": ApiChangeType.DEFAULT_CHANGED,
    "Attribute value was changed": ApiChangeType.DEFAULT_CHANGED,
}
