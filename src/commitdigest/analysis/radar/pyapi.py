"""A Python module's API as the standard library's ``ast`` sees it, and what changed in it.

Two levels, so that a window costs little more than reading it:

* :func:`surface` — a cheap, regex-level digest of every line that can carry API (def and
  class headers with their whole signatures and decorators, module-level and upper-case
  names, annotated class fields, ``__all__``, a module ``__getattr__``, and in a package's
  ``__init__.py`` every import, however indented). Equal surfaces before and after mean
  no API change; most commits stop there.
* :func:`module_api` — the full model (parsed once per distinct text: ``functools`` cache
  keyed by the text itself): objects (functions, classes, methods, attributes, fields),
  their parameters with kinds and defaults, bases, decorators, ``__all__``, imports (also
  inside ``try``/``except``/``if``; ``if TYPE_CHECKING`` ones apart), names a module
  ``__getattr__`` serves, and :func:`compare` — removed objects, removed / newly required /
  moved / keyword-only parameters, changed defaults, removed bases — in words for people:
  every value is source text (``ast.unparse``), never a repr.
"""

from __future__ import annotations

import ast
import bisect
import operator
import re
import sys
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from typing import Any, NamedTuple

from commitdigest.analysis.radar.patch import lines_of

__all__ = [
    "LAZY_MODULE",
    "MODULE_BLOCK",
    "STAR_IMPORT",
    "TOP_LINE",
    "TYPE_CHECKING_IF",
    "Breakage",
    "ModuleApi",
    "Obj",
    "Param",
    "aliases_in",
    "api_of",
    "bases_dropped",
    "binds_at_top",
    "brackets_balanced",
    "calls_super",
    "class_aliases",
    "code_of",
    "compare",
    "compare_objects",
    "continued",
    "dropped_exports",
    "exported_names",
    "field_value",
    "field_value_at",
    "field_written_at",
    "generic_dropped",
    "has_fields",
    "header_params",
    "header_text",
    "import_bindings",
    "imports_in",
    "in_spans",
    "indent_of",
    "iter_string_spans",
    "light_api",
    "listed_all",
    "made_getattr_names",
    "module_api",
    "not_code_at_end",
    "not_code_spans",
    "other_getattr",
    "passed_positionally",
    "plain_base",
    "plain_tree",
    "same_plain_value",
    "serves_by_call",
    "signature_end",
    "statement_end",
    "statements_api",
    "string_spans",
    "surface",
    "top_level",
    "top_statements",
    "typing_import",
    "uncommented",
    "without_comments",
    "word_char",
]

# ---- the cheap surface ---------------------------------------------------------------------

_PAREN = r"\((?:[^()]|\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))*\)"
_BRACKETS = r"\[[^\[\]:]*\]"  # no colon inside: a scan ends at the next header's colon
for _ in range(5):  # nested five deep: Optional[Union[Any, Callable[[], Any]]]
    _BRACKETS = rf"\[(?:[^\[\]:]|{_BRACKETS})*\]"
# what follows the parameters up to the header's colon: a return annotation, whose
# brackets may span lines (``-> tuple[torch.Tensor,\n    list[torch.Tensor]]:``), else
# the rest of the line
_RETURNS = rf"(?:(?:[^\n:\[]|{_BRACKETS})*:|[^\n:]*:)"
_HEADER = re.compile(
    r"^((?:[ \t]*@[^\n]*\n)*)([ \t]*)(?:async[ \t]+)?(def|class)[ \t]+(\w+)[ \t]*"
    rf"({_PAREN})?{_RETURNS}",
    re.M,
)
_TOP_NAME = re.compile(r"^([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=(?!=)", re.M)
_UPPER_NAME = re.compile(r"^[ \t]+[A-Z][A-Z0-9_]*(?=[ \t]*(?::[^=\n]*)?=(?!=))", re.M)
# an annotated attribute, and its value on the line (a field's default: ``n: int = 5``; a
# later line of a value written over several is not read here: the changed lines are)
_FIELD = re.compile(r"^[ \t]+[A-Za-z_]\w*[ \t]*:[ \t]*[^=\n]+(?:=[^\n]*)?", re.M)
_ALL = re.compile(r"^__all__[ \t]*(?:\+?=|\.extend|\.append)[^\n]*(?:\n[ \t]+[^\n]*)*", re.M)
_GETATTR = re.compile(r"^def __getattr__\b[^\n]*\n(?:(?:[ \t]+[^\n]*)?\n)*", re.M)
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+\S+[ \t]+)?import[ \t]+(?:\([^)]*\)|[^\n]*)", re.M)
# a line that starts a statement at the margin (after the first): not a comment, nor a
# string's or a bracket's line written there (``help = (`` / ``"Run it."`` / ``)`` in a
# class; a reviewer's case: the methods below were read as the module's)
TOP_LINE = re.compile(r"\n[^ \t#\r\n\"'()\[\]{}0-9]")
# a module-level block whose statements define the module's names (not if TYPE_CHECKING:,
# gone at run time, nor if __name__ == "__main__":, a script's own names)
MODULE_BLOCK = re.compile(
    r"(?:(?:el)?if\b(?!.*\b(?:TYPE_CHECKING|__name__)\b)|else\b|try\b|except\b|finally\b|with\b)"
    r".*:[ \t]*(?:#.*)?\r?$"
)


def absolute_module(module: str, level: int, name: str, is_package: bool) -> str:
    """The module a relative import names: ``from ..b import x`` (``level`` 2, ``name``
    ``b``) in ``pkg.sub.mod`` is ``pkg.b``; in a package's ``__init__`` (``is_package``,
    ``module`` the package itself) one dot is the package."""
    if not level:
        return name
    parts = module.split(".")
    keep = len(parts) - level + (1 if is_package else 0)
    return ".".join([*parts[: max(keep, 0)], *([name] if name else [])])


def _squash(text: str) -> str:
    return " ".join(text.split())


@lru_cache(maxsize=4096)
def surface(text: str, package_init: bool = False) -> tuple[str, ...]:
    """The lines of ``text`` that can carry API, normalised; equal surfaces before and after
    a change mean the change cannot touch the module's API (bodies only)."""
    out: list[str] = []
    for m in _HEADER.finditer(text):
        name = m.group(4)
        if name.startswith("_") and not (name.startswith("__") and name.endswith("__")):
            continue  # private: never reported (a public name turned private still shows)
        out.append(f"{len(m.group(2))}|{_squash(m.group(0))}")
    out.extend(f"0|{m.group(1)}" for m in _TOP_NAME.finditer(text))
    out.extend(_squash(m.group(0)) for m in _UPPER_NAME.finditer(text))
    out.extend(_squash(m.group(0)) for m in _FIELD.finditer(text))
    out.extend(_squash(m.group(0)) for m in _ALL.finditer(text))
    out.extend(_squash(m.group(0)) for m in _GETATTR.finditer(text))
    if package_init:  # (indented: in a function or an if TYPE_CHECKING: block, not bound)
        out.extend(f"{indent_of(m.group(0))}|{_squash(m.group(0))}" for m in _IMPORT.finditer(text))
    return tuple(out)


# ---- the model -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # "posonly", "pos", "varargs", "kwonly", "varkw"
    default: str | None  # source text; None: required
    # the default as the module writes it (``""``, ``1_000``) where that is not ``default``
    # (as ``ast.unparse`` writes it: ``''``, ``1000``), for people; not compared
    shown: str | None = field(default=None, compare=False)

    @property
    def positional(self) -> bool:
        return self.kind in ("posonly", "pos")


@dataclass(frozen=True)
class Obj:
    """A function, class, method or attribute (a module or class level assignment)."""

    qualname: str  # "Client", "Client.get", "TIMEOUT"
    kind: str  # "function", "class", "attribute"
    line: int
    params: tuple[Param, ...] = ()
    bases: tuple[str, ...] = ()
    decorators: tuple[str, ...] = ()
    overrides: bool = False  # marked @override
    value: str | None = None  # an attribute's value (source text), for fields
    # a field's value as the module writes it (``""``), where that is not ``value`` (as
    # ``ast.unparse`` writes it: ``''``): for people, not compared
    written: str | None = field(default=None, compare=False)
    field: bool = False  # a field of a dataclass-like class (a constructor parameter)
    typing_only: bool = False  # defined under ``if TYPE_CHECKING:``
    header: str = ""  # the light model's def/class header; params and bases read from it
    effect: bool = False  # (the full model's) a def called for its effect: ``-> None``

    def for_effect(self) -> bool:
        """Whether this def is called for its effect alone (not ``async``, annotated
        ``-> None``): no caller uses what a call returns."""
        return _for_effect(_header_node(self.header)) if self.header else self.effect

    def signature(self) -> tuple[tuple[Param, ...], tuple[str, ...]] | None:
        """(params, bases): the model's own, or read from the header when light; None when
        the header does not read as one (cut off where its brackets never close): nothing
        to compare, not a signature without parameters."""
        if not self.header:
            return self.params, self.bases
        return _header_signature(self.header, self.kind == "class")


@dataclass
class ModuleApi:
    objects: dict[str, Obj] = field(default_factory=dict)
    all: set[str] | None = None  # __all__, when the module has one
    imports: dict[str, str] = field(default_factory=dict)  # bound name -> dotted target
    import_lines: dict[str, int] = field(default_factory=dict)
    typing_imports: set[str] = field(default_factory=set)  # under ``if TYPE_CHECKING:``
    star_imports: list[str] = field(default_factory=list)  # ``from X import *`` modules
    getattr_names: set[str] = field(default_factory=set)  # served by module __getattr__
    # the imported function that makes the module's __getattr__ (``"attr._make_getattr"``
    # for attrs' ``__getattr__ = _make_getattr(__name__)``): what it serves is read there
    getattr_from: str | None = None
    lazy: dict[str, str] = field(default_factory=dict)  # name -> "module:attr" / "module"
    ok: bool = True  # parsed

    def provides(self, name: str) -> bool:
        """Whether ``name`` can still be imported from the module at run time."""
        return (
            (name in self.objects and not self.objects[name].typing_only)
            or (name in self.imports and name not in self.typing_imports)
            or name in self.getattr_names
        )


_DATACLASS_LIKE = re.compile(
    r"(?:^|\.)(dataclass|define|frozen|attrs|mutable|BaseModel|BaseSettings|NamedTuple|"
    r"TypedDict|Struct|msgspec\.Struct)$"
    r"|_dataclass$"  # a project's own (setuptools' ``lenient_dataclass``, pydantic's)
)


def _dataclass_like(decorators: Iterable[str], bases: Iterable[str]) -> bool:
    """Whether a class with these decorators and bases (as written) is dataclass-like: its
    annotated attributes are its constructor's parameters (fields)."""
    return any(_DATACLASS_LIKE.search(d.split("(")[0]) for d in (*decorators, *bases))


def field_value(statement: str) -> str | None:
    """The value of a field's statement (``x: int = Field(5)``, its lines as written, the
    first one's indent stripped) as the whole-module model writes it (``Field(5)``); "" for
    a field without one (``x: int``); None when the text is no annotated assignment."""
    tree = _parsed(statement)
    node = tree.body[0] if tree is not None and len(tree.body) == 1 else None
    if not isinstance(node, ast.AnnAssign):
        return None
    return _src(node.value) if node.value is not None else ""


# a field written on its line with a value the model writes as it is (``None``, ``0``, a
# name), or none; no string, comment or backslash (``Literal["a"]`` is parsed)
_PLAIN_FIELD = re.compile(
    r"[ \t]+[A-Za-z_]\w*[ \t]*:[ \t]*([^=#'\"\\\n]*?)[ \t]*"
    r"(?:=[ \t]*(None|True|False|-?[1-9]\d*|0|[A-Za-z_][\w.]*))?[ \t]*"
)


def field_value_at(lines: list[str], i: int) -> str | None:
    """:func:`field_value` of the field statement starting at line index ``i`` of a module's
    ``lines``: a plain value (``None``, ``0``, a name, none) as written, without a parse;
    else its line parsed alone, and where that is not the whole statement (a bracket, a
    string or a backslash runs on) the statement's lines."""
    line = lines[i]
    plain = _PLAIN_FIELD.fullmatch(line)
    if plain is not None and brackets_balanced(plain.group(1)):  # (its annotation)
        return plain.group(2) or ""
    value = field_value(line.strip())
    if value is None:
        value = field_value("\n".join(lines[i : statement_end(lines, i) + 1]).strip())
    return value


def field_written_at(lines: list[str], i: int) -> str | None:
    """The value of the field statement at line index ``i`` as the source writes it
    (``""``, where :func:`field_value_at` says ``''``); None where that is the same, or
    unknown."""
    if _PLAIN_FIELD.fullmatch(lines[i]) is not None:
        return None  # (written as the model writes it, or read from its statement below)
    for statement in (lines[i].strip(), None):
        if statement is None:
            statement = "\n".join(lines[i : statement_end(lines, i) + 1]).strip()
        tree = _parsed(statement)
        node = tree.body[0] if tree is not None and len(tree.body) == 1 else None
        if isinstance(node, ast.AnnAssign):
            if node.value is None:
                return None
            written = _segment(statement.split("\n"), node.value, several=True)
            return written if written != _src(node.value) else None
    return None


def _src(node: ast.AST | None) -> str | None:
    if node is None:
        return None
    try:
        return ast.unparse(node)
    except Exception:  # an AST unparse cannot write (very deep): no text for it
        return "…"


def _segment(lines: list[str] | None, node: ast.expr, several: bool = False) -> str | None:
    """The source text of ``node``, a value on one line of ``lines`` (the parsed text's,
    split at ``\n``; ``col_offset`` counts UTF-8 bytes); None without them, or for a value
    over several lines unless ``several``."""
    last, end = node.end_lineno, node.end_col_offset
    if lines is None or last is None or end is None or not 0 < node.lineno <= last <= len(lines):
        return None
    if last != node.lineno:
        if not several:
            return None
        first = lines[node.lineno - 1].encode()[node.col_offset :].decode(errors="replace")
        tail = lines[last - 1].encode()[:end].decode(errors="replace")
        return "\n".join([first, *lines[node.lineno : last - 1], tail])
    line = lines[node.lineno - 1]
    if line.isascii():
        return line[node.col_offset : end]
    return line.encode()[node.col_offset : end].decode(errors="replace")


def _param(name: str, kind: str, node: ast.expr | None, lines: list[str] | None) -> Param:
    """A parameter whose default is ``node``: as ``ast.unparse`` writes it (what is
    compared), and as the source writes it where that differs (what people read)."""
    default = _src(node)
    shown = _segment(lines, node) if node is not None and default is not None else None
    return Param(name, kind, default, shown if shown and shown != default else None)


def _params(args: ast.arguments, lines: list[str] | None = None) -> tuple[Param, ...]:
    out: list[Param] = []
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults))
    defaults += list(args.defaults)
    for i, arg in enumerate(positional):
        kind = "posonly" if i < len(args.posonlyargs) else "pos"
        out.append(_param(arg.arg, kind, defaults[i], lines))
    if args.vararg:
        out.append(Param(args.vararg.arg, "varargs", "()"))
    for arg, default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        out.append(_param(arg.arg, "kwonly", default, lines))
    if args.kwarg:
        out.append(Param(args.kwarg.arg, "varkw", "{}"))
    return tuple(out)


def calls_super(text: str, obj: Obj) -> bool:
    """Whether the method ``obj`` of ``text`` calls ``super().<its name>(...)``: it overrode
    a method its base class keeps. Its body: the lines after its header that are indented
    deeper than it."""
    name = obj.qualname.rsplit(".", 1)[-1]
    if "super()" not in text:
        return False  # the cheap test first
    lines = lines_of(text)  # (split once per version: 235 removed methods of vllm-ascend's
    # twelve weeks split their module each; its lines as the radar numbers them)
    if not 0 < obj.line <= len(lines):
        return False
    head = lines[obj.line - 1]
    indent = len(head) - len(head.lstrip())
    body: list[str] = []
    for line in lines[obj.line :]:
        stripped = line.strip()
        closes = stripped[:1] in (")", "]", "}")  # the end of a signature over lines
        if stripped and len(line) - len(line.lstrip()) <= indent and body and not closes:
            break
        body.append(line)
    pattern = rf"super\(\)\s*\.\s*{re.escape(name)}\s*\("
    return re.search(pattern, "\n".join(body)) is not None


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


class _Builder:
    def __init__(self, module: str) -> None:
        self.module = module
        self.api = ModuleApi()
        self.lines: list[str] | None = None  # the lines of the text being read, if known

    def body(self, nodes: list[ast.stmt], prefix: str, typing_only: bool, cls: bool) -> None:
        for node in nodes:
            self.stmt(node, prefix, typing_only, cls)

    def stmt(self, node: ast.stmt, prefix: str, typing_only: bool, cls: bool) -> None:
        api = self.api
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            decorators = tuple(_src(d) or "" for d in node.decorator_list)
            if any(d.split("(")[0].endswith("overload") for d in decorators):
                return  # a typing overload: the implementation is the API
            kind = "function"
            if cls and any(
                d.split("(")[0].endswith(("property", "cached_property")) for d in decorators
            ):
                kind = "attribute"
            if (
                f"{prefix}{node.name}" in api.objects
                and decorators
                and any(".setter" in d or ".deleter" in d for d in decorators)
            ):
                return  # a property's setter: the property is already known
            api.objects[f"{prefix}{node.name}"] = Obj(
                f"{prefix}{node.name}",
                kind,
                node.lineno,
                params=_params(node.args, self.lines),
                decorators=decorators,
                overrides=any(d.split("(")[0].endswith("override") for d in decorators),
                typing_only=typing_only,
                effect=_for_effect(node),
            )
        elif isinstance(node, ast.ClassDef):
            decorators = tuple(_src(d) or "" for d in node.decorator_list)
            bases = tuple(_src(b) or "" for b in node.bases)
            qual = f"{prefix}{node.name}"
            api.objects[qual] = Obj(
                qual, "class", node.lineno, bases=bases, decorators=decorators,
                typing_only=typing_only,
            )  # fmt: skip
            self.body(node.body, qual + ".", typing_only, True)
            if _dataclass_like(decorators, bases):
                for name, obj in list(api.objects.items()):
                    if name.startswith(qual + ".") and obj.kind == "attribute" and obj.field:
                        continue
                    if (
                        name.startswith(qual + ".")
                        and "." not in name[len(qual) + 1 :]
                        and obj.kind == "attribute"
                        and obj.value is not None
                        and obj.decorators == ("annotated",)
                    ):
                        api.objects[name] = Obj(
                            name, "attribute", obj.line, value=obj.value, field=True,
                            decorators=obj.decorators, typing_only=obj.typing_only,
                            written=obj.written,
                        )  # fmt: skip
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            value = node.value
            text = _src(value) if value is not None else ""
            written = None  # an annotated class attribute's (a field's) value as written
            if prefix and value is not None and isinstance(node, ast.AnnAssign):
                written = _segment(self.lines, value, several=True)
            for target in targets:
                for name in _names(target):
                    if not prefix and name == "__all__":
                        api.all = _strings(value) if value is not None else set()
                        continue
                    api.objects[f"{prefix}{name}"] = Obj(
                        f"{prefix}{name}",
                        "attribute",
                        node.lineno,
                        value=text,
                        decorators=("annotated",) if isinstance(node, ast.AnnAssign) else (),
                        typing_only=typing_only,
                        written=written if written != text else None,
                    )
        elif isinstance(node, ast.AugAssign) and not prefix:
            if isinstance(node.target, ast.Name) and node.target.id == "__all__":
                api.all = (api.all or set()) | _strings(node.value)
        elif isinstance(node, ast.Expr) and not prefix:  # __all__.extend([...]) / .append("x")
            call = node.value
            if (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Attribute)
                and isinstance(call.func.value, ast.Name)
                and call.func.value.id == "__all__"
            ):
                for arg in call.args:
                    api.all = (api.all or set()) | _strings(arg)
        elif isinstance(node, ast.Import | ast.ImportFrom) and not cls:
            if prefix:
                return
            self.imports(node, typing_only)
        elif isinstance(node, ast.If):
            inner = typing_only or _is_type_checking(node.test)
            self.body(node.body, prefix, inner, cls)
            self.body(node.orelse, prefix, typing_only, cls)
        elif isinstance(node, ast.Try | ast.TryStar):
            self.body(node.body, prefix, typing_only, cls)
            for handler in node.handlers:
                self.body(handler.body, prefix, typing_only, cls)
            self.body(node.orelse, prefix, typing_only, cls)
            self.body(node.finalbody, prefix, typing_only, cls)
        elif isinstance(node, ast.With | ast.AsyncWith):
            self.body(node.body, prefix, typing_only, cls)

    def imports(self, node: ast.Import | ast.ImportFrom, typing_only: bool) -> None:
        base = (
            absolute_module(self.module, node.level, node.module or "", self.is_package)
            if isinstance(node, ast.ImportFrom)
            else ""
        )
        for bound, target in import_bindings(node, base):
            if bound == "*":
                self.api.star_imports.append(target)
            else:
                self.bind(bound, target, node.lineno, typing_only)

    def bind(self, bound: str, target: str, line: int, typing_only: bool) -> None:
        """An import binds ``bound``; ``typing_only``: under ``if TYPE_CHECKING:``, which
        leaves a name also imported at run time what that import made it."""
        api = self.api
        if typing_only and bound in api.imports and bound not in api.typing_imports:
            return  # (imported at run time too: the module has it)
        api.imports[bound] = target
        api.import_lines[bound] = line
        if typing_only:
            api.typing_imports.add(bound)
        else:
            api.typing_imports.discard(bound)

    is_package = False


def import_bindings(node: ast.Import | ast.ImportFrom, base: str) -> Iterator[tuple[str, str]]:
    """(the name bound, what it names) for each name ``node`` imports; ``base``: the module
    a ``from`` import takes its names from, as the caller names it. An import of ``*`` is
    ``("*", base)``."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            bound = alias.asname or alias.name.split(".")[0]
            yield bound, alias.name if alias.asname else bound
        return
    for alias in node.names:
        if alias.name == "*":
            yield "*", base
        else:
            yield alias.asname or alias.name, f"{base}.{alias.name}" if base else alias.name


def _names(target: ast.expr) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Tuple | ast.List):
        return [n for t in target.elts for n in _names(t)]
    return []


def _strings(node: ast.expr) -> set[str]:
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return {
            e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
        }
    if isinstance(node, ast.BinOp):
        return _strings(node.left) | _strings(node.right)
    if (  # ``frozenset({"a", "b"})``: Scrapy's ``_DEPRECATED_NAMES``, tested by ``__getattr__``
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("frozenset", "set", "tuple", "list")
        and len(node.args) == 1
    ):
        return _strings(node.args[0])
    return set()


def _getattr_names(tree: ast.Module, api: ModuleApi, made: set[str]) -> set[str]:
    """Names a module-level ``__getattr__`` serves: the strings it compares its argument
    with (``if name == "x"``, ``name in ("a", "b")``) and the keys of the module-level dicts
    it looks the name up in (``_LAZY[name]``, ``_LAZY.get(name)``; a string value is kept in
    ``api.lazy`` as where the name comes from). ``made``: the functions of the module that
    may make it (:func:`_getattr_makers`)."""
    return _getattr_names_of(tree, api, _getattr_defs(tree, made))


def _getattr_names_of(
    tree: ast.Module, api: ModuleApi, defs: Iterable[ast.FunctionDef]
) -> set[str]:
    """What the first of ``defs`` (a ``__getattr__``) serves, with the tables of the module
    ``tree``."""
    for node in defs:
        if node.args.args:
            arg = node.args.args[0].arg
            names: set[str] = set()
            tables: set[str] = set()
            for sub in ast.walk(node):
                if isinstance(sub, ast.Compare) and any(
                    isinstance(x, ast.Name) and x.id == arg for x in [sub.left, *sub.comparators]
                ):
                    for x in [sub.left, *sub.comparators]:
                        if isinstance(x, ast.Constant) and isinstance(x.value, str):
                            names.add(x.value)
                        elif isinstance(x, ast.Tuple | ast.List | ast.Set):
                            names |= _strings(x)
                        elif isinstance(x, ast.Name) and x.id != arg:
                            tables.add(x.id)
                elif isinstance(sub, ast.Subscript) and isinstance(sub.value, ast.Name):
                    tables.add(sub.value.id)
                elif (
                    isinstance(sub, ast.Call)
                    and isinstance(sub.func, ast.Attribute)
                    and isinstance(sub.func.value, ast.Name)
                    and sub.func.attr == "get"
                ):
                    tables.add(sub.func.value.id)
            # the tables: the module's, or the function's own (werkzeug's ``alts = {…}``)
            for stmt in (*tree.body, *ast.walk(node)):
                if isinstance(stmt, ast.Assign | ast.AnnAssign) and stmt.value is not None:
                    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                    if any(n in tables for t in targets for n in _names(t)):
                        value = stmt.value
                        if isinstance(value, ast.Dict):
                            for k, v in zip(value.keys, value.values, strict=True):
                                if isinstance(k, ast.Constant) and isinstance(k.value, str):
                                    names.add(k.value)
                                    if isinstance(v, ast.Constant) and isinstance(v.value, str):
                                        api.lazy[k.value] = v.value
                        else:
                            names |= _strings(value)
            return {n for n in names if n.isidentifier()}
    return set()


def _getattr_makers(tree: ast.Module) -> set[str]:
    """The functions a module calls to make its ``__getattr__`` (``__getattr__ =
    _make_getattr(__name__)``)."""
    return {
        stmt.value.func.id
        for stmt in tree.body
        if isinstance(stmt, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "__getattr__" for t in stmt.targets)
        and isinstance(stmt.value, ast.Call)
        and isinstance(stmt.value.func, ast.Name)
    }


def _getattr_defs(tree: ast.Module, made: set[str]) -> Iterator[ast.FunctionDef]:
    """A module's ``__getattr__``: its module-level def, or the one a function ``made`` of
    the module makes (attrs' ``__getattr__ = _make_getattr(__name__)``, whose
    ``__getattr__`` serves the submodules named in ``_LAZY_SUBMODULES``)."""
    for node in tree.body:  # the module's own def first
        if isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
            yield node
    for node in top_level(tree.body, run_time=True):  # (werkzeug's: ``if not t.TYPE_CHECKING:``)
        if isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
            yield node
    yield from _made_defs(tree, made)


def _made_defs(tree: ast.Module, made: set[str]) -> Iterator[ast.FunctionDef]:
    """The ``__getattr__`` defs inside the module's functions named in ``made``."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in made:
            for sub in ast.walk(node):
                if isinstance(sub, ast.FunctionDef) and sub.name == "__getattr__":
                    yield sub


@lru_cache(maxsize=64)
def made_getattr_names(text: str, maker: str) -> frozenset[str]:
    """The names the ``__getattr__`` that the function ``maker`` of a module's source
    ``text`` makes serves (another module binds it: attrs' ``attrs`` package takes
    ``_make_getattr`` from ``attr``, whose ``_LAZY_SUBMODULES`` it reads)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset()
    return frozenset(_getattr_names_of(tree, ModuleApi(), _made_defs(tree, {maker})))


LAZY_MODULE = "sys.modules[__name__]"  # how a module puts a lazy module object in its place


def _lazy_module_names(tree: ast.Module, api: ModuleApi, module: str) -> set[str]:
    """Names served by the lazy module object a module puts in its place, as Hugging Face's
    libraries write their packages (``sys.modules[__name__] = _LazyModule(__name__,
    __file__, _import_structure, …)``): the names each submodule of the import structure it
    is given lists (``{"trainer": ["GRPOTrainer", …]}``, filled in place too, in ``if`` and
    ``try`` blocks: ``_import_structure["x"] = [...]``, ``.extend``, ``.append``; not the
    submodules themselves, which users import as modules, and a deleted one's names say what
    it took), the keys of another dict it is given (``extra_objects``), and what the
    module imports from its own package under ``if TYPE_CHECKING:`` for type checkers,
    which mirrors them (where the structure is computed: ``define_import_structure(
    __file__)``; not ``torch.Tensor``, imported to annotate its code). A served name's
    submodule is kept in ``api.lazy`` (``".trainer"``: the module that holds it)."""
    statements = list(top_level(tree.body))
    given: list[ast.expr] = []  # what the lazy module object is made from
    for node in statements:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and any(isinstance(t, ast.Subscript) and _src(t) == LAZY_MODULE for t in node.targets)
        ):
            given += [*node.value.args, *(k.value for k in node.value.keywords)]
    if not given:
        return set()
    tables = {g.id for g in given if isinstance(g, ast.Name)}
    entries: list[tuple[ast.expr | None, ast.expr]] = []  # (key, value) of each structure
    names: set[str] = set()
    for g in given:
        if isinstance(g, ast.Dict):
            if any(isinstance(v, ast.List | ast.Tuple | ast.Set) for v in g.values):
                entries += zip(g.keys, g.values, strict=True)  # a structure written in place
            else:  # the other objects it serves (``extra_objects={"__version__": …}``)
                names |= _strings(ast.List([k for k in g.keys if k is not None]))
    for node in statements:
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign) and node.value:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and target.id in tables:
                    if isinstance(node.value, ast.Dict):
                        entries += zip(node.value.keys, node.value.values, strict=True)
                elif _table_key(target, tables) is not None:  # table["x"] = [...] / += [...]
                    entries.append((_table_key(target, tables), node.value))
        elif (
            isinstance(node, ast.Expr)  # table["x"].extend([...]) / .append("y")
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute)
            and node.value.func.attr in ("extend", "append")
            and node.value.args
        ):
            key = _table_key(node.value.func.value, tables)
            if key is not None:
                arg = node.value.args[0]
                entries.append((key, arg if node.value.func.attr == "extend" else ast.List([arg])))
    top = module.split(".")[0]  # (what it imports for type checkers from its own package)
    names |= {
        n
        for n in api.typing_imports
        if api.imports[n].startswith(".") or api.imports[n].split(".")[0] == top
    }
    for key, value in entries:
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            for name in _strings(value):  # (a list computed elsewhere is not known here)
                names.add(name)
                api.lazy.setdefault(name, "." + key.value)
    return {n for n in names if n.isidentifier()}


def _table_key(node: ast.expr, tables: set[str]) -> ast.expr | None:
    """``"x"`` of ``table["x"]``, for a table the lazy module object is made from."""
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and node.value.id in tables
    ):
        return node.slice
    return None


def top_level(body: list[ast.stmt], *, run_time: bool = False) -> Iterator[ast.stmt]:
    """A module's statements that run when it is imported: those at its top, and those of
    its top-level ``if``, ``for``, ``while``, ``try`` and ``with`` blocks (not the blocks
    themselves); ``run_time``: not those of ``if TYPE_CHECKING:`` (a stub for type
    checkers), only its ``else``."""
    for node in body:
        if run_time and isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from top_level(node.orelse, run_time=run_time)
        elif isinstance(node, ast.If | ast.For | ast.While | ast.With | ast.AsyncWith):
            yield from top_level(node.body, run_time=run_time)
            yield from top_level(getattr(node, "orelse", []), run_time=run_time)
        elif isinstance(node, ast.Try | ast.TryStar):
            yield from top_level(node.body, run_time=run_time)
            for handler in node.handlers:
                yield from top_level(handler.body, run_time=run_time)
            yield from top_level(node.orelse, run_time=run_time)
            yield from top_level(node.finalbody, run_time=run_time)
        else:
            yield node


@lru_cache(maxsize=1024)
def module_api(text: str, module: str, is_package: bool = False) -> ModuleApi:
    """The API model of one module's source (cached by the text itself)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ModuleApi(ok=False)
    api = _built(
        [tree.body], module, is_package, [None if _UNSPLIT.search(text) else lines_of(text)]
    )
    made = _getattr_makers(tree)
    api.getattr_names = _getattr_names(tree, api, made)
    local = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    makers = [api.imports[f] for f in made if f not in local and f in api.imports]
    api.getattr_from = makers[0] if makers else None
    if LAZY_MODULE in text:
        api.getattr_names |= _lazy_module_names(tree, api, module)
    if serves_by_call(text):
        api.getattr_names |= _served_by_call(tree, api)
    return api


# a module-level call that gives the module's own name and a table of the names it serves:
# one whose callee's name says so (trio's ``_deprecate.deprecate_attributes(__name__,
# {"RaisesGroup": …})``, which gives the module a class whose ``__getattr__`` looks them
# up), or any call whose result is the module's ``__getattr__`` (``__getattr__ =
# lazy_getattr(__name__, {"app": ".commands"})``, the factory imported from elsewhere)
SERVED_BY_CALL = re.compile(
    r"^(?:[A-Za-z_][\w.]*(?:deprecat|attr|lazy|alias)\w*|__getattr__[ \t]*=[ \t]*[A-Za-z_][\w.]*)"
    r"[ \t]*\(\s*__name__\s*,\s*\{",
    re.M | re.I,
)


def serves_by_call(text: str) -> bool:
    """Whether a module's text makes such a call (:data:`SERVED_BY_CALL`), the substring
    test first."""
    return "__name__," in text and SERVED_BY_CALL.search(text) is not None


def _served_by_call(tree: ast.Module, api: ModuleApi) -> set[str]:
    """The keys of the dict that a module-level call given ``__name__`` serves
    (:data:`SERVED_BY_CALL`). Where the call makes the module's ``__getattr__``, a string
    value is kept in ``api.lazy`` as where the name comes from (``".commands"``)."""
    names: set[str] = set()
    for node in top_level(tree.body, run_time=True):
        if isinstance(node, ast.Expr):
            call, made = node.value, False
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__getattr__" for t in node.targets
        ):
            call, made = node.value, True
        else:
            continue
        if not isinstance(call, ast.Call):
            continue
        args = call.args
        if (
            len(args) >= 2
            and isinstance(args[0], ast.Name)
            and args[0].id == "__name__"
            and isinstance(args[1], ast.Dict)
        ):
            for k, v in zip(args[1].keys, args[1].values, strict=True):
                if isinstance(k, ast.Constant) and isinstance(k.value, str):
                    names.add(k.value)
                    if (
                        made
                        and isinstance(v, ast.Constant)
                        and isinstance(v.value, str)
                        and re.fullmatch(
                            r"\.+[\w.]*(?::\w+)?|\w+(?:\.\w+)+(?::\w+)?|\w+:\w+", v.value
                        )
                    ):  # (a module, ``".commands"``, ``"pkg.mod:attr"``; not a new name)
                        api.lazy.setdefault(k.value, v.value)
    return {n for n in names if n.isidentifier()}


def _built(
    bodies: Iterable[list[ast.stmt]],
    module: str,
    is_package: bool,
    lines: list[list[str] | None] | None = None,
) -> ModuleApi:
    """The model of a module's top-level statements, given as one body or several in order
    (``lines``: those of the source each was parsed from, split at ``\n``, or None where
    Python splits it otherwise; for the defaults as they are written)."""
    builder = _Builder(module)
    builder.is_package = is_package
    for k, body in enumerate(bodies):
        builder.lines = lines[k] if lines is not None and k < len(lines) else None
        builder.body(body, "", False, False)
    return builder.api


_CONTINUED = re.compile(r"(?:else|elif|except|finally)\b")  # a compound statement goes on
# what Python reads as a line break or a blank that a split at "\n" does not (a lone
# carriage return, a form feed), a byte-order mark, a null byte
_UNSPLIT = re.compile(r"\r(?!\n)|[\f\x00\ufeff]")


def top_statements(text: str) -> list[int] | None:
    """The offsets where a module's top-level statements start, as its lines read (a line
    at the first column, outside a string of several lines, that does not close a bracket
    nor go on with the statement above: ``else:``, or a def under its decorators), then the
    text's end. Not parsed: a line at the first column inside brackets starts a piece that
    does not parse alone (:func:`statements_api` then says so). None where the lines cannot
    be read so: a statement continued by a backslash onto a line at the first column, or a
    line break Python reads that a split at ``\n`` does not."""
    if _UNSPLIT.search(text):
        return None
    # the strings of several lines (with their escapes: not_code_spans reads them as Python
    # does, a triple quote in a one-line string or after a backslash too)
    strings = [(a, b) for a, b in not_code_spans(text) if text.count("\n", a, b)]
    starts: list[int] = []
    decorated = False  # the last statement started is decorators, so far
    for m in _FIRST_COLUMN.finditer(text):  # (the lines that start with code, found by one
        pos = m.start()  # search: a loop over every line was most of a surface's reading)
        if strings and in_spans(strings, pos):
            continue
        if pos and continued(text[text.rfind("\n", 0, pos - 1) + 1 : pos - 1]):
            return None  # (the line above goes on onto it)
        if not decorated and not (starts and _CONTINUED.match(text, pos)):
            starts.append(pos)
        decorated = m.group() == "@"
    return [*starts, len(text)]


# the first character of a line that starts with code at the first column (not a blank, a
# comment, a closing bracket)
_FIRST_COLUMN = re.compile(r"^[^ \t#\r)\]}\n]", re.M)


def statements_api(
    pieces: Iterable[str], module: str, is_package: bool = False
) -> ModuleApi | None:
    """The model of some top-level statements of a module only (each piece parsed alone,
    in order); None when one does not parse alone (its statement runs on past it)."""
    bodies: list[list[ast.stmt]] = []
    lines: list[list[str] | None] = []
    for piece in pieces:
        tree = _parsed(piece)
        if tree is None:
            return None
        bodies.append(tree.body)
        lines.append(None if _UNSPLIT.search(piece) else piece.split("\n"))
    return _built(bodies, module, is_package, lines)


@lru_cache(maxsize=4096)
def _parsed(piece: str) -> ast.Module | None:
    """A top-level statement parsed alone (one is asked for each name it holds), or a
    field's (:func:`field_value`)."""
    try:
        return ast.parse(piece)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


# ---- the light model -------------------------------------------------------------------
#
# Most changed modules are neither package ``__init__`` files nor modules with ``__all__``
# or a ``__getattr__``: their API is their def and class headers, their module-level names
# and their classes' attributes, which a regex scan finds at a fraction of a parse's cost.
# Only the headers that differ between two versions are parsed (a one-line snippet each).

_DEF_START = re.compile(r"^([ \t]*)(?:async[ \t]+)?(def|class)[ \t]+(\w+)", re.M)
_SIG_REST = re.compile(rf"[ \t]*(?:\[[^\]\n]*\])?[ \t]*({_PAREN})?{_RETURNS}")
_IMPORT_NAMES = re.compile(
    r"^[ \t]*(?:from[ \t]+([.\w]+)[ \t]+)?import[ \t]+(\([^)]*\)|[^\n#;]*)", re.M
)
# a literal first: the regex is tried at each newline, not at every character
_NEEDS_AST = re.compile(r"\n(?:__all__\b|def __getattr__\b|[ \t]*sys\.modules\[__name__\][ \t]*=)")
# ``__getattr__ = maker(…)`` at a module's first column, and the maker's name
_MADE_GETATTR = re.compile(r"^__getattr__[ \t]*=[ \t]*([A-Za-z_]\w*)[ \t]*\(", re.M)
# an indented ``def __getattr__(name`` with one parameter that is not a method's ``self``
_INDENTED_GETATTR = re.compile(r"^([ \t]+)def __getattr__\([ \t]*(?!self\b|cls\b)\w", re.M)
_BLOCK_STARTS = ("if ", "if(", "elif ", "else:", "try:", "except", "finally:", "with ")


def other_getattr(text: str) -> bool:
    """Whether a module has a ``__getattr__`` that is not a def at its first column: one a
    function of the module makes (attrs' ``__getattr__ = _make_getattr(__name__)``; one
    made by an imported function, pydantic's ``getattr_migration(__name__)`` in 19 modules,
    is not read here), or a def in a module-level ``if``/``try``/``with`` block (werkzeug's
    under ``if not t.TYPE_CHECKING:``; not one nested in a function)."""
    if "__getattr__" not in text:
        return False
    for m in _MADE_GETATTR.finditer(text):
        maker = m.group(1)
        if text.startswith(f"def {maker}(") or f"\ndef {maker}(" in text:
            return True
    if "def __getattr__" not in text:
        return False
    for m in _INDENTED_GETATTR.finditer(text):  # (rare: each read up to its block's header)
        indent = len(m.group(1))
        for line in reversed(text[: m.start()].split("\n")):
            code = line.strip()
            if not code or code.startswith("#") or indent_of(line) >= indent:
                continue
            if line.startswith(_BLOCK_STARTS):  # (at the first column: a module's block)
                return True
            break
    return False


def header_text(lines: Iterable[str]) -> str:
    """A def or class header's lines as one line, without their comments: joined, a
    comment would hide the rest of the signature (pytest's ``Package.__init__`` has
    ``# NOTE: following args are unused:`` among its parameters)."""
    return " ".join(uncommented("\n".join(lines)).split())


_NOT_CODE_START = re.compile(r"[\"'#]")
# a string literal of one line (or continued by a backslash), read from its opening quote
_QUOTED = re.compile(r""""(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'""", re.S)


def not_code_spans(text: str) -> list[tuple[int, int]]:
    r"""(start, end) of each string literal (of one line or several) and comment of
    ``text``, in order, read from where code is read: a triple-quoted string ends at the
    first of its quotes that no backslash escapes; one never closed is read as ``""``, and
    its third quote as a quote of one line. (What the regex
    ``(\"\"\"|''')(?:\\.|(?!\1)[^\\])*?\1|"…"|'…'|\#[^\n]*`` finds: by ``str.find`` from
    quote to quote, twice as fast; the regex read a long docstring a character at a time.)"""
    spans: list[tuple[int, int]] = []
    find, size = text.find, len(text)
    pos = 0
    while (m := _NOT_CODE_START.search(text, pos)) is not None:
        at = m.start()
        mark = text[at]
        if mark == "#":
            end = find("\n", at)
            pos = size if end < 0 else end
            spans.append((at, pos))
            continue
        quotes = mark * 3
        if text.startswith(quotes, at):
            end = find(quotes, at + 3)
            while end >= 0:  # the first closing quotes after an even run of backslashes
                k = end
                while text[k - 1] == "\\":
                    k -= 1
                if (end - k) % 2 == 0:
                    break
                end = find(quotes, end + 1)
            if end >= 0:
                pos = end + 3
                spans.append((at, pos))
                continue
        one = _QUOTED.match(text, at)
        if one is None:
            pos = at + 1  # a quote that opens no string on its line: code
        else:
            pos = one.end()
            spans.append((at, pos))
    return spans


def code_of(text: str, *, comments_only: bool = False, breaks: bool = False) -> str:
    """``text`` without its string literals and comments (``comments_only``: without its
    comments only); ``breaks``: each keeps its line breaks."""
    pieces: list[str] = []
    pos = 0
    for start, end in not_code_spans(text):
        if comments_only and text[start] != "#":
            continue
        pieces.append(text[pos:start])
        if breaks:
            pieces.append("\n" * text.count("\n", start, end))
        pos = end
    pieces.append(text[pos:])
    return "".join(pieces)


def signature_end(lines: list[str], start: int) -> int:
    """The index of the line that ends the header starting at ``start`` (its ``:``): where
    its brackets close, counted in its code (a bracket in a string or a comment is text:
    fastapi's ``Doc(\"\"\"… [docs](https://…#sub-dependencies) …\"\"\")`` parameters);
    ``start`` itself where they never close (a header cut off: read as no signature)."""
    return _closing_line(lines, start, header=True)


def statement_end(lines: list[str], start: int) -> int:
    """The index of the last line of the statement starting at ``start`` (a field's
    ``x: int = Field(\n    default=5,\n)``): where its brackets close on a line that no
    backslash continues; ``start`` itself where they never close."""
    return _closing_line(lines, start, header=False)


# a string of one line without a backslash, or a comment: removed from a line of code to
# count its brackets (what code_of reads there, without reading the lines around)
_ONE_LINE_NOT_CODE = re.compile(r""""[^"\n]*"|'[^'\n]*'|#[^\n]*""")


def _closing_line(lines: list[str], start: int, *, header: bool) -> int:
    """The first line from ``start`` on where the brackets opened since ``start`` are
    closed and that ends the ``header`` (its ``:``) or the statement (no backslash).

    Each line's strings and comments are taken out of it alone while none of them opens
    a string of several lines or holds a backslash (openai-python's headers run to a
    hundred lines, most with a ``Literal["…"]``: read as one text, then each line again);
    else the lines are read as one text (:func:`_closing_text`)."""
    depth = 0
    for i in range(start, len(lines)):
        text = lines[i]
        if '"' in text or "'" in text or "#" in text:
            if "\\" in text or '"""' in text or "'''" in text:
                return _closing_text(lines, start, header=header)
            text = _ONE_LINE_NOT_CODE.sub("", text)
        depth += text.count("(") + text.count("[") - text.count(")") - text.count("]")
        if depth <= 0 and (_ends_header(text) if header else not continued(text)):
            return i
    return start


def _closing_text(lines: list[str], start: int, *, header: bool) -> int:
    """:func:`_closing_line` over the lines read as one text (strings of several lines)."""
    depth = 0
    plain = True  # no string or comment on the lines so far
    for i in range(start, len(lines)):
        text = lines[i]
        if plain and ('"' in text or "'" in text or "#" in text):
            plain = False
        elif not plain and i - start >= _GUESS_LINES:
            break  # (a bracket in a string that never closes: no scan to the module's end)
        depth += text.count("(") + text.count("[") - text.count(")") - text.count("]")
        if depth <= 0 and (_ends_header(text) if header else not continued(text)):
            # where the lines hold strings or comments, the line it would end on when
            # they are code is where their blanked lines are read up to first
            return i if plain else _end_in_code(lines, start, header, i + 1 - start)
    return start if plain else _end_in_code(lines, start, header, 0)


_GUESS_LINES = 120  # lines with strings read as code for where a header would end, at most


# a header's last line with its body on it: ``) -> int: ...``, ``def close(self): pass``
_INLINE_BODY = re.compile(
    r"\)[ \t]*(?:->[^:\n]{1,200})?:[ \t]*[^\s#]|^[ \t]*class[ \t]+\w+[ \t]*:[ \t]*[^\s#]"
)


def _ends_header(line: str) -> bool:
    if line.rstrip().endswith(":"):
        return True
    return (")" in line or "class" in line) and _INLINE_BODY.search(line) is not None


def continued(line: str) -> bool:
    """Whether a line goes on on the next one by a backslash."""
    return line.rstrip().endswith("\\")


def _end_in_code(lines: list[str], start: int, header: bool, guess: int) -> int:
    """:func:`_closing_line` for lines with strings or comments: they are blanked out
    first (their line breaks kept), over the ``guess`` lines where they would end were
    their strings code (one pass for most headers: openai-python's run to dozens of lines,
    each parameter a ``Literal["…"]``), else over the first line alone, then 20 lines,
    120, 1,000, 8,000 and the rest of the module (typer's ``Typer.__init__`` documents
    each parameter in an ``Annotated[…, Doc(\"\"\"…\"\"\")]``: 700 lines of header).
    A window that cuts a triple-quoted string is not read alone."""
    size = len(lines)
    if guess and _strings_closed(lines[start : start + guess]):
        first: tuple[int, ...] = (guess,)
    elif '"""' in lines[start] or "'''" in lines[start]:
        first = ()  # (a string that may run on is read with the lines after it)
    else:
        first = (1,)
    for upto in (*(min(size, start + n) for n in (*first, 20, 120, 1000, 8000)), size):
        text = "\n".join(lines[start:upto])
        code = code_of(text, breaks=True).split("\n")
        depth = 0
        for k, line in enumerate(code):
            depth += line.count("(") + line.count("[") - line.count(")") - line.count("]")
            if depth <= 0 and (_ends_header(line) if header else not continued(line)):
                return start + k
        if upto == size:
            break
    return start


def _strings_closed(lines: list[str]) -> bool:
    """Whether ``lines`` close every triple-quoted string they open (each delimiter an even
    number of times)."""
    text = "\n".join(lines)
    return text.count('"""') % 2 == 0 and text.count("'''") % 2 == 0


def not_code_at_end(head: str) -> bool:
    """Whether a line's text ``head`` ends inside a string literal or a comment."""
    code, open_quote = without_comments(head)
    return bool(open_quote) or len(code) < len(head)


def without_comments(text: str) -> tuple[str, str]:
    """(``text`` without its comments (:func:`uncommented`), the quote of a string literal
    still open at its end or "")."""
    code = uncommented(text)
    if "'" not in text and '"' not in text:
        return code, ""
    left = code_of(code)  # what no literal took: a quote here opens one
    quotes = [left.find(q) for q in ('"', "'") if q in left]
    return code, left[min(quotes)] if quotes else ""


def uncommented(text: str) -> str:
    """``text`` without its comments: a ``#`` in a string, even one of several lines
    (fastapi's ``Doc(\"\"\"… #using-the-same-dependency …\"\"\")`` parameters), is no
    comment."""
    return code_of(text, comments_only=True) if "#" in text else text


def header_params(header: str) -> tuple[Param, ...] | None:
    """The parameters of a def header (:func:`header_text`); None if it does not parse."""
    signature = _header_signature(header, False)
    return signature[0] if signature is not None else None


def _header_node(header: str) -> ast.stmt | None:
    """The def or class statement of a header (``def f(a, b=1) -> X:``, given an empty
    body, or one with its body on its line, ``def f(self) -> int: ...``, read as it is);
    None if it does not parse."""
    parsed = _header_parsed(header)
    return parsed[0] if parsed is not None else None


def _header_parsed(header: str) -> tuple[ast.stmt | None, str] | None:
    """(:func:`_header_node`, the text it was parsed from); None if it does not parse."""
    snippet = header.strip()
    tries = [snippet + " ..."] if snippet.endswith(":") else [snippet, snippet + ": ..."]
    for text in tries:  # (a header with its body on its line, ``def f(a) -> int: ...``,
        try:  # reads as it is)
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError):
            continue
        return (tree.body[0] if tree.body else None), text
    return None


def _for_effect(node: ast.stmt | None) -> bool:
    """Whether a def is called for its effect alone: not ``async``, annotated ``-> None``."""
    return (
        isinstance(node, ast.FunctionDef)
        and isinstance(node.returns, ast.Constant)
        and node.returns.value is None
    )


@lru_cache(maxsize=8192)
def _header_signature(
    header: str, is_class: bool
) -> tuple[tuple[Param, ...], tuple[str, ...]] | None:
    """(params, bases) of a def or class header (``def f(a, b=1) -> X:``); None if it does
    not parse."""
    parsed = _header_parsed(header)
    node = parsed[0] if parsed is not None else None
    if node is None or parsed is None:
        return None
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        text = parsed[1]
        return _params(node.args, None if _UNSPLIT.search(text) else text.split("\n")), ()
    if isinstance(node, ast.ClassDef):
        return (), tuple(_src(b) or "" for b in node.bases)
    return (), ()


def _top_code_between(text: str, start: int, end: int) -> bool:
    """Whether a statement starts at the margin between ``start`` and ``end``: a line of
    code there, out of strings and brackets (a string's or a bracket's line written at
    the margin, ``help = (`` / ``"Run it."`` / ``)`` in a class, is none)."""
    if TOP_LINE.search(text, start, end) is None:
        return False  # (most classes: no line at the margin between two methods)
    code = code_of(text[start:end], breaks=True)
    depth, at = 0, 0
    for m in TOP_LINE.finditer(code):
        piece = code[at : m.start()]
        depth += sum(map(piece.count, "([{")) - sum(map(piece.count, ")]}"))
        at = m.start()
        if depth <= 0:
            return True
    return False


def light_api(text: str) -> ModuleApi:
    """The API of an ordinary module from a regex scan (see above)."""
    api = ModuleApi()
    lines_before = 0
    last = 0
    stack: list[tuple[int, str, str]] = []  # (indent, "def"/"class", qualname)
    headers: list[tuple[int, int, str, str]] = []  # (position, indent, kind, qualname or "")
    strings = string_spans(text)
    all_lines: list[str] | None = None
    tops = [m.start() + 1 for m in TOP_LINE.finditer(text)]  # lines that start with code
    for m in _DEF_START.finditer(text):
        if stack and indent_of(m.group(1)) and _top_code_between(text, last, m.start()):
            stack.clear()  # a top-level ``if``/``else``/``try`` since the last header: the
            # defs in it are the module's, not the class's above (aiohttp's ``request``)
        lines_before += text.count("\n", last, m.start())
        last = m.start()
        if in_spans(strings, m.start()):
            continue  # a def or class of an example in a docstring (pydantic's serializers)
        indent = len(m.group(1).expandtabs())
        kind, name = m.group(2), m.group(3)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1] if stack else None
        if parent is not None and parent[1] == "def":
            stack.append((indent, "def", ""))  # a nested function: not API
            headers.append((m.start(), indent, "def", ""))
            continue
        qual = f"{parent[2]}.{name}" if parent else name
        headers.append((m.start(), indent, kind, qual))
        stack.append((indent, kind, qual))
        rest = _SIG_REST.match(text, m.end())
        if rest is not None:
            header = header_text(text[m.start() : rest.end()].split("\n"))
        else:  # brackets the pattern does not follow (nested deeper, in strings): counted
            if all_lines is None:  # (split once: not the rest of the text at each header)
                all_lines = text.split("\n")
            start = lines_before
            header = header_text(all_lines[start : signature_end(all_lines, start) + 1])
        decorators = _decorators(text, m.start())
        line = lines_before + 1
        stub = parent is None and indent > 0 and _under_type_checking(text, tops, m.start())
        if stub and qual in api.objects and not api.objects[qual].typing_only:
            continue  # a type checker's stub below the run-time definition
        if kind == "class":
            api.objects[qual] = Obj(
                qual, "class", line, decorators=decorators, header=header, typing_only=stub
            )
            continue
        plain = [d.split("(")[0] for d in decorators]
        if any(d.endswith("overload") for d in plain):
            continue  # a typing overload: the implementation is the API
        if qual in api.objects and any(d.endswith((".setter", ".deleter")) for d in plain):
            continue
        is_property = parent is not None and any(
            d.endswith(("property", "cached_property")) for d in plain
        )
        api.objects[qual] = Obj(
            qual,
            "attribute" if is_property else "function",
            line,
            decorators=decorators,
            overrides=any(d.endswith("override") for d in plain),
            header="" if is_property else header,
            typing_only=stub,
        )
    counted, line = 0, 1  # line numbers counted on from the previous match, not from 0
    for m in _TOP_NAME.finditer(text):  # the last binding of a name is the one that stays
        line += text.count("\n", counted, m.start())
        counted = m.start()
        name = m.group(1)
        known = api.objects.get(name)
        if name != "__all__" and (known is None or known.kind == "attribute" or known.typing_only):
            api.objects[name] = Obj(name, "attribute", line)
    starts = [h[0] for h in headers]
    for pattern in (_UPPER_NAME, _FIELD):
        for m in pattern.finditer(text):
            if in_spans(strings, m.start()):
                continue  # a docstring's "Name: text", not an attribute
            line_text = m.group(0)
            lead = line_text[: len(line_text) - len(line_text.lstrip())]
            indent = len(lead.expandtabs())  # counted as the headers' indents are
            name = line_text.strip().split(":")[0].split("=")[0].strip()
            owner: str | None = ""  # "": a statement of a module-level if/try/with
            if indent > 4 or not _in_module_block(text, tops, m.start()):
                owner = _owner(headers, starts, indent, m.start())
            if owner is None or not name.isidentifier():
                continue
            qual = f"{owner}.{name}" if owner else name
            if qual in api.objects and not api.objects[qual].typing_only:
                continue  # (a stub's name is what runs under ``else:``)
            at = text.count("\n", 0, m.start())
            cls = api.objects.get(owner or "")
            value = None
            if pattern is _FIELD and cls is not None and has_fields(cls):  # its default
                if all_lines is None:
                    all_lines = text.split("\n")
                value = field_value_at(all_lines, at)
            field = value is not None
            api.objects[qual] = Obj(
                qual, "attribute", at + 1,
                value=value, field=field, decorators=("annotated",) if field else (),
                written=field_written_at(all_lines, at) if field and all_lines else None,
            )  # fmt: skip
    api.imports = imports_in(text)
    # a stub beside a binding the scan above does not read (an import, a lower-case name
    # under ``else:``): what runs is a name, and it is there
    for name, obj in list(api.objects.items()):
        if (
            obj.typing_only
            and "." not in name
            and (
                name in api.imports
                or re.search(rf"^[ \t]+{re.escape(name)}[ \t]*=(?!=)", text, re.M)
            )
        ):
            api.objects[name] = Obj(name, "attribute", obj.line)
    return api


def word_char(char: str) -> bool:
    """Whether ``char`` can be part of a Python name."""
    return char.isalnum() or char == "_"


def brackets_balanced(text: str) -> bool:
    """Whether ``text`` closes every round and square bracket it opens (counted as
    written: a line that a statement goes on from does not)."""
    return text.count("(") == text.count(")") and text.count("[") == text.count("]")


def has_fields(cls: Obj) -> bool:
    """Whether the class ``cls`` (of a model, or read around a line) is dataclass-like."""
    signature = cls.signature() if cls.kind == "class" else None
    return signature is not None and _dataclass_like(cls.decorators, signature[1])


def imports_in(text: str) -> dict[str, str]:
    """{bound name: what it names} for the import statements of a source, by regex."""
    found: dict[str, str] = {}
    for m in _import_statements(text):
        module, names = m.group(1), m.group(2).strip("() \t")
        if "#" in names:  # a comment in a parenthesised list (vllm-ascend's mypy marker
            # after ``import (``) hid the name on the line after it
            names = re.sub(r"#[^\n]*", "", names)
        for part in names.replace("\n", " ").split(","):
            words = part.split()
            if not words or words[0] == "*":
                continue
            bound = words[-1] if len(words) == 3 and words[1] == "as" else words[0].split(".")[0]
            found.setdefault(bound, f"{module}.{words[0]}" if module else words[0])
    return found


# an import of ``*``, wherever it is written (in a block, over a line continued by a
# backslash: ``from ._impl import \``)
STAR_IMPORT = re.compile(r"\bimport\b[\s\\(]*\*")


def binds_at_top(text: str, name: str) -> bool:
    """Whether a module's source binds ``name`` at its top itself: imports it, defines a
    function or class of that name, or assigns it (then ``name`` is not a built-in's, nor
    the package's object of that name)."""
    if name in imports_in(text):
        return True
    pattern = (
        rf"^(?:(?:async\s+)?def|class)\s+{re.escape(name)}\b|^{re.escape(name)}\s*(?::[^=\n]*)?="
    )
    return re.search(pattern, text, re.M) is not None


def _import_statements(text: str) -> Iterator[re.Match[str]]:
    """What ``_IMPORT_NAMES.finditer(text)`` finds, tried only at the lines that say
    "import" (the regex tried at every line cost 9 ms for a 240 KB module)."""
    pos, done = text.find("import"), 0
    while pos >= 0:
        start = text.rfind("\n", 0, pos) + 1
        m = _IMPORT_NAMES.match(text, start) if start >= done else None
        if m is not None:
            yield m
            done = max(m.end(), start + 1)  # finditer goes on from a match's end
        pos = text.find("import", max(pos + 6, done))


def string_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every triple-quoted string (docstrings), in order."""
    return list(iter_string_spans(text))


def iter_string_spans(text: str) -> Iterator[tuple[int, int]]:
    """:func:`string_spans` one at a time, as far as they are asked for."""
    if '"""' not in text and "'''" not in text:
        return
    pos = 0
    double = single = -2  # the next of each quote at or after pos (-1: none left)
    while True:
        # each is searched again only once passed (a search for a quote the module has no
        # more of runs to its end: it did at each docstring, 17 ms for fastapi's routing.py)
        if -1 != double < pos:
            double = text.find('"""', pos)
        if -1 != single < pos:
            single = text.find("'''", pos)
        if double < 0 and single < 0:
            return
        start = double if single < 0 or 0 <= double < single else single
        head = text[text.rfind("\n", 0, start) + 1 : start]
        if ("#" in head or '"' in head or "'" in head) and not_code_at_end(head):
            pos = start + 1  # in a one-line string or a comment (``TRIPLE = '"""'``)
            continue
        end = text.find(text[start : start + 3], start + 3)
        if end < 0:
            return  # an unclosed one is no span
        yield start, end + 3
        pos = end + 3


def in_spans(spans: list[tuple[int, int]], pos: int) -> bool:
    i = bisect.bisect_right(spans, (pos, 1 << 62)) - 1
    return i >= 0 and spans[i][0] < pos < spans[i][1]


TYPE_CHECKING_IF = re.compile(r"if[ \t(]+(?:\w+\.)?TYPE_CHECKING[ \t)]*:")


def _under_type_checking(text: str, tops: list[int], pos: int) -> bool:
    """Whether the indented line at ``pos`` is in a module-level ``if TYPE_CHECKING:``
    block (``tops``: where the lines that start with code start): a stub for the type
    checker, whose ``else:`` holds what runs (Sphinx's ``class ALL: ...`` beside
    ``ALL = _All('ALL')``)."""
    i = bisect.bisect_left(tops, pos) - 1
    return i >= 0 and TYPE_CHECKING_IF.match(text, tops[i]) is not None


def _in_module_block(text: str, tops: list[int], pos: int) -> bool:
    """Whether the line at ``pos`` is in the body of a module-level ``if``/``try``/``with``
    (the last line above it that starts with code opens one)."""
    i = bisect.bisect_left(tops, pos) - 1
    top = tops[i] if i >= 0 else 0
    if top >= pos:
        return False
    end = text.find("\n", top)
    return MODULE_BLOCK.match(text, top, end if end >= 0 else len(text)) is not None


def _owner(
    headers: list[tuple[int, int, str, str]], starts: list[int], indent: int, pos: int
) -> str | None:
    """The class whose body holds the indented assignment at ``pos``: the last header before
    it with a smaller indent, when that header is a class (not a def)."""
    i = bisect.bisect_left(starts, pos) - 1
    while i >= 0:
        _, h_indent, kind, qual = headers[i]
        if h_indent < indent:
            return qual if kind == "class" and qual else None
        i -= 1
    return None


def _decorators(text: str, start: int) -> tuple[str, ...]:
    """The decorators right above a def or class starting at ``start``."""

    def above() -> Iterator[str]:
        end = start
        while end > 0:
            begin = text.rfind("\n", 0, end - 1) + 1
            yield text[begin : end - 1] if end - 1 >= begin else ""
            end = begin

    line_end = text.find("\n", start)
    head = text[start : line_end if line_end >= 0 else None]
    return decorators_above(above(), len(head) - len(head.lstrip()))


_LITERALS = re.compile(r"""[rbfuRBFU]{0,2}(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')""")
_DROP_OPENING = str.maketrans("", "", "([{")
_DROP_CLOSING = str.maketrans("", "", ")]}")


def indent_of(line: str) -> int:
    """The characters a line is indented by."""
    return len(line) - len(line.lstrip())


def decorators_above(lines: Iterable[str], indent: int) -> tuple[str, ...]:
    """The decorators of a def or class at ``indent``, from the lines above it (nearest
    first): each ``@`` line at that indent, a decorator call over several lines included
    (``@click.option(\n    "-s",\n)``: its first line, without the ``@``)."""
    found: list[str] = []
    depth = 0  # brackets closed below and not yet opened, walking up
    for n, line in enumerate(lines):
        if n > 60:
            break
        code = _LITERALS.sub("", line.split("#", 1)[0] if "#" in line else line)
        opened = len(code) - len(code.translate(_DROP_OPENING))
        closed = len(code) - len(code.translate(_DROP_CLOSING))
        depth += closed - opened
        stripped = line.strip()
        if depth <= 0 and stripped.startswith("@") and len(line) - len(line.lstrip()) == indent:
            # (without a comment after it: pydantic's ``@overload  # `default` argument
            # set, …`` read as no overload, its stub as the API)
            written = stripped[1:]
            found.append(
                (code_of(written, comments_only=True) if "#" in written else written).strip()
            )
            depth = 0
        elif depth <= 0:
            break  # not a decorator, nor inside one's call
    return tuple(reversed(found))


def api_of(text: str, module: str, is_package: bool = False) -> ModuleApi:
    """The module's API: the full ``ast`` model for package ``__init__`` files and modules
    with ``__all__`` or a module ``__getattr__`` (what they export matters), the light model
    for the rest."""
    if is_package or _NEEDS_AST.search("\n" + text) or other_getattr(text):
        return module_api(text, module, is_package)
    return _light_cached(text)


# ``__all__ = [`` (or ``(``, or annotated) at the first column; then the tokens of a list
# of plain strings: each string, comma, blank and comment
_ALL_START = re.compile(r"^__all__[ \t]*(?::[^=\n]*)?=[ \t]*([\[(])", re.M)
_ALL_TOKEN = re.compile(r"""("[^"\\\n]*"|'[^'\\\n]*')|(,)|[ \t\r\n]+|#[^\n]*""")
_ALL_AFTER = re.compile(r"[ \t]*(?:#[^\n]*)?(?:\r?\n|$)")


def exported_names(text: str, module: str, is_package: bool = False) -> set[str] | None:
    """A module's ``__all__`` as :func:`api_of` reads it (None: it has none): without
    parsing the module where :func:`listed_all` reads it (each of openai-python's generated
    modules lists its names so: one parse of a module of 240 KB only to read them was about
    2 ms). A module that does not parse still lists them here (the parse gives it none)."""
    if "__all__" not in text:
        return None
    listed = listed_all(text)
    return listed if listed is not None else api_of(text, module, is_package).all


def listed_all(text: str) -> set[str] | None:
    """A module's ``__all__`` where it is written once, at the first column and outside a
    docstring, as one list or tuple of plain strings separated by commas; None where it
    is written otherwise, or not at all."""
    if text.count("__all__") != 1 or (m := _ALL_START.search(text)) is None:
        return None
    if not text.isascii() and unicodedata.normalize("NFKC", text).count("__all__") != 1:
        return None  # (``__ａll__`` is ``__all__`` to Python)
    if not _at_top(text, m.start()):
        return None
    return _listed_strings(text, m.end(), "]" if m.group(1) == "[" else ")")


def _at_top(text: str, at: int) -> bool:
    """Whether the line starting at offset ``at`` starts a top-level statement: not inside a
    string or a comment, nor a bracket left open above it, nor a line continued by a
    backslash (the code above it read without its strings and comments)."""
    if in_spans(not_code_spans(text), at):
        return False
    code = code_of(text[:at])  # (no string or comment runs past ``at``: the same spans)
    depth = sum(code.count(c) for c in "([{") - sum(code.count(c) for c in ")]}")
    return depth == 0 and not code.rstrip("\r\n").endswith("\\")


def _listed_strings(text: str, pos: int, close: str) -> set[str] | None:
    """The strings of the bracket opened before ``pos``, when it holds only plain strings
    separated by commas up to ``close`` and its line ends there; else None."""
    names: set[str] = set()
    commas = strings = 0
    pending = False  # a string not yet followed by its comma
    size = len(text)
    while pos < size:
        if text[pos] == close:
            after = _ALL_AFTER.match(text, pos + 1)
            if after is None or (close == ")" and strings == 1 and not commas):
                return None  # more on its line; or ("a"), a string, not a tuple
            return names
        token = _ALL_TOKEN.match(text, pos)
        if token is None or token.end() == pos:
            return None
        if token.group(1) is not None:
            if pending:
                return None  # "a" "b": one string, concatenated
            names.add(token.group(1)[1:-1])
            strings += 1
            pending = True
        elif token.group(2) is not None:
            if not pending:
                return None  # a comma with no string before it
            commas += 1
            pending = False
        pos = token.end()
    return None


@lru_cache(maxsize=2048)
def _light_cached(text: str) -> ModuleApi:
    try:
        return light_api(text)
    except RecursionError:  # pragma: no cover - regexes do not recurse; kept for safety
        return ModuleApi(ok=False)


# ---- comparison ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Breakage:
    """One API change between two versions of a module: ``qualname`` of the object, the
    parameter when it is about one, what happened, and old → new as source text."""

    qualname: str
    change: str  # "removed", "param_removed", "now_required", "default_changed", "renamed",
    #              "keyword_only", "moved", "bases", "kind"
    param: str | None = None
    old: str = ""
    new: str = ""
    line: int | None = None  # where, in the version that shows it (after; before if gone)
    position: int | None = None  # a parameter's place among positional arguments (no self)
    more: int = 0  # "moved": the later parameters that shift with it (one item for them all)
    # "default_changed": old and new as the source writes them, where known (for people;
    # ``old``/``new`` are as ``ast.unparse`` writes them, what the rules compare)
    shown: tuple[str, str] | None = field(default=None, compare=False)


def private_name(qualname: str) -> bool:
    """Whether a dotted name has a private part (``_helper``, ``Cls._method``,
    ``_Cls.method``; a dunder is not private): never reported."""
    return any(
        p.startswith("_") and not (p.startswith("__") and p.endswith("__"))
        for p in qualname.split(".")
    )


def compare(old: ModuleApi, new: ModuleApi, new_text: str = "") -> list[Breakage]:
    """What a user of ``old`` can no longer do with ``new`` (private names left out);
    ``new_text``: the new version's source (its aliases of renamed classes)."""
    pairs = {qual: (obj, new.objects.get(qual)) for qual, obj in old.objects.items()}
    return compare_objects(
        pairs,
        new.provides,
        lambda parent: parent in new.objects or parent not in old.objects,
        lambda name: aliases_in(new_text).get(name),  # (read only for a class turned a name)
        new.objects.get,
        lambda: (old.imports, new.imports),
    )


# ``Old = New`` / ``Old: TypeAlias = New``: a name kept for another (a renamed class)
_ALIAS = re.compile(
    r"^([A-Za-z_]\w*)[ \t]*(?::[ \t]*(?:typing(?:_extensions)?\.)?TypeAlias[ \t]*)?="
    r"[ \t]*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)[ \t]*(?:#[^\n]*)?$",
    re.M,
)


@lru_cache(maxsize=64)
def aliases_in(text: str) -> dict[str, str]:
    """The module-level names ``text`` binds to another name (``Old = New``, ``Old:
    TypeAlias = New``, ``name = module.name``), with that name: openai-python kept
    ``WebsocketConnectionOptions`` for the class renamed ``WebSocketConnectionOptions``."""
    return dict(_ALIAS.findall(text)) if "=" in text else {}


def _bound_function(
    qual: str,
    before: Obj,
    target: str | None,
    find_new: Callable[[str], Obj | None],
    imports: Callable[[], tuple[Mapping[str, str], Mapping[str, str]]],
) -> list[Breakage] | None:
    """Where a module's function ``qual`` is now a name bound to another function — a def
    of the module (``old = new``), or a function of a module of its package by its dotted
    name (distutils' ``get_platform = detect.get_platform``, moved and kept "for backward
    compatibility", ``detect`` imported from ``.compilers.platform``): what callers lose,
    compared with the def where it is the module's (nothing known of another module's:
    none); None for any other name (``sys.platform``, ``_v.__version__``, a class's
    attribute, a name not written as a function's: ``settings.DEFAULTS``, ``SomeClass``)."""
    if target is None:
        return None
    if "." in target:
        head, _, last = target.partition(".")
        if "." in last or last.startswith("__") or not last.lstrip("_")[:1].islower():
            return None  # (a function's name: ``get_platform``, ``_target_ver``)
        bound = imports()[1].get(head)  # (an import of the package's own module)
        return [] if bound is not None and "." in bound else None
    new = find_new(target)
    if new is None or new.kind != "function":
        return None
    old_sig, new_sig = before.signature(), new.signature()
    if old_sig is None or new_sig is None:
        return []
    return _param_changes(qual, old_sig[0], new_sig[0], new.line)


_TYPING_BASES = frozenset({"Generic", "Protocol", "object"})


_CLI_DECORATORS = frozenset({"command", "group", "option", "argument", "callback"})


def _cli_command(obj: Obj) -> bool:
    """A click or typer command (``@cli.command()``, ``@click.option(...)``,
    ``@app.callback()``): its parameters are the command line's options, filled by the
    framework, not a Python signature anyone calls (options have their own kind)."""
    called = (d.split("(")[0] for d in obj.decorators)
    return any("." in c and c.rsplit(".", 1)[-1] in _CLI_DECORATORS for c in called)


# a call that declares a dataclass-like field: pydantic's Field, dataclasses' and attrs'
# field, attrs' ib/attrib, msgspec's field
_FIELD_CALLS = frozenset({"Field", "field", "ib", "attrib"})


def _call_name(node: ast.Call) -> str:
    """The name a call calls: ``field`` for ``field(…)`` and ``dataclasses.field(…)``."""
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


@lru_cache(maxsize=1024)
def field_default(value: str, written: bool = False) -> str | None:
    """The default a dataclass-like field's value (as written) gives its constructor
    parameter: the value itself, or, for a call that declares the field, its ``default`` (a
    pydantic ``Field``'s first argument too) or its ``default_factory=…``/``factory=…``;
    None when the field is required: no value, ``Field(...)``, or a declaration with no
    default (``Field(description="…")``, ``field()``, ``attr.ib()``). A field's
    description, alias or bounds are no default: ``Field(5, description="a")`` and
    ``Field(default=5)`` give the same one. ``written``: the default as ``value`` writes it
    (``Field(default="")``: ``""``), for people."""
    if not value:
        return None
    try:
        node = ast.parse(value, mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return value
    if isinstance(node, ast.Tuple) and len(node.elts) == 1 and isinstance(node.elts[0], ast.Call):
        node = node.elts[0]  # a declaration in a stray tuple (peft's ``nblocks: int = (field(
        # default=1, …),)``, a trailing comma): the default it says, not the tuple
        if _call_name(node) not in _FIELD_CALLS:
            return value
    if not isinstance(node, ast.Call):
        return value
    name = _call_name(node)
    if name not in _FIELD_CALLS:
        return value
    lines = value.split("\n") if written else None

    def text(node: ast.expr) -> str | None:
        return _segment(lines, node) or _src(node)

    for kw in node.keywords:
        if kw.arg == "default":
            return None if _is_ellipsis(kw.value) else text(kw.value)
        if kw.arg in ("default_factory", "factory"):
            return f"{kw.arg}={text(kw.value)}"
    if name in ("Field", "ib", "attrib") and node.args:  # pydantic's and attrs': (default, …)
        return None if _is_ellipsis(node.args[0]) else text(node.args[0])
    return None


def _is_ellipsis(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is Ellipsis


def _same_default_text(old: str, new: str, utc: Callable[[], frozenset[str]] = frozenset) -> bool:
    """Whether two defaults as written are the same: the same text, the same plain value, or
    the same expression but for a spelling of ``datetime``'s UTC zone (``timezone.utc``,
    ``datetime.UTC``, or a name ``utc()`` gives: those the new module imports as
    ``datetime.UTC``): litestar's ``Token.iat`` ``default_factory=lambda: …
    datetime.now(timezone.utc)`` made ``datetime.now(UTC)`` read as a default changed."""
    if old == new or same_plain_value(old, new):
        return True
    if "utc" not in old.lower() or "utc" not in new.lower():
        return False
    factory = re.compile(r"(?:default_factory|factory)=")  # (a field's, as field_default says)
    if (head := factory.match(old)) is not None:
        if not new.startswith(head.group(0)):
            return False
        old, new = old[head.end() :], new[head.end() :]
    names = utc()
    first = _utc_read(old, names)
    return first is not None and first == _utc_read(new, names)


_UTC_SPELLED = frozenset({"timezone.utc", "datetime.timezone.utc", "datetime.UTC"})


def _utc_read(text: str, names: frozenset[str]) -> str | None:
    """The expression ``text`` with each spelling of the UTC zone as one name (not in a
    string: ``"Etc/UTC"`` is a string still); None where it does not parse."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None

    class _Zone(ast.NodeTransformer):
        def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
            if ast.unparse(node) in _UTC_SPELLED:
                return ast.Name(id="\0UTC", ctx=ast.Load())
            return self.generic_visit(node)

        def visit_Name(self, node: ast.Name) -> ast.AST:
            return ast.Name(id="\0UTC", ctx=ast.Load()) if node.id in names else node

    try:
        return ast.dump(_Zone().visit(tree))
    except RecursionError:
        return None


def same_plain_value(a: str, b: str) -> bool:
    """Whether two values as written are the same plain value to Python (``2 ** 16``,
    ``2**16``; ``'utf-8'``, ``"utf-8"``; ``1_000``, ``1000``; ``256 * 1024``, ``2**18``):
    literals, containers of them and arithmetic on them only (two ``object()`` sentinels
    are written alike and are two values; ``1`` is not ``1.0``: ``range(n)`` would break,
    nor is ``True`` ``1``)."""
    first, second = plain_tree(a), plain_tree(b)
    if first is None or second is None:
        return False
    try:
        if ast.dump(first) == ast.dump(second):
            return True
        x, y = _number(first.body), _number(second.body)
    except RecursionError:  # (a sum of a thousand literals)
        return False
    return x is not None and y is not None and type(x) is type(y) and x == y


def plain_tree(text: str) -> ast.Expression | None:
    """The expression ``text`` when it is a plain value (literals, containers of them,
    arithmetic on them); None for anything else (a name, a call, an attribute)."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    return tree if all(isinstance(n, _PLAIN_NODES) for n in ast.walk(tree)) else None


_ARITHMETIC: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
    ast.LShift: operator.lshift, ast.Div: operator.truediv,
}  # fmt: skip


def _number(node: ast.expr) -> int | float | None:
    """The number a plain arithmetic expression of number literals makes (``256 * 1024``,
    ``-2**31``, ``1 << 20``); None for anything else, and for what would be huge (an
    exponent or a shift over 256) or fail (a division by zero)."""
    if isinstance(node, ast.Constant):
        value = node.value
        return value if isinstance(value, int | float) and not isinstance(value, bool) else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = _number(node.operand)
        if inner is None:
            return None
        return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
        left, right = _number(node.left), _number(node.right)
        if left is None or right is None:
            return None
        if isinstance(node.op, ast.Pow | ast.LShift) and not (
            isinstance(right, int) and 0 <= right <= 256 and abs(left) < 2**64
        ):
            return None
        if isinstance(node.op, ast.LShift) and not isinstance(left, int):
            return None  # (``1.5 << 2`` raises)
        try:
            result = _ARITHMETIC[type(node.op)](left, right)
        except (ArithmeticError, ValueError, TypeError):
            return None
        return result if isinstance(result, int | float) else None
    return None


# what a plain value is made of: constants, containers of them, arithmetic on them
_PLAIN_NODES = (
    ast.Expression, ast.Constant, ast.Tuple, ast.List, ast.Set, ast.Dict, ast.BinOp,
    ast.UnaryOp, ast.operator, ast.unaryop, ast.expr_context,
)  # fmt: skip


def bases_dropped(
    old: tuple[str, ...],
    new: tuple[str, ...],
    old_imports: Mapping[str, str] | None = None,
    new_imports: Mapping[str, str] | None = None,
) -> bool:
    """Whether a class no longer derives from one of its bases: a class users meet, or
    ``Generic``/``Protocol`` when no subscripted base keeps it generic (``Box[int]`` would
    raise). ``old_imports``/``new_imports``: the names each version's imports bind, where a
    base spelled through a module alias is read (werkzeug's ``Collection`` ->
    ``cabc.Collection[str]``, ``import collections.abc as cabc``)."""
    if _base_classes(old, old_imports) - _base_classes(new, new_imports):
        return True
    return generic_dropped(old, new)


# a module-level binding ``Name = value`` on a line of its own (its value read below)
_BINDING = re.compile(r"^([ \t]*)([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=[ \t]*([^=\n][^\n]*)$", re.M)
_CLASS_VALUE = re.compile(r"((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*)[ \t]*(?:\[[^\n]*\])?[ \t]*(?:#.*)?")


@lru_cache(maxsize=64)
def class_aliases(text: str) -> dict[str, str]:
    """The names a module binds to a class at run time, at its top or in a top-level
    ``if``/``else``/``try``/``with`` (not ``if TYPE_CHECKING:``), by the class's name without
    its type arguments and typing module: ``IterableBase = Iterable`` under the ``else:``
    of ``if TYPE_CHECKING: IterableBase = Iterable[Morsel[str]]`` (aiohttp's
    ``AbstractCookieJar(Sized, IterableBase)``) -> ``{"IterableBase": "Iterable"}``. A name
    bound twice to different things (``object`` in an ``else:``, a call, ``None``) is
    none of them."""
    tops = [m.start() + 1 for m in TOP_LINE.finditer(text)]
    found: dict[str, str | None] = {}
    for m in _BINDING.finditer(text):
        indent, name, value = m.group(1), m.group(2), m.group(3)
        if indent and not _in_module_block(text, tops, m.start()):
            continue  # (a def's or a class's body, or ``if TYPE_CHECKING:``)
        cls = _CLASS_VALUE.fullmatch(value.strip())
        read = _TYPING_MODULE.sub("", cls.group(1)) if cls is not None else None
        if read in ("None", "True", "False"):
            read = None
        found[name] = read if found.get(name, read) == read else None
    for name in imports_in(text).keys() & found.keys():
        found[name] = None  # (bound by an import too: ``try: from _speedups import Base``)
    return {name: value for name, value in found.items() if value is not None}


def generic_dropped(old: Iterable[str], new: Iterable[str]) -> bool:
    """Whether a class drops ``Generic``/``Protocol`` with no subscripted base left to keep
    it generic (``Box[int]`` would raise)."""
    typing_base = [b for b in old if plain_base(b) in ("Generic", "Protocol")]
    return bool(typing_base) and not any("[" in b or plain_base(b) in _TYPING_BASES for b in new)


def plain_base(base: str) -> str:
    """A base's class name: without its module and type arguments."""
    return base.split("[", 1)[0].strip().rsplit(".", 1)[-1]


def _base_classes(bases: tuple[str, ...], imports: Mapping[str, str] | None = None) -> set[str]:
    """The classes a class derives from, as its users meet them: without type arguments
    (``ParamType[str]`` is ``ParamType``), without ``Generic``/``Protocol``/``object``,
    which give instances nothing (``(ParamType, Generic[T])`` -> ``(ParamType[T])`` changes
    nothing at run time), and without the modules that give the same classes under their
    own names (starlette's ``typing.Mapping[str, str]`` -> ``Mapping[str, str]`` from
    ``collections.abc``, ``typing.NamedTuple`` -> ``NamedTuple``: the same bases; typer's
    ``click.Context`` -> ``_click.Context``, a vendored copy, is another class); a name
    ``imports`` binds to one of those modules is read as it (``cabc.Mapping``)."""
    classes = {
        _TYPING_MODULE.sub("", _unaliased(base.split("[", 1)[0].strip(), imports or {}))
        for base in bases
        if plain_base(base) not in _TYPING_BASES and "=" not in base.split("[", 1)[0]
    }
    return {_BUILTIN_ALIASES.get(c, c) for c in classes}


# Python's other names of its own classes (uvicorn's ``ClientDisconnected(IOError)`` ->
# ``(OSError)``: ``IOError is OSError``)
_BUILTIN_ALIASES = {"IOError": "OSError", "EnvironmentError": "OSError"}


def _unaliased(base: str, imports: Mapping[str, str]) -> str:
    """``base`` with its first name spelled out where an import binds it to a module of
    the standard library's classes (``cabc.Mapping`` -> ``collections.abc.Mapping``)."""
    head, dot, rest = base.partition(".")
    target = imports.get(head)
    if target is None or not _TYPING_MODULE.match(target + ".") or target.split(".")[0] == head:
        return base  # (``import collections.abc`` binds ``collections``: spelled out already)
    return f"{target}{dot}{rest}"


# modules that give classes of the standard library under their own names
_TYPING_MODULES = r"typing|typing_extensions|collections\.abc"
_TYPING_MODULE = re.compile(rf"^(?:{_TYPING_MODULES}|collections)\.")


# a field's default made by a factory of an empty container
_EMPTY_FACTORY = re.compile(
    r"default_factory=(?:list|dict|set|tuple|frozenset|lambda:[ \t]*(?:\[\]|\{\}|\(\)|set\(\)))"
)
# the methods a dataclass-like class is given, and the option that turns each off
_GENERATED = {"__init__": "init", "__repr__": "repr", "__eq__": "eq"}


def _generated(
    qual: str, before: Obj, find_new: Callable[[str], Obj | None]
) -> list[Breakage] | None:
    """Where the method ``qual`` (``before``: as the class defined it) is gone because the
    class is dataclass-like now, which makes it (setuptools' ``Extension`` made a
    dataclass: its ``__init__`` and ``__repr__`` read as removed): for ``__init__``, its
    parameters compared with the fields that take them — in the order they are written,
    with their defaults, by keyword only where the class says so (``kw_only=True``, a
    pydantic model) — an old one that no field takes, or one that only takes a field with
    ``init=False``, removed; None where nothing makes the method, or where its fields are
    not all the class's own (a base that is no model may give some: the old reading)."""
    parent, _, name = qual.rpartition(".")
    option = _GENERATED.get(name)
    cls = find_new(parent) if option is not None and parent else None
    if cls is None or cls.kind != "class" or not has_fields(cls):
        return None
    decorated = " ".join(cls.decorators)
    if re.search(rf"\b{option}[ \t]*=[ \t]*False\b|\*\*", decorated):
        return None  # (``@dataclass(repr=False)``, or options not written out: not made)
    if name != "__init__":
        return []
    class_sig, old_sig = cls.signature(), before.signature()
    if class_sig is None or old_sig is None:
        return None
    bases = [plain_base(b) for b in class_sig[1]]
    if any(not _DATACLASS_LIKE.search(b) and b not in _TYPING_BASES for b in bases):
        return None  # (a base may give fields: not read)
    keyword_only = re.search(r"\bkw_only[ \t]*=[ \t]*True\b", decorated) is not None or any(
        re.search(r"(?:^|\.)(BaseModel|BaseSettings)$", b) for b in bases
    )
    taken: list[tuple[int, Param]] = []
    for param in old_sig[0]:
        if param.kind in ("varargs", "varkw") or param.name in ("self", "cls"):
            continue
        field = find_new(f"{parent}.{param.name}")
        value = field.value or "" if field is not None else ""
        if field is None or not field.field or re.search(r"\binit[ \t]*=[ \t]*False\b", value):
            continue  # not taken now: removed, by the comparison below
        kind = "kwonly" if keyword_only or param.kind == "kwonly" else "pos"
        default = field_default(value)
        if param.default == "None" and default and _EMPTY_FACTORY.fullmatch(default):
            default = "None"  # (``x=None`` then ``self.x = x or []``: the same empty value)
        taken.append((field.line, Param(param.name, kind, default)))
    made = tuple(p for _, p in sorted(taken, key=lambda t: t[0]))
    old = tuple(p for p in old_sig[0] if p.kind not in ("varargs", "varkw"))
    return _param_changes(qual, old, made, cls.line)


def compare_objects(
    pairs: Mapping[str, tuple[Obj | None, Obj | None]],
    provides: Callable[[str], bool],
    parent_kept: Callable[[str], bool],
    alias_of: Callable[[str], str | None] = lambda name: None,
    find_new: Callable[[str], Obj | None] = lambda qual: None,
    imports: Callable[[], tuple[Mapping[str, str], Mapping[str, str]]] = lambda: ({}, {}),
) -> list[Breakage]:
    """The breakages of each object, given as (before, after) by qualname (None: absent);
    ``provides(name)``: the module still offers a top-level name another way (an import, a
    ``__getattr__``); ``parent_kept(qualname)``: the class holding a member still exists;
    ``alias_of(name)``: the name the new version binds a top-level name to (``Old = New``);
    ``find_new(qualname)``: an object of the new version; ``imports()``: the names each
    version's imports bind (before, after; asked only of bases spelled otherwise)."""
    out: list[Breakage] = []
    renamed: dict[str, str] = {}  # a class renamed, its old name kept as an alias of it

    @cache
    def utc() -> frozenset[str]:  # the names the new version imports as ``datetime.UTC``
        return frozenset(n for n, target in imports()[1].items() if target == "datetime.UTC")

    for qual, (before, after) in pairs.items():
        if (
            before is not None and after is not None and "." not in qual
            and before.kind == "class" and after.kind == "attribute"
            and (target := alias_of(qual)) is not None
            and (cls := find_new(target)) is not None and cls.kind == "class"
        ):  # fmt: skip
            renamed[qual] = target
    for qual, (before, after) in pairs.items():
        if before is None or private_name(qual) or before.typing_only or qual in renamed:
            continue
        parent = qual.rpartition(".")[0]
        if parent in renamed:  # a member of the class under its new name
            after = find_new(renamed[parent] + qual[len(parent) :])
        elif parent and not parent_kept(parent):
            continue  # its class is gone: the class is the item
        if after is None:
            if not parent and provides(qual):
                continue  # moved, and still imported here (a re-export) or served lazily
            if parent and qual.rpartition(".")[2] == "__del__":
                continue  # a finalizer: no user calls it (click's StreamMixer.__del__)
            generated = _generated(qual, before, find_new)
            if generated is not None:
                out.extend(generated)  # the class made dataclass-like makes the method
                continue
            out.append(Breakage(qual, "removed", line=before.line))
            continue
        if before.kind == "function" and after.kind == "class" and before.for_effect():
            init = find_new(f"{qual}.__init__")
            old_sig = before.signature()
            new_sig = init.signature() if init is not None and init.kind == "function" else None
            if old_sig is not None and new_sig is not None:  # called as it was, for its
                # effect: its calls go to the class's __init__ (huggingface_hub's
                # ``disable_progress_bars(…) -> None`` made a class, a context manager too;
                # an async def, or one whose value callers use, still changes kind)
                out.extend(_param_changes(qual, old_sig[0], new_sig[0], after.line, utc))
                continue
        if before.kind != after.kind and not (
            before.kind == "attribute" and after.kind == "attribute"
        ):
            bound = (
                _bound_function(qual, before, alias_of(qual), find_new, imports)
                if not parent and before.kind == "function" and after.kind == "attribute"
                else None
            )
            if bound is not None:
                out.extend(bound)  # still a function, by another name
            elif {before.kind, after.kind} != {"function", "attribute"} or not parent:
                out.append(Breakage(qual, "kind", old=before.kind, new=after.kind, line=after.line))
            continue
        if before.header and before.header == after.header:
            continue  # the same signature, written the same way
        old_sig, new_sig = before.signature(), after.signature()
        if old_sig is None or new_sig is None:
            continue  # a header that does not read: nothing known of its change
        if before.kind == "class":
            old_bases, new_bases = old_sig[1], new_sig[1]
            if bases_dropped(old_bases, new_bases) and bases_dropped(
                old_bases, new_bases, *imports()
            ):
                out.append(
                    Breakage(
                        qual, "bases", old=f"({', '.join(old_bases)})",
                        new=f"({', '.join(new_bases)})", line=after.line,
                    )
                )  # fmt: skip
        elif before.kind == "function":
            if not (_cli_command(before) or _cli_command(after)):
                out.extend(_param_changes(qual, old_sig[0], new_sig[0], after.line, utc))
        elif before.field and after.field:
            old_default = field_default(before.value or "")
            new_default = field_default(after.value or "")
            # (a required field given a default breaks no caller)
            if old_default is not None and new_default is None:  # its default taken away
                out.append(Breakage(qual, "now_required", old=old_default, line=after.line))
            elif old_default is not None and not _same_default_text(
                old_default, new_default or "", utc
            ):
                shown = None  # (as the module writes them: ``""``, not ``''``)
                if before.written or after.written:
                    was = field_default(before.written or before.value or "", True)
                    now = field_default(after.written or after.value or "", True)
                    shown = (
                        (was, now or "") if was is not None and "\n" not in f"{was}{now}" else None
                    )
                out.append(
                    Breakage(qual, "default_changed", old=old_default, new=new_default or "",
                             line=after.line, shown=shown)
                )  # fmt: skip
    return out


# what a package's __init__ imports to annotate its own code, not to offer it: starlette's
# "Use `__future__.annotations`" dropped ``from typing import Type`` (starlette.middleware.Type)
_TYPING_IMPORT = re.compile(rf"(?:{_TYPING_MODULES}|__future__)(?:\.|$)")


def typing_import(target: str) -> bool:
    """Whether an import's dotted ``target`` is from ``typing``, ``typing_extensions``,
    ``collections.abc`` or ``__future__``: what a module annotates with, no API of its own."""
    return _TYPING_IMPORT.match(target) is not None


def dropped_exports(
    old: ModuleApi,
    new: ModuleApi,
    package_init: bool,
    text: str = "",
    module: str = "",
    is_module: Callable[[str], bool] | None = None,
) -> list[Breakage]:
    """Imported names the module exported (``__all__``, or any public name a package
    ``__init__.py`` imports from a module, but the typing helpers it annotates with, what
    it takes from the standard library, and what it takes to use itself from another
    project than its own or, a module, from another package of its own: :func:`_own_use`)
    that it no longer provides: a dropped re-export, at its import line. ``text``: the old
    version's; ``module``: its dotted name; ``is_module``: whether a dotted name of the
    project is a module of it."""
    # (a module bound by ``import warnings`` is no name the package offers: scipy's deleted
    # ``scipy.misc`` "removed" ``scipy.misc.warnings``)
    exported = old.all if old.all is not None else (
        {
            n for n, target in old.imports.items()
            if not n.startswith("_") and not typing_import(target) and "." in target
        } if package_init else set()
    )  # fmt: skip
    found = [
        Breakage(name, "removed", line=old.import_lines.get(name))
        for name in sorted(exported)
        if name in old.imports
        and name not in old.typing_imports
        and name not in old.objects
        and not new.provides(name)
    ]
    if old.all is None and found:
        mine = _own_use(old, [b.qualname for b in found], text, module, is_module)
        found = [b for b in found if b.qualname not in mine]
    return found


_STDLIB = frozenset(sys.stdlib_module_names)


def _own_use(
    old: ModuleApi,
    names: list[str],
    text: str,
    module: str,
    is_module: Callable[[str], bool] | None,
) -> set[str]:
    """Which of ``names``, imported by the package ``__init__`` of ``module`` without
    ``__all__``, are its own use and no re-export: what it takes from the standard library
    (Sphinx's ``from os import path``: no one imports ``sphinx.path``), and what it uses
    itself of another project (``from docutils.nodes import Element`` for its annotations;
    Flask's ``from markupsafe import escape``, used nowhere in it, offered ``flask.escape``)
    or, a module, of another package of its own (diffusers' ``from ..utils import logging``
    in ``diffusers.modular_pipelines``, for its logger: no one imports
    ``diffusers.modular_pipelines.logging``; its own package's classes and functions are
    re-exports, and Sphinx restored one). ``from m import X as X`` re-exports ``X`` all the
    same."""
    home = module.split(".")[0]
    lines = text.split("\n")
    foreign = {}  # name -> whether it comes from the standard library
    for name in names:
        target = old.imports[name]
        top = target.split(".")[0]
        if top == home and not (
            is_module is not None and not target.startswith(module + ".") and is_module(target)
        ):
            continue  # its own package's name: offered
        at = old.import_lines.get(name)
        statement = (  # (an import over several lines: all of it)
            "\n".join(lines[at - 1 : statement_end(lines, at - 1) + 1])
            if at is not None and 0 < at <= len(lines)
            else ""
        )
        if not re.search(rf"\b{re.escape(name)}\s+as\s+{re.escape(name)}\b", statement):
            foreign[name] = top != home and top in _STDLIB
    if not any(not stdlib for stdlib in foreign.values()):
        return set(foreign)
    tree = _parsed(text)
    if tree is None:  # (it parsed as a model: it does)
        return {n for n, stdlib in foreign.items() if stdlib}
    used: set[str] = set()
    params: set[str] = set()  # (a parameter of that name is no use of the import: Flask's
    for node in ast.walk(tree):  # ``def render(text, escape=True)``)
        if isinstance(node, ast.Name):
            used.add(node.id)
        elif isinstance(node, ast.arg):
            params.add(node.arg)
        for note in (getattr(node, "annotation", None), getattr(node, "returns", None)):
            for part in ast.walk(note) if isinstance(note, ast.expr) else ():
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    used.update(re.findall(r"[A-Za-z_]\w*", part.value))  # ``x: "Element"``
    return {n for n, stdlib in foreign.items() if stdlib or (n in used and n not in params)}


class _Taken(NamedTuple):
    positions: frozenset[int]  # where a new positional parameter takes an old one's place
    star: bool  # the old ``*args`` is such a place: it was replaced by named parameters


def _taken_positions(old: tuple[Param, ...], new: tuple[Param, ...]) -> _Taken:
    """The positions (self/cls not counted) where a new positional parameter is what
    callers passed before: a private-named or positional-only parameter's (werkzeug's
    ``add(self, _key, _value)`` -> ``add(self, key, value, /)``: no caller names ``_key``;
    xarray's ``DataTree.from_dict(d, /, …)`` -> ``from_dict(data, …)``: none could name
    ``d``; not an optional one made required), or where a removed ``*args`` took them,
    when new positional-only parameters with defaults stand there now (``update(self,
    *args)`` -> ``update(self, arg=None, /)``: the calls that passed no argument or one
    still work; those that passed more break, and are not told)."""
    old_names = [p.name for p in passed_positionally(old)]
    new_params = passed_positionally(new)
    olds = {p.name: p for p in old}
    positions = {
        k for k, name in enumerate(old_names[: len(new_params)])
        if ((name.startswith("_") and not name.startswith("__")) or olds[name].kind == "posonly")
        and new_params[k].name not in olds
        and (olds[name].default is None or new_params[k].default is not None)
    }  # fmt: skip
    star = (
        any(p.kind == "varargs" for p in old)
        and not any(p.kind == "varargs" for p in new)
        and len(new_params) > len(old_names)
        and all(
            p.kind == "posonly" and p.default is not None and p.name not in olds
            for p in new_params[len(old_names) :]
        )
    )
    if star:
        positions |= set(range(len(old_names), len(new_params)))
    return _Taken(frozenset(positions), star)


def passed_positionally(params: tuple[Param, ...]) -> list[Param]:
    """The positional parameters a caller passes, in order (self/cls not counted)."""
    positional = [p for p in params if p.positional]
    return (
        positional[1:] if positional[:1] and positional[0].name in ("self", "cls") else positional
    )


def _positions(params: tuple[Param, ...]) -> dict[str, int]:
    """Where each positional parameter is passed by a caller (self/cls not counted)."""
    return {p.name: i for i, p in enumerate(passed_positionally(params))}


# dunders that users call with keywords too (``Reader(path=…)``): not called positionally
_CALLED_BY_NAME = frozenset(
    {"__init__", "__new__", "__call__", "__init_subclass__", "__class_getitem__", "__post_init__"}
)


def _param_changes(
    qual: str,
    old_params: tuple[Param, ...],
    new_params: tuple[Param, ...],
    line: int,
    utc: Callable[[], frozenset[str]] = frozenset,
) -> list[Breakage]:
    """The parameter changes of ``qual`` between its two signatures (the new one's header
    at ``line``; ``utc()``: the names the new module imports as ``datetime.UTC``)."""
    out: list[Breakage] = []
    old = {p.name: p for p in old_params}
    new = {p.name: p for p in new_params}
    at_old, at_new = _positions(old_params), _positions(new_params)
    removed = False
    for name in [n for n in (*old, *new) if n.startswith("_") or n in ("self", "cls")]:
        old.pop(name, None)  # private by convention (``__self``) or the instance itself
        new.pop(name, None)
    # a protocol method (``__exit__``) is called positionally: a new ``*args`` takes what it
    # had (not so for others: ``**kwargs`` often passes a removed name on to a call that
    # refuses it, as flask.json.dumps(app=…) did)
    method = qual.rsplit(".", 1)[-1]
    protocol = (
        method.startswith("__")
        and method not in _CALLED_BY_NAME
        and any(q.kind == "varargs" for q in new_params)
    )
    taken = _taken_positions(old_params, new_params)
    for name, p in old.items():
        if p.kind in ("varargs", "varkw"):
            if p.kind == "varargs" and taken.star:
                continue  # named now (werkzeug's ``update(*args)`` -> ``update(arg=None, /)``)
            if name not in new and not any(q.kind == p.kind for q in new_params):
                stars = "*" if p.kind == "varargs" else "**"
                out.append(Breakage(qual, "param_removed", param=f"{stars}{name}", line=line))
            continue
        if name not in new and protocol and p.positional:
            continue  # click's ``__exit__(self, exc_type, exc_value, tb)`` -> ``(self, *_)``
        if name not in new and p.kind == "posonly" and at_old.get(name) in taken.positions:
            continue  # renamed where callers pass it, who could not name it: xarray's
            # ``DataTree.from_dict(d, /, …)`` -> ``from_dict(data, …)``
        if name not in new:
            out.append(
                Breakage(qual, "param_removed", param=name, line=line, position=at_old.get(name))
            )
            removed = True
            continue
        q = new[name]
        if p.default is not None and q.default is None and q.kind not in ("varargs", "varkw"):
            out.append(
                Breakage(qual, "now_required", param=name, line=line, position=at_new.get(name))
            )
        elif (
            p.default is not None
            and q.default is not None
            and not _same_default_text(p.default, q.default, utc)
        ):
            out.append(
                Breakage(qual, "default_changed", param=name, old=p.default, new=q.default,
                         line=line, position=at_new.get(name),
                         shown=(p.shown or p.default, q.shown or q.default)
                         if p.shown or q.shown else None)
            )  # fmt: skip
        if p.positional and q.kind == "kwonly":
            out.append(
                Breakage(qual, "keyword_only", param=name, line=line, position=at_old.get(name))
            )
        elif p.positional and q.positional and not removed and at_old.get(name) != at_new.get(name):
            out.append(
                    Breakage(qual, "moved", param=name, old=str((at_old.get(name) or 0) + 1),
                             new=str((at_new.get(name) or 0) + 1), line=line,
                             position=at_old.get(name))
                )  # fmt: skip
    for name, q in new.items():
        if name not in old and at_new.get(name) in taken.positions:
            continue  # where a private parameter or ``*args`` was: callers pass it there
        if name not in old and q.default is None and q.kind in ("pos", "kwonly", "posonly"):
            out.append(
                Breakage(qual, "now_required", param=name, line=line, position=at_new.get(name))
            )
    return _renames(_one_shift(out))


def _one_shift(found: list[Breakage]) -> list[Breakage]:
    """The parameters that moved as one item: the first of them, with how many later ones
    shift too (httpx 0.28.0 inserted ``cert, trust_env`` after ``verify``: one change of
    ``HTTPTransport``, not eight). A caller passing that many positional arguments is the
    one affected, whichever of them it reaches."""
    moved = [b for b in found if b.change == "moved"]
    if len(moved) < 2:
        return found
    first = min(moved, key=lambda b: b.position if b.position is not None else 1 << 30)
    return [
        replace(first, more=len(moved) - 1) if b is first else b
        for b in found
        if b.change != "moved" or b is first
    ]


def _renames(found: list[Breakage]) -> list[Breakage]:
    """A removed parameter and a new required one at the same position are one rename
    (``add_source(multi_cmd)`` -> ``(group)``): only calls that name the old one break."""
    gone = {b.position: b for b in found if b.change == "param_removed" and b.position is not None}
    out: list[Breakage] = []
    renamed: set[int] = set()
    for b in found:
        if b.change == "now_required" and b.position in gone and b.param:
            old = gone[b.position]
            out.append(
                Breakage(b.qualname, "renamed", param=old.param, old=old.param or "",
                         new=b.param, line=b.line, position=b.position)
            )  # fmt: skip
            renamed.add(b.position)
    out += [
        b
        for b in found
        if b.position not in renamed or b.change not in ("param_removed", "now_required")
    ]
    return out
