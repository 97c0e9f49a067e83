"""Real release notes and deleted modules that a second reader of the radar's rules found
misread: each test holds the text or the shape of a real commit (named in it), and what a
user reading the report must see."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from gitfixture import CommitSpec, build_repo
from radarscan import scan_log

from commitdigest.analysis.classify import is_changelog
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
