"""Which Python names a project presents to its users: its public surface.

Python lets anyone import anything without an underscore, so "public" is what the project
itself says (docs/radar.md):

* the top-level packages' namespaces: what each package ``__init__.py`` re-exports — plain,
  conditional, inside ``try``/``except`` (``if TYPE_CHECKING`` imports only when ``__all__``
  or a module ``__getattr__`` serves them), ``from .x import *`` of a module's ``__all__``,
  names served by a module ``__getattr__`` (lazy tables too), and the subpackages it exposes,
  recursively;
* every module and object the project's docs and README name by its dotted path;
* every object an entry point names (``[project.scripts]``, plugin entry points in
  ``pyproject.toml``, ``setup.py``, ``setup.cfg``).

A package that declares no surface at all (empty ``__init__`` files and docs that name none
of its modules) is read by convention: every name without an underscore is public. The
surface is read once per window, at its start: what a removal takes away is what users had.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
import weakref
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property

from commitdigest.analysis.radar.models import is_test_or_docs
from commitdigest.analysis.radar.pyapi import (
    STAR_IMPORT,
    ModuleApi,
    module_api,
    statements_api,
    top_statements,
    word_char,
)
from commitdigest.analysis.radar.repo import RepoView

__all__ = [
    "PublicSurface",
    "import_target",
    "module_name",
    "public_surface",
    "share_surface",
    "shipped",
]

# a def, a class or an assignment at a module's first column, and the name it defines
# (searched in the text after a line break: the search then skips to each line break, where
# one for a line's start tried every character: three times slower on 84 MB of modules)
_TOP_DEFINED = re.compile(
    r"\n(?:(?:async[ \t]+)?def[ \t]+(\w+)|class[ \t]+(\w+)|(\w+)[ \t]*(?::[^=\n]*)?=(?!=))"
)
_DOC_GLOBS = ("*.md", "*.rst", "*.txt", "*.yml", "*.yaml", ":!tests/**", ":!**/tests/**")
_NOT_CODE = (":!tests/**", ":!**/tests/**", ":!test/**", ":!**/test/**")


_ONE_BY_ONE = 3  # names of a module looked for one by one, before all are listed
_OCCURRENCES = 24  # of a name in a module, looked at one by one before all are listed
_AHEAD = 3  # levels of re-exports read ahead, each in one request (see _Walker.read_ahead)
# what comes before a name a def or class line defines, and after one an assignment sets
_DEF_BEFORE = re.compile(r"(?:async[ \t]+)?def[ \t]+|class[ \t]+")
_SET_AFTER = re.compile(r"[ \t]*(?::[^=\n]*)?=(?!=)")


def _defines_at_top(text: str, name: str) -> bool | None:
    """Whether ``name`` is one of the names :data:`_TOP_DEFINED` finds in ``text``: a whole
    word at a line's start that an assignment sets, or after ``def``/``class`` there; None
    where the text writes it more than :data:`_OCCURRENCES` times elsewhere (SQLAlchemy's
    ``select``: then every name it defines is listed at once)."""
    at = text.find(name) if name else -1
    seen = 0
    while at >= 0:
        end = at + len(name)
        if end == len(text) or not word_char(text[end]):
            start = text.rfind("\n", 0, at) + 1
            if (start == at and _SET_AFTER.match(text, end) is not None) or (
                start < at and _DEF_BEFORE.fullmatch(text, start, at) is not None
            ):
                return True
        seen += 1
        if seen > _OCCURRENCES:
            return None
        at = text.find(name, end)
    return False


def _words_at(text: str, name: str) -> Iterator[int]:
    """Where ``text`` writes ``name`` as a whole word (its offsets, in order)."""
    at = text.find(name) if name else -1
    while at >= 0:
        end = at + len(name)
        if (not at or not word_char(text[at - 1])) and (
            end == len(text) or not word_char(text[end])
        ):
            yield at
        at = text.find(name, end)


def _word_in(text: str, name: str) -> bool:
    """Whether ``text`` writes ``name`` as a whole word."""
    return next(_words_at(text, name), None) is not None


def _serving_code(path: str) -> bool:
    """A Python file that may serve a package under another name: not a test's, a
    ``conftest.py`` or a ``setup.py``."""
    return (
        path.endswith(".py")
        and not is_test_or_docs(path)
        and path.rsplit("/", 1)[-1] not in ("conftest.py", "setup.py")
    )


_ENTRY = re.compile(r"""=\s*["']?\s*([A-Za-z_][\w.]*)\s*:\s*([A-Za-z_][\w.]*)""")
_SKIP_ROOTS = {"tests", "test", "docs", "doc", "examples", "example", "benchmarks", "bench",
               "scripts", "tools", "ci", ".github"}  # fmt: skip


def module_name(path: str, roots: Iterable[str] = ()) -> str:
    """``src/httpx/_client.py`` -> ``httpx._client``: the path from its top package's
    parent folder (one of ``roots``, the folders holding top-level packages), else from the
    repository root without a leading ``src/``."""
    stem = path.removesuffix(".py")
    for root in sorted(roots, key=len, reverse=True):
        if root and stem.startswith(root + "/"):
            stem = stem[len(root) + 1 :]
            break
    else:
        stem = stem.removeprefix("src/")
    parts = stem.split("/")
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts) or "module"


_SURFACES: weakref.WeakKeyDictionary[RepoView, PublicSurface] = weakref.WeakKeyDictionary()


def public_surface(repo: RepoView) -> PublicSurface:
    """The public surface at the start of ``repo``'s window, read once per window (the
    view's neighbouring commits share it)."""
    surface = _SURFACES.get(repo)
    if surface is None:
        surface = _SURFACES[repo] = PublicSurface.at(repo, repo.base)
    return surface


def shipped(repo: RepoView | None, paths: list[str]) -> list[str]:
    """The ``paths`` the project installs (:meth:`PublicSurface.ships`); all of them where
    the repository is not known, and none is asked of it when there are none."""
    if not paths or repo is None:
        return paths
    surface = public_surface(repo)
    return [p for p in paths if surface.ships(p)]


def share_surface(repo: RepoView, surface: PublicSurface) -> None:
    """Give ``repo`` the public surface another view of the same window's start read (a
    radar worker process's, sent to the process that scans beside it): not read again."""
    _SURFACES.setdefault(repo, surface)


@dataclass
class PublicSurface:
    """The public modules and objects of a repository's Python packages at one revision."""

    packages: dict[str, str] = field(default_factory=dict)  # top package -> its folder path
    roots: set[str] = field(default_factory=set)  # folders that hold top-level packages
    modules: set[str] = field(default_factory=set)  # public as a whole (docs, exposed)
    objects: set[str] = field(default_factory=set)  # "module.Name" where Name is defined
    aliases: dict[str, str] = field(default_factory=dict)  # defined "m.Name" -> "pkg.Name"
    convention: bool = False  # no declared surface: every unprefixed name is public
    # a private package served to users under its name without the underscore (see
    # _Walker.served): "setuptools._distutils" -> "distutils"
    served: dict[str, str] = field(default_factory=dict)
    files: set[str] = field(default_factory=set)  # the .py paths of the tree
    _paths: dict[str, str] = field(default_factory=dict, repr=False)

    @classmethod
    def at(cls, repo: RepoView, rev: str | None) -> PublicSurface:
        surface = cls()
        if not rev:
            surface.convention = True
            return surface
        paths = repo.blobs.paths(rev)
        surface.files = {p for p in paths if p.endswith(".py")}
        inits = {p for p in surface.files if p.endswith("/__init__.py")}
        for init in inits:
            folder = init.rsplit("/", 1)[0]
            parent = folder.rsplit("/", 1)[0] if "/" in folder else ""
            top = folder.split("/")[0]
            if (
                parent + "/__init__.py" if parent else "__init__.py"
            ) in inits or top in _SKIP_ROOTS:
                continue
            if is_test_or_docs(init):
                continue
            surface.packages[folder.rsplit("/", 1)[-1]] = folder
            surface.roots.add(parent)
        for root in list(surface.roots):
            _namespace(surface, root, paths)
        if "src" in surface.roots and surface.roots != {"src"}:
            _installed_from_src(surface)
        if not surface.packages:
            surface.convention = True
            return surface
        _Walker(surface, repo, rev).walk()
        return surface

    # ---- questions -------------------------------------------------------------------------

    def module_of(self, path: str) -> str:
        return module_name(path, self.roots)

    def ships(self, path: str) -> bool:
        """Whether a file is part of what the project installs, as far as its layout says:
        in a ``src/`` layout (packages under ``src/``) a file in another folder is not
        (black's ``gallery/gallery.py``, a maintainers' script whose options were reported
        as the command line's); a file at the root (``setup.py``) still counts."""
        if "src" not in self.roots:
            return True
        return "/" not in path or any(path.startswith(root + "/") for root in self.roots)

    def path_of(self, module: str) -> str | None:
        """The file of ``module`` in the tree (a package's ``__init__.py``), if any; a
        served package's module by the name users import it too (``distutils.ccompiler``)."""
        if not self._paths:
            self._paths.update({self.module_of(p): p for p in self.files})
        found = self._paths.get(module)
        if found is None and self.served:
            head, dot, rest = module.partition(".")
            for private, name in self.served.items():
                if head == name:
                    found = self._paths.get(private + dot + rest)
        return found

    def candidate_paths(self, module: str) -> list[str]:
        """Where ``module`` would be, also when it is new since the window started."""
        known = self.path_of(module)
        stem = module.replace(".", "/")
        guesses = [f"{root}/{stem}" if root else stem for root in sorted(self.roots) or [""]]
        found = [known] if known else []
        return found + [f"{g}{end}" for g in guesses for end in (".py", "/__init__.py")]

    def public_name(self, module: str, qualname: str) -> str | None:
        """How users reach ``module.qualname`` when a package re-exports it
        (``httpx._client.Client.__init__`` -> ``httpx.Client.__init__``), or serves its
        module under another name (``setuptools._distutils.dir_util.mkpath`` ->
        ``distutils.dir_util.mkpath``)."""
        first, _, rest = qualname.partition(".")
        alias = self.aliases.get(f"{module}.{first}")
        if alias is None:
            served = self._served_module(module)
            if served is None or _private_name(first):
                return None
            alias = f"{served}.{first}"
        return f"{alias}.{rest}" if rest else alias

    def named(self, name: str) -> str | None:
        """The public name of the one object of the surface called ``name`` (litestar's
        "Deprecated use of 'Body()' as a default value", written where ``Body`` is not
        imported: ``litestar.params.Body``); None where there are none or several."""
        found = {self.aliases.get(o, o) for o in self.objects if o.rpartition(".")[2] == name}
        found |= {a for a in self.aliases.values() if a.rpartition(".")[2] == name}
        return found.pop() if len(found) == 1 else None

    def _served_module(self, module: str) -> str | None:
        """The name users import a public module of a served package by (``distutils.
        dir_util`` for ``setuptools._distutils.dir_util``): one the docs name, or the
        package itself; None for any other module."""
        for private, name in self.served.items():
            if module == private or module.startswith(private + "."):
                rest = module[len(private) :]
                if (module == private or module in self.modules) and not _private_path(rest):
                    return name + rest
        return None

    def is_public(self, module: str, qualname: str, exported: set[str] | None = None) -> bool:
        """Whether ``module.qualname`` (an object, a member of one) is public. ``exported``:
        the defining module's ``__all__``, when it has one."""
        first = qualname.split(".")[0]
        if f"{module}.{first}" in self.objects:
            return True
        if self.served and self._served_module(module) is not None:
            return not _private_name(first) and (exported is None or first in exported)
        if _private_path(module) or _private_name(first):
            return False
        if self.convention:
            return exported is None or first in exported
        if module in self.modules:
            return exported is None or first in exported
        return False


_SCRIPTS = frozenset({"setup.py", "conftest.py", "noxfile.py", "fabfile.py", "manage.py"})


def _installed_from_src(surface: PublicSurface) -> None:
    """Keep the packages of ``src/`` layouts only: a project that puts a package under
    ``src/`` installs from there (and from another distribution's own ``…/src/``, hatch's
    ``backend/src/hatchling``), and its packages elsewhere are its own tooling (peft's
    ``method_comparison``, huggingface_hub's ``utils/release_notes``, attrs'
    ``typing_tests``), whose removals read as public API and whose configuration and
    options as the project's."""
    surface.roots = {r for r in surface.roots if _src_root(r)}
    surface.packages = {
        name: folder
        for name, folder in surface.packages.items()
        if any(folder.startswith(root + "/") for root in surface.roots)
    }


def _src_root(root: str) -> bool:
    """Whether a folder holding top-level packages is a ``src/`` layout's (``src``,
    ``backend/src``, or a namespace folder under one, ``src/poetry``)."""
    return root == "src" or root.endswith("/src") or root.startswith("src/") or "/src/" in root


def _namespace(surface: PublicSurface, root: str, paths: list[str]) -> None:
    """Read a folder under ``src/`` that holds top-level packages as the namespace package
    it is when it has modules of its own (or a ``py.typed``) but no ``__init__.py``:
    poetry's ``src/poetry/`` (``poetry.factory``, ``poetry.console``; ``poetry.core`` is
    another distribution's) named its items ``factory.Factory``, ``console.…``. Its
    packages are its subpackages, the top one its first name, and ``src`` the root."""
    parts = root.split("/")
    if len(parts) < 2 or parts[0] != "src" or not all(p.isidentifier() for p in parts[1:]):
        return
    own = any(
        p.startswith(root + "/")
        and "/" not in p[len(root) + 1 :]
        and ((p.endswith(".py") and p.rsplit("/", 1)[1] not in _SCRIPTS) or p.endswith("/py.typed"))
        for p in paths
    )
    if not own:
        return
    dotted = ".".join(parts[1:])
    for name, folder in list(surface.packages.items()):
        if folder.rsplit("/", 1)[0] == root:
            del surface.packages[name]
            surface.packages[f"{dotted}.{name}"] = folder
    surface.packages.setdefault(parts[1], f"src/{parts[1]}")
    surface.roots.discard(root)
    surface.roots.add("src")


def _private_name(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _private_path(module: str) -> bool:
    return any(_private_name(p) for p in module.split("."))


class _Walker:
    """Fills a :class:`PublicSurface` from the packages' ``__init__`` files, the docs and the
    entry points at ``rev``."""

    def __init__(self, surface: PublicSurface, repo: RepoView, rev: str) -> None:
        self.s = surface
        self.repo = repo
        self.rev = rev
        self.by_module: dict[str, str] = {surface.module_of(p): p for p in surface.files}
        self._apis: dict[str, ModuleApi] = {}
        self._tops: dict[str, frozenset[str]] = {}  # module -> the names it defines at top
        self._asked: dict[str, int] = {}  # module -> how many names were looked for in it
        self._stars: dict[str, bool] = {}  # module -> whether it imports anything with *
        self._nfkc: dict[str, str] = {}  # module -> its text as Python reads its names
        # module -> where its statements start ([] where its lines cannot tell)
        self._starts: dict[str, list[int]] = {}
        # an object of a served package (served()) -> the name the docs give it
        self._spelled: dict[str, str] = {}
        # (module, its statements read alone) -> their model (binding())
        self._read: dict[tuple[str, tuple[int, ...]], ModuleApi | None] = {}

    def api(self, module: str) -> ModuleApi | None:
        path = self.by_module.get(module)
        if path is None:
            return None
        if module not in self._apis:
            text = self.repo.text(self.rev, path) or ""
            self._apis[module] = module_api(text, module, path.endswith("__init__.py"))
        return self._apis[module]

    def defines_at_top(self, module: str, name: str) -> bool:
        """Whether ``module`` defines ``name`` by a def, a class or an assignment at its
        first column. The first names asked of a module are looked for in its text one by
        one (:func:`_defines_at_top`, a string search: most modules are asked one name, and
        one search of every definition of diffusers' 600 pipeline modules was a fifth of
        its surface); a module asked more has the names it so defines listed by one search
        of its text, once (vllm-ascend's documented ``quantization.methods`` re-exports 30
        modules' classes, each modelled in full before: 0.04 s of every window; a search
        per name then took SQLAlchemy's surface 0.9 s, a regex compiled for each of 1,000
        names)."""
        tops = self._tops.get(module)
        if tops is not None:
            return name in tops
        path = self.by_module.get(module)
        text = self.repo.text(self.rev, path) if path is not None else None
        asked = self._asked[module] = self._asked.get(module, 0) + 1
        if not text:
            return False
        if asked <= _ONE_BY_ONE and (found := _defines_at_top(text, name)) is not None:
            return found
        tops = self._tops[module] = frozenset(
            m.group(1) or m.group(2) or m.group(3) for m in _TOP_DEFINED.finditer(f"\n{text}")
        )
        return name in tops

    def binding(self, module: str, name: str) -> tuple[bool, str | None] | None:
        """How ``module`` binds ``name``, from the top-level statements that name it, each
        parsed alone: (True, None) where it defines it (a def, a class, an assignment, in a
        module-level ``if``/``try``/``with`` too), (False, target) where it imports it;
        None where those statements cannot tell (then the module is modelled whole). A big
        module that only re-exports a name is not parsed whole (SQLAlchemy's dialects
        import their types, 0.3 s of its surface)."""
        path = self.by_module.get(module)
        text = self.repo.text(self.rev, path) if path is not None else None
        if not text or path is None:
            return None
        starts = self._starts.get(module)
        if starts is None:
            starts = self._starts[module] = top_statements(text) or []
        if not starts:
            return None
        picked: list[int] = []  # the statements that may bind the name: that hold it as a
        # word, but a def or class of another name (a class that uses it binds it nowhere)
        for at in _words_at(text, name):
            k = bisect.bisect_right(starts, at) - 1
            if k >= 0 and (not picked or picked[-1] != k):
                head = _DEF_NAME.match(text, starts[k])
                if head is None or head.group(1) == name:
                    picked.append(k)
        if not picked:
            return None
        key = (module, tuple(picked))
        if key in self._read:
            api = self._read[key]
        else:  # (one model of the same statements for every name they hold: a Hugging Face
            # package's `if TYPE_CHECKING:` block imports all of them, 1,500 in diffusers')
            api = self._read[key] = statements_api(
                (text[starts[k] : starts[k + 1]] for k in picked),
                module,
                path.endswith("__init__.py"),
            )
        if api is None:
            return None
        if name in api.objects:
            return True, None
        if name in api.imports:
            return False, api.imports[name]
        return None

    def is_package(self, module: str) -> bool:
        return (self.by_module.get(module) or "").endswith("__init__.py")

    def walk(self) -> None:
        seen: set[str] = set()
        declared = self.walk_packages(list(self.s.packages), seen)
        mentioned = self.served(self.docs()) + self.entry_points()
        declared = declared or bool(mentioned)
        documented: list[str] = []  # packages the docs name: their namespace is public too
        for dotted in mentioned:
            if dotted in self.by_module:
                self.s.modules.add(dotted)
                if self.is_package(dotted) and not _private_path(dotted):
                    documented.append(dotted)  # (docs that warn off ``pip._internal``: not)
            else:  # (reached by the name the docs give it)
                self.resolve_object(dotted, self._spelled.get(dotted, dotted))
        # (werkzeug's top package imports no ``werkzeug.datastructures``, which its docs
        # name and whose ``__init__`` re-exports ``Headers`` from ``.headers``)
        self.walk_packages(documented, seen)
        if not declared:
            self.s.convention = True

    def walk_packages(self, todo: list[str], seen: set[str]) -> bool:
        """Expose what the packages ``todo`` (and the subpackages they expose) re-export;
        whether any exposes a name."""
        declared = False
        while todo:
            module = todo.pop()
            if module in seen:
                continue
            seen.add(module)
            api = self.api(module)
            if api is None:
                continue
            names = self.exposed_names(api)
            self.read_ahead(module, names, api)
            for name in names:
                declared = True
                todo.extend(self.expose(module, name, api))
        return declared

    def read_ahead(self, module: str, names: set[str], api: ModuleApi) -> None:
        """Read the modules the package ``module`` takes ``names`` from in one request,
        before each is looked at in turn (openai-python's surface asked git for 918 files
        one at a time, a round trip each; 76 requests now): the module that defines each
        name it imports, and each subpackage it exposes, whose ``__init__`` is walked next;
        not a module it binds as a module, which is not read. Then, for :data:`_AHEAD`
        levels, the modules those import the names from in turn, as
        :meth:`resolve_object` will find them, one request a level (diffusers' pipelines
        import their classes from the modules beside them: 600 requests, a round trip
        each, a third of its surface's time)."""
        paths: set[str] = set()
        level: list[tuple[str, str]] = []  # (a module read, the name asked of it)
        for name in names:
            wanted = None if name in api.objects else import_target(api, module, name)
            target, own = wanted, True  # own: the target is a module itself, not a name in one
            while target:
                path = self.by_module.get(target)
                if path is not None:
                    if not own or path.endswith("__init__.py"):
                        paths.add(path)
                    break
                target, own = target.rpartition(".")[0], False
            if target and wanted and not own:
                level.append((target, wanted[len(target) + 1 :]))
        self.repo.texts(self.rev, sorted(paths))
        for _ in range(_AHEAD):
            paths, next_level = set(), []
            for where, dotted in level:
                first = dotted.split(".")[0]
                if not first or self.defines_at_top(where, first):
                    continue
                bound = self.binding(where, first) if where not in self._apis else None
                if bound is None or bound[0] or not bound[1]:
                    continue
                found = self._place(bound[1])
                if found is not None:
                    paths.add(self.by_module[found[0]])
                    next_level.append(found)
            if not paths:
                return
            self.repo.texts(self.rev, sorted(paths))
            level = next_level

    def _place(self, dotted: str) -> tuple[str, str] | None:
        """The module of the tree that holds the object ``dotted``, and its name there
        (``pkg.mod.Cls.attr``: ``pkg.mod``, ``Cls.attr``), as :meth:`resolve_object`
        finds them; None where no module of the tree does."""
        module, _, name = dotted.rpartition(".")
        for _ in range(8):
            if not module or module in self.by_module:
                break
            module, _, rest = module.rpartition(".")
            name = f"{rest}.{name}"
        return (module, name) if module in self.by_module else None

    def exposed_names(self, api: ModuleApi) -> set[str]:
        names = set(api.getattr_names)
        if api.all is not None:
            return names | api.all
        names |= {
            n for n, o in api.objects.items()
            if "." not in n and not _private_name(n) and not o.typing_only
        }  # fmt: skip
        names |= {
            n for n in api.imports if not _private_name(n) and n not in api.typing_imports
        }  # fmt: skip
        return names

    def expose(self, module: str, name: str, api: ModuleApi) -> list[str]:
        """Mark ``module.name`` public where it is defined; return packages to walk."""
        self.s.objects.add(f"{module}.{name}")
        if name in api.objects:
            return []
        target = import_target(api, module, name)
        if target is None:
            for star in api.star_imports:
                self.resolve_object(f"{star}.{name}", f"{module}.{name}")
            return []
        if target in self.by_module:  # a submodule or subpackage
            if self.is_package(target):
                return [target]
            self.s.modules.add(target)
            return []
        self.resolve_object(target, f"{module}.{name}")
        return []

    def resolve_object(self, dotted: str, public: str, depth: int = 0) -> None:
        """Mark the object ``dotted`` public where it is defined (reached by users as
        ``public``), following re-exports."""
        module, _, name = dotted.rpartition(".")
        while module and module not in self.by_module and depth < 8:
            module, _, rest = module.rpartition(".")
            name = f"{rest}.{name}"
            depth += 1
        if not module or depth >= 8:
            return
        first = name.split(".")[0]
        here = f"{module}.{first}"
        self.s.objects.add(here)
        # the name users reach the object by, not one of its members (the docs' mention of
        # ``starlette.testclient.TestClient.async_backend`` names ``TestClient`` so)
        member = name[len(first) :]
        reached = public[: len(public) - len(member)] if public.endswith(member) else ""
        known = self.s.aliases.get(here)
        if reached and (known is None or len(reached) < len(known)):
            self.s.aliases[here] = reached
        public = reached or public  # (followed on as the object's own name)
        if self.defines_at_top(module, first):
            return  # (found without modelling the module: most re-exports end here)
        # (found by parsing only the statements that name it, where they tell)
        bound = self.binding(module, first) if module not in self._apis else None
        if bound is not None and bound[0]:
            return  # defined there
        target = bound[1] if bound is not None else None
        api: ModuleApi | None = None
        if target is None or target == dotted:
            if bound is None and module not in self._apis and self._nowhere(module, first):
                return  # (modelled, it would name nothing more)
            api = self.api(module)
            if api is None or first in api.objects:
                return
            target = import_target(api, module, first)
        if target is not None and target != dotted:
            if target in self.by_module:
                self.s.modules.add(target)
            else:
                self.resolve_object(target, public, depth + 1)
            return
        for star in api.star_imports if api is not None else ():
            if star not in self._apis and self._nowhere(star, first):
                continue  # (diffusers' ``pipelines`` imports * from 20 dummy modules)
            star_api = self.api(star)
            if star_api is not None and (first in star_api.objects or first in star_api.imports):
                self.resolve_object(f"{star}.{first}", public, depth + 1)

    def _nowhere(self, module: str, name: str) -> bool:
        """Whether ``module`` never writes ``name`` as a word (as Python reads its names)
        and imports nothing with ``*``: its model would hold no such object, import or lazy
        name, and no module to look in next."""
        path = self.by_module.get(module)
        text = self.repo.text(self.rev, path) if path is not None else None
        if not text:
            return False
        stars = self._stars.get(module)
        if stars is None:
            stars = self._stars[module] = STAR_IMPORT.search(text) is not None
        if stars or _word_in(text, name):
            return False
        # (Python reads a name as its NFKC form: ``ﬁle``, with a ligature, binds ``file``)
        if text.isascii():
            return True
        read = self._nfkc.get(module)
        if read is None:
            read = self._nfkc[module] = unicodedata.normalize("NFKC", text)
        return not _word_in(read, name)

    def docs(self) -> list[str]:
        """The dotted names the docs write that start with a top package's name, or with
        the name a private package of one would be served by (:meth:`served`)."""
        names = {*self.s.packages, *self.unprefixed}
        tops = "|".join(re.escape(p) for p in sorted(names))
        pattern = rf"\b({tops})(\.[A-Za-z_][A-Za-z0-9_]*)+"
        return self.repo.blobs.matches(self.rev, pattern, _DOC_GLOBS)

    @cached_property
    def unprefixed(self) -> dict[str, str]:
        """The private packages right under a top package, by their name without the
        underscore: ``{"distutils": "setuptools._distutils"}``."""
        found: dict[str, str] = {}
        for package in self.s.packages:
            prefix = package + "._"
            for module in self.by_module:
                if module.startswith(prefix) and "." not in module[len(prefix) :]:
                    name = module[len(prefix) :].lstrip("_")
                    if name.isidentifier() and self.is_package(module) and name not in found:
                        found[name] = module
        return found

    def served(self, mentioned: list[str]) -> list[str]:
        """``mentioned`` with the names the docs give a served package's modules written as
        its own (``distutils.dir_util`` -> ``setuptools._distutils.dir_util``), the others
        that start with no top package's name left out.

        A private package is served under its name without the underscore when the docs name
        its modules so and the project's code says it: it sets a module's ``__name__`` or
        a ``sys.modules`` entry to that name, and imports the package by its dotted name
        written as a string (setuptools' ``_distutils_hack`` serves ``import distutils``
        from ``setuptools._distutils``, whose ``dir_util.mkpath``, ``ccompiler.new_compiler``
        … its docs document as ``distutils``'s). Every other private package stays private
        (pip's ``_internal``, a project's vendored ``_yaml``)."""
        candidates = self.unprefixed
        tops = set(self.s.packages)
        modules = self.by_module
        kept: list[str] = []
        named: dict[str, list[str]] = {}  # candidate -> the modules the docs name in it
        for dotted in mentioned:
            head, _, rest = dotted.partition(".")
            if head in tops:
                kept.append(dotted)
            elif head in candidates and f"{candidates[head]}.{rest.partition('.')[0]}" in modules:
                named.setdefault(head, []).append(dotted)  # (a module of it, or in one)
        for name, written in named.items():
            private = candidates[name]
            if self._says_served(private, name):
                self.s.served[private] = name
                for dotted in written:
                    own = private + dotted[len(name) :]
                    self._spelled[own] = dotted
                    kept.append(own)
        return kept

    def _says_served(self, private: str, name: str) -> bool:
        """Whether the project's code serves the package ``private`` as ``name`` (see
        :meth:`served`): one of its shipped Python files (not a test's, a ``conftest.py``,
        nor ``setup.py``, whose package lists spell every package) writes the package's
        dotted name as a string and, in the same file, sets a module's ``__name__`` or a
        ``sys.modules`` entry (not to ``None``, which blocks an import) to ``name``."""
        quoted = rf"""['"]{re.escape(name)}['"]"""
        sign = re.compile(
            rf"\b__name__[ \t]*=[ \t]*{quoted}|\bsys\.modules\[{quoted}\][ \t]*=(?![ \t]*None\b)"
        )
        spelled = (f"'{private}'", f'"{private}"')
        texts = self.repo.blobs.having(
            self.rev, [name], _serving_code, ("*.py", *_NOT_CODE), spelled
        )
        return any(sign.search(text) for text in texts.values())

    def entry_points(self) -> list[str]:
        found: list[str] = []
        texts = self.repo.texts(self.rev, ["pyproject.toml", "setup.py", "setup.cfg"])
        for text in texts.values():
            for m in _ENTRY.finditer(text or ""):
                module, attr = m.group(1), m.group(2)
                if module.split(".")[0] in self.s.packages:
                    found.append(f"{module}.{attr}")
        return found


# the name a top-level def or class statement binds, past its decorators (past one over
# several lines, or a comment between, it is not read: the statement is parsed then)
_DEF_NAME = re.compile(r"(?:@[^\n]*\n)*(?:async[ \t]+)?(?:def|class)[ \t]+(\w+)")


def import_target(api: ModuleApi, module: str, name: str) -> str | None:
    """The dotted object the name ``name`` of ``module`` (modelled as ``api``) comes from:
    what it imports under that name, else where it serves it from lazily; None for neither."""
    return api.imports.get(name) or _lazy_target(module, name, api.lazy.get(name))


def _lazy_target(module: str, name: str, value: str | None) -> str | None:
    """Where a lazily served name comes from: ``".entrypoints.llm:LLM"`` (relative to the
    package), ``"pkg.models"`` (the module holding ``name``), ``"pkg.mod:attr"``."""
    if not value:
        return None
    target, _, attr = value.partition(":")
    if target.startswith("."):
        target = module + target if target != "." else module
    if not re.fullmatch(r"[A-Za-z_][\w.]*", target):
        return None
    return f"{target}.{attr or name}"
