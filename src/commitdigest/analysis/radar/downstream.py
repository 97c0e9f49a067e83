"""Which radar items a downstream checkout uses (``--downstream PATH``, a subscription's
``downstream = [...]``): each such item gets ``affects`` entries, the path and line of every use.

The checkout is read once per report, only for the names the day's items name. Python is
parsed (never run) the way it is really written:

* imports of the upstream's packages (the first component of the items' names), the names
  they bind (``import httpx as hx``, ``from httpx import Client``, ``from httpx import *``),
  and every attribute chain that starts with one (``_request_ctx_stack.top``), in code,
  annotations (a signature's, forward references in strings) and defaults;
* local subclasses of upstream classes, across the checkout's modules and aliases
  (``class _DefaultHttpxClient(httpx.Client)``, ``DefaultHttpxClient = _DefaultHttpxClient``,
  ``class SyncHttpxClientWrapper(DefaultHttpxClient)``): their calls pass keywords on to the
  upstream ``__init__`` (unless a local ``__init__`` without ``**kwargs`` stands between),
  their methods override the upstream's (a removed or renamed method's override counts
  where the upstream called it, ``ApiChange.hook``), and ``self.m()`` / ``super().m()`` in
  them call it;
* instances whose class is evident — built by a call (``with httpx.Client() as c`` too, and
  a call of a local function annotated to return one),
  annotated (``x: click.Argument``, ``params: list[click.Option]``, iterated in ``for p in
  params``), checked by ``isinstance``, or stored on ``self`` — so ``param.make_metavar()``
  is a call of the upstream method; and an attribute a local subclass inherits and never
  sets, for a method whose name other objects are unlikely to have
  (``self.type.get_metavar(self)`` in a ``click.Argument`` subclass).

What counts as a use of an item: an object (a removed function, class, attribute) is used
wherever it is referenced or called; a parameter item only at calls it concerns — a removed
one where it is passed (by keyword, or by position when its position is known), a newly
required one where it is left out (and in overrides that do not accept it), a changed default
where it is left out. Calls that spread ``*args``/``**kwargs`` are not guessed about.
Announced items are matched by the code they write (``symbols``: ``httpx.*(proxies)`` is the
keyword at any call of the package).

Every text file (shell, YAML, Dockerfile, ``.env``, Markdown, Python too) is searched for the
environment variable names and CLI flags of the items, as whole words, and for the last part
of config keys written as a key (``key:``, ``key =``, ``"key":``); a changelog, and a Python
comment or docstring, only tell of them (black's "Make Click not crash … with LANG=C").
Version control folders, virtual environments, ``node_modules``, build output and caches are
skipped, as are files over :data:`MAX_FILE_BYTES` and files that are not UTF-8 text. Paths
are relative to the checkout (prefixed with its folder name when several are given).
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from commitdigest.analysis.classify import is_changelog
from commitdigest.analysis.radar.models import ApiChange, RadarKind
from commitdigest.analysis.radar.pyapi import absolute_module, top_level, uncommented
from commitdigest.facts import ApiChangeType, Place

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
_OBJECT_CHANGES = frozenset(
    {ApiChangeType.REMOVED, ApiChangeType.RENAMED, ApiChangeType.DEPRECATED}
)  # an object item whose every use is affected
_ITEM_RE = re.compile(r"^([\w.*]+?)(?:\((\w+)\))?$")
# a type written as a string (each alternative a name, maybe subscripted: no backtracking
# over a help text of "a | b | c …")
_TYPE_TEXT = re.compile(
    r"\s*[A-Za-z_][\w.]*(?:\[[\w.\[\], |]*\])?"
    r"(?:\s*\|\s*[A-Za-z_][\w.]*(?:\[[\w.\[\], |]*\])?)*\s*"
)
_WORD = r"(?<![\w-]){}(?![\w-])"


@dataclass(frozen=True)
class Call:
    place: Place
    keywords: frozenset[str]
    positional: int
    spread: bool  # *args or **kwargs in the call: what it passes is not known
    keyword_lines: tuple[tuple[str, int], ...] = ()  # where each keyword is written
    arg_lines: tuple[int, ...] = ()  # where each positional argument is written
    # a call on an instance of a local subclass that defines the method itself: it calls
    # the local method, a use of the upstream one only where that one's parameters changed
    # (the override is changed to match, and its callers with it: typer's
    # ``self.make_metavar(ctx=ctx)``), never where it was removed (FastAPI's own ``on_event``)
    shadowed: bool = False
    # a call of a local subclass whose own ``__init__`` (or a local base's) stands between it
    # and the upstream one: the parameters those take themselves (what they name is theirs,
    # ``FastAPI(on_startup=…)``, and positions are theirs); None where none stands between
    taken: frozenset[str] | None = None
    taken_positions: bool = False  # that __init__ names positional parameters of its own

    def where(self, param: str, position: int | None) -> Place:
        """The line that passes ``param`` (its keyword, or its positional argument), else
        the call's own line."""
        line = dict(self.keyword_lines).get(param)
        if line is None and position is not None and position < len(self.arg_lines):
            line = self.arg_lines[position]
        return Place(path=self.place.path, line=line) if line else self.place


@dataclass(frozen=True)
class Override:
    place: Place
    params: tuple[str, ...]  # without self
    kwargs: bool


@dataclass
class Uses:
    """What a downstream uses of the names asked for."""

    refs: dict[str, list[Place]] = field(default_factory=lambda: defaultdict(list))
    calls: dict[str, list[Call]] = field(default_factory=lambda: defaultdict(list))
    overrides: dict[str, list[Override]] = field(default_factory=lambda: defaultdict(list))
    words: dict[str, list[Place]] = field(default_factory=lambda: defaultdict(list))
    keys: dict[str, list[Place]] = field(default_factory=lambda: defaultdict(list))
    # calls of a method on an attribute a local subclass inherits from an upstream class and
    # never sets itself (typer's ``self.type.get_metavar(self)``, ``type`` set by click's
    # ``Parameter.__init__``): method name -> (the upstream packages, the call)
    inherited: dict[str, list[tuple[frozenset[str], Call]]] = field(
        default_factory=lambda: defaultdict(list)
    )


# ---- files -----------------------------------------------------------------------------


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


def _module_of(rel: str) -> str:
    """A checkout file's module name: ``src/openai/_client.py`` -> ``openai._client``."""
    parts = rel.removesuffix(".py").split("/")
    if parts and parts[0] == "src":
        parts = parts[1:]
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


# ---- the checkout's classes ------------------------------------------------------------


@dataclass
class _ClassInfo:
    bases: list[str]  # resolved names: upstream dotted or local qualified
    init: tuple[tuple[str, ...], bool] | None = None  # (params, **kwargs) of its own __init__
    init_positional: bool = False  # its own __init__ names positional parameters
    attrs: set[str] = field(default_factory=set)  # the names it sets (self.x = …, x = …)
    methods: set[str] = field(default_factory=set)


@dataclass
class _Module:
    name: str
    place: str  # the file's name in reports
    tree: ast.Module
    is_package: bool
    imports: dict[str, str] = field(default_factory=dict)  # bound name -> dotted (any module)
    stars: list[str] = field(default_factory=list)  # upstream modules imported with *
    defined: set[str] = field(default_factory=set)  # names its top level defines


class _Index:
    """Every module of the checkout that matters, its imports, classes and aliases."""

    def __init__(self, packages: frozenset[str]) -> None:
        self.packages = packages
        self.modules: dict[str, _Module] = {}
        self.classes: dict[str, _ClassInfo] = {}  # local qualified name -> info
        self.aliases: dict[str, str] = {}  # local qualified name -> resolved dotted
        # module-level functions annotated to return something: qualified name -> (module,
        # the annotation)
        self.returns: dict[str, tuple[_Module, ast.expr]] = {}
        self._ancestors: dict[str, frozenset[str]] = {}

    def add(self, module: _Module) -> None:
        self.modules[module.name] = module
        self._imports(module, module.tree.body)
        module.defined = _defined(module.tree)
        for node in top_level(module.tree.body):
            if isinstance(node, ast.ClassDef):
                info = _ClassInfo([self.resolve(module, b) or "" for b in node.bases])
                info.attrs = _set_names(node)
                for sub in node.body:
                    if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef):
                        info.methods.add(sub.name)
                        if sub.name == "__init__":
                            info.init = (_param_names(sub.args), sub.args.kwarg is not None)
                            info.init_positional = len(sub.args.posonlyargs + sub.args.args) > 1
                self.classes[f"{module.name}.{node.name}"] = info
            elif isinstance(node, ast.FunctionDef) and node.returns:  # (not a coroutine)
                self.returns[f"{module.name}.{node.name}"] = (module, node.returns)
            elif isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name):
                    value = self.resolve(module, node.value)
                    if value:
                        self.aliases.setdefault(f"{module.name}.{target.id}", value)

    def _imports(self, module: _Module, body: list[ast.stmt]) -> None:
        for node in ast.walk(ast.Module(body=body, type_ignores=[])):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    bound = alias.asname or alias.name.split(".")[0]
                    module.imports[bound] = alias.name if alias.asname else bound
            elif isinstance(node, ast.ImportFrom):
                base = absolute_module(
                    module.name, node.level, node.module or "", module.is_package
                )
                for alias in node.names:
                    if alias.name == "*":
                        if base.split(".")[0] in self.packages:
                            module.stars.append(base)
                        continue
                    module.imports[alias.asname or alias.name] = f"{base}.{alias.name}"

    def resolve(self, module: _Module, node: ast.expr) -> str | None:
        """The dotted name an expression names in ``module`` (imports followed), if any."""
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Subscript):  # Generic[T], list[X]: the outer name
            return self.resolve(module, node.value) if not parts else None
        if not isinstance(node, ast.Name):
            return None
        head = node.id
        if head in module.imports:
            base = module.imports[head]
        elif head in module.defined:
            base = f"{module.name}.{head}"
        else:
            return None
        return ".".join([base, *reversed(parts)])

    def returned(self, function: str) -> set[str]:
        """The classes a local function is annotated to return (``-> httpx.Client``,
        ``-> Optional[httpx.Client]``), upstream ones and local ones that derive from one;
        none through a container (``-> list[httpx.Client]``)."""
        found = self.returns.get(self.canonical(function))
        if found is None:
            return set()
        module, annotation = found
        types: set[str] = set()
        for part in _plain_parts(annotation):
            dotted = self.resolve(module, part)
            if dotted is None:
                continue
            dotted = self.canonical(dotted)
            if self.upstream(dotted) or self.ancestors(dotted):
                types.add(dotted)
        return types

    def upstream(self, dotted: str) -> bool:
        return dotted.split(".")[0] in self.packages

    def canonical(self, dotted: str, depth: int = 0) -> str:
        """Follow local aliases and re-exports to the class a name stands for."""
        while depth < 10:
            depth += 1
            if dotted in self.aliases:
                dotted = self.aliases[dotted]
                continue
            module, _, name = dotted.rpartition(".")
            found = self.modules.get(module)
            if (
                found is not None
                and name in found.imports
                and f"{module}.{name}" not in self.classes
            ):
                dotted = found.imports[name]
                continue
            break
        return dotted

    def ancestors(self, dotted: str) -> frozenset[str]:
        """The upstream classes a local class (or alias) derives from; ``{dotted}`` for an
        upstream class itself."""
        dotted = self.canonical(dotted)
        if self.upstream(dotted):
            return frozenset({dotted})
        if dotted in self._ancestors:
            return self._ancestors[dotted]
        self._ancestors[dotted] = frozenset()  # a cycle stops here
        info = self.classes.get(dotted)
        found: set[str] = set()
        if info is not None:
            for base in info.bases:
                if base:
                    found |= self.ancestors(base)
        self._ancestors[dotted] = frozenset(found)
        return self._ancestors[dotted]

    def reach(self, cls: str, attr: str) -> tuple[set[str], set[str]]:
        """The upstream ``Class.attr`` that ``attr`` of an instance of ``cls`` (an upstream
        class, or a local one) stands for: (reached, shadowed) — shadowed where a local class
        on the way defines a method of that name itself."""
        ancestors = self.ancestors(cls)
        targets = {f"{a}.{attr}" for a in ancestors}
        if self.upstream(self.canonical(cls)) or not self._defines(cls, attr):
            return targets, set()
        return set(), targets

    def _line(self, dotted: str) -> list[_ClassInfo]:
        """Local class ``dotted`` and the local classes it derives from, nearest first, each
        once (a cycle, or more than 10 levels, ends it); empty for no local class."""
        line: list[_ClassInfo] = []
        seen: set[str] = set()
        todo = [(dotted, 0)]
        while todo:
            name, depth = todo.pop(0)
            key = self.canonical(name)
            info = self.classes.get(key)
            if info is None or key in seen or depth > 10:
                continue
            seen.add(key)
            line.append(info)
            todo += [(b, depth + 1) for b in info.bases if b and not self.upstream(b)]
        return line

    def _defines(self, dotted: str, attr: str) -> bool:
        """Whether local class ``dotted`` or a local class it derives from defines method
        ``attr``."""
        return any(attr in info.methods for info in self._line(dotted))

    def sets(self, dotted: str, attr: str) -> bool:
        """Whether local class ``dotted`` or a local base of it sets or defines ``attr``."""
        return any(attr in info.attrs for info in self._line(dotted))

    def init_names(self, dotted: str) -> tuple[frozenset[str], bool] | None:
        """The parameters the local ``__init__`` methods of local class ``dotted`` and its
        local bases name themselves, and whether one of them is positional; None where
        none of them defines ``__init__``."""
        found = [(info.init[0], info.init_positional) for info in self._line(dotted) if info.init]
        if not found:
            return None
        return frozenset(n for names, _ in found for n in names), any(p for _, p in found)

    def passes_keywords(self, dotted: str) -> bool:
        """Whether calling local class ``dotted`` hands its keywords on to the upstream
        ``__init__``: no local ``__init__`` without ``**kwargs`` stands in between."""
        return not any(info.init and not info.init[1] for info in self._line(dotted))


def _set_names(node: ast.ClassDef) -> set[str]:
    """The names a class sets: its methods and class-level names, and every ``self.x`` its
    methods assign."""
    names: set[str] = set()
    for sub in node.body:
        if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(sub.name)
        elif isinstance(sub, ast.Assign | ast.AnnAssign):
            targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    for stmt in ast.walk(node):
        if isinstance(stmt, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            names.update(
                t.attr
                for t in targets
                if isinstance(t, ast.Attribute)
                and isinstance(t.value, ast.Name)
                and t.value.id == "self"
            )
    return names


def _defined(tree: ast.Module) -> set[str]:
    """The names a module's top level defines (classes, functions, assignments)."""
    names: set[str] = set()
    for node in top_level(tree.body):
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def _param_names(args: ast.arguments) -> tuple[str, ...]:
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    if names and names[0] in ("self", "cls"):
        names = names[1:]
    return tuple(names)


# ---- uses ------------------------------------------------------------------------------


class _PythonUses(ast.NodeVisitor):
    """Uses of upstream names in one module, through imports, local subclasses and
    instances of known classes."""

    def __init__(self, index: _Index, module: _Module, uses: Uses, names: frozenset[str]) -> None:
        self.index = index
        self.module = module
        self.uses = uses
        self.names = names  # object names the items mention (for ``from pkg import *``)
        self.scopes: list[dict[str, set[str]]] = [{}]  # variable -> upstream classes
        self.classes: list[tuple[str, frozenset[str]]] = []  # (local name, upstream ancestors)
        self.self_attrs: dict[str, dict[str, set[str]]] = defaultdict(dict)

    def _place(self, node: ast.AST) -> Place:
        return Place(path=self.module.place, line=getattr(node, "lineno", 0))

    # -- names ---------------------------------------------------------------------------

    def _dotted(self, node: ast.expr) -> str | None:
        """The upstream dotted name an expression names (imports and star imports)."""
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        head = node.id
        base = self.module.imports.get(head)
        if (
            base is None
            and self.module.stars
            and head in self.names
            and head not in self.module.defined
        ):
            base = f"{self.module.stars[0]}.{head}"
        if base is None:
            return None
        base = self.index.canonical(base)
        if not self.index.upstream(base):
            return None
        return ".".join([base, *reversed(parts)])

    def _types(self, node: ast.expr) -> set[str]:
        """The classes the value of ``node`` is an instance of, when evident: upstream ones,
        and local ones that derive from one (whose own methods shadow the upstream's); a
        name of such a class, or of an upstream object, stands for itself
        (``User.parse_obj(data)`` of a ``class User(pydantic.BaseModel)`` reaches
        ``BaseModel.parse_obj`` as an instance would; ``ctx = _request_ctx_stack.top`` makes
        ``ctx.user`` a use of ``_request_ctx_stack``)."""
        if isinstance(node, ast.Name):
            for scope in reversed(self.scopes):
                if node.id in scope:
                    return scope[node.id]
            return self._local_class(self.index.resolve(self.module, node))
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
            and self.classes
        ):
            return self.self_attrs[self.classes[-1][0]].get(node.attr, set())
        if isinstance(node, ast.Attribute):  # models.User
            return self._local_class(self.index.resolve(self.module, node))
        if isinstance(node, ast.Call):
            return self._class_of_call(node.func)
        return set()

    def _class_of_call(self, func: ast.expr) -> set[str]:
        """Calling a class gives an instance of it (upstream, or a local subclass of one);
        calling a local function annotated to return one, too."""
        dotted = self._dotted(func)
        if dotted is not None:
            return {dotted}
        local = self.index.resolve(self.module, func)
        if local is not None and self.index.canonical(local) in self.index.returns:
            return self.index.returned(local)  # a local factory: what it returns
        return self._local_class(local)

    def _local_class(self, local: str | None) -> set[str]:
        """``{local}`` where it names a local class that derives from an upstream one, or an
        upstream object."""
        return {local} if local is not None and self.index.ancestors(local) else set()

    def _attribute(self, types: set[str], attr: str) -> tuple[set[str], set[str]]:
        """The upstream ``Class.attr`` that ``attr`` of an instance of ``types`` stands for:
        (reached, shadowed by a local method)."""
        reached: set[str] = set()
        shadowed: set[str] = set()
        for cls in types:
            r, s = self.index.reach(cls, attr)
            reached |= r
            shadowed |= s
        return reached, shadowed - reached

    def _annotation_types(self, node: ast.expr | None) -> set[str]:
        """Upstream classes named anywhere in an annotation (``list[click.Option]``,
        ``Union[A, B]``, ``"click.Argument"``)."""
        found: set[str] = set()
        if node is None:
            return found
        for sub in (*ast.walk(node), *(n for e in _type_strings(node) for n in ast.walk(e))):
            if isinstance(sub, ast.Attribute | ast.Name):
                dotted = self._dotted(sub)
                if dotted is not None:
                    found.add(dotted)
                else:
                    found |= self._local_class(self.index.resolve(self.module, sub))
        return found

    def _plain_types(self, node: ast.expr | None) -> set[str]:
        """The classes an annotation says a value is an instance of (:func:`_plain_parts`;
        none for a container of them: ``list[User]``'s ``.copy()`` is the list's)."""
        return {t for part in _plain_parts(node) for t in self._annotation_types(part)}

    # -- scopes --------------------------------------------------------------------------

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for base in node.bases:
            self.visit(base)
        qualified = f"{self.module.name}.{node.name}"
        self.classes.append((qualified, self.index.ancestors(qualified)))
        for sub in node.body:  # instance attributes first: methods may use any of them
            params: dict[str, set[str]] = {}  # a method's annotated parameters
            if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef):
                args = sub.args
                for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs):
                    if types := self._plain_types(arg.annotation):
                        params[arg.arg] = types
            for stmt in ast.walk(sub):
                if isinstance(stmt, ast.Assign | ast.AnnAssign):
                    self._self_attr(qualified, stmt, params)
        for sub in node.body:
            self.visit(sub)
        self.classes.pop()

    def _self_attr(
        self, cls: str, stmt: ast.Assign | ast.AnnAssign, params: Mapping[str, set[str]]
    ) -> None:
        """``self.x = …`` in a method: an instance of what it is annotated with, or built
        from, or the method's parameter annotated with it (``def __init__(self, client:
        httpx.Client): self._client = client``)."""
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        for target in targets:
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
            ):
                types = set()
                if isinstance(stmt, ast.AnnAssign):
                    types |= self._annotation_types(stmt.annotation)
                if stmt.value is not None and isinstance(stmt.value, ast.Call):
                    types |= self._class_of_call(stmt.value.func)
                elif isinstance(stmt.value, ast.Name):
                    types |= params.get(stmt.value.id, set())
                if types:
                    self.self_attrs[cls].setdefault(target.attr, set()).update(types)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for decorator in node.decorator_list:
            self.visit(decorator)
        args = node.args
        for default in (*args.defaults, *args.kw_defaults):  # (in the enclosing scope)
            if default is not None:
                self.visit(default)
        for annotated in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg,
                          args.kwarg, node):  # fmt: skip
            annotation = getattr(annotated, "annotation", None) or getattr(
                annotated, "returns", None
            )
            if annotation is not None:  # a use too: ``def f(cmd: click.BaseCommand)``
                self._annotation(annotation)
        scope: dict[str, set[str]] = {}
        for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs):
            types = self._annotation_types(arg.annotation)
            if types:
                scope[arg.arg] = types
        if self.classes and len(self.scopes) == 1:  # a method
            _, ancestors = self.classes[-1]
            for upstream in ancestors:
                self.uses.overrides[f"{upstream}.{node.name}"].append(
                    Override(self._place(node), _param_names(args), args.kwarg is not None)
                )
        self.scopes.append(scope)
        for stmt in node.body:
            self.visit(stmt)
        self.scopes.pop()

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function

    def _annotation(self, node: ast.expr) -> None:
        """The names an annotation uses, in its strings too (``"click.Context"``, a
        forward reference)."""
        self.visit(node)
        for expr in _type_strings(node):
            self.visit(expr)

    def visit_Assign(self, node: ast.Assign) -> None:
        self.generic_visit(node)
        types = self._types(node.value)
        for target in node.targets:
            if isinstance(target, ast.Name) and types:
                self.scopes[-1][target.id] = set(types)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self.visit(node.target)
        self._annotation(node.annotation)
        if node.value is not None:
            self.visit(node.value)
        types = self._annotation_types(node.annotation)
        if node.value is not None:
            types |= self._types(node.value)
        if isinstance(node.target, ast.Name) and types:
            self.scopes[-1][node.target.id] = types

    def _with(self, node: ast.With | ast.AsyncWith) -> None:
        """``with httpx.Client() as client:``: ``client`` is the instance (what a class's
        ``__enter__`` gives, itself for the clients and sessions a ``with`` opens)."""
        for item in node.items:
            self.visit(item.context_expr)
            types = self._types(item.context_expr)
            if isinstance(item.optional_vars, ast.Name) and types:
                self.scopes[-1][item.optional_vars.id] = set(types)
            elif item.optional_vars is not None:
                self.visit(item.optional_vars)
        for stmt in node.body:
            self.visit(stmt)

    visit_With = _with
    visit_AsyncWith = _with

    def visit_For(self, node: ast.For) -> None:
        self.visit(node.iter)
        types = self._types(node.iter)
        if isinstance(node.target, ast.Name) and types:
            self.scopes[-1][node.target.id] = set(types)
        for stmt in [*node.body, *node.orelse]:
            self.visit(stmt)

    def visit_If(self, node: ast.If) -> None:
        self.visit(node.test)
        test = node.test
        if (
            isinstance(test, ast.Call)
            and isinstance(test.func, ast.Name)
            and test.func.id == "isinstance"
            and len(test.args) == 2
            and isinstance(test.args[0], ast.Name)
        ):
            types = self._annotation_types(test.args[1])
            if types:
                self.scopes[-1][test.args[0].id] = types
        for stmt in [*node.body, *node.orelse]:
            self.visit(stmt)

    # -- uses ----------------------------------------------------------------------------

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name.split(".")[0] in self.index.packages:
                self.uses.refs[alias.name].append(self._place(node))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level or module.split(".")[0] not in self.index.packages:
            return
        for alias in node.names:
            if alias.name != "*":
                self.uses.refs[f"{module}.{alias.name}"].append(self._place(node))

    def visit_Attribute(self, node: ast.Attribute) -> None:
        dotted = self._dotted(node)
        if dotted is not None:
            self.uses.refs[dotted].append(self._place(node))
            return  # the chain's prefixes are not uses of their own
        for target in self._attribute(self._types(node.value), node.attr)[0]:
            self.uses.refs[target].append(self._place(node))
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load) and (dotted := self._dotted(node)) is not None:
            self.uses.refs[dotted].append(self._place(node))

    def visit_Call(self, node: ast.Call) -> None:
        call = Call(
            self._place(node),
            frozenset(k.arg for k in node.keywords if k.arg),
            sum(1 for a in node.args if not isinstance(a, ast.Starred)),
            any(isinstance(a, ast.Starred) for a in node.args)
            or any(k.arg is None for k in node.keywords),
            tuple((k.arg, k.lineno) for k in node.keywords if k.arg),
            tuple(a.lineno for a in node.args if not isinstance(a, ast.Starred)),
        )
        reached, shadowed = self._call_targets(node.func)
        func = node.func
        inherited = (
            self._inherited(func)
            if isinstance(func, ast.Attribute) and not reached and not shadowed
            else frozenset()
        )
        if inherited and isinstance(func, ast.Attribute):  # ``self.type.get_metavar(…)``
            self.uses.inherited[func.attr].append((inherited, call))
        if reached and self._dotted(node.func) is None:
            local = self.index.resolve(self.module, node.func)  # a local subclass called?
            if local is not None and self.index.canonical(local) in self.index.classes:
                taken = self.index.init_names(local)
                if taken is not None:
                    call = replace(call, taken=taken[0], taken_positions=taken[1])
        for target in reached:
            self.uses.calls[target].append(call)
        for target in shadowed:
            self.uses.calls[target].append(replace(call, shadowed=True))
        self.generic_visit(node)

    def _inherited(self, func: ast.expr) -> frozenset[str]:
        """The upstream packages of the class a method call's receiver comes from, where
        it is ``self.x`` in a local subclass that never sets or defines ``x`` (an attribute
        the upstream class sets: ``self.type`` of a ``click.Argument``)."""
        if not (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Attribute)
            and isinstance(func.value.value, ast.Name)
            and func.value.value.id == "self"
            and self.classes
        ):
            return frozenset()
        cls, ancestors = self.classes[-1]
        if not ancestors or self.index.sets(cls, func.value.attr):
            return frozenset()
        return frozenset(a.split(".")[0] for a in ancestors)

    def _call_targets(self, func: ast.expr) -> tuple[set[str], set[str]]:
        """The upstream callables a call reaches: (reached, reached through a local method
        of the same name, see :attr:`Call.shadowed`)."""
        dotted = self._dotted(func)
        if dotted is not None:
            return {dotted}, set()
        local = self.index.resolve(self.module, func)
        if (
            local is not None
            and self.index.canonical(local) in self.index.classes
            and self.index.passes_keywords(local)
        ):
            return set(self.index.ancestors(local)), set()  # a local subclass: the upstream
        if not isinstance(func, ast.Attribute):
            return set(), set()
        owner = func.value
        if (
            isinstance(owner, ast.Call)
            and isinstance(owner.func, ast.Name)
            and owner.func.id == "super"
            and self.classes
        ):  # super().m() in a subclass of an upstream class: its bases' m
            info = self.index.classes.get(self.classes[-1][0])
            bases = {b for b in info.bases if b} if info is not None else set()
            return self._attribute(bases, func.attr)
        if isinstance(owner, ast.Name) and owner.id in ("self", "cls") and self.classes:
            return self._attribute({self.classes[-1][0]}, func.attr)  # self.m()
        return self._attribute(self._types(owner), func.attr)


# ---- the scan --------------------------------------------------------------------------


def _targets(item: ApiChange) -> list[tuple[str, str | None]]:
    """(dotted object, parameter or None) an item stands for, ``*`` for any object of a
    package (``httpx.*(proxies)``)."""
    names = [item.name] if item.kind is not RadarKind.ANNOUNCED else []
    names += [s for s in item.symbols if "." in s or "(" in s]  # also what inherits it
    out: list[tuple[str, str | None]] = []
    for name in names:
        m = _ITEM_RE.match(name)
        if m:
            out.append((m.group(1), m.group(2)))
    return out


def _wanted(
    items: Sequence[ApiChange],
) -> tuple[frozenset[str], set[str], set[str], frozenset[str]]:
    """(upstream packages, words to find, config key names, object names) of ``items``."""
    packages: set[str] = set()
    words: set[str] = set()
    keys: set[str] = set()
    names: set[str] = set()
    for item in items:
        if item.kind in (RadarKind.PYTHON_API, RadarKind.DEPRECATION, RadarKind.ANNOUNCED):
            for target, _ in _targets(item):
                parts = target.split(".")
                packages.add(parts[0])
                names.update(p for p in parts[1:] if p != "*")
        if item.kind in (RadarKind.ENV_VAR, RadarKind.CLI_OPTION):
            words.add(item.name)
        elif item.kind is RadarKind.CONFIG_KEY:
            keys.add(item.name.rsplit(".", 1)[-1])
        words.update(s for s in item.symbols if "." not in s and "(" not in s)
    return frozenset(packages), words, keys, frozenset(names)


def scan_downstream(roots: Sequence[Path], items: Sequence[ApiChange]) -> Uses:
    """What the checkouts under ``roots`` use of the names ``items`` name."""
    packages, words, keys, names = _wanted(items)
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
    python: dict[str, tuple[str, str]] = {}  # file name -> (module, text)
    for path, name in _files(roots):
        text = _read(path)
        if text is None:
            continue
        if packages and path.suffix == ".py":
            python[name] = (_module_of(name.split("/", 1)[1] if len(roots) > 1 else name), text)
        if word_re is not None and not is_changelog(name):  # (a changelog only tells)
            prose: set[int] | None = None
            for m in word_re.finditer(text):
                line = _line(text, m.start())
                if path.suffix == ".py":  # a comment or a docstring only tells too
                    prose = _docstring_lines(text) if prose is None else prose
                    if line in prose or _in_comment(text, m.start()):
                        continue
                uses.words[m.group(0)].append(Place(path=name, line=line))
        if key_re is not None:
            for m in key_re.finditer(text):
                uses.keys[m.group(1)].append(Place(path=name, line=_line(text, m.start(1))))
    if packages:
        _python_uses(python, packages, names, uses)
    return uses


def _python_uses(
    python: Mapping[str, tuple[str, str]],
    packages: frozenset[str],
    names: frozenset[str],
    uses: Uses,
) -> None:
    """Index the modules that mention an upstream package — then those that mention a local
    class deriving from one, until none is added — and collect their uses."""
    index = _Index(packages)
    wanted = set(packages)
    parsed: set[str] = set()
    while True:
        pattern = re.compile("|".join(rf"\b{re.escape(w)}\b" for w in sorted(wanted)))
        added = False
        for place, (module, text) in python.items():
            if place in parsed or not pattern.search(text):
                continue
            parsed.add(place)
            try:
                tree = ast.parse(text, filename=place)
            except (SyntaxError, ValueError, RecursionError):
                continue
            index.add(_Module(module, place, tree, place.endswith("__init__.py")))
            added = True
        local = {
            name.rsplit(".", 1)[1]
            for name in [*index.classes, *index.aliases]
            if index.ancestors(name)
        }
        if not added or local <= wanted:
            break
        wanted |= local
    for indexed in index.modules.values():
        _PythonUses(index, indexed, uses, names).visit(indexed.tree)


def _plain_parts(node: ast.expr | None) -> list[ast.Name | ast.Attribute]:
    """The names an annotation says a value is one of: ``X``, ``Optional[X]``, ``X | None``,
    ``Union[X, Y]``, ``Annotated[X, …]``, ``"X"``; none in a container (``list[X]``)."""
    if node is None:
        return []
    if isinstance(node, ast.Constant):
        return [part for e in _type_strings(node) for part in _plain_parts(e)]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _plain_parts(node.left) + _plain_parts(node.right)
    if isinstance(node, ast.Subscript):
        outer = node.value
        name = outer.attr if isinstance(outer, ast.Attribute) else getattr(outer, "id", "")
        inner = node.slice
        parts = inner.elts if isinstance(inner, ast.Tuple) else [inner]
        if name in ("Optional", "Union"):
            return [found for part in parts for found in _plain_parts(part)]
        if name == "Annotated" and parts:
            return _plain_parts(parts[0])
        return []
    return [node] if isinstance(node, ast.Name | ast.Attribute) else []


def _type_strings(node: ast.expr) -> list[ast.expr]:
    """The type expressions an annotation writes as strings (``"click.Context"``,
    ``Optional["click.Option"]``), parsed, at the string's line."""
    found: list[ast.expr] = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            if len(sub.value) > 200 or not _TYPE_TEXT.fullmatch(sub.value):
                continue  # a Literal's value, a docstring-like text
            try:
                expr = ast.parse(sub.value.strip(), mode="eval").body
            except (SyntaxError, ValueError, RecursionError):
                continue
            for part in ast.walk(expr):
                if isinstance(part, ast.expr):
                    part.lineno = part.end_lineno = sub.lineno
            found.append(expr)
    return found


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _docstring_lines(text: str) -> set[int]:
    """The lines of a module's docstrings (strings standing as statements)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return set()
    return {
        line
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        for line in range(node.lineno, (node.end_lineno or node.lineno) + 1)
    }


def _in_comment(text: str, offset: int) -> bool:
    """Whether ``offset`` is in a ``#`` comment: at or past where its line's code ends once
    its comment is taken away (a ``#`` in a string is none)."""
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    code = uncommented(text[start : end if end >= 0 else len(text)])
    return offset - start >= len(code)


# ---- matching --------------------------------------------------------------------------


def _same_object(changed: str, used: str) -> bool:
    """Whether ``used`` (a downstream's dotted name) names the object ``changed`` names (or
    something reached through it: ``_request_ctx_stack.top``)."""
    c, u = changed.split("."), used.split(".")
    if c[0] != u[0]:
        return False
    if c[1:2] == ["*"]:
        return True
    # the chain, then the objects it starts with
    return any(_names_same(c, u[:cut]) for cut in range(len(u), 1, -1))


def _names_same(c: list[str], u: list[str]) -> bool:
    if c == u:
        return True
    if len(u) < 2 or len(c) <= len(u):
        return False
    tail = len(u) - 1
    if c[-tail:] != u[1:]:
        return False
    between = c[1 : len(c) - tail]
    return all(part.islower() or (part.startswith("_") and part[1:].islower()) for part in between)


def _canonical(used: str, exports: Mapping[str, str]) -> tuple[str, int]:
    """``used`` with its longest known public prefix replaced by where that object is
    defined (``click.Argument`` → ``click.core.Argument``), and how many parts name the
    object itself; ``(used, 0)`` when no prefix is known."""
    parts = used.split(".")
    for cut in range(len(parts), 1, -1):
        defined = exports.get(".".join(parts[:cut]))
        if defined is not None:
            return ".".join([defined, *parts[cut:]]), defined.count(".") + 1
    return used, 0


def _matches(targets: set[str], used: str, exports: Mapping[str, str]) -> bool:
    known, whole = _canonical(used, exports)
    if whole:  # the package says what it is: no guessing through modules
        u, k = used.split("."), known.split(".")
        for t in targets:
            c = t.split(".")
            if c == u[: len(c)] or (len(c) >= whole and c == k[: len(c)]):
                return True  # the object, or one reached through it (not its module)
            if c[1:2] == ["*"] and c[0] == u[0]:
                return True
        return False
    return any(_same_object(t, used) for t in targets)


def _call_matches(targets: set[str], used: str, exports: Mapping[str, str]) -> bool:
    """A call names exactly the target (its tail after re-export modules), not an object
    reached through it."""
    known, whole = _canonical(used, exports)
    if whole:
        return any(t in (used, known) or t == f"{used.split('.')[0]}.*" for t in targets)
    c_sets = [t.split(".") for t in targets]
    u = used.split(".")
    return any(c[0] == u[0] and (c[1:2] == ["*"] or _names_same(c, u)) for c in c_sets)


def _places(item: ApiChange, uses: Uses, exports: Mapping[str, str]) -> list[Place]:
    if item.kind in (RadarKind.ENV_VAR, RadarKind.CLI_OPTION):
        return list(uses.words.get(item.name, []))
    if item.kind is RadarKind.CLI_COMMAND:  # its options (its name is any word: "openai")
        return [place for option in item.symbols for place in uses.words.get(option, [])]
    if item.kind is RadarKind.CONFIG_KEY:
        return list(uses.keys.get(item.name.rsplit(".", 1)[-1], []))
    if item.kind not in (RadarKind.PYTHON_API, RadarKind.DEPRECATION, RadarKind.ANNOUNCED):
        return []
    found: list[Place] = []
    if item.kind is RadarKind.ANNOUNCED:
        for symbol in item.symbols:
            if "." not in symbol and "(" not in symbol:
                found += uses.words.get(symbol, [])
    for target, param in _targets(item):
        found += _target_places(item, target, param, uses, exports)
    return found


def _target_places(
    item: ApiChange, target: str, param: str | None, uses: Uses, exports: Mapping[str, str]
) -> list[Place]:
    targets = {target, target.removesuffix(".__init__")}
    if param is None:
        if target.endswith(".*") or item.change not in _OBJECT_CHANGES:
            return []  # a changed base or kind: no line of its users is wrong by itself
        found = [
            p for used, ps in uses.refs.items() for p in ps if _matches(targets, used, exports)
        ]
        found += [
            c.place
            for used, cs in uses.calls.items()
            for c in cs
            if not c.shadowed and _matches(targets, used, exports)
        ]
        found += [c.place for c in _inherited_calls(target, uses)]
        if (
            item.hook
            or item.kind is not RadarKind.PYTHON_API  # (an announcement does not say)
            or item.change not in (ApiChangeType.REMOVED, ApiChangeType.RENAMED)
        ):
            found += [
                o.place  # (the method itself, by any of its names: ``pydantic.BaseModel.m``)
                for used, os_ in uses.overrides.items()
                if _call_matches(targets, used, exports)
                for o in os_
            ]  # (an override of a method the project never called still works: FastAPI's
            # own ``on_event``, once Starlette removed its ``on_event``)
        return found
    change = item.change
    position = item.position
    if item.kind is RadarKind.ANNOUNCED and change not in _OBJECT_CHANGES:
        return []  # "no longer accepts strings": passing it is not wrong by itself
    found = []
    matched = [calls for used, calls in uses.calls.items() if _call_matches(targets, used, exports)]
    for calls in [*matched, _inherited_calls(target, uses)]:
        for call in calls:
            if call.taken is not None:  # through a local __init__: what it names is its
                # own, what it does not goes on by name (and by position through ``*args``
                # where it names no positional parameter)
                if param in call.taken:
                    continue
                if call.taken_positions:
                    call = replace(call, positional=0)
            passed = param in call.keywords or (position is not None and call.positional > position)
            if change in (ApiChangeType.DEFAULT_CHANGED, ApiChangeType.NOW_REQUIRED):
                hit = not passed and not call.spread  # it relies on the parameter's absence
            elif change is ApiChangeType.RENAMED:
                hit = param in call.keywords  # by position it still works
            elif change in (ApiChangeType.REMOVED, ApiChangeType.DEPRECATED) or (
                item.kind is RadarKind.ANNOUNCED
            ):
                hit = passed
            else:  # moved, keyword-only: a positional use of it
                hit = position is not None and call.positional > position
            if hit:
                found.append(call.where(param, position) if passed else call.place)
    if change is ApiChangeType.NOW_REQUIRED:  # overrides that cannot take it
        found += [
            o.place
            for used, os_ in uses.overrides.items()
            if _call_matches(targets, used, exports)
            for o in os_
            if param not in o.params and not o.kwargs
        ]
    return found


def _inherited_calls(target: str, uses: Uses) -> list[Call]:
    """The calls of method ``target`` (``click.types.ParamType.get_metavar``) on attributes
    local subclasses inherit from its package's classes (:attr:`Uses.inherited`), where its
    name says what it is (``get_metavar``, not ``get`` or ``copy``, which other objects
    have too)."""
    package, _, rest = target.partition(".")
    method = rest.rpartition(".")[2]
    if not rest or "." not in rest or not _DISTINCTIVE.fullmatch(method):
        return []
    return [call for packages, call in uses.inherited.get(method, []) if package in packages]


# a method name no other object is likely to have: two words or more, eight letters or more
_DISTINCTIVE = re.compile(r"(?=[a-z0-9_]{8,}$)[a-z][a-z0-9]*(?:_[a-z0-9]+)+")


def attach_affects(
    items_by_sha: Mapping[str, Sequence[ApiChange]],
    uses: Uses,
    exports: Mapping[str, str] | None = None,
) -> dict[str, list[ApiChange]]:
    """``items_by_sha`` with each item's downstream uses as ``affects`` (sorted, distinct).
    ``exports``: the upstream's public names and where each is defined (``click.Argument``
    → ``click.core.Argument``), when known: a use of a known name matches only the object
    it is, never a namesake in another module (``click.parser.Argument``)."""
    exports = exports or {}
    out: dict[str, list[ApiChange]] = {}
    for sha, items in items_by_sha.items():
        out[sha] = []
        for item in items:
            places = sorted(set(_places(item, uses, exports)), key=lambda p: (p.path, p.line))
            if places:
                item = replace(item, affects=places[:MAX_PLACES])
            out[sha].append(item)
    return out
