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

import ast
import bisect
import builtins
import re
import sys
import textwrap
import weakref
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache, partial
from importlib import import_module
from typing import NamedTuple

from commitdigest.analysis.radar.kept import ByText
from commitdigest.analysis.radar.models import (
    ApiChange,
    CommitView,
    RadarKind,
    is_own_python,
    is_private_module,
    line_of,
)
from commitdigest.analysis.radar.patch import lines_of
from commitdigest.analysis.radar.public import (
    PublicSurface,
    import_target,
    module_name,
    public_surface,
)
from commitdigest.analysis.radar.pyapi import (
    LAZY_MODULE,
    MODULE_BLOCK,
    STAR_IMPORT,
    Breakage,
    ModuleApi,
    Obj,
    Param,
    absolute_module,
    api_of,
    bases_dropped,
    binds_at_top,
    brackets_balanced,
    calls_super,
    class_aliases,
    code_of,
    compare,
    continued,
    dropped_exports,
    exported_names,
    generic_dropped,
    has_fields,
    imports_in,
    indent_of,
    listed_all,
    made_getattr_names,
    module_api,
    other_getattr,
    passed_positionally,
    plain_base,
    plain_tree,
    same_plain_value,
    serves_by_call,
    signature_end,
    statement_end,
    surface,
    typing_import,
    word_char,
)
from commitdigest.analysis.radar.pylocal import (
    bases_of,
    derived_classes,
    find,
    imports_around,
    imports_of,
    in_a_string,
    local_breakages,
    qualname_at,
    subclasses,
)
from commitdigest.analysis.radar.repo import RepoView
from commitdigest.facts import ApiChangeType, Visibility

__all__ = ["detect", "init_paths"]

_CHANGE = {
    "removed": ApiChangeType.REMOVED,
    "param_removed": ApiChangeType.REMOVED,
    "now_required": ApiChangeType.NOW_REQUIRED,
    "default_changed": ApiChangeType.DEFAULT_CHANGED,
    "renamed": ApiChangeType.RENAMED,
}
_MODULE_DUNDERS = {"__getattr__", "__dir__", "__all__", "__version__"}


# a changed line that can touch a module's API: a def/class header, a decorator, any
# module-level statement, a class attribute or field, a parameter line of a multi-line
# signature (it ends with a comma) or the line that closes one, __all__ or __getattr__
# (matched in "\n" + the lines: each alternative starts with the newline the regex engine
# skips to, instead of being tried at every character)
API_LINES = re.compile(
    r"\n(?:[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]|[ \t]*@|[A-Za-z_]"
    r"|[ \t]+[A-Z][A-Z0-9_]*[ \t]*[:=]|[ \t]+\w+[ \t]*:[ \t]*[^\s=]"
    r"|[ \t]*\*{0,2}\w+(?:[ \t]*:[^=\n]+)?(?:[ \t]*=[^\n]*)?,[ \t]*$"
    # names of an import over several lines, several on a line (isort's grid: ``Baz, Qux)``)
    r"|[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)+"
    r"[ \t]*,?[ \t]*\)?[ \t]*(?:#[^\n]*)?$"
    r"|[ \t]*\))",
    re.M,
)


# the scripts at a repository's root that build, test or run it: no one imports them
# (requests' ``setup.py`` "removed" ``CURRENT_PYTHON``, ``requires`` and ``here``)
_BUILD_SCRIPTS = frozenset(
    {"setup.py", "noxfile.py", "conftest.py", "fabfile.py", "manage.py", "hatch_build.py"}
)


@lru_cache(maxsize=64)  # asked by the driver (which files to read), then by detect()
def wants(view_changed: str | None, path: str) -> bool:
    """Whether the radar's API kind needs ``path``'s text for a commit whose changed lines
    of it are ``view_changed`` (None: not known)."""
    if not is_own_python(path) or path in _BUILD_SCRIPTS:
        return False
    if view_changed is None or path.endswith("__init__.py"):
        return True
    return (
        "__all__" in view_changed
        or "__getattr__" in view_changed
        or API_LINES.search("\n" + view_changed) is not None
        or _TABLE_ENTRY.search(view_changed) is not None  # (a name a ``__getattr__`` may serve)
    )


# an entry of a table that a module ``__getattr__`` may look names up in: ``    'name': …``
_TABLE_ENTRY = re.compile(r"""^[ \t]+["'][A-Za-z_]\w*["'][ \t]*:""", re.M)


# a module-level dunder set to a plain value: ``__version__ = "1.2.0"``, ``__author__ = '…'``
_DUNDER_VALUE = re.compile(
    r"__(?!all__|getattr__|path__)\w+__[ \t]*(?::[^=\n]*)?="
    r"[ \t]*(?:\"[^\"\\\n]*\"|'[^'\\\n]*'|[\d.]+)[ \t]*(?:#.*)?\r?"
)


def _dunder_values_only(changed: str | None) -> bool:
    """Whether a commit's changed lines of a module only set module dunders to plain
    values, and comments or blank lines (huggingface_hub's ``__version__`` bump of its
    60 KB package ``__init__``, every week): no API changes with them."""
    if not changed or "__" not in changed:
        return False
    lines = [
        line for line in changed.split("\n") if line.strip() and not line.lstrip().startswith("#")
    ]
    return bool(lines) and all(_DUNDER_VALUE.fullmatch(line) for line in lines)


def _comments_only(changed: str | None, before: str, after: str | None) -> bool:
    """Whether a commit changed only comments and blank lines of a module, which no API
    holds (vllm-ascend's ``patch/__init__.py``, 60 KB of comments, is edited by a commit a
    day): every changed line is blank or starts with ``#``, and neither version has a
    string that can span lines (triple-quoted, or continued by a backslash), where such a
    line would be the string's own text (a default value's)."""
    if changed is None or after is None:
        return False
    if not all(not (code := line.lstrip()) or code[0] == "#" for line in changed.split("\n")):
        return False
    # (each version's answer kept by its text: vllm-ascend's 60 KB of comments were searched
    # four times over on each side at every commit)
    return not any(_by_version(_SPANNING, before, after, changed, _SPANS, _spans_lines))


_SPANNING: ByText[bool] = ByText(256)  # whether a module version may hold a string over lines
_SPANS = ('"""', "'''", "\\")  # what a changed line that may change that answer holds


def _by_version(
    kept: ByText[bool],
    before: str,
    after: str,
    changed: str | None,
    marks: tuple[str, ...],
    read: Callable[[str], bool],
) -> tuple[bool, bool]:
    """``read`` of each version of a module, kept by its text: when the commit's changed
    lines (``changed``) hold none of ``marks``, the lines that decide the answer are the
    same in both versions, so the one known (the neighbouring commit's version) gives the
    other's too."""
    old, new = kept.get(before), kept.get(after)
    if changed is not None and not any(mark in changed for mark in marks):
        known = old if old is not None else new if new is not None else read(before)
        old = new = known
    else:
        old = read(before) if old is None else old
        new = read(after) if new is None else new
    kept.put(before, old)
    kept.put(after, new)
    return old, new


def _spans_lines(text: str) -> bool:
    """Whether a module's text has a string that can span lines: triple-quoted, or one a
    backslash continues."""
    return any(mark in text for mark in ('"""', "'''", "\\\n", "\\\r"))


def _as_other_file(view: CommitView, path: str) -> str | None:
    """The deleted module ``path`` in the other file a module may be, if the commit made it:
    ``a/b.py`` <-> ``a/b/__init__.py`` (scipy made ``scipy/spatial/distance.py`` a package,
    its code moved to ``distance/_distance.py`` and re-exported: 27 names were "removed")."""
    if path.endswith("/__init__.py"):
        other = path.removesuffix("/__init__.py") + ".py"
    elif path.endswith(".py"):
        other = path.removesuffix(".py") + "/__init__.py"
    else:
        return None
    if other in view.after:
        return view.after[other]
    return view.repo.text(view.sha, other) if view.repo is not None else None


def _is_module(public: PublicSurface | None) -> Callable[[str], bool] | None:
    """Whether a dotted name is a module of the repository, where its surface is known."""
    if public is None:
        return None
    return lambda dotted: public.path_of(dotted) is not None


def init_paths(paths: tuple[str, ...]) -> list[str]:
    """The package ``__init__.py`` files that may re-export the touched modules."""
    return [p.rsplit("/", 1)[0] + "/__init__.py" for p in paths if p.endswith(".py") and "/" in p]


class _Models:
    """Both versions' API models, made only when a change needs them."""

    def __init__(self, before: str, after: str | None, module: str, is_init: bool) -> None:
        self.before, self.after, self.module, self.is_init = before, after, module, is_init

    @cached_property
    def old(self) -> ModuleApi:
        return api_of(self.before, self.module, self.is_init)

    @cached_property
    def all(self) -> set[str] | None:
        """The old version's ``__all__`` (no model is made for it where it is written as a
        list of strings)."""
        if "old" in self.__dict__:
            return self.old.all
        return exported_names(self.before, self.module, self.is_init)

    @cached_property
    def getattr_names(self) -> set[str]:
        return self.old.getattr_names if _module_getattr(self.before) else set()

    @cached_property
    def new(self) -> ModuleApi:
        if self.after is None:
            return ModuleApi()
        return api_of(self.after, self.module, self.is_init)


_HOOK_WORDS = re.compile(r"__all__|__getattr__|TYPE_CHECKING")
_IMPORT_LINE = re.compile(r"^([ \t]*)(?:from[ \t]+\S+[ \t]+)?import[ \t]", re.M)  # and its indent


def _local(view: CommitView, path: str, before: str, after: str | None) -> bool:
    """Whether the module can be compared around its diff only (``pylocal``): not a package
    ``__init__.py``, and either it has no export hook (``__all__``, a module
    ``__getattr__``), or the commit changes none of them and its imports bind every name
    they bound that ``__all__`` may export (what it exports from an import is still
    imported; only a module ``__getattr__`` may serve a name the changed lines do not
    show). openai-python's generated modules each have ``__all__``, and most of its commits
    add imports to them: each was modelled whole, both versions parsed, most of its radar's
    time."""
    if after is None or path not in view.numbers:
        return False
    changed = view.changed.get(path)
    if path.endswith("/__init__.py") or path == "__init__.py":
        return _init_local(before, after, changed, view.numbers[path])
    if not _hooked(before, after, changed):
        return True  # no export hook: what it exports is what it defines
    if changed is None or _hooks_changed(before, after, changed):
        return False
    if LAZY_MODULE in before or (after is not None and LAZY_MODULE in after):
        return False  # (what a lazy module object serves is listed in the module's tables)
    indents = (
        _import_indents(view.numbers[path], before, after)
        if _IMPORT_LINE.search(changed) is not None
        else []
    )
    gone = (
        imports_of(before).keys() - imports_of(after).keys()
        if _in_imports(before, view.numbers[path][0])
        else set()  # (every import of the old version is still there, line for line)
    )
    if not indents and not gone:
        return True  # (no import changed: a name taken from an import over several lines
        # changes no line that says "import")
    if (_module_getattr(before) or _module_getattr(after)) and (
        gone or any(indents) or not _imports_added_only(before, after)
    ):  # (what a module __getattr__ serves is the names the module lacks: an import
        # that goes, or binds another object, may change it; imports only added at the top,
        # of names the module did not bind, add names and leave the others as they were:
        # pydantic-core's ``core_schema``, 240 KB, parsed twice for ``from fractions
        # import Fraction`` and a new schema, a sixth of its window's radar)
        return False
    if any(indents) and (view.numbers[path][0] or not _adds_inside(changed)):
        return False  # (an import made lazy, or typing-only, no longer binds its name; one
        # added where no line went unbinds none: openai-python's client adds its resources'
        # imports inside its properties)
    # or none of the names it no longer imports was exported: its __all__ is one list
    # written out, which does not name them (openai-python's resources swap the helpers
    # they import; pydantic's ``types`` stopped importing ``Union``, a word its docs quote)
    return not gone or ((listed := listed_all(before)) is not None and not gone & listed)


def _import_indents(
    numbers: tuple[frozenset[int], frozenset[int]], before: str, after: str
) -> list[str]:
    """The indentation of each changed line (removed: of ``before``; added: of ``after``)
    that imports, as code: not a line of a string (pydantic-core's new schema documents
    ``    from fractions import Fraction`` in its docstring, which imports nothing)."""
    found: list[str] = []
    for text, changed in zip((before, after), numbers, strict=True):
        lines = lines_of(text)
        for n in sorted(changed):
            line = lines[n - 1] if 0 < n <= len(lines) else ""
            if "import" not in line or (m := _IMPORT_LINE.match(line)) is None:
                continue
            if not m.group(1) or not in_a_string(text, n):  # (one at the first column is
                found.append(m.group(1))  # read as an import: the same answer for less)
    return found


def _still_served(found: list[Breakage], after: str, models: _Models) -> list[Breakage]:
    """``found`` (read around the changed lines) without the module's names it removes
    that its ``__getattr__`` serves now: the usual deprecation moves a function into the
    table it looks names up in (``_DEPRECATED = {"old_name": "new_name"}``), and only a
    model of the new version tells (made only where a removed name is quoted in it)."""
    gone = {
        b.qualname
        for b in found
        if b.change == "removed" and "." not in b.qualname and _quoted(b.qualname, after)
    }
    if not gone or not _module_getattr(after):
        return found
    served = models.new.getattr_names
    return [b for b in found if b.qualname not in gone or b.qualname not in served]


def _imports_added_only(before: str, after: str) -> bool:
    """Whether every name the old version's imports bind is bound by the new one's to the
    same target, and each name only the new one's bind was bound nowhere at the old one's
    top (no def, class or assignment of it)."""
    old, new = imports_of(before), imports_of(after)
    return all(new.get(name) == target for name, target in old.items()) and not any(
        binds_at_top(before, name) for name in new.keys() - old.keys()
    )


_STRING = r"(?:\"[^\"\\\n]*\"|'[^'\\\n]*')"  # a string on one line, without escapes
# the names of a line of an import over several lines (``Foo, Bar as B,``), commas between
_NAMES = r"(?:[\w.]+(?:[ \t]+as[ \t]+\w+)?[ \t]*,[ \t]*)*(?:[\w.]+(?:[ \t]+as[ \t]+\w+)?)?"
# a line that may be part of an import over several lines: names, with their commas, or
# the closing bracket (not a blank line nor a comment alone)
_IMPORT_PART = re.compile(rf"[ \t]*(?=[\w.)])(?:{_NAMES}[ \t]*,?[ \t]*\)?)[ \t]*(?:#.*)?\r?")


def _in_imports(text: str, numbers: frozenset[int]) -> bool:
    """Whether a line of ``text`` at the 1-based ``numbers`` (the lines a commit removed)
    may be part of an import statement: one that says ``import``, or one that reads as
    a line of an import over several lines (names with their commas, or its closing
    bracket). Where none is, every import statement of the old version is in the new one
    as it was, whatever lines were added, and binds what it bound (openai-python's
    generated modules, whose fields and docstrings change, or that gain imports: both
    versions' imports were read at each commit). (A line a backslash continues is read as
    no import's, here as everywhere the imports are read by their lines.)"""
    lines = lines_of(text)
    for n in numbers:
        line = lines[n - 1] if 0 < n <= len(lines) else ""
        if "import" in line or _IMPORT_PART.fullmatch(line):
            return True
    return False


# a changed line of a package ``__init__`` that may change what it exports beyond its
# definitions and imports: a ``del``, a hook, names bound dynamically
_INIT_EXPORTS = re.compile(
    r"\bdel\b|__all__|__getattr__|__dir__|TYPE_CHECKING|globals\(|locals\(|sys\.modules"
)


def _init_local(
    before: str, after: str, changed: str | None, numbers: tuple[frozenset[int], frozenset[int]]
) -> bool:
    """Whether a package ``__init__`` can be compared around its changed lines: each is a
    line of a def or class at the module's first column in its version, or of an import
    statement there (no other module-level statement, no block that would take an import
    in), none deletes or hooks, neither version has ``__all__`` or a module ``__getattr__``,
    and the import statements the new version's changed lines are in bind every name the
    old one's did, to the same object, and more only where the module bound that name
    nowhere at its top (each statement parsed: :func:`~.pylocal.imports_around`): what it
    re-exports is the same or more, what it defines is read around the changes. pytest's
    ``_pytest/config/__init__.py`` (85 KB of its own code) was parsed whole for each change
    of a function's body, and for each that imported what the change used."""
    if changed is None or _INIT_EXPORTS.search(changed) is not None:
        return False
    if _hooked(before, after, changed):
        return False
    removed, added = numbers
    old, new = imports_around(before, removed), imports_around(after, added)
    if old is None or new is None or any(new.get(n) != target for n, target in old.items()):
        return False
    return not any(binds_at_top(before, name) for name in new.keys() - old.keys())


# an import statement continued by a backslash
_CONTINUED_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+\S+[ \t]+)?import\b[^\n]*\\\r?$", re.M)


# a line importing names from typing (``TYPE_CHECKING`` among them: no block of its own)
_FROM_TYPING = re.compile(r"[ \t]*from[ \t]+typing(?:_extensions)?[ \t]+import\b")


_NOQA_F401 = re.compile(r"#\s*noqa\b[^\n]*\bF401\b", re.I)


def _marked_reexports(view: CommitView, path: str, before: str, after: str) -> list[Breakage]:
    """The names a module without ``__all__`` imported on a line marked ``# noqa: F401``
    (an import its linter would drop as unused, kept on purpose: a re-export) that the
    commit removes and the module no longer binds. Sphinx 8.0 removed ``from
    sphinx.domains.changeset import VersionChange  # NoQA: F401  # for compatibility``
    from ``sphinx.directives.other``, which its changelog announced; the radar said
    nothing (what a plain module imports is no API, but for such a line)."""
    changed = view.changed.get(path)
    said = before if changed is None else changed
    if ("F401" not in said and "f401" not in said) or "__all__" in before:
        return []  # (a module with ``__all__`` exports what it lists)
    lines = lines_of(before)
    still = imports_of(after)
    gone: list[Breakage] = []
    numbers = view.numbers[path][0] if changed is not None else range(1, len(lines) + 1)
    for n in sorted(numbers):  # (the removed lines; every line where no patch tells)
        line = lines[n - 1] if 0 < n <= len(lines) else ""
        if not _NOQA_F401.search(line) or not line.lstrip("\ufeff").startswith("from "):
            continue  # (a plain import so marked is for its side effect: a plugin, a check;
            # one indented, under ``if TYPE_CHECKING:`` or in a ``try:``, a probe)
        statement = "\n".join(lines[n - 1 : statement_end(lines, n - 1) + 1])
        for name, target in imports_in(statement).items():
            if typing_import(target):
                continue  # kept for type comments (``# type: (List[int]) -> None``)
            if name not in still and find(after, name) is None:
                gone.append(Breakage(name, "removed", line=n))
    return gone


_QUOTED_NAME = re.compile(r"""["']([A-Za-z_]\w*)["']""")


def _stops_serving(view: CommitView, path: str, before: str, after: str, models: _Models) -> bool:
    """Whether a line the commit removes from a module names, quoted, a name its module
    ``__getattr__`` serves (a key of the table it looks names up in): Sphinx's 8.0 removed
    ``'stringify': (stringify_annotation, …)`` from ``sphinx.util.typing``'s
    ``_DEPRECATED_OBJECTS``, and the module, read around its changed lines or by its
    headers, said nothing."""
    if "__getattr__" not in before:
        return False
    changed = view.changed.get(path)
    served = _by_version(_SERVES, before, after, changed, _HOOK_TEXTS, _module_getattr)
    if changed is None:  # (a cut patch, or none: both versions' served names, compared)
        if not served[0]:
            return False
        quoted = models.getattr_names - (models.new.getattr_names if served[1] else set())
    else:
        if not _QUOTED_NAME.search(changed) or not served[0]:
            return False
        lines = lines_of(before)
        quoted = {
            m.group(1)
            for n in view.numbers[path][0]
            if 0 < n <= len(lines)
            for m in _QUOTED_NAME.finditer(lines[n - 1])
        }
        gone = {name for name in quoted if not _quoted(name, after)}
        # (what a commit adds to vllm-ascend's ``envs`` table removes none: the old model,
        # parsed whole, is not asked)
        return bool(gone) and bool(gone & models.getattr_names)
    return any(not _quoted(name, after) for name in quoted)


def _quoted(name: str, text: str) -> bool:
    """Whether ``name`` is written quoted in ``text``: after a commit, still served from
    wherever it moved (Scrapy put ``"parse_url", …`` in a ``_DEPRECATED_NAMES`` set its
    ``__getattr__`` tests); before it, a key a table already had."""
    return f"'{name}'" in text or f'"{name}"' in text


def _hooks_changed(before: str, after: str, changed: str) -> bool:
    """Whether a commit's changed lines of a module (``changed``) touch what decides its
    exports beyond its definitions: a module ``__getattr__``, an ``if TYPE_CHECKING:`` block
    (not ``from typing import TYPE_CHECKING, …``: 15 of pydantic's modules compared whole
    for a typing name imported, in four months), or ``__all__`` other than by names added
    to its one list (openai-python adds each new model's name to its module's list)."""
    grows: bool | None = None
    for m in _HOOK_WORDS.finditer(changed):
        word = m.group()
        if word == "TYPE_CHECKING":
            if _FROM_TYPING.match(changed, changed.rfind("\n", 0, m.start()) + 1):
                continue
        elif word == "__all__":
            if grows is None:  # (an import continued by a backslash is read by no regex
                # here: a name it stops binding would go unseen)
                old, new = listed_all(before), listed_all(after)
                grows = (
                    old is not None
                    and new is not None
                    and old <= new
                    and not any(_CONTINUED_IMPORT.search(t) for t in (before, after))
                )
            if grows:
                continue
        return True
    return False


def _adds_inside(added: str) -> bool:
    """Whether a commit's added lines of a module (``added``: it removed none) only add to
    the blocks already there, or imports: each is blank, a comment, indented or an import at
    the first column, none opens a string of several lines and none is continued by a
    backslash. A header added at the first column adopts the indented lines below it (a
    class inserted before a method makes it that class's), and a string opened above code
    makes it text: the changed lines alone do not show that."""
    if '"""' in added or "'''" in added:
        return False
    return all(
        (not line or line[0] in " \t#\r" or line.startswith(("import ", "from ")))
        and not continued(line)
        for line in added.split("\n")
    )


# an added line of a package ``__init__`` that takes no name away: an import, a name (and the
# closing bracket) of an import over several lines, an entry of a list of names (an import
# structure's, ``__all__``'s) and a key that opens one, a comment, a blank line
_BINDS_NOTHING = re.compile(
    r"[ \t]*(?:(?:from|import)[ \t].*"
    rf"|{_NAMES}[ \t]*,?[ \t]*\)?"
    rf"|{_STRING}[ \t]*(?:,|:[ \t]*[\[(])?"
    r"|[)\]}]+[ \t]*,?"
    r")?[ \t]*(?:#.*)?\r?"
)
_KEY_OPENS = re.compile(rf"[ \t]*{_STRING}[ \t]*:[ \t]*[\[(][ \t]*(?:#.*)?\r?")
# a module-level statement whose list a name is added to: ``__all__ = [``, ``_import_structure
# = {``, ``_import_structure["x"] = [``, ``__all__.extend([``
_LISTS_NAMES = re.compile(r"\w+(?:\[[^\]\n]*\])?[ \t]*(?::[^=\n]*)?(?:\+?=|\.(?:extend|append)\()")


def _adds_names_only(view: CommitView, path: str) -> bool:
    """Whether a commit only adds lines to a package ``__init__``, each an import, a comment
    or a blank line, a name added to an import over several lines, a string (or a key
    opening a list of them) added to a list that a module-level statement assigns
    (:data:`_BINDS_NOTHING`; at the first column or in module-level ``if``/``else``/
    ``try`` blocks: diffusers' import structure), or a list of strings set to a key the
    module never wrote (:data:`_NEW_KEY`), none of them a hook (``__all__``, a module
    ``__getattr__``, a lazy module object, ``TYPE_CHECKING``), no string over several
    lines, no backslash:
    what its users could import they still can. (A name or a string added to a def's
    header over several lines is a new parameter or default: not so.) openai-python adds
    each new model's import to ``types/__init__.py`` (51 of its 60 changes of a package's
    ``__init__`` in three months), huggingface_hub each new function's name to its lazy
    table, its ``__all__`` and its typing imports: both versions were modelled whole
    (60 KB of imports and names, 48 times in four months). Lines it removes must each be
    rewritten in place with more names (:func:`_rewritten_with_more`: diffusers' ``from
    .prx import PRXPipeline`` became ``from .prx import PRXPipeline, PRXPixelPipeline``
    for a new pipeline, its 1,800-line ``__init__`` parsed twice)."""
    changed, numbers, after = view.changed.get(path), view.numbers.get(path), view.after.get(path)
    if changed is None or numbers is None or not after:
        return False
    if _HOOK_WORDS.search(changed) or LAZY_MODULE in changed:
        return False
    if (
        '"""' in changed
        or "'''" in changed
        or not brackets_balanced(changed)
        or changed.count("{") != changed.count("}")
    ):
        return False  # (a bracket the added lines leave open: the module may not parse)
    added = numbers[1]
    if numbers[0]:  # lines removed: each run of them rewritten with more names, in place
        rewritten = _rewritten_with_more(view.before.get(path) or "", after, numbers)
        if rewritten is None:
            return False
        added = added - rewritten
    lines = lines_of(after)
    before = view.before.get(path) or ""
    for _, first, last in list(_runs(sorted(added))):  # whole statements added, that run
        if (  # in no def or class (a function's own lines, a class's attributes)
            _in_module_blocks(lines, first - 1, last)
            and _adds_statements(lines[first - 1 : last], before)
        ):
            added = added - frozenset(range(first, last + 1))
    for n in added:
        line = lines[n - 1] if 0 < n <= len(lines) else ""
        new_key = _NEW_KEY.fullmatch(line)
        if new_key is not None:  # names listed under a key the module never wrote before
            # (diffusers' ``_import_structure["krea2"] = [``): one it had, in the table's
            # literal or set by a statement, may be given fewer names
            key = new_key.group(2)[1:-1]
            if _quoted(key, view.before.get(path) or "") or not _module_statement(lines, n - 1):
                return False
            continue
        if (
            not _BINDS_NOTHING.fullmatch(line)
            or continued(line)
            or ";" in line.partition("#")[0]  # (a second statement on the line)
        ):
            return False
        code = line.strip()
        if not code or code.startswith(("#", "from ", "import ")) or code[0] in ")]}":
            continue  # (a closing bracket adds nothing: its opening line says what it holds)
        head = _opening(lines, n - 1)
        if code[0] not in "\"'":  # a name: of an import (not of a def's header)
            if head < 0 or not lines[head].lstrip().startswith(("from ", "import ")):
                return False
            continue
        while head >= 0 and (
            _KEY_OPENS.fullmatch(lines[head]) or _BRACKET_ONLY.fullmatch(lines[head])
        ):  # (a key of a dict of lists, or a list opened on a line of its own under
            head = _opening(lines, head)  # ``.extend(``: the statement that holds it)
        if (
            head < 0
            or not _LISTS_NAMES.match(lines[head].lstrip())
            or not _module_statement(lines, head)
        ):
            return False  # a string added elsewhere (a default value over several lines)
    return True


def _rewritten_with_more(
    before: str, after: str, numbers: tuple[frozenset[int], frozenset[int]]
) -> frozenset[int] | None:
    """The added lines (1-based, of ``after``) that rewrite the removed ones in place, each
    run of removed lines by the run of added lines between the same unchanged lines, as
    statements that bind every name the old ones bound and more (:func:`_binds_more`), or
    of strings of a list each written again in it (:func:`_moved_in_list`); None where a
    run of removed lines is neither."""
    old_lines, new_lines = lines_of(before), lines_of(after)
    removed, added = sorted(numbers[0]), sorted(numbers[1])
    # each run of added lines by the number of unchanged lines above it (both versions
    # have the same unchanged lines, in the same order)
    new_runs = {first - 1 - k: (first, last) for k, first, last in _runs(added)}
    taken: set[int] = set()
    for k, first, last in _runs(removed):
        run = new_runs.get(first - 1 - k)
        if (
            run is not None
            and _starts_statement(old_lines, first - 1, last)
            and _binds_more(old_lines[first - 1 : last], new_lines[run[0] - 1 : run[1]])
        ):
            taken.update(range(run[0], run[1] + 1))
        elif not all(
            _moved_in_list(old_lines, i, new_lines, removed, added) for i in range(first - 1, last)
        ):
            return None
    return frozenset(taken)


def _starts_statement(lines: list[str], first: int, last: int) -> bool:
    """Whether the lines from index ``first`` to 1-based ``last`` may be whole statements
    where they are: the first with code is in no def or class (not a parameter of a header
    over several lines: ``modes=["r", "w"]`` reads as an assignment alone), and the line
    with code above them leaves no bracket open, no line continued, no decorator."""
    if not _in_module_blocks(lines, first, last):
        return False
    above = next(
        (
            j
            for j in range(first - 1, -1, -1)
            if lines[j].strip() and not lines[j].lstrip().startswith("#")
        ),
        None,
    )
    if above is None:
        return True
    code = lines[above].partition("#")[0].rstrip()
    return not code.endswith(("(", "[", "{", ",", "\\")) and not code.lstrip().startswith("@")


def _moved_in_list(
    old: list[str], i: int, new: list[str], removed: list[int], added: list[int]
) -> bool:
    """Whether line index ``i`` of ``old`` is a string of a list written one to a line that
    an added line writes again in the same list (the list's opening line is the same line
    of both versions, one the commit leaves as it was): moved, as a sorted list of names
    moves one for a name put before it (diffusers' ``"Cosmos2VideoToWorldPipeline",`` under
    ``"Cosmos3OmniPipeline",``). (An opening line that only reads the same, another list's
    ``    [`` under its ``.extend(``, is another list: a name moved there is gone.)"""
    entry = old[i].strip().rstrip(",").rstrip()
    if not _LISTED_STRING.fullmatch(entry) or (head := _opening(old, i)) < 0:
        return False
    unchanged = _unchanged_above(head, removed)
    if unchanged is None:
        return False  # (its list's opening line is changed itself)
    for n in added:
        line = new[n - 1] if 0 < n <= len(new) else ""
        if line.strip().rstrip(",").rstrip() == entry:
            there = _opening(new, n - 1)
            if there >= 0 and _unchanged_above(there, added) == unchanged:
                return True
    return False


def _unchanged_above(i: int, changed: list[int]) -> int | None:
    """How many unchanged lines come before line index ``i`` of a version whose changed
    lines (1-based, sorted) are ``changed``: which unchanged line it is, the same in both
    versions; None where it is changed."""
    k = bisect.bisect_left(changed, i + 1)
    if k < len(changed) and changed[k] == i + 1:
        return None
    return i - k


_LISTED_STRING = re.compile(_STRING)


def _adds_statements(lines: list[str], before: str) -> bool:
    """Whether added ``lines`` (a run of them, between the same unchanged lines) are whole
    statements that bind no name anew but by importing it, each (and each in their blocks)
    an import, a ``raise``, ``pass``, an ``if``/``try`` of such, an ``.append()`` or
    ``.extend()`` call, or a list set to a table's key the module never wrote: diffusers
    adds a ``try:`` block for each optional backend, which imports a dummy module or
    appends its config's name to the import structure (three a month, its 1,800-line
    ``__init__`` parsed twice for each)."""
    try:
        body = ast.parse(textwrap.dedent("\n".join(lines))).body
    except (SyntaxError, ValueError):
        return False  # (part of a statement: read line by line)
    return bool(body) and all(_adds_only(node, before) for node in body)


def _adds_only(node: ast.stmt, before: str) -> bool:
    if isinstance(node, ast.Import | ast.ImportFrom | ast.Raise | ast.Pass):
        return True
    if isinstance(node, ast.If | ast.Try):
        blocks = [node.body, node.orelse]
        if isinstance(node, ast.Try):
            blocks += [h.body for h in node.handlers] + [node.finalbody]
            if any(h.name for h in node.handlers):
                return False  # (``except E as name`` binds and unbinds a name)
        elif any(isinstance(n, ast.NamedExpr) for n in ast.walk(node.test)):
            return False
        return all(_adds_only(n, before) for block in blocks for n in block)
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        func = node.value.func
        return isinstance(func, ast.Attribute) and func.attr in ("append", "extend")
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target = node.targets[0]
        return (
            isinstance(target, ast.Subscript)
            and isinstance(target.value, ast.Name)
            and isinstance(target.slice, ast.Constant)
            and isinstance(target.slice.value, str)
            and not _quoted(target.slice.value, before)
        )
    return False


def _runs(numbers: list[int]) -> Iterator[tuple[int, int, int]]:
    """The runs of consecutive line numbers of the sorted ``numbers``: how many numbers
    come before each run, its first and its last."""
    k = 0
    while k < len(numbers):
        end = k
        while end + 1 < len(numbers) and numbers[end + 1] == numbers[end] + 1:
            end += 1
        yield k, numbers[k], numbers[end]
        k = end + 1


def _binds_more(old: list[str], new: list[str]) -> bool:
    """Whether the statements ``new`` (lines at the indentation of ``old``'s) bind what the
    statements ``old`` bound, one for one, and may bind more: an import of the same module
    that imports the same names (as the same names) and others, or the same target given a
    list or tuple of strings that holds the old one's and others (an import structure's)."""
    if not old or not new or indent_of(old[0]) != indent_of(new[0]):
        return False
    try:
        was = ast.parse(textwrap.dedent("\n".join(old))).body
        now = ast.parse(textwrap.dedent("\n".join(new))).body
    except (SyntaxError, ValueError):
        return False  # (part of a statement: what holds it is not read here)
    return len(was) == len(now) > 0 and all(
        _statement_binds_more(a, b) for a, b in zip(was, now, strict=True)
    )


def _statement_binds_more(old: ast.stmt, new: ast.stmt) -> bool:
    if isinstance(old, ast.ImportFrom) and isinstance(new, ast.ImportFrom):
        return (old.module, old.level) == (new.module, new.level) and _aliases(old) <= _aliases(new)
    if isinstance(old, ast.Import) and isinstance(new, ast.Import):
        return _aliases(old) <= _aliases(new)
    if isinstance(old, ast.Assign) and isinstance(new, ast.Assign):
        was, now = _strings(old.value), _strings(new.value)
        return (
            was is not None
            and now is not None
            and was <= now
            and [ast.dump(t) for t in old.targets] == [ast.dump(t) for t in new.targets]
        )
    return False


def _aliases(node: ast.Import | ast.ImportFrom) -> set[tuple[str, str | None]]:
    return {(a.name, a.asname) for a in node.names}


def _strings(node: ast.expr) -> set[str] | None:
    """The strings of a list or tuple of strings; None for any other value."""
    if not isinstance(node, ast.List | ast.Tuple):
        return None
    found = {e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    return found if len(found) == len(node.elts) else None


# a string key of a table set to a list of strings, whole or opened on the line:
# ``_import_structure["krea2"] = [``, ``_import_structure["x"] = ["A", "B"]``
_NEW_KEY = re.compile(
    rf"[ \t]*(\w+)\[[ \t]*({_STRING})[ \t]*\][ \t]*=[ \t]*\[[ \t]*"
    rf"(?:{_STRING}[ \t]*,[ \t]*)*(?:{_STRING}[ \t]*)?\]?[ \t]*(?:#.*)?\r?"
)
_BRACKET_ONLY = re.compile(r"[ \t]*[\[({][ \t]*(?:#.*)?\r?")


def _module_statement(lines: list[str], i: int, blocks: re.Pattern[str] = MODULE_BLOCK) -> bool:
    """Whether the statement at line index ``i`` runs when the module is imported: it is at
    the first column, or in blocks that module-level ``if``/``else``/``try``/``with`` lines
    open (diffusers extends its import structure under ``else:`` of a ``try`` that checks
    an optional dependency); not in a def or a class, nor under ``if TYPE_CHECKING:``
    (``blocks``: the lines that open the blocks it may be in; :data:`_ANY_BLOCK`, under
    ``if TYPE_CHECKING:`` too)."""
    while lines[i][:1].isspace():
        i = _opening(lines, i)
        if i < 0 or not blocks.match(lines[i].lstrip()):
            return False
    return True


# a module-level block's opening line, ``if TYPE_CHECKING:`` too (diffusers adds each
# backend's ``try:`` block there as well)
_ANY_BLOCK = re.compile(r"(?:(?:el)?if|else|try|except|finally|with)\b.*:[ \t]*(?:#.*)?\r?$")


def _in_module_blocks(lines: list[str], first: int, last: int) -> bool:
    """Whether the first line with code from index ``first`` to 1-based ``last`` is at the
    first column or in module-level blocks (:data:`_ANY_BLOCK`): in no def or class."""
    top = next((i for i in range(first, last) if lines[i].strip()), None)
    return top is not None and _module_statement(lines, top, _ANY_BLOCK)


def _opening(lines: list[str], i: int) -> int:
    """The line above line index ``i`` indented less than it (blank lines and comments
    passed): the one that opens the bracket it is in; -1 for none."""
    indent = indent_of(lines[i])
    for j in range(i - 1, -1, -1):
        code = lines[j].strip()
        if code and not code.startswith("#") and indent_of(lines[j]) < indent:
            return j
    return -1


_HOOKS: ByText[bool] = ByText(256)  # whether a module version has an export hook
_HOOK_TEXTS = ("__all__", "__getattr__", LAZY_MODULE)  # what says a module has one


def _hooked(before: str, after: str, changed: str | None) -> bool:
    """Whether either version of a module has ``__all__`` or a module-level
    ``__getattr__``. Each version is searched once: when the commit's changed lines
    (``changed``) name neither, both versions have the same answer, so the one known (the
    neighbouring commit's version) gives the other's too."""
    return any(_by_version(_HOOKS, before, after, changed, _HOOK_TEXTS, _export_hook))


def _same_surface(before: str, after: str, is_init: bool) -> bool:
    """Whether a module's two versions have the same cheap surface (``pyapi.surface``),
    their imports included where they export what they import: a package's ``__init__``,
    a module with ``__all__``. Never for a module a lazy module object stands for: the
    names it serves are listed in its tables, which no surface holds."""
    if LAZY_MODULE in before or LAZY_MODULE in after:
        return False
    imports = is_init or "__all__" in before or "__all__" in after
    return surface(before, imports) == surface(after, imports)


def _export_hook(text: str) -> bool:
    """Whether a module has ``__all__`` or a module-level ``__getattr__``."""
    return "__all__" in text or _module_getattr(text)


def _made_getattr(
    view: CommitView,
    public: PublicSurface | None,
    api: ModuleApi,
    rev: str | None,
    texts: Mapping[str, str | None],
) -> ModuleApi:
    """``api`` with the names its ``__getattr__`` serves where a function of another module
    of the repository makes it (attrs' ``attrs`` package binds ``__getattr__ =
    _make_getattr(__name__)`` from ``attr``, which serves ``converters``, ``validators`` and
    ``filters`` lazily: their imports dropped read as their removal), read in that module at
    ``rev`` (``texts``: the commit's versions, where it changes it)."""
    if api.getattr_from is None or public is None or view.repo is None or rev is None:
        return api
    module, _, maker = api.getattr_from.rpartition(".")
    path = public.path_of(module)
    if path is None:
        return api
    text = texts[path] if path in texts else view.repo.text(rev, path)
    served = made_getattr_names(text, maker) if text else frozenset()
    if not served - api.getattr_names:
        return api
    return replace(api, getattr_names=api.getattr_names | served)


_SERVES: ByText[bool] = ByText(256)  # _module_getattr of the last versions asked


def _module_getattr(text: str) -> bool:
    """Whether a module may serve names lazily: it may define a module-level ``__getattr__``
    (a method of that name in a class is no export hook), or put a lazy module object in
    its place (Hugging Face's ``sys.modules[__name__] = _LazyModule(…)``)."""
    return (
        text.startswith("def __getattr__")
        or "\ndef __getattr__" in text
        or LAZY_MODULE in text
        or other_getattr(text)  # (made by a function of the module, or in a block)
        or serves_by_call(text)  # (trio's ``deprecate_attributes(__name__, {…})``)
    )


def detect(view: CommitView) -> list[ApiChange]:
    public = public_surface(view.repo) if view.repo is not None else None
    items: list[ApiChange] = []
    exported: dict[str, str] = {}  # a name no longer exported -> the object it was
    # defaults made None and passed on by name, with the names of the calls they go to
    passed: list[tuple[_Where, Breakage, _Stands]] = []
    for path in view.paths:
        if not wants(view.changed.get(path), path):
            continue
        before, after = view.before.get(path), view.after.get(path)
        if before is None:
            continue  # a new module: nothing was there to break
        if after is None:
            after = _as_other_file(view, path)
        if _comments_only(view.changed.get(path), before, after):
            continue
        if after is not None and _dunder_values_only(view.changed.get(path)):
            continue  # a release's ``__version__ = "1.2.0"``: no API (a module of dunders
            # deleted, ``pkg/__version__.py``, is still gone)
        if public is not None and not public.ships(path):
            continue  # a script beside a src/ layout's packages
        is_init = path.endswith("/__init__.py") or path == "__init__.py"
        if is_init and _adds_names_only(view, path):
            continue  # new imports and names listed: nothing a user had goes
        module = public.module_of(path) if public is not None else module_name(path)
        if not all(part.isidentifier() for part in module.split(".")):
            continue  # no import reaches it (attrs' ``typing-examples/mypy_examples.py``)
        models = _Models(before, after, module, is_init)
        local = False  # read around its changed lines
        # (or whole where a name its __getattr__ served goes from the table it reads)
        serving = (
            after is not None
            and _hooked(before, after, view.changed.get(path))  # (kept by text: cheap)
            and _stops_serving(view, path, before, after, models)
        )
        # and the imports it kept on purpose, marked so for its linter (F401), that go
        marked = (
            _marked_reexports(view, path, before, after)
            if not is_init and after is not None
            else []
        )
        if after is not None and not serving and _local(view, path, before, after):
            local = True
            removed, added = view.numbers[path]
            found = _still_served(local_breakages(before, after, removed, added), after, models)
        else:
            # (what a package's __init__ or a module with __all__ imports, it exports)
            if (
                after is not None
                and not (serving or marked)
                and _same_surface(before, after, is_init)
            ):
                continue  # bodies only
            old = _made_getattr(view, public, models.old, view.parent, view.before)
            new = _made_getattr(view, public, models.new, view.sha, view.after)
            if not old.ok or not new.ok:
                view.unreadable.append(path)
                continue  # a syntax error on either side: no facts
            found = [
                *compare(old, new, after or ""),
                *dropped_exports(old, new, is_init, before, module, _is_module(public)),
                *_unserved(old, new, before),
            ]
        if marked:
            known = {b.qualname for b in found}
            found += [b for b in marked if b.qualname not in known]
        if found and after is not None:
            found = _renamed_members(found, before, after)
        if not found:
            if after is None and (gone := _empty_module_gone(view, path, module, before, public)):
                items.append(gone)
            continue
        private = is_private_module(path)
        reexports: dict[str, str] = {}
        if private:
            reexports = _reexports(view, path, module, models)
            if not reexports and public is None:
                continue
        where = _Where(view, path, module, models, public, reexports, private)
        kept: list[Breakage] = []
        for brk in found:
            if brk.change == "default_changed" and _same_default(
                brk, before, after, partial(_imported_value, where)
            ):
                continue
            if brk.change == "moved" and after is not None and _handed_on(brk, after):
                continue  # (its successor takes its place)
            how = _sentinel(brk, after)
            if how is None:
                kept.append(brk)
            elif not how.set_back:  # passed on: the calls it goes to decide, below
                passed.append((where, brk, how))
        made = [(brk, item) for brk in kept if (item := _item(where, brk)) is not None]
        found_items = [item for _, item in made]
        for brk, item in made if not local else ():
            if brk.change == "removed" and "." not in brk.qualname:
                target = import_target(models.old, module, brk.qualname)
                if target is not None:
                    exported[item.name] = target
        if after is None and private and not found_items:  # a private module's own names
            gone = _empty_module_gone(view, path, module, before, public)
            found_items = [gone] if gone is not None else []
        items += _module_gone(found_items, module) if after is None else found_items
    # a default passed on stands for the old one where the function it is passed on to, in
    # the commit's modules, reads it back (SQLAlchemy's scoped_session.get passes
    # populate_existing on to Session.get, that to Session._get_impl, which reads it)
    resolvers = _Resolvers(view)
    return _one_per_object(_modules_gone(items), exported) + [
        item
        for where, brk, how in passed
        if not how.calls & resolvers.good(brk.param or "", brk.old, how.unset)
        and (item := _item(where, brk)) is not None
    ]


# a module's logger: ``logger = logging.getLogger(__name__)``, ``log = get_logger(__name__)``
_LOGGER = re.compile(r"\w+[ \t]*(?::[^=\n]*)?=[ \t]*(?:[\w.]+\.)?(?:getLogger|get_logger)\(")
# a type variable the module's generics are written with: ``T = TypeVar("T")``, click's
# ``ShellCompleteType = t.TypeVar("ShellCompleteType", bound=…)``, ``P = ParamSpec("P")``
_TYPE_VARIABLE = re.compile(
    r"\w+[ \t]*(?::[^=\n]*)?=[ \t]*(?:[\w.]+\.)?(?:TypeVar|ParamSpec|TypeVarTuple)\("
)


def _binds(text: str, line: int | None, pattern: re.Pattern[str]) -> bool:
    """Whether line ``line`` (1-based) of ``text`` binds a name at the module's top as
    ``pattern`` (:data:`_LOGGER`, :data:`_TYPE_VARIABLE`) says."""
    lines = lines_of(text)
    if line is None or not 0 < line <= len(lines):
        return False
    return pattern.match(lines[line - 1]) is not None


@lru_cache(maxsize=256)  # (asked for each parameter item of the function)
def _passes_all_on(text: str, qual: str) -> bool:
    """Whether the def ``qual`` of ``text`` takes only ``*args, **kwargs`` and passes both
    on to a call in its body: every call it took still binds (diffusers' ltx2
    ``encode_video(video, fps, …)`` became ``encode_video(*args, **kwargs)``, which warns
    and calls it where it moved: six parameters read as removed). A stub that only raises
    takes them and fails: its parameters still count, as do those of ``dumps(obj,
    **kwargs)``, which passed a removed ``app=`` on to a call that refuses it (flask)."""
    obj = find(text, qual)
    signature = obj.signature() if obj is not None and obj.kind == "function" else None
    if obj is None or signature is None:
        return False
    params = [p for p in signature[0] if p.name not in ("self", "cls")]
    star = [p.name for p in params if p.kind == "varargs"]
    stars = [p.name for p in params if p.kind == "varkw"]
    if len(params) != 2 or len(star) != 1 or len(stars) != 1:
        return False
    body = _body(lines_of(text), obj.line - 1)
    return re.search(rf"\*\s*{star[0]}\s*,\s*\*\*\s*{stars[0]}\s*\)", body) is not None


def _one_per_object(items: list[ApiChange], exported: dict[str, str]) -> list[ApiChange]:
    """One item for an object the commit removes together with the names that exported it
    (``exported``: such a name -> the object it was): trl's PPO removal took
    ``trl.trainer.ppo_config.PPOConfig`` and its re-exports ``trl.trainer.PPOConfig`` and
    ``trl.PPOConfig``, three "Breaking" lines. The item is the one of the shortest name (how
    users import it) of those that are public, with the others' names in its ``symbols`` (a
    downstream checkout that imports it another way is still found); among internal names
    only, the object's own."""
    removed: dict[str, ApiChange] = {}
    for item in items:
        if item.change is ApiChangeType.REMOVED:
            removed.setdefault(item.name, item)

    def object_of(name: str, depth: int = 0) -> str:
        target = exported.get(name)
        if target is None or target not in removed or depth > 8:
            return name
        return object_of(target, depth + 1)

    groups: dict[str, list[ApiChange]] = {}  # the object's name -> its item, then the others
    for name in exported:
        if name in removed and (found := object_of(name)) != name:
            groups.setdefault(found, [removed[found]]).append(removed[name])
    merged: dict[int, ApiChange] = {}  # id of a group's item -> it, with the others' names
    folded: set[int] = set()  # ids of the others
    for group in groups.values():
        public = [i for i in group if i.visibility is Visibility.PUBLIC]
        # (how users import it; among internal names, the object's own)
        keep = min(public, key=lambda i: (len(i.name), i.name)) if public else group[0]
        others = [i for i in group if i is not keep]
        symbols = [*keep.symbols, *(s for i in others for s in (i.name, *i.symbols))]
        merged[id(keep)] = replace(
            keep,
            symbols=[s for s in dict.fromkeys(symbols) if s != keep.name],
            replacement=keep.replacement
            or next((i.replacement for i in others if i.replacement), ""),
            hook=any(i.hook for i in group),
        )
        folded.update(id(i) for i in others)
    return [merged.get(id(i), i) for i in items if id(i) not in folded]


_FALSY = frozenset({"False", "0", "0.0", '""', "''", "()", "[]", "{}"})


class _Stands(NamedTuple):
    """How a default made ``None`` (or a sentinel) stands for the old one (:func:`_sentinel`)."""

    set_back: bool  # its function sets it back to the old value
    calls: frozenset[str] = frozenset()  # else the names of the calls it is passed on to
    unset: str = "None"  # what it is made: ``None`` or the sentinel's name


def _sentinel(brk: Breakage, after: str | None) -> _Stands | None:
    """Whether a parameter's default became ``None`` (or a sentinel object: aiohttp's
    ``sentinel``) standing for the old one: its function sets it to the old value when it
    is ``None`` (``if p is None: p = old``, ``old if p is None else p``, ``p or old``, ``p =
    options.get("p", old)``) or that sentinel, or passes it on by name, untouched, where
    the old value was falsy or the new one is a sentinel (then it stands for the old one
    where the commit's modules set it back in the function it is passed on to: SQLAlchemy's
    proxies of ``Session.get``, :class:`_Resolvers`). A caller that passes nothing gets
    what it got (``Session.get(populate_existing=False)`` -> ``None``, read from the
    execution options, else ``False``): no breaking change. One set to something else
    (vllm-ascend's ``num_input_tokens=0`` -> ``None``, then ``num_tokens``) changed; so did
    one only another function sets back."""
    if brk.change != "default_changed" or not brk.param or not after:
        return None
    body = _body(lines_of(after), (brk.line or 0) - 1)
    unset = _unset_name(brk.new, after, body, brk.param)
    if unset is None:
        return None
    if (
        resolves(body, brk.param, brk.old, unset)
        or _configured(body, brk.param, brk.old, after, unset)
        or (unset == "None" and _handed_on(brk, after, body))
    ):
        return _Stands(set_back=True, unset=unset)
    name = re.escape(brk.param)
    if re.search(rf"^\s*{name}\s*=(?!=)(?!\s*{name}\s*[,)])", body, re.M):
        return None  # set to something else, then maybe passed on (not "p=p," alone)
    # (None passed on where the old value was truthy is no longer it, unless a callee
    # says so; a sentinel is nothing but what its callee makes of it)
    passes = brk.old in _FALSY or unset != "None"
    calls = _call_words(body, brk.param) if passes else frozenset()
    return _Stands(set_back=False, calls=calls, unset=unset) if calls else None


def _handed_on(brk: Breakage, after: str, body: str | None = None) -> bool:
    """Whether a parameter made ``None`` (a ``"default_changed"``) or moved (``"moved"``)
    is handed on, only when given, to another parameter of its function that takes its
    place: one whose default is the old one, or one now at its old position. structlog
    renamed ``ConsoleRenderer(pad_event=_EVENT_WIDTH)`` to ``pad_event_to`` and kept
    ``pad_event: int | None = None`` last, deprecated, with ``if pad_event is not None:`` /
    ``pad_event_to = pad_event``: a caller that passes nothing gets ``_EVENT_WIDTH`` still,
    one that passes it first sets ``pad_event_to`` as it did ``pad_event``."""
    if not brk.param or (brk.change == "default_changed" and brk.new != "None"):
        return False
    if body is None:
        body = _body(lines_of(after), (brk.line or 0) - 1)
    name = re.escape(brk.param)
    if not re.search(rf"^\s*if\s+{name}\s+is\s+not\s+None\s*:", body, re.M):
        return False
    takers = set(re.findall(rf"^\s*([A-Za-z_]\w*)\s*=\s*{name}\s*(?:#.*)?$", body, re.M))
    takers.discard(brk.param)
    obj = find(after, brk.qualname) if takers else None
    signature = obj.signature() if obj is not None and obj.kind == "function" else None
    if signature is None:
        return False
    if brk.change == "moved":
        positional = [
            p.name for p in signature[0] if p.positional and p.name not in ("self", "cls")
        ]
        at = brk.position
        return at is not None and at < len(positional) and positional[at] in takers
    defaults = {p.name: p.default for p in signature[0]}
    return any(
        (default := defaults.get(taker)) is not None
        and (default == brk.old or same_plain_value(default, brk.old))
        for taker in takers
    )


def _unset_name(
    default: str | None, text: str | None, body: str = "", param: str = ""
) -> str | None:
    """What a default that may stand for another value is written as: ``None``, or a
    sentinel object's name: one the module ``text`` binds to no plain value (``sentinel =
    _SENTINEL.sentinel``, ``_MISSING = object()``), else one named as such (``NOT_GIVEN``,
    ``helpers.UNSET``, ``_default``) or that the function's ``body`` tests ``param`` is
    (pandas' ``lib.no_default``, pydantic's ``PydanticUndefined``). None for a value: a
    literal, ``True``, a constant of a plain value (``DEFAULT_TIMEOUT = 60``), an enum
    member the function does not test by identity (``Mode.FAST``), a call."""
    if default == "None":
        return default
    if default is None or default in ("True", "False") or not _DOTTED.fullmatch(default):
        return None
    bound = _constant(text or "", default)  # (a plain name the module binds)
    if bound is not None:
        return None if plain_tree(bound) is not None else default
    if _SENTINEL_NAME.fullmatch(default.rsplit(".", 1)[-1]):
        return default
    tested = param and re.search(rf"\b{re.escape(param)}\s+is\s+{_unset_test(default)}", body)
    return default if tested else None


_DOTTED = re.compile(r"(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*")
_SENTINEL_NAME = re.compile(
    r"_*(?:sentinel|missing|unset|not_?given|not_?set|undefined|no_?arg|nothing|default"
    r"|use_\w*default)_*",
    re.I,
)


def _unset_test(unset: str) -> str:
    """A pattern of what ``p is <unset>`` compares with: ``None``, or the sentinel by its
    name, qualified or not (``sentinel``, ``helpers.sentinel``)."""
    if unset == "None":
        return "None"
    return rf"(?:[\w.]*\.)?{re.escape(unset.rsplit('.', 1)[-1])}\b"


def _same_default(
    brk: Breakage,
    before: str,
    after: str | None,
    imported: Callable[[str, bool], str | None] = lambda name, old: None,
) -> bool:
    """Whether a default written otherwise is the same: a constant of the old value, of the
    module or imported from another module of the repository (``imported(name, old)``:
    its value before or after the commit) (urllib3's ``amt=2 ** 16`` ->
    ``amt=_READ_CHUNK_SIZE``, and ``_READ_CHUNK_SIZE = 2**16``; ``encoding="utf-8"`` ->
    ``DEFAULT_ENCODING``; aiohttp's ``DEFAULT_CHUNK_SIZE`` from ``helpers``), or the other
    way round, compared as Python reads them (``" "`` is not ``""``, ``256 * 1024`` is
    ``2**18``); a marker made another that the function sets back to the same thing
    (:func:`_same_set_back`); and ``None`` made a sentinel that says it
    means what ``None`` meant, the default of the client (starlette's ``TestClient.get(
    follow_redirects=None)`` -> ``httpx._client.USE_CLIENT_DEFAULT``, which it had mapped
    ``None`` to: every ``client.get()`` of fastapi's tests was "affected"; where the old
    module named no such sentinel, ``None`` may have meant something else, no timeout).
    Another sentinel is no such constant: what the function does without the argument may
    have changed (jinja's ``enable_async=False`` -> ``missing``, set only when passed;
    click 8.3's ``flag_value=None`` -> ``UNSET``), so it is reported here (:func:`_sentinel`
    silences one its function sets back to the old value)."""
    if not after or not brk.param:
        return False
    if (
        brk.old == "None"
        and _USE_DEFAULT.fullmatch(brk.new or "")
        and re.search(rf"\b{re.escape(brk.new.rsplit('.', 1)[-1])}\b", before)
    ):  # (the old code already gave None that meaning: the sentinel was there)
        return True
    if _same_set_back(brk, before, after):
        return True
    old = _constant(before, brk.old) or imported(brk.old, True) or brk.old
    new = _constant(after, brk.new) or imported(brk.new, False) or brk.new
    return same_plain_value(old, new) or _keeps_old_value(new, old)


def _keeps_old_value(marker: str, old: str) -> bool:
    """Whether a default is a marker of a default in transition that keeps the old value,
    naming it ``old=`` beside the ``new=`` one to come (xarray's ``compat="no_conflicts"``
    -> ``_COMPAT_DEFAULT = CombineKwargDefault(name="compat", old="no_conflicts",
    new="override")``, which warns where the result would change: twenty "default changed"
    lines for a deprecation its changelog announces)."""
    if "old" not in marker:
        return False
    try:
        node = ast.parse(marker, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return False
    return isinstance(node, ast.Call) and any(
        k.arg == "old" and same_plain_value(ast.unparse(k.value), old) for k in node.keywords
    )


def _same_set_back(brk: Breakage, before: str, after: str) -> bool:
    """Whether a default that stands for another value (``None``, a sentinel) was made
    another such marker that the function sets back to the same thing (aiohttp's
    ``RequestInfo.__new__(real_url=_SENTINEL)`` -> ``sentinel``, with ``url if real_url is
    _SENTINEL else real_url`` -> ``url if real_url is sentinel else real_url``)."""
    obj = find(before, brk.qualname) if brk.param else None
    if obj is None or obj.kind != "function" or brk.old is None or brk.new is None:
        return False
    param = brk.param or ""
    old_body = _body(lines_of(before), obj.line - 1)
    new_body = _body(lines_of(after), (brk.line or 0) - 1)
    unset_old = _unset_name(brk.old, before, old_body, param)
    unset_new = _unset_name(brk.new, after, new_body, param)
    if not unset_old or not unset_new:
        return False
    old_to = _set_back_to(old_body, param, unset_old)
    new_to = _set_back_to(new_body, param, unset_new)
    if old_to is not None and old_to == new_to:
        return True
    return "None" not in (unset_old, unset_new) and _marked_alike(
        param, (old_body, unset_old, before), (new_body, unset_new, after)
    )


def _marked_alike(param: str, old: tuple[str, str, str], new: tuple[str, str, str]) -> bool:
    """Whether a function's body (before and after the commit: the body, the sentinel its
    parameter ``param`` defaults to, the module's source) reads the same but for the
    sentinel, and for a test of the old one's class made a test of identity, and does not
    pass the parameter on before it sets it: pytest made its ``notset = Notset()`` the
    shared ``NOTSET`` (``isinstance(value, Notset)`` -> ``value is NOTSET``), and
    ``MonkeyPatch.setattr(value)`` and more read "default changed". What the function does
    without the argument is what it did (a body changed anywhere, or a sentinel handed to
    another function, whose reading of it this does not see, still counts)."""

    def read(body: str, unset: str, text: str) -> str:
        made = re.search(
            rf"^{re.escape(unset)}\s*(?::[^=\n]*)?=\s*([A-Za-z_][\w.]*)\(\s*\)", text, re.M
        )
        if made is not None and made.group(1) not in _BUILTIN_NAMES:  # (its class tested)
            cls = re.escape(made.group(1))
            body = re.sub(rf"\bisinstance\(\s*(\w+)\s*,\s*{cls}\s*\)", rf"\1 is {unset}", body)
        body = re.sub(rf"(?<![\w.]){re.escape(unset)}(?![\w])", "\0", body)
        return "\n".join(line.strip() for line in body.split("\n") if line.strip())

    body = read(*old)
    return bool(body) and body == read(*new) and not _passed_before_set(old[0], param)


_BUILTIN_NAMES = frozenset(dir(builtins))


def _passed_before_set(body: str, param: str) -> bool:
    """Whether ``body`` passes ``param`` to a call before any line sets it (``return
    _lookup(key, default)``: the sentinel goes on, and what that function makes of it may
    have changed)."""
    name = re.escape(param)
    sets = re.compile(rf"^\s*{name}\s*(?::[^=\n]*)?=(?!=)")
    passes = re.compile(rf"[(,]\s*(?:\w+\s*=\s*)?\*{{0,2}}{name}\s*[,)]")
    for line in body.split("\n"):
        if sets.search(line):
            return False
        if passes.search(re.sub(r"\bisinstance\([^()]*\)", "", line)):  # (a test, no pass)
            return True
    return False


def _set_back_to(body: str, param: str, unset: str) -> str | None:
    """What ``body`` sets ``param`` to when it is ``unset`` (``if p is unset: p = x``, ``x
    if p is unset else p``), where that is a name, an attribute or a literal, or a call of
    one with plain arguments; None where it says no such thing."""
    m = re.search(_set_back(param, unset, r"([\w.]+(?:\([^()\n]*\))?)"), body, re.M)
    return None if m is None else next(g for g in m.groups() if g is not None)


def _imported_value(where: _Where, name: str, old: bool) -> str | None:
    """The value, as written, of a constant ``name`` that the module imports from another
    module of the repository (aiohttp's ``from .helpers import DEFAULT_CHUNK_SIZE``, where
    ``DEFAULT_CHUNK_SIZE = 2**18``), before the commit (``old``) or after it; None where no
    import of it leads to a module of the repository that assigns it."""
    view, public = where.view, where.public
    text = where.models.before if old else where.models.after
    rev = view.parent if old else view.sha
    if public is None or view.repo is None or not text or not rev:
        return None
    if not re.fullmatch(r"[A-Za-z_]\w*", name):
        return None
    package = where.path.endswith("__init__.py")
    dotted = _imported_as(view, public, where.module, text, name, package, rev=rev)
    if dotted is None:
        return None
    module, _, attr = dotted.rpartition(".")
    return next((_constant(t, attr) for _, t in _module_sources(view, public, module, rev)), None)


# a sentinel named for using the default (httpx's ``USE_CLIENT_DEFAULT``)
_USE_DEFAULT = re.compile(r"(?:[\w.]+\.)?_?USE_(?:\w+_)?DEFAULT")


def _constant(text: str, name: str) -> str | None:
    """The value a module-level constant ``name`` is assigned, as written (None: no such
    constant, or no plain name)."""
    if not re.fullmatch(r"[A-Za-z_]\w*", name):
        return None
    m = re.search(rf"^{name}[ \t]*(?::[^=\n]*)?=[ \t]*([^#\n]+)", text, re.M)
    if m is None:
        return None
    value = m.group(1).rstrip()
    if not brackets_balanced(code_of(value)):  # written over several lines: up to where it
        # closes (xarray's ``_COMPAT_CONCAT_DEFAULT = CombineKwargDefault(`` / ``name=…``;
        # a bracket in a string, ``OPEN = "("``, opens none)
        lines = text[m.end() :].split("\n", 40)[1:40]
        for k in range(len(lines)):
            whole = "\n".join([value, *lines[: k + 1]])
            if brackets_balanced(code_of(whole)):
                return whole
    return value


def _configured(body: str, param: str, old: str, module: str, unset: str = "None") -> bool:
    """Whether ``body`` takes a configured value when ``param`` is ``None`` (or the sentinel
    ``unset``) whose every setting is the old value:

    * an option read by its own name with the old one as its fallback, wherever the module
      reads it (``self.opts.many if many is None else many`` and ``self.many =
      getattr(meta, "many", False)``: marshmallow 3.22's ``Schema(many=None)`` reads
      ``class Meta: many``, ``False`` unless a schema sets it);
    * an attribute of the instance itself (``if catch_exceptions is None: catch_exceptions
      = self.catch_exceptions``) that its class sets only to the old value, or to its
      ``__init__``'s parameter whose default is the old one (``self.catch_exceptions =
      catch_exceptions`` and ``CliRunner.__init__(catch_exceptions=True)``: click 8.2's
      ``CliRunner.invoke``, whose every caller "relied" on a default it still gets).

    Another object's attribute (``self._client.timeout``), another class's setting or
    ``__init__`` (``self.timeout = 30`` elsewhere), a local, is no default of the option."""
    name, test = re.escape(param), _unset_test(unset)
    m = re.search(_set_back(param, unset, r"([\w.]+)\.(\w+)"), body, re.M)
    if m is None:
        return False
    found = m.groups()
    k = next(k for k in range(0, len(found), 2) if found[k] is not None)
    receiver, attr = found[k], found[k + 1]
    attr, value = re.escape(attr), _value(old)
    reads = re.findall(  # the option read by its own name, with its fallback
        rf"\.{attr}[ \t]*=[ \t]*getattr\([^()\n]*?,\s*[\"']{attr}[\"']\s*,\s*([^()\n]+?)\s*\)",
        module,
    )
    if reads:
        return all(re.fullmatch(value, r.strip()) for r in reads)
    block = _class_holding(module, body) if receiver == "self" else None
    if block is None:
        return False
    settings = [  # every setting of the attribute in the class but the one read here
        rhs.split("#")[0].strip()
        for rhs in re.findall(rf"\bself\.{attr}[ \t]*(?::[^=\n]+)?=(?!=)[ \t]*([^\n]+)", block)
        if not re.search(rf"\b{name}\s+is\s+{test}", rhs)
    ]
    return bool(settings) and all(_set_to(rhs, value, block) for rhs in settings)


def _class_holding(module: str, body: str) -> str | None:
    """The text of the top-level class whose methods include ``body`` (None: another
    place)."""
    at = module.find(body)
    if at < 0:
        return None
    start = module.rfind("\nclass ", 0, at)
    start = start + 1 if start >= 0 else (0 if module.startswith("class ") else -1)
    if start < 0:
        return None
    end = re.compile(r"\n(?=[^\s#)\]}])").search(module, at + len(body))
    block = module[start : end.start() if end else len(module)]
    return block if body in block else None


def _set_to(rhs: str, value: str, block: str) -> bool:
    """Whether an attribute a class sets to ``rhs`` is set to the old ``value``: the value
    itself, or a parameter of the class's ``__init__`` that defaults to it."""
    if re.fullmatch(value, rhs):
        return True
    if not rhs.isidentifier():
        return False
    default = rf"\b{re.escape(rhs)}\s*(?::[^=,()]*)?=\s*{value}\s*[,)]"
    return re.search(rf"\bdef\s+__init__\s*\([^()]*?{default}", block) is not None


def _value(old: str) -> str:
    """A pattern of the default ``old`` as the source may write it (``'utf-8'`` as
    ``"utf-8"`` too, ``1000`` as ``1_000``)."""
    try:
        value = ast.literal_eval(old)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return re.escape(old)
    if isinstance(value, str):
        quoted = re.escape(value)
        return rf"(?:'{quoted}'|\"{quoted}\")"
    if isinstance(value, int) and not isinstance(value, bool) and old.lstrip("-").isdigit():
        return "_?".join(re.escape(c) for c in old) + r"\b"  # (``1_000`` is 1000)
    return re.escape(old)


def resolves(text: str, param: str, old: str, unset: str = "None") -> bool:
    """Whether ``text`` sets ``param`` to ``old`` when it is ``None`` (or the sentinel
    ``unset``)."""
    name, value = re.escape(param), _value(old)
    pattern = _set_back(param, unset, value)
    if unset == "None":  # (a sentinel object is true, and no option reads it)
        pattern += (
            rf"|(?<![.\w]){name}\s+or\s+{value}\s*(?:[),#]|$)"
            rf"|^\s*{name}\s*=\s*[\w.]+\([^()]*,\s*{value}\s*,?\s*\)"  # (over lines too)
        )
    return re.search(pattern, text, re.M) is not None


def _set_back(param: str, unset: str, value: str) -> str:
    """A pattern of the ways a function sets ``param`` to ``value`` (a pattern) when it is
    ``unset``: ``if p is None:`` / ``p = value``, ``p = value if p is None``, ``value if p
    is None else p``."""
    name, test = re.escape(param), _unset_test(unset)
    return (
        rf"^\s*if\s+{name}\s+is\s+{test}\s*:\s*\n\s*{name}\s*=\s*{value}\s*(?:#.*)?$"
        rf"|(?<![.\w]){name}\s*=\s*{value}\s+if\s+{name}\s+is\s+{test}(?!\w)"
        rf"|(?<![.\w]){value}\s+if\s+{name}\s+is\s+{test}\s+else\s+{name}\b"
    )


_DEF = re.compile(r"^[ \t]*(?:async[ \t]+)?def[ \t]+(\w+)[ \t]*\(", re.M)


class _Resolvers:
    """The functions of a commit's Python modules (their bodies, split once, only when a
    default made ``None`` is passed on), and which of them set a parameter back to an old
    default, themselves or through the functions they pass it on to."""

    def __init__(self, view: CommitView) -> None:
        self._view = view
        self._bodies: dict[str, list[tuple[str, str]]] | None = None
        self._good: dict[tuple[str, str, str], set[str]] = {}

    def bodies(self) -> dict[str, list[tuple[str, str]]]:
        """Each function's bodies (one per def of that name), with their module's text."""
        if self._bodies is None:
            self._bodies = {}
            for path, text in self._view.after.items():
                if not text or not path.endswith(".py"):
                    continue
                lines = lines_of(text)
                at = line = 0
                for m in _DEF.finditer(text):
                    line += text.count("\n", at, m.start())
                    at = m.start()
                    self._bodies.setdefault(m.group(1), []).append((_body(lines, line), text))
        return self._bodies

    def good(self, param: str, old: str, unset: str = "None") -> set[str]:
        """The functions that set ``param`` back to ``old`` when it is ``unset`` (``None``
        or a sentinel), themselves or from what their instance was configured with (a call
        passing it on that names one of them stands for the old default: a function named
        as an argument counts, ``greenlet_spawn(self.sync_session.get, …, p=p)``)."""
        key = (param, old, unset)
        if key not in self._good:
            bodies = self.bodies()
            good = {
                n
                for n, found in bodies.items()
                if any(
                    resolves(b, param, old, unset) or _configured(b, param, old, module, unset)
                    for b, module in found
                )
            }
            callers = {n: [_call_words(b, param) for b, _ in found] for n, found in bodies.items()}
            grown = True
            while grown:  # (through the functions that pass it on to one that does)
                grown = False
                for name, words in callers.items():
                    if name not in good and any(w & good for w in words):
                        good.add(name)
                        grown = True
            self._good[key] = good
        return self._good[key]


_REACH = 2000  # characters a call's arguments are read back over, at most


def _call_words(body: str, param: str) -> frozenset[str]:
    """The names in the calls of ``body`` that pass ``param`` on by name (``f(x, p=p)``):
    the callee's and its arguments' up to it; where the body never names ``param``, those
    of the calls that pass keywords on (``**kwargs``: aiohttp's ``request(method, url,
    **kwargs)`` passes ``ssl`` on to ``_request``)."""
    words: set[str] = set()
    name = re.escape(param)
    passing = rf"[(,\s]{name}\s*=\s*{name}\s*[,)]"
    if not re.search(rf"(?<![\w.]){name}\b", body):
        passing = r"[(,\s]\*\*\s*[A-Za-z_]\w*\s*[,)]"
    for m in re.finditer(passing, body):
        at = m.start()
        if body[at] != "(":  # back to the bracket that opens the call
            depth, floor = 0, max(0, at - _REACH)
            while at > floor:
                at -= 1
                char = body[at]
                if char == ")":
                    depth += 1
                elif char == "(":
                    if not depth:
                        break
                    depth -= 1
            if body[at] != "(":
                continue  # (not found near enough: a string's bracket, or a long call)
        start = at
        while start > 0 and (body[start - 1].isalnum() or body[start - 1] in "_."):
            start -= 1
        words.update(re.findall(r"\w+", body[start : m.start()]))
    return frozenset(words)


def _took_nothing(before: str, qual: str, name: str) -> bool:
    """Whether the function ``qual`` of ``before`` refuses anything in its ``*name``: it
    asserts it empty (``assert len(args) == 0``, ``assert not args``) or raises if it is
    not (``if args: raise TypeError(…)``). xarray's plot methods took ``*args`` only to
    refuse them; ``*args`` -> ``*`` broke no call."""
    obj = find(before, qual)
    if obj is None or obj.kind != "function":
        return False
    body = code_of(_body(lines_of(before), obj.line - 1))
    n = re.escape(name)
    if len(re.findall(rf"(?<![\w.]){n}\b", body)) != 1:
        return False  # (used elsewhere too: passed on, or a nested function's own)
    return (
        re.search(
            rf"\bassert\s+(?:not\s+{n}\b|len\({n}\)\s*==\s*0\b)"
            rf"|\bif\s+(?:{n}|len\({n}\)(?:\s*(?:>|!=)\s*0)?)\s*:\s*(?:#[^\n]*)?\n\s*raise\b",
            body,
        )
        is not None
    )


def _body(lines: list[str], i: int) -> str:
    """The body of the function whose header starts at line index ``i`` of ``lines``
    (decorators above it): its lines after the header up to the first code line indented
    no deeper than the header (a comment at the margin ends nothing); all of ``lines``
    where ``i`` is no line."""
    if not 0 <= i < len(lines):
        return "\n".join(lines)
    while i < len(lines) - 1 and lines[i].lstrip().startswith("@"):
        i += 1  # (a decorator's line: the def below it)
    indent = len(lines[i]) - len(lines[i].lstrip())
    start = signature_end(lines, i) + 1  # (past the header: its brackets closed, its colon)
    end = start
    while end < len(lines):
        here = lines[end]
        code = here.lstrip()
        if code and not code.startswith("#") and len(here) - len(code) <= indent:
            break
        end += 1
    return "\n".join(lines[start:end])


# a class-level constant: ``    MXFP8 = 3  # W and A are MXFP8`` (its value stripped after:
# a lazy value before optional spaces and a comment was quadratic in a long string)
_MEMBER = re.compile(r"^([ \t]+)([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=[ \t]*([^#\n]*)", re.M)
# a class-level name: a field, annotated or assigned, or a def (no new name of the class)
_CLASS_NAME = re.compile(r"^([ \t]+)(?:(?:async[ \t]+)?def[ \t]+)?([A-Za-z_]\w*)[ \t]*[:=(]", re.M)
# values most fields share: no sign that one field became another
_COMMON_VALUES = frozenset(
    {"None", "True", "False", "0", "1", "-1", "0.0", "''", '""', "()", "[]", "{}"}
)


def _renamed_members(found: list[Breakage], before: str, after: str) -> list[Breakage]:
    """A removed class constant whose value a new constant of the class now has, alone:
    renamed (vllm-ascend 7d953ad renamed ``QuantType.MXFP8 = 3`` to ``W8A8MXFP = 3``: four
    "removed" members, now four renames that say their new names). A value written as a
    literal only (not ``auto()``), held by no other constant of the old class and not one
    most fields share (``None``, ``False``, ``0`` …); a new name the class did not have
    (SQLAlchemy's renumbered ``ExecutemanyMode`` kept ``EXECUTEMANY_VALUES_PLUS_BATCH``)."""
    members: dict[str, tuple[dict[str, str], set[str], dict[str, str]]] = {}
    out: list[Breakage] = []
    old_lines = lines_of(before)
    for brk in found:
        cls, _, name = brk.qualname.rpartition(".")
        line = old_lines[brk.line - 1] if brk.line and 0 < brk.line <= len(old_lines) else ""
        if brk.change != "removed" or not cls or "." in cls or not _literal_member(line, name):
            out.append(brk)  # (most removed members are methods: their class is not read)
            continue
        if cls not in members:
            members[cls] = (*_constants(before, cls), _constants(after, cls)[0])
        old, names, new = members[cls]
        value = old.get(name)
        fresh = [n for n, v in new.items() if v == value and n not in names]
        if (
            value is None
            or value in _COMMON_VALUES
            or list(old.values()).count(value) != 1
            or len(fresh) != 1
        ):
            out.append(brk)
        else:
            out.append(Breakage(brk.qualname, "renamed", old=name, new=fresh[0], line=brk.line))
    return out


def _literal_member(line: str, name: str) -> bool:
    """Whether ``line`` assigns the class constant ``name`` a literal."""
    m = _MEMBER.match(line)
    return m is not None and m.group(2) == name and _is_literal(m.group(3).rstrip())


# a value that reads as a literal at sight: a number, a plain string, True/False/None
_PLAIN_LITERAL = re.compile(r"""-?\d+(?:\.\d+)?|"[^"\\\n]*"|'[^'\\\n]*'|True|False|None""")


@lru_cache(maxsize=4096)  # (a class's constants are read before and after the commit)
def _is_literal(value: str) -> bool:
    if _PLAIN_LITERAL.fullmatch(value):
        return True
    try:
        ast.literal_eval(value)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    return True


def _constants(text: str, cls: str) -> tuple[dict[str, str], set[str]]:
    """The constants of top-level class ``cls``, name -> value as written (literals only:
    numbers, strings, tuples of them), and every name the class body defines."""
    obj = find(text, cls)
    if obj is None or obj.kind != "class":
        return {}, set()
    body = _body(lines_of(text), obj.line - 1)
    found: dict[str, str] = {}
    indent: str | None = None
    for m in _MEMBER.finditer(body):
        indent = m.group(1) if indent is None else indent
        if m.group(1) != indent or m.group(2) in found:
            continue  # (deeper: a method's; once: a name assigned again keeps its first)
        if _is_literal(value := m.group(3).rstrip()):
            found[m.group(2)] = value
    names = {m.group(2) for m in _CLASS_NAME.finditer(body) if m.group(1) == indent}
    return found, names | set(found)


MODULE_GROUPED_FROM = 5  # public names of a deleted module read as one item from this many


def _module_gone(items: list[ApiChange], module: str) -> list[ApiChange]:
    """A deleted module's public top-level names as one item, the module, when there are
    :data:`MODULE_GROUPED_FROM` or more (setuptools 530d1149 deleted ``pkg_resources``: 61
    lines of the Breaking section): its detail names the first three, its ``symbols`` all
    of them (a downstream checkout is searched for each, and for the module)."""
    names = [
        i for i in items
        if i.visibility is Visibility.PUBLIC and i.change is ApiChangeType.REMOVED
        and i.name.rpartition(".")[0] in (module, module.rpartition(".")[0]) and "(" not in i.name
    ]  # fmt: skip
    if len(names) < MODULE_GROUPED_FROM:
        return items
    shown = ", ".join(i.name.rpartition(".")[2] for i in names[:3])
    first = names[0]
    prefixes = {i.name.rpartition(".")[0] for i in names}  # (a private module's names as
    # its package exported them: named by the package)
    grouped = replace(
        first,
        name=prefixes.pop() if len(prefixes) == 1 else module,
        detail=f"{shown} (+{len(names) - 3})",
        symbols=[i.name for i in names],
        replacement="",
    )
    grouped_ids = {id(i) for i in names}
    return [grouped, *(i for i in items if id(i) not in grouped_ids)]


# a module-level warning, when the module is imported, that it is deprecated or will go
_WARNS_ON_IMPORT = re.compile(
    r"^(?:warnings\.)?warn\((?:[^()]|\([^()]*\)){0,400}?"
    r"(?:Deprecat|FutureWarning|will be removed|no longer)",
    re.M | re.S,
)


def _aliased(view: CommitView, module: str) -> bool:
    """Whether a module of the commit puts ``module`` (or a package above it) in
    ``sys.modules`` by name: still importable (requests 28666e5d3a replaced the package
    ``requests/packages/`` by ``requests/packages.py``, which fills
    ``sys.modules[f"requests.packages.{mod}"]``)."""
    parts = module.split(".")
    prefixes = {".".join(parts[:k]) for k in range(2, len(parts) + 1)}
    for text in view.after.values():
        if text and "sys.modules[" in text:
            for m in re.finditer(r"""[fFrRbBuU]{0,2}["']([\w.]+?)\.?(?:\{|["'])""", text):
                if m.group(1) in prefixes:
                    return True
    return False


def _empty_module_gone(
    view: CommitView, path: str, module: str, before: str, public: PublicSurface | None
) -> ApiChange | None:
    """A deleted module that defined no public name, as one item: ``import module`` breaks.
    Public where users were meant to import it: the project names it as public, or its
    import warned that it is deprecated (scipy f29f562b19 deleted ``scipy.misc``, whose only
    code was "scipy.misc is deprecated and will be removed in 2.0.0"); a private module
    (``click._unicodefun``, deleted in 8.1.0, which black imported to patch) is an internal
    item, which only a downstream checkout that imports it sees; any other module, of
    helpers or imported for its side effects, stays silent, and so does one the commit puts
    back in ``sys.modules`` by its name."""
    if path.endswith("__main__.py") or _aliased(view, module):
        return None
    private = is_private_module(path)
    dotted = path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    if private and (
        "." not in module or dotted not in (module, f"src.{module}") or not _in_package(view, path)
    ):
        return None  # a script, or a package, in a folder no package holds (scipy's
        # ``_build_utils/tempita/``: its build tools; ``setup_helpers/_x.py``)
    if (
        not private
        and not (public is not None and module in public.modules)
        and not _WARNS_ON_IMPORT.search(before)
    ):
        return None
    return ApiChange(
        kind=RadarKind.PYTHON_API,
        change=ApiChangeType.REMOVED,
        name=module,
        detail="module",
        path=path,
        line=1,
        visibility=Visibility.INTERNAL if private else Visibility.PUBLIC,
    )


def _in_package(view: CommitView, path: str) -> bool:
    """Whether the folder of a deleted module (or package) was a package before the commit
    (its ``__init__.py`` was there)."""
    folder = path.removesuffix("/__init__.py").rpartition("/")[0]
    if not folder or view.repo is None:
        return bool(folder)
    init = f"{folder}/__init__.py"
    found = view.before.get(init)
    if found is None:
        found = view.repo.texts(view.parent, [init])[init]
    return found is not None


def _modules_gone(items: list[ApiChange]) -> list[ApiChange]:
    """Deleted modules of a deleted package as the package's one item (its ``symbols``
    name the modules): ``scipy.misc``, not also ``scipy.misc.common`` and ``…doccer``. A
    module in nested deleted packages is the outermost one's."""
    modules = {i.name for i in items if i.detail == "module" and i.kind is RadarKind.PYTHON_API}
    packages = sorted(
        (i.name for i in items if i.name in modules and i.path.endswith("__init__.py")), key=len
    )
    outer = {m: next((p for p in packages if m.startswith(p + ".")), None) for m in modules}
    kept: list[ApiChange] = []
    for item in items:
        if item.name not in modules or item.detail != "module":
            kept.append(item)
        elif outer[item.name] is None:  # (else: in its package's symbols)
            inside = sorted(m for m, p in outer.items() if p == item.name)
            kept.append(replace(item, symbols=[*item.symbols, *inside]))
    return kept


def _unserved(old: ModuleApi, new: ModuleApi, before: str) -> list[Breakage]:
    """Names a module ``__getattr__`` served before and the module no longer provides."""
    return [
        Breakage(name, "removed", line=line_of(before, f'"{name}"') or line_of(before, name))
        for name in sorted(old.getattr_names - new.getattr_names)
        if name not in old.objects and not new.provides(name)
    ]


@dataclass(frozen=True)
class _Where:
    """The module a commit changes, as its breakages are judged: the commit, the module's
    path and dotted name, both versions' models, the repository's public surface (None
    without one), the names a private module's package re-exports, and whether the module
    is private."""

    view: CommitView
    path: str
    module: str
    models: _Models
    public: PublicSurface | None
    reexports: dict[str, str]
    private: bool


def _item(where: _Where, brk: Breakage) -> ApiChange | None:
    """The radar's item for ``brk``, or None when users do not meet it."""
    view, path, module, models = where.view, where.path, where.module, where.models
    public, reexports, private = where.public, where.reexports, where.private
    qual = brk.qualname
    first, _, rest = qual.partition(".")
    served = first in models.getattr_names
    if qual in _MODULE_DUNDERS:
        return None
    if (
        brk.change in ("removed", "renamed")
        and not brk.param
        and rest
        and _still_inherited(view, path, module, qual, models, public)
    ):
        return None  # (a constant "renamed" that its base still defines: silent too)
    if (
        brk.change == "param_removed"
        and brk.param
        and brk.param[:1] == "*" != brk.param[1:2]
        and _took_nothing(models.before, qual, brk.param[1:])
    ):
        return None  # a ``*args`` its function refused to be given anything
    param = brk.param if brk.change == "param_removed" else None
    if param and param[:1] != "*":
        taken = _taken_in_kwargs(models.after, qual, param)  # by name, in ``**kwargs``
        shimmed = _shimmed(param, models.after, qual)  # or tested there, with a warning
        if (taken or shimmed) and (
            brk.position is not None
            and not _takes_position(models.after, qual, brk.position)
            and _optional(models.before, qual, param)
        ):  # a call that passed it by its position breaks (pytorch-lightning's
            # ``CometLogger(api_key=None, save_dir=None, …)`` -> ``(*, api_key=None, …,
            # **kwargs)``, which reads ``save_dir`` from ``kwargs`` with a warning); (a
            # required one is a decorator's to give: SQLAlchemy's ``@_db_plus_owner``)
            brk = replace(brk, change="keyword_only")
        elif (taken and brk.position is None) or shimmed:
            return None  # still taken by name (a shim: with a deprecation warning)
    if brk.change == "removed" and not brk.param and rest and _still_set(models, qual, brk.line):
        return None  # an instance attribute whose declaration in the class went
    if (
        brk.change == "removed"
        and not brk.param
        and rest
        and "." not in rest
        and models.after is not None
        and any(plain_base(b) == "Protocol" for b in bases_of(models.after, first) or ())
        and find(models.after, f"{first}.__getattr__") is not None
    ):
        return None  # a member a protocol's ``__getattr__`` now declares (SQLAlchemy's
        # ``DBAPIConnection`` traded ``autocommit: bool`` for ``__getattr__``; a class's own
        # ``__getattr__`` serves what it delegates to, not what it had: still a removal)
    if (
        brk.change == "bases"
        and models.after is not None
        and _still_derived(
            view, public, module, models, brk.old, brk.new, path.endswith("__init__.py")
        )
    ):
        return None  # a base replaced by a class of the repository that derives from it
    if brk.change == "bases" and _aliased_bases_kept(models, brk.old, brk.new):
        return None  # a base written as a module's alias of it (``IterableBase = Iterable``)
    if brk.change == "removed" and not rest and _star_provided(view, public, path, module, qual):
        return None  # moved, and the module star-imports it from its new home
    if brk.change == "removed" and not rest and _binds(models.before, brk.line, _LOGGER):
        return None  # the module's logger (``logger = get_logger(__name__)``): no API
    if brk.param and models.after is not None and _passes_all_on(models.after, qual):
        return None  # it takes every call it took, and passes it on
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
    heirs: list[str] = []
    if alias is None and rest and public is not None and not public.is_public(module, qual):
        heirs = _public_heirs(view, public, f"{module}.{first}", rest.split(".")[0])
    if alias is not None:
        public_dotted = alias + (f".{rest}" if rest else "")
        dotted = public_dotted if private else dotted
        visibility = Visibility.PUBLIC
    elif heirs:  # a member users reach through a public class that derives from its class
        dotted, visibility = f"{heirs[0]}.{rest}", Visibility.PUBLIC
    elif private:
        return None  # a private module's own names are no one's API
    elif (served or public is None or public.is_public(module, qual, models.all)) and not (
        brk.change == "removed"
        and not rest
        and _binds(models.before, brk.line, _TYPE_VARIABLE)
        and first not in (models.all or ())
    ):  # (a type variable goes with the generics written with it: no one imports it, unless
        # the module lists it in ``__all__``, as fastapi's ``types.DecoratedCallable``)
        visibility = Visibility.PUBLIC
    name = f"{dotted}({brk.param})" if brk.param else dotted
    param = f"({brk.param})" if brk.param else ""
    symbols = (
        [f"{heir}.{rest}{param}" for heir in heirs[1:]]  # the other public heirs
        if heirs
        else [
            f"{dotted.rsplit('.', 2)[0]}.{sub}.{rest.rsplit('.', 1)[-1]}{param}"
            for sub in _inheritors(models.after, first, rest)
        ]
        if rest and "." not in rest
        else []
    )
    hook = (
        brk.change in ("removed", "renamed")
        and not brk.param
        and bool(rest)
        and _calls_on_self(models.before, rest.rsplit(".", 1)[-1])
    )
    return ApiChange(
        kind=RadarKind.PYTHON_API,
        change=_CHANGE.get(brk.change, ApiChangeType.SIGNATURE_CHANGED),
        name=name,
        detail=_detail(brk),
        path=path,
        line=brk.line,
        visibility=visibility,
        position=brk.position if brk.param else None,
        symbols=symbols,
        hook=hook,
    )


def _still_set(models: _Models, qual: str, line: int | None) -> bool:
    """Whether the member ``qual`` (``Cls.attr``) was only declared in its class (``attr:
    T``, no value: no attribute of the class), or was a property, and the class still sets
    ``self.attr`` in a method after the commit: an instance attribute whose declaration
    went (openai-python's ``AsyncOpenAI`` dropped ``workload_identity: WorkloadIdentity |
    None`` and still sets ``self.workload_identity`` in ``__init__``), or a property made
    one (pytorch-lightning's "Revert Rerouting" made ``SLURMEnvironment.auto_requeue``, a
    property over ``self._impl``, ``self.auto_requeue = auto_requeue`` in ``__init__``:
    ten "removed" lines; ``obj.attr`` reads the same). Not a field of a dataclass-like
    class whose ``__init__`` is made from its fields: that one is a parameter gone."""
    cls, _, name = qual.rpartition(".")
    after = models.after
    if not after or not line or "." in cls or f"self.{name}" not in after:
        return False
    before = lines_of(models.before)
    declared = before[line - 1] if line <= len(before) else ""
    declaration = _DECLARED.fullmatch(declared) is not None and brackets_balanced(declared)
    if not declaration and not _a_property(models.before, qual):
        return False  # (a class attribute with a value: ``Cls.attr`` itself is gone; an
        # annotation over several lines may have one on its last; a method is called)
    obj = find(after, cls) if declaration else find(after, f"{cls}.__init__")
    if obj is None or obj.kind != ("class" if declaration else "function"):
        return False  # (a property's value is set where every instance gets it: in
        # ``__init__``, not in a method that may never run)
    body = _body(lines_of(after), obj.line - 1)
    if has_fields(obj) and "def __init__" not in body:
        return False
    return _at_word(rf"self\.{re.escape(name)}[ \t]*(?::[^=\n]*)?=(?!=)", body, dotted=False)


def _a_property(text: str, qual: str) -> bool:
    """Whether ``qual`` of the module ``text`` is a property (``@property``,
    ``@cached_property``, as :func:`find` reads them: attributes)."""
    obj = find(text, qual)
    return (
        obj is not None
        and obj.kind == "attribute"
        and any(
            d.split("(")[0].rsplit(".", 1)[-1] in ("property", "cached_property")
            for d in obj.decorators
        )
    )


# a declaration in a class body without a value: ``    name: Type``
_DECLARED = re.compile(r"[ \t]+[A-Za-z_]\w*[ \t]*:[^=\n]*")


def _calls_on_self(text: str, name: str) -> bool:
    """Whether a module calls method ``name`` on an instance or a class of its own
    (``self.name(``, ``cls.name(``): a hook its classes call, which a subclass overrides to
    be called (starlette's ``Router.on_event`` calls ``self.add_event_handler(…)``; nothing
    calls ``on_event`` itself, a decorator users call).

    (A ``\\b`` before the words made the regex try every character of the module: 1.3 ms
    for 200 KB; :func:`_at_word`: 30 µs.)"""
    return any(
        _at_word(rf"{who}\.{re.escape(name)}\s*\(", text, dotted=True)
        for who in ("self", "cls")
        if f"{who}.{name}" in text
    )


def _at_word(pattern: str, text: str, *, dotted: bool) -> bool:
    """Whether ``pattern``, which starts with its words (the regex engine looks for them as
    a string), matches in ``text`` where no name character comes before it (``dotted``: a
    dot may, ``x.self.m(`` as a leading ``\\b`` reads it; else it may not, the attribute of
    another object)."""
    for m in re.finditer(pattern, text):
        at = m.start()
        before = text[at - 1] if at else ""
        if not before or not (word_char(before) or (before == "." and not dotted)):
            return True
    return False


def _inheritors(text: str | None, cls: str, meth: str) -> list[str]:
    """Classes of the module that inherit ``cls.meth`` without defining it (``Option``
    inherits ``Parameter.make_metavar``): their users call the changed method too."""
    found: list[str] = []
    todo = [cls]
    while text and todo:
        for name in subclasses(text, todo.pop()):
            if name not in found and name != cls and find(text, f"{name}.{meth}") is None:
                found.append(name)
                todo.append(name)
    return found


def _detail(brk: Breakage) -> str:
    """What the name and change do not say, as code: ``5 → 10`` for a default,
    ``bases (A, Mixin) → (A)``, ``keyword-only``, ``position 2 → 1``."""
    if brk.change == "default_changed" and brk.shown is not None:
        return f"{brk.shown[0]} → {brk.shown[1]}"  # as the source writes them (``""``)
    if brk.change in ("default_changed", "renamed"):
        return f"{brk.old} → {brk.new}"
    if brk.change == "bases":
        return f"bases {brk.old} → {brk.new}"
    if brk.change == "keyword_only":
        return "keyword-only"
    if brk.change == "moved":  # "(+5)": five later parameters shift with it
        return f"position {brk.old} → {brk.new}" + (f" (+{brk.more})" if brk.more else "")
    if brk.change == "kind":
        return f"{brk.old} → {brk.new}"
    return ""


# matched in "\n" + the text: tried at each newline, not at every character of it
_STAR = re.compile(r"\nfrom[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+\*")


def _star_modules(text: str, module: str, is_init: bool) -> list[str]:
    """The modules ``text`` star-imports (``from .utils import *``), absolute."""
    return [
        absolute_module(module, len(dots), name, is_init)
        for dots, name in _STAR.findall("\n" + text)
    ]


def _star_provided(
    view: CommitView, public: PublicSurface | None, path: str, module: str, name: str
) -> bool:
    """Whether a module's ``from X import *`` (after the commit) brings ``name`` back: a
    module renamed with a star-import shim left at the old path."""
    after = view.after.get(path)
    if public is None or view.repo is None or name.startswith("_") or not after:
        return False
    for source in _star_modules(after, module, path.endswith("__init__.py")):
        for where in public.candidate_paths(source):
            text = view.after[where] if where in view.after else view.repo.text(view.sha, where)
            if text is not None:
                api = api_of(text, source, where.endswith("__init__.py"))
                if api.provides(name) and (api.all is None or name in api.all):
                    return True
                break
    return False


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
    return api_of(text, where, path.endswith("__init__.py")).provides(name)


def _reexports(view: CommitView, path: str, module: str, models: _Models) -> dict[str, str]:
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
        api = models.old
        names = api.all if api.all is not None else {
            n for n in api.objects if "." not in n and not n.startswith("_")
        }  # fmt: skip
        out.update({n: n for n in names})
    if init.all is not None:
        out = {k: v for k, v in out.items() if v in init.all}
    return out


def _still_inherited(
    view: CommitView,
    path: str,
    module: str,
    qual: str,
    models: _Models,
    public: PublicSurface | None,
) -> bool:
    """Whether the removed method ``qual`` (``Cls.meth``) is still there for users: its
    class inherits it from a base of the repository, or it only overrode an upstream one."""
    cls, _, meth = qual.rpartition(".")
    bases = bases_of(models.after, cls) if "." not in cls and models.after is not None else None
    if bases is None or models.after is None:
        return False
    before = find(models.before, qual)
    if (
        before is not None
        and (before.overrides or calls_super(models.before, before))
        and not _left_its_bases(bases_of(models.before, cls) or (), bases)
    ):
        return True  # (unless the class dropped its bases with it: pytorch-lightning's
        # ``NeptuneLogger(Logger)`` became a class that raises, its ``@override`` methods
        # gone; a mixin that never had one still hands the call on: Sphinx's
        # ``DocstringSignatureMixin.get_doc`` called ``super().get_doc()``)
    signature = before.signature() if before is not None and before.kind == "function" else None
    plain = (
        before is not None
        and (  # an attribute, or a method called with nothing more
            before.kind != "function"
            or (
                signature is not None
                and all(p.kind in ("varargs", "varkw") for p in signature[0][1:])
            )
        )
    )
    search = _MethodSearch(view, public, meth, plain)
    found = search.defines(module, models.after, cls, path.endswith("__init__.py"), 0)
    # every class has ``object``'s constructor: an ``__init__(self)`` that no base of the
    # repository defines is ``object``'s now, and the class is built as it was
    # (pytorch-lightning's ``KubeflowEnvironment(ClusterEnvironment(ABC))`` dropped its
    # ``__init__(self)``: still ``KubeflowEnvironment()``; werkzeug's ``Rule.__str__``,
    # whose ``str(rule)`` now gives another text, still counts)
    bare = signature is not None and len(signature[0]) == 1  # ``__init__(self)``: nothing more
    if found is None and _upstream_base_added(
        (models.before, models.after), bases_of(models.before, cls) or (), bases, module, public
    ):
        return True  # the class now derives from another class of the project it derived
        # from, which the commit made it derive from to inherit what it removed (vllm-ascend's
        # ``AscendFp8Config(QuantizationConfig)`` became ``(Fp8Config)``, vLLM's, and its
        # ``get_name``, ``from_config`` … "removed"; the ``bases`` item still says so)
    return found is True or (found is False and bare and meth == "__init__")


def _upstream_base_added(
    texts: tuple[str, str],
    old: tuple[str, ...],
    new: tuple[str, ...],
    module: str,
    public: PublicSurface | None,
) -> bool:
    """Whether the commit replaced a base of a class that the module (``texts``: before
    and after) imports from another project (not this one, not the standard library) by
    another class of that project: vllm-ascend's ``(QuantizationConfig)`` became
    ``(Fp8Config)``, both vLLM's. (A class that only gains a base, ``Settings`` made a
    pydantic ``BaseModel``, inherits nothing it defined itself.)"""
    olds, news = {plain_base(b) for b in old}, {plain_base(b) for b in new}
    dropped = [b for b in old if plain_base(b) not in news]
    added = [b for b in new if plain_base(b) not in olds]
    if not dropped or not added:
        return False
    ours = set(public.packages) if public is not None else {module.split(".")[0]}

    def project(base: str, imports: Mapping[str, str]) -> str:
        """The other project a base is imported from (``imports``: the module's), or ""."""
        target = imports.get(base.split("[", 1)[0].strip().split(".")[0]) or ""
        top = target.split(".")[0]
        return top if top and top not in ours and top not in _STANDARD else ""

    was, now = imports_in(texts[0]), imports_in(texts[1])
    from_dropped = {project(b, was) for b in dropped} - {""}
    return any(project(b, now) in from_dropped for b in added)


# what annotations and bases come from besides the standard library itself
_STANDARD = frozenset({*sys.stdlib_module_names, "typing_extensions"})


_NO_BASES = frozenset({"object", "Generic", "Protocol"})  # bases that define nothing
# and those whose methods are ``object``'s (``abc.ABC`` adds none)
_OBJECT_ONLY = frozenset({*_NO_BASES, "ABC"})


@dataclass
class _MethodSearch:
    """Where a class's method ``meth`` comes from, after the commit ``view``: the class or
    one of its bases, followed through the repository's modules (``public``'s paths);
    ``seen``: the classes already searched."""

    view: CommitView
    public: PublicSurface | None
    meth: str
    plain: bool = False  # the removed override took nothing but ``self`` (or an attribute)
    seen: set[str] = field(default_factory=set)
    cut: bool = False  # the search stopped at a class searched already or too deep

    def defines(self, module: str, text: str, cls: str, package: bool, depth: int) -> bool | None:
        """Whether class ``cls`` of ``module`` (source ``text``; ``package``: a package's
        ``__init__``) defines or inherits the method; ``None`` when a base lies outside the
        repository (unknown)."""
        view, seen = self.view, self.seen
        known = (module, cls, self.meth, self.plain)
        if known in view.inherits:  # (found for another class of the commit that derives
            return view.inherits[known]  # from it; True is never cut short by ``seen``)
        key = f"{module}.{cls}"
        bases = bases_of(text, cls)
        if depth > 8 or key in seen or bases is None:
            self.cut = self.cut or bases is not None  # (a class searched or too deep)
            return False
        seen.add(key)
        cut, self.cut = self.cut, False
        found = self._defines(module, text, cls, package, depth, bases)
        if found is True or not self.cut:  # (an answer no cut search made is anyone's)
            view.inherits[known] = found
        self.cut = self.cut or cut
        return found

    def _defines(
        self, module: str, text: str, cls: str, package: bool, depth: int, bases: tuple[str, ...]
    ) -> bool | None:
        """:meth:`defines` of a class not searched yet (its ``bases`` as written)."""
        view, meth, public = self.view, self.meth, self.public
        if find(text, f"{cls}.{meth}") is not None:
            return True
        unknown = False
        for base in bases:
            if not re.fullmatch(r"[A-Za-z_][\w.]*", base) or plain_base(base) in _OBJECT_ONLY:
                continue
            found: bool | None = None
            source = _class_origin(view, public, module, text, base, package)
            if source is not None:
                found = self.defines(*source, depth + 1)
            elif (builtin := _builtin_class(text, base)) is not None:
                # attrs' ``FrozenError(AttributeError)`` dropped its ``args`` override:
                # every exception has ``args``, and every dict ``keys()``; a method the
                # override took arguments for (``__init__(self, msg, key)``, ``get(self,
                # key, type=None)``) is gone
                found = hasattr(builtin, meth) and (
                    not callable(getattr(builtin, meth)) or self.plain
                )
            if found is True:
                return True
            unknown = unknown or found is None
        return None if unknown else False


# the public classes that derive from each class of the repository, per window (read at its
# start, once a member of a class that is not public itself changes)
class _Heir(NamedTuple):
    public: str  # how users reach it ("werkzeug.Request")
    path: str  # the file of the module that defines it
    name: str  # its name there


_HEIRS: weakref.WeakKeyDictionary[RepoView, dict[str, list[_Heir]]] = weakref.WeakKeyDictionary()
_HEIR_MODULES = 400  # modules of public objects read at most for it (openai-python: 1,500)


def _public_heirs(view: CommitView, public: PublicSurface, cls: str, member: str) -> list[str]:
    """How users reach the public classes that derive directly from the class ``cls``
    (``module.Name``) of the repository and do not define ``member`` themselves
    (werkzeug's ``wrappers.request.Request`` derives from ``sansio.request.Request``, which
    no one imports; httpx's ``Client`` from ``_client.BaseClient``): the member is theirs.
    (openai-python's ``OpenAI`` defines its own ``__init__``: what ``SyncAPIClient.__init__``
    takes is not what ``OpenAI()`` takes.)"""
    if view.repo is None:
        return []
    index = _HEIRS.get(view.repo)
    if index is None:
        index = _HEIRS[view.repo] = _heir_index(view, public)
    rev = view.repo.base or view.sha
    return [
        heir.public
        for heir in index.get(cls, [])
        if all(  # not its own at the window's start, nor after the commit (moved into it)
            find(text or "", f"{heir.name}.{member}") is None
            for text in (
                view.repo.text(rev, heir.path),
                view.after.get(heir.path) or view.repo.text(view.sha, heir.path),
            )
        )
    ]


def _heir_index(view: CommitView, public: PublicSurface) -> dict[str, list[_Heir]]:
    """Public classes by the classes they derive from, at the window's start (none when
    its public objects lie in more than :data:`_HEIR_MODULES` modules)."""
    by_module: dict[str, list[str]] = {}
    for dotted in sorted(public.objects):
        module, _, name = dotted.rpartition(".")
        by_module.setdefault(module, []).append(name)
    if view.repo is None or view.repo.base is None or len(by_module) > _HEIR_MODULES:
        return {}
    rev = view.repo.base
    paths = {m: p for m in by_module if (p := public.path_of(m)) is not None}
    texts = view.repo.texts(rev, paths.values())
    index: dict[str, list[_Heir]] = {}
    for module, path in paths.items():
        text = texts.get(path)
        if not text:
            continue
        package = path.endswith("__init__.py")
        derived = derived_classes(text)  # (most public objects are no class with bases)
        for name in by_module[module]:
            if name not in derived:
                continue
            heir = _Heir(public.aliases.get(f"{module}.{name}") or f"{module}.{name}", path, name)
            for base in bases_of(text, name) or ():
                key = _class_key(view, public, module, text, base, package, rev)
                if key != f"{module}.{name}" and heir not in index.setdefault(key, []):
                    index[key].append(heir)
    return index


def _builtin_class(text: str, base: str) -> type | None:
    """The built-in class a base names (``AttributeError``, ``dict``), unless the module
    defines or imports a class of that name itself."""
    found = getattr(builtins, base, None) if base.isidentifier() else None
    if not isinstance(found, type) or base in imports_of(text) or bases_of(text, base) is not None:
        return None
    return found


def _class_source(
    view: CommitView, public: PublicSurface | None, module: str, text: str, base: str,
    package: bool, rev: str | None = None,
) -> tuple[str, str, str, bool] | None:  # fmt: skip
    """Where the class a base of a class of ``module`` (source ``text``) names is defined
    after the commit (at ``rev``, when given): (its module, that module's source, its name
    there, whether that is a package ``__init__``); None outside the repository."""
    head, _, tail = base.partition(".")
    if not tail and bases_of(text, head) is not None:
        return module, text, head, package
    target = imports_of(text).get(head)
    if target is None or public is None or view.repo is None:
        return None
    target = _imported_module(module, target, package)
    where, _, name = (f"{target}.{tail}" if tail else target).rpartition(".")
    for path, other in _module_sources(view, public, where, rev):
        return where, other, name, path.endswith("__init__.py")
    return None


def _module_sources(
    view: CommitView, public: PublicSurface, module: str, rev: str | None
) -> Iterator[tuple[str, str]]:
    """(path, source) of each file of the repository that may be ``module`` (at ``rev``,
    else after the commit), in the order :meth:`PublicSurface.candidate_paths` gives."""
    if view.repo is None:
        return
    for path in public.candidate_paths(module):
        text = view.repo.text(rev or view.sha, path)
        if text is not None:
            yield path, text


def _aliased_bases_kept(models: _Models, old: str, new: str) -> bool:
    """Whether the old bases (written ``(A, B)``) of a class are all still its bases once
    the names each version binds to a class at its top are read as that class (aiohttp's
    ``AbstractCookieJar(Sized, IterableBase)`` -> ``(Sized, Iterable[Morsel[str]])``, where
    ``IterableBase`` was ``Iterable``, subscripted for type checkers only)."""
    before, after = models.before, models.after or ""
    old_aliases, new_aliases = class_aliases(before), class_aliases(after)
    if not old_aliases and not new_aliases:
        return False

    def read(written: str, aliases: dict[str, str]) -> tuple[str, ...]:
        return tuple(aliases.get(b.split("[", 1)[0].strip(), b) for b in _split_bases(written))

    return not bases_dropped(
        read(old, old_aliases), read(new, new_aliases), imports_of(before), imports_of(after)
    )


def _still_derived(
    view: CommitView, public: PublicSurface | None, module: str, models: _Models, old: str,
    new: str, package: bool,
) -> bool:  # fmt: skip
    """Whether the old bases (written ``(A, B)``) of a class of ``module`` are still its
    ancestors through its ``new`` bases, defined in the repository (werkzeug's
    ``ContentSecurityPolicy(UpdateDictMixin, dict)`` -> ``(CallbackDict[str, str])``, and
    ``class CallbackDict(UpdateDictMixin[K, V], dict[K, V])``). Each class is known by the
    module that defines it (a base outside the repository by its spelling: typer's
    ``click.Context`` -> ``_click.Context`` is another class)."""
    if generic_dropped(_split_bases(old), _split_bases(new)):
        return False  # no longer generic (``Box(dict, Generic[T])`` -> ``Box(dict)``)
    before, after = models.before, models.after or ""
    wanted = [  # each old base, as the tree before the commit had it, or as it is now
        # (moved, and still imported where it was)
        {_class_key(view, public, module, before, b, package, rev) for rev in (view.parent, None)}
        for b in _split_bases(old)
        if plain_base(b) not in _NO_BASES
    ]
    if not wanted:
        return False  # a typing base dropped (``Generic[T]``, none left): still a change
    found: set[str] = set()
    todo = [(module, after, b, package) for b in _split_bases(new)]
    while todo and not all(w & found for w in wanted) and len(found) < 32:
        where, text, base, is_init = todo.pop()
        key, origin = _identified(view, public, where, text, base, is_init)
        if key in found:
            continue
        found.add(key)
        if origin is not None:
            todo += [
                (origin[0], origin[1], b, origin[3]) for b in bases_of(origin[1], origin[2]) or ()
            ]
        elif "." in key or not _binds_itself(text, key):
            found |= _standard_ancestors(key)
    return all(w & found for w in wanted)


def _binds_itself(text: str, name: str) -> bool:
    """Whether a module binds ``name`` itself (:func:`binds_at_top`), or may (a star
    import): then a base of that name is not the built-in class (``ConnectionError =
    RequestError``, or a ``TimeoutError`` from ``from .errors import *``)."""
    return binds_at_top(text, name) or STAR_IMPORT.search(text) is not None


# standard modules whose classes users derive from, read for their ancestry (imported here,
# never a module a repository names: a name is looked up in these alone)
_ANCESTRY_MODULES = ("enum", "collections.abc", "numbers", "abc", "io")


def _standard_ancestors(key: str) -> set[str]:
    """The ancestors of a built-in or standard class a base names (``enum.StrEnum``: ``str``,
    ``enum.ReprEnum``, ``enum.Enum``), as :func:`_class_key` names them: litestar's
    ``HttpMethod(str, Enum)`` -> ``(StrEnum)`` and click's ``ParameterSource(enum.Enum)`` ->
    ``(enum.IntEnum)`` dropped no base. Empty for any other name."""
    module, _, name = key.rpartition(".")
    if not name.isidentifier():
        return set()
    if not module:
        found = getattr(builtins, name, None)
    elif module in _ANCESTRY_MODULES:
        found = getattr(sys.modules.get(module) or import_module(module), name, None)
    else:
        return set()
    if not isinstance(found, type):
        return set()
    return {
        c.__name__ if c.__module__ == "builtins" else f"{c.__module__}.{c.__qualname__}"
        for c in found.__mro__[1:]
        if c is not object
    }


def _class_key(
    view: CommitView, public: PublicSurface | None, module: str, text: str, base: str,
    package: bool, rev: str | None = None,
) -> str:  # fmt: skip
    """A base class as one name: ``module.Class`` where the repository defines it, else as
    its imports give it, else as written (without type arguments)."""
    return _identified(view, public, module, text, base, package, rev)[0]


def _identified(
    view: CommitView, public: PublicSurface | None, module: str, text: str, base: str,
    package: bool, rev: str | None = None,
) -> tuple[str, tuple[str, str, str, bool] | None]:  # fmt: skip
    """(:func:`_class_key`, :func:`_class_origin`) of a base, found once."""
    spelled = base.split("[", 1)[0].strip()
    origin = _class_origin(view, public, module, text, spelled, package, rev)
    if origin is not None:
        return f"{origin[0]}.{origin[2]}", origin
    return _imported_as(view, public, module, text, spelled, package, rev=rev) or spelled, None


def _class_origin(
    view: CommitView, public: PublicSurface | None, module: str, text: str, base: str,
    package: bool, rev: str | None = None,
) -> tuple[str, str, str, bool] | None:  # fmt: skip
    """:func:`_class_source`, followed through the modules that import the class in turn
    (a package ``__init__`` that re-exports it, a compat module) to the one that defines
    it; None where no module of the repository does. Once per commit for each base (the
    view keeps it: diffusers' pipelines share their bases, asked for each method)."""
    key = (module, id(text), base, package, rev)
    if key not in view.origins:
        view.origins[key] = _followed_origin(view, public, module, text, base, package, rev)
    return view.origins[key]


def _followed_origin(
    view: CommitView, public: PublicSurface | None, module: str, text: str, base: str,
    package: bool, rev: str | None,
) -> tuple[str, str, str, bool] | None:  # fmt: skip
    origin = _class_source(view, public, module, text, base, package, rev)
    if origin is None or bases_of(origin[1], origin[2]) is not None:
        return origin
    dotted = _imported_as(view, public, module, text, base, package, rev=rev)
    if dotted is None or public is None or view.repo is None:
        return None
    where, _, name = dotted.rpartition(".")
    for path, other in _module_sources(view, public, where, rev):
        if bases_of(other, name) is not None:
            return where, other, name, path.endswith("__init__.py")
    return None


def _imported_as(
    view: CommitView, public: PublicSurface | None, module: str, text: str, spelled: str,
    package: bool, depth: int = 0, rev: str | None = None,
) -> str | None:  # fmt: skip
    """The dotted name the imports of ``module`` (source ``text``) give ``spelled``,
    followed through the repository's modules (requests' ``cookielib.CookieJar``, with
    ``from .compat import cookielib`` and, in ``compat``, ``import http.cookiejar as
    cookielib``: ``http.cookiejar.CookieJar``); None where no import binds it."""
    head, dot, tail = spelled.partition(".")
    target = imports_of(text).get(head)
    if target is None:
        return f"{module}.{spelled}" if depth else None
    parts = f"{_imported_module(module, target, package)}{dot}{tail}".split(".")
    if public is None or view.repo is None or depth > 4:
        return ".".join(parts)
    for k in range(len(parts) - 1, 0, -1):  # the longest module of the repository it names
        where = ".".join(parts[:k])
        for path, other in _module_sources(view, public, where, rev):
            rest, is_init = ".".join(parts[k:]), path.endswith("__init__.py")
            return _imported_as(view, public, where, other, rest, is_init, depth + 1, rev)
    return ".".join(parts)


def _imported_module(module: str, target: str, package: bool) -> str:
    """The module an import of ``module`` names, as ``imports_of`` gives it (``..b`` for a
    relative one), absolute."""
    name = target.lstrip(".")
    return absolute_module(module, len(target) - len(name), name, package)


def _split_bases(written: str) -> list[str]:
    """The bases of a ``(A, mod.B[K, V])`` as written, split at the top-level commas."""
    parts: list[str] = []
    depth, start, inner = 0, 0, written.strip()[1:-1]
    for k, ch in enumerate(inner):
        depth += (ch in "([{") - (ch in ")]}")
        if ch == "," and not depth:
            parts.append(inner[start:k].strip())
            start = k + 1
    parts.append(inner[start:].strip())
    return [p for p in parts if p and "=" not in p.split("[", 1)[0]]


_DEPRECAT = re.compile("deprecat", re.I)


def _left_its_bases(old: tuple[str, ...], new: tuple[str, ...]) -> bool:
    """Whether a class that derived from a class derives from none any more."""
    return any(plain_base(b) not in _OBJECT_ONLY for b in old) and all(
        plain_base(b) in _OBJECT_ONLY for b in new
    )


def _signature_of(text: str | None, qual: str) -> tuple[tuple[Param, ...], tuple[str, ...]] | None:
    """The signature of the function ``qual`` of the module ``text`` (None: no such def, or
    a header that does not read)."""
    obj = find(text, qual) if text else None
    return obj.signature() if obj is not None and obj.kind == "function" else None


def _optional(before: str, qual: str, param: str) -> bool:
    """Whether the function ``qual`` of ``before`` gave its parameter ``param`` a default."""
    signature = _signature_of(before, qual)
    return signature is not None and any(
        p.name == param and p.default is not None for p in signature[0]
    )


def _takes_position(after: str | None, qual: str, position: int) -> bool:
    """Whether the function ``qual`` of ``after`` takes an argument passed at ``position``
    (0-based, self not counted): a parameter there, or its ``*args``; True where it is not
    known (no such def, or a header that does not read)."""
    signature = _signature_of(after, qual)
    if signature is None:
        return True
    params = signature[0]
    return len(passed_positionally(params)) > position or any(p.kind == "varargs" for p in params)


def _taken_in_kwargs(after: str | None, qual: str, param: str) -> bool:
    """Whether the function ``qual`` of ``after`` still takes the keyword ``param``, gone
    from its header, in its ``**kwargs`` (aiohttp's "Use kwargs in aiohttp.client.request":
    18 parameters "removed"), in any def of that qualname (aiohttp writes one for type
    checkers and one that runs): it reads it from them (``kwargs.pop("cookies", None)``;
    not to refuse it: ``if "timeout" in kwargs: raise TypeError(…)``), annotates them with
    a TypedDict that has it (``**kwargs: Unpack[_RequestOptions]``), or passes them on to
    a function of the module that takes it by that name, a method of its own class
    (``self._send(url, **kwargs)``) or a function of the module (``_request(method, url,
    **kwargs)``; another object's method, ``session._request``, and ``super()`` are not
    followed). Only the function's own module is read."""
    if not after:
        return False
    lines, name = lines_of(after), re.escape(param)
    cls = qual.rpartition(".")[0]
    for first in _defs_of(after, qual):
        header = "\n".join(lines[first : signature_end(lines, first) + 1])
        star = re.search(
            r"[(,]\s*\*\*\s*([A-Za-z_]\w*)\s*(?::\s*(?:[\w.]+\.)?Unpack\[\s*[\"']?(\w+))?", header
        )  # (the def's ``**kwargs``, not a default's ``2 ** 16``)
        if star is None:
            continue
        kw, typed = re.escape(star.group(1)), star.group(2)
        body = _body(lines, first)
        read = re.search(
            rf"(?<![\w.]){kw}\s*(?:\.\s*(?:pop|get|setdefault)\s*\(\s*|\[\s*)[\"']{name}[\"']", body
        )
        refused = re.search(  # (read as the test of an ``if`` whose block raises)
            rf"^\s*if\b[^\n]*(?<![\w.]){kw}\s*(?:\.\s*(?:pop|get)\s*\(\s*|\[\s*)[\"']{name}[\"']"
            rf"[^\n]*:\s*\n\s*raise\b",
            body,
            re.M,
        )
        if read is not None and refused is None:
            return True  # read from them
        keys = find(after, typed) if typed else None
        if (
            keys is not None
            and keys.kind == "class"
            and re.search(rf"^[ \t]+{name}[ \t]*:", _body(lines, keys.line - 1), re.M)
        ):
            return True  # a key of the TypedDict they are annotated with
        for call in re.finditer(
            rf"(?<![\w.])((?:self|cls)\.)?(\w+)\s*\([^()]*\*\*\s*{kw}\s*[,)]", body
        ):
            method = call.group(2)
            callee = _own_method(after, cls, method) if call.group(1) else find(after, method)
            taken = callee.signature() if callee is not None and callee.kind == "function" else None
            if taken is not None and any(
                p.name == param and p.kind in ("pos", "kwonly") for p in taken[0]
            ):
                return True  # passed on to a function that takes it
    return False


@lru_cache(maxsize=256)  # (asked for each parameter a def's header lost)
def _defs_of(text: str, qual: str) -> tuple[int, ...]:
    """The line indices of the defs of a module's source whose qualname is ``qual``: one,
    or a twin for type checkers beside the one that runs."""
    short = qual.rsplit(".", 1)[-1]
    found: list[int] = []
    line = at = 0
    # the name's defs found by the word "def" and the name (a search for the literal), each
    # then checked to start its line (:data:`_DEF`): each def of a long module was matched
    # and its name compared, 1.3 ms a call
    for m in re.finditer(rf"def[ \t]+{re.escape(short)}[ \t]*\(", text):
        start = text.rfind("\n", 0, m.start()) + 1
        whole = _DEF.match(text, start)
        if whole is None or whole.end() != m.end():
            continue
        line += text.count("\n", at, start)
        at = start
        if qualname_at(text, line) == qual:
            found.append(line)
    return tuple(found)


def _own_method(text: str, cls: str, method: str) -> Obj | None:
    """The def of ``method`` that ``self.method``/``cls.method`` calls in class ``cls`` of a
    module's source: the class's own, else the first its bases of the module define
    (followed down to three bases deep)."""
    todo, seen = [cls], set[str]()
    while todo and len(seen) < 4:
        current = todo.pop(0)
        if not current or current in seen:
            continue
        seen.add(current)
        found = find(text, f"{current}.{method}")
        if found is not None:
            return found
        todo += [plain_base(b) for b in bases_of(text, current) or ()]
    return None


def _shimmed(param: str, after: str | None, qual: str) -> bool:
    """The old parameter name is still handled with a deprecation warning: the module
    quotes it and says "deprecat…", and the function can still be given it by name (it
    takes ``**kwargs``, or a decorator that quotes it or says it handles arguments:
    ``@_warn_spider_arg``). Scrapy's "Remove most
    of the 2.13.0 deprecations" took ``spider`` from ``Scraper.close_spider(self)`` and its
    decorator with it; its module still quoted "spider" and warned of deprecations: four
    removals were missed."""
    if not after:
        return False
    quoted = any(f"{a}{param}{b}" in after for a in "\"'" for b in "\"'")
    if not quoted or _DEPRECAT.search(after) is None:
        return False
    obj = find(after, qual)
    if obj is None or obj.kind != "function":
        return True  # (not read: as it was)
    return _KWARGS.search(obj.header) is not None or any(
        quoted in d or _ARG_DECORATOR.search(d.split("(")[0])
        for d in obj.decorators
        for quoted in (f'"{param}"', f"'{param}'")
    )


_KWARGS = re.compile(r"[(,]\s*\*\*\s*[A-Za-z_]")  # a def's ``**kwargs`` (not ``2 ** 16``)
# a decorator that takes arguments by other names (``@_warn_spider_arg``, ``@deprecated_alias``)
_ARG_DECORATOR = re.compile(r"(?i)deprecat|renam|alias|kwarg|_arg$")
