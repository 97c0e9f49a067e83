"""Which files the radar reads, by their path alone.

The source asks :func:`read_at_all` of every file of every commit it reads (is its whole
patch kept for the radar?), so this module imports none of the kinds: a re-run whose items
the store has imports no kind at all (the kinds' imports, their patterns compiled, cost
every such run 0.15-0.3 s of its one busy core). Each kind asks the rule of its own files
here; ``driver.read_by_a_kind`` asks the kinds themselves what a commit's changed lines
need, and a test holds :func:`read_at_all` to what they say of a path alone.
"""

from __future__ import annotations

import re
from functools import lru_cache

from commitdigest.analysis.classify import is_changelog
from commitdigest.analysis.radar.models import is_test_or_docs, is_vendored

__all__ = [
    "fragment_heading",
    "is_config",
    "is_dependency_file",
    "is_fragment",
    "is_packaging",
    "is_setup_file",
    "read_at_all",
]


@lru_cache(maxsize=4096)
def read_at_all(path: str) -> bool:
    """Whether some kind may read ``path``, whatever its diff says, once per path: the
    source asks it of every file of every commit it reads (18,000 times for vllm-ascend's
    twelve weeks, 2,700 paths). A module of the project's own (not a test's, the docs' or
    its tooling's: the environment variables of a vendored copy count too), a changelog, a
    news fragment, shipped configuration, a dependency or setup file, a packaging file."""
    if path.endswith(".py"):
        return not is_test_or_docs(path)
    return (
        is_changelog(path)
        or is_fragment(path)
        or is_config(path)
        or is_dependency_file(path)
        or is_setup_file(path)
        or is_packaging(path)
    )


# ---- configuration (config_key) ------------------------------------------------------------

_CONFIG_NAME = re.compile(r"(config|settings|default|conf)[^/]*\.(toml|json|ya?ml|ini|cfg)$", re.I)


_NOT_SHIPPED_DIRS = frozenset(
    {"ci", "scripts", "script", "tools", "tool", "docker", "dockerfiles", "deploy", "hack",
     "example", "samples", "sample", "benchmark", "e2e", "fixtures", "testdata", "test_data"}
)  # fmt: skip
_TOOL_FILES = re.compile(
    r"^(pyproject\.toml|setup\.cfg|tox\.ini|mkdocs\.ya?ml|codecov\.ya?ml|renovate\.json5?|"
    r"dependabot\.ya?ml|readthedocs\.ya?ml|ruff\.toml|mypy\.ini|pytest\.ini|\..*"
    # release, build and lint tools' settings (openai-python's release-please-config.json)
    r"|(?:release-please|[jt]sconfig|eslint|prettier|babel|jest|vitest|commitlint"
    r"|lint-staged|cspell|knip|stylelint|typedoc|api-extractor|biome|dprint|changeset)"
    r"(?:[.-][\w.-]*)?)$",  # (tsconfig.build.json, eslint.config.json; not biomes_config)
    re.I,
)


def is_config(path: str) -> bool:
    """A configuration file the project ships to its users."""
    parts = path.split("/")
    name = parts[-1]
    if not _CONFIG_NAME.search(name) or _TOOL_FILES.match(name) or is_test_or_docs(path):
        return False
    return not any(p.startswith(".") or p.lower() in _NOT_SHIPPED_DIRS for p in parts[:-1])


# ---- dependencies and setup files (dependency) ---------------------------------------------

_SETUP_FILES = frozenset({"setup.py", "setup.cfg", "__setup__.py"})


def is_setup_file(path: str) -> bool:
    """A file of setuptools' arguments (:data:`_SETUP_FILES`) in any folder, not in tests,
    docs, examples, tooling or vendored code."""
    return _own_named(path, _SETUP_FILES)


def _own_named(path: str, names: frozenset[str]) -> bool:
    """Whether ``path`` is a file of one of ``names`` that the project ships: not a test's,
    the docs', an example's, its tooling's or a vendored project's."""
    return path.rpartition("/")[2] in names and not is_test_or_docs(path) and not is_vendored(path)


# a requirements file for work on the project, not for its users: a word of its name
# ("-dev", "_test", "docs."), not part of one ("docker", "device")
_DEV_FILE = re.compile(
    r"(?:^|[-_./])(?:dev|tests?|lint|docs?|ci|bench|build|mypy|typ(?:e|ing)|format|style"
    r"|pre-?commit|examples?)s?(?=$|[-_.])",
    re.I,
)


def is_dependency_file(path: str) -> bool:
    """A ``pyproject.toml``, or a requirements file that users install: ``requirements*.txt``
    or ``requirements/<name>.txt``, not one for development, tests or docs; none under
    examples, tests, docs or tooling."""
    if is_test_or_docs(path):
        return False
    folder, _, name = path.rpartition("/")
    if name == "pyproject.toml":
        return True
    if not name.endswith(".txt"):
        return False
    if name.startswith("requirements"):
        return _DEV_FILE.search(name[len("requirements") :]) is None
    in_folder = folder == "requirements" or folder.endswith("/requirements")
    return in_folder and _DEV_FILE.search(name) is None


# ---- the commands a package installs (cli_option) -------------------------------------------

_PACKAGING = frozenset({"pyproject.toml", "setup.cfg", "setup.py"})


def is_packaging(path: str) -> bool:
    """A file that declares the commands a package installs (not a test's, an example's or
    a vendored project's)."""
    return _own_named(path, _PACKAGING)


# ---- news fragments (announced) -------------------------------------------------------------

# a towncrier news fragment: ``<issue>.<type>[.<n>][.rst|.md|.txt]`` in a folder of them
_FRAGMENT_FOLDER = re.compile(
    r"^(?:changelog(?:\.d)?|changes(?:\.d)?|news|newsfragments|news[-_]fragments"
    r"|upcoming[-_]changes|changelog[-_](?:fragments|entries)|fragments)$",
    re.I,
)
_FRAGMENT_NAME = re.compile(r"^[^.\s]+\.([a-z_]+)(?:\.\d+)?(?:\.(?:rst|md|txt|markdown))?$", re.I)
# the folder's own files: its README, its templates (``_template.rst``, ``TEMPLATE.breaking.md``)
_NOT_A_FRAGMENT = re.compile(r"^[._]*(?:readme|template)\b", re.I)
# the extension's pending entries: ``unreleased_21/13350.rst``, one ``.. change::`` each
_PENDING_FOLDER = re.compile(r"^unreleased(?:[-_]\w+)?$", re.I)
# type -> the heading its entries sit under (None: not news for users)
_FRAGMENT_TYPES: tuple[tuple[re.Pattern[str], str | None], ...] = (
    (re.compile(r"breaking|compatibility|incompatible|break"), "Breaking changes"),
    # towncrier's "removal" is its "Deprecations and Removals": the words decide
    (re.compile(r"removals?"), "Deprecations and Removals"),
    (re.compile(r"removed?|expired"), "Removed"),
    (re.compile(r"deprecat(?:ion|ions|ed|e)"), "Deprecated"),
    (re.compile(r"bug|bugfix(?:es)?|fix(?:es|ed)?"), "Fixed"),
    (
        re.compile(
            r"(?:new_)?features?|added|improvements?|enhancements?|change[sd]?|performance"
            r"|highlight|security|packaging|c_api|other"
        ),
        "Changed",
    ),
    (
        re.compile(
            r"docs?|documentation|misc|trivial|process|contrib|vendor|internal|chores?|ci|tests?"
        ),
        None,  # (housekeeping mostly: aiohttp's misc fragments, pip's process ones)
    ),
)


@lru_cache(maxsize=16384)  # (the same paths, commit after commit)
def fragment_heading(path: str) -> str | None:
    """The heading a news fragment's entries sit under, from its type (its name), or ""
    for one whose directives say it (``unreleased_21/13350.rst``); None for any other file
    and for a fragment of a type users need not read (docs, misc, vendored code)."""
    folders, _, name = path.rpartition("/")
    folder = folders.rpartition("/")[2]
    if _NOT_A_FRAGMENT.match(name):
        return None
    if _PENDING_FOLDER.match(folder) and name.endswith(".rst"):
        return ""
    if not _FRAGMENT_FOLDER.match(folder):
        return None
    m = _FRAGMENT_NAME.match(name)
    kind = m.group(1).lower() if m else ""
    return next((heading for words, heading in _FRAGMENT_TYPES if words.fullmatch(kind)), None)


def is_fragment(path: str) -> bool:
    """Whether ``path`` is a news fragment whose entries may announce something."""
    return fragment_heading(path) is not None
