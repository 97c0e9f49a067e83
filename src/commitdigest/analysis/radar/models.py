"""The radar's data: one ``ApiChange`` per fact, and the per-commit view the kinds read."""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from commitdigest.facts import ApiChange as ApiChange
from commitdigest.facts import ApiChangeType
from commitdigest.facts import RadarKind as RadarKind

if TYPE_CHECKING:
    from commitdigest.analysis.radar.repo import RepoView


@dataclass(frozen=True)
class CommitView:
    """What a kind sees of one commit: its message and the touched files' blobs."""

    sha: str
    title: str
    body: str
    paths: tuple[str, ...]
    before: dict[str, str | None] = field(default_factory=dict)  # None: absent
    after: dict[str, str | None] = field(default_factory=dict)
    parent: str | None = None
    merged: tuple[str, ...] = ()  # the parents a merge brings in (all but the first)
    repo: RepoView | None = None  # the window's view: other files, tags, the public surface
    # the lines the commit adds or removes, per path, when the source had the whole patch
    # (absent: unknown, so every kind reads the file whole)
    changed: dict[str, str] = field(default_factory=dict)
    numbers: dict[str, tuple[frozenset[int], frozenset[int]]] = field(default_factory=dict)
    # Python files whose API could not be compared (a syntax error on either side); the
    # kinds add to it, the caller reports it
    unreadable: list[str] = field(default_factory=list)
    # (module, class, method, plain) -> whether the class defines or inherits the method
    # after the commit (python_api: diffusers removed four methods from 37 pipelines that
    # share their bases, each base read again for each)
    inherits: dict[tuple[str, str, str, bool], bool | None] = field(default_factory=dict)
    # (module, its source's id, a base as written, package, revision) -> where that base
    # class is defined (python_api's ``_class_origin``: asked again for each method)
    origins: dict[tuple[str, int, str, bool, str | None], tuple[str, str, str, bool] | None] = (
        field(default_factory=dict)
    )

    def touches(self, path: str, pattern: re.Pattern[str]) -> bool:
        """Whether the commit's changed lines of ``path`` may matter to a kind: ``pattern``
        is found in them, or they are not known."""
        lines = self.changed.get(path)
        return lines is None or pattern.search(lines) is not None


_TOOLING_ROOTS = frozenset({"tools", "scripts", "ci", "hack", "docker", "deploy"})
_NOT_SHIPPED = frozenset(
    {"tests", "test", "testdata", "docs", "doc", "examples", "benchmarks", "bench"}
)  # folders; and ``testing/`` at the root (pytest's tests), not inside a package, whose
# ``testing`` is its users' (``sphinx.testing``, ``numpy.testing``: fixtures and helpers)
# folder prefixes ("test_vectors/" of a Rust crate, "docs_src/", "example_app/")
_NOT_SHIPPED_PREFIXES = (".", "test_", "test-", "docs_", "docs-", "doc_", "example", "tutorial")


@lru_cache(maxsize=8192)  # the same paths, commit after commit
def is_test_or_docs(path: str) -> bool:
    """Tests, docs, examples, benchmarks and the repository's own tooling (a dot-folder
    such as ``.github/``, or ``tools/``, ``scripts/``, ``ci/`` at its root) are not what a
    package gives its users."""
    parts = path.split("/")
    name = parts[-1]
    if any(p in _NOT_SHIPPED or p.startswith(_NOT_SHIPPED_PREFIXES) for p in parts[:-1]):
        return True
    if len(parts) > 1 and (parts[0].lower() in _TOOLING_ROOTS or parts[0] == "testing"):
        return True
    return name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py"


# git pathspecs that leave out most of what is_test_or_docs() says is not shipped (its
# folders at any depth and its file names; not the tooling roots, whose case varies): a
# search of the repository reads half the files of a project with big tests
NOT_SHIPPED_PATHSPECS = (
    *(f":(exclude,glob)**/{name}/**" for name in sorted(_NOT_SHIPPED)),
    ":(exclude,glob)testing/**",
    *(f":(exclude,glob)**/{prefix}*/**" for prefix in _NOT_SHIPPED_PREFIXES),
    ":(exclude,glob)**/test_*.py",
    ":(exclude,glob)**/*_test.py",
    ":(exclude,glob)**/conftest.py",
)


_VENDORED = frozenset({"_vendor", "vendor", "vendored", "_vendored", "third_party", "extern"})


@lru_cache(maxsize=8192)  # the same paths, commit after commit
def is_vendored(path: str) -> bool:
    """A file of another project copied in (``pip/_vendor/``, ``third_party/``): its
    command line, its API and its deprecations are not this project's."""
    return any(part in _VENDORED for part in path.split("/")[:-1])


@lru_cache(maxsize=8192)  # the same paths, commit after commit
def is_own_python(path: str) -> bool:
    """A Python module of the code the project itself gives its users: not tests, docs or
    tooling (:func:`is_test_or_docs`), nor another project's copy (:func:`is_vendored`)."""
    return path.endswith(".py") and not is_test_or_docs(path) and not is_vendored(path)


@lru_cache(maxsize=8192)  # the same paths, commit after commit
def is_private_module(path: str) -> bool:
    """A module path with an underscore-led component (``__init__.py`` excepted)."""
    for part in path.removesuffix(".py").split("/"):
        if part.startswith("_") and part != "__init__":
            return True
    return False


def line_of(text: str, needle: str) -> int | None:
    """The 1-based line of the first occurrence of ``needle``."""
    idx = text.find(needle)
    return None if idx < 0 else text.count("\n", 0, idx) + 1


def removed_from(
    kind: RadarKind, name: str, path: str, before: str | None, needle: str | None = None
) -> ApiChange:
    """The item for ``name`` removed from ``path``, at the line of the old text ``before``
    where ``needle`` (default: the name) first appears."""
    return ApiChange(
        kind=kind,
        change=ApiChangeType.REMOVED,
        name=name,
        path=path,
        line=line_of(before or "", needle or name),
    )


@lru_cache(maxsize=64)
def toml_of(text: str) -> dict[str, Any] | None:
    """A TOML text's tables, parsed once per text and shared (never to be changed by who
    asks); None where it does not read as TOML. A ``pyproject.toml`` is read by the
    command-line kind and the dependency kind, and each version of it is both sides of
    neighbouring commits (Scrapy's five months parsed it 21 times, 0.1 s)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None


def items_digest(items: Sequence[ApiChange] | None) -> str:
    """12 hex digits over the items (their ``affects`` left out: a downstream's uses change no
    analysis), for the cache keys of analyses made with them."""
    payload = json.dumps(
        [i.as_json(affects=False) for i in items or ()],
        ensure_ascii=False,
        sort_keys=True,
    )
    return hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()[:12]


# 10: public/internal, inherited overrides, env reads only, shipped config only, releases,
#     ast-based API model (no griffe); 12: one item for parameters shifted together;
# 13: relative imports in a package __init__ resolved from the package; 14: read as real
#     code is written (signatures closing on their own line, CRLF, module-level blocks,
#     type arguments of bases, click/typer commands, docs_src/ and vendored code, only
#     dependencies users install, changelog headings and entries that announce nothing);
# 15: no deprecation from a comment about a warning, no API from a docstring's example, a
#     release dated again is not released again, a merge that brings a version tag releases it
# 16: a module read whole names what a module-level if/try/with sets as the module's (also
#     after a class) and no def of a docstring's example; CRLF patches' changed lines
# 19: news fragments and the changelog extension, one version's own notes files, a default
#     made None standing for the old one, a module made a package, src/ layouts
# 20: a deleted module without names, renamed class constants, a default written as a
#     constant of its value, What's New pages, a list's items by the entry that opens it
# 21: an announcement's symbols leave out where its names go from ("from `starlette.routing`")
# 22: a deleted private module is an internal item; a default made None that reads what the
#     constructor was given, whose own default is the old one, is no change
# 23: a warning about passing a parameter deprecates the parameter; None made
#     USE_CLIENT_DEFAULT is no change
# 24: a deprecated parameter's position; not what to pass instead, nor a test that it was left
#     out; a configured default only from the instance's own class
# 25: a removed or renamed method says whether the project calls it on its instances (hook)
# 26: a required field given a default is no default change
# 27: a field's default is its declaration's default (Field(5, description=…)), read around
#     the changed lines too; one taken away makes it required; an import a module with
#     __all__ drops is an export dropped; a class's declaration (x: T) dropped while its
#     methods still set self.x removes nothing
# 28: a name imported at run time and again under if TYPE_CHECKING: is still the module's; a
#     class written "class  Name" is looked in from the module's top
# 29: names a lazy module object serves (Hugging Face's _LazyModule and its import structure)
#     are public; an object removed with its re-exports is one item; a module's logger is no
#     API, and a function that takes (*args, **kwargs) removes no parameter; a function made a
#     class is compared with its __init__; "was silently dropped; now forwarded" is no removal;
#     features inside a breaking section of a changelog are no breaks
# 30: a default made a sentinel a function sets back, or a constant of the same value from
#     another module, is no change; a keyword kept in **kwargs is not removed; a base alias
#     is its class; a def with its body on its line has a signature, and one in a top-level
#     block below a class is the module's; a namespace package under src/ names its modules;
#     changelog entries: a deleted history, the project's tooling, a docs copy, a cause's
#     "breaking" and what others deprecated announce nothing
# 31: a private package served under its own name (setuptools' distutils) is public where the
#     docs name its modules; the methods a class made dataclass-like is given are no removal;
#     a __getattr__ a function makes, or one in a module-level block with its own table,
#     serves names; a function bound to another function's name is still a function
# 32: what a package imports for itself is no re-export; type checkers' stubs; changelog
#     entries edited in place; a getattr table's entry gone; kept imports (F401); defaults
#     in transition; a package's testing/ is shipped
# 33: a name gone from a line of several names of an import over several lines is found; a
#     removed override's super() call is read at its own lines in a module with page breaks
# 35: a deprecation marker in a docstring; python_requires on the line below its key
# 36: a table of variables only warned of is no read (nor a loop over os.environ, a WSGI
#     environ); one raise of Python per folder however written; defaults as written
# 37: a changelog's removal of code's layout (parentheses, blank lines) announces nothing
# 38: a helper's review of litestar, structlog, trio, peft (housekeeping's breaking marker,
#     litestar's changelog directives, __post_init__ deprecations, deprecate_attributes(),
#     a deprecation said to be over, symbols of what an entry adds, f-string replacements)
# 39: real August days read: a __getattr__ an imported factory makes; src/ layouts install
#     from src/ only; a moved config file; a module used by a package __init__; type
#     variables internal; history corrected in old sections; empty lines and "no longer
#     experimental"; a module deprecated by its warning; bare names resolved; members
#     inherited from a replacing upstream base
# 40: a module's name its __getattr__ serves after the commit (moved into its deprecation
#     table) is not removed, read around the changed lines as read whole; a default of a
#     header's own line in a package __init__ stays a default
RADAR_VERSION = 40


def cache_key(sha: str, base: str) -> str:
    """The radar cache key of one commit of a window that starts at ``base``: its SHA, the
    window's start (the public surface, which decides each item's visibility, is read
    there: a day scanned inside a longer window, once cached, gave the day's own report
    that window's visibility) and the radar version (here, not in the driver, so that a
    report whose radar facts are all cached imports no kind)."""
    return f"radar:v{RADAR_VERSION}:{base}:{sha}"
