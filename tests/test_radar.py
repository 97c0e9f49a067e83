"""The breaking-change radar on fixture repositories built in tmp (fixed dates):
each kind's true change, and the false alarms that must stay silent."""

from __future__ import annotations

from pathlib import Path

import pytest
from gitfixture import CommitSpec, build_repo
from radarscan import MODES, scan_log

from commitdigest.analysis.radar import ApiChange, RadarKind, cache_key
from commitdigest.analysis.radar.models import RADAR_VERSION
from commitdigest.models import ApiChangeType

D1 = "2026-01-10T10:00:00+00:00"
D2 = "2026-01-11T10:00:00+00:00"
D3 = "2026-01-12T10:00:00+00:00"
D4 = "2026-01-13T10:00:00+00:00"

CLIENT_V1 = """\
__all__ = ["Client"]


class Client:
    def __init__(self, base_url: str = "", proxies: object = None, timeout: float = 5.0) -> None:
        self.base_url = base_url

    def get(self, url: str) -> str:
        return url
"""
CLIENT_V2 = CLIENT_V1.replace(", proxies: object = None", "")


@pytest.fixture(autouse=True, params=MODES)
def mode(request: pytest.FixtureRequest) -> str:
    """Every radar test runs with the commits' patches and with whole files only."""
    global MODE
    MODE = request.param
    return str(request.param)


MODE = MODES[0]


def scan(tmp_path: Path, specs: list[CommitSpec]) -> list[list[ApiChange]]:
    """Radar items of every commit after the first (the base)."""
    shas = build_repo(tmp_path / "repo", specs)
    found = scan_log(tmp_path / "repo", f"{shas[0]}..{shas[-1]}", MODE)
    return [found[s] for s in shas[1:]]


def kinds(items: list[ApiChange]) -> list[RadarKind]:
    return [i.kind for i in items]


def test_python_api_parameter_removed(tmp_path: Path) -> None:
    [items] = scan(
        tmp_path,
        [
            CommitSpec(
                "init",
                D1,
                files={
                    "httpx/__init__.py": "from httpx._client import Client\n",
                    "httpx/client.py": CLIENT_V1,
                },
            ),
            CommitSpec("drop proxies", D2, files={"httpx/client.py": CLIENT_V2}),
        ],
    )
    assert [(i.kind, i.change, i.path, i.line) for i in items] == [
        (RadarKind.PYTHON_API, ApiChangeType.REMOVED, "httpx/client.py", 5)
    ]
    assert "Client.__init__(proxies)" in items[0].name
    assert items[0].detail == ""  # the name and the change say it all


def test_python_api_private_module_and_tests_and_docs_are_silent(tmp_path: Path) -> None:
    specs = [
        CommitSpec(
            "init",
            D1,
            files={
                "pkg/__init__.py": "",
                "pkg/_impl.py": "def helper(a, b):\n    pass\n",
                "tools/_gen.py": "def main():\n    pass\n",
                "tests/test_x.py": "def test_a():\n    pass\n",
                "docs/conf.py": "import os\nX = os.getenv('DOCS_THEME')\n",
            },
        ),
        CommitSpec(
            "private move",
            D2,
            files={
                "pkg/_impl.py": None,
                "pkg/_core.py": "def helper(a):\n    pass\n",
                "tools/_gen.py": None,
            },
        ),
        CommitSpec("tests only", D3, files={"tests/test_x.py": None, "docs/conf.py": "X = 1\n"}),
    ]
    moved, tests = scan(tmp_path, specs)
    # a private module's names are none of the package's; the module itself is gone for
    # whoever imported it: one internal item, which only a checkout that imports it sees
    # (not a script of a folder that is no package: ``tools/_gen.py``)
    assert [(i.name, i.detail, i.visibility.value) for i in moved] == [
        ("pkg._impl", "module", "internal")
    ]
    assert tests == []


def test_python_api_moved_but_reexported_is_silent(tmp_path: Path) -> None:
    [items] = scan(
        tmp_path,
        [
            CommitSpec(
                "init",
                D1,
                files={
                    "pkg/__init__.py": "from pkg.models import Thing\n",
                    "pkg/models.py": "class Thing:\n    pass\n",
                },
            ),
            CommitSpec(
                "move Thing",
                D2,
                files={
                    "pkg/__init__.py": "from pkg.core import Thing\n",
                    "pkg/models.py": "X = 1\n",
                    "pkg/core.py": "class Thing:\n    pass\n",
                },
            ),
        ],
    )
    assert items == []


def test_python_api_renamed_parameter_with_shim_is_silent_but_deprecated(tmp_path: Path) -> None:
    before = "def get(url, proxies=None):\n    return url\n"
    after = (
        "import warnings\n\n\ndef get(url, proxy=None, **kwargs):\n"
        '    if "proxies" in kwargs:\n'
        "        warnings.warn(\"'proxies' is deprecated, use 'proxy'\",\n"
        "                      DeprecationWarning, stacklevel=2)\n"
        "    return url\n"
    )
    [items] = scan(
        tmp_path,
        [
            CommitSpec("init", D1, files={"pkg/api.py": before}),
            CommitSpec("rename proxies", D2, files={"pkg/api.py": after}),
        ],
    )
    assert kinds(items) == [RadarKind.DEPRECATION]
    assert items[0].name == "proxies" and items[0].breaking is False and items[0].line == 7


ENVS_V1 = """\
import os

environment_variables = {
    "VLLM_USE_V1": lambda: os.getenv("VLLM_USE_V1", "1"),
    "VLLM_CACHE_ROOT": lambda: os.getenv("VLLM_CACHE_ROOT", "~/.cache"),
}
"""


def test_env_var_removed_from_registry(tmp_path: Path) -> None:
    [items] = scan(
        tmp_path,
        [
            CommitSpec("init", D1, files={"vllm/envs.py": ENVS_V1, "vllm/other.py": "X = 1\n"}),
            CommitSpec(
                "drop V1 flag",
                D2,
                files={
                    "vllm/envs.py": ENVS_V1.replace(
                        '    "VLLM_USE_V1": lambda: os.getenv("VLLM_USE_V1", "1"),\n', ""
                    )
                },
            ),
        ],
    )
    assert [(i.kind, i.name, i.path, i.line) for i in items] == [
        (RadarKind.ENV_VAR, "VLLM_USE_V1", "vllm/envs.py", 4)
    ]


def test_env_var_read_moved_to_another_module_is_silent(tmp_path: Path) -> None:
    [items] = scan(
        tmp_path,
        [
            CommitSpec(
                "init",
                D1,
                files={
                    "app/a.py": "import os\n_T = os.environ.get('APP_TOKEN')\n",
                    "app/b.py": "_X = 1\n",
                },
            ),
            CommitSpec(
                "move read",
                D2,
                files={
                    "app/a.py": "_X = 2\n",
                    "app/b.py": "import os\n_T = os.environ['APP_TOKEN']\n",
                },
            ),
        ],
    )
    assert items == []


def test_env_var_index_covers_untouched_files(tmp_path: Path) -> None:
    # b.py (never touched in the window) still reads the variable: silent
    [items] = scan(
        tmp_path,
        [
            CommitSpec(
                "init",
                D1,
                files={
                    "app/a.py": "import os\n_T = os.getenv('APP_TOKEN')\n",
                    "app/b.py": "import os\n_U = os.getenv('APP_TOKEN')\n",
                },
            ),
            CommitSpec("drop one read", D2, files={"app/a.py": "_X = 2\n"}),
        ],
    )
    assert items == []


def test_cli_option_removed_and_moved(tmp_path: Path) -> None:
    cli = (
        "import argparse\np = argparse.ArgumentParser()\n"
        "p.add_argument('--verbose')\np.add_argument('--legacy')\n"
    )
    items = scan(
        tmp_path,
        [
            CommitSpec("init", D1, files={"tool/cli.py": cli, "tool/opts.py": "_X = 1\n"}),
            CommitSpec(
                "drop --legacy",
                D2,
                files={"tool/cli.py": cli.replace("p.add_argument('--legacy')\n", "")},
            ),
            CommitSpec(
                "move --verbose",
                D3,
                files={
                    "tool/cli.py": "import argparse\np = argparse.ArgumentParser()\n",
                    "tool/opts.py": "import click\nv = click.option('--verbose', is_flag=True)\n",
                },
            ),
        ],
    )
    assert [[(i.kind, i.name, i.line) for i in c] for c in items] == [
        [(RadarKind.CLI_OPTION, "--legacy", 4)],
        [],
    ]


def test_config_key_removed(tmp_path: Path) -> None:
    cfg = '[server]\nhost = "0.0.0.0"\nlegacy_mode = false\n\n[cache]\nsize = 10\n'
    [items] = scan(
        tmp_path,
        [
            CommitSpec("init", D1, files={"app/default_config.toml": cfg}),
            CommitSpec(
                "drop keys", D2, files={"app/default_config.toml": '[server]\nhost = "0.0.0.0"\n'}
            ),
        ],
    )
    assert [(i.kind, i.name) for i in items] == [
        (RadarKind.CONFIG_KEY, "cache"),
        (RadarKind.CONFIG_KEY, "server.legacy_mode"),
    ]


def test_dependency_major_bump_and_python(tmp_path: Path) -> None:
    head = '[project]\nname = "x"\nrequires-python = '
    py1 = head + '">=3.8"\ndependencies = ["pydantic>=1.10", "rich>=13.1"]\n'
    py2 = head + '">=3.10"\ndependencies = ["pydantic>=2.0", "rich>=13.2"]\n'
    [items] = scan(
        tmp_path,
        [
            CommitSpec("init", D1, files={"pyproject.toml": py1}),
            CommitSpec("bump", D2, files={"pyproject.toml": py2}),
        ],
    )
    assert [(i.kind, i.change, i.name, i.detail) for i in items] == [
        (RadarKind.DEPENDENCY, ApiChangeType.VERSION_CHANGED, "pydantic", ">=1.10 → >=2.0"),
        (RadarKind.DEPENDENCY, ApiChangeType.VERSION_CHANGED, "python", ">=3.8 → >=3.10"),
    ]


# pytorch-lightning src/lightning/__setup__.py (the dict of setuptools' arguments its root
# setup.py loads), cut to its python_requires; 3876cc5 raised it in each package's file
LIGHTNING_SETUP = """\
def _setup_args() -> Dict[str, Any]:
    return {
        "name": "lightning",
        "keywords": ["deep learning", "pytorch", "AI"],
        "python_requires": ">=3.9",
        "setup_requires": ["wheel"],
    }
"""
SETUP_PY = """\
from setuptools import setup

PYTHON = ">=3.7"
setup(
    name="x",
    python_requires=">=3.8",  # python_requires=">=3.6" once
)
"""
SETUP_CFG = "[metadata]\nname = x\n\n[options]\npackages = find:\npython_requires = >=3.8\n"


def test_python_requires_raised_in_setup_files(tmp_path: Path) -> None:
    """setuptools' ``python_requires`` as a literal string: a ``setup()`` keyword, a
    dict's key (Lightning's ``src/*/__setup__.py``, the same raise in three packages' files
    one item), ``[options]`` of a ``setup.cfg``; reported as ``requires-python`` is."""
    raised = {
        "src/lightning/__setup__.py": LIGHTNING_SETUP.replace("3.9", "3.10"),
        "src/lightning_fabric/__setup__.py": LIGHTNING_SETUP.replace("3.9", "3.10"),
        "setup.py": SETUP_PY.replace('=">=3.8"', '=">=3.9"'),
        "python/setup.cfg": SETUP_CFG.replace("3.8", "3.10"),
    }
    [items] = scan(
        tmp_path,
        [
            CommitSpec("init", D1, files={
                "src/lightning/__setup__.py": LIGHTNING_SETUP,
                "src/lightning_fabric/__setup__.py": LIGHTNING_SETUP,
                "setup.py": SETUP_PY,
                "python/setup.cfg": SETUP_CFG,
            }),
            CommitSpec("Drop Python 3.9", D2, files=raised),
        ],
    )  # fmt: skip
    assert sorted((i.kind, i.change, i.name, i.detail, i.path, i.line) for i in items) == [
        (RadarKind.DEPENDENCY, ApiChangeType.VERSION_CHANGED, "python", ">=3.8 → >=3.10",
         "python/setup.cfg", 6),
        (RadarKind.DEPENDENCY, ApiChangeType.VERSION_CHANGED, "python", ">=3.8 → >=3.9",
         "setup.py", 6),
        (RadarKind.DEPENDENCY, ApiChangeType.VERSION_CHANGED, "python", ">=3.9 → >=3.10",
         "src/lightning/__setup__.py", 5),
    ]  # fmt: skip


def test_python_requires_on_the_line_below_and_said_twice(tmp_path: Path) -> None:
    """A ``setup.cfg`` may write ``python_requires`` with its value on the line below,
    indented (configparser's continuation): a commit that changes only that line raises
    it; one outside ``[options]`` stays silent. A raise of Python that a ``setup.py`` and
    ``pyproject.toml`` both say is one item, whichever git lists first."""
    cfg = "[metadata]\nname = x\n\n[options]\npython_requires =\n    >=3.8\nzip_safe = False\n"
    other = "[tool:x]\npython_requires =\n    >=3.8\n"
    pyproject = '[project]\nname = "x"\nrequires-python = ">=3.8"\n'
    before = {"python/setup.cfg": cfg, "tools/setup.cfg": other, "app/setup.py": SETUP_PY,
              "pyproject.toml": pyproject}  # fmt: skip
    after = {
        "python/setup.cfg": cfg.replace("3.8", "3.10"),
        "tools/setup.cfg": other.replace("3.8", "3.10"),
        "app/setup.py": SETUP_PY.replace('=">=3.8"', '=">=3.9"'),
        "pyproject.toml": pyproject.replace("3.8", "3.9"),
    }
    [items] = scan(tmp_path, [CommitSpec("init", D1, files=before),
                              CommitSpec("Drop Python 3.8", D2, files=after)])  # fmt: skip
    assert sorted((i.name, i.detail, i.path, i.line) for i in items) == [
        ("python", ">=3.8 → >=3.10", "python/setup.cfg", 5),
        ("python", ">=3.8 → >=3.9", "app/setup.py", 6),
    ]


def test_one_raise_of_python_however_its_files_write_it(tmp_path: Path) -> None:
    """``python_requires =`` with its value on the line below (``    >=3.9``) is read, and
    when ``pyproject.toml`` says the same requirement (``>=3.9.0``, or from another old
    bound) the commit raised Python once: one item. A package that raises it to another
    version is one more."""
    cfg = "[metadata]\nname = x\n\n[options]\npython_requires =\n    >=3.7\nzip_safe = False\n"
    pyproject = '[project]\nname = "x"\nrequires-python = ">=3.8"\n'
    other = '[project]\nname = "y"\nrequires-python = ">=3.8"\n'
    [items] = scan(tmp_path, [
        CommitSpec("init", D1, files={"setup.cfg": cfg, "pyproject.toml": pyproject,
                                      "libs/y/pyproject.toml": other}),
        CommitSpec("Drop Python 3.8", D2, files={
            "setup.cfg": cfg.replace("3.7", "3.9"),
            "pyproject.toml": pyproject.replace("3.8", "3.9.0"),
            "libs/y/pyproject.toml": other.replace("3.8", "3.10"),
        }),
    ])  # fmt: skip
    assert sorted((i.name, i.detail, i.path) for i in items) == [
        ("python", ">=3.8 → >=3.10", "libs/y/pyproject.toml"),
        ("python", ">=3.8 → >=3.9.0", "pyproject.toml"),
    ]


def test_python_requires_that_is_no_raise_of_the_projects(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not a raise: a name or an expression (not read), a comment, a lowered minimum, a
    test's or an example's setup file, a ``python_requires`` outside ``[options]``. A
    commit whose changed lines of a setup file do not mention ``python_requires`` (a
    version bump) does not read it for one."""
    from commitdigest.analysis.radar import dependency

    read: list[str] = []
    real = dependency._python_requires
    monkeypatch.setattr(
        dependency, "_python_requires", lambda name, text: read.append(name) or real(name, text)
    )
    named = SETUP_PY.replace('python_requires=">=3.8"', "python_requires=PYTHON")
    built = SETUP_PY.replace('">=3.8"', '">=3.{}".format(8)')
    example = SETUP_PY
    cfg = "[tool:x]\npython_requires = >=3.8\n"
    before = {
        "setup.py": named,
        "pkg/setup.py": built,
        "plugin/setup.py": SETUP_PY.replace('    python_requires=">=3.8",  ', "    "),
        "lib/setup.py": SETUP_PY.replace("3.8", "3.10"),
        "examples/app/setup.py": example,
        "tests/fixture/setup.py": example,
        "setup.cfg": cfg,
    }
    after = {
        "setup.py": named.replace("3.7", "3.10"),
        "pkg/setup.py": built.replace("(8)", "(10)"),
        "plugin/setup.py": before["plugin/setup.py"].replace('">=3.6"', '">=3.10"'),
        "lib/setup.py": SETUP_PY,
        "examples/app/setup.py": example.replace("3.8", "3.10"),
        "tests/fixture/setup.py": example.replace("3.8", "3.10"),
        "setup.cfg": cfg.replace("3.8", "3.10"),
    }
    bump = {"lib/setup.py": SETUP_PY.replace('name="x"', 'name="x", version="2.0"')}
    items, bumped = scan(
        tmp_path,
        [
            CommitSpec("init", D1, files=before),
            CommitSpec("change", D2, files=after),
            CommitSpec("bump", D3, files=bump),
        ],
    )
    assert [(i.name, i.path) for i in items if i.kind is RadarKind.DEPENDENCY] == []
    assert [i for i in bumped if i.kind is RadarKind.DEPENDENCY] == []
    if MODE == "patches":  # the bump's file is not read for python_requires
        # (the change's pkg/, plugin/ and lib/ ones, each version: not the root one, whose
        # changed line is PYTHON's)
        assert read.count("setup.py") == 6


def test_a_version_bump_reads_no_requirement(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """openai-python's release bot bumps ``version`` in ``pyproject.toml`` at every release:
    both versions were parsed as TOML each time (0.13 s of its three months' radar). A
    commit whose changed lines write no version specifier and no ``requires-python``
    moves no lower bound; the next one that does is read."""
    from commitdigest.analysis.radar import dependency, models

    dependency._project.cache_clear()  # (the texts of another mode's run)
    models.toml_of.cache_clear()
    parsed: list[str] = []
    loads = models.tomllib.loads
    monkeypatch.setattr(models.tomllib, "loads", lambda t: parsed.append(t) or loads(t))
    head = '[project]\nname = "x"\nversion = "{}"\ndependencies = ["pydantic>={}"]\n'
    bumped, raised = scan(
        tmp_path,
        [
            CommitSpec("init", D1, files={"pyproject.toml": head.format("1.0.0", "1.10")}),
            CommitSpec("release 1.0.1", D2, files={"pyproject.toml": head.format("1.0.1", "1.10")}),
            CommitSpec("pydantic 2", D3, files={"pyproject.toml": head.format("1.0.1", "2.0")}),
        ],
    )
    assert bumped == [] and [(i.name, i.detail) for i in raised] == [("pydantic", ">=1.10 → >=2.0")]
    # the last commit's two versions, once each (without the changed lines, a cut patch or
    # the whole files alone, every version once: the bump's new one is the next one's old)
    assert len(parsed) == (2 if MODE == "patches" else 3)


def test_a_pyproject_is_parsed_once_for_every_kind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command-line kind (its ``[project.scripts]``) and the dependency kind (its
    ``dependencies``) read the same ``pyproject.toml``: each version is parsed once, not
    once per kind (Scrapy's five months: 21 parses, 0.1 s, for 13 versions)."""
    from commitdigest.analysis.radar import cli_option, dependency, models

    dependency._project.cache_clear()
    cli_option._cached_commands.cache_clear()
    models.toml_of.cache_clear()
    parsed: list[str] = []
    loads = models.tomllib.loads
    monkeypatch.setattr(models.tomllib, "loads", lambda t: parsed.append(t) or loads(t))
    head = '[project]\nname = "x"\ndependencies = ["pydantic>={}"]\n[project.scripts]\n{}'
    (changed,) = scan(
        tmp_path,
        [
            CommitSpec(
                "init",
                D1,
                files={
                    "pyproject.toml": head.format("1.10", 'x = "x.cli:main"\nold = "x.cli:old"\n'),
                    "x/__init__.py": "",
                    "x/cli.py": "def main(): ...\ndef old(): ...\n",
                },
            ),
            CommitSpec(
                "drop old, pydantic 2",
                D2,
                files={"pyproject.toml": head.format("2.0", 'x = "x.cli:main"\n')},
            ),
        ],
    )
    assert sorted((i.kind, i.name) for i in changed if i.kind is not RadarKind.PYTHON_API) == [
        (RadarKind.CLI_COMMAND, "old"),
        (RadarKind.DEPENDENCY, "pydantic"),
    ]
    assert len(parsed) == len(set(parsed)) == 2  # each version once, for both kinds


def test_a_dependency_item_points_at_its_requirement_line(tmp_path: Path) -> None:
    """pytest 849fbda3c raised ``iniconfig>=2`` and ``tomli>=2``: both items pointed at line
    5, ``setuptools-scm[toml]>=6.2.3``, the first "2" of the file."""

    def project(ini: str, tomli: str, py: str) -> str:
        return (
            '[build-system]\nrequires = [\n    "setuptools>=77",\n'
            '    "setuptools-scm[toml]>=6.2.3",\n]\n\n[project]\nname = "x"\n'
            f'requires-python = ">={py}"\ndependencies = [\n    "iniconfig>={ini}",\n'
            f"    \"tomli>={tomli}; python_version<'3.11'\",\n]\n"
        )

    [items] = scan(
        tmp_path,
        [
            CommitSpec("init", D1, files={"pyproject.toml": project("1.0.1", "1", "3.9")}),
            CommitSpec("bump", D2, files={"pyproject.toml": project("2", "2", "3.10")}),
        ],
    )
    assert [(i.name, i.line) for i in items] == [("iniconfig", 11), ("python", 9), ("tomli", 12)]


def test_only_dependencies_users_install_count(tmp_path: Path) -> None:
    """A requirements file is for work on the project when the root pyproject.toml lists
    the dependencies itself; examples, dev/test/docs requirement files never count.
    Without listed dependencies, ``requirements.txt`` and ``requirements/<name>.txt`` (as
    vLLM writes them) are what users install."""
    listed = '[project]\nname = "x"\ndependencies = ["rich>=13"]\n'
    dynamic = '[project]\nname = "x"\ndynamic = ["dependencies"]\n'
    example = '[project]\nname = "ex"\nrequires-python = ">=3.8"\n'
    files = {
        "requirements.txt": "torch>=1.0\n",
        "requirements-dev.txt": "pytest>=7.0\n",
        "requirements/cuda.txt": "numpy>=1.0\n",
        "requirements/test.txt": "hypothesis>=5.0\n",
        "examples/app/pyproject.toml": example,
    }
    bumped = {
        "requirements.txt": "torch>=2.0\n",
        "requirements-dev.txt": "pytest>=8.0\n",
        "requirements/cuda.txt": "numpy>=2.0\n",
        "requirements/test.txt": "hypothesis>=6.0\n",
        "examples/app/pyproject.toml": example.replace("3.8", "3.10"),
    }
    found = []
    for name, project in (("listed", listed), ("dynamic", dynamic)):
        [items] = scan(
            tmp_path / name,
            [
                CommitSpec("init", D1, files={"pyproject.toml": project, **files}),
                CommitSpec("bump", D2, files=bumped),
            ],
        )
        found.append(sorted((i.name, i.path) for i in items if i.kind is RadarKind.DEPENDENCY))
    assert found == [[], [("numpy", "requirements/cuda.txt"), ("torch", "requirements.txt")]]


def test_a_vendored_tools_options_are_not_the_projects(tmp_path: Path) -> None:
    cli = 'import argparse\np = argparse.ArgumentParser()\np.add_argument("--list")\n'
    tool = cli.replace("--list", "--output")
    [items] = scan(
        tmp_path,
        [
            CommitSpec("init", D1, files={"pkg/_vendor/tool/__main__.py": tool, "pkg/cli.py": cli}),
            CommitSpec(
                "drop --list", D2, files={"pkg/_vendor/tool/__main__.py": "", "pkg/cli.py": ""}
            ),
        ],
    )
    assert [(i.name, i.path) for i in items if i.kind is RadarKind.CLI_OPTION] == [
        ("--list", "pkg/cli.py")
    ]


def test_a_vendored_librarys_api_and_deprecations_are_not_the_projects(tmp_path: Path) -> None:
    # pip/_vendor/urllib3 updated: its own removals and new deprecations are not pip's API
    old = "def request_chunked(body):\n    return body\n\n\ndef keep():\n    return 1\n"
    new = (
        "import warnings\n\n\ndef keep():\n"
        '    warnings.warn("keep() is deprecated", DeprecationWarning)\n    return 1\n'
    )
    [items] = scan(
        tmp_path,
        [
            CommitSpec("init", D1, files={"pkg/_vendor/lib/conn.py": old, "pkg/conn.py": old}),
            CommitSpec("update", D2, files={"pkg/_vendor/lib/conn.py": new, "pkg/conn.py": new}),
        ],
    )
    assert sorted((i.kind.value, i.name, i.path) for i in items) == [
        ("deprecation", "pkg.conn.keep", "pkg/conn.py"),
        ("python_api", "pkg.conn.request_chunked", "pkg/conn.py"),
    ]


@pytest.mark.parametrize(
    ("title", "body"),
    [
        ("feat!: drop the v1 API", ""),
        ("refactor: config loader", "BREAKING CHANGE: the `legacy` section is gone"),
        ("Rework the cache", "This is a breaking change for plugin authors."),
        ("Tighten validation", "This can be considered breaking."),
        ("重构配置加载", "破坏性变更：移除 legacy 配置段"),
    ],
)
def test_announced_in_message(tmp_path: Path, title: str, body: str) -> None:
    [items] = scan(
        tmp_path,
        [
            CommitSpec("init", D1, files={"README.md": "x\n"}),
            CommitSpec(title, D2, body=body, files={"README.md": "y\n"}),
        ],
    )
    assert kinds(items) == [RadarKind.ANNOUNCED]


def test_announced_changelog_section_en_and_zh(tmp_path: Path) -> None:
    entries = "".join(f"- Breaking entry number {n}\n" for n in range(22))
    log = (
        f"# Changelog\n\n## 0.5.0\n\n### Breaking changes\n\n{entries}\n"
        "### Enhancements\n\n- Faster\n\n## 0.4.0\n\n- old\n"
    )
    zh = (
        "# 更新日志\n\n## 2.0\n\n### 破坏性变更\n\n- 移除 `--legacy` 参数\n\n### 新功能\n\n- 更快\n"
    )
    items = scan(
        tmp_path,
        [
            CommitSpec("init", D1, files={"CHANGELOG.md": "# Changelog\n\n## 0.4.0\n\n- old\n"}),
            CommitSpec("Release 0.5.0", D2, files={"CHANGELOG.md": log}),
            CommitSpec("docs: 更新日志", D3, files={"docs/CHANGELOG.zh.md": zh}),
        ],
    )
    assert len(items[0]) == 22 and all(i.kind is RadarKind.ANNOUNCED for i in items[0])
    assert items[0][0].path == "CHANGELOG.md" and items[0][0].line == 7
    assert [i.name for i in items[1]] == ["移除 `--legacy` 参数"]


def test_plain_commit_and_non_breaking_changelog_are_silent(tmp_path: Path) -> None:
    assert scan(
        tmp_path,
        [
            CommitSpec(
                "init",
                D1,
                files={"CHANGELOG.md": "# Changelog\n", "pkg/m.py": "def f(a):\n    pass\n"},
            ),
            CommitSpec(
                "feat: add b",
                D2,
                body="Not breaking.",
                files={
                    "CHANGELOG.md": "# Changelog\n\n## 1.1\n\n### Features\n\n- add b\n",
                    "pkg/m.py": "def f(a, b=None):\n    pass\n",
                },
            ),
        ],
    ) == [[]]


def test_cache_key_has_sha_window_start_and_version() -> None:
    assert cache_key("abc", "b0") == f"radar:v{RADAR_VERSION}:b0:abc" and RADAR_VERSION >= 2
    assert cache_key("abc", "b1") != cache_key("abc", "b0")


def test_one_blob_process_per_window(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    """One reader for the window; with the patches, bodies-only changes read no blob."""
    import subprocess

    calls: list[list[str]] = []
    real = subprocess.Popen

    def spy(args: list[str], *a: object, **kw: object) -> object:
        calls.append(list(args))
        return real(args, *a, **kw)  # type: ignore[call-overload]

    monkeypatch.setattr(subprocess, "Popen", spy)
    specs = [CommitSpec("init", D1, files={"pkg/m.py": "def f(a):\n    pass\n"})]
    specs += [
        CommitSpec(f"c{n}", D2, files={"pkg/m.py": f"def f(a):\n    return {n}\n"})
        for n in range(5)
    ]
    scan(tmp_path, specs)
    readers = sum(1 for c in calls if c[0] == "git" and c[-2:] == ["cat-file", "--batch"])
    assert readers == (0 if mode == "patches" else 1)


def test_changelog_names_are_plain_and_rewrapping_announces_nothing(tmp_path: Path) -> None:
    wrapped = (
        "# Changelog\n\n## 0.12.0\n\n### Breaking changes\n\n"
        "- **Reject MD5-only hashes in hash-checking mode**\n"
        "  ([#20758](https://example.invalid/pull/20758))\n\n"
        "  MD5 is broken; a requirement\n  hashed only with MD5 now fails.\n"
    )
    one_line = (
        "# Changelog\n\n## 0.12.0\n\n### Breaking changes\n\n"
        "- **Reject MD5-only hashes in hash-checking mode** "
        "([#20758](https://example.invalid/pull/20758))\n\n"
        "  MD5 is broken; a requirement hashed only with MD5 now fails.\n"
    )
    sections = (
        one_line + "\n### Removed\n\n- The `--legacy` flag ([#1](https://x.invalid/1))\n"
        "\n### Deprecated\n\n- `uv venv --seed` without a value\n"
        "\n### Enhancements\n\n- Faster resolution\n"
    )
    items = scan(
        tmp_path,
        [
            CommitSpec("init", D1, files={"CHANGELOG.md": "# Changelog\n"}),
            CommitSpec("Release 0.12.0", D2, files={"CHANGELOG.md": wrapped}),
            CommitSpec(
                "Keep changelog paragraphs on one line", D3, files={"CHANGELOG.md": one_line}
            ),
            CommitSpec("Changelog: removals", D4, files={"CHANGELOG.md": sections}),
        ],
    )
    [release] = items[0]
    assert release.name == "Reject MD5-only hashes in hash-checking mode" and release.breaking
    assert items[1] == []  # the same entries, re-wrapped
    removed, deprecated = items[2]
    assert (removed.change, removed.breaking) == (ApiChangeType.REMOVED, True)
    assert removed.name == "The `--legacy` flag (#1)"
    assert (deprecated.change, deprecated.breaking) == (ApiChangeType.DEPRECATED, False)


def test_announced_change_words() -> None:
    from commitdigest.analysis.radar.announced import change_named

    assert change_named("Require `--force` before clearing a directory") is not (
        ApiChangeType.VERSION_CHANGED
    )
    assert change_named("Requires Python 3.10 or newer") is ApiChangeType.VERSION_CHANGED
    assert change_named("Drop the `proxies` argument") is ApiChangeType.REMOVED
    assert change_named("Rename `foo` to `bar`") is ApiChangeType.RENAMED


def test_downstream_matching_names_only_the_changed_object(tmp_path: Path) -> None:
    from commitdigest.analysis.radar.downstream import attach_affects, scan_downstream
    from commitdigest.models import ApiChange

    def item(name: str, change: ApiChangeType = ApiChangeType.REMOVED) -> ApiChange:
        return ApiChange(kind=RadarKind.PYTHON_API, change=change, name=name)

    items = [
        item("pkg._client.Client.get(proxies)"),  # a method, not the module function get
        item("pkg.api.fetch"),  # used through an alias and a re-export
        item("pkg.api.unused"),
        item("pkg.api.get(timeout)", ApiChangeType.DEFAULT_CHANGED),
    ]
    code = (
        "import pkg as p\n"
        "from pkg import get\n"
        "p.get('u', proxies=1)\n"  # the module's get, not Client.get
        "x = p.fetch\n"
        "get('u')\n"  # relies on get's default timeout
        "get('u', timeout=1)\n"
        "# p.unused in a comment is not a use\n"
        "s = 'pkg.api.unused'\n"
    )
    (tmp_path / "m.py").write_text(code, encoding="utf-8")
    (tmp_path / "broken.py").write_text("def (:\n", encoding="utf-8")  # skipped, not fatal
    (tmp_path / "bin.dat").write_bytes(b"\0\1pkg")
    [found] = attach_affects({"sha": items}, scan_downstream([tmp_path], items)).values()
    places = {i.name: [(p.path, p.line) for p in i.affects] for i in found}
    assert places == {
        "pkg._client.Client.get(proxies)": [],
        "pkg.api.fetch": [("m.py", 4)],
        "pkg.api.unused": [],
        "pkg.api.get(timeout)": [("m.py", 3), ("m.py", 5)],  # both rely on the default
    }


def test_private_modules_are_public_where_the_package_reexports_them(tmp_path: Path) -> None:
    init = "from ._client import Client\nfrom ._api import *\nfrom ._api import fetch\n"
    api_v1 = (
        '__all__ = ["get"]\n\n'
        "def get(url, proxies=None):\n    return url\n\n"
        "def fetch(url):\n    return url\n\n"
        "def helper(x, y=1):\n    return x\n"
    )
    client_v1 = (
        "class Client:\n    def __init__(self, proxies=None, app=None):\n        pass\n\n"
        "class Timer:\n    def sync_start(self):\n        pass\n"
    )
    api_v2 = '__all__ = ["get"]\n\ndef get(url):\n    return url\n\ndef helper(x):\n    return x\n'
    client_v2 = (
        "class Client:\n    def __init__(self, app=None):\n        pass\n\n"
        "def fetch(url):\n    return url\n"
    )
    [items] = scan(
        tmp_path,
        [
            CommitSpec(
                "init",
                D1,
                files={
                    "httpx/__init__.py": init,
                    "httpx/_api.py": api_v1,
                    "httpx/_client.py": client_v1,
                    "httpx/_utils.py": "def urlencode(x):\n    return x\n",
                },
            ),
            CommitSpec(
                "Drop proxies; move fetch; tidy private helpers",
                D2,
                files={
                    "httpx/__init__.py": init.replace(
                        "from ._api import fetch", "from ._client import fetch"
                    ),
                    "httpx/_api.py": api_v2,
                    "httpx/_client.py": client_v2,
                    "httpx/_utils.py": "X = 1\n",
                },
            ),
        ],
    )
    # named as users import them; Timer, urlencode, helper are not exported; fetch moved
    assert sorted((i.name, i.change) for i in items) == [
        ("httpx.Client.__init__(proxies)", ApiChangeType.REMOVED),
        ("httpx.get(proxies)", ApiChangeType.REMOVED),
    ]
    lines = {i.name: (i.path, i.line) for i in items}
    assert lines["httpx.Client.__init__(proxies)"] == ("httpx/_client.py", 2)


def test_a_deleted_module_reports_its_own_names_not_its_imports(tmp_path: Path) -> None:
    """Imports of a deleted module are not its API (griffe cannot even resolve them from the
    module alone: `from __future__ import annotations` crashed the radar), except names
    its `__all__` exports, reported at their import line."""
    plain = (
        "from __future__ import annotations\n\nimport os\n\n\n"
        "def run() -> str:\n    return os.sep\n"
    )
    exporting = (
        "from __future__ import annotations\n\nfrom pkg.core import helper\n\n"
        '__all__ = ["helper", "start"]\n\n\ndef start() -> None:\n    helper()\n'
    )
    [items] = scan(
        tmp_path,
        [
            CommitSpec("init", D1, files={"pkg/__init__.py": "", "pkg/common.py": plain,
                                          "pkg/core.py": "def helper(): ...\n",
                                          "pkg/api.py": exporting}),
            CommitSpec("remove two modules", D2, files={"pkg/common.py": None, "pkg/api.py": None}),
        ],
    )  # fmt: skip
    found = sorted((i.name, i.line) for i in items if i.kind is RadarKind.PYTHON_API)
    assert found == [("pkg.api.helper", 3), ("pkg.api.start", 8), ("pkg.common.run", 6)]


def test_a_dropped_reexport_is_reported_at_its_import_line(tmp_path: Path) -> None:
    """A package that stops re-exporting a name breaks its users; the item's line is the
    import's (resolving the alias needs the whole package: it crashed the radar)."""
    init_v1 = (
        'from pkg.files import ensure_dir, write_text\n\n__all__ = ["ensure_dir", "write_text"]\n'
    )
    init_v2 = 'from pkg.files import write_text\n\n__all__ = ["write_text"]\n'
    [items] = scan(
        tmp_path,
        [
            CommitSpec("init", D1, files={"pkg/__init__.py": init_v1,
                                          "pkg/files.py": "def ensure_dir(): ...\n"
                                                          "def write_text(): ...\n"}),
            CommitSpec("stop re-exporting", D2, files={"pkg/__init__.py": init_v2}),
        ],
    )  # fmt: skip
    found = [(i.name, i.change, i.line) for i in items if i.kind is RadarKind.PYTHON_API]
    assert found == [("pkg.ensure_dir", ApiChangeType.REMOVED, 1)]


@pytest.mark.parametrize("eol", ["\n", "\r\n"])
def test_a_parameter_line_removed_from_a_crlf_module_is_found(tmp_path: Path, eol: str) -> None:
    """A module written with CRLF line ends: its changed lines are read without the "\\r"
    (a parameter line ``    b,\\r`` is a parameter line), in every mode."""
    old = "def run(\n    a,\n    b,\n):\n    return a\n\n\ndef other(x):\n    return x\n"
    new = old.replace("    b,\n", "")
    [items] = scan(tmp_path, [
        CommitSpec("init", D1, files={"pkg/__init__.py": "", "pkg/m.py": old.replace("\n", eol)}),
        CommitSpec("drop b", D2, files={"pkg/m.py": new.replace("\n", eol)}),
    ])  # fmt: skip
    assert [(i.name, i.change) for i in items] == [("pkg.m.run(b)", ApiChangeType.REMOVED)]
