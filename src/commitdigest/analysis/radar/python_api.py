"""Python API changes of the touched modules: removed objects and parameters, parameters
that became required, moved or keyword-only, changed defaults, removed base classes.

A change is found from the module's source before and after (``pyapi``: a cheap surface
check first, then the ``ast`` model, each text parsed once per window). Each item says
whether it is public (``public.PublicSurface``) or internal; private names (``_x``) are
never items, nor are a private module's names unless a package re-exports them — then they
are named as users reach them (``httpx.Client.__init__(proxies)`` from
``httpx/_client.py``). Silent on purpose:

* a removed method that the class still inherits (its base, in the same module or another
  module of the repository, defines it; or it overrode an upstream method: marked
  ``@override`` or calling ``super().<name>()``);
* a removed name still importable from the module (moved, then re-exported) or now served
  by a module ``__getattr__`` (a deprecation shim);
* a removed parameter still handled by name with a deprecation warning (a shim);
* tests, docs, examples, benchmarks.

Names a module ``__getattr__`` served before and no longer serves are removed (Flask's
``_request_ctx_stack``), underscore or not: the shim made them part of the API.
"""

from __future__ import annotations

import re

from commitdigest.analysis.radar.models import (
    ApiChange,
    CommitView,
    RadarKind,
    is_private_module,
    is_test_or_docs,
    line_of,
)
from commitdigest.analysis.radar.public import PublicSurface, module_name
from commitdigest.analysis.radar.pyapi import (
    Breakage,
    ModuleApi,
    compare,
    dropped_exports,
    module_api,
    surface,
)
from commitdigest.models import ApiChangeType, Visibility

__all__ = ["detect", "init_paths"]

_CHANGE = {
    "removed": ApiChangeType.REMOVED,
    "param_removed": ApiChangeType.REMOVED,
    "now_required": ApiChangeType.NOW_REQUIRED,
    "default_changed": ApiChangeType.DEFAULT_CHANGED,
}
_MODULE_DUNDERS = {"__getattr__", "__dir__", "__all__", "__version__"}


def init_paths(paths: tuple[str, ...]) -> list[str]:
    """The package ``__init__.py`` files that may re-export the touched modules."""
    return [p.rsplit("/", 1)[0] + "/__init__.py" for p in paths if p.endswith(".py") and "/" in p]


def detect(view: CommitView) -> list[ApiChange]:
    public = view.repo.public if view.repo is not None else None
    items: list[ApiChange] = []
    for path in view.paths:
        if not path.endswith(".py") or is_test_or_docs(path):
            continue
        before, after = view.before.get(path), view.after.get(path)
        if before is None:
            continue  # a new module: nothing was there to break
        is_init = path.endswith("/__init__.py") or path == "__init__.py"
        if after is not None and surface(before, is_init) == surface(after, is_init):
            continue  # bodies only
        module = public.module_of(path) if public is not None else module_name(path)
        old = module_api(before, module, is_init)
        new = module_api(after, module, is_init) if after is not None else ModuleApi()
        if not old.ok or not new.ok:
            continue  # a syntax error on either side: no facts
        private = is_private_module(path)
        reexports: dict[str, str] = {}
        if private:
            reexports = _reexports(view, path, module, old)
            if not reexports and public is None:
                continue
        found = [
            *compare(old, new),
            *dropped_exports(old, new, is_init),
            *_unserved(old, new, before),
        ]
        for brk in found:
            item = _item(view, path, module, brk, old, new, public, reexports, private)
            if item is not None:
                items.append(item)
    return items


def _unserved(old: ModuleApi, new: ModuleApi, before: str) -> list[Breakage]:
    """Names a module ``__getattr__`` served before and the module no longer provides."""
    return [
        Breakage(name, "removed", line=line_of(before, f'"{name}"') or line_of(before, name))
        for name in sorted(old.getattr_names - new.getattr_names)
        if name not in old.objects and not new.provides(name)
    ]


def _item(
    view: CommitView,
    path: str,
    module: str,
    brk: Breakage,
    old: ModuleApi,
    new: ModuleApi,
    public: PublicSurface | None,
    reexports: dict[str, str],
    private: bool,
) -> ApiChange | None:
    qual = brk.qualname
    first, _, rest = qual.partition(".")
    served = first in old.getattr_names
    if qual in _MODULE_DUNDERS:
        return None
    if brk.change == "removed" and rest and _still_inherited(view, module, qual, old, new, public):
        return None
    if brk.change == "param_removed" and brk.param and _shimmed(brk.param, view.after.get(path)):
        return None
    visibility = Visibility.INTERNAL
    dotted = f"{module}.{qual}"
    alias = None
    if first in reexports:  # a private module's name, as the package exports it
        alias = f"{module.rsplit('.', 1)[0]}.{reexports[first]}"
    elif public is not None:
        alias = public.public_name(module, qual.partition(".")[0])
    if (
        alias is not None
        and public is not None
        and brk.change == "removed"
        and not rest
        and _still_exported(view, public, alias)
    ):
        return None  # moved: users reach it where they always did
    if alias is not None:
        public_dotted = alias + (f".{rest}" if rest else "")
        dotted = public_dotted if private else dotted
        visibility = Visibility.PUBLIC
    elif private:
        return None  # a private module's own names are no one's API
    elif served or public is None or public.is_public(module, qual, old.all):
        visibility = Visibility.PUBLIC
    name = f"{dotted}({brk.param})" if brk.param else dotted
    return ApiChange(
        kind=RadarKind.PYTHON_API,
        change=_CHANGE.get(brk.change, ApiChangeType.SIGNATURE_CHANGED),
        name=name,
        detail=_detail(brk),
        path=path,
        line=brk.line,
        visibility=visibility,
        position=brk.position if brk.param else None,
    )


def _detail(brk: Breakage) -> str:
    """What the name and change do not say, as code: ``5 → 10`` for a default,
    ``bases (A, Mixin) → (A)``, ``keyword-only``, ``position 2 → 1``."""
    if brk.change == "default_changed":
        return f"{brk.old} → {brk.new}"
    if brk.change == "bases":
        return f"bases {brk.old} → {brk.new}"
    if brk.change == "keyword_only":
        return "keyword-only"
    if brk.change == "moved":
        return f"position {brk.old} → {brk.new}"
    if brk.change == "kind":
        return f"{brk.old} → {brk.new}"
    return ""


def _still_exported(view: CommitView, public: PublicSurface, alias: str) -> bool:
    """Whether the module users reach ``alias`` (``pkg.Thing``) through still provides it
    after the commit."""
    where, _, name = alias.rpartition(".")
    path = public.path_of(where)
    if not path or view.repo is None:
        return False
    text = view.after[path] if path in view.after else view.repo.text(view.sha, path)
    if text is None:
        return False
    return module_api(text, where, path.endswith("__init__.py")).provides(name)


def _reexports(view: CommitView, path: str, module: str, api: ModuleApi) -> dict[str, str]:
    """Names of the private module ``path`` that its package's ``__init__.py`` re-exports
    (before the commit): {name in the module: name in the package}."""
    if "/" not in path:
        return {}
    package_dir = path.rsplit("/", 1)[0]
    if is_private_module(package_dir + "/__init__.py"):
        return {}
    init_text = view.before.get(package_dir + "/__init__.py")
    if init_text is None and view.repo is not None:
        init_text = view.repo.text(view.parent, package_dir + "/__init__.py")
    if init_text is None:
        return {}
    package = module.rsplit(".", 1)[0] if "." in module else module
    init = module_api(init_text, package, True)
    out: dict[str, str] = {}
    for bound, target in init.imports.items():
        if target.startswith(module + ".") and target.count(".") == module.count(".") + 1:
            out[target.rsplit(".", 1)[1]] = bound
    if module in init.star_imports:
        names = api.all if api.all is not None else {
            n for n in api.objects if "." not in n and not n.startswith("_")
        }  # fmt: skip
        out.update({n: n for n in names})
    if init.all is not None:
        out = {k: v for k, v in out.items() if v in init.all}
    return out


def _still_inherited(
    view: CommitView,
    module: str,
    qual: str,
    old: ModuleApi,
    new: ModuleApi,
    public: PublicSurface | None,
) -> bool:
    """Whether the removed method ``qual`` (``Cls.meth``) is still there for users: its
    class inherits it from a base of the repository, or it only overrode an upstream one."""
    cls, _, meth = qual.rpartition(".")
    before = old.objects.get(qual)
    if cls not in new.objects or new.objects[cls].kind != "class":
        return False
    if before is not None and before.overrides:
        return True
    return _defines(view, module, new, cls, meth, public, depth=0, seen=set()) is True


def _defines(
    view: CommitView,
    module: str,
    api: ModuleApi,
    cls: str,
    meth: str,
    public: PublicSurface | None,
    depth: int,
    seen: set[str],
) -> bool | None:
    """Whether class ``cls`` of ``module`` defines or inherits ``meth`` after the commit;
    ``None`` when a base lies outside the repository (unknown)."""
    key = f"{module}.{cls}"
    if depth > 8 or key in seen:
        return False
    seen.add(key)
    obj = api.objects.get(cls)
    if obj is None or obj.kind != "class":
        return False
    if f"{cls}.{meth}" in api.objects:
        return True
    unknown = False
    for base in obj.bases:
        base = re.sub(r"\[.*\]$", "", base).strip()
        if not re.fullmatch(r"[A-Za-z_][\w.]*", base) or base in ("object", "Generic", "Protocol"):
            continue
        head, _, tail = base.partition(".")
        if head in api.objects and not tail:
            found = _defines(view, module, api, head, meth, public, depth + 1, seen)
        else:
            target = api.imports.get(head)
            found = None
            if target is not None and public is not None and view.repo is not None:
                dotted = f"{target}.{tail}" if tail else target
                where, _, name = dotted.rpartition(".")
                path = public.path_of(where)
                text = view.repo.text(view.sha, path) if path else None
                if text is not None:
                    other = module_api(
                        text, where, path is not None and path.endswith("__init__.py")
                    )
                    found = _defines(view, where, other, name, meth, public, depth + 1, seen)
        if found is True:
            return True
        unknown = unknown or found is None
    return None if unknown else False


def _shimmed(param: str, after: str | None) -> bool:
    """The old parameter name is still handled with a deprecation warning."""
    if not after:
        return False
    return (
        re.search(rf"[\"']{re.escape(param)}[\"']", after) is not None
        and re.search("deprecat", after, re.I) is not None
    )
