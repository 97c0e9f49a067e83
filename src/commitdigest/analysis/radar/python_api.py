"""Public Python API breaks of the touched modules, compared with griffe."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import TYPE_CHECKING

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
        if not path.endswith(".py") or is_test_or_docs(path) or is_private_module(path):
            continue
        before, after = view.before.get(path), view.after.get(path)
        if before is None:
            continue
        init_after = (
            view.after.get(path.rsplit("/", 1)[0] + "/__init__.py") if "/" in path else None
        )
        if after is None:  # a deleted public module: each of its public names is gone
            old = _visit(path, before)
            if old is None:
                continue
            exported = _all_names(before)
            for name, member in old.members.items():
                if _public(f"{old.path}.{name}", old.path, exported) and not _reexported(
                    name, init_after
                ):
                    items.append(
                        ApiChange(
                            kind=RadarKind.PYTHON_API,
                            change=ApiChangeType.REMOVED,
                            name=f"{old.path}.{name}",
                            path=path,
                            line=member.lineno,
                        )
                    )
            continue
        if before == after or surface(before) == surface(after):
            continue  # bodies only: no API change (values of attributes are not compared)
        old, new = _visit(path, before), _visit(path, after)
        if old is None or new is None:
            continue
        exported = _all_names(before)
        breakages = list(griffe.find_breaking_changes(old, new))
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
            line = _line_in(after, obj.name) or obj.lineno
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


def surface(code: str) -> list[str]:
    """The lines that make a module's API (signatures, top-level names, ``__all__``,
    imports): when they are equal before and after, griffe has nothing to report."""
    return [" ".join(m.split()) for m in _SURFACE.findall(code)]


def _detail(kind: str, old: str, new: str) -> str:
    """What changed beyond the item's name and change: nothing for a removal, ``old → new``
    for a default, else griffe's words for the breakage and ``old → new``."""
    if new == "(removed)":
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
