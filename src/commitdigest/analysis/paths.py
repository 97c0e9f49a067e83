"""File paths -> the area of the repository they belong to, and their top-level component.

Areas, checked in this order (the first that matches wins):

1. ``generated``  vendored or generated code (``vendor/``, ``third_party/``, ``*_pb2.py`` ...)
2. ``dependency`` dependency manifests and lockfiles (``requirements*.txt``, ``uv.lock`` ...)
3. ``ci_build``   CI and build configuration (``.github/``, ``Dockerfile``, ``setup.py`` ...)
4. ``tests``      test code (``tests/`` at any depth, ``test_*.py``, ``*_test.go`` ...)
5. ``benchmarks`` top-level ``benchmarks/``, ``bench/`` ...
6. ``examples``   top-level ``examples/``, ``samples/`` ...
7. ``docs``       top-level ``docs/``; ``*.md``, ``*.rst`` ... anywhere
8. ``source``     everything else: the code a user runs.
"""

from __future__ import annotations

import re
from enum import StrEnum
from pathlib import PurePosixPath


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

_GENERATED_DIRS = frozenset(
    {"vendor", "vendored", "_vendor", "third_party", "thirdparty", "3rdparty", "node_modules",
     "generated", "__generated__", "__snapshots__"}
)  # fmt: skip
_GENERATED_FILE_RE = re.compile(
    r"(_pb2(?:_grpc)?\.pyi?|\.pb\.go|\.pb\.(?:cc|h)|\.min\.(?:js|css)|\.generated\.\w+|\.snap)$"
)
_DEPENDENCY_FILES = frozenset(
    {"package.json", "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "poetry.lock",
     "uv.lock", "pdm.lock", "pipfile", "pipfile.lock", "cargo.toml", "cargo.lock", "go.mod",
     "go.sum", "gemfile", "gemfile.lock", "composer.json", "composer.lock", "environment.yml",
     "environment.yaml", "conda.yml", "conda.yaml", "pom.xml", "build.gradle",
     "build.gradle.kts", "gradle.lockfile", "packages.lock.json", "mix.lock", "flake.lock"}
)  # fmt: skip
_DEPENDENCY_FILE_RE = re.compile(r"^(?:requirements|constraints)[\w.-]*\.(?:txt|in)$")
_CI_DIRS = frozenset(
    {".github", ".gitlab", ".circleci", ".buildkite", ".azure-pipelines", ".ci", "ci",
     ".devcontainer", "docker", "cmake"}
)  # fmt: skip
_CI_FILES = frozenset(
    {".gitlab-ci.yml", ".travis.yml", "azure-pipelines.yml", "jenkinsfile", "makefile",
     "cmakelists.txt", "setup.py", "setup.cfg", "pyproject.toml", "tox.ini", "noxfile.py",
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


def _parts(path: str) -> list[str]:
    return [p for p in PurePosixPath(path.replace("\\", "/")).parts if p not in ("", ".", "/")]


def classify_path(path: str) -> Area:
    """The :class:`Area` a repository-relative path belongs to."""
    parts = _parts(path)
    if not parts:
        return Area.SOURCE
    dirs = [p.lower() for p in parts[:-1]]
    name = parts[-1]
    lname = name.lower()
    if any(d in _GENERATED_DIRS for d in dirs) or _GENERATED_FILE_RE.search(lname):
        return Area.GENERATED
    if lname in _DEPENDENCY_FILES or _DEPENDENCY_FILE_RE.match(lname):
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
