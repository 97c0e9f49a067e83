"""Real release notes and deleted modules that a second reader of the radar's rules found
misread: each test holds the text or the shape of a real commit (named in it), and what a
user reading the report must see."""

from __future__ import annotations

import textwrap
import time
from pathlib import Path

import pytest
from gitfixture import CommitSpec, build_repo
from radarscan import MODES, scan_log
from test_radar_shapes import module_items, scan

from commitdigest.analysis.classify import is_changelog
from commitdigest.analysis.radar import python_api
from commitdigest.analysis.radar.announced import change_named
from commitdigest.analysis.radar.changelog import Entry, announces, plain_entry, sections
from commitdigest.analysis.radar.python_api import _configured
from commitdigest.models import ApiChangeType as T
from commitdigest.models import RadarKind


def _named(log: str) -> dict[str, T | None]:
    """Each announced entry's change, as announced.entry_item names it."""
    [section] = [s for s in sections(log) if s.version]
    out: dict[str, T | None] = {}
    for e in section.entries:
        found = announces(e)
        if found is not None:
            out[e.text] = found[0] or change_named(e.text, breaking=found[1], under=e.under)
    return out


# xarray doc/whats-new.rst v0.11.0 (line ~6930): "Finished deprecations" are removals
FINISHED = """\
v0.11.0 (7 November 2018)
-------------------------

Breaking changes
~~~~~~~~~~~~~~~~

- Finished deprecations (changed behavior with this release):

  - ``Dataset.T`` has been removed as a shortcut for :py:meth:`Dataset.transpose`.
    Call :py:meth:`Dataset.transpose` directly instead.
  - The old resample syntax from before xarray 0.10, e.g.,
    ``data.resample('1D', dim='time', how='mean')``, is no longer supported will
    raise an error in most cases.
"""


def test_a_removal_listed_under_finished_deprecations_is_no_deprecation() -> None:
    named = _named(FINISHED)
    removed = next(v for k, v in named.items() if k.startswith("``Dataset.T``"))
    assert removed is T.REMOVED
    resample = next(v for k, v in named.items() if k.startswith("The old resample"))
    assert resample is not T.DEPRECATED


# setuptools NEWS.rst v42.0.0: the list is of behaviour differences, not deprecations
SETUPTOOLS = """\
v42.0.0
=======

Breaking Changes
----------------
* #1830, #1909: Mark the easy_install script and setuptools command as deprecated, and use
  `pip <https://pip.pypa.io/en/stable/>`_ when available to fetch/build wheels for missing
  ``setup_requires``/``tests_require`` requirements, with the following differences in
  behavior:
   * support for ``python_requires``
   * eggs are not supported
   * no support for the ``allow_hosts`` easy_install option (``index_url``/``find_links``
     are still honored)
"""


def test_items_of_a_list_opened_by_a_deprecation_are_not_deprecations_themselves() -> None:
    named = _named(SETUPTOOLS)
    nested = {k: v for k, v in named.items() if not k.startswith("#1830")}

    assert T.DEPRECATED not in nested.values(), nested


# pytest changelog 6.0.0: an item whose own words say a default changed
PYTEST = """\
pytest 6.0.0 (2020-07-28)
=========================

Breaking Changes
----------------

- :issue:`5585`: As per our policy, the following features which have been deprecated in
  the 5.X series are now removed:

  * The ``funcargnames`` read-only property of ``FixtureRequest``. Use ``fixturenames`` attribute.

  * The default value for ``junit_family`` has changed to ``xunit2``. If you require the
    old format, add ``junit_family=xunit1`` to your configuration file.
"""


def test_a_list_item_that_says_its_default_changed_keeps_it() -> None:
    named = _named(PYTEST)
    junit = next(v for k, v in named.items() if "junit_family" in k)
    assert junit is T.DEFAULT_CHANGED


def test_a_class_named_default_is_no_default_change() -> None:
    """SQLAlchemy changelog_06.rst:4793 (tags dialect, refactor)."""
    text = (
        "DefaultRunner and subclasses have been removed.  The job of this object has been "
        "simplified."
    )
    assert change_named(text, breaking=True) is T.REMOVED
    assert change_named("``default_factory`` has been removed.", breaking=True) is T.REMOVED


# xarray whats-new v0.9.0: the nested list is opened by a later paragraph, not the bullet
IMPLICATIONS = """\
v0.9.0 (25 January 2017)
------------------------

Breaking changes
~~~~~~~~~~~~~~~~

- Index coordinates for each dimensions are now optional, and no longer created
  by default. You can identify such dimensions by their appearance in the repr:

  .. ipython:: python

      xr.Dataset({'foo': (('x', 'y'), [[1, 2]])})

  This has a number of implications:

  - :py:func:`~align` and :py:meth:`~Dataset.reindex` can now error, if
    dimensions labels are missing and dimensions have different sizes.
  - ``Dataset.__delitem__`` and :py:meth:`~Dataset.drop` no longer delete/drop
    variables that have dimensions matching a deleted/dropped variable.
"""


def test_a_list_opened_by_another_paragraph_does_not_take_the_bullets_words() -> None:
    named = _named(IMPLICATIONS)
    align = next(v for k, v in named.items() if "can now error" in k)
    assert align is not T.DEFAULT_CHANGED


@pytest.mark.parametrize(
    "text",
    [
        # uvicorn docs/release-notes.md 0.12.0 (under "Changed"): a real break, now missed
        "Uvicorn no longer ships extra dependencies `uvloop`, `websockets` and `httptools` as "
        "default. To install these dependencies use `uvicorn[standard]`.",
        "``Client`` no longer accepts extra keyword arguments.",
        "The CLI no longer accepts the redundant ``--foo`` flag.",
        "The parser no longer accepts an empty line between the header and the body.",
        "`read_rows()` no longer skips blank lines; they are yielded as empty rows.",
        "The config loader no longer ignores empty lines in `requirements.txt`.",
    ],
)
def test_no_longer_accepting_or_shipping_extra_things_still_breaks(text: str) -> None:
    assert announces(Entry(1, text, "Changed")) == (None, True)


@pytest.mark.parametrize(
    "text",
    [
        "The ``tojson`` filter now emits a deprecation warning when passed ``indent``.",
        "The legacy resolver now shows a deprecation warning.",
        "Custom handlers now raise a deprecation warning if they do not accept ``ctx``.",
        "Passing a host address now triggers a deprecation warning; pass ``host`` instead.",
    ],
)
def test_a_noun_before_a_deprecation_warning_is_no_warning_handled(text: str) -> None:
    assert announces(Entry(1, text, "Changed")) == (T.DEPRECATED, False)


def test_deprecated_things_that_now_raise_are_announced() -> None:
    # (it read as neither a break nor a deprecation)
    assert announces(Entry(1, "Deprecated aliases now raise an error.", "Changed")) is not None


def test_credit_regex_has_no_exponential_backtracking() -> None:
    text = "Fix x. By " + " and ".join(["x"] * 30) + " y y y y y"
    start = time.perf_counter()
    plain_entry(text)
    assert time.perf_counter() - start < 0.5  # (it took 1.2 s at 30, 165 s at 40)


BODY = "        self.timeout = self.opts.timeout if timeout is None else timeout\n"


def test_an_unrelated_assignment_of_the_old_value_is_not_the_configured_default() -> None:
    """The option the body reads defaults to 60 (getattr(meta, "timeout", 60)); the old
    default was 30. Another class resetting its own ``timeout`` to 30, or a local variable,
    must not make the new None stand for 30."""
    module = (
        "class Opts:\n    def __init__(self, meta):\n"
        "        self.timeout = getattr(meta, 'timeout', 60)\n\n\n"
        "class Retry:\n    def reset(self):\n        self.timeout = 30\n\n\n"
        "class Client:\n    def __init__(self, timeout=None):\n" + BODY
    )
    assert not _configured(BODY, "timeout", "30", module)


def test_a_local_variable_is_not_the_configured_default() -> None:
    module = (
        "def helper():\n    timeout = 30\n    return timeout\n\n\n"
        "class Opts:\n    def __init__(self, meta):\n"
        "        self.timeout = getattr(meta, 'timeout', 60)\n\n\n"
        "class Client:\n    def __init__(self, timeout=None):\n" + BODY
    )
    assert not _configured(BODY, "timeout", "30", module)


D = [f"2026-02-0{n}T10:00:00+00:00" for n in range(1, 10)]
WARNS = (
    'import warnings\nwarnings.warn("{} is deprecated and will be removed", DeprecationWarning)\n'
)


def _scan(tmp_path: Path, specs: list[CommitSpec]) -> list:
    shas = build_repo(tmp_path / "repo", specs)
    found = scan_log(tmp_path / "repo", f"{shas[0]}..{shas[-1]}", "whole files")
    return found[shas[-1]]


def test_an_unrelated_deleted_module_is_not_dropped_when_a_package_is_deleted_too(
    tmp_path: Path,
) -> None:
    """pkg.legacy (its own deleted module, warned on import) must stay an item when the
    same commit deletes the package pkg.old and its submodule pkg.old.a."""
    items = _scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "pkg/__init__.py": "def run():\n    pass\n",
            "pkg/old/__init__.py": WARNS.format("pkg.old"),
            "pkg/old/a.py": WARNS.format("pkg.old.a"),
            "pkg/legacy.py": WARNS.format("pkg.legacy"),
        }),
        CommitSpec("remove", D[1], files={
            "pkg/old/__init__.py": None, "pkg/old/a.py": None, "pkg/legacy.py": None,
        }),
    ])  # fmt: skip
    got = sorted((i.name, i.symbols) for i in items if i.kind is RadarKind.PYTHON_API)
    assert got == [("pkg.legacy", []), ("pkg.old", ["pkg.old.a"])]


def test_nested_deleted_packages_are_grouped_once(tmp_path: Path) -> None:
    """pkg.old and pkg.old.sub both deleted packages: pkg.old.sub.m belongs to pkg.old.sub
    (or the whole lot to pkg.old), deterministically, and no module is listed twice."""
    items = _scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "pkg/__init__.py": "def run():\n    pass\n",
            "pkg/old/__init__.py": WARNS.format("pkg.old"),
            "pkg/old/sub/__init__.py": WARNS.format("pkg.old.sub"),
            "pkg/old/sub/m.py": WARNS.format("pkg.old.sub.m"),
        }),
        CommitSpec("remove", D[1], files={
            "pkg/old/__init__.py": None, "pkg/old/sub/__init__.py": None,
            "pkg/old/sub/m.py": None,
        }),
    ])  # fmt: skip
    got = sorted((i.name, i.symbols) for i in items if i.kind is RadarKind.PYTHON_API)
    listed = [n for name, syms in got for n in [name, *syms]]
    assert len(listed) == len(set(listed)), got
    assert got == [("pkg.old", ["pkg.old.sub", "pkg.old.sub.m"])]  # (the outermost)


def test_a_subpackage_kept_importable_through_sys_modules_is_not_removed(tmp_path: Path) -> None:
    """requests 28666e5d3a: ``requests/packages/__init__.py`` became ``requests/packages.py``,
    which does ``sys.modules['requests.packages.urllib3'] = urllib3``; the deleted
    ``requests/packages/urllib3/__init__.py`` (``from urllib3 import *``) is still importable.
    It was reported removed (a module)."""
    shim = "import sys\n\nimport json\nsys.modules['pkg.packages.json'] = json\n"
    items = _scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "README.md": "Use `pkg.packages.json` for compatibility.\n",
            "pkg/__init__.py": "def run():\n    pass\n",
            "pkg/packages/__init__.py": "# vendored\n",
            "pkg/packages/json/__init__.py": "from json import *\n",
        }),
        CommitSpec("simplify", D[1], files={
            "pkg/packages/__init__.py": None, "pkg/packages/json/__init__.py": None,
            "pkg/packages.py": shim,
        }),
    ])  # fmt: skip
    assert [i.name for i in items if i.kind is RadarKind.PYTHON_API] == []


def test_sqlalchemy_whatsnew_narrative_is_no_changelog() -> None:
    assert not is_changelog("doc/build/changelog/whatsnew_20.rst")


def test_a_clause_of_why_with_verbs_of_its_own_is_still_a_clause() -> None:
    """llm's changelog: "… since the one we were using is no longer available" explains; a
    verb of its own ends a clause only before a name written as code ("When `strict` is on
    `None` is no longer accepted", its comma left out)."""
    log = (
        "## 1.0\n\n"
        "- Switched the default model since the one we were using is no longer available.\n"
        "- When `strict` is on `None` is no longer accepted.\n"
    )
    [section] = sections(log)
    assert [announces(e) is not None for e in section.entries] == [False, True]


def test_long_runs_of_spaces_and_references_read_in_linear_time() -> None:
    """Changelog text is untrusted: a role and a parenthesis after a long run of spaces took
    seconds (each space began a new attempt)."""
    from commitdigest.analysis.radar.changelog import plain_text

    start = time.perf_counter()
    plain_text(":pr:`1` (" + " " * 40_000 + "x")
    assert time.perf_counter() - start < 0.5


# ---- a second review: renamed constants, defaults written otherwise, more release notes ----


@pytest.fixture(params=MODES)
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def _items(tmp_path: Path, mode: str, before: str, after: str) -> list[tuple[str, str, str]]:
    [items] = module_items(tmp_path, mode, "pkg/mod.py", [("init", before), ("change", after)])
    return sorted((i.name, i.change.value, i.detail) for i in items)


# --- 4146da0 renamed class members --------------------------------------------------------


def test_rename_target_must_be_new_to_the_class(tmp_path: Path, mode: str) -> None:
    """vllm-ascend 0fbe0831ec: RecomputeSchedulerOutput had ``recomputed_reqs: list[...]``
    (no default) and ``kv_connector_metadata: Optional[...] = None``; the commit dropped
    kv_connector_metadata and gave recomputed_reqs ``= None``. Reported "renamed
    kv_connector_metadata → recomputed_reqs": recomputed_reqs is no new name, it was a field
    already (only ``_constants`` of literal members are checked as 'old')."""
    before = (
        "class Output:\n    recomputed_reqs: list[int]\n"
        "    kv_connector_metadata: object | None = None\n"
    )
    after = "class Output:\n    recomputed_reqs: list[int] | None = None\n"
    assert _items(tmp_path, mode, before, after) == [
        ("pkg.mod.Output.kv_connector_metadata", "removed", "")
    ]


def test_unrelated_fields_sharing_none_are_no_rename(tmp_path: Path, mode: str) -> None:
    """A removed optional field and an unrelated new one, both ``= None`` (or False, 0, "")
    read as a rename: "proxy → cert_file". The same None/False values are what most fields
    default to (pydantic c452a500a5: ``json_return_type: JsonReturnTypes | None = None`` ->
    ``return_type: Any = None``, a new parameter of another meaning, read as a rename)."""
    before = (
        "from dataclasses import dataclass\n\n@dataclass\nclass Options:\n"
        '    name: str = "x"\n    proxy: str | None = None\n    retries: int = 3\n'
    )
    after = (
        "from dataclasses import dataclass\n\n@dataclass\nclass Options:\n"
        '    name: str = "x"\n    retries: int = 3\n    cert_file: str | None = None\n'
    )
    assert _items(tmp_path, mode, before, after) == [("pkg.mod.Options.proxy", "removed", "")]


def test_a_required_field_given_a_default_is_no_default_change() -> None:
    """openai-python's generated models made response fields optional (``email: str`` ->
    ``email: Optional[str] = None``): read as "default changed → None", eight Breaking items
    over three months of its history, though no caller that passed the field breaks. A
    default that changes, or that is taken away, still counts."""
    from commitdigest.analysis.radar import pyapi

    before = (
        "from dataclasses import dataclass\n\n\n@dataclass\nclass User:\n"
        "    email: str\n    role: str = 'member'\n    name: str = 'x'\n"
    )
    after = (
        "from dataclasses import dataclass\nfrom typing import Optional\n\n\n@dataclass\n"
        "class User:\n    email: Optional[str] = None\n    role: str = 'owner'\n    name: str\n"
    )
    found = pyapi.compare(pyapi.module_api(before, "m"), pyapi.module_api(after, "m"), after)
    assert sorted((b.qualname, b.change, b.old, b.new) for b in found) == [
        ("User.name", "now_required", "'x'", ""),  # its default taken away
        ("User.role", "default_changed", "'member'", "'owner'"),
    ]


_FIELDS_BEFORE = (
    "from dataclasses import dataclass, field\n\nfrom pydantic import BaseModel, Field\n\n\n"
    "@dataclass\nclass SchedulerConfig:\n"
    "    max_num_seqs: int = 256\n"
    "    policy: str = field(default='fcfs')\n"
    "    tags: list[str] = field(default_factory=list)\n"
    "    chunk: int = 512\n\n\n"
    "class Request(BaseModel):\n"
    "    model: str = Field(..., description='the model')\n"
    "    n: int = Field(1, ge=1, description='choices')\n"
    "    seed: int | None = Field(default=None)\n"
    "    user: str = Field(\n        'anon',\n        description='who asks',\n    )\n"
    "    stream: bool = False\n"
    "    echo: bool = False\n"
)
_FIELDS_AFTER = (
    "from dataclasses import dataclass, field\n\nfrom pydantic import BaseModel, Field\n\n\n"
    "@dataclass\nclass SchedulerConfig:\n"
    "    max_num_seqs: int = 128\n"  # a default changed
    "    policy: str = 'fcfs'\n"  # written otherwise: the same default
    "    tags: list[str] = field(default_factory=set)\n"  # another factory
    "    chunk: int = 512  # tokens\n"  # a comment added
    "\n\nclass Request(BaseModel):\n"
    "    model: str | None = Field(None, description='the model')\n"  # required -> optional
    "    n: int = Field(1, ge=0, description='how many choices')\n"  # bounds and words only
    "    seed: int | None = Field(default=0)\n"  # a default changed
    "    user: str = Field(\n        'guest',\n        description='who asks',\n    )\n"
    "    stream: bool = Field(False, description='stream it')\n"  # the same default
    "    echo: bool = Field(description='echo it')\n"  # no default any more
)


@pytest.mark.parametrize("exports", ["", "__all__ = ['Request', 'SchedulerConfig']\n"])
def test_a_field_s_default_is_its_default_or_factory_whatever_else_its_declaration_says(
    tmp_path: Path, mode: str, exports: str
) -> None:
    """A dataclass-like field's default is what a caller who leaves it out gets: its value,
    or the ``default``/``default_factory`` of the call that declares it (pydantic's
    ``Field(1, ge=1, description=…)``, ``dataclasses.field``). A new description or bound
    was read as "default changed ``Field(1, ge=1, …)`` → ``Field(1, ge=0, …)``", and
    ``Field(...)`` (required) given a default as "default changed → ``Field(None, …)``".
    And a module read around its changed lines (no ``__all__``, the module a config class
    usually lives in: vLLM's ``SchedulerConfig.max_num_seqs``) reported no field's default
    at all; only a module modelled whole did. A default on a field's later line (``user``'s
    ``'anon'``) is read there too, and a default taken away makes the field required."""
    before, after = exports + _FIELDS_BEFORE, exports + _FIELDS_AFTER
    assert _items(tmp_path, mode, before, after) == [
        ("pkg.mod.Request.echo", "now_required", ""),
        ("pkg.mod.Request.seed", "default_changed", "None → 0"),
        ("pkg.mod.Request.user", "default_changed", "'anon' → 'guest'"),
        ("pkg.mod.SchedulerConfig.max_num_seqs", "default_changed", "256 → 128"),
        (
            "pkg.mod.SchedulerConfig.tags",
            "default_changed",
            "default_factory=list → default_factory=set",
        ),
    ]


def test_a_module_with_all_whose_commit_adds_imports_is_read_around_its_changed_lines(
    tmp_path: Path, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """openai-python's generated modules each have ``__all__``, and most of its commits add
    imports to them: each such module was modelled whole, both versions parsed (most of
    its radar's time). Where the commit's imports still bind every name they bound, or
    the ones they no longer bind are not in its ``__all__`` (a list written out), what
    ``__all__`` exports is still there: the module is read around its changed lines. A
    commit that drops an imported name it exports is still modelled whole, where the export it drops
    is found (with the whole files alone, or a cut patch, every such module is): it was
    found nowhere, the cheap surface check before the model left out a module's imports
    unless it was a package's ``__init__``."""
    from commitdigest.analysis.radar import python_api

    local: list[str] = []
    real = python_api.local_breakages

    def spy(before: str, after: str, removed: frozenset[int], added: frozenset[int]) -> object:
        local.append(after)
        return real(before, after, removed, added)

    monkeypatch.setattr(python_api, "local_breakages", spy)
    v0 = (
        '__all__ = ["Client", "DEFAULT"]\n\nfrom .base import DEFAULT\n\n\n'
        "class Client:\n    def get(self, url, timeout=5):\n        return url\n"
    )
    v1 = v0.replace("DEFAULT\n\n", "DEFAULT\nfrom .extra import Thing\n\n", 1)
    v1 = v1.replace("timeout=5", "timeout=10")
    v2 = v1.replace("from .base import DEFAULT\n", "")
    v3 = v2.replace("from .extra import Thing", "from .other import Helper")  # not exported
    v3 = v3.replace("timeout=10", "timeout=20")
    versions = [("init", v0), ("an import added", v1), ("one dropped", v2), ("swapped", v3)]
    added, dropped, swapped = module_items(tmp_path, mode, "pkg/mod.py", versions)
    assert [(i.name, i.change.value) for i in added] == [
        ("pkg.mod.Client.get(timeout)", "default_changed")
    ]
    assert [(i.name, i.change.value) for i in dropped] == [("pkg.mod.DEFAULT", "removed")]
    assert [(i.name, i.detail) for i in swapped] == [("pkg.mod.Client.get(timeout)", "10 → 20")]
    # (a cut patch's lines are unknown)
    assert sorted(local) == (sorted([v1, v3]) if mode == "patches" else [])


@pytest.mark.parametrize(
    ("declared", "kept"),
    [
        ("    retries: int\n", True),  # a declaration only: an instance attribute
        ("    retries: int = 3\n", False),  # a class attribute: ``Client.retries`` is gone
    ],
)
def test_a_declaration_dropped_from_a_class_that_still_sets_the_attribute_removes_nothing(
    tmp_path: Path, mode: str, declared: str, kept: bool
) -> None:
    """openai-python's ``AsyncOpenAI`` dropped its ``workload_identity: WorkloadIdentity |
    None`` line and still sets ``self.workload_identity`` in ``__init__``: "removed", and
    vllm-ascend's metadata builders dropped a dozen such declarations in a commit. A
    declaration without a value makes no class attribute; the instance still has it. A
    class attribute with a value is gone from the class, and a field of a dataclass whose
    ``__init__`` is made from its fields is a parameter gone, set in ``__post_init__`` or
    not; with an ``__init__`` of its own (``@dataclass(init=False)``) it is not."""
    init = "    def __init__(self, retries=3):\n        self.retries = retries\n"
    before = "class Client:\n" + declared + "    name: str\n\n" + init
    after = "class Client:\n    name: str\n\n" + init
    found = _items(tmp_path, mode, before, after)
    assert found == ([] if kept else [("pkg.mod.Client.retries", "removed", "")])
    post = "    def __post_init__(self):\n        self.retries = 3\n"
    for decorator, own_init, gone in (
        ("@dataclass", post, True),
        ("@dataclass(init=False)", init, False),
    ):
        head = f"from dataclasses import dataclass\n\n\n{decorator}\nclass Options:\n"
        fields = _items(
            tmp_path / decorator,
            mode,
            head + "    name: str\n    retries: int\n\n" + own_init,
            head + "    name: str\n\n" + own_init,
        )
        assert fields == ([("pkg.mod.Options.retries", "removed", "")] if gone else [])


def test_renamed_member_still_inherited_is_silent(tmp_path: Path, mode: str) -> None:
    """Child drops its override TIMEOUT = 30 (Base still defines it: silent before 4146da0,
    _still_inherited) and adds RETRY_DELAY = 30: now "renamed TIMEOUT → RETRY_DELAY" —
    _item's _still_inherited check only runs for change == "removed"."""
    before = "class Base:\n    TIMEOUT = 30\n\n\nclass Child(Base):\n    TIMEOUT = 30\n"
    after = "class Base:\n    TIMEOUT = 30\n\n\nclass Child(Base):\n    RETRY_DELAY = 30\n"
    assert _items(tmp_path, mode, before, after) == []


def test_member_regex_is_linear_on_a_long_line() -> None:
    """_MEMBER (and _constant's pattern): ``([^#\\n]*?)[ \\t]*(?:#.*)?$`` is quadratic in a
    run of spaces inside a value (a string literal). 40,000 spaces in one class-level string
    took ~23 s per version in a radar scan (old code: 0.08 s)."""
    line = '    BANNER = "a' + " " * 20000 + 'b"'
    t = time.perf_counter()
    python_api._MEMBER.match(line)
    python_api._constant(line.strip() + "\n", "BANNER")
    assert time.perf_counter() - t < 0.5


# --- f963a49 same default ---------------------------------------------------------------


def test_whitespace_inside_a_string_default_counts(tmp_path: Path, mode: str) -> None:
    """_same_default compares ``"".join(old.split())``: ``sep=" "`` -> ``sep=""`` and
    ``sep=", "`` -> ``sep=","`` read as the same default (reported before f963a49)."""
    before = (
        'def join(parts, sep=" "):\n    return sep.join(parts)\n\n\n'
        'def csv(parts, sep=", "):\n    return sep.join(parts)\n'
    )
    after = (
        'def join(parts, sep=""):\n    return sep.join(parts)\n\n\n'
        'def csv(parts, sep=","):\n    return sep.join(parts)\n'
    )
    assert [name for name, _, _ in _items(tmp_path, mode, before, after)] == [
        "pkg.mod.csv(sep)",
        "pkg.mod.join(sep)",
    ]


def test_sentinel_that_stands_for_another_value_changes_the_default(
    tmp_path: Path, mode: str
) -> None:
    """A falsy/None default replaced by a sentinel the function tests with ``is`` is taken
    as unchanged, whatever the function then does with it: here not passing ``check`` now
    means True, not passing ``timeout`` 30 (was None: no timeout). Both silent since f963a49.
    (Real: jinja 6aeab5d1da ``Environment.overlay(enable_async=False)`` -> ``missing``: the old
    code always set ``rv.is_async = enable_async`` (False), the new only when passed —
    an overlay of an async environment stays async now.)"""
    before = (
        "def run(cmd, check=False):\n    return go(cmd, check)\n\n\n"
        "def get(url, timeout=None):\n    return send(url, timeout=timeout)\n"
    )
    after = (
        "_UNSET = object()\n\n\n"
        "def run(cmd, check=_UNSET):\n    if check is _UNSET:\n        check = True\n"
        "    return go(cmd, check)\n\n\n"
        "def get(url, timeout=_UNSET):\n    if timeout is _UNSET:\n        timeout = 30\n"
        "    return send(url, timeout=timeout)\n"
    )
    assert [name for name, _, _ in _items(tmp_path, mode, before, after)] == [
        "pkg.mod.get(timeout)",
        "pkg.mod.run(check)",
    ]


def test_a_string_constant_of_the_same_value_is_the_same_default(tmp_path: Path, mode: str) -> None:
    """The rule f963a49 documents misses the commonest constant: a Breakage's old default is
    written as Python repr writes it (``'utf-8'``), _constant returns the source text
    (``"utf-8"``): ``encoding="utf-8"`` -> ``encoding=DEFAULT_ENCODING`` is still reported."""
    before = 'def read(path, encoding="utf-8"):\n    return open(path, encoding=encoding)\n'
    after = (
        'DEFAULT_ENCODING = "utf-8"\n\n\n'
        "def read(path, encoding=DEFAULT_ENCODING):\n    return open(path, encoding=encoding)\n"
    )
    assert _items(tmp_path, mode, before, after) == []


@pytest.mark.parametrize(
    "text",
    [
        # Scrapy 2.18.0 (docs/news.rst): a feature made stable, no break
        "The Twisted-based HTTP/2 download handler is no longer experimental.",
        "``RetryMiddleware.get_retry_request()`` is no longer considered provisional.",
        "The async API is no longer marked as beta.",
    ],
)
def test_what_is_no_longer_experimental_is_made_stable(text: str) -> None:
    assert announces(Entry(1, text, "Changes")) is None


def test_what_no_longer_takes_an_experimental_flag_still_breaks() -> None:
    text = "The server no longer accepts the experimental ``--h2`` flag."
    assert announces(Entry(1, text, "Changes")) == (None, True)


# --- 7962df0 / 8f16293 release notes -----------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Avoid a hang while `pool` is draining and `conn` is no longer alive.",
        "Don't raise if `x` is given but `y` is no longer registered.",
    ],
)
def test_a_no_longer_inside_a_conjoined_condition_is_subordinate(text: str) -> None:
    """_subordinate's _FINITE/_CODE_SUBJECT exception (for "When `strict` is on `None` is no
    longer accepted") also fires when both verbs are inside the condition, joined by
    and/but: what the fix avoids is read as a break (silent before 8f16293)."""
    assert announces(Entry(1, text, "")) is None


def test_change_words_survive_an_odd_backtick_run() -> None:
    """_NAMES pairs backticks one by one: an odd run (tox aff1d4d8b7's
    "```find_replace_part`` is removed from ``tox.config.loader.ini.replace``") makes the
    prose between two literals a 'code span' and erases it: the entry was REMOVED, now
    SIGNATURE_CHANGED."""
    text = "```find_replace_part`` is removed from ``tox.config.loader.ini.replace``"
    assert change_named(text, breaking=True) is T.REMOVED


def test_chinese_change_word_next_to_a_snake_case_name() -> None:
    """_NAMES' ``\\b\\w*_\\w*\\b`` runs over CJK characters (they are \\w): "移除参数foo_bar"
    (remove parameter foo_bar, no spaces, as Chinese is written) is erased whole."""
    assert change_named("移除参数foo_bar") is T.REMOVED


@pytest.mark.parametrize(
    "text, heading",
    [
        # requests HISTORY.md 2.25.0 (Improvements)
        (
            "No longer perform unnecessary Content-Length calculation for requests that won't "
            "use it. (#5496)",
            "Improvements",
        ),
        # setuptools NEWS.rst 0.6.42
        ("External links finder no longer yields duplicate links.", ""),
        # black CHANGES.md 23.7.0 (Stable style): a formatting bug fixed
        (
            "Import lines with `# fmt: skip` and `# fmt: off` no longer have an extra blank line "
            "added when they are right after another import line (#3610)",
            "Stable style",
        ),
        # black CHANGES.md, 2026-08-19 (3224f36, "Fix --line-ranges inserting a blank line
        # after a docstring"): an empty line is a formatter's blemish too
        (
            "`--line-ranges` no longer inserts an empty line after a docstring when the range "
            "covers only the docstring itself (#5312)",
            "Stable style",
        ),
        ("The formatter no longer adds blank lines before a nested class.", "Preview style"),
    ],
)
def test_a_blemish_no_longer_made_is_no_break_whatever_its_verb(text: str, heading: str) -> None:
    """7962df0 keeps the blemish rule only for output verbs right after "no longer"
    (render, print, add …): "perform unnecessary", "yields duplicate", "have an extra … added"
    are blemishes too, silent before and read as breaking changes now (three in the real
    changelogs at HEAD; uvicorn's "ships extra dependencies", the case the change was for,
    is the only one of its kind found)."""
    assert announces(Entry(1, text, heading)) is None


def test_a_reference_role_text_is_not_erased_as_code() -> None:
    """pytest changelog 3.7.0, "Deprecations and Removals": the only change word is the
    text of a :ref: role; _NAMES erases `deprecated <…>` as a code span: DEPRECATED ->
    SIGNATURE_CHANGED (change_named reads the entry as written, roles and all)."""
    text = (
        ":issue:`2639`: ``pytest_namespace`` has been "
        ":ref:`deprecated <pytest.namespace deprecated>`."
    )
    assert change_named(text, breaking=True) is T.DEPRECATED


def test_is_now_the_default_changes_a_default() -> None:
    """pip NEWS 21.3 (Deprecations and Removals): "In-tree builds are now the default.
    ``--use-feature=in-tree-build`` is now ignored. ``--use-deprecated=out-of-tree-build``
    may be used …": DEFAULT_CHANGED before, DEPRECATED now — the word "deprecated" inside the
    reST literal survives _NAMES (```` `[^`]*` ```` pairs the two backticks of "``" with
    each other, so a ``double-backtick`` literal's text is never erased), and
    _DEFAULT_CHANGE has no "now the default"."""
    text = (
        "In-tree builds are now the default. ``--use-feature=in-tree-build`` is now ignored. "
        "``--use-deprecated=out-of-tree-build`` may be used temporarily to ease the transition."
    )
    assert change_named(text, breaking=True) is T.DEFAULT_CHANGED


NEW_DEPRECATIONS = """\
v0.11.0 (7 November 2018)
-------------------------

Breaking changes
~~~~~~~~~~~~~~~~

- New deprecations (behavior will be changed in xarray 0.12):

  - Reduction of :py:meth:`DataArray.groupby` and :py:meth:`DataArray.resample`
    without dimension argument will change in the next release.
    Now we warn a FutureWarning.
  - The ``inplace`` kwarg of a number of ``DataArray`` and ``Dataset`` methods is being
    deprecated and will be removed in the next release.
"""


def test_items_of_new_deprecations_are_deprecations() -> None:
    """xarray whats-new v0.11.0: the opening that only says "deprecat" is ignored for
    breaking items (meant for "Finished deprecations"), so "New deprecations" items read
    SIGNATURE_CHANGED and, for "is being deprecated and will be removed in the next
    release", REMOVED (both DEPRECATED before 7962df0). Same for v0.10.0's "Several existing
    features have been deprecated and will change …:" items."""
    from commitdigest.analysis.radar.changelog import sections

    [section] = [s for s in sections(NEW_DEPRECATIONS) if s.version]
    got = {}
    for e in section.entries:
        found = announces(e)
        if found is not None and e.nested:
            got[e.text[:12]] = found[0] or change_named(e.text, breaking=found[1], under=e.under)
    assert got == {"Reduction of": T.DEPRECATED, "The ``inplac": T.DEPRECATED}


def test_minimum_versions_changed_is_a_version_change() -> None:
    """xarray whats-new (three releases): "The minimum versions of some dependencies were
    changed (:pull:`8586`):" over a table: VERSION_CHANGED before (its pattern needs a digit,
    found in the PR number), SIGNATURE_CHANGED now that _NAMES erases the role."""
    text = "The minimum versions of some dependencies were changed (:pull:`8586`):"
    assert change_named(text, breaking=True) is T.VERSION_CHANGED


def test_two_sentinels_written_alike_are_not_the_same_default(tmp_path: Path, mode: str) -> None:
    """_same_default compares the constants' values as text: two sentinels ``object()``
    are "the same default", though the function treats them apart (here: default timeout
    30 -> no timeout at all)."""
    before = (
        "_DEFAULT = object()\n_NO_TIMEOUT = object()\n\n\n"
        "def get(url, timeout=_DEFAULT):\n    if timeout is _DEFAULT:\n        timeout = 30\n"
        "    elif timeout is _NO_TIMEOUT:\n        timeout = None\n    return send(url, timeout)\n"
    )
    after = before.replace("timeout=_DEFAULT)", "timeout=_NO_TIMEOUT)")
    assert [n for n, _, _ in _items(tmp_path, mode, before, after)] == ["pkg.mod.get(timeout)"]


@pytest.mark.parametrize(
    "text, change",
    [
        ("The ``drop`` argument of ``to_zarr`` is deprecated.", T.DEPRECATED),
        ("``Foo.default`` is deprecated.", T.DEPRECATED),
    ],
)
def test_a_double_backtick_literal_is_a_name(text: str, change: T) -> None:
    """7962df0's "a name is no change word" does not hold for reST ``literals`` (most Python
    changelogs): ```` `[^`]*` ```` matches each "``" as an empty span and leaves the literal's
    text as words (REMOVED and DEFAULT_CHANGED here; not a regression, the fix misses rST)."""
    assert change_named(text) is change


def test_renumbered_enum_is_no_rename(tmp_path: Path, mode: str) -> None:
    """SQLAlchemy f81fdd9a90 (psycopg2 ``ExecutemanyMode``): ``EXECUTEMANY_PLAIN = 0,
    EXECUTEMANY_BATCH = 1, EXECUTEMANY_VALUES = 2, EXECUTEMANY_VALUES_PLUS_BATCH = BATCH |
    VALUES`` -> ``EXECUTEMANY_VALUES = 0, EXECUTEMANY_VALUES_PLUS_BATCH = 1``. Reported
    "renamed EXECUTEMANY_BATCH → EXECUTEMANY_VALUES_PLUS_BATCH" (public API): that name was
    there before (its value not a literal, so _constants left it out), and means another
    mode. Same root cause as vllm-ascend 0fbe0831ec."""
    before = (
        "import enum\n\n\nclass ExecutemanyMode(enum.IntFlag):\n    EXECUTEMANY_PLAIN = 0\n"
        "    EXECUTEMANY_BATCH = 1\n    EXECUTEMANY_VALUES = 2\n"
        "    EXECUTEMANY_VALUES_PLUS_BATCH = EXECUTEMANY_BATCH | EXECUTEMANY_VALUES\n"
    )
    after = (
        "import enum\n\n\nclass ExecutemanyMode(enum.IntFlag):\n    EXECUTEMANY_VALUES = 0\n"
        "    EXECUTEMANY_VALUES_PLUS_BATCH = 1\n"
    )
    got = _items(tmp_path, mode, before, after)
    assert ("pkg.mod.ExecutemanyMode.EXECUTEMANY_BATCH", "removed", "") in got


def test_a_changelog_s_whole_key_is_made_only_for_an_entry_whose_words_it_has(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An entry re-wrapped or moved from another section was there before: its words are
    looked for in the whole changelog's key, which cost 14 ms for vllm-ascend's release
    notes and was made for nearly every new entry, though a new one names a new pull
    request. The key is made only where every number the entry names is in the text (a
    word is not looked for: ``plain_text`` takes markup out of words, ``created__gte``)."""
    from commitdigest.analysis.radar import announced

    made: list[str] = []
    real = announced._text_key.__wrapped__
    monkeypatch.setattr(announced, "_text_key", lambda text: made.append(text) or real(text))
    text = "## 1.0\n\n- Removed `old_thing` from the client\n  API ([#12](https://x/12))\n"
    moved = announced._key(plain_entry("Removed `old_thing` from the client API (#12)"))
    new = announced._key(plain_entry("Removed `old_thing` from the client API (#34)"))
    assert announced._was_written(moved, text) and not announced._was_written(new, text)
    assert made == [text]  # (the new one's #34 is nowhere in the text)


@pytest.mark.parametrize(
    ("value", "changed"),
    [
        ("Field(\n        default='anon',\n        description='who',\n    )", "'anon'"),
        (
            "field(\n        default_factory=lambda: dict(\n            a=1,\n        ),\n    )",
            "a=1",
        ),
    ],
)
def test_a_default_changed_on_a_later_line_of_a_field_s_value_alone(
    tmp_path: Path, mode: str, value: str, changed: str
) -> None:
    """A field's value written over several lines, the commit changing only a later line of
    it (``default='anon',``, or a line of a bracket nested in it): the line is the field's.
    Where only the whole files are known, the cheap surface check before the model reads a
    field's first line only, and misses it (a patch's changed lines are the normal case)."""
    head = (
        "from dataclasses import dataclass, field\n\nfrom pydantic import BaseModel, Field\n\n\n"
        "@dataclass\nclass Config:\n    name: str = 'x'\n    user: object = "
    )
    before = head + value + "\n    size: int = 1\n"
    after = before.replace(changed, changed.replace("anon", "guest").replace("1", "2"))
    found = _items(tmp_path, mode, before, after)
    if mode == "whole files":
        assert found == []
    else:
        assert [(name, change) for name, change, _ in found] == [
            ("pkg.mod.Config.user", "default_changed")
        ]


def test_attrs_default_given_by_position_is_its_default() -> None:
    """``attr.ib(default=NOTHING, …)`` takes its default as its first argument too:
    ``attr.ib(5)`` was read as required ("now required" from ``attr.ib(default=5)``)."""
    from commitdigest.analysis.radar import pyapi

    assert pyapi.field_default("attr.ib(5)") == pyapi.field_default("attr.ib(default=5)") == "5"
    assert pyapi.field_default("attrs.field(factory=list)") == "factory=list"
    assert pyapi.field_default("attr.ib()") is None


def test_a_field_declared_inside_a_stray_tuple_keeps_its_default(tmp_path: Path, mode: str) -> None:
    """peft's "FIX BdLoraConfig.nblocks default being a tuple": ``nblocks: int = (field(
    default=1, metadata={…}),)``, a trailing comma, became ``field(default=1, …)``; read as
    "default changed" from the whole tuple, its help text in the detail. The default the
    declaration says is the same; another default in its place still changed."""
    head = "from dataclasses import dataclass, field\n\n\n@dataclass\nclass BdLoraConfig:\n"
    stray = (
        "    nblocks: int = (\n        field(\n            default=1,\n"
        '            metadata={"help": "Number of blocks."},\n        ),\n    )\n'
        "    size: int = (\n        field(default=3),\n    )\n"
    )
    fixed = (
        "    nblocks: int = field(\n        default=1,\n"
        '        metadata={"help": "Number of blocks."},\n'
        "    )\n    size: int = field(default=4)\n"
    )
    found = _items(tmp_path, mode, head + stray, head + fixed)
    assert found == [("pkg.mod.BdLoraConfig.size", "default_changed", "3 → 4")]


def test_an_exported_import_made_lazy_is_a_dropped_export(tmp_path: Path, mode: str) -> None:
    """A module with ``__all__`` that moves an import it exports into a function (made lazy)
    or under ``if TYPE_CHECKING:`` no longer binds the name: the name is gone. Its imports
    still named it, so it was read around its changed lines, and the cheap surface check
    dropped the imports' indentation: found nowhere."""
    top = '__all__ = ["Engine", "run"]\n\nfrom .heavy import Engine\n\n\ndef run():\n    pass\n'
    lazy = '__all__ = ["Engine", "run"]\n\n\ndef run():\n    from .heavy import Engine\n'
    assert _items(tmp_path, mode, top, lazy) == [("pkg.mod.Engine", "removed", "")]


def test_imports_added_inside_methods_of_a_module_with_all_are_read_around_its_lines(
    tmp_path: Path, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A module with ``__all__`` whose commit only adds lines, imports inside its methods
    among them (openai-python's client adds each new resource's import to a property):
    no import line went, so no name it bound is unbound; it is read around its changed
    lines, not modelled whole (both versions parsed), and what changed there is found. An
    import moved into a function (a line removed too) is still read whole (the test
    above)."""
    from commitdigest.analysis.radar import python_api

    local: list[str] = []
    real = python_api.local_breakages
    monkeypatch.setattr(
        python_api, "local_breakages", lambda before, *a: local.append(before) or real(before, *a)
    )
    before = (
        '__all__ = ["Client"]\n\nfrom .base import Base\n\n\nclass Client(Base):\n'
        "    def send(\n        self,\n        url,\n        timeout=5,\n    ):\n        pass\n\n"
        "    @property\n"
        "    def files(self):\n        from .files import Files\n\n        return Files(self)\n"
    )
    after = before.replace("        url,\n", "        url,\n        retries,\n").replace(
        "    @property\n    def files",
        "    @property\n    def models(self):\n        from .models import Models\n\n"
        "        return Models(self)\n\n    @property\n    def files",
    )
    found = _items(tmp_path, mode, before, after)
    assert [(name, change) for name, change, _ in found] == [
        ("pkg.mod.Client.send(retries)", "now_required"),
        ("pkg.mod.Client.send(timeout)", "signature_changed"),  # (its position moved)
    ]
    # (where the patch is whole: a cut one's hunks say which lines they span, not which went)
    assert len(local) == (mode == "patches")


@pytest.mark.parametrize(
    ("before", "after", "gone"),
    [
        (  # a class inserted before a method: the method is the new class's
            '__all__ = ["Client"]\n\n\nclass Client:\n    def send(self, url):\n        pass\n\n'
            "    def close(self):\n        pass\n",
            '__all__ = ["Client"]\n\n\nclass Client:\n    def send(self, url):\n        pass\n\n'
            "    @property\n    def files(self):\n        from .files import Files\n\n"
            "        return Files(self)\n\n\nclass Other:\n    def close(self):\n        pass\n",
            "pkg.mod.Client.close",
        ),
        (  # a function wrapped in a string
            '__all__ = ["bar"]\n\n\ndef bar(a, b=1):\n    return a\n',
            '__all__ = ["bar"]\n\n\nS = """\ndef bar(a, b=1):\n    return a\n"""\n\n\n'
            "def _helper():\n    from .files import Files\n\n    return Files\n",
            "pkg.mod.bar",
        ),
    ],
)
def test_lines_added_that_change_what_the_lines_below_them_are_read_whole(
    tmp_path: Path, mode: str, before: str, after: str, gone: str
) -> None:
    """A commit that only adds lines to a module with ``__all__``, imports inside its
    functions among them, is read around its changed lines only where the added lines add
    inside what is there: a class header added at the first column takes the methods below
    it, a string opened above code makes it text; the changed lines alone do not show it
    (found by the session's reviewer: read around them, both were silent)."""
    found = _items(tmp_path, mode, before, after)
    assert (gone, "removed") in [(name, change) for name, change, _ in found]


@pytest.mark.parametrize("runtime_first", [True, False])
def test_a_name_imported_at_run_time_and_under_type_checking_is_the_module_s(
    tmp_path: Path, mode: str, runtime_first: bool
) -> None:
    """A name a module imports at run time and again under ``if TYPE_CHECKING:`` is still
    the module's: the typing-only import of it was read as the name's only one, and an
    exported ``Foo`` that the commit imported a second time for the type checker was
    "removed" (found by the session's reviewer)."""
    runtime, typing = "from .x import Foo\n\n", "    from .t import Bar\n"
    head = "from typing import TYPE_CHECKING\n\n"
    block = "if TYPE_CHECKING:\n" + typing + "\n"
    body = '__all__ = ["Foo", "bar"]\n\n\ndef bar(a, b=1):\n    return a\n'
    before = head + (runtime + block if runtime_first else block + runtime) + body
    after = (
        before.replace(typing, typing + "    from .x import Foo\n") + "\n\ndef baz():\n    pass\n"
    )
    assert _items(tmp_path, mode, before, after) == []


def test_where_a_header_with_strings_ends_is_found_in_linear_time() -> None:
    """A header is read as code first, for where it would end, then with its strings
    blanked: a bracket in a string that never closes (``def f(a='(', b=1):``) made that first
    read run to the end of the module, for each header (3,000 of them: 4 s)."""
    from commitdigest.analysis.radar import pyapi

    lines = "".join(f"def f{n}(a='(', b=1):\n    return a\n" for n in range(3000)).split("\n")
    start = time.perf_counter()
    ends = [pyapi.signature_end(lines, k) for k in range(0, len(lines) - 1, 2)]
    assert ends == list(range(0, len(lines) - 1, 2))  # each header ends on its own line
    assert time.perf_counter() - start < 1.0


@pytest.mark.parametrize(
    "text",
    [
        '__all__ = ["A", "b"]\n',
        "__all__ = ('A',)\n",
        "__all__ = ('A')\n",  # a string, not a tuple: no names
        '__all__ = [\n    "A",  # one "quoted" note\n    "b",\n]\nx = 1\n',
        '__all__ = ["A" "b"]\n',  # one string, concatenated
        "__all__ = []\n",
        '__all__: list[str] = ["A"]  # exported\n',
        '"""\n__all__ = ["A"]\n"""\n',  # a docstring's
        '__all__ = ["A"] + other\n',
        '__all__ = [x, "A"]\n',
        "__all__ = [u'A', r'b']\n",
        '__all__ = ["A"]\n__all__ += ["b"]\n',
        'if x:\n    __all__ = ["A"]\n',
        '__all__ = [\r\n    "A",\r\n]\r\n',
        "x = 1\n",
        # a reviewer's: written at the margin but no statement of the module
        'f(\n__all__ = ["other"]\n)\n',  # a keyword argument
        'x = \'"""\'\nDOC = """\n__all__ = ["other"]\n"""\n',  # in a docstring
        'def _f(): \\\n__all__ = ["other"]\n',  # a function's body
        "x = 'abc\\\n__all__ = [\"other\"] #'\n",  # a string's
        '__all__ = ["other"]\n__\uff41ll__ += ["Kept"]\n',  # also __all__ to Python
        'x = (1 +  # (\n     2)\n__all__ = ["A"]\n',  # a bracket in a comment
    ],
)
def test_a_modules_all_is_read_as_its_parse_reads_it(text: str) -> None:
    """``__all__`` written once at the first column as a list of plain strings is read
    without parsing the module (openai-python's generated modules of 240 KB each list
    their names so: the parse was only for them); every other shape is read from the
    parse, and both read the same names."""
    from commitdigest.analysis.radar.pyapi import api_of, exported_names

    assert exported_names(text, "pkg.mod") == api_of(text, "pkg.mod").all


@pytest.mark.parametrize("names", ['["Kept"]', '(\n    "Kept",  # the one\n)'])
def test_an_items_visibility_by_all_needs_no_parse_of_the_module(
    tmp_path: Path, mode: str, names: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A method removed from a class its module lists in ``__all__`` is public, one of a
    class it does not list internal: the list is read from the module's text, not from a
    parse of the whole module (each such item parsed it)."""
    from commitdigest.analysis.radar import pyapi

    parsed: list[str] = []
    whole = pyapi.module_api
    monkeypatch.setattr(
        pyapi, "module_api", lambda text, *a: parsed.append(text) or whole(text, *a)
    )
    body = "".join(f"class {c}:\n    def go(self):\n        pass\n\n\n" for c in ("Kept", "Other"))
    before = f"__all__ = {names}\n\n\n{body}"
    after = before.replace("    def go(self):\n        pass\n", "    pass\n")
    [items] = module_items(tmp_path, mode, "pkg/mod.py", [("init", before), ("change", after)])
    assert sorted((i.name, i.change.value, i.visibility.value) for i in items) == [
        ("pkg.mod.Kept.go", "removed", "public"),
        ("pkg.mod.Other.go", "removed", "internal"),
    ]
    if mode == "patches":  # (read around its changed lines; else compared whole, parsed)
        assert before not in parsed and after not in parsed


_TYPED = (
    "from typing import TYPE_CHECKING, Any, Union\n\nfrom .base import Base\n\n"
    '__all__ = ["Model", "make"]\n\n\nclass Model(Base):\n    """Takes \'Union\' types."""\n\n'
    "    def go(self, a, b=1):\n        return a\n\n\ndef make(x):\n    return x\n"
)
_LISTS_BASE = _TYPED.replace('"make"]', '"make", "Base"]')
_OTHER = "\n\nclass Other:\n    pass\n"


@pytest.mark.parametrize(
    ("before", "after", "found"),
    [  # a typing name no longer imported, a word the docstring quotes
        (
            _TYPED,
            _TYPED.replace("Any, Union", "Any").replace("a, b=1", "a"),
            [("pkg.mod.Model.go(b)", "removed")],
        ),
        (  # a name added to __all__ with what it names
            _TYPED,
            _TYPED.replace('"make"]', '"make", "Other"]').replace("a, b=1", "a") + _OTHER,
            [("pkg.mod.Model.go(b)", "removed")],
        ),
        (  # an import __all__ lists, gone with a name added to it
            _LISTS_BASE,
            _LISTS_BASE.replace('"Base"]', '"Base", "Other"]').replace(
                "from .base import Base\n", ""
            )
            + _OTHER,
            [("pkg.mod.Base", "removed")],
        ),
    ],
)
def test_a_module_with_all_is_read_around_its_changes_unless_its_exports_may_change(
    tmp_path: Path,
    mode: str,
    before: str,
    after: str,
    found: list[tuple[str, str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A module with ``__all__`` is read around its changed lines when the commit only adds
    names to the list, or changes an import of ``TYPE_CHECKING`` from typing (15 of
    pydantic's modules were parsed whole for a typing name imported), or stops importing
    names its list does not hold (quoted elsewhere: pydantic's ``types`` quotes ``'Union'``
    in its docs); an import the list holds, gone, is still found, parsed whole."""
    from commitdigest.analysis.radar import pyapi

    parsed: list[str] = []
    whole = pyapi.module_api
    monkeypatch.setattr(
        pyapi, "module_api", lambda text, *a: parsed.append(text) or whole(text, *a)
    )
    assert [(n, c) for n, c, _ in _items(tmp_path, mode, before, after)] == found
    if mode == "patches":  # (read whole where an import __all__ lists is gone)
        assert (after in parsed) == (found == [("pkg.mod.Base", "removed")])


_SERVING = (
    "import warnings\n\nfrom .base import Base\n\n_DEPRECATED = {'OldSchema': 'Schema'}\n\n\n"
    "def make(a, b=1):\n    return a\n\n\ndef helper():\n    return 1\n\n\n"
    "def __getattr__(name):\n    if name in _DEPRECATED:\n"
    "        warnings.warn(name, DeprecationWarning)\n        return globals()[_DEPRECATED[name]]\n"
    "    raise AttributeError(name)\n"
)
_ADDED = "\n\ndef fraction(x):\n    return Fraction(x)\n"


@pytest.mark.parametrize(
    ("after", "whole"),
    [  # an import of a new name and a new function added, a parameter removed elsewhere
        (
            _SERVING.replace(
                "import warnings\n", "import warnings\nfrom fractions import Fraction\n"
            ).replace("a, b=1", "a")
            + _ADDED,
            False,
        ),
        (  # an import in a docstring's example imports nothing
            _SERVING.replace("a, b=1", "a")
            + '\n\ndef fraction(x):\n    """As in::\n\n        from fractions import Fraction\n'
            '    """\n    return x\n',
            False,
        ),
        (  # the import added where a def binds the name: the module is compared whole
            _SERVING.replace(
                "import warnings\n", "import warnings\nfrom .impl import helper\n"
            ).replace("a, b=1", "a")
            + _ADDED,
            True,
        ),
        (  # an import added inside a block: compared whole
            _SERVING.replace(
                "import warnings\n",
                "import warnings\ntry:\n    from fractions import Fraction\n"
                "except ImportError:\n    pass\n",
            ).replace("a, b=1", "a")
            + _ADDED,
            True,
        ),
    ],
)
def test_a_module_with_a_getattr_that_only_gains_imports_is_read_around_its_changes(
    tmp_path: Path, mode: str, after: str, whole: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A module whose ``__getattr__`` serves names, and whose commit only adds imports at
    its top (of names it did not bind) beside other changes, is read around its changed
    lines: its imports bind what they bound and what it serves is what it lacked
    (pydantic-core's ``core_schema``, 240 KB, was parsed twice for ``from fractions import
    Fraction`` and a new schema, whose docstring shows that import indented: no import
    either). An import that binds a name the module defined, or one added in a block, is
    compared whole; the removed parameter is found either way."""
    from commitdigest.analysis.radar import pyapi

    parsed: list[str] = []
    real = pyapi.module_api
    monkeypatch.setattr(pyapi, "module_api", lambda text, *a: parsed.append(text) or real(text, *a))
    assert [(n, c) for n, c, _ in _items(tmp_path, mode, _SERVING, after)] == [
        ("pkg.mod.make(b)", "removed")
    ]
    if mode == "patches":
        assert (after in parsed) == whole


_STRUCTURE = (
    "from typing import TYPE_CHECKING\n\n"
    "from .utils import OptionalDependencyNotAvailable, _LazyModule, is_torch_available\n\n"
    '_import_structure = {"utils": ["OptionalDependencyNotAvailable"]}\n'
    '_import_structure["prx"] = ["PRXPipeline"]\n'
    '_import_structure["other"] = [\n    "OtherC",\n    "OtherA",\n]\n\n'
    "if TYPE_CHECKING:\n"
    "    from .other import OtherA, OtherC\n"
    "    from .prx import PRXPipeline\n"
    "else:\n"
    "    import sys\n\n"
    "    sys.modules[__name__] = _LazyModule(__name__, globals()['__file__'], _import_structure)\n"
)
_BACKEND = (
    "try:\n"
    "    if not is_torch_available():\n"
    "        raise OptionalDependencyNotAvailable()\n"
    "except OptionalDependencyNotAvailable:\n"
    "    from .utils import dummy_objects\n\n"
    '    _import_structure["utils.dummy_objects"] = [\n'
    '        n for n in dir(dummy_objects) if not n.startswith("_")\n'
    "    ]\n"
    "else:\n"
    '    _import_structure["prx"].append("PRXFast")\n'
)
_OTHER_LIST = '    "OtherC",\n    "OtherA",\n'


@pytest.mark.parametrize(
    ("after", "whole", "gone"),
    [
        (  # a name added to a list written on one line and to an import on one line
            _STRUCTURE.replace('["PRXPipeline"]', '["PRXPipeline", "PRXPixelPipeline"]').replace(
                "import PRXPipeline\n", "import PRXPipeline, PRXPixelPipeline\n"
            ),
            False,
            [],
        ),
        (  # a name put in a sorted list, one line moved below it
            _STRUCTURE.replace(
                _OTHER_LIST, '    "OtherA",\n    "OtherB",\n    "OtherC",\n'
            ).replace("OtherA, OtherC", "OtherA, OtherB, OtherC"),
            False,
            [],
        ),
        (  # a block for an optional backend
            _STRUCTURE.replace("\nif TYPE_CHECKING:", f"\n{_BACKEND}\nif TYPE_CHECKING:"),
            False,
            [],
        ),
        (  # and its imports for the type checker, under ``if TYPE_CHECKING:``
            _STRUCTURE.replace(
                "    from .prx import PRXPipeline\n",
                "    from .prx import PRXPipeline\n\n"
                + textwrap.indent(_BACKEND.replace("from .utils import", "from .x import"), "    "),
            ),
            False,
            [],
        ),
        (  # a name replaced in both: compared whole
            _STRUCTURE.replace('["PRXPipeline"]', '["PRXNew"]').replace(
                "import PRXPipeline\n", "import PRXNew\n"
            ),
            True,
            [("pkg.PRXPipeline", "removed")],
        ),
        (  # a name moved to another list: compared whole
            _STRUCTURE.replace(_OTHER_LIST, '    "OtherA",\n').replace(
                '["PRXPipeline"]', '["PRXPipeline", "OtherC"]'
            ),
            True,
            [],
        ),
        (  # a block that binds a name otherwise: compared whole
            _STRUCTURE.replace(
                "\nif TYPE_CHECKING:",
                "\ntry:\n    import torch\nexcept ImportError:\n    torch = None\n"
                "\nif TYPE_CHECKING:",
            ),
            True,
            [],
        ),
    ],
)
def test_a_package_init_that_only_adds_names_is_not_compared_whole(
    tmp_path: Path,
    mode: str,
    after: str,
    whole: bool,
    gone: list[tuple[str, str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A package ``__init__`` whose commit rewrites lines with more names (an import on one
    line, a list of the import structure), moves a line of a sorted list, or adds a whole
    block that only imports, raises and appends to the import structure, loses no name:
    it is not parsed whole (diffusers' 1,800-line ``__init__``, parsed twice for each new
    pipeline or backend). A name replaced, one moved to another list, or a block that binds
    a name otherwise, is compared whole, and what goes is found."""
    from commitdigest.analysis.radar import pyapi

    parsed: list[str] = []
    real = pyapi.module_api
    monkeypatch.setattr(pyapi, "module_api", lambda text, *a: parsed.append(text) or real(text, *a))
    [items] = module_items(
        tmp_path, mode, "pkg/__init__.py", [("init", _STRUCTURE), ("change", after)]
    )
    assert sorted((i.name, i.change.value) for i in items) == gone
    if mode == "patches":
        assert (after in parsed) == whole


_LAZY_HEAD = "import sys\nfrom .utils import _LazyModule\n"
_LAZY_TAIL = (
    'sys.modules[__name__] = _LazyModule(__name__, globals()["__file__"], _import_structure)\n'
)


@pytest.mark.parametrize(
    ("before", "after"),
    [  # a name moved from the served table's list to another list whose opening line reads
        # the same (``    [`` under ``.extend(``; ``    "a": [`` of another table)
        (
            _LAZY_HEAD + '_import_structure = {"a": [], "b": []}\n_import_structure["a"].extend(\n'
            '    [\n        "foo",\n        "bar",\n    ]\n)\n_unused = []\n_unused.extend(\n'
            '    [\n        "zzz",\n    ]\n)\n' + _LAZY_TAIL,
            _LAZY_HEAD + '_import_structure = {"a": [], "b": []}\n_import_structure["a"].extend(\n'
            '    [\n        "foo",\n    ]\n)\n_unused = []\n_unused.extend(\n'
            '    [\n        "bar",\n        "zzz",\n    ]\n)\n' + _LAZY_TAIL,
        ),
        (
            _LAZY_HEAD
            + '_import_structure = {\n    "a": [\n        "foo",\n        "bar",\n    ],\n}\n'
            '_extra = {\n    "a": [\n        "zzz",\n    ],\n}\n' + _LAZY_TAIL,
            _LAZY_HEAD + '_import_structure = {\n    "a": [\n        "foo",\n    ],\n}\n'
            '_extra = {\n    "a": [\n        "bar",\n        "zzz",\n    ],\n}\n' + _LAZY_TAIL,
        ),
    ],
)
def test_a_name_moved_to_another_list_that_reads_alike_is_gone(
    tmp_path: Path, mode: str, before: str, after: str
) -> None:
    """A line of a list moved within it takes nothing away, but one moved to another list
    whose opening line only reads the same (another ``.extend(`` list's ``    [``) is no
    longer served: the opening line must be the same line of both versions (a reviewer's;
    the shortcut said nothing)."""
    files = {"pkg/__init__.py": before, "pkg/utils.py": "class _LazyModule:\n    pass\n"}
    files["pkg/a.py"] = "def foo():\n    pass\n\n\ndef bar():\n    pass\n"
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files=files),
        CommitSpec("move", D[1], files={"pkg/__init__.py": after}),
    ], mode)  # fmt: skip
    assert [(i.name, i.change.value) for i in items if i.kind is RadarKind.PYTHON_API] == [
        ("pkg.bar", "removed")
    ]


def test_a_default_on_a_line_of_its_own_in_a_package_init_is_no_statement(
    tmp_path: Path, mode: str
) -> None:
    """``modes=["r", "w"]``, the last parameter of a header over several lines of a
    package ``__init__``'s function, reads alone as an assignment of a list of strings:
    given one more string, it is still a changed default (a reviewer's; the shortcut
    for an import structure's lists took it for one)."""
    before = 'def configure(\n    mode,\n    modes=["r", "w"]\n):\n    return mode\n'
    after = before.replace('["r", "w"]', '["r", "w", "x"]')
    [items] = module_items(tmp_path, mode, "pkg/__init__.py", [("init", before), ("change", after)])
    assert [(i.name, i.change.value) for i in items] == [
        ("pkg.configure(modes)", "default_changed")
    ]


def test_a_constant_its_getattr_serves_now_is_deprecated_not_removed(
    tmp_path: Path, mode: str
) -> None:
    """Scrapy's ``tls.DEFAULT_CIPHERS``: the constant deleted, its name served by the module
    ``__getattr__`` with a warning. It is deprecated, not removed (read around the changed
    lines, it was both)."""
    before = (
        "import warnings\nfrom typing import Any\n\n\n"
        'DEFAULT_CIPHERS: str = make_ciphers(\n    "DEFAULT"\n)\n\n\n'
        "def __getattr__(name: str) -> Any:\n    raise AttributeError(name)\n"
    )
    after = before.replace(
        'DEFAULT_CIPHERS: str = make_ciphers(\n    "DEFAULT"\n)\n\n\n', ""
    ).replace(
        "    raise AttributeError(name)\n",
        '    if name == "DEFAULT_CIPHERS":\n        warnings.warn(\n'
        '            "pkg.mod.DEFAULT_CIPHERS is deprecated.",\n'
        "            DeprecationWarning,\n            stacklevel=2,\n        )\n"
        '        return make_ciphers("DEFAULT")\n    raise AttributeError(name)\n',
    )
    [items] = module_items(
        tmp_path, mode, "pkg/mod.py", [("init", before), ("change", after)], kind=None
    )
    assert [(i.kind.value, i.change.value, i.name) for i in items] == [
        ("deprecation", "deprecated", "pkg.mod.DEFAULT_CIPHERS")
    ]


@pytest.mark.parametrize("import_added", [False, True])
def test_a_function_moved_into_the_getattr_table_is_not_removed(
    tmp_path: Path, mode: str, import_added: bool
) -> None:
    """The usual deprecation: a function deleted and its name put in the table the module
    ``__getattr__`` serves from (with ``import warnings`` added, often): still served, no
    removal, read around the changed lines as read whole (a reviewer's: the changed lines
    alone said removed, in patches mode only)."""
    before = (
        '"""Helpers."""\nfrom __future__ import annotations\n\n__all__ = ["new_name"]\n\n\n'
        "def new_name(a, b):\n    return a\n\n\ndef old_name(a, b):\n    return new_name(a, b)\n"
        "\n\n_DEPRECATED = {\n}\n\n\ndef __getattr__(name):\n    if name in _DEPRECATED:\n"
        '        warnings.warn(f"{name} is deprecated", DeprecationWarning, stacklevel=2)\n'
        "        return globals()[_DEPRECATED[name]]\n    raise AttributeError(name)\n"
    )
    after = before.replace("def old_name(a, b):\n    return new_name(a, b)\n\n\n", "").replace(
        "_DEPRECATED = {\n}", '_DEPRECATED = {"old_name": "new_name"}'
    )
    if import_added:
        after = after.replace("annotations\n", "annotations\n\nimport warnings\n")
    [items] = module_items(tmp_path, mode, "pkg/mod.py", [("init", before), ("change", after)])
    assert items == []


@pytest.mark.parametrize("grows", [False, True])
def test_a_listed_name_gone_from_an_import_over_several_lines_is_found(
    tmp_path: Path, mode: str, grows: bool
) -> None:
    """A name ``__all__`` lists that an import over several lines no longer binds is a
    removed export, whether or not the commit adds names to the list: the changed line
    (``    y,``) says no "import" (a reviewer's: read around the changed lines, silent)."""
    before = 'from .a import (\n    x,\n    y,\n)\n\n__all__ = ["x", "y"]\n'
    after = before.replace("    y,\n", "")
    if grows:
        after = after.replace('"y"]', '"y", "w"]') + "\nw = 1\n"
    assert [(n, c) for n, c, _ in _items(tmp_path, mode, before, after)] == [
        ("pkg.mod.y", "removed")
    ]


@pytest.mark.parametrize(
    ("before", "after", "gone"),
    [
        (  # several names on a line
            "from ._models import (\n    Foo, Bar,\n    Baz,\n)\n",
            "from ._models import (\n    Bar,\n    Baz,\n)\n",
            "Foo",
        ),
        (  # isort's grid: the names wrapped under the bracket, the last line closing it
            "from ._models import (Foo, Bar,\n                      Baz, Qux)\n",
            "from ._models import (Foo, Bar,\n                      Baz)\n",
            "Qux",
        ),
    ],
)
def test_a_listed_name_gone_from_a_line_of_several_names_is_found(
    tmp_path: Path, mode: str, before: str, after: str, gone: str
) -> None:
    """An import over several lines written with several names on a line (by hand, or
    isort's grid): a name gone from one of them is a removed export of the module's
    ``__all__`` (a reviewer's: the changed line reads as no import's, the module was read
    around its diff and the removal missed; a commit that changed that line alone was not
    read at all)."""
    listed = '\n__all__ = ["Foo", "Bar", "Baz", "Qux", "helper"]\n\n\ndef helper():\n    return 1\n'
    assert [(n, c) for n, c, _ in _items(tmp_path, mode, before + listed, after + listed)] == [
        (f"pkg.mod.{gone}", "removed")
    ]


_CONFIGURE = "def configure(path, strict=False):\n    return path\n"
_PACKAGE = (
    "from .core import (  # noqa: F401 (re-exports)\n    Alpha,\n    Beta,\n)\n"
    "from .util import helper\n\n\n"
    "def configure(path, strict=False):\n    value = helper(path)\n    return value\n\n\n"
    "class Config:\n    def load(self, name):\n        return name\n"
)


@pytest.mark.parametrize(
    ("before", "after", "found", "whole"),
    [
        (  # a parameter of its own function, a line of its class
            _PACKAGE,
            _PACKAGE.replace("path, strict=False", "path").replace("return name", "return 1"),
            [("pkg.configure(strict)", "removed")],
            False,
        ),
        (  # a name of an import over several lines (a ")" in its comment)
            _PACKAGE,
            _PACKAGE.replace("    Beta,\n", "").replace("path, strict=False", "path"),
            [("pkg.Beta", "removed"), ("pkg.configure(strict)", "removed")],
            True,
        ),
        (  # a name of an import continued by a backslash (a reviewer's)
            "from .a import x, \\\n    y\n\n\n" + _CONFIGURE,
            "from .a import x, \\\n    z\n\n\n" + _CONFIGURE.replace(", strict=False", ""),
            [("pkg.configure(strict)", "removed"), ("pkg.y", "removed")],
            True,
        ),
        (  # an import taken into a function by the block above it (a reviewer's)
            "if HAS:\n    from .a import y\n\n\n" + _CONFIGURE,
            "def _load():\n    from .a import y\n\n\n" + _CONFIGURE.replace(", strict=False", ""),
            [("pkg.configure(strict)", "removed"), ("pkg.y", "removed")],
            True,
        ),
        (  # an import added at the top, one added in a function, a name added to an
            # import over several lines: what it re-exports only grows (pytest's
            # ``_pytest/config`` imports what each change uses)
            _PACKAGE,
            _PACKAGE.replace("    Beta,\n", "    Beta,\n    Gamma,\n")
            .replace("from .util import helper\n", "import os\nfrom .util import helper\n")
            .replace("path, strict=False):\n", "path):\n    from .a import z\n\n"),
            [("pkg.configure(strict)", "removed")],
            False,
        ),
        (  # an import added that binds a name the module defined: it moved there
            _PACKAGE,
            _PACKAGE.replace("from .util import helper\n", "from .util import Config, helper\n")
            .replace("class Config:\n    def load(self, name):\n        return name\n", "")
            .replace("path, strict=False", "path"),
            [("pkg.configure(strict)", "removed")],
            True,
        ),
        (  # an import that binds another object under a name it imported
            _PACKAGE,
            _PACKAGE.replace("from .util import helper\n", "from .other import helper\n").replace(
                "path, strict=False", "path"
            ),
            [("pkg.configure(strict)", "removed")],
            True,
        ),
        (  # an import line that goes on with an assignment after a ";"
            _PACKAGE.replace("from .util import helper\n", "from .util import helper; LIMIT = 3\n"),
            _PACKAGE.replace("path, strict=False", "path"),
            [("pkg.LIMIT", "removed"), ("pkg.configure(strict)", "removed")],
            True,
        ),
        *(
            (  # names unpacked at the first column under an import that gains a name (a
                # reviewer's: the bracket read as a line of the import), or under a class
                # (read as its body's before)
                before,
                _PACKAGE.replace(
                    "from .util import helper\n", f"from .util import helper{gains}\n"
                ).replace("path, strict=False", "path"),
                [
                    ("pkg.DEPTH", "removed"),
                    ("pkg.LIMIT", "removed"),
                    ("pkg.configure(strict)", "removed"),
                ],
                True,
            )
            for before, gains in [
                *(
                    (_PACKAGE.replace("helper\n", f"helper\n{unpacked}", 1), ", other")
                    for unpacked in ("(LIMIT, DEPTH) = (3, 4)\n", "[LIMIT, DEPTH] = [3, 4]\n")
                ),
                (_PACKAGE + "(LIMIT, DEPTH) = (3, 4)\n", ""),
            ]
        ),
        (  # an import of * added: what it binds is not read around the change
            _PACKAGE,
            _PACKAGE.replace("from .util import helper\n", "from .util import *\n").replace(
                "path, strict=False", "path"
            ),
            [("pkg.configure(strict)", "removed"), ("pkg.helper", "removed")],
            True,
        ),
    ],
)
def test_a_package_init_is_read_around_changes_in_its_own_defs_only(
    tmp_path: Path,
    mode: str,
    before: str,
    after: str,
    found: list[tuple[str, str]],
    whole: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A package ``__init__`` that defines code of its own (pytest's ``_pytest/config``, 85
    KB) is compared around its changed lines when each is a line of one of its defs or
    classes or of an import at its top, and its imports bind what they bound and more
    (names it did not bind): each change of a function parsed both versions whole. A name
    gone from an import, an import that binds another object or a name the module
    defined, a line that goes on past its import, an import of ``*`` or a block that takes
    an import in is still compared whole: what it re-exports may change."""
    from commitdigest.analysis.radar import pyapi

    parsed: list[str] = []
    real = pyapi.module_api
    monkeypatch.setattr(pyapi, "module_api", lambda text, *a: parsed.append(text) or real(text, *a))
    files = [("init", before), ("change", after)]
    [items] = module_items(tmp_path, mode, "pkg/__init__.py", files)
    assert sorted((i.name, i.change.value) for i in items) == found
    if mode == "patches":
        assert (after in parsed) == whole


def test_a_listed_name_gone_from_an_import_continued_by_a_backslash_is_found(
    tmp_path: Path, mode: str
) -> None:
    """A module whose ``__all__`` only grows is still compared whole where an import is
    continued by a backslash: a name it stops binding is a removed export (a reviewer's)."""
    before = (
        'from .a import x, \\\n    y\n__all__ = ["x", "y", "configure"]\n\n\n'
        "def configure(path, strict=False):\n    return path\n"
    )
    after = before.replace("    y\n", "    z\n").replace('"configure"]', '"configure", "z"]')
    names = [(n, c) for n, c, _ in _items(tmp_path, mode, before, after)]
    assert ("pkg.mod.y", "removed") in names


# pytorch-lightning src/lightning/pytorch/CHANGELOG.md, 2.4.0 (dated in b3ee85d, 2024-08-05)
LIGHTNING_240 = """\
## [2.4.0] - 2024-08-06

### Changed

- NumPy is no longer a required dependency ([#20090](https://github.com/Lightning-AI/pytorch-lightning/issues/20090))
- The `ckpt_path` argument is no longer a required argument of `Trainer.test`
- NumPy is no longer a hard dependency
- `Trainer` no longer accepts `numpy` arrays
- Drop support for NumPy 1.x
- **BREAKING:** numpy is no longer a required dependency. Install the `[numpy]` extra.

### Removed

- Removed support for Python 3.8 ([#20071](https://github.com/Lightning-AI/lightning/pull/20071))

### Fixed

- Avoid LightningCLI saving hyperparameters with `class_path` and `init_args` since this would \
be a breaking change ([#20068](https://github.com/Lightning-AI/pytorch-lightning/pull/20068))
- Rework `save_hyperparameters` without breaking existing checkpoints
- Fixed `LightningCLI` (non-breaking)
- Fixed `LightningCLI` hyperparameters; this is a breaking change for `init_args` users
"""


def test_a_relaxed_requirement_or_an_averted_break_is_no_announcement() -> None:
    """Lightning 2.4.0's release day announced "NumPy is no longer a required dependency"
    (what is no longer required is a relaxation, as "no longer requires" is) and a fix that
    says it avoids a break ("since this would be a breaking change"). What no longer
    accepts, drops support or says "BREAKING" still announces."""
    named = {plain_entry(k): v for k, v in _named(LIGHTNING_240).items()}
    assert named == {
        "Drop support for NumPy 1.x": T.REMOVED,
        "`Trainer` no longer accepts `numpy` arrays": T.SIGNATURE_CHANGED,
        "BREAKING: numpy is no longer a required dependency. Install the `[numpy]` extra.": (
            T.VERSION_CHANGED
        ),
        "Removed support for Python 3.8 (#20071)": T.REMOVED,
        "Fixed `LightningCLI` hyperparameters; this is a breaking change for `init_args` users": (
            T.SIGNATURE_CHANGED
        ),
    }


def test_a_dependency_made_required_is_a_version_requirement_change() -> None:
    """An entry that makes a package a required dependency changes what users install, not
    a signature."""
    assert change_named("NumPy is now a required dependency", breaking=True) is T.VERSION_CHANGED
    assert change_named("Drop the optional dependency on NumPy", breaking=True) is T.REMOVED


# pytorch-lightning src/lightning/pytorch/core/module.py, cut: ad7a958 added a
# rank_zero_deprecation call (a helper of lightning_fabric that warns with a
# DeprecationWarning subclass) to to_torchscript; diffusers deprecates with its own
# deprecate("name", "version", message)
LIGHTNING_MODULE = '''\
import warnings

from lightning_fabric.utilities.rank_zero import rank_zero_deprecation
from diffusers.utils import deprecate


class LightningModule:
    @torch.no_grad()
    def to_torchscript(self, file_path=None, method="script", example_inputs=None, **kwargs):
        """Export the model."""
        mode = self.training
        return mode

    def enable_vae_slicing(self):
        self.vae.enable_slicing()

    def forward(self, hidden_states, *args, **kwargs):
        return hidden_states

    def old(self):
        return 1

    def _warn(self, message):
        return message

    def load(self, path, deprecated=False):
        if deprecated or self.is_deprecated("path"):
            return None
        return path
'''
LIGHTNING_DEPRECATES = (
    LIGHTNING_MODULE.replace(
        '        """Export the model."""\n',
        '        """Export the model."""\n'
        "        rank_zero_deprecation(\n"
        '            "`LightningModule.to_torchscript` has been deprecated in v2.7 and will be"\n'
        '            " removed in v2.8. Use `torch.export` instead."\n'
        "        )\n",
    )
    .replace(
        "        self.vae.enable_slicing()\n",
        '        msg = f"Calling `enable_vae_slicing()` on `{type(self)}` is deprecated."\n'
        "        deprecate(\n"
        '            "enable_vae_slicing",\n'
        '            "0.40.0",\n'
        "            msg,\n"
        "        )\n"
        "        self.vae.enable_slicing()\n",
    )
    .replace(
        "        return hidden_states\n",
        '        if len(args) > 0 or kwargs.get("scale", None) is not None:\n'
        '            deprecation_message = "The `scale` argument is deprecated and is ignored."\n'
        '            deprecate("scale", "1.0.0", deprecation_message)\n'
        "        return hidden_states\n",
    )
    .replace(
        "    def old(self):\n",
        "    def old(self):\n"
        '        msg = "`old` is deprecated"\n'
        "        warnings.warn(msg, DeprecationWarning)\n",
    )
    .replace(
        "        return message\n",
        "        rank_zero_deprecation(message)\n        return message\n",
    )
    .replace(
        "        return path\n",
        '        deprecated_keys = self._deprecated_names("path")\n        return path\n',
    )
)


def test_a_call_of_a_deprecation_helper_deprecates_its_def(tmp_path: Path, mode: str) -> None:
    """An added call, inside a def, of a function whose name says it deprecates
    (Lightning's ``rank_zero_deprecation``, diffusers' ``deprecate``) with a string literal
    among its arguments deprecates that def, or what its message names (diffusers'
    ``scale`` argument), as an added ``warnings.warn(…, DeprecationWarning)`` does. A call
    that passes a variable on (a wrapper), a ``deprecated`` flag tested, a helper that
    lists names (``_deprecated_names``) deprecate nothing."""
    files = [("init", LIGHTNING_MODULE), ("deprecate", LIGHTNING_DEPRECATES)]
    [items] = module_items(tmp_path, mode, "pkg/core/module.py", files, RadarKind.DEPRECATION)
    assert sorted((i.name, i.line) for i in items) == [
        ("pkg.core.module.LightningModule.enable_vae_slicing", 20),
        ("pkg.core.module.LightningModule.forward(scale)", 30),
        ("pkg.core.module.LightningModule.old", 35),
        ("pkg.core.module.LightningModule.to_torchscript", 11),
    ]


# a docstring that shows how the project deprecates (diffusers documents ``deprecate`` with an
# example call; Lightning's docstrings say which warning a method raises)
DOCUMENTED = (
    LIGHTNING_MODULE.replace(
        '        """Export the model."""\n',
        '        """Export the model.\n'
        "\n"
        "        Raises a FutureWarning when ``method`` is not given. Deprecate an argument so::\n"
        "\n"
        '            deprecate("method", "1.0.0", "pass `method` by keyword")\n'
        '            rank_zero_deprecation("`to_torchscript(method)` is deprecated")\n'
        '        """\n',
    )
    .replace(
        "    def old(self):\n",
        '    def old(self):\n        rank_zero_deprecation("`old` is deprecated, use `new`")\n',
    )
    .replace(
        "        return path\n",
        "        categories = (DeprecationWarning, PendingDeprecationWarning, FutureWarning)\n"
        "        return path\n",
    )
)


def test_a_deprecation_shown_in_a_docstring_deprecates_nothing(tmp_path: Path, mode: str) -> None:
    """A helper call or a warning named in a docstring (an example, "Raises a
    FutureWarning") is text, not code: the def that documents it deprecates nothing, nor
    does one that keeps a tuple of warning categories to check for (pytest's
    ``deprecated_call``); the same commit's real call still deprecates its def."""
    files = [("init", LIGHTNING_MODULE), ("document", DOCUMENTED)]
    [items] = module_items(tmp_path, mode, "pkg/core/module.py", files, RadarKind.DEPRECATION)
    assert [i.name for i in items] == ["pkg.core.module.LightningModule.old"]


# the reviewer's fixture: a project's deprecation helper and its warning class (Lightning's
# lightning_fabric/utilities/rank_zero.py defines rank_zero_deprecation so)
PROJECT_WARN = '''\
import warnings


class ProjectDeprecationWarning(DeprecationWarning):
    pass


def project_deprecation(message: str) -> None:
    warnings.warn(message, ProjectDeprecationWarning, stacklevel=2)


def rank_zero_deprecation(message, stacklevel: int = 5, **kwargs) -> None:
    """Emit a deprecation warning only on global rank 0."""
    category = kwargs.pop("category", ProjectDeprecationWarning)
    rank_zero_warn(message, stacklevel=stacklevel, category=category, **kwargs)


def _future(msg, stacklevel=2):
    warnings.warn(
        msg,
        FutureWarning,
        stacklevel=stacklevel,
    )


def deprecate(*args, take_from=None, stacklevel=2):
    for attribute, version_name, message in args:
        warning = f"The `{attribute}` argument is deprecated, gone in {version_name}."
        warnings.warn(warning + message, FutureWarning, stacklevel=stacklevel)
'''


def test_a_deprecation_helpers_own_definition_deprecates_nothing(tmp_path: Path, mode: str) -> None:
    """A def whose warning passes one of its own parameters on as the message, or whose
    name says it deprecates (diffusers' ``deprecate``), is a helper: the reviewer's
    ``project_deprecation`` was reported "deprecated pkg.warn.project_deprecation". A test
    that calls a helper deprecates nothing either."""
    test = 'def test_old():\n    rank_zero_deprecation("`old` is deprecated")\n'
    shas = build_repo(tmp_path / "repo", [
        CommitSpec("init", D[0], files={"pkg/__init__.py": ""}),
        CommitSpec("helpers", D[1], files={"pkg/warn.py": PROJECT_WARN,
                                           "tests/test_warn.py": test}),
    ])  # fmt: skip
    found = scan_log(tmp_path / "repo", f"{shas[0]}..{shas[-1]}", mode)
    assert [i.name for i in found[shas[-1]] if i.kind is RadarKind.DEPRECATION] == []


# diffusers src/diffusers/pipelines/pipeline_utils.py and utils/deprecation_utils.py, cut:
# "[core] deprecate dduf" (bc7aebc20a) deprecates an argument ``from_pretrained`` takes from
# its kwargs; a private helper warns of its callers' ``torch_dtype``
PIPELINE = """\
from ..utils import deprecate


class DiffusionPipeline:
    @classmethod
    def from_pretrained(cls, pretrained_model_name_or_path, **kwargs):
        dduf_file = kwargs.pop("dduf_file", None)
        cache_dir = kwargs.pop("cache_dir", None)
        return cls(dduf_file, cache_dir)

    def enable_attention_slicing(self, slice_size="auto"):
        return slice_size


def _resolve_dtype(torch_dtype, dtype):
    if torch_dtype is not None:
        dtype = torch_dtype
    return dtype
"""
PIPELINE_DEPRECATES = (
    PIPELINE.replace(
        '        cache_dir = kwargs.pop("cache_dir", None)\n',
        '        cache_dir = kwargs.pop("cache_dir", None)\n'
        "        if dduf_file:\n"
        '            deprecate("dduf_file", "0.41.0", _DDUF_DEPRECATION_MESSAGE)\n',
    )
    .replace(
        "        return slice_size\n",
        '        deprecate("enable_attention_slicing", "1.0.0", "Use set_attn_processor.")\n'
        "        return slice_size\n",
    )
    .replace(
        "        dtype = torch_dtype\n",
        '        deprecate("torch_dtype", "1.0.0", _TORCH_DTYPE_DEPRECATION_MESSAGE)\n'
        "        dtype = torch_dtype\n",
    )
)


def test_a_helper_deprecates_the_keyword_its_def_takes_from_its_kwargs(
    tmp_path: Path, mode: str
) -> None:
    """diffusers' "[core] deprecate dduf": ``deprecate("dduf_file", "0.41.0", message)`` in
    ``from_pretrained(cls, name, **kwargs)``, which pops ``"dduf_file"``, deprecates that
    argument ("deprecated DiffusionPipeline.from_pretrained" said the method); a call that
    names its own def deprecates the def; a private helper that warns of its callers'
    argument (``_resolve_dtype``) deprecates nothing of its own."""
    files = [("init", PIPELINE), ("deprecate dduf", PIPELINE_DEPRECATES)]
    [items] = module_items(
        tmp_path, mode, "pkg/pipelines/pipeline_utils.py", files, RadarKind.DEPRECATION
    )
    assert sorted(i.name for i in items) == [
        "pkg.pipelines.pipeline_utils.DiffusionPipeline.enable_attention_slicing",
        "pkg.pipelines.pipeline_utils.DiffusionPipeline.from_pretrained(dduf_file)",
    ]
