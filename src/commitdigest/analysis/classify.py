"""What a file of a commit is, by its path (and, for a changed file, its diff): the one file
classifier that importance, summaries, the radar and the LLM's file filter all use.

Two views of the same tables:

* :func:`classify_path` gives the :class:`Area` a path belongs to, checked in this order
  (the first that matches wins):

  1. ``generated``  vendored or generated code (``vendor/``, ``third_party/``, ``*_pb2.py``,
     minified bundles, snapshots ...)
  2. ``dependency`` dependency manifests and lockfiles (``requirements*.txt``, ``uv.lock`` ...)
  3. ``ci_build``   CI and build configuration (``.github/``, ``Dockerfile``, ``setup.py`` ...)
  4. ``tests``      test code (``tests/`` at any depth, ``test_*.py``, ``*_test.go`` ...)
  5. ``benchmarks`` top-level ``benchmarks/``, ``bench/`` ...
  6. ``examples``   top-level ``examples/``, ``samples/`` ...
  7. ``docs``       top-level ``docs/``; ``*.md``, ``*.rst`` ... anywhere
  8. ``source``     everything else: the code a user runs.

* :func:`classify` gives a changed file one :class:`FileKind` for the LLM's diff budget:
  ``binary`` (git's flag, or a media/archive/font/compiled extension), ``lock``,
  ``vendored``, ``generated`` (by name, or a "generated, do not edit" marker in the file's
  first lines), ``minified`` (by name, or a diff of mostly very long lines), else the area
  as ``test``, ``docs``, ``config`` or ``source``. Only the last four are
  :func:`patch_worthy`.
"""

from __future__ import annotations

import re
from enum import StrEnum
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from commitdigest.models import FileChange


class Area(StrEnum):
    SOURCE = "source"
    TESTS = "tests"
    DOCS = "docs"
    CI_BUILD = "ci_build"
    EXAMPLES = "examples"
    BENCHMARKS = "benchmarks"
    DEPENDENCY = "dependency"
    GENERATED = "generated"


# display order for summaries
AREA_ORDER: tuple[Area, ...] = tuple(Area)


# display order for summaries
class FileKind(StrEnum):
    SOURCE = "source"
    TEST = "test"
    DOCS = "docs"
    CONFIG = "config"  # configuration, build and CI files, dependency manifests
    LOCK = "lock"
    VENDORED = "vendored"
    GENERATED = "generated"
    MINIFIED = "minified"
    BINARY = "binary"


PATCH_KINDS: frozenset[FileKind] = frozenset(
    {FileKind.SOURCE, FileKind.TEST, FileKind.DOCS, FileKind.CONFIG}
)
"""The kinds whose diff text is worth the model's attention."""

_MEDIA_EXT = frozenset(
    {  # images
     "png", "jpg", "jpeg", "gif", "bmp", "ico", "icns", "webp", "tif", "tiff", "psd", "svg",
     "avif", "heic", "eps", "ai", "xcf",
     # audio / video
     "mp3", "wav", "ogg", "oga", "flac", "m4a", "aac", "opus", "mp4", "m4v", "mov", "avi",
     "mkv", "webm", "wmv", "flv",
     # archives / packages
     "zip", "tar", "gz", "tgz", "bz2", "xz", "zst", "7z", "rar", "jar", "war", "whl", "egg",
     "deb", "rpm", "dmg", "iso", "apk", "lockb",
     # fonts
     "ttf", "otf", "woff", "woff2", "eot",
     # documents, compiled code, data blobs and model weights
     "pdf", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "odt", "ods", "exe", "dll", "so",
     "dylib", "a", "lib", "o", "obj", "class", "pyc", "pyo", "wasm", "bin", "db", "sqlite",
     "sqlite3", "npy", "npz", "pkl", "pickle", "h5", "hdf5", "onnx", "pt", "pth", "ckpt",
     "safetensors", "parquet", "feather", "arrow", "tfrecord"}
)  # fmt: skip
_LOCK_FILES = frozenset(
    {"package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock",
     "poetry.lock", "uv.lock", "pdm.lock", "pipfile.lock", "cargo.lock", "go.sum", "go.work.sum",
     "gemfile.lock", "composer.lock", "packages.lock.json", "package.resolved", "pubspec.lock",
     "podfile.lock", "mix.lock", "flake.lock", "deno.lock", "conan.lock", "gradle.lockfile",
     ".terraform.lock.hcl", "cabal.project.freeze"}
)  # fmt: skip
_LOCK_NAME_RE = re.compile(r"\.(?:lock|lockfile)$|[.-]lock\.(?:json|ya?ml|hcl)$")
_VENDOR_DIRS = frozenset(
    {"vendor", "vendored", "_vendor", "third_party", "third-party", "thirdparty", "3rdparty",
     "node_modules", "bower_components", "external", "extern", "externals", "pods"}
)  # fmt: skip
_GENERATED_DIRS = frozenset({"generated", "__generated__", "gen-src", "__snapshots__"})
_GENERATED_NAME_RE = re.compile(
    r"(?:_pb2(?:_grpc)?\.pyi?|\.pb\.(?:go|cc|h|swift|dart)|_grpc\.pb\.go|\.pb\.gw\.go"
    r"|\.generated\.\w+|\.g\.dart|\.freezed\.dart|\.designer\.cs|\.snap"
    r"|\.(?:js|css|mjs)\.map)$|^zz_generated\.[\w.-]+\.go$"
)
_MINIFIED_NAME_RE = re.compile(r"[.-]min\.(?:js|mjs|cjs|css)$")
_GENERATED_MARKER_RE = re.compile(
    r"code generated\b[^\n]{0,200}?\bdo not edit"
    r"|@generated\b"
    r"|<auto-?generated"
    r"|\bdo not (?:edit|modify)\b[^\n]{0,100}?\b(?:auto-?|automatically )?generated\b"
    r"|\b(?:auto-?|automatically )?generated\b[^\n]{0,100}?\bdo not (?:edit|modify)\b"
    r"|\bthis (?:file|code) (?:is|was|has been) (?:auto-?|automatically )?generated\b"
    r"|\bgenerated by the protocol buffer compiler",
    re.IGNORECASE,
)
_FIRST_HUNK_RE = re.compile(r"^@@ -(\d+)(?:,\d+)? \+(\d+)", re.MULTILINE)
_MARKER_LINES = 15  # how many lines of the file's top are searched for a generated marker
_MARKER_TOP = 5  # ... when the first hunk starts this close to the top
_SAMPLE_CHARS = 64 * 1024  # how much of a patch the long-line check looks at
_LONG_LINE = 500
_VERY_LONG_LINE = 1000

_AREA_KIND = {
    Area.SOURCE: FileKind.SOURCE,
    Area.EXAMPLES: FileKind.SOURCE,
    Area.BENCHMARKS: FileKind.SOURCE,
    Area.TESTS: FileKind.TEST,
    Area.DOCS: FileKind.DOCS,
    Area.CI_BUILD: FileKind.CONFIG,
    Area.DEPENDENCY: FileKind.CONFIG,
    Area.GENERATED: FileKind.GENERATED,
}


_MANIFEST_FILES = frozenset(
    {"package.json", "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "poetry.lock",
     "uv.lock", "pdm.lock", "pipfile", "pipfile.lock", "cargo.toml", "cargo.lock", "go.mod",
     "go.sum", "gemfile", "gemfile.lock", "composer.json", "composer.lock", "environment.yml",
     "environment.yaml", "conda.yml", "conda.yaml", "pom.xml", "build.gradle",
     "build.gradle.kts", "gradle.lockfile", "packages.lock.json", "mix.lock", "flake.lock",
     "pyproject.toml", "setup.py", "setup.cfg"}
)  # fmt: skip
_DEPENDENCY_FILE_RE = re.compile(r"^(?:requirements|constraints)[\w.-]*\.(?:txt|in)$")
_CI_DIRS = frozenset(
    {".github", ".gitlab", ".circleci", ".buildkite", ".azure-pipelines", ".ci", "ci",
     ".devcontainer", "docker", "cmake"}
)  # fmt: skip
_CI_FILES = frozenset(
    {".gitlab-ci.yml", ".travis.yml", "azure-pipelines.yml", "jenkinsfile", "makefile",
     "cmakelists.txt", "tox.ini", "noxfile.py",
     ".pre-commit-config.yaml", "manifest.in", ".dockerignore", ".gitignore",
     ".gitattributes", ".readthedocs.yaml", ".readthedocs.yml", "codecov.yml", ".coveragerc",
     "mypy.ini", ".flake8", "ruff.toml", ".clang-format", "build.sh", "justfile"}
)  # fmt: skip
_CI_FILE_RE = re.compile(r"^(?:dockerfile[\w.-]*|[\w.-]+\.dockerfile|[\w.-]+\.cmake)$")
_TEST_DIRS = frozenset({"tests", "test", "testing", "__tests__", "spec", "specs", "testdata"})
_TEST_FILE_RE = re.compile(
    r"^(?:test_[\w.-]+\.py|[\w.-]+_test\.(?:py|go|cc|cpp|rs)|conftest\.py"
    r"|[\w.-]+\.(?:test|spec)\.[jt]sx?|[\w.-]+Test\.(?:java|kt))$"
)
_BENCH_DIRS = frozenset({"benchmarks", "benchmark", "bench", "benches"})
_EXAMPLE_DIRS = frozenset({"examples", "example", "samples", "sample", "demo", "demos"})
_DOC_DIRS = frozenset({"docs", "doc", "documentation"})
_DOC_FILE_RE = re.compile(
    r"(?:\.(?:md|markdown|rst|adoc|txt)|^(?:readme|changelog|changes|license|licence|notice"
    r"|authors|contributing|code_of_conduct|security)(?:\.\w+)?|^mkdocs\.ya?ml)$",
    re.IGNORECASE,
)
# layout directories that hold the real packages: skipped when naming a component
_LAYOUT_DIRS = frozenset({"src", "lib", "pkg", "packages", "internal", "crates", "apps"})


# vendored and generated code: one list for both views
_GENERATED_AREA_DIRS = _VENDOR_DIRS | _GENERATED_DIRS
_GENERATED_AREA_NAME_RE = re.compile(_GENERATED_NAME_RE.pattern + "|" + _MINIFIED_NAME_RE.pattern)
_DEPENDENCY_FILES = _MANIFEST_FILES | _LOCK_FILES


def _parts(path: str) -> list[str]:
    return [p for p in path.replace("\\", "/").split("/") if p not in ("", ".")]


_DATA_EXT = (".json", ".jsonl", ".csv", ".tsv", ".ndjson")
_DATA_NAME_RE = re.compile(
    r"[-_.](?:metadata|data|dump|fixtures?|snapshot)\.(?:json|jsonl|csv|tsv)$"
)
DATA_LINES = 500
"""A data file (JSON, CSV …) whose diff changes this many lines is generated data, not code."""


def classify_file(path: str, lines: int | None) -> Area:
    """:func:`classify_path`, and data files by what they are: a JSON/CSV file named as data
    (``download-metadata.json``, ``*_fixtures.json``) or changing ``DATA_LINES`` lines is
    generated data, not source (``lines``: the lines the diff adds and deletes)."""
    area = classify_path(path)
    if area is not Area.SOURCE:
        return area
    lname = path.rsplit("/", 1)[-1].lower()
    if lname.endswith(_DATA_EXT) and (
        _DATA_NAME_RE.search(lname) or (lines is not None and lines >= DATA_LINES)
    ):
        return Area.GENERATED
    return area


@lru_cache(maxsize=16384)  # a path's area never changes; a window names many paths often
def classify_path(path: str) -> Area:
    """The :class:`Area` a repository-relative path belongs to."""
    parts = _parts(path)
    if not parts:
        return Area.SOURCE
    dirs = [p.lower() for p in parts[:-1]]
    name = parts[-1]
    lname = name.lower()
    if any(d in _GENERATED_AREA_DIRS for d in dirs) or _GENERATED_AREA_NAME_RE.search(lname):
        return Area.GENERATED
    if dirs and dirs[0] in _CI_DIRS and dirs[0].startswith("."):  # .github/workflows/*-lock.yml
        return Area.CI_BUILD
    if (
        lname in _DEPENDENCY_FILES
        or _DEPENDENCY_FILE_RE.match(lname)
        or _LOCK_NAME_RE.search(lname)
    ):
        return Area.DEPENDENCY
    if dirs and dirs[0] == "requirements" and lname.endswith((".txt", ".in")):
        return Area.DEPENDENCY
    if (dirs and dirs[0] in _CI_DIRS) or lname in _CI_FILES or _CI_FILE_RE.match(lname):
        return Area.CI_BUILD
    if any(d in _TEST_DIRS for d in dirs) or _TEST_FILE_RE.match(name):
        return Area.TESTS
    # benchmarks/examples/docs only at the top (``vllm/benchmarks/serve.py`` is source)
    top = _top_dirs(dirs)
    if top & _BENCH_DIRS:
        return Area.BENCHMARKS
    if top & _EXAMPLE_DIRS:
        return Area.EXAMPLES
    if top & _DOC_DIRS or _DOC_FILE_RE.search(lname):
        return Area.DOCS
    return Area.SOURCE


_TOOLING_DIRS = frozenset(
    {"scripts", "script", "tools", "tool", "tooling", "hack", "dev", "devtools", "utils-dev",
     "build-support", "build-project", "release"}
)  # fmt: skip
_TEST_HARNESS_DIRS = frozenset({"playground", "e2e", "integration-tests", "test-utils"})
# (not a test framework's own package: pytest's ``src/_pytest/``, ``pytest_asyncio/``)
_TEST_HARNESS_RE = re.compile(
    r"^(?!(?:la|con|at|pro)tests?$)(?![\w-]*pytest)(?:test[\w-]*|[\w-]+tests?)$"
)
_SCRIPT_NAME_RE = re.compile(r"^[\w.]*-[\w.-]*\.py$")
"""A Python file no one can import (``fetch-download-metadata.py``): a script of the project's
own tooling, not a module of its package."""
_MAKE_NAME_RE = re.compile(r"^(?:makefile\.[\w.-]+|[\w.-]+\.mk)$", re.IGNORECASE)
_DOC_SOURCE_DIRS = frozenset({"docs_src", "docs-src", "doc_src", "docsrc"})


# (What's New as the file's whole name, or with a dotted version: not SQLAlchemy's
# ``whatsnew_20.rst``, a migration guide whose sections repeat its changelog's entries;
# Releases at the root only, Rust's ``RELEASES.md``: vite's ``docs/releases.md`` is its
# release policy)
_CHANGELOG_RE = re.compile(
    r"(?:^|/)(?:changelog|changes|news|history|release[-_ ]?notes"
    r"|what'?s[-_ ]?new(?:[-_ ]v?\d+(?:\.\d+)+)?\.)[^/]*$|^releases\.[^/]*$",
    re.IGNORECASE,
)
# one version's notes: a text file named with its version in a folder of them (IPython's
# ``whatsnew/version8.rst`` too)
_VERSION_NOTES_RE = re.compile(
    r"(?:^|/)(?:releases?|release[-_]notes|whatsnew|whats_new|changelogs?|changes|news)/"
    r"[\w-]*?(?:v?\d+(?:\.\d+)+|version[-_]?\d+)[\w.-]*\.(?:rst|md|txt|markdown)$",
    re.IGNORECASE,
)
# what a file named like a changelog is when it is not one: a translation catalog of the
# release notes (vllm-ascend's ``release_notes.po``, 700 KB), code (``history.py``), data or
# an image
_NOT_PROSE_RE = re.compile(
    r"\.(?:po|pot|mo|py|pyi|pyx|js|mjs|cjs|jsx|ts|tsx|vue|svelte|go|rs|rb|java|kt|kts|scala"
    r"|swift|c|cc|cpp|cxx|h|hh|hpp|cs|php|pl|lua|sql|sh|json|ya?ml|toml|cfg|ini|xml"
    r"|html?|css|csv|lock|png|jpe?g|gif|svg|ico|pdf|gz|zip)$",
    re.IGNORECASE,
)


@lru_cache(maxsize=16384)  # (as classify_path: the same paths, commit after commit)
def is_changelog(path: str) -> bool:
    """A changelog or release-notes file written for people (``CHANGELOG.md``, ``NEWS.rst``,
    ``CHANGES``, ``docs/release-notes.md``, Rust's ``RELEASES.md``, xarray's
    ``doc/whats-new.rst``, and one version's notes in a folder of them: scipy's
    ``doc/source/release/1.18.0-notes.rst``, Django's ``docs/releases/5.1.txt``, pandas'
    ``doc/source/whatsnew/v2.2.0.rst``), not code or data named like one."""
    return (
        _CHANGELOG_RE.search(path) is not None or _VERSION_NOTES_RE.search(path) is not None
    ) and _NOT_PROSE_RE.search(path) is None


def area_by_role(path: str, area: Area) -> Area:
    """The area of a path by whom it is for, where :func:`classify_path` only says
    ``source`` or ``dependency``: the project's own tooling is CI and build
    (``scripts/release.sh``, ``internal/tools/go.mod``, ``scripts/benchmark/uv.lock``,
    ``hack/``, a Python file with a hyphen in its name, ``Makefile.common``); a test harness
    is tests (``caddytest/``, vite's ``playground/``, ``…/test_vectors/`` deeper down);
    documentation sources are docs (``docs_src/``). The rule analyser judges a commit by
    it; the other views keep :func:`classify_path`."""
    if area not in (Area.SOURCE, Area.DEPENDENCY):
        return area
    parts = _parts(path)
    dirs = [p.lower() for p in parts[:-1]]
    tooling = bool(dirs) and (
        dirs[0] in _TOOLING_DIRS
        or (dirs[0] in _LAYOUT_DIRS and len(dirs) > 1 and dirs[1] in _TOOLING_DIRS)
    )
    if area is Area.DEPENDENCY:
        return Area.CI_BUILD if tooling else area
    name = parts[-1] if parts else ""
    if tooling or _SCRIPT_NAME_RE.match(name) or _MAKE_NAME_RE.match(name):
        return Area.CI_BUILD
    if dirs and (dirs[0] in _TEST_HARNESS_DIRS or any(_TEST_HARNESS_RE.match(d) for d in dirs)):
        return Area.TESTS
    if dirs and dirs[0] in _DOC_SOURCE_DIRS:
        return Area.DOCS
    return area


def _top_dirs(dirs: list[str]) -> set[str]:
    """The top directory, and in a monorepo (``packages/foo/docs``) a package's top one."""
    top = set(dirs[:1])
    if len(dirs) > 2 and dirs[0] in _LAYOUT_DIRS:
        top.add(dirs[2])
    return top


def component_of(path: str, area: Area | None = None) -> str:
    """The top-level component a path belongs to, for grouping and breadth.

    Source files: up to two directory levels below an optional layout directory
    (``vllm/entrypoints/openai/x.py`` -> ``vllm/entrypoints``, ``src/pkg/sub/m.py`` ->
    ``src/pkg/sub``). Other areas: their top directory (``tests/a/b.py`` -> ``tests``).
    A file at the repository root is its own component (``setup.py``).
    """
    parts = _parts(path)
    if not parts:
        return path
    dirs = parts[:-1]
    if not dirs:
        return parts[-1]
    if (area or classify_path(path)) is not Area.SOURCE:
        return dirs[0]
    depth = 3 if dirs[0].lower() in _LAYOUT_DIRS else 2
    return "/".join(dirs[:depth])


def is_python_source(path: str) -> bool:
    return path.endswith((".py", ".pyi"))


def kind_of_path(path: str) -> FileKind:
    """The kind a path alone says (no content checks, no binary flag)."""
    parts = _parts(path)
    if not parts:
        return FileKind.SOURCE
    name = parts[-1].lower()
    dirs = [d.lower() for d in parts[:-1]]
    ext = name.rpartition(".")[2] if "." in name else ""
    if ext in _MEDIA_EXT:
        return FileKind.BINARY
    if name in _LOCK_FILES or _LOCK_NAME_RE.search(name):
        return FileKind.LOCK
    if any(d in _VENDOR_DIRS for d in dirs):
        return FileKind.VENDORED
    if any(d in _GENERATED_DIRS for d in dirs) or _GENERATED_NAME_RE.search(name):
        return FileKind.GENERATED
    if _MINIFIED_NAME_RE.search(name):
        return FileKind.MINIFIED
    return _AREA_KIND[classify_path(path)]


def has_generated_marker(patch: str) -> bool:
    """Whether the diff shows a "generated, do not edit" marker in the file's first lines."""
    m = _FIRST_HUNK_RE.search(patch)
    if m is None or min(int(m.group(1)), int(m.group(2))) > _MARKER_TOP:
        return False
    start = end = m.end()
    for _ in range(_MARKER_LINES + 1):
        nl = patch.find("\n", end + 1)
        if nl < 0:
            end = len(patch)
            break
        end = nl
    return _GENERATED_MARKER_RE.search(patch, start, end) is not None


def looks_minified(patch: str) -> bool:
    """Whether the diff is mostly very long lines (minified code, one-line data blobs)."""
    lengths = [len(line) for line in patch[:_SAMPLE_CHARS].split("\n")]
    if max(lengths) < _VERY_LONG_LINE:
        return False
    return 2 * sum(n for n in lengths if n >= _LONG_LINE) >= sum(lengths)


def classify(file: FileChange) -> FileKind:
    """The :class:`FileKind` of one changed file (path, binary flag and diff text)."""
    if file.binary:
        return FileKind.BINARY
    kind = kind_of_path(file.path)
    if kind not in PATCH_KINDS or not file.patch:
        return kind
    if has_generated_marker(file.patch):
        return FileKind.GENERATED
    if kind is not FileKind.DOCS and looks_minified(file.patch):
        return FileKind.MINIFIED
    return kind


def patch_worthy(file: FileChange) -> bool:
    """Whether the file's kind deserves diff text (status and size are the planner's job)."""
    return classify(file) in PATCH_KINDS
