"""The radar on the shapes real code takes (issue 24), each as a true change that must be
found and a look-alike that must stay silent: overrides a base still defines, Triton's
dicts of lambdas, CI configuration, public vs internal names, names re-exported inside
try/except or served by a module __getattr__, releases that announce what was written weeks
earlier (Markdown and reStructuredText), and the downstream lines that really use a change —
through subclasses, overrides, self./instance calls, attribute chains, star imports and
positions."""

from __future__ import annotations

import re
import threading
from dataclasses import replace
from pathlib import Path

import pytest
from gitfixture import CommitSpec, build_repo, commit, git, merge
from hypothesis import example, given, settings
from hypothesis import strategies as st
from radarscan import MODES, scan_log

from commitdigest.analysis.radar.downstream import attach_affects, scan_downstream
from commitdigest.analysis.radar.public import PublicSurface
from commitdigest.models import ApiChange, ApiChangeType, RadarKind, Visibility

D = [f"2026-02-0{n}T10:00:00+00:00" for n in range(1, 10)]


@pytest.fixture(params=MODES)
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def scan(tmp_path: Path, specs: list[CommitSpec], mode: str) -> list[list[ApiChange]]:
    shas = build_repo(tmp_path / "repo", specs)
    found = scan_log(tmp_path / "repo", f"{shas[0]}..{shas[-1]}", mode)
    return [found[s] for s in shas[1:]]


def names(items: list[ApiChange]) -> set[str]:
    return {i.name for i in items}


# ---- no false alarms -------------------------------------------------------------------------

ADAPTOR = """\
import torch_npu


class BaseDeviceAdaptor:
    @classmethod
    def reshape_and_cache(cls, key, value):
        return torch_npu.scatter(key, value)

    @classmethod
    def load(cls, key):
        return key


class A5DeviceAdaptor(BaseDeviceAdaptor):
    @classmethod
    def reshape_and_cache(cls, key, value):
        return torch_npu.scatter(key.contiguous(), value)

    @classmethod
    def only_here(cls, key):
        return key
"""


def test_a_removed_override_the_base_still_defines_is_not_a_removal(
    tmp_path: Path, mode: str
) -> None:
    without = ADAPTOR.replace(
        "    @classmethod\n    def reshape_and_cache(cls, key, value):\n"
        "        return torch_npu.scatter(key.contiguous(), value)\n\n",
        "",
    ).replace("    @classmethod\n    def only_here(cls, key):\n        return key\n", "    pass\n")
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/device_op.py": ADAPTOR}),
        CommitSpec("Replace PA KV cache operators", D[1], files={"pkg/device_op.py": without}),
    ], mode)  # fmt: skip
    assert names(items) == {"pkg.device_op.A5DeviceAdaptor.only_here"}  # the real removal


def test_an_override_inherited_from_another_module_of_the_repository(
    tmp_path: Path, mode: str
) -> None:
    base = "class Base:\n    def run(self, x):\n        return x\n"
    child = (
        "from pkg.base import Base\n\n\nclass Child(Base):\n"
        "    def run(self, x):\n        return x + 1\n"
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/base.py": base,
                                        "pkg/child.py": child}),
        CommitSpec("drop the override", D[1], files={
            "pkg/child.py": "from pkg.base import Base\n\n\nclass Child(Base):\n    pass\n"}),
    ], mode)  # fmt: skip
    assert items == []


FP8_CONFIG = """\
import enum

from vllm.quantization.base_config import QuantizationConfig


class AscendFp8Config(QuantizationConfig):
    @classmethod
    def get_name(cls):
        return "fp8"

    @classmethod
    def from_config(cls, config):
        return cls()

    def describe(self):
        return "ascend"


class Mode(enum.IntEnum):
    FAST = 1

    def label(self):
        return "fast"


class Plain(QuantizationConfig):
    def get_name(self):
        return "plain"


class Settings:
    def from_env(self):
        return self


class Cfg(QuantizationConfig):
    def ascend_only_helper(self):
        return 1
"""


def test_methods_a_class_drops_as_it_derives_from_another_projects_class_are_inherited(
    tmp_path: Path, mode: str
) -> None:
    """vllm-ascend made ``AscendFp8Config(QuantizationConfig)`` derive from vLLM's
    ``Fp8Config`` and dropped ``get_name``, ``from_config`` and more, which that class
    gives it: four "removed" lines beside the ``bases`` item. A member a class drops in the
    commit that makes it derive from another project's class is presumed inherited from
    it, where it replaces another class of that project; a base from the standard library
    gives nothing of the kind (``Mode.label`` goes), nor does an upstream base the class
    already had (``Plain.get_name``), one it only gains (``Cfg(QuantizationConfig,
    torch.nn.Module)``), or another project's (``Settings`` made a pydantic model)."""
    after = (
        FP8_CONFIG.replace(
            "from vllm.quantization.base_config import QuantizationConfig\n",
            "from vllm.quantization.base_config import QuantizationConfig\n"
            "from vllm.quantization.fp8 import Fp8Config\n",
        )
        .replace(
            "class AscendFp8Config(QuantizationConfig):\n"
            '    @classmethod\n    def get_name(cls):\n        return "fp8"\n\n'
            "    @classmethod\n    def from_config(cls, config):\n        return cls()\n\n",
            "class AscendFp8Config(Fp8Config):\n",
        )
        .replace("class Mode(enum.IntEnum):", "class Mode(enum.IntEnum, enum.ReprEnum):")
        .replace('\n    def label(self):\n        return "fast"\n', "")
        .replace('    def get_name(self):\n        return "plain"\n', "    pass\n")
        .replace(
            "class Settings:\n    def from_env(self):\n        return self\n",
            "class Settings(BaseModel):\n    pass\n",
        )
        .replace(
            "class Cfg(QuantizationConfig):\n    def ascend_only_helper(self):\n        return 1\n",
            "class Cfg(QuantizationConfig, torch.nn.Module):\n    pass\n",
        )
        .replace("import enum\n", "import enum\n\nimport torch\nfrom pydantic import BaseModel\n")
    )
    [items] = module_items(
        tmp_path,
        mode,
        "pkg/fp8_config.py",
        [("init", FP8_CONFIG), ("derive from Fp8Config", after)],
    )
    assert sorted((i.name, i.change.value) for i in items) == [
        ("pkg.fp8_config.AscendFp8Config", "signature_changed"),  # its bases
        ("pkg.fp8_config.Cfg.ascend_only_helper", "removed"),  # a base added, none replaced
        ("pkg.fp8_config.Mode.label", "removed"),
        ("pkg.fp8_config.Plain.get_name", "removed"),
        ("pkg.fp8_config.Settings.from_env", "removed"),  # made a pydantic model
    ]


def test_a_base_shared_by_the_overrides_a_commit_drops_is_found_once(
    tmp_path: Path, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Overrides dropped from several classes and methods that share a base of another
    module are still inherited; where that base is defined is worked out once per commit,
    not once per method (diffusers' pipelines share their mixins)."""
    from commitdigest.analysis.radar import python_api

    followed: list[str] = []
    real = python_api._followed_origin
    monkeypatch.setattr(
        python_api, "_followed_origin",
        lambda view, public, module, text, base, *a: followed.append(f"{module}:{base}")
        or real(view, public, module, text, base, *a),
    )  # fmt: skip
    base = (
        "class Base:\n    def run(self, x):\n        return x\n\n"
        "    def stop(self):\n        pass\n"
    )
    child = "".join(
        f"class {name}(Base):\n    def run(self, x):\n        return x + 1\n\n"
        f"    def stop(self):\n        pass\n\n\n"
        for name in ("One", "Two", "Three")
    )
    head = "from pkg.base import Base\n\n\n"
    dropped = "".join(f"class {name}(Base):\n    pass\n\n\n" for name in ("One", "Two", "Three"))
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/base.py": base,
                                        "pkg/child.py": head + child}),
        CommitSpec("drop the overrides", D[1], files={"pkg/child.py": head + dropped}),
    ], mode)  # fmt: skip
    assert items == []
    assert followed == ["pkg.child:Base"]  # six methods, three classes: one search


def test_an_override_in_a_package_init_inherited_through_a_relative_import(
    tmp_path: Path, mode: str
) -> None:
    """``from .base import Base`` in ``pkg/__init__.py`` is ``pkg.base``: one dot is the
    package itself there (it was read as a top-level ``base`` and the removal reported)."""
    base = "class Base:\n    def run(self, x):\n        return x\n"
    init = (
        "from .base import Base\n\n\nclass Child(Base):\n    def run(self, x):\n        return x\n"
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": init, "pkg/base.py": base}),
        CommitSpec("drop the override", D[1], files={
            "pkg/__init__.py": "from .base import Base\n\n\nclass Child(Base):\n    pass\n"}),
    ], mode)  # fmt: skip
    assert items == []


TRITON = """\
import os

import triton

DEBUG = os.getenv("PKG_TRITON_DEBUG")


@triton.heuristics({
    "IS_VARLEN": lambda args: args["cu_seqlens"] is not None,
    "IS_SPEC_DECODING": lambda args: args["spec"] is not None,
})
@triton.jit
def kernel(x, IS_VARLEN, IS_SPEC_DECODING):
    pass
"""
ENVS = """\
import os

env_variables = {
    "PKG_HOME": lambda: os.getenv("PKG_HOME", None),
    "PKG_FAST": lambda: bool(int(os.getenv("PKG_FAST", "0"))),
}
"""


def test_env_vars_come_from_environment_reads_not_dicts_of_lambdas(
    tmp_path: Path, mode: str
) -> None:
    gone = ENVS.replace('    "PKG_FAST": lambda: bool(int(os.getenv("PKG_FAST", "0"))),\n', "")
    kernel2 = (
        'import os\n\nimport triton\n\nDEBUG = os.getenv("PKG_TRITON_DEBUG")\n\n\n'
        "@triton.jit\ndef kernel(x):\n    pass\n"
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/ops/gdn.py": TRITON,
                                        "pkg/envs.py": ENVS}),
        CommitSpec("simplify the kernel, drop PKG_FAST", D[1], files={
            "pkg/ops/gdn.py": kernel2, "pkg/envs.py": gone}),
    ], mode)  # fmt: skip
    env = {i.name for i in items if i.kind is RadarKind.ENV_VAR}
    assert env == {"PKG_FAST"}


def test_a_served_environment_variable_is_one_item_the_variable(tmp_path: Path, mode: str) -> None:
    """vllm-ascend's ``envs`` serves ``envs.VLLM_ASCEND_X`` from its ``env_variables``
    table through its ``__getattr__``: an entry removed is the variable gone, one item (the
    attribute is read by the name of the variable), not a Python name beside it. A constant
    a module assigns from the environment is imported by its name: both stay."""
    served = ENVS + "\n\ndef __getattr__(name):\n    return env_variables[name]()\n"
    gone = served.replace('    "PKG_FAST": lambda: bool(int(os.getenv("PKG_FAST", "0"))),\n', "")
    settings = 'import os\n\nPKG_CACHE_DIR = os.environ.get("PKG_CACHE_DIR", "/tmp")\n'
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/envs.py": served,
                                        "pkg/settings.py": settings}),
        CommitSpec("drop PKG_FAST", D[1], files={"pkg/envs.py": gone,
                                                 "pkg/settings.py": "import os\n"}),
    ], mode)  # fmt: skip
    assert sorted((i.kind.value, i.name) for i in items) == [
        ("env_var", "PKG_CACHE_DIR"),
        ("env_var", "PKG_FAST"),
        ("python_api", "pkg.settings.PKG_CACHE_DIR"),  # (assigned: imported by its name)
    ]


def test_a_variable_still_read_by_another_module_is_not_removed(tmp_path: Path, mode: str) -> None:
    """A variable counts as removed only when no other non-test module reads it at that
    commit (a test that reads it does not count); one that moved stays silent."""
    reader = 'import os\nLEVEL = os.getenv("PKG_LEVEL")\nMODE = os.environ.get("PKG_MODE")\n'
    moved, dropped = D[1], D[2]
    found = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/a.py": reader,
                                        "tests/test_a.py": 'import os\nos.getenv("PKG_MODE")\n'}),
        CommitSpec("move PKG_LEVEL", moved, files={
            "pkg/a.py": 'import os\nMODE = os.environ.get("PKG_MODE")\n',
            "pkg/b.py": 'import os\nLEVEL = os.getenv("PKG_LEVEL")\n'}),
        CommitSpec("drop PKG_MODE", dropped, files={"pkg/a.py": "MODE = None\n"}),
    ], mode)  # fmt: skip
    env = [[i.name for i in items if i.kind is RadarKind.ENV_VAR] for items in found]
    assert env == [[], ["PKG_MODE"]]


XLA = """\
import os


class XLAPrecision:
    def __init__(self, precision: str = "bf16-true") -> None:
        if precision == "bf16-true":
            os.environ["XLA_USE_BF16"] = "1"
        os.environ.setdefault("PKG_XLA_THREADS", "1")
        self._saved = os.environ.pop("PKG_XLA_SAVED", None)
        os.environ["PKG_XLA_PATH"] += ":/opt/xla"

    def teardown(self) -> None:
        os.environ.pop("XLA_USE_BF16", None)
        del os.environ["PKG_XLA_THREADS"]
"""
LEVEL = 'import os\n\n\ndef level() -> str:\n    return os.getenv("PKG_LEVEL", "info")\n'
LEVEL_SET = (
    "import os\n\n\ndef quiet() -> None:\n"
    '    os.environ["PKG_LEVEL"] = "error"\n    os.environ.setdefault("PKG_LEVEL", "error")\n'
    '    os.environ.pop("PKG_LEVEL", None)\n    del os.environ["PKG_LEVEL"]\n'
)


def test_a_variable_the_project_only_sets_or_unsets_is_not_read(tmp_path: Path, mode: str) -> None:
    """Writing a variable is no read of it: pytorch-lightning sets ``XLA_USE_BF16`` for
    torch_xla in ``XLAPrecision`` and pops it in ``teardown()``; removing both removes
    nothing users set (also an assignment, ``del``, and a ``setdefault`` or ``pop`` whose
    value is unused). A read removed while another module only sets the variable is still
    a removal; a ``pop`` whose value is kept and a ``+=`` read the variable."""
    moved = (
        XLA.replace('            os.environ["XLA_USE_BF16"] = "1"\n', "            pass\n")
        .replace('        os.environ.setdefault("PKG_XLA_THREADS", "1")\n', "")
        .replace('        self._saved = os.environ.pop("PKG_XLA_SAVED", None)\n', "")
        .replace('        os.environ["PKG_XLA_PATH"] += ":/opt/xla"\n', "")
        .replace('        os.environ.pop("XLA_USE_BF16", None)\n', "")
        .replace('        del os.environ["PKG_XLA_THREADS"]\n', "        pass\n")
    )
    dropped, unset = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/xla.py": XLA,
                                        "pkg/log.py": LEVEL, "pkg/quiet.py": LEVEL_SET}),
        CommitSpec("drop the level", D[1], files={"pkg/log.py": "def level():\n    return 1\n"}),
        CommitSpec("Internal Refactor: Reroute Implementations", D[2], files={
            "pkg/xla.py": moved, "pkg/quiet.py": "def quiet():\n    pass\n"}),
    ], mode)  # fmt: skip
    assert [(i.name, i.path, i.line) for i in dropped if i.kind is RadarKind.ENV_VAR] == [
        ("PKG_LEVEL", "pkg/log.py", 5)
    ]
    assert sorted(i.name for i in unset if i.kind is RadarKind.ENV_VAR) == [
        "PKG_XLA_PATH",
        "PKG_XLA_SAVED",
    ]


RANK_ZERO = '''\
import os


def _get_rank() -> int | None:
    """The process's rank (see ``"GROUP_RANK"`` in the elastic environment)."""
    # SLURM_PROCID can be set even if SLURM is not managing the processes ("GROUP_RANK" too)
    rank_keys = ("RANK", "LOCAL_RANK", "SLURM_PROCID", "JSM_NAMESPACE_RANK")
    for key in rank_keys:
        rank = os.environ.get(key)
        if rank is not None:
            return int(rank)
    return None
'''
LSF = """\
import os


class LSFEnvironment:
    @staticmethod
    def detect() -> bool:
        required_env_vars = {"LSB_JOBID", "JSM_NAMESPACE_LOCAL_RANK"}
        return required_env_vars.issubset(os.environ.keys())

    def local_rank(self) -> int:
        return int(os.environ["JSM_NAMESPACE_LOCAL_RANK"])

    def hosts(self) -> str:
        return os.environ["LSB_DJOB_RANKFILE"]
"""
ELASTIC = """\
import os


class TorchElasticEnvironment:
    def global_rank(self) -> int:
        return int(os.environ["RANK"])

    def node_rank(self) -> int:
        return int(os.environ.get("GROUP_RANK", 0)) + int(os.environ.get("NODE_RANK", 0))
"""
HELP = 'import os\n\nHOME = os.getenv("PKG_HOME")\nHELP = {"NODE_RANK": "the node\'s rank"}\n'


def test_a_variable_read_through_a_table_of_names_is_still_read(tmp_path: Path, mode: str) -> None:
    """A module that reads the environment by a key from a table of names still reads
    each name it writes as a literal: pytorch-lightning's ``rank_keys = ("RANK", …)`` read
    in a loop, and its ``LSFEnvironment.detect()``'s ``required_env_vars.issubset(
    os.environ.keys())`` — commit 9a10959 dropped the direct reads of ``RANK`` and
    ``JSM_NAMESPACE_LOCAL_RANK``, and both were "removed". A name in a comment or a
    docstring of such a module, or a literal in a module that reads by no such key, does
    not count."""
    delegated = ELASTIC.replace('int(os.environ["RANK"])', "self._impl.global_rank()").replace(
        'int(os.environ.get("GROUP_RANK", 0)) + int(os.environ.get("NODE_RANK", 0))',
        "self._impl.node_rank()",
    )
    lsf = LSF.replace('int(os.environ["JSM_NAMESPACE_LOCAL_RANK"])', "self._impl.local_rank()")
    lsf = lsf.replace('os.environ["LSB_DJOB_RANKFILE"]', "self._impl.hosts()")
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "pkg/__init__.py": "", "pkg/rank_zero.py": RANK_ZERO, "pkg/lsf.py": LSF,
            "pkg/elastic.py": ELASTIC, "pkg/help.py": HELP}),
        CommitSpec("Internal Refactor: Reroute Implementations", D[1], files={
            "pkg/elastic.py": delegated, "pkg/lsf.py": lsf}),
    ], mode)  # fmt: skip
    assert sorted((i.name, i.path) for i in items if i.kind is RadarKind.ENV_VAR) == [
        ("GROUP_RANK", "pkg/elastic.py"),
        ("LSB_DJOB_RANKFILE", "pkg/lsf.py"),
        ("NODE_RANK", "pkg/elastic.py"),
    ]


COMET = '''\
import os


class CometLogger:
    r"""Track your parameters with Comet.

    Example::

        comet_logger = CometLogger(
            api_key=os.environ.get("COMET_API_KEY"),
            rest_api_key=os.environ.get("COMET_REST_API_KEY"),  # Optional
        )

    Args:
        project: the project's name; ``WANDB_PROJECT`` where not given
    """

    def __init__(self, api_key: str | None = None, project: str | None = None) -> None:
        self.api_key = api_key or os.environ.get("COMET_API_KEY")
        self.project = project or os.environ.get("WANDB_PROJECT", "lightning_logs")
'''


def test_a_read_in_a_docstrings_example_is_no_read(tmp_path: Path, mode: str) -> None:
    """A variable named in a docstring's example is no read, neither removed nor still
    read (pytorch-lightning's CometLogger docstring shows
    ``rest_api_key=os.environ.get("COMET_REST_API_KEY")``: a docstring edit "removed" it);
    a read removed is found at its line of code, not at a docstring's mention above it."""
    example = COMET.replace(
        '            rest_api_key=os.environ.get("COMET_REST_API_KEY"),  # Optional\n', ""
    )
    code = example.replace('os.environ.get("COMET_API_KEY")\n', "None\n").replace(
        'os.environ.get("WANDB_PROJECT", "lightning_logs")', '"lightning_logs"'
    )
    edited, dropped = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/comet.py": COMET}),
        CommitSpec("update the example", D[1], files={"pkg/comet.py": example}),
        CommitSpec("drop the reads", D[2], files={"pkg/comet.py": code}),
    ], mode)  # fmt: skip
    assert [i for i in edited if i.kind is RadarKind.ENV_VAR] == []
    assert sorted((i.name, i.line) for i in dropped if i.kind is RadarKind.ENV_VAR) == [
        ("COMET_API_KEY", 18),
        ("WANDB_PROJECT", 19),
    ]


@pytest.mark.parametrize(
    ("code", "read"),
    [
        ('os.environ["PKG_A"] = os.environ["PKG_B"]\n', {"PKG_B"}),
        ('os.environ["PKG_A"] += ":x"\n', {"PKG_A"}),
        ('if os.environ["PKG_A"] == "1":\n    pass\n', {"PKG_A"}),
        (
            'del os.environ["PKG_A"]\n# Restore it.\nos.environ.pop("PKG_B", None)\n'
            'os.environ.setdefault("PKG_C", "1")\n',
            set(),
        ),
        (
            'v = os.environ.pop("PKG_A", None)\nif os.environ.pop("PKG_B", None):\n    pass\n',
            {"PKG_A", "PKG_B"},
        ),
        ('f(\n    os.environ.pop("PKG_A", None),\n)\nx = 1; os.environ.pop("PKG_B")\n', {"PKG_A"}),
        ('os.environ["PKG_A"] = "1"\nv = os.getenv("PKG_A")\n', {"PKG_A"}),
        (
            '# v = os.getenv("PKG_A")\n"""\nos.getenv("PKG_B")\n"""\n'
            'x = "#"; v = os.getenv("PKG_C")\n',
            {"PKG_C"},
        ),
        ('msg = f"""{os.getenv("PKG_A")}"""\ndoc = """os.getenv("PKG_B")"""\n', {"PKG_A"}),
    ],
)
def test_only_reads_of_the_environment_in_code_are_reads(code: str, read: set[str]) -> None:
    """A write (an assignment, ``del``, a ``pop``/``setdefault`` whose value is unused) is
    no read; a read in a comment or in a triple-quoted string is none either (an f-string's
    ``{…}`` is code)."""
    from commitdigest.analysis.radar.env_var import names as env_names

    assert env_names("import os\n" + code) == read


# a module that says which variables it no longer reads (a table of their names, each tested
# for presence only to warn), and a registry whose names another module reads for their values
SETTINGS = """\
import os
import warnings

_REMOVED = ("PKG_OLD_LEVEL",)


def check() -> None:
    for name in _REMOVED:
        if name in os.environ:
            warnings.warn(f"{name} is no longer used", DeprecationWarning)


def rank() -> int:
    return int(values()["PKG_RANK"] or 0)
"""
REGISTRY = """\
import os

_KNOWN = ("PKG_RANK", "PKG_SEED")


def values() -> dict[str, str | None]:
    return {name: os.environ.get(name) for name in _KNOWN}
"""
OLD_SETTINGS = """\
import os


def level() -> str:
    return os.getenv("PKG_OLD_LEVEL", "info")


def rank() -> int:
    return int(os.environ["PKG_RANK"])


def host() -> str | None:
    return os.environ.get("PKG_HOST")
"""
# a WSGI application's ``environ`` (a parameter, not ``os.environ``) read by a table of keys,
# and a loop over every variable set: neither reads a variable by its name
WSGI = """\
import os

_FORWARDED = ("PKG_HOST", "HTTP_X_FORWARDED_FOR")


def app(environ, start_response):
    return [environ[key] for key in _FORWARDED if key in environ]


def dump() -> list[str]:
    return [f"{k}={v}" for k, v in os.environ.items()]
"""


def test_a_table_of_variables_no_longer_read_reads_none(tmp_path: Path, mode: str) -> None:
    """A table of names whose only use is a presence test that warns (or raises) that the
    variable is set reads none of them: the commit that replaced ``os.getenv("PKG_OLD_LEVEL")``
    with ``_REMOVED = ("PKG_OLD_LEVEL",)`` / ``if name in os.environ: warnings.warn(…)``
    removed the variable (the table hid it). Nor does a WSGI ``environ[key]`` or a loop over
    ``os.environ.items()`` read ``PKG_HOST`` by name. A registry whose names are read for
    their values (``os.environ.get(name)``) still reads ``PKG_RANK``."""
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/settings.py": OLD_SETTINGS,
                                        "pkg/wsgi.py": WSGI, "pkg/registry.py": REGISTRY}),
        CommitSpec("Drop the old level", D[1], files={"pkg/settings.py": SETTINGS}),
    ], mode)  # fmt: skip
    assert sorted((i.name, i.path, i.line) for i in items if i.kind is RadarKind.ENV_VAR) == [
        ("PKG_HOST", "pkg/settings.py", 13),
        ("PKG_OLD_LEVEL", "pkg/settings.py", 5),
    ]


@pytest.mark.parametrize(
    ("code", "read"),
    [
        ('for k in T:\n    if k in os.environ:\n        warnings.warn(f"{k} is unused")\n', set()),
        ("for k in T:\n    if k in os.environ:  # no more\n        raise RuntimeError(k)\n", set()),
        ('if any(k in os.environ for k in T): warnings.warn("unsupported")\n', set()),
        ("for k in T:\n    if k not in os.environ:\n        raise RuntimeError(k)\n", {"PKG_A"}),
        ("for k in T:\n    if k in os.environ:\n        level = 1\n", {"PKG_A"}),
        ("ok = all(k in os.environ for k in T)\n", {"PKG_A"}),
        ("ok = set(T).issubset(os.environ.keys())\n", {"PKG_A"}),
        ("v = [os.getenv(k) for k in T]\n", {"PKG_A"}),
        ("for k, v in os.environ.items():\n    print(k in T)\n", set()),
        ("extra = [k for k in os.environ.keys() if k not in T]\n", set()),
        ("def app(environ, start):\n    return [environ[k] for k in T]\n", set()),
        ("def app(request):\n    return [request.environ.get(k) for k in T]\n", set()),
        ("from os import environ\n\nv = [environ[k] for k in T]\n", {"PKG_A"}),
        ("import os as _os\n\nv = [_os.environ[k] for k in T]\n", {"PKG_A"}),
    ],
)
def test_only_a_read_of_a_tables_names_reads_them(code: str, read: set[str]) -> None:
    """A table of names (``T``) is read where the environment is read by its names for
    their values or their presence; not by a presence test that only warns or raises that
    one is set (variables no longer supported), a loop over every variable, or a WSGI
    application's ``environ``."""
    from commitdigest.analysis.radar.env_var import read_by_key

    module = 'import os\nimport warnings\n\nT = ("PKG_A",)\n\n' + code
    assert read_by_key(module, ["PKG_A", "PKG_B"]) == read


@pytest.mark.parametrize(
    ("code", "read"),
    [
        ('if "PKG_A" in os.environ:\n    warnings.warn("PKG_A is no longer used")\n', set()),
        (
            'if "PKG_A" in os.environ:\n    warnings.warn("PKG_A is deprecated")\n'
            'v = os.environ["PKG_A"]\n',
            {"PKG_A"},
        ),
        ('if "PKG_A" not in os.environ:\n    raise RuntimeError("PKG_A must be set")\n', {"PKG_A"}),
        ('DEBUG = "PKG_A" in os.environ\n', {"PKG_A"}),
    ],
)
def test_a_presence_test_that_only_warns_is_no_read(code: str, read: set[str]) -> None:
    """``if "X" in os.environ: warnings.warn("X is no longer used")`` reads no ``X``; a
    ``not in`` test that raises (a variable required), or a presence kept as a value, does."""
    from commitdigest.analysis.radar.env_var import names as env_names

    assert env_names("import os\nimport warnings\n" + code) == read


def test_a_removed_else_or_try_block_is_not_a_removed_name(tmp_path: Path, mode: str) -> None:
    """``else:``/``try:``/``finally:`` lines of a module or class body look like annotated
    names (``else: …``); removing such a block removes no API."""
    before = (
        "import sys\n\nif sys.version_info >= (3, 12):\n    FAST = True\nelse:\n"
        "    FAST = False\n\ntry:\n    import ujson as json\nexcept ImportError:\n"
        "    import json\nfinally:\n    pass\n\n\nclass Config:\n"
        "    if FAST:\n        LIMIT = 1\n    else:\n        LIMIT = 2\n"
    )
    after = "import json\n\nFAST = True\n\n\nclass Config:\n    LIMIT = 1\n"
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/conf.py": before}),
        CommitSpec("drop old pythons", D[1], files={"pkg/conf.py": after}),
    ], mode)  # fmt: skip
    assert not {n.rsplit(".", 1)[-1] for n in names(items)} & {"else", "try", "finally"}


def test_config_keys_only_from_configuration_shipped_to_users(tmp_path: Path, mode: str) -> None:
    workflow = "jobs:\n  test:\n    runs-on: ubuntu\n    timeout: 10\n"
    shipped = "server:\n  port: 8000\n  legacy_mode: true\n"
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={".github/workflows/ci_config.yml": workflow,
                                        "pkg/config/defaults.yaml": shipped,
                                        "examples/example_config.yaml": shipped,
                                        ".pre-commit-config.yaml": "repos:\n  old: 1\n",
                                        # a release tool's and a compiler's settings
                                        # (openai-python 24b7cd19: "prerelease" removed)
                                        "release-please-config.json":
                                            '{"prerelease": true, "versioning": "x"}',
                                        "tsconfig.json": '{"strict": true, "outDir": "d"}',
                                        "pkg/biomes_config.json": '{"forest": 1, "desert": 2}'}),
        CommitSpec("tidy", D[1], files={
            ".github/workflows/ci_config.yml": "jobs:\n  test:\n    runs-on: ubuntu\n",
            "pkg/config/defaults.yaml": "server:\n  port: 8000\n",
            "examples/example_config.yaml": "server:\n  port: 8000\n",
            ".pre-commit-config.yaml": "repos: {}\n",
            "release-please-config.json": "{}",
            "tsconfig.json": '{"strict": true}',
            "pkg/biomes_config.json": '{"forest": 1}'}),
    ], mode)  # fmt: skip
    assert sorted((i.kind, i.name) for i in items) == [
        (RadarKind.CONFIG_KEY, "desert"),  # a file named like a tool's is not one
        (RadarKind.CONFIG_KEY, "server.legacy_mode"),
    ]


def test_config_keys_of_a_file_moved_or_outside_an_src_layout_are_not_removed(
    tmp_path: Path, mode: str
) -> None:
    """peft (an ``src/`` layout) renamed the folders of its experiments under
    ``method_comparison/``: each ``adapter_config.json`` "removed" its twenty keys, fifty
    lines of the Breaking section; nothing there is installed, though the folder is a
    package of its own (its functions are no API either). A shipped file moved is compared
    with itself at its new path: only the key it loses is removed; a file of the same name
    added for another model, which keeps few of its lines, is no move."""
    adapter = '{"alpha": 32, "r": 8, "target_modules": ["q"]}'
    shipped = '{\n  "rank": 8,\n  "dropout": 0.1,\n  "legacy_mode": true\n}\n'
    old, new = "method_comparison/exp/lokr/run1", "method_comparison/exp/lokr/run1-factor4"
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "src/pkg/__init__.py": "", f"{old}/adapter_config.json": adapter,
            "src/pkg/configs/default_config.json": shipped,
            "src/pkg/bert/model_config.json": '{"layers": 12, "heads": 12}',
            "method_comparison/__init__.py": "",
            "method_comparison/app.py": "def compare(a):\n    pass\n\n\ndef plot():\n    pass\n"}),
        CommitSpec("new hyper-params", D[1], files={
            f"{old}/adapter_config.json": None, f"{new}/adapter_config.json": '{"r": 32}',
            "src/pkg/configs/default_config.json": None,
            "src/pkg/presets/default_config.json": '{\n  "rank": 8,\n  "dropout": 0.1\n}\n',
            # (another model's file of the same name, with other lines: no move)
            "src/pkg/bert/model_config.json": None,
            "src/pkg/gpt/model_config.json": '{"layers": 24}',
            "method_comparison/app.py": "def plot():\n    pass\n"}),
    ], mode)  # fmt: skip
    assert sorted((i.kind, i.name, i.path) for i in items) == [
        (RadarKind.CONFIG_KEY, "heads", "src/pkg/bert/model_config.json"),
        (RadarKind.CONFIG_KEY, "layers", "src/pkg/bert/model_config.json"),
        (RadarKind.CONFIG_KEY, "legacy_mode", "src/pkg/configs/default_config.json"),
    ]


def test_a_second_distribution_in_a_src_folder_of_its_own_is_installed(
    tmp_path: Path, mode: str
) -> None:
    """hatch ships ``src/hatch`` and, from ``backend/src/hatchling``, the build backend
    plugins build on: both are ``src/`` layouts, and a method removed from hatchling's
    ``WheelBuilder`` is public API; ``scripts/`` beside them is tooling."""
    builder = (
        "class WheelBuilder:\n    def build(self):\n        pass\n\n"
        "    def get_default_versions(self):\n        return []\n"
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "src/hatch/__init__.py": "", "backend/src/hatchling/__init__.py": "",
            "backend/src/hatchling/builders.py": builder,
            "release/__init__.py": "", "release/notes.py": "def render():\n    pass\n"}),
        CommitSpec("drop get_default_versions", D[1], files={
            "backend/src/hatchling/builders.py": builder.split("\n\n    def get_default")[0]
            + "\n",
            "release/notes.py": "X = 1\n"}),
    ], mode)  # fmt: skip
    assert [(i.name, i.visibility.value) for i in items] == [
        ("hatchling.builders.WheelBuilder.get_default_versions", "public")
    ]


def test_a_base_imported_another_way_is_the_same_base(tmp_path: Path, mode: str) -> None:
    """starlette 2ff76532 ("improve type hints") wrote ``typing.NamedTuple`` as
    ``NamedTuple`` and ``typing.Mapping[str, str]`` as ``Mapping[str, str]`` from
    ``collections.abc``: the same bases, not seven classes that "changed" theirs. A base
    really dropped is still found, and so is a base from a vendored copy (typer's
    ``click.Context`` -> ``_click.Context``: another class). A finalizer removed (click's
    ``StreamMixer.__del__``) breaks no caller; a method removed beside it does."""
    before = (
        "import typing\n\n\nclass Address(typing.NamedTuple):\n    host: str\n\n\n"
        "class Headers(typing.Mapping[str, str]):\n    pass\n\n\n"
        "class Mixin:\n    pass\n\n\nclass State(Mixin, typing.Mapping[str, int]):\n    pass\n"
        "\n\nclass Stream:\n    def __del__(self):\n        pass\n\n    def close(self):\n"
        "        pass\n\n\nclass Context(click.Context):\n    pass\n"
    )
    after = (
        "from collections.abc import Mapping\nfrom typing import NamedTuple\n\n\n"
        "class Address(NamedTuple):\n    host: str\n\n\n"
        "class Headers(Mapping[str, str]):\n    pass\n\n\n"
        "class Mixin:\n    pass\n\n\nclass State(Mapping[str, int]):\n    pass\n"
        "\n\nclass Stream:\n    pass\n\n\nclass Context(_click.Context):\n    pass\n"
    )
    [items] = module_items(
        tmp_path, mode, "pkg/data.py", [("init", before), ("improve type hints", after)]
    )
    assert sorted((i.name, i.detail) for i in items) == [
        ("pkg.data.Context", "bases (click.Context) → (_click.Context)"),
        ("pkg.data.State", "bases (Mixin, typing.Mapping[str, int]) → (Mapping[str, int])"),
        ("pkg.data.Stream.close", ""),
    ]


def test_a_base_kept_through_a_module_alias_or_a_new_base_is_the_same(
    tmp_path: Path, mode: str
) -> None:
    """werkzeug 37b9423d ("inline annotations for datastructures") wrote ``Collection`` as
    ``cabc.Collection[str]`` (``import collections.abc as cabc``) and replaced
    ``ContentSecurityPolicy(UpdateDictMixin, dict)`` by ``(CallbackDict[str, str])``, a
    class of the package that derives from both: no base was dropped. A new base that
    derives from only one of them still drops the other."""
    structures = (
        "class UpdateDictMixin:\n    pass\n\n\n"
        "class CallbackDict(UpdateDictMixin, dict):\n    pass\n\n\n"
        "class OnlyDict(dict):\n    pass\n"
    )
    before = (
        "import collections.abc\nfrom collections.abc import Collection\n"
        "from typing import Generic, TypeVar\n\n"
        "T = TypeVar('T')\n\n"
        "from .structures import UpdateDictMixin\n\n\n"
        "class ETags(Collection):\n    pass\n\n\n"
        "class Policy(UpdateDictMixin, dict):\n    pass\n\n\n"
        "class Other(UpdateDictMixin, dict):\n    pass\n\n\n"
        "class Box(Generic[T]):\n    pass\n\n\n"
        "class Pair(dict, Generic[T]):\n    pass\n\n\n"
        "class Seq(collections.abc.Sequence):\n    pass\n"
    )
    after = (
        "import collections.abc as cabc\nfrom typing import TypeVar\n\n"
        "from .structures import CallbackDict, OnlyDict, UpdateDictMixin\n\nT = TypeVar('T')\n\n\n"
        "class ETags(cabc.Collection[str]):\n    pass\n\n\n"
        "class Policy(CallbackDict[str, str]):\n    pass\n\n\n"
        "class Other(OnlyDict):\n    pass\n\n\n"
        "class Box(UpdateDictMixin):\n    pass\n\n\n"
        "class Pair(dict):\n    pass\n\n\n"
        "class Seq(cabc.Sequence):\n    pass\n"
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/structures.py": structures,
                                        "pkg/etag.py": before}),
        CommitSpec("inline annotations", D[1], files={"pkg/etag.py": after}),
    ], mode)  # fmt: skip
    assert sorted((i.name, i.detail) for i in items) == [
        ("pkg.etag.Box", "bases (Generic[T]) → (UpdateDictMixin)"),  # no longer generic
        ("pkg.etag.Other", "bases (UpdateDictMixin, dict) → (OnlyDict)"),
        ("pkg.etag.Pair", "bases (dict, Generic[T]) → (dict)"),  # Pair[int] raises
    ]


def test_a_standard_class_that_derives_from_the_old_base_keeps_it(
    tmp_path: Path, mode: str
) -> None:
    """click made ``ParameterSource(enum.Enum)`` an ``enum.IntEnum`` and litestar its
    ``HttpMethod(str, Enum)`` a ``StrEnum`` (four "bases" lines): ``IntEnum`` and
    ``StrEnum`` derive from ``Enum``, and ``StrEnum`` from ``str``. A base replaced by a
    built-in or standard class that derives from it is no base dropped; one that does
    not still is (``IntEnum`` made ``Enum`` drops ``int``)."""
    before = (
        "import enum\nfrom collections.abc import Mapping, MutableMapping\n"
        "from enum import Enum, IntEnum\n\n\n"
        "class ParameterSource(enum.Enum):\n    COMMANDLINE = 1\n\n\n"
        "class HttpMethod(str, Enum):\n    GET = 'GET'\n\n\n"
        "class Level(IntEnum):\n    LOW = 1\n\n\n"
        "class Headers(Mapping):\n    pass\n\n\n"
        "class Table(MutableMapping):\n    pass\n\n\n"
        "class RequestError(Exception):\n    pass\n\n\n"
        "class ReadError(OSError):\n    pass\n"
    )
    after = (
        "import enum\nfrom collections.abc import Mapping, MutableMapping\n"
        "from enum import Enum, StrEnum\n\n\n"
        "class ParameterSource(enum.IntEnum):\n    COMMANDLINE = 1\n\n\n"
        "class HttpMethod(StrEnum):\n    GET = 'GET'\n\n\n"
        "class Level(Enum):\n    LOW = 1\n\n\n"
        "class Headers(MutableMapping):\n    pass\n\n\n"
        "class Table(Mapping):\n    pass\n\n\n"
        "class RequestError(Exception):\n    pass\n\n\n"
        "ConnectionError = RequestError\n\n\n"  # (the module's own, not the built-in)
        "class ReadError(ConnectionError):\n    pass\n"
    )
    [items] = module_items(tmp_path, mode, "pkg/core.py", [("init", before), ("enums", after)])
    assert sorted((i.name, i.detail) for i in items) == [
        ("pkg.core.Level", "bases (IntEnum) → (Enum)"),
        ("pkg.core.ReadError", "bases (OSError) → (ConnectionError)"),
        ("pkg.core.Table", "bases (MutableMapping) → (Mapping)"),
    ]


@pytest.mark.parametrize(
    ("head", "found"),
    [
        ("", []),  # Python's TimeoutError derives from OSError: no base dropped
        (  # a * import in a block, or over a line continued by a backslash, may bind it
            "try:\n    from .compat import *\nexcept ImportError:\n    pass\n\n\n",
            [("pkg.errs.ReadError", "bases (OSError) → (TimeoutError)")],
        ),
        (
            "from .compat import \\\n    *\n\n\n",
            [("pkg.errs.ReadError", "bases (OSError) → (TimeoutError)")],
        ),
    ],
)
def test_a_base_a_star_import_may_bind_is_not_the_built_in(
    tmp_path: Path, mode: str, head: str, found: list[tuple[str, str]]
) -> None:
    """A base named as a built-in class is the built-in unless the module may bind the
    name itself, which an import of ``*`` may anywhere it is written: in a ``try:`` block,
    or continued by a backslash (one pattern for both, the public surface's; the radar's
    own read only one at the first column, on one line)."""
    before = f"{head}class ReadError(OSError):\n    pass\n"
    after = before.replace("(OSError)", "(TimeoutError)")
    [items] = module_items(tmp_path, mode, "pkg/errs.py", [("init", before), ("change", after)])
    assert sorted((i.name, i.detail) for i in items) == found


def test_a_default_written_with_another_name_of_the_same_object_is_the_same(
    tmp_path: Path, mode: str
) -> None:
    """litestar dropped Python 3.10 and wrote ``datetime.now(timezone.utc)`` as
    ``datetime.now(UTC)`` (``datetime.UTC`` is ``timezone.utc``): its JWT ``Token.iat``
    read "default changed". Another name of the same object is the same default; another
    zone still changes it."""
    before = (
        "from dataclasses import dataclass, field\n"
        "from datetime import datetime, timezone\n\n\n"
        "@dataclass\nclass Token:\n"
        "    iat: datetime = field(default_factory=lambda: datetime.now(timezone.utc))\n\n\n"
        "def stamp(tz=timezone.utc, other=timezone.utc):\n    return datetime.now(tz)\n\n\n"
        "def zone(name='timezone.utc'):\n    return name\n"
    )
    after = (
        before.replace("datetime, timezone\n", "UTC, datetime, timedelta, timezone\n")
        .replace("now(timezone.utc))", "now(UTC))")
        .replace(
            "tz=timezone.utc, other=timezone.utc", "tz=UTC, other=timezone(timedelta(hours=1))"
        )
        .replace("name='timezone.utc'", "name='UTC'")
    )
    [items] = module_items(tmp_path, mode, "pkg/token.py", [("init", before), ("3.11+", after)])
    assert sorted((i.name, i.detail) for i in items) == [
        ("pkg.token.stamp(other)", "timezone.utc → timezone(timedelta(hours=1))"),
        ("pkg.token.zone(name)", "'timezone.utc' → 'UTC'"),  # strings, not the zone
    ]
    # a name ``UTC`` the module binds itself is another object
    own = before.replace("\n\n\n@dataclass", "\n\nUTC = 'UTC'\n\n\n@dataclass")
    [items] = module_items(
        tmp_path / "own", mode, "pkg/token.py",
        [("init", own), ("3.11+", own.replace("tz=timezone.utc,", "tz=UTC,"))],
    )  # fmt: skip
    assert [(i.name, i.detail) for i in items] == [("pkg.token.stamp(tz)", "timezone.utc → UTC")]


NOTSET_BEFORE = """\
class Notset:
    def __repr__(self):
        return "<notset>"


notset = Notset()


class MonkeyPatch:
    def setattr(self, target, name, value=notset, raising=True):
        if isinstance(value, Notset):
            value = name
        oldval = getattr(target, name, notset)
        return oldval

    def delattr(self, target, name=notset):
        if isinstance(name, Notset):
            name = target
        return name


def compute():
    return 1


def first(y=notset):
    if isinstance(y, Notset):
        return compute()
    return y


def get(key, default=notset):
    return _lookup(key, default)


def _lookup(key, default):
    return default
"""


def test_a_sentinel_made_another_the_function_reads_alike_is_no_change(
    tmp_path: Path, mode: str
) -> None:
    """pytest replaced its ``notset = Notset()`` with the shared ``NOTSET``
    (``isinstance(value, Notset)`` became ``value is NOTSET``): ``MonkeyPatch.setattr(value)``
    and five more read "default changed notset → NOTSET". A sentinel made another that the
    function reads the same way is no change; one it now reads otherwise (on any line of
    its body), or passes on before it sets it, still is."""
    after = (
        NOTSET_BEFORE.replace(
            'class Notset:\n    def __repr__(self):\n        return "<notset>"\n\n\n'
            "notset = Notset()\n",
            "from pkg.compat import NOTSET\n",
        )
        .replace("isinstance(value, Notset)", "value is NOTSET")
        .replace("isinstance(name, Notset)", "name is NOTSET")
        .replace("notset", "NOTSET")
        .replace("            name = target\n", "            name = None\n")
        .replace("        return compute()\n", "        return None\n")
    )
    [items] = module_items(
        tmp_path, mode, "pkg/monkeypatch.py", [("init", NOTSET_BEFORE), ("cleanups", after)]
    )
    assert sorted((i.name, i.detail) for i in items) == [
        ("pkg.monkeypatch.MonkeyPatch.delattr(name)", "notset → NOTSET"),
        ("pkg.monkeypatch.Notset", ""),  # (the sentinel and its class are gone: true)
        ("pkg.monkeypatch.first(y)", "notset → NOTSET"),  # what it does unset changed
        ("pkg.monkeypatch.get(default)", "notset → NOTSET"),  # passed on: not seen
        ("pkg.monkeypatch.notset", ""),
    ]


def test_a_base_imported_through_a_compat_module_and_a_build_script(
    tmp_path: Path, mode: str
) -> None:
    """requests 561e4b68: ``RequestsCookieJar(cookielib.CookieJar, MutableMapping)``, both
    from ``.compat`` (``from http import cookiejar as cookielib``, ``from collections.abc
    import MutableMapping``), became ``(CookieJar, MutableMapping[str, str | None])``
    imported directly: the same bases. A base that really changes module still counts.
    requests cb2c8005 emptied its ``setup.py``: six "removed" names, which no one imports."""
    compat = (
        "from collections.abc import MutableMapping\nfrom http import cookiejar as cookielib\n"
        "from .legacy import Jar as OldJar\n"
    )
    before = (
        "from .compat import MutableMapping, OldJar, cookielib\n\n\n"
        "class CookieJar(cookielib.CookieJar, MutableMapping):\n    pass\n\n\n"
        "class Legacy(OldJar):\n    pass\n"
    )
    after = (
        "from collections.abc import MutableMapping\nfrom http.cookiejar import CookieJar as Jar\n"
        "from http.cookiejar import FileCookieJar\n\n\n"
        "class CookieJar(Jar, MutableMapping[str, str]):\n    pass\n\n\n"
        "class Legacy(FileCookieJar):\n    pass\n"
    )
    setup = "import os\n\nhere = os.path.dirname(__file__)\nrequires = ['x']\n"
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/compat.py": compat,
                                        "pkg/legacy.py": "class Jar:\n    pass\n",
                                        "pkg/cookies.py": before, "setup.py": setup}),
        CommitSpec("typing", D[1], files={"pkg/cookies.py": after,
                                          "setup.py": "import setuptools\n"}),
    ], mode)  # fmt: skip
    assert [(i.name, i.detail) for i in items] == [
        ("pkg.cookies.Legacy", "bases (OldJar) → (FileCookieJar)"),
    ]


def test_a_comment_in_a_parenthesised_import_hides_no_name(tmp_path: Path, mode: str) -> None:
    """vllm-ascend 73998d1d89: ``from … import (  # type: ignore[…]`` then ``Decode…Manager
    as DecodeEagleCudaGraphManager,`` on the next line: the comment hid the name, so the
    base written by its alias read as dropped when the commit wrote it by its own name
    (the same class); the same import without the comment was understood."""
    old = (
        "from up.graphs import (  # type: ignore[import-not-found]\n"
        "    DecodeManager as DecodeEagleManager,  # an alias\n"
        ")\nfrom up.graphs import (\n    PrefillManager as PrefillEagleManager,\n)\n\n\n"
        "class Decode(DecodeEagleManager):\n    pass\n\n\n"
        "class Prefill(PrefillEagleManager):\n    pass\n"
    )
    new = (
        "from up.graphs import DecodeManager, PrefillManager\n\n\n"
        "class Decode(DecodeManager):\n    pass\n\n\nclass Prefill(PrefillManager):\n    pass\n"
    )
    [items] = module_items(tmp_path, mode, "pkg/graphs.py", [("init", old), ("rename", new)])
    assert items == []


def test_a_private_parameter_or_args_made_positional_only_is_no_new_required_one(
    tmp_path: Path, mode: str
) -> None:
    """werkzeug 37b9423d: ``Headers.add(self, _key, _value, **kw)`` became ``add(self,
    key, value, /, **kwargs)`` and ``update(self, *args, **kwargs)`` became ``update(self,
    arg=None, /, **kwargs)``: callers passed them by position and still do (two "now
    required" parameters and a "removed ``*args``" each, before). A public parameter
    renamed, and a ``*args`` replaced by a parameter callers may name, still count. So
    does a positional-only one renamed (xarray's ``DataTree.from_dict(d, /, …)`` ->
    ``from_dict(data, …)``: no caller named ``d``), but not one that goes."""
    before = (
        "class Headers:\n"
        "    def add(self, _key, _value, **kw):\n        pass\n\n"
        "    def update(self, *args, **kwargs):\n        pass\n\n"
        "    def extend(self, *args, **kwargs):\n        pass\n\n"
        "    def get(self, key, default=None):\n        pass\n\n"
        "    def load(self, _cache=None):\n        pass\n\n"
        "    def pair(self, *args):\n        pass\n\n"
        "    @classmethod\n    def from_dict(cls, d, /, name=None):\n        pass\n\n"
        "    def drop(self, d, /, name=None):\n        pass\n"
    )
    after = (
        "class Headers:\n"
        "    def add(self, key, value, /, **kwargs):\n        pass\n\n"
        "    def update(self, arg=None, /, **kwargs):\n        pass\n\n"
        "    def extend(self, arg, **kwargs):\n        pass\n\n"
        "    def get(self, name, default=None):\n        pass\n\n"
        "    def load(self, cache):\n        pass\n\n"
        "    def pair(self, a, b, /):\n        pass\n\n"
        "    @classmethod\n"
        "    def from_dict(cls, data=None, coords=None, *, name=None):\n        pass\n\n"
        "    def drop(self, name=None):\n        pass\n"
    )
    [items] = module_items(
        tmp_path, mode, "pkg/headers.py", [("init", before), ("inline annotations", after)]
    )
    assert sorted((i.name, i.change.value) for i in items) == [
        ("pkg.headers.Headers.drop(d)", "removed"),  # (gone: ``name`` took its place)
        ("pkg.headers.Headers.extend(*args)", "removed"),
        ("pkg.headers.Headers.extend(arg)", "now_required"),
        ("pkg.headers.Headers.from_dict(name)", "signature_changed"),  # keyword-only now
        ("pkg.headers.Headers.get(key)", "renamed"),
        ("pkg.headers.Headers.load(cache)", "now_required"),  # load() breaks
        ("pkg.headers.Headers.pair(*args)", "removed"),  # pair() and pair(x) break
        ("pkg.headers.Headers.pair(a)", "now_required"),
        ("pkg.headers.Headers.pair(b)", "now_required"),
    ]


def test_a_member_users_reach_through_a_public_subclass_is_public(
    tmp_path: Path, mode: str
) -> None:
    """werkzeug ea77ffd6 removed ``charset`` from ``werkzeug.sansio.request.Request``, which
    no one imports; ``werkzeug.Request`` derives from it (``wrappers.request``): the item
    read as internal. httpx's ``Client`` derives from ``_client.BaseClient``, a private
    module's class: its members were no one's API. Both are named as users reach them; a
    member of an internal class no public class derives from stays internal."""
    files = {
        "pkg/__init__.py": "from .wrappers import Request as Request\n"
        "from ._client import AsyncClient as AsyncClient\nfrom ._client import Client as Client\n",
        "pkg/sansio/__init__.py": "",
        "pkg/sansio/request.py": "class Request:\n    charset: str = 'utf-8'\n\n"
        "    def get_data(self, cache=True):\n        return b''\n",
        "pkg/sansio/helpers.py": "class Helper:\n    def run(self, fast=True):\n        pass\n",
        "pkg/wrappers.py": "from .sansio.request import Request as _SansIORequest\n\n\n"
        "class Request(_SansIORequest):\n    pass\n",
        "pkg/_client.py": "class BaseClient:\n    def close(self, wait=True):\n        pass\n\n"
        "    def send(self, retries=1):\n        pass\n\n\n"
        "class Client(BaseClient):\n    pass\n\n\n"
        "class AsyncClient(BaseClient):\n    def close(self):\n        pass\n\n"
        "    def send(self, retries=1):\n        pass\n",
    }
    moved = (  # close() loses wait; send() moves from the base into Client
        "class BaseClient:\n    def close(self):\n        pass\n\n\n"
        "class Client(BaseClient):\n    def send(self, retries=1):\n        pass\n\n\n"
        "class AsyncClient(BaseClient):\n    def close(self):\n        pass\n\n"
        "    def send(self, retries=1):\n        pass\n"
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files=files),
        CommitSpec("remove previously deprecated code", D[1], files={
            "pkg/sansio/request.py": (
                "class Request:\n    def get_data(self):\n        return b''\n"
            ),
            "pkg/sansio/helpers.py": "class Helper:\n    def run(self):\n        pass\n",
            "pkg/_client.py": moved}),
    ], mode)  # fmt: skip
    assert sorted((i.name, i.visibility) for i in items) == [
        ("pkg.Client.close(wait)", Visibility.PUBLIC),
        ("pkg.Request.charset", Visibility.PUBLIC),
        ("pkg.Request.get_data(cache)", Visibility.PUBLIC),
        ("pkg.sansio.helpers.Helper.run(fast)", Visibility.INTERNAL),
    ]
    # AsyncClient defines its own close(): what BaseClient.close takes is not its API
    assert [i.symbols for i in items if i.name.startswith("pkg.Client")] == [[]]


def test_a_documented_package_re_exports_its_modules_names(tmp_path: Path, mode: str) -> None:
    """werkzeug's top package imports no ``werkzeug.datastructures``; its docs name the
    package, whose ``__init__`` re-exports ``Headers`` from ``.headers``: a change of
    ``Headers`` is public (it read as internal, collapsed in one line)."""
    init = "from .headers import Headers as Headers\n"
    headers = "class Headers:\n    def get(self, key, default=None):\n        pass\n"
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "src/pkg/__init__.py": "from .app import run as run\n",
            "src/pkg/app.py": "def run():\n    pass\n",
            "src/pkg/data/__init__.py": init, "src/pkg/data/headers.py": headers,
            "src/pkg/data/cache.py": "def helper(x):\n    pass\n",
            "docs/data.rst": ".. module:: pkg.data\n\n.. autoclass:: Headers\n"}),
        CommitSpec("change", D[1], files={
            "src/pkg/data/headers.py": headers.replace(", default=None", ""),
            "src/pkg/data/cache.py": "def helper():\n    pass\n"}),
    ], mode)  # fmt: skip
    assert sorted((i.name, i.visibility) for i in items) == [
        ("pkg.data.cache.helper(x)", Visibility.INTERNAL),
        ("pkg.data.headers.Headers.get(default)", Visibility.PUBLIC),
    ]


_HACK = """\
import importlib
import sys


class Finder:
    def spec_for_legacy(self):
        mod = importlib.import_module('pkg._legacy')

        class Loader:
            def create_module(self, spec):
                mod.__name__ = 'legacy'
                return mod
        return Loader()


sys.meta_path.insert(0, Finder())
"""
_UTIL = "def mkpath(name, mode=0o777, verbose=True, dry_run=False):\n    pass\n"


def test_a_private_package_served_under_its_own_name_is_public_by_that_name(
    tmp_path: Path, mode: str
) -> None:
    """setuptools serves ``import distutils`` from ``setuptools._distutils`` (its
    ``_distutils_hack`` sets the module's ``__name__``), and its docs document
    ``distutils.dir_util``: removing ``dry_run`` from ``mkpath`` there broke the builds that
    passed it, and was found nowhere (a private module's own names are no one's API). It is
    ``legacy.dir_util.mkpath(dry_run)``, public; the package's modules the docs do not name,
    and its private ones, stay unreported."""
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "pkg/__init__.py": "", "legacy_hack/__init__.py": _HACK,
            "pkg/_legacy/__init__.py": "", "pkg/_legacy/dir_util.py": _UTIL,
            "pkg/_legacy/other.py": _UTIL, "pkg/_legacy/_helpers.py": _UTIL,
            "docs/apiref.rst": ".. module:: legacy.dir_util\n\n.. function:: mkpath(name)\n"}),
        CommitSpec("remove dry_run", D[1], files={
            f"pkg/_legacy/{name}.py": _UTIL.replace(", dry_run=False", "")
            for name in ("dir_util", "other", "_helpers")}),
    ], mode)  # fmt: skip
    assert [(i.name, i.visibility) for i in items] == [
        ("legacy.dir_util.mkpath(dry_run)", Visibility.PUBLIC)
    ]


@pytest.mark.parametrize(
    "hack",
    [
        _HACK.replace("mod.__name__ = 'legacy'", "mod.__name__ = 'other'"),  # another name
        _HACK.replace("'pkg._legacy'", "'pkg.legacy_copy'"),  # another package
        "",  # none: the docs name another project's ``legacy`` (the copy's original)
        # an entry set to None blocks the import; the dotted name in another file
        "import sys\n\nsys.modules['legacy'] = None\nPACKAGES = ['pkg._legacy']\n",
        "import importlib\n\nimportlib.import_module('pkg._legacy')\n",
    ],
)
def test_a_private_package_the_docs_name_unprefixed_stays_private_unless_served(
    tmp_path: Path, mode: str, hack: str
) -> None:
    """Docs that name ``legacy.dir_util`` name the real project a package keeps a copy of as
    ``pkg._legacy`` as often as a copy it serves: without the code that serves it under
    that name (both signs in one shipped file), its names stay no one's API."""
    other = "def f():\n    f.__name__ = 'legacy'\n"  # (a sign, alone in its file)
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "pkg/__init__.py": "", "legacy_hack/__init__.py": hack or "x = 1\n",
            "legacy_hack/names.py": other,
            "pkg/_legacy/__init__.py": "", "pkg/_legacy/dir_util.py": _UTIL,
            "docs/apiref.rst": ".. module:: legacy.dir_util\n"}),
        CommitSpec("remove dry_run", D[1], files={
            "pkg/_legacy/dir_util.py": _UTIL.replace(", dry_run=False", "")}),
    ], mode)  # fmt: skip
    assert items == []


_EXTENSION = """\
class Extension:
    def __init__(self, name, sources, define_macros=None, *args, **kw):
        self.name = name
        self.sources = sources
        self.define_macros = define_macros or []

    def __repr__(self):
        return f"<Extension {self.name}>"

    def __eq__(self, other):
        return self.name == other.name
"""
_EXTENSION_DATACLASS = """\
from dataclasses import field

from ._dc import lenient_dataclass


@lenient_dataclass()
class Extension:
    name: str
    sources: list
    define_macros: list = field(default_factory=list)
"""


@pytest.mark.parametrize(
    ("made", "expected"),
    [
        (_EXTENSION_DATACLASS, []),  # every parameter a field, the methods made
        (  # a parameter no field takes, and a method the decorator is told not to make
            _EXTENSION_DATACLASS.replace(
                "lenient_dataclass()", "lenient_dataclass(repr=False)"
            ).replace("    define_macros: list = field(default_factory=list)\n", ""),
            ["pkg.ext.Extension.__init__(define_macros)", "pkg.ext.Extension.__repr__"],
        ),
        (  # fields reordered (two swapped: one line, "+1"), one the constructor does not take
            _EXTENSION_DATACLASS.replace("    name: str\n    sources: list\n", "").replace(
                "    define_macros: list = field(default_factory=list)\n",
                "    sources: list\n    name: str\n    define_macros: list = field(init=False)\n",
            ),
            ["pkg.ext.Extension.__init__(define_macros)", "pkg.ext.Extension.__init__(name)"],
        ),
        (  # a default taken away
            _EXTENSION_DATACLASS.replace("list = field(default_factory=list)", "list"),
            ["pkg.ext.Extension.__init__(define_macros)"],
        ),
        (  # a pydantic model: keywords only
            _EXTENSION_DATACLASS.replace(
                "@lenient_dataclass()\nclass Extension:", "class Extension(BaseModel):"
            ),
            [
                "pkg.ext.Extension.__init__(define_macros)",
                "pkg.ext.Extension.__init__(name)",
                "pkg.ext.Extension.__init__(sources)",
            ],
        ),
        (  # not dataclass-like: the methods are gone
            _EXTENSION_DATACLASS.replace("@lenient_dataclass()\n", ""),
            [
                "pkg.ext.Extension.__eq__",
                "pkg.ext.Extension.__init__",
                "pkg.ext.Extension.__repr__",
            ],
        ),
    ],
)
def test_a_class_made_a_dataclass_keeps_the_methods_the_decorator_makes(
    tmp_path: Path, mode: str, made: str, expected: list[str]
) -> None:
    """setuptools made distutils' ``Extension`` a dataclass (its own ``lenient_dataclass``):
    its ``__init__``, ``__repr__`` and ``__eq__`` read as removed. The decorator makes them:
    what callers lose is an old parameter no field takes."""
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "pkg/__init__.py": "from .ext import Extension\n", "pkg/ext.py": _EXTENSION,
            "pkg/_dc.py": "def lenient_dataclass(**kw):\n    pass\n"}),
        CommitSpec("dataclass", D[1], files={"pkg/ext.py": made}),
    ], mode)  # fmt: skip
    assert sorted(i.name for i in items) == expected


_PLATFORM = """\
def get_platform():
    return "linux"


def get_host_platform(arch, strict=False):
    return arch
"""


@pytest.mark.parametrize(
    ("moved", "expected"),
    [
        (  # moved, the old names bound to the new home's functions
            "from .platform import detect\n\nget_platform = detect.get_platform\n"
            "get_host_platform = detect.get_host_platform\n",
            [],
        ),
        (  # renamed in the module: compared with the def it is bound to
            "def host_platform(arch):\n    return arch\n\n\n"
            "def get_platform():\n    return 'linux'\n\n\nget_host_platform = host_platform\n",
            ["pkg.util.get_host_platform(strict)"],
        ),
        (  # another module's value, and a module attribute not written as a function's
            "import sys\n\nfrom . import version as _v\n\nget_platform = sys.platform\n"
            "get_host_platform = _v.__version__\n",
            ["pkg.util.get_host_platform", "pkg.util.get_platform"],
        ),
        (  # a value, not a function
            "get_platform = 'linux'\n\n\ndef get_host_platform(arch, strict=False):\n"
            "    return arch\n",
            ["pkg.util.get_platform"],
        ),
    ],
)
def test_a_function_bound_to_another_function_is_still_one(
    tmp_path: Path, mode: str, moved: str, expected: list[str]
) -> None:
    """distutils moved ``get_platform`` and four more helpers to ``compilers.platform.detect``
    and kept ``get_platform = detect.get_platform`` in ``distutils.util`` for backward
    compatibility: five "function → attribute" items. A name bound to a function is one;
    bound to a def of the module, its parameters are that def's."""
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "pkg/__init__.py": "", "pkg/util.py": _PLATFORM,
            "pkg/platform/__init__.py": "", "pkg/platform/detect.py": _PLATFORM}),
        CommitSpec("move", D[1], files={"pkg/util.py": moved}),
    ], mode)  # fmt: skip
    assert sorted(i.name for i in items) == expected


def test_an_object_moved_in_a_served_package_is_still_where_users_import_it(
    tmp_path: Path, mode: str
) -> None:
    """distutils moved ``compiler_class`` from ``compilers/C/base.py`` to
    ``compat/numpy.py``, and ``distutils.ccompiler`` still imports it from there: users
    reach it where they always did (it read as removed)."""
    table = "compiler_class = {'unix': ('unixccompiler', 'UnixCCompiler')}\n"
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "pkg/__init__.py": "", "legacy_hack/__init__.py": _HACK,
            "pkg/_legacy/__init__.py": "",
            "pkg/_legacy/ccompiler.py": "from .base import compiler_class\n",
            "pkg/_legacy/base.py": table, "pkg/_legacy/compat.py": "x = 1\n",
            "docs/apiref.rst": "``legacy.ccompiler.compiler_class``\n"}),
        CommitSpec("move", D[1], files={
            "pkg/_legacy/ccompiler.py": "from .compat import compiler_class\n",
            "pkg/_legacy/base.py": "y = 1\n", "pkg/_legacy/compat.py": table}),
    ], mode)  # fmt: skip
    assert items == []


_ATTR_INIT = """\
import sys

from . import converters, filters, validators

__all__ = ["converters", "filters", "validators"]

_LAZY_SUBMODULES = {"converters"}


def _make_getattr(mod_name):
    def __getattr__(name):
        if name in _LAZY_SUBMODULES:
            import importlib

            return importlib.import_module(f".{name}", mod_name)
        raise AttributeError(name)

    return __getattr__


__getattr__ = _make_getattr(__name__)
"""
_ATTRS_INIT = """\
from attr import _make_getattr

from . import converters, filters, validators

__all__ = ["converters", "filters", "validators"]

__getattr__ = _make_getattr(__name__)
"""


def test_submodules_a_made_getattr_serves_are_not_removed(tmp_path: Path, mode: str) -> None:
    """attrs deferred ``converters`` and ``validators`` (then ``filters``): ``attr`` binds
    ``__getattr__ = _make_getattr(__name__)``, whose ``__getattr__`` imports the names in
    ``_LAZY_SUBMODULES``, and ``attrs`` binds the same maker, imported from ``attr``: five
    "removed" modules. What the table does not list is still removed."""
    lazy = "from . import filters\n"
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            **{f"src/{pkg}/{m}.py": "x = 1\n" for pkg in ("attr", "attrs")
               for m in ("converters", "filters", "validators")},
            "src/attr/__init__.py": _ATTR_INIT, "src/attrs/__init__.py": _ATTRS_INIT}),
        CommitSpec("defer", D[1], files={
            "src/attr/__init__.py": _ATTR_INIT.replace(
                "from . import converters, filters, validators\n", lazy
            ).replace('{"converters"}', '{"converters", "validators"}'),
            "src/attrs/__init__.py": _ATTRS_INIT.replace(
                "from . import converters, filters, validators\n", "from . import validators\n"
            )}),
    ], mode)  # fmt: skip
    # attrs' own filters: its maker's table (attr's) does not list it
    assert sorted(i.name for i in items) == ["attrs.filters"]


_HTTP = """\
import typing as t


def parse_etags(value):
    return value


def parse_range_header(value):
    return value


class Headers:
    def __getattr__(self, name):
        raise AttributeError(name)
"""
_HTTP_DEPRECATED = (
    _HTTP.replace("def parse_", "def _parse_")
    + """

if not t.TYPE_CHECKING:

    def __getattr__(name: str) -> t.Any:
        alts = {"parse_etags": "ETags.from_header"}
        if name in alts:
            import warnings

            warnings.warn(f"{name} is deprecated", DeprecationWarning, stacklevel=2)
            return globals()[f"_{name}"]
        raise AttributeError(name)
"""
)


def test_a_getattr_in_a_module_block_serves_what_its_own_table_names(
    tmp_path: Path, mode: str
) -> None:
    """werkzeug made its ``parse_*`` header functions private and serves them, deprecated,
    from a ``__getattr__`` under ``if not t.TYPE_CHECKING:`` that looks the name up in its
    own ``alts`` table: ten "removed" functions. What the table does not name is removed
    (a class's ``__getattr__`` serves no module name)."""
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/http.py": _HTTP}),
        CommitSpec("deprecate", D[1], files={"pkg/http.py": _HTTP_DEPRECATED}),
    ], mode)  # fmt: skip
    assert [(i.name, i.change.value) for i in items if i.kind is RadarKind.PYTHON_API] == [
        ("pkg.http.parse_range_header", "removed")
    ]


def test_a_getattr_stub_for_type_checkers_does_not_hide_the_real_one(
    tmp_path: Path, mode: str
) -> None:
    """A ``def __getattr__(name: str) -> Any: ...`` under ``if TYPE_CHECKING:`` is for type
    checkers; the module's own ``__getattr__`` below it serves the names its table holds."""
    stub = (
        "from typing import TYPE_CHECKING, Any\n\nif TYPE_CHECKING:\n\n"
        "    def __getattr__(name: str) -> Any: ...\n\n\n"
    )
    served = (
        '_ALTS = {"parse_etags": 1}\n\n\ndef __getattr__(name):\n'
        "    if name in _ALTS:\n        return _ALTS[name]\n    raise AttributeError(name)\n"
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "pkg/__init__.py": "", "pkg/http.py": "def parse_etags(v):\n    return v\n"}),
        CommitSpec("serve", D[1], files={"pkg/http.py": stub + served}),
    ], mode)  # fmt: skip
    assert [i.name for i in items if i.kind is RadarKind.PYTHON_API] == []


_DIALECT = """\
from ..types import (
    NUMERIC,
    VARCHAR,  # the dialect's own spelling is the shared one
)

if not MYPY:
    CoreSchema = dict
else:
    CoreSchema = object


@register
@other(
    "x",
)
def Thing():
    pass


class Compiler:
    def visit(self, node: VARCHAR) -> NUMERIC:
        return VARCHAR(node) if node else CoreSchema()
"""


@pytest.mark.parametrize(
    "extra",
    [
        "",
        "LOOKUP = {\n'Other': 1,\n}\ntry:\n    from ..types import Other\n"
        "except ImportError:\n    Other = None\n",
    ],
)
def test_a_module_is_modelled_whole_only_where_the_statements_naming_a_name_cannot_tell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, extra: str
) -> None:
    """The public surface follows a re-export through the top-level statements of a module
    that name it, each parsed alone: SQLAlchemy's 160 KB dialect modules only import the
    types its package re-exports (modelling each whole was 0.3 s of the surface). A def or
    class of another name is not read (``Compiler`` uses ``VARCHAR``); a name defined in a
    module-level ``if``/``else`` is defined there. Where a statement does not parse alone (a
    dict written at the first column), the module is modelled whole, as before: the surface
    is the same either way."""
    from commitdigest.analysis.radar import public, pyapi
    from commitdigest.analysis.radar.repo import RepoView
    from commitdigest.sources.blobs import BlobReader

    names = "NUMERIC, VARCHAR, CoreSchema, Thing" + (", Other" if extra else "")
    files = {
        "pkg/__init__.py": f"from .dialects.base import {names}\n",
        "pkg/types.py": "class NUMERIC:\n    pass\n\n\nclass VARCHAR:\n    pass\n\n\nOther = 1\n",
        "pkg/dialects/__init__.py": "",
        "pkg/dialects/base.py": _DIALECT + extra,
    }
    [rev] = build_repo(tmp_path / "repo", [CommitSpec("init", D[0], files=files)])
    modelled: list[str] = []
    real_api = pyapi.module_api

    def spy(text: str, module: str, is_package: bool = False) -> pyapi.ModuleApi:
        modelled.append(module)
        return real_api(text, module, is_package)

    monkeypatch.setattr(public, "module_api", spy)
    surfaces = []
    for light in (True, False):
        if not light:
            monkeypatch.setattr(public._Walker, "binding", lambda self, module, name: None)
        modelled.clear()
        with BlobReader(tmp_path / "repo") as blobs:
            surfaces.append(public.PublicSurface.at(RepoView(blobs, rev), rev))
        assert ("pkg.dialects.base" in modelled) == (bool(extra) or not light)
    fast, whole = surfaces
    assert (fast.objects, fast.aliases, fast.modules) == (
        whole.objects,
        whole.aliases,
        whole.modules,
    )
    assert fast.aliases["pkg.types.VARCHAR"] == "pkg.VARCHAR"
    assert {"pkg.dialects.base.CoreSchema", "pkg.dialects.base.Thing"} <= fast.objects


def _surface_asked(
    tmp_path: Path, files: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> tuple[PublicSurface, list[list[str]]]:
    """The public surface of a repository of ``files`` and the specs of each request it
    made to git."""
    from commitdigest.analysis.radar import public
    from commitdigest.analysis.radar.repo import RepoView
    from commitdigest.sources import blobs as blob_module

    [rev] = build_repo(tmp_path / "repo", [CommitSpec("init", D[0], files=files)])
    asked: list[list[str]] = []  # the specs of each request
    exchange = blob_module.BlobReader._exchange

    def spy(self: blob_module.BlobReader, specs: list[str]) -> None:
        asked.append(specs)
        exchange(self, specs)

    monkeypatch.setattr(blob_module.BlobReader, "_exchange", spy)
    with blob_module.BlobReader(tmp_path / "repo") as blobs:
        return public.PublicSurface.at(RepoView(blobs, rev), rev), asked


def test_the_modules_a_package_takes_names_from_are_read_in_one_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The public surface reads the modules a package re-exports from in one request to
    git, not one each as it looks at each name (openai-python's surface asked for 918
    files one at a time); a module it binds as a module is not read (nothing in it is
    looked at); the surface is the same."""

    modules = [f"m{k}" for k in range(6)]
    files = {f"pkg/{m}.py": f"class {m.upper()}:\n    pass\n" for m in modules}
    files["pkg/__init__.py"] = "".join(f"from .{m} import {m.upper()}\n" for m in modules)
    files["pkg/__init__.py"] += "from . import sub, big\n"
    files["pkg/sub/__init__.py"] = "from .deep import Deep\n"
    files["pkg/sub/deep.py"] = "class Deep:\n    pass\n"
    files["pkg/big.py"] = "class Big:\n    pass\n"
    surface, asked = _surface_asked(tmp_path, files, monkeypatch)
    assert {f"pkg.{m}.{m.upper()}" for m in modules} | {"pkg.sub.deep.Deep"} <= surface.objects
    together = [specs for specs in asked if any(s.endswith("/m0.py") for s in specs)]
    assert len(together) == 1 and all(
        any(s.endswith(f"pkg/{m}.py") for s in together[0]) for m in modules
    ), asked
    assert "pkg.big" in surface.modules
    assert not any(s.endswith("pkg/big.py") for specs in asked for s in specs)


def test_the_modules_re_exports_come_from_are_read_a_level_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the modules a package takes its names from import them in turn (diffusers'
    pipelines import their classes from the modules beside them, two levels down), each
    level is read in one request, not one module at a time (600 round trips, a third of
    its surface's time); the surface is the same."""

    ks = range(5)
    files = {"pkg/__init__.py": "".join(f"from .m{k} import C{k}\n" for k in ks)}
    files |= {f"pkg/m{k}.py": f"from .impl{k} import C{k}\n\nX = 1\n" for k in ks}
    files |= {f"pkg/impl{k}.py": f"from pkg.core{k} import C{k}\n" for k in ks}
    files |= {f"pkg/core{k}.py": f"class  C{k}:\n    pass\n" for k in ks}  # (two blanks)
    surface, asked = _surface_asked(tmp_path, files, monkeypatch)
    assert {f"pkg.core{k}.C{k}" for k in ks} <= surface.objects
    assert surface.aliases["pkg.core0.C0"] == "pkg.C0"
    for level in ("impl", "core"):
        reads = [specs for specs in asked if any(f"/{level}" in s for s in specs)]
        assert len(reads) == 1 and len(reads[0]) == len(ks), asked


def test_a_module_imported_with_star_is_modelled_only_where_it_writes_the_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A package that imports ``*`` from several modules (diffusers' 20 dummy modules, one
    per optional backend) has each name it serves looked for in each of them: one that
    never writes the name (and imports nothing with ``*`` itself) is not modelled for it,
    whole, to find nothing (a third of diffusers' surface); the surface is the same."""
    from commitdigest.analysis.radar import public, pyapi
    from commitdigest.analysis.radar.repo import RepoView
    from commitdigest.sources.blobs import BlobReader

    dummy = "class {}(metaclass=DummyObject):\n    _backends = ['torch']\n"
    files = {
        "pkg/__init__.py": '__all__ = ["A", "B"]\n\nfrom .dummy_a import *\n'
        "from .dummy_b import *\nfrom .dummy_c import *\nfrom .more import *\n",
        "pkg/dummy_a.py": dummy.format("A"),
        "pkg/dummy_b.py": dummy.format("B"),
        "pkg/dummy_c.py": dummy.format("C"),
        "pkg/more.py": "from .deeper import *\n",  # (nothing written, but a * import: read)
        "pkg/deeper.py": dummy.format("B"),
    }
    [rev] = build_repo(tmp_path / "repo", [CommitSpec("init", D[0], files=files)])
    modelled: list[str] = []
    real = pyapi.module_api
    monkeypatch.setattr(
        public, "module_api", lambda text, *a: modelled.append(text) or real(text, *a)
    )
    with BlobReader(tmp_path / "repo") as blobs:
        surface = public.PublicSurface.at(RepoView(blobs, rev), rev)
    assert {"pkg.dummy_a.A", "pkg.dummy_b.B", "pkg.deeper.B"} <= surface.objects
    assert files["pkg/dummy_c.py"] not in modelled and files["pkg/more.py"] in modelled


@pytest.mark.parametrize(
    ("name", "sub"),
    [
        ("Foo", "from ._impl import \\\n    *\n"),  # a * import continued by a backslash
        ("file", "from ._impl import ﬁle\n"),  # a name as Python reads it (NFKC: ``file``)
    ],
)
def test_a_module_that_may_import_a_name_with_star_is_modelled(
    tmp_path: Path, mode: str, name: str, sub: str
) -> None:
    """A module that imports ``*`` on a line continued by a backslash, or a name written
    with a ligature (Python reads ``ﬁle`` as ``file``), is looked into for the names it
    re-exports: the object stays public and its changes are found (a reviewer's: the
    shortcut that skips modules never writing a name missed both)."""
    impl = f"class {name}:\n    def run(self, a, b):\n        return a\n"
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "pkg/__init__.py": f"from .sub import {name}\n", "pkg/sub.py": sub,
            "pkg/_impl.py": impl,
        }),
        CommitSpec("change", D[1], files={"pkg/_impl.py": impl.replace("a, b)", "a)")}),
    ], mode)  # fmt: skip
    assert [(i.name, i.change.value, i.visibility.value) for i in items] == [
        (f"pkg.{name}.run(b)", "removed", "public")
    ]


@pytest.mark.parametrize("name", ["Foo", "bar", "X", "Y", "Zeta", "Z", "select", "sel", "q"])
def test_a_name_defined_at_a_modules_top_is_found_by_a_search_for_it(name: str) -> None:
    """A name looked for in a module alone (a string search) is defined at its top just
    where the search of all its definitions finds it: ``class  Foo`` (two blanks),
    ``async\\tdef bar``, ``X: int = 1``, not ``Y == 2``, ``Zeta`` and not ``Z``, a word
    written more times than are looked at (``select``) told by the whole list."""
    from commitdigest.analysis.radar.public import _TOP_DEFINED, _defines_at_top

    text = (
        "class  Foo:\n    bar = 1\n\n\nasync\tdef bar(x):\n    return select\n\n"
        "X: int = 1\nY == 2\nZeta = 3\n" + "select(sel)\n" * 40 + "def select(): ...\nq\n"
    )
    listed = {m.group(1) or m.group(2) or m.group(3) for m in _TOP_DEFINED.finditer("\n" + text)}
    found = _defines_at_top(text, name)
    assert (found if found is not None else name in listed) == (name in listed)
    assert listed >= {"Foo", "bar", "X", "Zeta", "select"} and not listed & {"Y", "Z", "sel"}
    assert (found is None) == (name in ("select", "sel"))


@pytest.mark.parametrize(
    "mod",
    [
        # a continued string, whose next line would read as an import
        "x = 'abc \\\nfrom pkg.other import Foo #'\n",
        # a decorator-like line of a docstring, before the module-level block that defines it
        'from pkg.other import Foo\n\n\nclass Other:\n    doc = """\n@param x: the x\n    """\n'
        "\n\nif True:\n    Foo = 1\n",
        # an escaped triple quote, and one in a one-line string
        'doc = """\nx \\"""\nfrom pkg.other import Foo\n"""\n',
        'from pkg.other import Foo\nq = \'a """ b\'\nclass Other:\n    pass\n'
        'Foo = 2\nz = """x"""\n',
        # a lone carriage return, which Python reads as a line break
        "from pkg.other import Foo\nclass Other:\n    x = 1\rif True:\n    Foo = 1\n",
        # a comment that ends with a backslash
        "from pkg.other import Foo\nclass Other:\n    x = 1  # a \\\nif True:\n    Foo = 1\n",
    ],
)
def test_statements_read_alone_never_tell_what_the_whole_module_does_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mod: str
) -> None:
    """A reviewer's modules where the lines' split into statements went wrong: a string or a
    continued line read as statements, a statement hidden in a class above it. The surface
    is the one the whole module's model gives (the split refuses what it cannot read)."""
    from commitdigest.analysis.radar import public
    from commitdigest.analysis.radar.repo import RepoView
    from commitdigest.sources.blobs import BlobReader

    files = {
        "pkg/__init__.py": "from .mod import Foo\n",
        "pkg/mod.py": mod,
        "pkg/other.py": "class Foo:\n    pass\n",
    }
    [rev] = build_repo(tmp_path / "repo", [CommitSpec("init", D[0], files=files)])
    surfaces = []
    for light in (True, False):
        if not light:
            monkeypatch.setattr(public._Walker, "binding", lambda self, module, name: None)
        with BlobReader(tmp_path / "repo") as blobs:
            surfaces.append(public.PublicSurface.at(RepoView(blobs, rev), rev))
    fast, whole = surfaces
    assert (fast.objects, fast.aliases) == (whole.objects, whole.aliases)


def test_a_member_a_builtin_base_has_and_a_module_no_import_reaches(
    tmp_path: Path, mode: str
) -> None:
    """attrs ce89f5d1 dropped ``FrozenError(AttributeError)``'s ``args`` override: every
    exception has ``args`` (it read as removed). A member the built-in base lacks is still
    removed, and so is one of a class whose base only shares a built-in's name. attrs
    8a781168 moved ``typing-examples/*.py``: no import reaches a module there (46 removals
    of ``typing-examples.mypy_examples``)."""
    errors = (
        "from .compat import TimeoutError\n\n\n"
        "class FrozenError(AttributeError):\n    msg = 'frozen'\n"
        "    args: ClassVar[tuple[str]] = (msg,)\n    hint: str = 'x'\n\n\n"
        "class Late(TimeoutError):\n    args: tuple[str, ...] = ()\n\n\n"
        "class ConfigError(ValueError):\n    def __init__(self, msg, key):\n"
        "        self.key = key\n\n    def __str__(self):\n        return self.key\n\n\n"
        "class Strict(dict):\n"
        "    def get(self, key, default=None, type=None):\n"
        "        return default\n\n    def keys(self):\n        return []\n"
    )
    after = (
        "from .compat import TimeoutError\n\n\n"
        "class FrozenError(AttributeError):\n    msg = 'frozen'\n\n\n"
        "class Late(TimeoutError):\n    pass\n\n\n"
        "class ConfigError(ValueError):\n    pass\n\n\nclass Strict(dict):\n    pass\n"
    )
    example = "class C:\n    x: int = 1\n\n\ndef check(c):\n    return c\n"
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/compat.py": "",
                                        "pkg/exceptions.py": errors,
                                        "typing-examples/mypy_examples.py": example}),
        CommitSpec("Fix message passing in frozen errors", D[1], files={
            "pkg/exceptions.py": after, "typing-examples/mypy_examples.py": None}),
    ], mode)  # fmt: skip
    assert sorted(i.name for i in items) == [  # (__str__ and keys() took nothing more)
        "pkg.exceptions.ConfigError.__init__",  # ConfigError("x", key=…) breaks
        "pkg.exceptions.FrozenError.hint",
        "pkg.exceptions.Late.args",  # its TimeoutError is the package's own
        "pkg.exceptions.Strict.get",  # .get("k", type=int) breaks
    ]


def test_a_package_drops_a_typing_import_not_an_export(tmp_path: Path, mode: str) -> None:
    """starlette 6bfe9fea ("Use `__future__.annotations`") dropped ``Type`` from ``from
    typing import Any, Iterator, Protocol, Type`` in ``starlette/middleware/__init__.py``:
    the radar said ``starlette.middleware.Type`` was removed. What a package imports from
    ``typing`` to annotate its code is no export (unless its ``__all__`` says so); a class
    it re-exported is."""
    before = (
        "import sys\nfrom typing import Any, Iterator, Protocol, Type\n\n"
        "from .core import Engine, Helper\n\n\ndef run(cls: Type[Any]) -> Any:\n"
        "    return cls()\n"
    )
    after = (
        "from __future__ import annotations\n\nimport sys\n"
        "from typing import Any, Iterator, Protocol\n\nfrom .core import Engine\n\n\n"
        "def run(cls: type[Any]) -> Any:\n    return cls()\n"
    )
    core = "class Engine:\n    pass\n\n\nclass Helper:\n    pass\n"
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": before, "pkg/core.py": core}),
        CommitSpec("Use `__future__.annotations`", D[1], files={"pkg/__init__.py": after}),
    ], mode)  # fmt: skip
    assert [(i.name, i.change) for i in items] == [("pkg.Helper", ApiChangeType.REMOVED)]


def test_a_class_renamed_and_kept_under_its_old_name_is_no_removal(
    tmp_path: Path, mode: str
) -> None:
    """openai-python 0a4ca536 renamed ``WebsocketConnectionOptions`` to
    ``WebSocketConnectionOptions`` and kept the old name (``WebsocketConnectionOptions:
    TypeAlias = WebSocketConnectionOptions``, "Backward compatibility for pre-rename
    imports"): the radar said the class became an attribute and six of its fields were
    removed. A class replaced by a value that is no class (``None``, a function) still is a
    change, and so is a member the new class lacks."""
    before = (
        "from typing_extensions import TypedDict\n\n\n"
        "class WebsocketConnectionOptions(TypedDict, total=False):\n"
        "    max_size: int\n    max_queue: int\n\n\n"
        "class Legacy:\n    limit: int = 1\n\n\n"
        "class Config:\n    timeout: int = 1\n    retries: int = 3\n\n    def reload(self, path):\n"
        "        pass\n\n\nclass Maker:\n    pass\n"
    )
    after = (
        "from typing_extensions import TypeAlias, TypedDict\n\n\n"
        "class WebSocketConnectionOptions(TypedDict, total=False):\n"
        "    max_size: int\n    max_queue: int\n\n\n"
        "# Backward compatibility for pre-rename imports.\n"
        "WebsocketConnectionOptions: TypeAlias = WebSocketConnectionOptions\n\n"
        "Legacy = None\n\n\nclass Settings:\n    timeout: int = 1\n\n\nConfig = Settings\n\n\n"
        "def make():\n    pass\n\n\nMaker = make\n"
    )
    [items] = module_items(
        tmp_path, mode, "pkg/options.py", [("init", before), ("use proper capitalization", after)]
    )
    found = [(i.name, i.detail) for i in items]
    assert ("pkg.options.Legacy", "class → attribute") in found
    assert ("pkg.options.Maker", "class → attribute") in found  # a function is no class
    # renamed, but Settings has no retries nor reload
    assert {"pkg.options.Config.retries", "pkg.options.Config.reload"} <= {n for n, _ in found}
    assert "pkg.options.Config" not in {n for n, _ in found}
    assert "pkg.options.Config.timeout" not in {n for n, _ in found}
    assert not [name for name, _ in found if "WebsocketConnectionOptions" in name], found


def test_words_are_for_people_never_python_reprs(tmp_path: Path, mode: str) -> None:
    v1 = (
        "class Mixin:\n    pass\n\n\nclass Scheduler(Base, Mixin):\n"
        "    def step(self, a, b=1):\n        pass\n"
    )
    v2 = (
        "class Mixin:\n    pass\n\n\nclass Scheduler(Base):\n"
        "    def step(self, a, *, b=2):\n        pass\n"
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"sched.py": "from base import Base\n" + v1}),
        CommitSpec("rework", D[1], files={"sched.py": "from base import Base\n" + v2}),
    ], mode)  # fmt: skip
    by_name = {i.name: i for i in items}
    assert by_name["sched.Scheduler"].detail == "bases (Base, Mixin) → (Base)"
    assert by_name["sched.Scheduler.step(b)"].detail in ("1 → 2", "keyword-only")
    for item in items:
        text = f"{item.name} {item.detail}"
        assert "Expr" not in text and "PosixPath" not in text and "parent=" not in text


def test_a_module_logger_and_a_forwarding_shim_break_no_caller(tmp_path: Path, mode: str) -> None:
    """diffusers moved ``encode_video(video, fps, …)`` and left ``encode_video(*args,
    **kwargs)`` passing every call on: six parameters read as removed; and its Flax removal
    "removed" 24 modules' ``logger = get_logger(__name__)``. A function that still takes
    any call and passes it on removes no parameter (one that keeps a named parameter
    beside ``**kwargs`` still does: flask's ``dumps(obj, **kwargs)`` passed ``app=`` on to
    ``json.dumps``; so does a stub that only raises), and a module's logger is no API (a
    constant named like one is)."""
    export = (
        "import logging\n\nlogger = logging.getLogger(__name__)\n"
        "LOGGER_NAME = 'pkg'\n\n\n"
        "def encode_video(video, fps, audio=None):\n    return video\n\n\n"
        "def dumps(obj, app=None, **kwargs):\n    return obj\n\n\n"
        "def old_api(a, b=1):\n    return a\n"
    )
    shim = (
        "from ._video import encode_video as _encode_video\n\n\n"
        "def encode_video(*args, **kwargs):\n    return _encode_video(*args, **kwargs)\n\n\n"
        "def dumps(obj, **kwargs):\n    return obj\n\n\n"
        "def old_api(*args, **kwargs):\n    raise RuntimeError('removed in 2.0')\n"
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "pkg/__init__.py": "from .export import encode_video, dumps\n",
                                        "pkg/export.py": export}),
        CommitSpec("move encode_video", D[1], files={
            "pkg/export.py": shim,
            "pkg/_video.py": "def encode_video(video, fps, audio=None):\n    return video\n"}),
    ], mode)  # fmt: skip
    assert names(items) == {
        "pkg.export.dumps(app)", "pkg.export.LOGGER_NAME", "pkg.export.old_api(a)",
        "pkg.export.old_api(b)",
    }  # fmt: skip


def test_a_type_variable_removed_is_internal(tmp_path: Path, mode: str) -> None:
    """click's merge of its stable branch dropped ``ShellCompleteType =
    t.TypeVar("ShellCompleteType", bound="type[ShellComplete]")`` with the generic
    ``add_completion_class`` it typed: a public "removed" line of the Breaking section for
    a name no one imports. A type variable goes with the generics written with it: an
    internal item (a downstream checkout that imports it still sees it); a class or a
    constant named alike is still public, and so is one the module's ``__all__`` lists
    (fastapi's ``fastapi.types.DecoratedCallable``, which downstream code imports)."""
    before = (
        "import typing as t\nfrom typing import ParamSpec\n\n"
        'ShellCompleteType = t.TypeVar("ShellCompleteType", bound="type[ShellComplete]")\n'
        'P = ParamSpec("P")\nTypeVarName = "T"\n\n\n'
        "class ShellComplete:\n    pass\n\n\nclass BashComplete(ShellComplete):\n    pass\n"
    )
    after = "class ShellComplete:\n    pass\n"
    [items] = module_items(
        tmp_path, mode, "pkg/shell_completion.py", [("init", before), ("stable", after)]
    )
    found = sorted((i.name, i.visibility.value) for i in items)
    assert found == [
        ("pkg.shell_completion.BashComplete", "public"),
        ("pkg.shell_completion.P", "internal"),
        ("pkg.shell_completion.ShellCompleteType", "internal"),
        ("pkg.shell_completion.TypeVarName", "public"),
    ]
    listed = 'import typing as t\n\n__all__ = ["DecoratedCallable"]\n\n' + (
        'DecoratedCallable = t.TypeVar("DecoratedCallable")\n'
    )
    [items] = module_items(
        tmp_path / "listed", mode, "pkg/types.py",
        [("init", listed), ("drop it", "import typing as t\n\n__all__ = []\n")],
    )  # fmt: skip
    assert [(i.name, i.visibility.value) for i in items] == [
        ("pkg.types.DecoratedCallable", "public")
    ]


def _modelled_whole(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The modules the API kind models whole from now on (``api_of``), by name, as asked."""
    from commitdigest.analysis.radar import python_api

    modelled: list[str] = []
    api_of = python_api.api_of
    monkeypatch.setattr(
        python_api,
        "api_of",
        lambda text, module, *a: modelled.append(module) or api_of(text, module, *a),
    )
    return modelled


def test_lines_added_to_a_package_init_are_read_where_they_go(
    tmp_path: Path, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A commit that only adds imports (names to an import over several lines, strings and
    keys to a module-level list or dict of lists) to a package ``__init__`` takes nothing
    away, and is not modelled whole (openai-python adds each new model's import so,
    huggingface_hub each new function's name to its lazy table, ``__all__`` and typing
    imports); the same kind of line added to a def's header over several lines is a new
    parameter, or a new default."""
    init = (
        "from typing import TYPE_CHECKING\n\n"
        "_SUBMOD_ATTRS = {\n    'core': [\n        'run',\n    ],\n}\n"
        "__all__ = [\n    'run',\n]\n\n"
        "if TYPE_CHECKING:\n    from .core import (\n        run,\n    )\n\n\n"
        "def configure(\n    level,\n    names=(\n        'a',\n    ),\n"
        "    table={\n        'a': [\n            'x',\n        ],\n    },\n):\n    return level\n"
    )
    core = "def run(a):\n    return a\n\n\ndef walk(a):\n    return a\n"
    exported = (
        init.replace("        'run',\n", "        'run',\n        'walk',\n")
        .replace("    ],\n}", "    ],\n    'more': [\n        'jump',\n    ],\n}")
        .replace("    'run',\n]", "    'run',\n    'walk',\n]")
        .replace("        run,\n", "        run,\n        walk,\n")
        + "from .core import walk as stroll  # an alias\n"
    )
    configured = init.replace("    level,\n", "    level,\n    target,\n")
    configured = configured.replace("'a',\n", "'a',\n        'b',\n")
    configured = configured.replace("'x',\n", "'x',\n            'y',\n")
    modelled = _modelled_whole(monkeypatch)
    for name, new, found in [
        ("export walk", exported, set()),
        ("configure more", configured,
         {"pkg.configure(target)", "pkg.configure(names)", "pkg.configure(table)"}),
    ]:  # fmt: skip
        modelled.clear()
        [items] = scan(tmp_path / name.replace(" ", "-"), [
            CommitSpec("init", D[0], files={"pkg/__init__.py": init, "pkg/core.py": core}),
            CommitSpec(name, D[1], files={"pkg/__init__.py": new}),
        ], mode)  # fmt: skip
        assert names(items) == found, name
        # (with the patch, the lines added are read; without, the module is modelled whole)
        assert ("pkg" in modelled) is (mode != "patches" or bool(found)), name


def test_names_listed_under_an_optional_dependency_are_read_where_they_go(
    tmp_path: Path, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """diffusers' package ``__init__`` (90 KB) lists its names in ``_import_structure``
    under the ``else:`` of a ``try`` that checks an optional dependency, a list opened on a
    line of its own under ``.extend(``, and gives each new pipeline a key of its own: a
    commit that only adds such names takes nothing away and is not modelled whole (each
    version of three such files was, at 27 of its 299 commits in three months). A key it
    had, set again (one its table's literal wrote too), may list fewer names; a list in a
    class is an attribute's value; a key set in a function is not the module's: all are
    modelled. None of these commits takes a name away."""
    init = (
        "from typing import TYPE_CHECKING\n\n"
        "from .utils import OptionalDependencyNotAvailable, _LazyModule, is_torch_available\n\n"
        '_import_structure = {"core": ["run"], "base": ["walk"]}\n\n'
        "try:\n    if not is_torch_available():\n        raise OptionalDependencyNotAvailable()\n"
        "except OptionalDependencyNotAvailable:\n    pass\n"
        'else:\n    _import_structure["core"].extend(\n        [\n            "walk",\n'
        "        ]\n    )\n\n"
        "if TYPE_CHECKING:\n    from .core import run, walk\n"
        "else:\n    import sys\n\n"
        "    sys.modules[__name__] = _LazyModule(__name__, __file__, _import_structure)\n\n\n"
        'class Config:\n    names = [\n        "a",\n    ]\n\n\n'
        "def _late():\n    return None\n"
    )
    utils = (
        "class OptionalDependencyNotAvailable(Exception):\n    pass\n\n\n"
        "class _LazyModule:\n    def __init__(self, *args):\n        pass\n\n\n"
        "def is_torch_available():\n    return True\n"
    )
    core = "".join(f"def {f}(a):\n    return a\n\n\n" for f in ("run", "walk", "jump"))
    added = init.replace('            "walk",\n', '            "walk",\n            "jump",\n')
    added = added.replace(
        "        ]\n    )\n",
        '        ]\n    )\n    _import_structure["more"] = [\n        "hop",\n    ]\n'
        '    _import_structure["other"] = ["skip", "leap"]\n',
    )
    reset = init.replace(  # (a key only the table's literal wrote)
        "        ]\n    )\n", '        ]\n    )\n    _import_structure["base"] = ["run"]\n'
    )
    attribute = init.replace('        "a",\n', '        "a",\n        "b",\n')
    late = init.replace(
        "    return None\n", '    _import_structure["late"] = ["hop"]\n    return None\n'
    )
    modelled = _modelled_whole(monkeypatch)
    for name, new, whole in [
        ("add names", added, False), ("set a key again", reset, True),
        ("add to an attribute", attribute, True), ("set a key in a function", late, True),
    ]:  # fmt: skip
        modelled.clear()
        [items] = scan(tmp_path / name.replace(" ", "-"), [
            CommitSpec("init", D[0], files={
                "pkg/__init__.py": init, "pkg/core.py": core, "pkg/utils.py": utils}),
            CommitSpec(name, D[1], files={"pkg/__init__.py": new}),
        ], mode)  # fmt: skip
        assert items == [], name
        # (with the patch, the lines added are read; without, the module is modelled whole)
        assert ("pkg" in modelled) is (mode != "patches" or whole), name


def test_a_deleted_module_of_dunders_is_still_gone(tmp_path: Path, mode: str) -> None:
    """A deleted ``pkg/__version__.py`` (requests ships one) changes only dunder lines, all
    of them: it is no version bump, and it is still reported."""
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "pkg/__init__.py": "from .core import f\n", "pkg/core.py": "def f():\n    pass\n",
            "pkg/__version__.py": '__title__ = "pkg"\n__version__ = "1.0"\n'}),
        CommitSpec("drop __version__.py", D[1], files={"pkg/__version__.py": None}),
    ], mode)  # fmt: skip
    assert names(items) == {"pkg.__version__"}


def test_imports_added_that_leave_a_bracket_open_are_read_whole() -> None:
    """An added import whose bracket the added lines leave open may leave the module
    unparseable: it is read whole, which says so (the upgrade report lists it), not
    passed over as lines that add names (the session's reviewer)."""
    from commitdigest.analysis.radar import python_api
    from commitdigest.analysis.radar.models import CommitView

    path = "pkg/__init__.py"
    for after, added, unreadable in [
        ("from .a import x\nfrom .b import (\n", "from .b import (", [path]),
        ("from .a import x\nfrom .b import y\n", "from .b import y", []),
    ]:
        view = CommitView(
            sha="1" * 40, title="", body="", paths=(path,), before={path: "from .a import x\n"},
            after={path: after}, changed={path: added},
            numbers={path: (frozenset(), frozenset({2}))},
        )  # fmt: skip
        assert python_api.detect(view) == []
        assert view.unreadable == unreadable


def test_a_version_bump_is_no_api_change() -> None:
    """A release sets ``__version__`` in its package ``__init__`` (huggingface_hub's 60 KB
    one, every week): no API is in those lines, and the module is not modelled for them;
    ``__all__`` or any other line beside them is read as before."""
    from commitdigest.analysis.radar.python_api import _dunder_values_only

    assert _dunder_values_only('__version__ = "1.26.0.dev0"\n__version__ = "1.27.0.dev0"')
    assert _dunder_values_only("# bump\n__version__: str = '2.0'  # release\n__author__ = 'x'")
    assert not _dunder_values_only('__all__ = "run"\n__all__ = "walk"')
    assert not _dunder_values_only('__version__ = "1"\nTIMEOUT = 2')
    assert not _dunder_values_only("__version__ = get_version()")
    assert not _dunder_values_only(None)


def test_a_function_made_a_class_is_called_as_before(tmp_path: Path, mode: str) -> None:
    """huggingface_hub made ``disable_progress_bars(name=None) -> None`` a class (a context
    manager too), whose ``__init__(self, name=None)`` takes what the function took:
    "function → class" was a breaking change. A def called for its effect alone has its
    calls go to ``__init__``, whose parameters are compared with the function's; a class
    without one, an ``async`` def (awaited), and one whose value callers may use still
    change kind."""
    old = (
        "def disable_progress_bars(name=None) -> None:\n    return None\n\n\n"
        "def enable(name=None, level=1) -> None:\n    return None\n\n\n"
        "def reset(name=None) -> None:\n    return None\n\n\n"
        "async def fetch(url, timeout=10) -> None:\n    return None\n\n\n"
        "def load(path):\n    return path\n"
    )

    def made_class(name: str, params: str) -> str:
        return f"class {name}:\n    def __init__(self, {params}):\n        self.x = 1\n\n\n"

    new = (
        made_class("disable_progress_bars", "name=None")
        + "    def __enter__(self):\n        return self\n\n\n"
        + made_class("enable", "name=None")
        + "class reset:\n    pass\n\n\n"
        + made_class("fetch", "url, timeout=10")
        + made_class("load", "path")
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "from .bars import *\n",
                                        "pkg/bars.py": old}),
        CommitSpec("classes", D[1], files={"pkg/bars.py": new}),
    ], mode)  # fmt: skip
    assert names(items) == {
        "pkg.bars.enable(level)", "pkg.bars.reset", "pkg.bars.fetch", "pkg.bars.load"
    }  # fmt: skip


# ---- public and internal ---------------------------------------------------------------------


def test_internal_helpers_are_internal_and_the_package_surface_is_public(
    tmp_path: Path, mode: str
) -> None:
    init = (
        "try:\n    from pkg._speedups import fast_escape\nexcept ImportError:\n"
        "    from pkg._native import fast_escape\n\nfrom pkg.api import run\n\n\n"
        "def __getattr__(name):\n    if name == 'old_stack':\n        return 1\n"
        "    raise AttributeError(name)\n"
    )
    gdn = "def to_int64_tuple(x):\n    return x\n\n\ndef helper(x):\n    return x\n"
    api = "def run(a, b=None):\n    return a\n"
    native = "def fast_escape(s, quote=True):\n    return s\n"
    documented = "def plan(x):\n    return x\n"
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": init, "pkg/ops/__init__.py": "",
                                        "pkg/ops/gdn.py": gdn, "pkg/api.py": api,
                                        "pkg/_native.py": native, "pkg/_speedups.py": native,
                                        "pkg/planner.py": documented,
                                        "docs/guide.md": "Use `pkg.planner.plan` to plan.\n"}),
        CommitSpec("cleanups", D[1], files={
            "pkg/ops/gdn.py": "def other(x):\n    return x\n",
            "pkg/api.py": "def run(a):\n    return a\n",
            "pkg/_native.py": "def fast_escape(s):\n    return s\n",
            "pkg/planner.py": "def plan(x, y):\n    return x\n",
            "pkg/__init__.py": init.replace(
                "    if name == 'old_stack':\n        return 1\n", "")}),
    ], mode)  # fmt: skip
    seen = {(i.name, i.visibility) for i in items if i.kind is RadarKind.PYTHON_API}
    assert seen == {
        ("pkg.ops.gdn.to_int64_tuple", Visibility.INTERNAL),
        ("pkg.ops.gdn.helper", Visibility.INTERNAL),
        ("pkg.api.run(b)", Visibility.PUBLIC),  # re-exported by the package
        ("pkg.fast_escape(quote)", Visibility.PUBLIC),  # re-exported inside try/except
        ("pkg.planner.plan(y)", Visibility.PUBLIC),  # named by the docs
        ("pkg.old_stack", Visibility.PUBLIC),  # served by a module __getattr__, then not
    }


LAZY_INIT = """\
import sys
from typing import TYPE_CHECKING

from ._lazy_module import _LazyModule

EXTRAS = ["pad"]
_import_structure = {
    "trainer": ["PPOTrainer", "SFTTrainer"],
    "utils": ["pad"],
    "extras": EXTRAS,
}

if TYPE_CHECKING:
    from torch import Tensor

    from .trainer import PPOTrainer, SFTTrainer
    from .utils import pad
else:
    sys.modules[__name__] = _LazyModule(
        __name__,
        globals()["__file__"],
        _import_structure,
        module_spec=__spec__,
        extra_objects={"__version__": "1.0"},
    )
"""
# a subpackage's structure, filled in place and mirrored by no TYPE_CHECKING import
LAZY_TRAINER = """\
import sys

from .._lazy_module import _LazyModule

_import_structure = {"ppo_trainer": ["PPOTrainer"]}
_import_structure["sft_trainer"] = ["SFTTrainer"]

sys.modules[__name__] = _LazyModule(__name__, __file__, _import_structure)
"""


def test_a_lazy_module_package_serves_its_import_structure(tmp_path: Path, mode: str) -> None:
    """Hugging Face's libraries (transformers, trl, diffusers) put a lazy module object in
    their packages' place, which serves the names of an import structure: trl's removal
    of ``PPOTrainer`` (``trl.PPOTrainer``, in ``trl.trainer`` and ``trl.trainer.ppo_trainer``)
    read as internal, and ``trl.trainer.rloo_config.RLOOConfig`` too. A dict of the same
    shape that no lazy module serves (a registry) exports nothing; what the package imports
    from another one for type checkers (``torch.Tensor``) it does not serve, nor the key of
    a list it does not write in place."""
    ppo = "class PPOTrainer:\n    def train(self, steps):\n        return steps\n"
    sft = "class SFTTrainer:\n    def train(self, steps, packing=False):\n        return steps\n"
    utils = "def pad(x, value=0):\n    return x\n\n\ndef unlisted(x):\n    return x\n"
    other = 'from .core import used\n\n_import_structure = {"core": ["hidden"]}\n'
    core = "def used(x):\n    return x\n\n\ndef hidden(x):\n    return x\n"
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "pkg/__init__.py": LAZY_INIT, "pkg/_lazy_module.py": "class _LazyModule:\n    pass\n",
            "pkg/trainer/__init__.py": LAZY_TRAINER, "pkg/trainer/ppo_trainer.py": ppo,
            "pkg/trainer/sft_trainer.py": sft, "pkg/utils.py": utils,
            "other/__init__.py": other, "other/core.py": core}),
        CommitSpec("remove PPO", D[1], files={
            "pkg/__init__.py": LAZY_INIT.replace('"PPOTrainer", ', "").replace(
                "PPOTrainer, ", "").replace("    from torch import Tensor\n\n", "").replace(
                '"extras": EXTRAS', '"extras": ["pad"]'),
            "pkg/trainer/__init__.py": LAZY_TRAINER.replace(
                '{"ppo_trainer": ["PPOTrainer"]}', "{}"),
            "pkg/trainer/ppo_trainer.py": None,
            "pkg/trainer/sft_trainer.py": sft.replace(", packing=False", ""),
            "pkg/utils.py": "def pad(x):\n    return x\n",
            "other/core.py": "def used(x):\n    return x\n"}),
    ], mode)  # fmt: skip
    seen = {(i.name, i.visibility) for i in items if i.kind is RadarKind.PYTHON_API}
    assert seen == {
        ("pkg.PPOTrainer", Visibility.PUBLIC),  # one item for the class and its re-exports
        ("pkg.trainer.sft_trainer.SFTTrainer.train(packing)", Visibility.PUBLIC),
        ("pkg.utils.pad(value)", Visibility.PUBLIC),
        ("pkg.utils.unlisted", Visibility.INTERNAL),  # in no import structure
        ("other.core.hidden", Visibility.INTERNAL),  # a dict no lazy module serves
    }
    [ppo_item] = [i for i in items if i.name == "pkg.PPOTrainer"]
    assert set(ppo_item.symbols) == {"pkg.trainer.PPOTrainer", "pkg.trainer.ppo_trainer.PPOTrainer"}


def test_an_object_removed_with_its_re_exports_is_one_item(tmp_path: Path, mode: str) -> None:
    """A class deleted with the imports that re-exported it is one "Breaking" line, named
    as users import it, its other names kept for the downstream search; a re-export dropped
    while its object stays, and an unrelated object of the same name, are their own."""
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "pkg/__init__.py": "from .sub import A, B\n",
            "pkg/sub/__init__.py": "from .mod import A\nfrom .other import B\n",
            "pkg/sub/mod.py": "class A:\n    pass\n",
            "pkg/sub/other.py": "class B:\n    pass\n",
            "pkg/tools/__init__.py": "from .helpers import run\n",
            "pkg/tools/helpers.py": "def run():\n    pass\n\n\nclass A:\n    pass\n"}),
        CommitSpec("remove A", D[1], files={
            "pkg/__init__.py": "\n",
            "pkg/sub/__init__.py": "from .other import B\n",
            "pkg/sub/mod.py": None,
            "pkg/tools/helpers.py": "def run():\n    pass\n"}),
    ], mode)  # fmt: skip
    seen = {(i.name, i.visibility) for i in items if i.kind is RadarKind.PYTHON_API}
    assert seen == {
        ("pkg.A", Visibility.PUBLIC),
        ("pkg.B", Visibility.PUBLIC),  # no longer re-exported; pkg.sub.B still is
        ("pkg.tools.helpers.A", Visibility.INTERNAL),  # another class named A
    }
    [a] = [i for i in items if i.name == "pkg.A"]
    assert set(a.symbols) == {"pkg.sub.A", "pkg.sub.mod.A"}
    uses = _uses(tmp_path / "down", {"app.py": "from pkg.sub.mod import A\n\nA()\n"}, [a])
    assert uses["pkg.A"]  # imported by another of its names: still found


# ---- releases --------------------------------------------------------------------------------

MD_CHANGELOG = """\
# Changelog

## 0.28.0 (...)

The 0.28 release includes a limited set of backwards incompatible changes.

**The following changes are also included**:

* The deprecated `proxies` argument has now been removed.
* Ensure JSON request bodies are compact. (#3363)

## 0.27.2 (27th August, 2024)

### Fixed

* Reintroduced supposedly-private `URLTypes` shortcut. (#2673)
"""


def test_a_tagged_release_announces_what_was_written_weeks_before(
    tmp_path: Path, mode: str
) -> None:
    dated = MD_CHANGELOG.replace("## 0.28.0 (...)", "## 0.28.0 (28th November, 2024)")
    repo = tmp_path / "repo"
    shas = build_repo(repo, [
        CommitSpec("init", D[0], files={"httpx/__init__.py": "", "CHANGELOG.md": "# Changelog\n"}),
        CommitSpec("Drop proxies", D[1], files={"CHANGELOG.md": MD_CHANGELOG}),
        CommitSpec("Unrelated fix", D[2], files={"httpx/x.py": "X = 1\n"}),
        CommitSpec("Version 0.28.0.", D[3], files={"CHANGELOG.md": dated}),
    ])  # fmt: skip
    git(repo, "tag", "0.28.0", shas[3])
    found = scan_log(repo, f"{shas[0]}..{shas[-1]}", mode)
    written, _, released = (found[s] for s in shas[1:])
    [item] = [i for i in written if i.kind is RadarKind.ANNOUNCED]  # the day it was written
    assert (item.change, item.release) == (ApiChangeType.REMOVED, "")
    assert item.symbols == ["httpx.*(proxies)"]
    [item] = [i for i in released if i.kind is RadarKind.ANNOUNCED]  # and on release day
    assert (item.name, item.release) == ("The deprecated `proxies` argument has now been removed.",
                                         "0.28.0")  # fmt: skip


def test_a_release_date_written_as_words_dates_the_release(tmp_path: Path, mode: str) -> None:
    """httpx writes "## 0.28.0 (28th November, 2024)": without a tag, the commit that gives
    the section that date is the release (an ordinal day and a comma after the month read
    as a date, as "2024-11-28" and "Nov 28, 2024" do)."""
    dated = MD_CHANGELOG.replace("## 0.28.0 (...)", "## 0.28.0 (28th November, 2024)")
    written, released = scan(tmp_path, [
        CommitSpec("init", D[0], files={"httpx/__init__.py": "", "CHANGELOG.md": "# Changelog\n"}),
        CommitSpec("Drop proxies", D[1], files={"CHANGELOG.md": MD_CHANGELOG}),
        CommitSpec("Version 0.28.0.", D[2], files={"CHANGELOG.md": dated}),
    ], mode)  # fmt: skip
    assert [(i.name[:30], i.release) for i in written] == [("The deprecated `proxies` argum", "")]
    assert [(i.name[:30], i.release) for i in released] == [
        ("The deprecated `proxies` argum", "0.28.0")
    ]


NEWS_RST = """\
Release notes
=============

Scrapy 2.19.0 (expected 2027-06-01)
-----------------------------------

Scrapy 2.18.0 (unreleased)
--------------------------

-   Faster feeds.

Scrapy 2.17.0 (2026-07-07)
--------------------------

-   Something new.

Scrapy 2.16.0 (2026-05-19)
--------------------------

-   Something else.

Scrapy 2.12.0 (November 18, 2024)
---------------------------------

Deprecations
~~~~~~~~~~~~

-   ``scrapy.utils.url.escape_ajax()`` is now deprecated.
"""


def test_an_entry_added_to_a_version_released_long_ago_is_no_news(
    tmp_path: Path, mode: str
) -> None:
    """Scrapy's "Remove deprecated CaselessDict and md5sum()" (2026) also added
    "``scrapy.utils.misc.md5sum()`` is now deprecated." to the Deprecations of 2.12.0 (2024),
    which had left it out: announced as a deprecation of the day. An entry added to a
    version released more than 90 days before the latest release the changelog dates is
    history; one added to the next version, or to a release weeks before the latest (a
    maintenance release written after a newer one), is news."""
    added = (
        NEWS_RST.replace(
            "-   Faster feeds.\n", "-   Faster feeds.\n\n-   ``scrapy.Spider.log()`` is removed.\n"
        )
        .replace(
            "-   Something else.\n", "-   Something else.\n\n-   ``scrapy.Foo`` is deprecated.\n"
        )
        .replace(
            "is now deprecated.\n",
            "is now deprecated.\n\n-   ``scrapy.utils.misc.md5sum()`` is now deprecated.\n",
        )
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"scrapy/__init__.py": "", "docs/news.rst": NEWS_RST}),
        CommitSpec("Remove deprecated md5sum()", D[1], files={"docs/news.rst": added}),
    ], mode)  # fmt: skip
    assert sorted((i.name, i.change) for i in items if i.kind is RadarKind.ANNOUNCED) == [
        ("``scrapy.Foo`` is deprecated.", ApiChangeType.DEPRECATED),
        ("``scrapy.Spider.log()`` is removed.", ApiChangeType.REMOVED),
    ]


RST_CHANGES = """\
Version 2.1.0
-------------

Unreleased

-   Drop support for Python 3.6. :pr:`262`
-   Remove ``soft_unicode``, which was previously deprecated. Use
    ``soft_str`` instead. :pr:`261`
-   Raise error on missing single placeholder during string
    interpolation. :issue:`225`


Version 2.0.1
-------------

Released 2021-05-18

-   Mark top-level names as exported. :issue:`215`
"""


def test_a_rest_changelog_release_without_a_tag(tmp_path: Path, mode: str) -> None:
    released = RST_CHANGES.replace("Unreleased", "Released 2022-02-17")
    early, release = scan(tmp_path, [
        CommitSpec("init", D[0], files={"src/markupsafe/__init__.py": "", "CHANGES.rst": ""}),
        CommitSpec("remove soft_unicode", D[1], files={"CHANGES.rst": RST_CHANGES}),
        CommitSpec("release version 2.1.0", D[2], files={"CHANGES.rst": released}),
    ], mode)  # fmt: skip
    assert {i.name for i in early} == {
        "Drop support for Python 3.6.",
        "Remove ``soft_unicode``, which was previously deprecated. Use ``soft_str`` instead.",
    }
    assert all(i.release == "" for i in early)
    assert {(i.name[:20], i.release) for i in release} == {
        ("Drop support for Pyt", "2.1.0"),
        ("Remove ``soft_unicod", "2.1.0"),
    }
    [remove] = [i for i in release if "soft_unicode" in i.name]
    assert remove.symbols == ["markupsafe.soft_unicode"]  # not soft_str, the replacement


WHATS_NEW = """\
What's New
==========

.. _whats-new.2026.03.0:

v2026.03.0 (unreleased)
-----------------------

Breaking Changes
~~~~~~~~~~~~~~~~
- The minimum versions of some dependencies were changed (see table below).
  Notably, the minimum ``zarr`` version is now 3.0.
  By `Joe Hamman <https://github.com/jhamman>`_.

.. list-table::
   :header-rows: 1

   * - Dependency
     - Old Version
   * - boto3
     - 1.34

- Xarray will no longer by default decode a variable into a timedelta dtype based on
  its ``"units"`` attribute alone. This finalizes the deprecation cycle initiated in
  xarray version 2025.01.2 (:pull:`11173`). By `Spencer Clark
  <https://github.com/spencerkclark>`_.

- All remaining zarr-python 2.x compatibility code has been removed. The following
  parameters have been removed from ``to_zarr``:

  - ``zarr_version``: Use ``zarr_format`` instead (was deprecated since 2024.9.1).

  By `Joe Hamman <https://github.com/jhamman>`_ (:pull:`11232`).

Internal Changes
~~~~~~~~~~~~~~~~

- Remove ``setup.py`` file (:pull:`11261`).
  By `Nick Hodgskin <https://github.com/VeckoTheGecko>`_.

.. _whats-new.2026.02.0:

v2026.02.0 (Feb 13, 2026)
-------------------------

Bug Fixes
~~~~~~~~~

- Fix ``open_dataset`` (:issue:`1`).
"""


def test_a_whats_new_page_release_with_a_table_and_credits(tmp_path: Path, mode: str) -> None:
    """xarray's release notes are ``doc/whats-new.rst`` (not read at all: v2026.04.0 announced
    nothing). The tagged commit that names and dates the unreleased section releases its
    entries: not the cells of its ``.. list-table::`` of minimum versions, not "Internal
    Changes"; a break that "finalizes the deprecation cycle" is no deprecation, nor is a
    parameter in the list of those "removed" that was "deprecated since 2024.9.1"; names
    go without their references and the credit xarray ends each with."""
    released = WHATS_NEW.replace(".. _whats-new.2026.03.0:", ".. _whats-new.2026.04.0:").replace(
        "v2026.03.0 (unreleased)\n-----------------------",
        "v2026.04.0 (Apr 13, 2026)\n-------------------------",
    )
    repo = tmp_path / "repo"
    shas = build_repo(repo, [
        CommitSpec("init", D[0], files={"xarray/__init__.py": "", "doc/whats-new.rst": ""}),
        CommitSpec("notes", D[1], files={"doc/whats-new.rst": WHATS_NEW}),
        CommitSpec("Preparing Release v2026.04.0", D[2], files={"doc/whats-new.rst": released}),
    ])  # fmt: skip
    git(repo, "tag", "v2026.04.0", shas[2])
    found = scan_log(repo, f"{shas[0]}..{shas[-1]}", mode)
    expected = [
        ("The minimum versions of some dependencies were changed (see table below). Notably, "
         "the minimum ``zarr`` version is now 3.0.", ApiChangeType.VERSION_CHANGED, True),
        ("Xarray will no longer by default decode a variable into a timedelta dtype based on "
         'its ``"units"`` attribute alone. This finalizes the deprecation cycle initiated in '
         "xarray version 2025.01.2.", ApiChangeType.DEFAULT_CHANGED, True),
        ("All remaining zarr-python 2.x compatibility code has been removed. The following "
         "parameters have been removed from ``to_zarr``", ApiChangeType.REMOVED, True),
        ("``zarr_version``: Use ``zarr_format`` instead (was deprecated since 2024.9.1).",
         ApiChangeType.REMOVED, True),
    ]  # fmt: skip
    for sha, release in ((shas[1], ""), (shas[2], "2026.04.0")):
        items = [i for i in found[sha] if i.kind is RadarKind.ANNOUNCED]
        assert [(i.name, i.change, i.breaking) for i in items] == expected
        assert {i.release for i in items} == {release}


SESSION = """\
class Session:
    def get(self, key, populate_existing=False, timeout=0, strict=True, limit=False, flag=True,
            size=0):
        return self._get(key, populate_existing)

    def post(self, key, retries=3):
        return key

    def connect(self, addr, timeout=0):
        return socket.create_connection(addr, timeout=timeout)

    def close(self, wait=5):
        return self.wait or 5
"""
SESSION_NOW = """\
class Session:
    def get(self, key, populate_existing=None, timeout=None, strict=None, limit=None, flag=None,
            size=None):
        if populate_existing is not None:
            self.options["populate_existing"] = populate_existing
        else:
            populate_existing = self.options.get(
                "populate_existing", False
            )
        if strict is None:
            strict = True
        if flag is None:
            flag = False
        if size is None:
            size = len(key)
        return self._get(key, populate_existing, timeout or 0, strict, limit, flag, size=size)

    def post(self, key, retries=None):
        return key

    def put(self, key, retries=None):
        if retries is None:
            retries = 3
        return key

    def connect(self, addr, timeout=None):
        return socket.create_connection(addr, timeout=timeout)

    def close(self, wait=None):
        return self.wait or 5
"""
PROXY = """\
class ScopedSession:
    def get(self, key, populate_existing=False):
        return self.session.get(
            key,
            populate_existing=populate_existing,
        )
"""


CODEC = 'def decode(data, encoding="utf-8", errors="strict", size=1_000):\n    return data\n'
CODEC_NOW = """\
def decode(data, encoding=None, errors=None, size=None):
    if encoding is None:
        encoding = "utf-8"
    errors = errors or "strict"
    if size is None:
        size = 1_000
    return data
"""
PASSING = """\
class Client:
    def get(
        self,
        key,
        populate=False,
    ):
        return self._impl(key, populate=populate)

    def _impl(self, key, populate=False):
        return key

    def connect(self, timeout=0):
        return socket.create_connection(timeout=timeout)

    def wait(self, timeout=0):
        return timeout
"""
PASSING_NOW = """\
class Client:
    def get(
        self,
        key,
        populate=None,
    ):
        return self._impl(key, populate=populate)

    def _impl(self, key, populate=None):
        if populate is None:
            populate = False
        return key

    def connect(self, timeout=None):
        return socket.create_connection(timeout=timeout)

    def wait(self, timeout=None):
        if timeout is None:
            timeout = 0
        return timeout
"""


def test_a_default_made_none_read_back_as_code_writes_it(tmp_path: Path, mode: str) -> None:
    """The old default as the source writes it (``"utf-8"`` for ``'utf-8'``, ``1_000``
    for 1000) is read back; a signature over several lines is the header, not a
    reassignment; a parameter passed on as a call's first argument is passed to that call
    (``socket.create_connection(timeout=timeout)``, which ``wait`` setting its own
    ``timeout`` back does not resolve)."""
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "pkg/__init__.py": "", "pkg/codec.py": CODEC, "pkg/client.py": PASSING,
        }),
        CommitSpec("defaults from settings", D[1], files={
            "pkg/codec.py": CODEC_NOW, "pkg/client.py": PASSING_NOW,
        }),
    ], mode)  # fmt: skip
    assert [(i.name, i.detail) for i in items if i.kind is RadarKind.PYTHON_API] == [
        ("pkg.client.Client.connect(timeout)", "0 → None")
    ]


GALLERY = """\
import argparse
parser = argparse.ArgumentParser()
parser.add_argument("--top-packages")
parser.add_argument("--workers")
"""


def test_a_script_outside_a_src_layout_is_not_what_the_project_ships(
    tmp_path: Path, mode: str
) -> None:
    """black keeps every package under ``src/``: its ``gallery/gallery.py`` (a maintainers'
    script) lost seven options, reported as black's command line; only what lies under
    ``src/`` (or at the root) is installed. The same options removed from the package's own
    command line are reported."""
    cli = GALLERY.replace("--top-packages", "--fast")
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "src/black/__init__.py": "", "src/black/cli.py": cli, "gallery/gallery.py": GALLERY,
        }),
        CommitSpec("rework the gallery", D[1], files={
            "gallery/gallery.py": "import sys\n", "src/black/cli.py": "import sys\n",
        }),
    ], mode)  # fmt: skip
    assert sorted((i.name, i.path) for i in items if i.kind is RadarKind.CLI_OPTION) == [
        ("--fast", "src/black/cli.py"),
        ("--workers", "src/black/cli.py"),
    ]
    assert all(i.path != "gallery/gallery.py" for i in items)


def test_a_private_build_helpers_options_are_no_command_line(tmp_path: Path, mode: str) -> None:
    """scipy's build helper ``scipy/_build_utils/tempita.py`` lost its ``--outfile``: no one
    runs it. pip's options live in the private ``pip/_internal/cli/`` and pytest's in
    ``_pytest/``: they are the command lines users run, and count."""
    opts = 'import argparse\np = argparse.ArgumentParser()\np.add_argument("--outfile")\n'
    pip_opts = opts.replace("--outfile", "--no-cache")
    pytest_opts = 'def pytest_addoption(parser):\n    parser.addoption("--pastebin")\n'
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "scipy/__init__.py": "", "scipy/_build_utils/tempita.py": opts,
            "src/pip/__init__.py": "", "src/pip/_internal/cli/cmdoptions.py": pip_opts,
            "src/_pytest/pastebin.py": pytest_opts,
        }),
        CommitSpec("refactor tools", D[1], files={
            "scipy/_build_utils/tempita.py": "import sys\n",
            "src/pip/_internal/cli/cmdoptions.py": "import sys\n",
            "src/_pytest/pastebin.py": "import sys\n",
        }),
    ], mode)  # fmt: skip
    assert sorted((i.name, i.path) for i in items if i.kind is RadarKind.CLI_OPTION) == [
        ("--no-cache", "src/pip/_internal/cli/cmdoptions.py"),
        ("--pastebin", "src/_pytest/pastebin.py"),
    ]


DISTANCE = (
    "__all__ = ['pdist', 'cdist']\n\n\ndef pdist(x):\n    pass\n\n\ndef cdist(x, y):\n    pass\n"
)


def test_a_module_made_a_package_is_compared_with_the_package(tmp_path: Path, mode: str) -> None:
    """scipy moved ``scipy/spatial/distance.py`` to ``distance/_distance.py`` and re-exports
    it from ``distance/__init__.py``: the module ``scipy.spatial.distance`` is still there,
    with its names (27 were "removed", as one deleted module). A name the package no
    longer offers is still removed; a package made a module again is compared the same
    way. And a plain ``import warnings`` in a deleted package's ``__init__`` is no name it
    offered (scipy's ``scipy.misc``)."""
    package = "from ._distance import pdist\n\n__all__ = ['pdist']\n"
    [items, back, misc] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "scipy/__init__.py": "", "scipy/spatial/__init__.py": "",
            "scipy/spatial/distance.py": DISTANCE,
            "scipy/misc/__init__.py": "import warnings\nwarnings.warn('gone')\n",
        }),
        CommitSpec("move distance", D[1], files={
            "scipy/spatial/distance.py": None, "scipy/spatial/distance/_distance.py": DISTANCE,
            "scipy/spatial/distance/__init__.py": package,
        }),
        CommitSpec("back", D[2], files={
            "scipy/spatial/distance/_distance.py": None, "scipy/spatial/distance/__init__.py": None,
            "scipy/spatial/distance.py": DISTANCE,
        }),
        CommitSpec("banish scipy.misc", D[3], files={"scipy/misc/__init__.py": None}),
    ], mode)  # fmt: skip
    assert [(i.name, i.change) for i in items if i.kind is RadarKind.PYTHON_API] == [
        ("scipy.spatial.distance.cdist", ApiChangeType.REMOVED)
    ]
    assert [(i.name, i.visibility.value) for i in back if i.kind is RadarKind.PYTHON_API] == [
        ("scipy.spatial.distance._distance", "internal")  # (only an import of it breaks)
    ]
    assert [i.name for i in misc if i.kind is RadarKind.PYTHON_API] == []


def test_a_default_that_became_none_standing_for_the_old_one_is_no_change(
    tmp_path: Path, mode: str
) -> None:
    """SQLAlchemy's ``Session.get(populate_existing=False)`` became ``None``, resolved to
    the execution options, else ``False``; its proxies pass it on: a caller that passes
    nothing gets what it got, no "Breaking" line (eight opened that day's report); so for
    ``timeout=0`` read as ``timeout or 0`` and ``strict=True`` set to ``True`` when
    ``None``. A default set to another value (``flag``: ``True`` -> ``False``; vllm-ascend's
    ``num_input_tokens=0`` read as ``num_tokens``, here ``size``), one the function never
    resolves (``limit``, only passed on by position; ``post``'s ``retries``, which only
    ``put`` sets back; ``close``'s ``wait``, where ``self.wait or 5`` is an attribute's),
    and one passed on to a call the commit does not resolve it for (``connect``'s
    ``timeout`` to ``socket.create_connection``, which blocks on ``None``) still changed."""
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "pkg/__init__.py": "from .orm import Session\nfrom .scoping import ScopedSession\n",
            "pkg/orm.py": SESSION, "pkg/scoping.py": PROXY,
        }),
        CommitSpec("populate_existing from the options", D[1], files={
            "pkg/orm.py": SESSION_NOW,
            "pkg/scoping.py": PROXY.replace("populate_existing=False", "populate_existing=None"),
        }),
    ], mode)  # fmt: skip
    assert sorted((i.name, i.detail) for i in items) == [
        ("pkg.orm.Session.close(wait)", "5 → None"),
        ("pkg.orm.Session.connect(timeout)", "0 → None"),
        ("pkg.orm.Session.get(flag)", "True → None"),
        ("pkg.orm.Session.get(limit)", "False → None"),
        ("pkg.orm.Session.get(size)", "0 → None"),
        ("pkg.orm.Session.post(retries)", "3 → None"),
    ]


SA_LOG = """\
=============
2.1 Changelog
=============

.. changelog::
    :version: 2.1.0b3
    :include_notes_from: unreleased_21

.. changelog::
    :version: 2.1.0b2
    :released: April 16, 2026

    .. change::
        :tags: change, orm
        :tickets: 10000

        The ``Session.flush_all()`` method has been removed.
"""
SA_REMOVED = """\
.. change::
    :tags: engine, reflection
    :tickets: 13350

    Removed the legacy ``include_columns`` key from the dictionary returned
    by the index reflection methods of some dialects.
"""
SA_FASTER = """\
.. change::
    :tags: performance, orm
    :tickets: 13363

    Improved performance of :func:`_orm.selectinload` and
    :func:`_orm.subqueryload` result handling:

    * removed use of ``groupby()`` + ``lambda`` against :class:`.Row` objects
      in subqueryloader; rows are converted to plain tuples.

    .. seealso::

        :ref:`change_13363`

.. change::
    :tags: usecase, orm
    :tickets: 13339

    Optimized :func:`_orm.selectinload` to skip the ``.unique()`` call, since
    ``.unique()`` is no longer called in that path.
"""
SA_MESSAGE = """\
.. change::
    :tags: usecase, orm
    :tickets: 11297

    Improved the error message, making it clearer why the transaction is no
    longer active.
"""


def _sa_released(*fragments: str) -> str:
    """The changelog as SQLAlchemy's release commit writes it: the pending version dated,
    each fragment's directives under it."""
    indented = "\n".join(
        "\n".join("    " + line if line.strip() else "" for line in f.splitlines())
        for f in fragments
    )
    return SA_LOG.replace(
        "    :include_notes_from: unreleased_21\n",
        "    :released: June 27, 2026\n\n" + indented + "\n",
    )


def test_a_changelog_extension_release_and_its_pending_entries(tmp_path: Path, mode: str) -> None:
    """SQLAlchemy writes its changelog with the ``changelog`` Sphinx extension: a version is
    ``.. changelog::`` with ``:version:``, dated by ``:released:`` at the release; an entry
    is ``.. change::`` with ``:tags:``, first written as a file of ``unreleased_21/``. The
    entry that removes something is announced the day its file is written and again at the
    release, under the version the directive names; a speed-up whose bullets say "removed
    use of ``groupby()``", a call "no longer called" on the way and a transaction "no longer
    active" in an error message are no news, nor is the title "2.1 Changelog" a version."""
    pending = "doc/build/changelog/unreleased_21/"
    log = "doc/build/changelog/changelog_21.rst"
    written, quiet, released = scan(tmp_path, [
        CommitSpec("init", D[0], files={"lib/sqlalchemy/__init__.py": "", log: SA_LOG}),
        CommitSpec("remove include_columns", D[1], files={f"{pending}13350.rst": SA_REMOVED}),
        CommitSpec("faster loads", D[2], files={
            f"{pending}13363.rst": SA_FASTER, f"{pending}11297.rst": SA_MESSAGE
        }),
        CommitSpec("- 2.1.0b3", D[3], files={
            log: _sa_released(SA_REMOVED, SA_FASTER, SA_MESSAGE),
            f"{pending}13350.rst": None, f"{pending}13363.rst": None, f"{pending}11297.rst": None,
        }),
    ], mode)  # fmt: skip
    words = "Removed the legacy ``include_columns`` key from the dictionary returned by the"
    [item] = written
    assert (item.kind, item.change, item.release) == (
        RadarKind.ANNOUNCED,
        ApiChangeType.REMOVED,
        "",
    )
    assert item.name.startswith(words) and item.path == f"{pending}13350.rst"
    assert quiet == []
    [item] = released
    assert (item.change, item.release, item.path) == (ApiChangeType.REMOVED, "2.1.0b3", log)
    assert item.name.startswith(words)


def test_the_changelog_extension_read_as_versions_and_entries() -> None:
    """Each ``.. changelog::`` is a version section (the title above them all is none); each
    ``.. change::`` one entry, its paragraphs joined (a nested ``.. seealso::`` left out),
    under the heading its tags make."""
    from commitdigest.analysis.radar.changelog import sections

    found = sections(_sa_released(SA_REMOVED, SA_FASTER))
    assert [(s.title, s.version) for s in found] == [("2.1.0b3", "2.1.0b3"), ("2.1.0b2", "2.1.0b2")]
    assert [(e.heading, e.text[:40]) for e in found[0].entries] == [
        ("engine, reflection", "Removed the legacy ``include_columns`` k"),
        ("performance, orm", "Improved performance of :func:`_orm.sele"),
        ("usecase, orm", "Optimized :func:`_orm.selectinload` to s"),
    ]
    assert (
        "seealso" not in found[0].entries[1].text and "change_13363" not in found[0].entries[1].text
    )
    assert "* removed use of ``groupby()``" in found[0].entries[1].text  # (one entry: its list)
    [entry] = found[1].entries
    assert (entry.heading, entry.text) == (
        "change, orm",
        "The ``Session.flush_all()`` method has been removed.",
    )


def test_an_empty_released_option_dates_nothing() -> None:
    """SQLAlchemy's oldest changelogs leave ``:released:`` empty: no date, no release."""
    from commitdigest.analysis.radar.announced import _dated, _stamp
    from commitdigest.analysis.radar.changelog import sections

    log = ".. changelog::\n    :version: 0.5.9\n    :released:\n\n.. changelog::\n"
    log += "    :version: 0.5.8\n    :released: Sat Jan 24 2009\n"
    found = sections(log)
    assert [(s.version, _dated(_stamp(s))) for s in found] == [("0.5.9", False), ("0.5.8", True)]


@pytest.mark.parametrize(
    ("tags", "heading"),
    [("removed, orm", "Removed"), ("deprecated", "Deprecated"), ("bug, sql", "bug, sql"),
     ("regression, orm", "regression, orm"), ("usecase, orm", "usecase, orm")],
)  # fmt: skip
def test_an_entrys_tags_are_its_heading(tags: str, heading: str) -> None:
    from commitdigest.analysis.radar.changelog import tags_heading

    assert tags_heading(tags) == heading


PASTEBIN = """\
The :option:`--pastebin` option is now deprecated.
The same functionality is now available in an external plugin, :pypi:`pytest-pastebin`
-- by :user:`bluetech`.

See :issue:`14434` and :issue:`14460`.
"""


def test_a_news_fragment_announces_on_the_day_it_is_written(tmp_path: Path, mode: str) -> None:
    """towncrier projects (pytest, pip, aiohttp) write each entry as a fragment named for its
    type (``changelog/14434.deprecation.rst``, ``news/12.removal.rst``) and gather them at
    the release: the commit that writes one announces it as a changelog's new entry. A
    fix's "no longer", a docs fragment's "Removed", the folder's README, a fragment that
    links to one that says it already, a fragment renamed, and one re-wrapped or told more
    are no news. towncrier's "removal" type is "Deprecations and Removals" (its words
    decide); a link to a fragment of another type (aiohttp's ``7319.breaking.rst`` ->
    ``7319.feature.rst``) says its target under its own type."""
    written, quiet, rewrapped = scan(tmp_path, [
        CommitSpec("init", D[0], files={"src/pytest/__init__.py": "", "changelog/README.rst": "x"}),
        CommitSpec("deprecate --pastebin", D[1], files={
            "changelog/14434.deprecation.rst": PASTEBIN,
            "news/12.removal.rst": "Remove the ``--legacy`` option.\n",
            "changelog/9.breaking.md": "`Metafunc.parametrize()` arguments are now keyword-only.\n",
            "changelog/10.breaking.md": "9.breaking.md",  # (a link: said by its target)
            "news/13.removal.rst": "Deprecate the ``PIP_CONSTRAINT`` environment variable.\n",
            "CHANGES/7319.feature.rst": "Changed ``WSMessage`` to a tagged union.\n",
            "CHANGES/7319.breaking.rst": "7319.feature.rst",  # (aiohttp's link to it)
        }),
        CommitSpec("fix a crash", D[2], files={
            "changelog/14000.bugfix.rst": "Fixed a crash: the runner no longer crashes on exit.\n",
            "changelog/14001.doc.rst": "Removed the old tutorial.\n",
            "changelog/README.rst": "Removed: fragments are removed at each release.\n",
        }),
        CommitSpec("rewrap, and backport", D[3], renames={
            "news/12.removal.rst": "news/17.removal.rst"
        }, files={
            "changelog/14434.deprecation.rst": PASTEBIN.replace(" is now", "\nis now")
            + "Use ``--paste`` of ``pytest-pastebin``.\n"
        }),
    ], mode)  # fmt: skip
    assert sorted((i.path, i.change, i.breaking, i.release) for i in written) == [
        ("CHANGES/7319.breaking.rst", ApiChangeType.SIGNATURE_CHANGED, True, ""),
        ("changelog/14434.deprecation.rst", ApiChangeType.DEPRECATED, False, ""),
        ("changelog/9.breaking.md", ApiChangeType.SIGNATURE_CHANGED, True, ""),
        ("news/12.removal.rst", ApiChangeType.REMOVED, True, ""),
        ("news/13.removal.rst", ApiChangeType.DEPRECATED, False, ""),
    ]
    [pastebin] = [i for i in written if "pastebin" in i.name]
    assert pastebin.name == (  # (without its credit and the pointers its roles leave)
        "The `--pastebin` option is now deprecated. The same functionality is now available"
        " in an external plugin, `pytest-pastebin`"
    )
    assert quiet == [] and rewrapped == []


@pytest.mark.parametrize(
    ("path", "heading"),
    [("changelog/14434.deprecation.rst", "Deprecated"),
     ("CHANGES/12.breaking.rst", "Breaking changes"),
     ("news/+a1b2.removal.rst", "Deprecations and Removals"),
     ("changelog.d/3.change.md", "Changed"),
     ("CHANGES/12.bugfix", "Fixed"), ("doc/release/upcoming_changes/7.expired.rst", "Removed"),
     ("doc/build/changelog/unreleased_21/13350.rst", ""), ("news/5.trivial.rst", None),
     ("changelog/README.rst", None), ("CHANGES/.TEMPLATE.rst", None),
     ("src/changes/1.removal.py", None), ("docs/12.removal.rst", None)],
)  # fmt: skip
def test_which_files_are_news_fragments(path: str, heading: str | None) -> None:
    from commitdigest.analysis.radar.reads import fragment_heading

    assert fragment_heading(path) == heading


SCIPY_NOTES = """\
==========================
SciPy 1.18.0 Release Notes
==========================

SciPy 1.18.0 is the culmination of 6 months of hard work.

``scipy.fft`` improvements
==========================
- Plans are cached more cheaply.

Deprecated features and future changes
======================================
- The unintentionally public ``scipy.cluster.vq.py_vq`` has been deprecated.

Backwards incompatible changes
==============================
- The deprecated ``atol`` argument of `scipy.optimize.nnls` has been removed.

Pull requests for 1.18.0
========================
* `#24091 <https://github.com/scipy/scipy/pull/24091>`__: MAINT: remove old numpy warning filters
"""


def test_a_versions_own_notes_file_is_a_changelog(tmp_path: Path, mode: str) -> None:
    """scipy, numpy, Django and pandas write one file per version
    (``doc/source/release/1.18.0-notes.rst``, ``docs/releases/5.1.txt``,
    ``whatsnew/v2.2.0.rst``): its entries are announced the day they are written and again
    at the release its tag marks. Its title, over- and underlined, is another heading style
    than its "=" sections, so the whole file is the version's section; the pull requests it
    lists are no entries."""
    notes = "doc/source/release/1.18.0-notes.rst"
    written, released = scan(tmp_path, [
        CommitSpec("init", D[0], files={"scipy/__init__.py": "", notes: SCIPY_NOTES[:180]}),
        CommitSpec("DOC: update the release notes", D[1], files={notes: SCIPY_NOTES}),
        CommitSpec("REL: set version to 1.18.0", D[2], files={"scipy/version.py": "v = 1\n"}),
    ], mode)  # fmt: skip
    assert sorted((i.change, i.breaking, i.release) for i in written) == [
        (ApiChangeType.DEPRECATED, False, ""), (ApiChangeType.REMOVED, True, "")
    ]  # fmt: skip
    assert released == []  # (untagged: a version bump alone releases nothing)
    shas = build_repo(tmp_path / "tagged", [
        CommitSpec("init", D[0], files={"scipy/__init__.py": "", notes: SCIPY_NOTES[:180]}),
        CommitSpec("DOC: update the release notes", D[1], files={notes: SCIPY_NOTES}),
        CommitSpec("REL: set version to 1.18.0", D[2], files={"scipy/version.py": "v = 1\n"}),
    ])  # fmt: skip
    git(tmp_path / "tagged", "tag", "v1.18.0", shas[2])
    found = scan_log(tmp_path / "tagged", f"{shas[0]}..{shas[-1]}", mode)
    assert sorted((i.name[:30], i.release) for i in found[shas[2]]) == [
        ("The deprecated ``atol`` argume", "1.18.0"),
        ("The unintentionally public ``s", "1.18.0"),
    ]


UV_LOG = """\
# Changelog

## 0.12.0

### Breaking changes

- Reject `--project` when initializing a project

## 0.11.1 (2026-01-02)

### Breaking changes

- Remove the `--old` flag
"""


def test_a_series_archived_into_its_own_file_is_no_news(tmp_path: Path, mode: str) -> None:
    """uv moves a finished series out of ``CHANGELOG.md`` into ``changelogs/0.11.x.md`` (a
    version's own notes file): its entries and dated sections were there before, no news
    nor a release; the tag on that commit releases what ``CHANGELOG.md`` keeps."""
    kept = UV_LOG.split("## 0.11.1")[0].replace("## 0.12.0", "## 0.12.0 (2026-02-01)")
    archived = "## 0.11.1 (2026-01-02)\n\n### Breaking changes\n\n- Remove the `--old` flag\n"
    shas = build_repo(tmp_path / "repo", [
        CommitSpec("init", D[0], files={"python/uv/__init__.py": "", "CHANGELOG.md": "# x\n"}),
        CommitSpec("Prepare 0.12.0", D[1], files={"CHANGELOG.md": UV_LOG}),
        CommitSpec("Archive the 0.11.x changelog", D[2], files={
            "CHANGELOG.md": kept, "changelogs/0.11.x.md": archived,
        }),
    ])  # fmt: skip
    git(tmp_path / "repo", "tag", "0.12.0", shas[2])
    found = scan_log(tmp_path / "repo", f"{shas[0]}..{shas[-1]}", mode)
    assert [(i.name, i.release, i.path) for i in found[shas[2]]] == [
        ("Reject `--project` when initializing a project", "0.12.0", "CHANGELOG.md")
    ]


DJANGO_NOTES = """\
========================
Django 5.1 release notes
========================

*Expected August 2024*

Backwards incompatible changes in 5.1
=====================================

* Support for PostgreSQL 12 is removed.

Miscellaneous
-------------

* The minimum supported version of ``asgiref`` is increased to 3.8.1.

Features deprecated in 5.1
==========================

* ``django.utils.itercompat.is_iterable()`` is deprecated.
"""


def test_a_version_notes_file_dated_under_its_title_is_released(tmp_path: Path, mode: str) -> None:
    """Django dates ``docs/releases/5.1.txt`` by the line under its title: "*Expected
    August 2024*" becomes "*August 7, 2024*" on release day, which releases 5.1 (the tag is
    on the stable branch). An entry under "Miscellaneous" inside "Backwards incompatible
    changes in 5.1" is one of those."""
    notes = "docs/releases/5.1.txt"
    written, released = scan(tmp_path, [
        CommitSpec("init", D[0], files={"django/__init__.py": "", notes: "x\n"}),
        CommitSpec("Refs #1 -- Removed PostgreSQL 12 support.", D[1], files={notes: DJANGO_NOTES}),
        CommitSpec("Added release date for 5.1.", D[2], files={
            notes: DJANGO_NOTES.replace("*Expected August 2024*", "*August 7, 2024*")
        }),
    ], mode)  # fmt: skip
    assert all(i.release == "" for i in written) and len(written) == 3
    assert sorted((i.name, i.release) for i in released if i.kind is RadarKind.ANNOUNCED) == [
        ("Support for PostgreSQL 12 is removed.", "5.1"),
        ("The minimum supported version of ``asgiref`` is increased to 3.8.1.", "5.1"),
        ("``django.utils.itercompat.is_iterable()`` is deprecated.", "5.1"),
    ]


@pytest.mark.parametrize(
    ("path", "notes"),
    [("doc/source/release/1.18.0-notes.rst", True), ("docs/releases/5.1.txt", True),
     ("doc/source/whatsnew/v2.2.0.rst", True), ("doc/whats_new/v1.5.rst", True),
     ("docs/source/whatsnew/version8.rst", True), ("changes/version2.md", True),
     ("changes/1234.bugfix.rst", False),
     ("docs/releases/index.txt", False), ("news/1234.removal.rst", False),
     ("src/pkg/release/v1.2.py", False), ("docs/release/1.2.0.json", False)],
)  # fmt: skip
def test_which_files_are_one_versions_notes(path: str, notes: bool) -> None:
    from commitdigest.analysis.classify import is_changelog

    assert is_changelog(path) is notes


TOX_LOG = """\
#################
 Release History
#################

**********************
 v4.57.2 (2026-07-21)
**********************

Bug fixes - 4.57.2
==================

- Fix state corruption in the environment creation machinery:

  - a failed run environment build no longer removes shared package environments;
- Fix dropped support of `-` in pip constraints.
- Restore support for `pkg_resources` namespaces, which was removed in 68.0.
- drop Python 3.5 support

Deprecations and Removals - 4.57.2
==================================

- Deprecate the ``--foo`` option.
- Remove the ``--bar`` option.
- Forbid inheritance from ``ClientSession``.
- The --build-dir option has been restored as a no-op.
- pip no longer supports Python 3.8.
- Document that Python versions are supported until PyPI usage falls below 5%.

Vendored Libraries - 4.57.2
===========================

- Remove vendored ``six``.

Process - 4.57.2
================

- Deprecate support for eggs for Python 3.11 or later.

Performance - 4.57.2
====================

- Faster startup: plugins are no longer imported eagerly.
"""


def test_towncrier_headings_as_projects_name_them() -> None:
    """tox's template repeats the version in each heading ("Bug fixes - 4.57.2"): a fix's
    "no longer" is still a fix's, but dropping support breaks under it (not a fix of a
    dropped support, nor support restored); under pip's "Deprecations and Removals" an
    entry deprecates what it says it deprecates and removes or forbids the rest (not what
    documents or restores); pip's "Vendored Libraries" and "Process" and black's
    "Performance" are no news for users."""
    from commitdigest.analysis.radar.changelog import announces, sections

    [section] = sections(TOX_LOG)
    assert {e.text: announces(e) for e in section.entries} == {
        "Fix state corruption in the environment creation machinery:": None,
        "a failed run environment build no longer removes shared package environments;": None,
        "Fix dropped support of `-` in pip constraints.": None,
        "Restore support for `pkg_resources` namespaces, which was removed in 68.0.": None,
        "drop Python 3.5 support": (None, True),
        "Forbid inheritance from ``ClientSession``.": (None, True),
        "The --build-dir option has been restored as a no-op.": None,
        "Deprecate the ``--foo`` option.": (ApiChangeType.DEPRECATED, False),
        "Remove the ``--bar`` option.": (None, True),
        "pip no longer supports Python 3.8.": (None, True),
        "Document that Python versions are supported until PyPI usage falls below 5%.": None,
        "Remove vendored ``six``.": None,
        "Deprecate support for eggs for Python 3.11 or later.": None,
        "Faster startup: plugins are no longer imported eagerly.": None,
    }


def test_changelog_words_of_how_a_change_works_are_no_break() -> None:
    """A call "no longer called" on the way, a state described in a clause of why or when,
    how a speed-up works (black's "by no longer scanning …") and a warning no longer
    printed are no break; what is no longer supported or accepted,
    a parameter named for warnings and a deprecation warning removed are."""
    log = (
        "## 2.0.0\n\n"
        "- Optimized `load` since `.unique()` is no longer called in that path.\n"
        "- Improved the message, making it clearer why the transaction is no longer active.\n"
        "- Release connections once they are no longer used.\n"
        "- The `noload` option is deprecated: such patterns are no longer applicable.\n"
        "- Improve performance on long calls by no longer scanning the whole line (#5177)\n"
        "- Remove warning for SQL Server dialect when a new version is detected.\n"
        "- `before_first_request` functions are no longer called. Use `setup`.\n"
        "- If you used the old `logs` table it will stay but will no longer be written to.\n"
        "- Handlers registered once are no longer removed.\n"
        "- When `strict` is enabled, `None` is no longer accepted for `int` fields.\n"
        "- Removed warnings attribute from `Result`.\n"
        "- Remove the PytestDeprecationWarning warning.\n"
        "- Remove Warning about missing config.\n"
        "- Skip the cache if it no longer exists.\n"
        "- Since v2 `Client` no longer accepts positional arguments.\n"
        "- Passing `loop` is no longer necessary.\n"
        "- If a file has both, the no longer supported `[pytest]` section is read.\n"
        "- Python 3.9 is no longer supported.\n"
        "- When `strict` is set, `None` is no longer accepted.\n"
        "- When `strict` is on `None` is no longer accepted.\n"
        "- Removed the `warn` parameter.\n"
        "- Removed the deprecation warning of `foo` along with `foo`.\n"
    )
    assert announced(log) == {
        "Optimized `load` since `.unique()` is no longer called in that path.": False,
        "Improved the message, making it clearer why the transaction is no longer active.": False,
        "Release connections once they are no longer used.": False,
        "The `noload` option is deprecated: such patterns are no longer applicable.": True,
        "Improve performance on long calls by no longer scanning the whole line (#5177)": False,
        "Remove warning for SQL Server dialect when a new version is detected.": False,
        "`before_first_request` functions are no longer called. Use `setup`.": True,
        "If you used the old `logs` table it will stay but will no longer be written to.": True,
        "Handlers registered once are no longer removed.": True,
        "When `strict` is enabled, `None` is no longer accepted for `int` fields.": True,
        "Removed warnings attribute from `Result`.": True,
        "Remove the PytestDeprecationWarning warning.": True,
        "Remove Warning about missing config.": False,
        "Skip the cache if it no longer exists.": False,
        "Since v2 `Client` no longer accepts positional arguments.": True,
        "Passing `loop` is no longer necessary.": False,
        "If a file has both, the no longer supported `[pytest]` section is read.": False,
        "Python 3.9 is no longer supported.": True,
        "When `strict` is set, `None` is no longer accepted.": True,
        "When `strict` is on `None` is no longer accepted.": True,  # (its comma left out)
        "Removed the `warn` parameter.": True,
        "Removed the deprecation warning of `foo` along with `foo`.": True,
    }


MYST_CHANGES = """\
# Version 2.1.0

Unreleased

-   Drop support for Python 3.6. {pr}`262`
-   Remove `soft_unicode`, which was previously deprecated. Use
    `soft_str` instead. {pr}`261`
-   Raise error on missing single placeholder during string
    interpolation. {issue}`225`

# Version 2.0.1

Released 2021-05-18

-   Mark top-level names as exported. {issue}`215`
"""


def test_a_myst_role_is_no_code_span_holding_braces() -> None:
    """A MyST role (``{func}`x```) never follows a backtick: the code span ```{version}```
    stays code, and the span after it too."""
    from commitdigest.analysis.radar.changelog import code_spans, plain_text

    entry = "Remove the `{version}` placeholder from the `--template` option. {issue}`9`"
    assert code_spans(entry) == ["{version}", "--template"]
    assert plain_text(entry) == "Remove the `{version}` placeholder from the `--template` option."


def test_a_changelog_rewritten_in_another_format_announces_nothing_new(
    tmp_path: Path, mode: str
) -> None:
    """click's "Move changes to markdown" (4fc0e90e) deleted ``CHANGES.rst`` and wrote the
    same history as ``CHANGES.md`` (MyST: ``{issue}`2355```): 40 entries back to Click 2.0
    read as news. What the deleted changelog said is not news in the new one; an entry it
    did not have still is, and a MyST role reads like a reST one (a reference is no name, a
    ``{func}`` is code)."""
    moved = MYST_CHANGES.replace(
        "-   Raise error", "-   Remove {func}`legacy_escape`. {pr}`270`\n-   Raise error"
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"src/markupsafe/__init__.py": "",
                                        "CHANGES.rst": RST_CHANGES}),
        CommitSpec("Move changes to markdown", D[1], files={"CHANGES.rst": None,
                                                            "CHANGES.md": moved}),
    ], mode)  # fmt: skip
    assert [(i.name, i.symbols) for i in items] == [
        ("Remove `legacy_escape`.", ["markupsafe.legacy_escape"])  # as the docs show it
    ]
    # a copy beside the one kept (docs/changelog.md from CHANGES.rst) is no news either
    [items] = scan(tmp_path / "copied", [
        CommitSpec("init", D[0], files={"src/markupsafe/__init__.py": "",
                                        "CHANGES.rst": RST_CHANGES}),
        CommitSpec("Add the changelog to the docs", D[1], files={"docs/changelog.md": moved}),
    ], mode)  # fmt: skip
    assert [i.name for i in items] == ["Remove `legacy_escape`."]
    # the history's newest version dated already: moving it releases nothing
    dated = RST_CHANGES.replace("Unreleased", "Released 2022-02-17")
    [items] = scan(tmp_path / "dated", [
        CommitSpec("init", D[0], files={"src/markupsafe/__init__.py": "", "CHANGES.rst": dated}),
        CommitSpec("Move changes to markdown", D[1], files={
            "CHANGES.rst": None,
            "CHANGES.md": MYST_CHANGES.replace("Unreleased", "Released 2022-02-17")}),
    ], mode)  # fmt: skip
    assert items == []
    # uvicorn's "Move changelog to release notes" (80c07640): the docs page that included
    # the changelog (``--8<-- "CHANGELOG.md"``) now holds its text, dated sections too; the
    # changelog is deleted, or edited down to a pointer to the new one
    moved_dated = MYST_CHANGES.replace("Unreleased", "Released 2022-02-17")
    for folder, left in (("included", None), ("pointer", "See docs/release-notes.md.\n")):
        [items] = scan(tmp_path / folder, [
            CommitSpec("init", D[0], files={"src/markupsafe/__init__.py": "",
                                            "CHANGES.rst": dated,
                                            "docs/release-notes.md": '--8<-- "CHANGES.rst"\n'}),
            CommitSpec("Move changelog to release notes", D[1], files={
                "CHANGES.rst": left, "docs/release-notes.md": moved_dated}),
        ], mode)  # fmt: skip
        assert items == [], folder
    # aiohttp's "Merge HISTORY into CHANGES": the old history appended to the changelog it
    # kept, and deleted (a hundred entries back to 2016 read as news); an entry the commit
    # writes that neither said is still news
    history = (
        "Version 1.0.0\n-------------\n\nReleased 2016-01-01\n\n-   Drop ``aiohttp.Timeout``.\n"
    )
    new_entry = "-   Remove ``escape_silent``. :pr:`270`\n"
    [items] = scan(tmp_path / "merged", [
        CommitSpec("init", D[0], files={"src/markupsafe/__init__.py": "", "CHANGES.rst": dated,
                                        "HISTORY.rst": history}),
        CommitSpec("Merge HISTORY into CHANGES", D[1], files={
            "HISTORY.rst": None,
            "CHANGES.rst": dated.replace("-   Drop support", new_entry + "-   Drop support")
            + "\n\n" + history}),
    ], mode)  # fmt: skip
    assert [i.name for i in items] == ["Remove ``escape_silent``."]
    # another package's changelog deleted beside it is not its history (a monorepo drops
    # package a the day package b drops Python 3.8 too)
    log_a = "## 1.0.0\n\n- Drop support for Python 3.8.\n"
    [items] = scan(tmp_path / "monorepo", [
        CommitSpec("init", D[0], files={"packages/a/CHANGELOG.md": log_a,
                                        "packages/b/CHANGELOG.md": "## 2.0.0\n\n- Add x.\n"}),
        CommitSpec("drop a, and 3.8 in b", D[1], files={
            "packages/a/CHANGELOG.md": None,
            "packages/b/CHANGELOG.md": "## 2.1.0\n\n- Drop support for Python 3.8.\n\n"
                                       "## 2.0.0\n\n- Add x.\n"}),
    ], mode)  # fmt: skip
    assert [(i.name, i.path) for i in items] == [
        ("Drop support for Python 3.8.", "packages/b/CHANGELOG.md")
    ]


TOWNCRIER_RST = """\
pytest 9.1.0 (2026-06-13)
=========================

Deprecations (removal in next major release)
--------------------------------------------

- `#12882 <https://github.com/pytest-dev/pytest/issues/12882>`_: Calling
  :meth:`request.getfixturevalue() <pytest.FixtureRequest.getfixturevalue>` during teardown
  is now deprecated.


- `#13409 <https://github.com/pytest-dev/pytest/issues/13409>`_: Using
  non-`~collections.abc.Collection` iterables for ``argvalues`` is now deprecated. See
  :ref:`parametrize-iterators`.
"""


CELERY_LOG = """\
.. _version-5.6.0b1:

5.6.0b1
=======

:release-date: 2025-09-15
:release-by: Tomer Nosrati

What's Changed
~~~~~~~~~~~~~~

- Remove importlib_metadata leftovers (#9791)
- Remove incorrect example (#9854)
- Remove Python 3.8 from CI workflow (#9930)
- Remove test-pypy3.txt from Dockerfile dependencies (#9939)
- Remove Python 4.0 version condition for pytest dependencies (#9993)
- Remove usage of utcnow (#8791)
- Removed skipping Redis in t/smoke/tests/test_consumer.py tests (#9118)
- remove flake8plus as not needed anymore (#9610)
- Remove ``make_mocked_coro`` from test utils (#9994)
- Removed the deprecated ``Task.subtask`` alias (#9995)
- Remove the legacy option as it is no longer needed (#9996)
- Limit pymongo<4.7 when Python <= 3.10 due to breaking changes in 4.7 (#8988)
- Limit moto to <5.0.0 until the breaking issues are fixed (#8820)
- Changed the default pool, breaking callers that relied on prefork (#9997)
- Update mongodb without deprecated `[srv]` extra requirement (#9258)
- Deprecate ``Task.subtask`` in favour of ``Task.signature`` (#9998)
- Use the ``proxy`` argument instead of the deprecated ``proxies`` (#9999)
"""


def test_a_list_of_pull_requests_announces_what_users_lose_once(tmp_path: Path, mode: str) -> None:
    """Celery's "Prepare for (pre) release: v5.6.0b1" writes GitHub's list of the pull
    requests into ``Changelog.rst`` and into ``docs/history/changelog-5.6.rst``: their
    titles that remove the project's own leftovers, an example, its own use of something,
    what its CI, Dockerfile, tests or test dependencies hold, or a tool "as not needed" are
    no breaking change, nor are titles that say what breaking changes elsewhere a change is
    made for or held back by ("due to breaking changes in 4.7", "until the breaking issues
    are fixed"), nor one that stops using what others deprecated ("without deprecated
    `[srv]` extra"): fourteen lines, each twice. A removal from the project's test utilities,
    which users import, one of an alias and one of an option, needed or not, a change that
    says what it breaks, and advice to use something "instead of the deprecated" one (httpx
    0.26's ``proxies``) still are, once: the docs copy repeats the changelog."""
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"celery/__init__.py": "", "Changelog.rst": "",
                                        "docs/history/changelog-5.6.rst": ""}),
        CommitSpec("Prepare for (pre) release: v5.6.0b1", D[1], files={
            "Changelog.rst": CELERY_LOG, "docs/history/changelog-5.6.rst": CELERY_LOG}),
    ], mode)  # fmt: skip
    assert sorted((i.name, i.path) for i in items) == [
        (
            "Changed the default pool, breaking callers that relied on prefork (#9997)",
            "Changelog.rst",
        ),
        ("Deprecate ``Task.subtask`` in favour of ``Task.signature`` (#9998)", "Changelog.rst"),
        ("Remove ``make_mocked_coro`` from test utils (#9994)", "Changelog.rst"),
        ("Remove the legacy option as it is no longer needed (#9996)", "Changelog.rst"),
        ("Removed the deprecated ``Task.subtask`` alias (#9995)", "Changelog.rst"),
        (
            "Use the ``proxy`` argument instead of the deprecated ``proxies`` (#9999)",
            "Changelog.rst",
        ),
    ]


def test_what_a_removal_says_of_itself_in_its_own_clause() -> None:
    """A removal of the project's tooling or of what is not needed is read in the
    removal's own clause, and only where what goes is no API (a reviewer's cases: "see the
    migration guide in the docs", "as documented in the docs", an API object "as it is no
    longer needed"); a "breaking" said of a cause stops at its clause ("prevents request
    smuggling and is a breaking change"); what the project replaces because others
    deprecated it deprecates nothing."""
    from commitdigest.analysis.radar.changelog import announces, sections

    said = {
        "Remove Python 3.8 from CI workflow (#9930)": False,
        "Remove `new` adjective in docs (#8743)": False,
        "Remove test-pypy3.txt from Dockerfile dependencies (#9939)": False,
        "Remove Python 4.0 version condition for pytest dependencies (#9993)": False,
        "remove flake8plus as not needed anymore (#9610)": False,
        "Remove the `app` argument; see the migration guide in the docs.": True,
        "Remove the `retry` option from the docs and the API.": True,
        "Removed the `loop_context` helper for tests; use the `aiohttp_client` fixture.": True,
        "Drop support for Python 3.8 in tox and the package metadata.": True,
        "Removed `HTTPClient` in favour of `Client`, as documented in the docs.": True,
        "Remove `Client.close_sync` as it is no longer needed.": True,
        "Strict header parsing now prevents request smuggling and is a breaking change.": True,
        "Limit pymongo<4.7 due to breaking changes in 4.7 (#8988)": False,
        "Replace deprecated `datetime.utcnow()` with `datetime.now(UTC)`.": False,
    }
    log = "1.0\n===\n\nWhat's Changed\n~~~~~~~~~~~~~~\n\n" + "".join(f"- {e}\n" for e in said)
    [section] = sections(log)
    assert {e.text: announces(e) is not None for e in section.entries} == said


def test_a_rest_entry_reads_as_the_docs_show_it(tmp_path: Path, mode: str) -> None:
    """pytest 9.1.0's deprecations: a role's explicit title is shown without its target, a
    ``~`` name by its last part; the target is what downstream code is searched for."""
    [entries] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"src/pytest/__init__.py": "",
                                        "doc/en/changelog.rst": ""}),
        CommitSpec("prepare release 9.1.0", D[1], files={"doc/en/changelog.rst": TOWNCRIER_RST}),
    ], mode)  # fmt: skip
    by_name = {i.name: i for i in entries}
    assert set(by_name) == {
        "#12882: Calling `request.getfixturevalue()` during teardown is now deprecated.",
        "#13409: Using non-`Collection` iterables for ``argvalues`` is now deprecated. See "
        "`parametrize-iterators`.",
    }
    assert all(i.change is ApiChangeType.DEPRECATED and i.release == "9.1.0" for i in entries)
    assert by_name[min(by_name)].symbols == ["pytest.FixtureRequest.getfixturevalue"]


FLASK_APP = """\
import warnings


class Flask:
    @property
    def session_cookie_name(self) -> str:
        warnings.warn(
            "'session_cookie_name' is deprecated and will be removed in Flask 2.3. Use"
            " 'SESSION_COOKIE_NAME' in 'app.config' instead.",
            DeprecationWarning,
        )
        return self.config["SESSION_COOKIE_NAME"]

    def run(self) -> None:
        pass
"""
FLASK_JSON = """\
import warnings


def dumps(obj, *, app=None, **kwargs):
    if app is not None:
        warnings.warn(
            "The 'app' parameter is deprecated and will be removed in"
            " Flask 2.3. Call 'app.json.dumps' directly instead.",
            DeprecationWarning,
        )
    return str(obj)


def loads(s, *, app=None, **kwargs):
    if app is not None:
        warnings.warn(
            "The 'app' parameter is deprecated and will be removed in"
            " Flask 2.3. Call 'app.json.loads' directly instead.",
            DeprecationWarning,
        )
    return s
"""


def test_what_the_project_says_instead_is_said_of_the_item(tmp_path: Path, mode: str) -> None:
    """flask 1ee22e1 removes the ``app`` parameter of ``json.dumps``, ``loads``, …: each
    one's own warning says what to call instead (the module's first message is dumps'), and
    ``Flask.session_cookie_name``'s message in ``app.py`` ("Use 'SESSION_COOKIE_NAME' in
    'app.config' instead"), which every one of them got, is about none of them."""
    after_app = FLASK_APP[: FLASK_APP.index("    @property")] + "    def run(self) -> None:\n"
    after_app += "        pass\n"
    after_json = (
        "import warnings\n\n\ndef dumps(obj, **kwargs):\n    return str(obj)\n\n\n"
        "def loads(s, **kwargs):\n    return s\n"
    )
    app_py, json_py = "src/flask/app.py", "src/flask/json/__init__.py"
    [found] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"src/flask/__init__.py": "", app_py: FLASK_APP,
                                        json_py: FLASK_JSON}),
        CommitSpec("remove deprecated code", D[1], files={app_py: after_app, json_py: after_json}),
    ], mode)  # fmt: skip
    said = {i.name: i.replacement for i in found}
    assert said == {
        "flask.app.Flask.session_cookie_name": "Use 'SESSION_COOKIE_NAME' in 'app.config' instead.",
        "flask.json.dumps(app)": "Call 'app.json.dumps' directly instead.",
        "flask.json.loads(app)": "Call 'app.json.loads' directly instead.",  # not dumps'
    }


def test_a_message_names_an_item_by_its_own_name_only() -> None:
    from commitdigest.analysis.radar.instead import replacement_for

    gone = ApiChange(kind=RadarKind.PYTHON_API, change=ApiChangeType.REMOVED, name="pkg.web.app")
    config = (
        "'session_cookie_name' is deprecated. Use 'SESSION_COOKIE_NAME' in 'app.config' instead."
    )
    assert replacement_for(gone, [config]) == ""  # ``app.config`` names ``config``
    own = "'app' is deprecated and will be removed. Use 'create_app()' instead."
    assert replacement_for(gone, [config, own]) == "Use 'create_app()' instead."
    # a name no sentence uses as a word: what is said of its attribute is said of it
    # (flask 2.2's changelog: extensions had to store data on g, as flask-login then did)
    stack = ApiChange(kind=RadarKind.PYTHON_API, change=ApiChangeType.REMOVED,
                      name="flask._request_ctx_stack")  # fmt: skip
    note = (
        "Extension maintainers, be aware that ``_app_ctx_stack.top`` and "
        "``_request_ctx_stack.top`` are deprecated. Store data on ``g`` instead using a "
        "unique prefix, like ``g._extension_name_attr``."
    )
    assert replacement_for(stack, [], [note]).startswith("Store data on ``g`` instead")
    assert replacement_for(gone, [], ["``app.config`` is deprecated. Use X instead."]) == ""


def test_a_replacement_shows_a_messages_fields_as_what_the_code_fills_in() -> None:
    """litestar's deprecation messages are f-strings: "Use 'HeaderParameter(name={header!r})'
    instead", "Use 'data: {alternative}' instead of …" were the replacements, a conversion
    to a repr in the words. A changelog's words keep their braces (MyST's ``{func}`x```)."""
    from commitdigest.analysis.radar.instead import replacement_for

    header = ApiChange(kind=RadarKind.DEPRECATION, change=ApiChangeType.DEPRECATED,
                       name="pkg.params.ParameterKwarg.__init__(header)")  # fmt: skip
    said = "Deprecated 'header' parameter: Parameter(header={header!r}). Use "
    said += "'HeaderParameter(name={header!r})' instead"
    assert replacement_for(header, [said]) == "Use 'HeaderParameter(name=…)' instead"
    note = "The ``header`` argument is deprecated. Use {func}`HeaderParameter` instead."
    assert replacement_for(header, [], [note]) == "Use {func}`HeaderParameter` instead."


def test_an_item_that_names_no_definition_is_looked_up_nowhere() -> None:
    """``upgrade`` asks for every item's replacement: a changelog's words ("… 2.5.1. …")
    or a flag are no definition, and an empty name once searched a module forever."""
    from commitdigest.analysis.radar.instead import own_first
    from commitdigest.analysis.radar.pylocal import find

    module = "def get(url):\n    return url\n"
    done: list[bool] = []  # (a regression hangs: the search runs on a thread, waited for)
    searching = threading.Thread(
        target=lambda: done.append(find(module, "") is None and find(module, "mod.") is None),
        daemon=True,
    )
    searching.start()
    searching.join(timeout=10)
    assert done == [True]
    for name in ("Upgrade PyTorch to 2.5.1. Users no longer install it.", "--legacy", "A.."):
        item = ApiChange(kind=RadarKind.ANNOUNCED, change=ApiChangeType.REMOVED, name=name,
                         path="mod.py")  # fmt: skip
        said = [f"{name} is gone."]  # (a message that names it: its definition is looked up)
        assert own_first(item, {"mod.py": said}, {"mod.py": module}) == said


def test_a_definitions_own_message_is_found_where_it_is_written() -> None:
    """A method's message, not a same-named function's; a decorator call over lines."""
    from commitdigest.analysis.radar.instead import own_first, said_by_path

    module = (
        "import warnings\n\n\ndef get(url, proxies=None):\n"
        "    warnings.warn(\"'proxies' is deprecated. Use 'mounts' instead.\")\n\n\n"
        "class Client:\n    def get(self, url, proxies=None):\n"
        "        warnings.warn(\"'proxies' is deprecated. Use 'proxy' instead.\")\n\n\n"
        "@deprecated(\n    \"'f' is deprecated. Use 'k' instead.\"\n)\ndef f():\n    pass\n"
    )
    said = said_by_path({"mod.py": module})  # (the module's first message is get's)

    def first(name: str) -> str:
        item = ApiChange(kind=RadarKind.PYTHON_API, change=ApiChangeType.REMOVED, name=name,
                         path="mod.py")  # fmt: skip
        return own_first(item, said, {"mod.py": module})[0]

    assert first("pkg.mod.Client.get(proxies)") == "'proxies' is deprecated. Use 'proxy' instead."
    assert first("pkg.mod.get(proxies)") == "'proxies' is deprecated. Use 'mounts' instead."
    assert first("pkg.mod.f") == "'f' is deprecated. Use 'k' instead."


def test_generics_are_code_and_a_short_name_keeps_its_call() -> None:
    from commitdigest.analysis.radar.changelog import code_spans, shown_text

    assert code_spans("- `Vec<T>` and ``List<int>`` are removed") == ["Vec<T>", "List<int>"]
    assert shown_text("`Vec<T>`, `~pkg.f(1.5)`, `~a.b.C(x.y)`") == "`Vec<T>`, `f(1.5)`, `C(x.y)`"


def test_a_new_entry_like_one_still_there_is_news(tmp_path: Path, mode: str) -> None:
    """An entry compared with the section's entries edited away, not with those that stay:
    "Removed the `--foo` flag" beside "Deprecated the `--foo` flag" is news."""
    old = (
        "# Changelog\n\n## Unreleased\n\n- Deprecated the `--foo` flag of the build command.\n"
        "- Fix crash on startup with Python 3.8 #5\n"
    )
    new = (
        old + "- Removed the `--foo` flag of the build command.\n- Drop support for Python 3.8 #5\n"
    )
    [found] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"src/pkg/__init__.py": "", "CHANGELOG.md": old}),
        CommitSpec("note removals", D[1], files={"CHANGELOG.md": new}),
    ], mode)  # fmt: skip
    assert names(found) == {
        "Removed the `--foo` flag of the build command.",
        "Drop support for Python 3.8 #5",
    }


def test_a_development_tag_is_no_release(tmp_path: Path, mode: str) -> None:
    """pytest merges its release branch, whose head is tagged ``9.2.0.dev0`` (where 9.2
    starts), and the merge dates "pytest 9.1.0 (2026-06-13)": the release is 9.1.0."""
    repo = tmp_path / "repo"
    entry = "- `#1764`_: ``pytest.console_main`` is now deprecated.\n"
    section = "pytest 9.1.0 (2026-06-13)\n=========================\n\n" + entry + "\n"
    head = "Changelog\n=========\n\n"
    old = "pytest 9.0.3 (2026-04-07)\n=========================\n\n- a fix\n"
    shas = build_repo(repo, [
        CommitSpec("init", D[0], files={"src/pytest/__init__.py": "",
                                        "doc/en/changelog.rst": head + old}),
    ])  # fmt: skip
    git(repo, "checkout", "-q", "-b", "cherry-pick-release")
    start = commit(repo, CommitSpec("Prepare release 9.1.0", D[1], files={
        "doc/en/changelog.rst": head + section + old}))  # fmt: skip
    git(repo, "tag", "9.2.0.dev0", start)
    git(repo, "checkout", "-q", "main")
    merged = merge(repo, "cherry-pick-release", "Merge pull request #14590", D[2])
    found = scan_log(repo, f"{shas[0]}..{merged}", mode)
    assert [(i.name, i.release) for i in found[merged] if i.kind is RadarKind.ANNOUNCED] == [
        ("`#1764`_: ``pytest.console_main`` is now deprecated.", "9.1.0")
    ]


def test_a_release_dated_again_is_not_released_again(tmp_path: Path, mode: str) -> None:
    """pydantic's "Prepare release" dates the section, then "Fix CI release job" moves the
    date: one release, announced once (it was announced by both)."""
    head = "# History\n\n"
    section = (
        "## v2.13.0b1 ({date})\n\n### Changes\n\n"
        "* Remove deprecated serialization helpers of nested unions by @dev in #126\n\n"
    )
    old = "## v2.12.5 (2026-01-10)\n\n### Fixes\n\n* Fix a thing by @dev in #100\n"
    items = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "HISTORY.md": head + old}),
        CommitSpec("Prepare release v2.13.0b1", D[1], files={
            "HISTORY.md": head + section.format(date="2026-02-21") + old}),
        CommitSpec("Fix CI release job", D[2], files={
            "HISTORY.md": head + section.format(date="2026-02-23") + old}),
    ], mode)  # fmt: skip
    assert [[(i.name[:26], i.release) for i in commit] for commit in items] == [
        [("Remove deprecated serializ", "2.13.0b1")],
        [],
    ]


def test_an_entry_is_named_by_its_words_not_its_links(tmp_path: Path, mode: str) -> None:
    """pip and pytest link each entry's issue as reStructuredText (`` `#8592 <https://…>`_ ``):
    the item is named "#8592: …", as a Markdown link is named by its text; and what follows
    the issues an entry opens with is read as its lead ("#14: Remove …" was missed)."""
    text = (
        "Changelog\n=========\n\nUnreleased\n----------\n\n"
        "- `#8592 <https://github.com/pytest-dev/pytest/issues/8592>`_: The "
        "``pytest_cmdline_preparse`` hook has been removed.\n"
        "- Drop support for Python 3.9. (`#13795 <https://github.com/pypa/pip/issues/13795>`__)\n"
        "- [#14](https://example.org/14): Remove the `--legacy` flag.\n"
        "- #15: docs: Remove the old tutorial page.\n"  # housekeeping, past its issue
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"src/pytest/__init__.py": "", "CHANGES.rst": ""}),
        CommitSpec("changelog", D[1], files={"CHANGES.rst": text}),
    ], mode)  # fmt: skip
    assert [i.name for i in items] == [
        "#8592: The ``pytest_cmdline_preparse`` hook has been removed.",
        "Drop support for Python 3.9. (#13795)",
        "#14: Remove the `--legacy` flag.",
    ]


def test_a_changelog_fix_that_mentions_removal_is_not_an_announcement(
    tmp_path: Path, mode: str
) -> None:
    text = "# Changelog\n\n## Unreleased\n\n### Fixed\n\n- Fix a crash when a file is removed.\n"
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"CHANGELOG.md": "# Changelog\n"}),
        CommitSpec("fix", D[1], files={"CHANGELOG.md": text}),
    ], mode)  # fmt: skip
    assert items == []


def test_an_entry_reworded_in_place_announces_nothing_new(tmp_path: Path, mode: str) -> None:
    """vllm-ascend 7760996 ("Standardize TorchNPU capitalization") re-worded entries of
    releases long out ("… no longer relies on the dev version of torch-npu …"): its report
    opened with them as breaking news. An entry amended with what else goes is news."""
    old = (
        "# Release notes\n\n## v0.7.3\n\n- Add a fix.\n\n## v0.7.1rc1\n\n"
        "- Upgrade PyTorch to 2.5.1. vLLM Ascend no longer relies on the dev version of "
        "torch-npu now. Users don't need to install the torch-npu by hand. #662\n"
        "- Remove `old_api`.\n"
        "- `DENSE_OPTIMIZE` is removed and `PREFETCH_MLP` is recommend to replace as they "
        "always be enabled together. [#5272](https://github.com/o/r/pull/5272)\n"
    )
    reworded = old.replace("torch-npu", "TorchNPU")
    grammar = reworded.replace(
        "is removed and `PREFETCH_MLP` is recommend to replace as they always be enabled",
        "has been removed. `PREFETCH_MLP` is recommended as a replacement, since they are "
        "always enabled",
    )
    amended = grammar.replace("- Remove `old_api`.", "- Remove `old_api` and `older_api`.")
    spans = amended.replace("`PREFETCH_MLP` is", "`PREFETCH_MLP` (and `FUSED_MLP`) is")
    dropped = spans.replace(
        "- Add a fix.", "- Add a fix.\n- Drop the `--legacy` flag, which no longer works."
    )
    words, fixed, more, other, new = scan(tmp_path, [
        CommitSpec("init", D[0], files={"docs/release_notes.md": old}),
        CommitSpec("TorchNPU capitalization", D[1], files={"docs/release_notes.md": reworded}),
        CommitSpec("grammar", D[2], files={"docs/release_notes.md": grammar}),
        CommitSpec("name one more", D[3], files={"docs/release_notes.md": amended}),
        CommitSpec("name one more, same PR", D[4], files={"docs/release_notes.md": spans}),
        CommitSpec("note a removal", D[5], files={"docs/release_notes.md": dropped}),
    ], mode)  # fmt: skip
    assert words == [] and fixed == []
    assert names(more) == {"Remove `old_api` and `older_api`."}
    assert len(other) == 1 and "(and `FUSED_MLP`)" in other[0].name  # new code: news
    assert names(new) == {"Drop the `--legacy` flag, which no longer works."}


def test_a_changelog_retitled_edited_or_given_titles_announces_nothing_new(
    tmp_path: Path, mode: str
) -> None:
    """Sphinx's ``CHANGES.rst`` (reStructuredText): "Retarget to Sphinx 9.0" retitled
    "Release 8.3.0 (in development)" and changed an entry's "pre-8.3" to "pre-9.0"; a
    later commit cut a sentence off "#13637: Deprecate ``set_application``" while adding
    "#13644"; "Add titles to version-specific changes files" put "Sphinx 1.0" over an old
    file, whose short list items ("Python", "C") came under a new title; "Un-deprecate
    ``import_object``" sits under "Deprecated". Each was announced as news; only the new
    entry is."""
    head = "Release 8.3.0 (in development)\n==============================\n\n"
    old = (
        head + "Incompatible changes\n--------------------\n\n"
        "* #13751: ``sphinx.ext.autodoc`` has been rewritten. The ``legacy`` option\n"
        "  has been added to use the legacy (pre-8.3) implementation of autodoc.\n\n"
        "Deprecated\n----------\n\n"
        "* #13637: Deprecate the ``set_application`` method of ``Parser`` objects.\n"
        "  Sphinx now directly sets the ``config`` and ``env`` attributes.\n"
        "  Patch by Adam Turner.\n"
    )
    retitled = old.replace("Release 8.3.0", "Release 9.0.0").replace("pre-8.3", "pre-9.0")
    cut = retitled.replace(
        "  Sphinx now directly sets the ``config`` and ``env`` attributes.\n",
        "  Patch by Adam Turner.\n"
        "* #13644: Deprecate the ``Parser.config`` and ``env`` attributes.\n",
    )  # (its own "Patch by" line now ends the new entry, as in Sphinx's)
    undeprecated = cut + "* #13083: Un-deprecate ``sphinx.util.import_object``.\n"
    one = (
        "\n\nRelease 1.0.1 (Sep 23, 2010)\n============================\n\n"
        "* #627: Fix tracebacks in autosummary.\n\n\n"
        "Release 1.0 (Jul 23, 2010)\n==========================\n\n"
        "Incompatible changes\n--------------------\n\n"
        "* Support for domains was added. The domains are:\n\n"
        "  - Python\n  - C\n"
    )
    titled = "==========\nSphinx 1.0\n==========\n" + one
    retarget, cutting, undeprecating, titles = scan(tmp_path, [
        CommitSpec("init", D[0], files={"CHANGES.rst": old, "doc/changes/1.0.rst": one}),
        CommitSpec("Retarget to Sphinx 9.0", D[1], files={"CHANGES.rst": retitled}),
        CommitSpec("Deprecate Parser.config", D[2], files={"CHANGES.rst": cut}),
        CommitSpec("Un-deprecate import_object", D[3], files={"CHANGES.rst": undeprecated}),
        CommitSpec("Add titles", D[4], files={"doc/changes/1.0.rst": titled}),
    ], mode)  # fmt: skip
    assert retarget == [] and undeprecating == [] and titles == []
    assert [(i.name, i.change) for i in cutting] == [
        (
            "#13644: Deprecate the ``Parser.config`` and ``env`` attributes. Patch by Adam Turner.",
            ApiChangeType.DEPRECATED,
        )
    ]


def test_a_packages_testing_helpers_are_its_users_but_a_root_testing_folder_is_not(
    tmp_path: Path, mode: str
) -> None:
    """Sphinx 9 deleted ``sphinx/testing/path.py`` (``class path(str)``, which extensions'
    test suites used): nothing was reported, a package's ``testing`` folder being taken
    for tests. Inside a package it is its users' (``numpy.testing`` too); at the root of
    the repository it is the project's own tests (pytest's ``testing/``)."""
    helper = "class path(str):\n    def write_text(self, text):\n        pass\n"
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "pkg/__init__.py": "", "pkg/testing/__init__.py": "", "pkg/testing/path.py": helper,
            "testing/helpers.py": "def helper(a):\n    return a\n",
        }),
        CommitSpec("Remove deprecated API", D[1], files={
            "pkg/testing/path.py": None, "testing/helpers.py": "def helper():\n    return 1\n",
        }),
    ], mode)  # fmt: skip
    assert sorted(i.name for i in items if i.kind is RadarKind.PYTHON_API) == [
        "pkg.testing.path.path"
    ]


def test_a_property_made_a_class_attribute_is_still_there(tmp_path: Path, mode: str) -> None:
    """marshmallow's ``Schema.set_class`` property (``OrderedSet if self.ordered else set``)
    became the class attribute ``set_class = OrderedSet``: ``schema.set_class`` is still
    there, and it was reported removed (a lower-case name assigned in a class body is no
    attribute the reading reports at a changed line, but it is one that is still there).
    A property that goes is still removed, and so is a method whose name is now only a
    keyword argument of a call written over several lines (``name: str = field(`` /
    ``default='x',``), which assigns nothing."""
    config = (
        "\n\n@dataclass\nclass Config:\n"
        "    name: str = field(\n        default='x',\n        repr=False,\n    )\n"
    )
    before = (
        "from dataclasses import dataclass, field\n\n\n"
        "class OrderedSet(set):\n    pass\n\n\n"
        "class Schema:\n    OPTIONS_CLASS = dict\n\n"
        "    def __init__(self, ordered=False):\n        self.ordered = ordered\n\n"
        "    @property\n    def dict_class(self) -> type:\n        return dict\n\n"
        "    @property\n    def set_class(self) -> type:\n"
        "        return OrderedSet if self.ordered else set\n"
        + config
        + "\n    def default(self):\n        return 1\n\n    def strict(self):\n        return 2\n"
    )
    after = (
        "from dataclasses import dataclass, field\n\n\n"
        "class OrderedSet(set):\n    pass\n\n\n"
        "class Schema:\n    OPTIONS_CLASS = dict\n    set_class = OrderedSet\n\n"
        "    def __init__(self, ordered=False):\n        self.ordered = ordered\n"
        + config
        + "    opts = dict(\n        strict=True,\n    )\n"
    )
    [items] = module_items(tmp_path, mode, "pkg/schema.py", [("init", before), ("sets", after)])
    assert sorted((i.name, i.change) for i in items) == [
        ("pkg.schema.Config.default", ApiChangeType.REMOVED),
        ("pkg.schema.Config.strict", ApiChangeType.REMOVED),
        ("pkg.schema.Schema.dict_class", ApiChangeType.REMOVED),
    ]


def test_what_a_fix_under_bugs_fixed_no_longer_does_is_the_bug() -> None:
    """Sphinx heads its fixes "Bugs fixed": "#13926: … no longer result in spurious
    duplicate … warnings" and "Remove incorrect static typing assertions" were announced
    as breaking on the 9.0.0 and 9.1.0 release days. What a fix removes or no longer does
    is the bug, unless it says it breaks; the same words under "Incompatible changes" are
    an announcement."""
    from commitdigest.analysis.radar.changelog import announces, sections

    entries = (
        "* #13926: multiple py:type directives no longer result in spurious warnings.\n"
        "* Remove incorrect static typing assertions.\n"
        "* #1: The ``old`` option no longer works; this is a breaking change.\n"
    )
    log = (
        "Release 9.0.0 (released Nov 30, 2025)\n=====================================\n\n"
        "Bugs fixed\n----------\n\n" + entries + "\n"
        "Release 8.2.0 (released Feb 13, 2025)\n=====================================\n\n"
        "Incompatible changes\n--------------------\n\n" + entries
    )
    fixed, incompatible = sections(log)
    assert [announces(e) for e in fixed.entries] == [None, None, (None, True)]
    assert all(announces(e) is not None for e in incompatible.entries)


TYPING_TABLE = """\
from typing import Any, Dict  # noqa: F401

from pkg.changeset import VersionChange  # NoQA: F401  # for compatibility
from pkg.changeset import Helper
from pkg.changeset import Other  # noqa: F401


def stringify_annotation(annotation: Any) -> str:
    return str(annotation)


OPTIONS = {
    'colour': 'red',
}

# deprecated name -> (object to return, canonical path, removal version)
_DEPRECATED_OBJECTS: dict[str, tuple[Any, str, tuple[int, int]]] = {
    'stringify': (stringify_annotation, 'pkg.typing.stringify_annotation', (8, 0)),
}


def __getattr__(name: str) -> Any:
    if name not in _DEPRECATED_OBJECTS:
        msg = f'module {__name__!r} has no attribute {name!r}'
        raise AttributeError(msg)
    deprecated_object, canonical_name, remove = _DEPRECATED_OBJECTS[name]
    return deprecated_object
"""


def test_a_name_a_getattr_table_or_a_kept_import_gave_goes(tmp_path: Path, mode: str) -> None:
    """Sphinx 8.0 removed ``'stringify': (stringify_annotation, …)`` from the
    ``_DEPRECATED_OBJECTS`` table its module ``__getattr__`` serves, and ``from
    sphinx.domains.changeset import VersionChange  # NoQA: F401  # for compatibility``
    (an import its linter would drop, kept on purpose): both read as nothing, the module
    being read around its changed lines or by its headers. An entry of another table, an
    entry added, a plain import dropped and a kept one moved change nothing."""
    changeset = "class VersionChange:\n    pass\n\n\nclass Helper:\n    pass\n\n\nOther = 1\n"
    entry = "    'stringify': (stringify_annotation, 'pkg.typing.stringify_annotation', (8, 0)),\n"
    table = TYPING_TABLE.replace(entry, "").replace("    'colour': 'red',\n", "")
    imports = (
        table.replace(
            "from pkg.changeset import VersionChange  # NoQA: F401  # for compatibility\n", ""
        )
        .replace("from pkg.changeset import Helper\n", "")
        .replace("from typing import Any, Dict  # noqa: F401\n", "from typing import Any\n")
        .replace(
            "OPTIONS = {",
            "if TYPE_CHECKING:\n    from pkg.changeset import Helper  # noqa: F401\n\nOPTIONS = {",
        )
        .replace("from pkg.changeset import Other  # noqa: F401\n", "")
        .replace(
            "from typing import Any\n",
            "from typing import Any\n\nfrom pkg.changeset import Other  # noqa: F401\n",
        )
    )
    grows = (
        imports.replace("    msg = f", "    assert name\n    msg = f")
        .replace("if TYPE_CHECKING:\n    from pkg.changeset import Helper  # noqa: F401\n\n", "")
        .replace("OPTIONS = {\n", "OPTIONS = {\n    'size': 3,\n")
        .replace(
            "_DEPRECATED_OBJECTS: dict[str, tuple[Any, str, tuple[int, int]]] = {\n",
            "_DEPRECATED_OBJECTS: dict[str, tuple[Any, str, tuple[int, int]]] = {\n" + entry,
        )
    )
    url = (
        "def __getattr__(name):\n"
        '    if name in ("parse_url", "_safe_chars"):\n        return 1\n'
        "    raise AttributeError(name)\n"
    )
    moved = (  # (Scrapy put the names in a set its ``__getattr__`` tests: still served)
        '_NAMES = frozenset({"parse_url", "_safe_chars"})\n\n\n'
        + url.replace('("parse_url", "_safe_chars")', "_NAMES")
    )
    served, kept, added, names_moved = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/changeset.py": changeset,
                                        "pkg/typing.py": TYPING_TABLE, "pkg/url.py": url}),
        CommitSpec("Remove deprecated names", D[1], files={"pkg/typing.py": table}),
        CommitSpec("Remove the aliases", D[2], files={"pkg/typing.py": imports}),
        CommitSpec("A table grows", D[3], files={"pkg/typing.py": grows}),
        CommitSpec("Simplify __getattr__", D[4], files={"pkg/url.py": moved}),
    ], mode)  # fmt: skip
    api = [
        [i.name for i in found if i.kind is RadarKind.PYTHON_API]
        for found in (served, kept, added, names_moved)
    ]
    assert api == [["pkg.typing.stringify"], ["pkg.typing.VersionChange"], [], []]


def test_a_deprecation_made_a_removal_in_place_is_news(tmp_path: Path, mode: str) -> None:
    """An entry that writes less code than it did is an edit (Sphinx's #13637 lost a
    sentence), unless it says another change: "#13751: Deprecate ``Parser.config`` and
    ``Parser.env``" made "#13751: Remove ``Parser.config``." is a removal announced."""
    head = "Release 9.0.0 (in development)\n==============================\n\n"
    old = (
        head + "Deprecated\n----------\n\n"
        "* #13751: Deprecate ``Parser.config`` and ``Parser.env``; use ``app`` instead.\n"
    )
    new = old.replace(
        "Deprecate ``Parser.config`` and ``Parser.env``; use ``app`` instead.",
        "Remove ``Parser.config``.",
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "CHANGES.rst": old}),
        CommitSpec("Remove Parser.config", D[1], files={"CHANGES.rst": new}),
    ], mode)  # fmt: skip
    assert [i.name for i in items] == ["#13751: Remove ``Parser.config``."]


def test_what_undoes_a_deprecation_or_repeats_an_entry_may_still_be_news(
    tmp_path: Path, mode: str
) -> None:
    """An entry that only takes a deprecation back is no deprecation; one that also
    deprecates or removes something is news. A short entry a gone section had is no news
    under a new title; one a section still there has, written under the next version, is."""
    head = "Changelog\n=========\n\n"
    v1 = "Version 1.0.0\n-------------\n\nRemoved\n~~~~~~~\n\n- Remove ``bar``.\n"
    v2 = (
        "Version 2.0.0\n-------------\n\nDeprecated\n~~~~~~~~~~\n\n"
        "- Un-deprecate ``a``.\n- Un-deprecate ``b``; deprecate ``c`` instead.\n\n"
        "Removed\n~~~~~~~\n\n- Remove ``bar``.\n\n"
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "CHANGES.rst": head + v1}),
        CommitSpec("2.0.0 notes", D[1], files={"CHANGES.rst": head + v2 + v1}),
    ], mode)  # fmt: skip
    assert sorted(i.name for i in items) == [
        "Remove ``bar``.",
        "Un-deprecate ``b``; deprecate ``c`` instead.",
    ]
    from commitdigest.analysis.radar.announced import symbols_of

    assert symbols_of("Remove the deprecated ``open()`` function.", ["zarr"]) == ["zarr.open"]


def test_a_breaking_heading_over_a_paragraph_announces_the_paragraph() -> None:
    """xarray v2025.07.0's "Breaking changes" is a paragraph over a table, no list: "The
    minimum versions of some dependencies were changed (…):". Its release day announced
    nothing. The paragraph is the entry; a paragraph that opens a list is not, nor one
    under another heading, nor the table's rows."""
    from commitdigest.analysis.radar.changelog import announces, sections

    text = (
        "What's New\n==========\n\nv2025.07.0 (Jul 3, 2025)\n------------------------\n\n"
        "This release updates minimum dependencies.\n\n"
        "New Features\n~~~~~~~~~~~~\n\nRemoved a limitation of the indexes.\n\n"
        "Breaking changes\n~~~~~~~~~~~~~~~~\n\n"
        "The minimum versions of some dependencies were changed (:issue:`10417`):\n\n"
        ".. list-table::\n   :header-rows: 1\n\n   * - Dependency\n     - Old Version\n"
        "   * - Python\n     - 3.10\n\n"
        "Deprecations\n~~~~~~~~~~~~\n\nThe following are deprecated:\n\n"
        "- ``open_zarr(synchronizer)`` is deprecated.\n"
    )
    [section] = sections(text)
    said = [(e.heading, e.text) for e in section.entries if announces(e) is not None]
    assert said == [
        ("Breaking changes",
         "The minimum versions of some dependencies were changed (:issue:`10417`):"),
        ("Deprecations", "``open_zarr(synchronizer)`` is deprecated."),
    ]  # fmt: skip


# ---- downstream as Python is really written --------------------------------------------------


def _item(
    name: str,
    change: ApiChangeType = ApiChangeType.REMOVED,
    position: int | None = None,
    kind: RadarKind = RadarKind.PYTHON_API,
    symbols: list[str] | None = None,
) -> ApiChange:
    return ApiChange(kind=kind, change=change, name=name, position=position,
                     symbols=symbols or [])  # fmt: skip


def _uses(
    tmp_path: Path,
    files: dict[str, str],
    items: list[ApiChange],
    exports: dict[str, str] | None = None,
) -> dict[str, list[str]]:
    """Each item's downstream uses (``path:line``) in a checkout of ``files``; ``exports``:
    the upstream's public names and where each is defined."""
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    [found] = attach_affects({"x": items}, scan_downstream([tmp_path], items), exports).values()
    return {i.name: [f"{p.path}:{p.line}" for p in i.affects] for i in found}


def test_local_subclasses_across_modules_and_aliases_pass_keywords_on(tmp_path: Path) -> None:
    base = (
        "import httpx\nfrom typing import TYPE_CHECKING\n\n\n"
        "class _DefaultHttpxClient(httpx.Client):\n    def __init__(self, **kwargs):\n"
        "        kwargs.setdefault('timeout', 5)\n        super().__init__(**kwargs)\n\n\n"
        "if TYPE_CHECKING:\n    DefaultHttpxClient = httpx.Client\nelse:\n"
        "    DefaultHttpxClient = _DefaultHttpxClient\n\n\n"
        "class SyncHttpxClientWrapper(DefaultHttpxClient):\n    pass\n"
    )
    client = (
        "from ._base_client import SyncHttpxClientWrapper\n\n\n"
        "def make(proxies, url):\n    return SyncHttpxClientWrapper(\n        base_url=url,\n"
        "        proxies=proxies,\n    )\n\n\ndef fine(url):\n"
        "    return SyncHttpxClientWrapper(base_url=url)\n"
    )
    uses = _uses(tmp_path, {"src/sdk/__init__.py": "", "src/sdk/_base_client.py": base,
                            "src/sdk/_client.py": client},
                 [_item("httpx.Client.__init__(proxies)")])  # fmt: skip
    assert uses == {"httpx.Client.__init__(proxies)": ["src/sdk/_client.py:7"]}


def test_what_a_local_init_takes_itself_does_not_reach_the_upstream_one(tmp_path: Path) -> None:
    """Starlette 1.0 removed ``Starlette(on_startup=…)``; ``FastAPI(on_startup=[…])`` calls
    FastAPI's own ``__init__``, which names ``on_startup`` (and passes it on to its router,
    not to Starlette) and takes ``**extra``: no use of the removed parameter. A keyword it
    does not name still goes on; its positions and what a call leaves out are its own."""
    apps = (
        "from starlette.applications import Starlette\n\n\nclass FastAPI(Starlette):\n"
        "    def __init__(self, debug=False, on_startup=None, **extra):\n"
        "        super().__init__(debug=debug)\n        self.on_startup = on_startup\n\n\n"
        "class Sub(FastAPI):\n    pass\n"
    )
    use = (
        "from app.apps import FastAPI, Sub\n\n"
        "a = FastAPI(on_startup=[print])\nb = Sub(True, None, lifespan=None)\n"
        "c = FastAPI(on_shutdown=[print])\nd = FastAPI()\n"
    )
    items = [
        _item("starlette.applications.Starlette.__init__(on_startup)", position=1),
        _item("starlette.applications.Starlette.__init__(on_shutdown)", position=2),
        _item("starlette.applications.Starlette.__init__(lifespan)", position=3),
        _item("starlette.applications.Starlette.__init__(debug)", ApiChangeType.DEFAULT_CHANGED),
    ]
    files = {"app/__init__.py": "", "app/apps.py": apps, "app/use.py": use}
    uses = _uses(tmp_path, files, items)
    assert uses == {
        "starlette.applications.Starlette.__init__(on_startup)": [],
        "starlette.applications.Starlette.__init__(on_shutdown)": ["app/use.py:5"],
        "starlette.applications.Starlette.__init__(lifespan)": ["app/use.py:4"],
        "starlette.applications.Starlette.__init__(debug)": [],
    }


def test_overrides_self_and_instance_calls_of_a_newly_required_parameter(tmp_path: Path) -> None:
    core = (
        "import typing as t\nimport click\n\n\nclass TyperArgument(click.core.Argument):\n"
        "    def get_usage_pieces(self, ctx):\n        return [self.make_metavar()]\n\n"
        "    def make_metavar(self) -> str:\n        return self.name\n\n\n"
        "class Fine(click.core.Argument):\n    def make_metavar(self, ctx):\n"
        "        return super().make_metavar(ctx)\n"
    )
    panel = (
        "import click\nfrom typing import List, Union\n\n\n"
        "def panel(params: Union[List[click.Option], List[click.Argument]], ctx) -> None:\n"
        "    for param in params:\n        print(param.make_metavar())\n"
        "        print(param.make_metavar(ctx))\n\n\n"
        "def other(things: list) -> None:\n    for t in things:\n        t.make_metavar()\n"
    )
    items = [
        _item("click.core.Argument.make_metavar(ctx)", ApiChangeType.NOW_REQUIRED, 0),
        _item("click.core.Parameter.make_metavar(ctx)", ApiChangeType.NOW_REQUIRED, 0,
              symbols=["click.core.Option.make_metavar(ctx)"]),
    ]  # fmt: skip
    uses = _uses(tmp_path, {"typer/core.py": core, "typer/rich_utils.py": panel}, items)
    assert uses["click.core.Argument.make_metavar(ctx)"] == [
        "typer/core.py:7", "typer/core.py:9", "typer/rich_utils.py:7"]  # fmt: skip
    assert uses["click.core.Parameter.make_metavar(ctx)"] == ["typer/rich_utils.py:7"]


def test_a_removed_method_a_local_subclass_defines_itself_is_not_used_through_it(
    tmp_path: Path,
) -> None:
    """Starlette 1.0 removed ``Starlette.on_event``; FastAPI (``class FastAPI(Starlette)``)
    defines its own ``on_event``: ``app.on_event(...)`` and ``self.on_event(...)`` on it call
    FastAPI's method (98 "affected" lines in fastapi, 14 of them its own docs' ``app =
    FastAPI()``), and so does ``super().on_event()`` in a subclass of FastAPI. A
    ``super().on_event()`` in the override still counts, and so do the calls through a
    subclass that does not define it; the override's own line does not (Starlette never
    called ``on_event`` itself: FastAPI's method still works), unless the removed method is
    a hook Starlette called on its instances, which the override expected to be called."""
    apps = (
        "from starlette.applications import Starlette\n\n\n"
        "class FastAPI(Starlette):\n    def on_event(self, kind):\n"
        "        return super().on_event(kind)\n\n    def setup(self):\n"
        "        self.on_event('startup')\n\n\n"
        "class Plain(Starlette):\n    def setup(self):\n        self.on_event('startup')\n\n\n"
        "class Deeper(FastAPI):\n    def go(self):\n        super().on_event('x')\n"
    )
    docs = (
        "from app.apps import FastAPI, Plain\n\napp = FastAPI()\nother = Plain()\n\n\n"
        "@app.on_event('startup')\ndef start():\n    pass\n\n\n"
        "@other.on_event('startup')\ndef also():\n    pass\n"
    )
    item = _item("starlette.applications.Starlette.on_event")
    uses = _uses(tmp_path, {"app/__init__.py": "", "app/apps.py": apps, "docs/main.py": docs},
                 [item])  # fmt: skip
    assert uses == {item.name: ["app/apps.py:6", "app/apps.py:14", "docs/main.py:12"]}
    hook = replace(item, hook=True)
    assert _uses(tmp_path, {}, [hook]) == {
        hook.name: ["app/apps.py:5", "app/apps.py:6", "app/apps.py:14", "docs/main.py:12"]
    }


def test_an_override_of_a_removed_method_counts_only_where_the_project_called_it(
    tmp_path: Path, mode: str
) -> None:
    """The radar says whether a removed method is a hook: one the project calls on its own
    instances (``self.add_event_handler(...)`` in Starlette's ``Router.on_event``), whose
    overrides stop being called; a decorator users call (``on_event``) is none, and a
    subclass that overrides it keeps a working method of its own. A downstream's override
    is affected by the first only."""
    routing = (
        "class Router:\n    def on_event(self, kind):\n        def deco(func):\n"
        "            self.add_event_handler(kind, func)\n            return func\n"
        "        return deco\n\n    def add_event_handler(self, kind, func):\n"
        "        self.handlers.append((kind, func))\n\n    def keep(self):\n        pass\n"
    )
    [items] = module_items(tmp_path / "up", mode, "pkg/routing.py", [
        ("init", routing), ("Remove on_event and add_event_handler",
                            "class Router:\n    def keep(self):\n        pass\n"),
    ])  # fmt: skip
    assert {i.name: i.hook for i in items} == {
        "pkg.routing.Router.on_event": False,
        "pkg.routing.Router.add_event_handler": True,
    }
    down = tmp_path / "down"
    down.mkdir()
    mine = (
        "from pkg.routing import Router\n\n\nclass APIRouter(Router):\n"
        "    def on_event(self, kind):\n        return kind\n\n"
        "    def add_event_handler(self, kind, func):\n        print(kind)\n"
    )
    assert _uses(down, {"app.py": mine}, items) == {
        "pkg.routing.Router.on_event": [],
        "pkg.routing.Router.add_event_handler": ["app.py:8"],
    }
    # a changelog's "Removed `Router.on_event`" does not say whether the project called it:
    # its overrides still count
    said = ApiChange(
        kind=RadarKind.ANNOUNCED, change=ApiChangeType.REMOVED, name="Remove `Router.on_event`.",
        symbols=["pkg.routing.Router.on_event"],
    )  # fmt: skip
    assert _uses(down, {}, [said]) == {said.name: ["app.py:5"]}


def test_a_changelog_comment_or_docstring_that_names_a_variable_does_not_use_it(
    tmp_path: Path,
) -> None:
    """click 8.1.0 stopped reading ``LANG``: black's checkout "used" it in its CHANGES.md
    ("… when LANG=C used (#2227)") and in a docstring ("Make Click not crash … with
    LANG=C"), neither of which sets or reads it. Code, strings, shell scripts and other
    docs still do; a ``#`` inside a string starts no comment."""
    code = (
        '"""Helpers: run with LANG=C for stable output."""\nimport os\n\n\n'
        "def locale():\n    # read LANG, as click did\n"
        "    return os.environ.get('LANG', 'C')  # LANG or C\n\n\n"
        "def shell():\n    return \"echo '#'; LANG=C run\"\n"
    )
    files = {
        "CHANGES.md": "## 1.2\n\n- Fix a crash when LANG=C is used.\n",
        "src/tool/env.py": code,
        "run.sh": "#!/bin/sh\nLANG=C exec tool\n",
        "docs/usage.md": "Set `LANG=C` before running.\n",
    }
    item = _item("LANG", kind=RadarKind.ENV_VAR)
    uses = _uses(tmp_path, files, [item])
    assert uses == {"LANG": ["docs/usage.md:1", "run.sh:2", "src/tool/env.py:7",
                             "src/tool/env.py:11"]}  # fmt: skip


def test_a_deleted_private_module_affects_a_checkout_that_imports_it(tmp_path: Path) -> None:
    """click 8.1.0 deleted ``click/_unicodefun.py``; black imported it to patch it out: the
    radar's internal item for the module finds the import and the uses, and nothing of a
    module that only shares its prefix (``click._unicodefun_extra``) or another package's
    namesake."""
    black = (
        "def patch_click():\n    try:\n        from click import _unicodefun\n"
        "    except ModuleNotFoundError:\n        return\n"
        "    _unicodefun._verify_python_env = lambda: None\n\n\n"
        "def other():\n    from click import _unicodefun_extra\n\n    return _unicodefun_extra\n"
    )
    mine = "from mylib import _unicodefun\n\n_unicodefun.go()\n"
    item = _item("click._unicodefun")
    uses = _uses(tmp_path, {"src/black/__init__.py": black, "src/black/mine.py": mine}, [item])
    assert uses == {"click._unicodefun": ["src/black/__init__.py:3", "src/black/__init__.py:6"]}


def test_annotations_and_defaults_of_a_signature_use_what_they_name(tmp_path: Path) -> None:
    """click 8.2 deprecated ``BaseCommand``: ``def f(cmd: click.BaseCommand) ->
    Optional[click.BaseCommand]``, a forward reference ``"click.BaseCommand"`` and a default
    ``x=click.BaseCommand`` use it (only a class-level annotation was found); a string
    default that merely names it does not, and a parameter annotated with a string type is an
    instance of it."""
    code = (
        "import click\nfrom typing import Optional\n\n\n"
        "def f(cmd: click.BaseCommand, o: 'click.BaseCommand') -> Optional[click.BaseCommand]:\n"
        "    return None\n\n\n"
        "def g(*a: 'Optional[click.BaseCommand]', x=click.BaseCommand) -> 'click.BaseCommand':\n"
        "    pass\n\n\n"
        "def h(y: str = 'click.BaseCommand is deprecated') -> None:\n    pass\n\n\n"
        "def k(ctx: 'click.Context') -> None:\n    ctx.old_method()\n"
    )
    items = [_item("click.core.BaseCommand", ApiChangeType.DEPRECATED),
             _item("click.Context.old_method")]  # fmt: skip
    uses = _uses(tmp_path, {"m.py": code}, items)
    assert uses == {"click.core.BaseCommand": ["m.py:5", "m.py:9"],
                    "click.Context.old_method": ["m.py:18"]}  # fmt: skip


def test_what_a_with_opens_or_a_constructor_keeps_is_an_instance(tmp_path: Path) -> None:
    """``with httpx.Client() as client: client.stream_raw()`` calls the client's method
    (the ``with`` bound no type: only the constructor's line was found); what a ``with``
    opens through a call of unknown result, or of another package, is no instance of it.
    Nor was a client a constructor is given and keeps (``self._client = client``), nor one
    a local function is annotated to return (not a list of them, nor a coroutine)."""
    code = (
        "import httpx\nimport other\n\n\n"
        "async def go(url):\n    with httpx.Client(timeout=3) as client:\n"
        "        client.stream_raw(url)\n"
        "    async with httpx.AsyncClient() as aclient, other.Client() as oc:\n"
        "        await aclient.stream_raw(url)\n        oc.stream_raw(url)\n"
        "    with client.stream('GET', url) as response:\n        response.stream_raw()\n"
    )
    wrapper = (
        "import httpx\n\n\nclass Api:\n    def __init__(self, client: httpx.Client, n: int):\n"
        "        self._client = client\n        self._n = n\n\n"
        "    def fetch(self, url):\n        return self._client.stream_raw(url)\n"
    )
    factory = (
        "from typing import Optional\n\nimport httpx\n\n\n"
        "def make() -> Optional[httpx.Client]:\n    return httpx.Client()\n\n\n"
        "def many() -> list[httpx.Client]:\n    return []\n\n\n"
        "async def amake() -> httpx.Client:\n    return httpx.Client()\n\n\n"
        "def use():\n    make().stream_raw('u')\n    c = make()\n    c.stream_raw('v')\n"
        "    many().stream_raw('w')\n    amake().stream_raw('x')\n"
    )
    items = [_item("httpx.Client.stream_raw"), _item("httpx.AsyncClient.stream_raw")]
    uses = _uses(tmp_path, {"m.py": code, "api.py": wrapper, "factory.py": factory}, items)
    assert uses == {"httpx.Client.stream_raw": ["api.py:10", "factory.py:19", "factory.py:21",
                                                "m.py:7"],
                    "httpx.AsyncClient.stream_raw": ["m.py:9"]}  # fmt: skip


def test_a_class_method_reached_through_a_local_subclass_is_a_use(tmp_path: Path) -> None:
    """pydantic 2 deprecated ``BaseModel.parse_obj``; ``User.parse_obj(data)`` of a ``class
    User(BaseModel)`` (imported from another module too) calls it, and ``User.__fields__``
    reads the deprecated attribute; a class that defines ``parse_obj`` itself does not, nor
    does a local function's attribute."""
    models = (
        "from pydantic import BaseModel\n\n\nclass User(BaseModel):\n    name: str\n\n\n"
        "class Own(BaseModel):\n    @classmethod\n    def parse_obj(cls, data):\n"
        "        return cls(**data)\n"
    )
    use = (
        "from app import models\nfrom app.models import Own, User\n\n\n"
        "def helper():\n    pass\n\n\n"
        "def load(data):\n    a = User.parse_obj(data)\n    b = models.User.parse_obj(data)\n"
        "    c = Own.parse_obj(data)\n    helper.parse_obj = None\n"
        "    return a, b, c, User.__fields__, User(name='x')\n"
    )
    items = [_item("pydantic.main.BaseModel.parse_obj", ApiChangeType.DEPRECATED),
             _item("pydantic.main.BaseModel.__fields__", ApiChangeType.DEPRECATED),
             _item("pydantic.main.BaseModel.__init__(name)", ApiChangeType.REMOVED)]  # fmt: skip
    files = {"app/__init__.py": "", "app/models.py": models, "app/use.py": use}
    exports = {"pydantic.BaseModel": "pydantic.main.BaseModel"}
    uses = _uses(tmp_path, files, items, exports)
    assert uses == {
        "pydantic.main.BaseModel.parse_obj": ["app/models.py:10", "app/use.py:10",
                                              "app/use.py:11"],
        "pydantic.main.BaseModel.__fields__": ["app/use.py:14"],
        "pydantic.main.BaseModel.__init__(name)": ["app/use.py:14"],
    }  # fmt: skip


def test_a_method_of_an_attribute_the_upstream_class_sets(tmp_path: Path) -> None:
    """click 8.2 made ``ctx`` required in ``ParamType.get_metavar(param, ctx)``; typer's
    ``class TyperArgument(click.core.Argument)`` calls ``self.type.get_metavar(self)``, and
    ``self.type`` is set by click's own ``Parameter.__init__``: a call of the changed method
    (typer's fix changed that line). Not a method of an attribute the class sets itself,
    not a name other objects have too (``copy``), not another package's method."""
    code = (
        "import click\n\n\nclass Helper:\n    def get_metavar(self, param):\n"
        "        return ''\n\n\n"
        "class TyperArgument(click.core.Argument):\n"
        "    def __init__(self, *args, **kwargs):\n"
        "        super().__init__(*args, **kwargs)\n        self.helper = Helper()\n\n"
        "    def metavar(self, ctx):\n        a = self.type.get_metavar(self)\n"
        "        b = self.type.get_metavar(self, ctx)\n"
        "        c = self.helper.get_metavar(self)\n"
        "        return a, b, c, self.type.copy(), self.type.get_rendered(self)\n"
    )
    items = [
        _item("click.types.ParamType.get_metavar(ctx)", ApiChangeType.NOW_REQUIRED, 1),
        _item("click.types.ParamType.copy", ApiChangeType.REMOVED),
        _item("rich.console.Console.get_rendered", ApiChangeType.REMOVED),
    ]
    uses = _uses(tmp_path, {"typer/core.py": code}, items)
    assert uses == {
        "click.types.ParamType.get_metavar(ctx)": ["typer/core.py:15"],
        "click.types.ParamType.copy": [],
        "rich.console.Console.get_rendered": [],
    }


def test_chains_star_imports_and_positions(tmp_path: Path) -> None:
    login = (
        "from flask import _request_ctx_stack, g\n\n\ndef user():\n"
        "    ctx = _request_ctx_stack.top\n    ctx.user = None\n"
        "    return getattr(_request_ctx_stack.top, 'user', None)\n\n\n"
        "def fine():\n    return g.user\n"
    )
    star = "from pkg import *\n\n\ndef go(u):\n    fetch(u, 5, 10)\n    fetch(u, 5)\n    fetch(u)\n"
    items = [
        _item("flask._request_ctx_stack"),
        _item("pkg.api.fetch(retries)", ApiChangeType.REMOVED, position=2),
    ]
    uses = _uses(tmp_path, {"login.py": login, "use.py": star}, items)
    assert uses == {
        "flask._request_ctx_stack": ["login.py:1", "login.py:5", "login.py:6", "login.py:7"],
        "pkg.api.fetch(retries)": ["use.py:5"],  # the only call that passes it (third)
    }


def test_an_announcement_matches_the_code_it_writes(tmp_path: Path) -> None:
    code = (
        "import httpx\n\n\ndef a(p):\n    return httpx.Client(proxies=p)\n\n\n"
        "def b():\n    return httpx.get('u', timeout=3)\n"
    )
    announced = _item("The deprecated `proxies` argument has now been removed.",
                      kind=RadarKind.ANNOUNCED, symbols=["httpx.*(proxies)"])  # fmt: skip
    uses = _uses(tmp_path, {"m.py": code}, [announced])
    assert uses == {announced.name: ["m.py:5"]}


def test_known_exports_match_the_object_never_a_namesake_or_its_module(tmp_path: Path) -> None:
    """``click.Argument`` is ``click.core.Argument``: a deprecated ``click.parser.Argument``
    is another object, and ``flask.app`` (a module) is not every class defined in it."""
    code = (
        "import click\nimport flask\n\n\n"
        "def f(p: click.Argument, ctx):\n    p.make_metavar()\n"
        "    return click.Argument(['x'])\n\n\n"
        "app = flask.Flask(__name__)\n"
    )
    items = [
        _item("click.parser.Argument", ApiChangeType.DEPRECATED),
        _item("click.core.Argument.make_metavar(ctx)", ApiChangeType.NOW_REQUIRED, 0),
        _item("flask.app"),
    ]
    exports = {"click.Argument": "click.core.Argument", "flask.Flask": "flask.app.Flask"}
    (tmp_path / "m.py").write_text(code, encoding="utf-8")
    uses = scan_downstream([tmp_path], items)
    [found] = attach_affects({"x": items}, uses, exports).values()
    lines = {i.name: [p.line for p in i.affects] for i in found}
    assert lines == {
        "click.parser.Argument": [],
        "click.core.Argument.make_metavar(ctx)": [6],
        "flask.app": [],
    }
    # without the package's exports the names are guessed through modules (the daily radar)
    [guessed] = attach_affects({"x": items}, uses).values()
    assert [p.line for p in guessed[0].affects] != []


# ---- what the reader sees first --------------------------------------------------------------


def _day_report(tmp_path: Path, formats: str) -> str:
    """The Markdown report of 2026-03-02 of ``tmp_path/repo`` (in ``tmp_path/out``)."""
    from typer.testing import CliRunner

    from commitdigest.cli import app

    out, home = str(tmp_path / "out"), str(tmp_path / "home")
    made = CliRunner().invoke(app, [
        "report", str(tmp_path / "repo"), "--date", "2026-03-02", "--tz", "UTC", "--lang", "en",
        "--format", formats, "--out", out, "--home", home])  # fmt: skip
    assert made.exit_code == 0, made.stderr
    return (tmp_path / "out" / "2026-03-02.md").read_text(encoding="utf-8")


def test_internal_names_never_fill_the_breaking_section(tmp_path: Path) -> None:

    init = "from pkg.api import run\n"
    gdn = "".join(f"def helper_{n}(x):\n    return x\n\n\n" for n in range(13))
    build_repo(tmp_path / "repo", [
        CommitSpec("init", "2026-03-01T10:00:00+00:00", files={
            "pkg/__init__.py": init, "pkg/api.py": "def run(a, legacy=None):\n    return a\n",
            "pkg/ops/__init__.py": "", "pkg/ops/gdn.py": gdn}),
        CommitSpec("Drop the GDN helpers", "2026-03-02T10:00:00+00:00",
                   files={"pkg/ops/gdn.py": "def other(x):\n    return x\n"}),
        CommitSpec("Drop legacy from run", "2026-03-02T11:00:00+00:00",
                   files={"pkg/api.py": "def run(a):\n    return a\n"}),
    ])  # fmt: skip
    out = tmp_path / "out"
    md = _day_report(tmp_path, "md,html")
    breaking = md.split("### ⚠️ Breaking changes (1)", 1)[1].split("###", 1)[0]
    assert "`pkg.api.run(legacy)`" in breaking
    assert "helper_" not in breaking  # the 13 internal names: one line for their commit
    [line] = [ln for ln in breaking.splitlines() if "internal names" in ln]
    assert "13 internal names removed or changed in pkg.ops.gdn" in line
    section = md.split("### Drop the GDN helpers", 1)[1]  # its own section lists them all
    assert section.count("helper_") == 13
    html = (out / "2026-03-02.html").read_text(encoding="utf-8")
    assert "<details><summary>" in html.split('class="internal"', 1)[1]


def test_the_same_change_of_many_classes_is_one_line(tmp_path: Path) -> None:
    """diffusers' "post release" removed ``enable_vae_slicing`` and three more methods from
    37 pipelines ("copied from" one another): 148 lines of the Breaking section. The same
    change of one member of four classes or more in one commit is one line naming the
    classes; the commit's own section keeps every item, the count counts them all, and
    three classes, another change, or a module's functions stay one line each."""

    def pipe(name: str) -> str:
        return (f"class {name}:\n    def enable_vae_slicing(self):\n        pass\n\n"
                f"    def run(self, prompt, scale=1.0):\n        return prompt\n")  # fmt: skip

    names = ["FluxPipeline", "ChromaPipeline", "AllegroPipeline", "MochiPipeline", "SanaPipeline"]
    init = "".join(f"from .p{n} import {name}\n" for n, name in enumerate(names))
    init += "from .tools import fetch, load, save, send\n"
    files: dict[str, str | None] = {f"pkg/p{n}.py": pipe(name) for n, name in enumerate(names)}
    tools = "".join(
        f"def {f}(x, retries=3):\n    return x\n\n\n" for f in ("fetch", "load", "save", "send")
    )
    build_repo(tmp_path / "repo", [
        CommitSpec("init", "2026-03-01T10:00:00+00:00",
                   files={"pkg/__init__.py": init, "pkg/tools.py": tools, **files}),
        CommitSpec("post release", "2026-03-02T10:00:00+00:00", files={
            **{f"pkg/p{n}.py": pipe(name).replace(
                "    def enable_vae_slicing(self):\n        pass\n\n", "").replace(
                ", scale=1.0", ", scale=2.0" if n < 3 else ", scale=1.0")
               for n, name in enumerate(names)},
            "pkg/tools.py": tools.replace(", retries=3", "")}),
    ])  # fmt: skip
    md = _day_report(tmp_path, "md")
    breaking = md.split("### ⚠️ Breaking changes (12)", 1)[1].split("**🗒️", 1)[0]
    lines = [ln for ln in breaking.splitlines() if ln.startswith("- ")]
    [grouped] = [ln for ln in lines if "enable_vae_slicing" in ln]
    assert "`enable_vae_slicing` — removed" in grouped
    assert "AllegroPipeline, ChromaPipeline, FluxPipeline (+2)" in grouped
    assert sum("scale" in ln for ln in lines) == 3  # three classes: a line each
    assert sum("retries" in ln for ln in lines) == 4  # a module's functions: a line each
    assert len(lines) == 8
    section = md.split("### post release", 1)[1]  # every class, in the commit's section
    assert all(f"{name}.enable_vae_slicing`" in section for name in names)


def test_one_line_for_many_classes_keeps_what_each_item_said() -> None:
    """The line of one change of many classes names classes of the same name by their
    module too, and keeps every item's names and symbols (a downstream's other import of
    one) and whether the project calls the method itself."""
    from commitdigest.render.headline import same_changes

    items = [
        ApiChange(kind=RadarKind.PYTHON_API, change=ApiChangeType.REMOVED, name=name,
                  symbols=symbols, hook=hook)
        for name, symbols, hook in [
            ("pkg.a.Pipeline.run", [], False),
            ("pkg.b.Pipeline.run", ["pkg.Pipeline.run"], False),
            ("pkg.c.Pipeline.run", [], True),
            ("pkg.d.Other.run", [], False),
            ("pkg.d.helper", [], False),
        ]
    ]  # fmt: skip
    [line, helper] = same_changes(items)
    assert (line.name, line.detail) == ("run", "Other, a.Pipeline, b.Pipeline (+1)")
    assert set(line.symbols) == {i.name for i in items[:4]} | {"pkg.Pipeline.run"}
    assert line.hook and helper is items[4]


def test_one_line_for_many_members_of_one_class() -> None:
    """A class gutted by one commit (pytorch-lightning made ``NeptuneLogger`` a stub that
    raises: 17 public members removed) is one line of the headline, ``Cls.*`` with the
    members in its detail; another change of that class, a class with fewer members
    changed and a function stay lines of their own; the count is still every item."""
    from commitdigest.render.headline import MEMBERS_FROM, headline, same_class

    def item(name: str, change: ApiChangeType = ApiChangeType.REMOVED) -> ApiChange:
        return ApiChange(kind=RadarKind.PYTHON_API, change=change, name=name,
                         symbols=[f"alias.{name.rpartition('.')[2]}"])  # fmt: skip

    members = ("experiment", "log_hyperparams", "log_metrics", "save_dir", "name", "version")
    gutted = [f"pkg.loggers.NeptuneLogger.{m}" for m in members]
    few = [f"pkg.loggers.CSVLogger.{m}" for m in ("a", "b", "c", "d")][: MEMBERS_FROM - 1]
    items = [
        item("pkg.helper"),
        *(item(n) for n in gutted),
        item("pkg.loggers.NeptuneLogger.__init__(api_key)", ApiChangeType.SIGNATURE_CHANGED),
        *(item(n) for n in few),
    ]
    lines = same_class(items)
    assert [i.name for i in lines] == [
        "pkg.helper", "pkg.loggers.NeptuneLogger.*",
        "pkg.loggers.NeptuneLogger.__init__(api_key)", *few,
    ]  # fmt: skip
    folded = lines[1]
    assert folded.change is ApiChangeType.REMOVED
    assert folded.detail == "experiment, log_hyperparams, log_metrics (+3)"
    assert set(folded.symbols) >= {*gutted, "alias.log_metrics"}
    found = headline(["c1"], lambda c: items)
    assert len(found.breaking) == len(lines) and found.public_count == len(items)


# ---- deprecations and changelog entries, as the project words them --------------------------

SHIM = """\
import warnings


def __getattr__(name):
    if name in {
        "OptionParser",
        "split_opt",
    }:
        warnings.warn(
            f"'parser.{name}' is deprecated and will be removed in 9.0."
            " The old parser is available in 'optparse'.",
            DeprecationWarning,
            stacklevel=2,
        )
        return globals()[f"_{name}"]

    if name == "split_arg_string":
        warnings.warn(
            "Importing 'parser.split_arg_string' is deprecated, it will only be"
            " available in 'shell_completion' in 9.0.",
            DeprecationWarning,
            stacklevel=2,
        )
        return 1
    raise AttributeError(name)
"""

TLS = """\
import warnings
from typing import Any, Callable, ParamSpec, TypeVar, overload

_P = ParamSpec("_P")
_T = TypeVar("_T")


@overload
def deprecated(use_instead: Callable[_P, _T]) -> Callable[_P, _T]: ...


@overload
def deprecated(
    use_instead: str | None = None,
) -> Callable[[Callable[_P, _T]], Callable[_P, _T]]: ...


def deprecated(use_instead: Any = None) -> Any:
    return use_instead


class ScrapyDeprecationWarning(PendingDeprecationWarning):
    pass


def check_pipeline(method: str) -> None:
    warnings.warn(f"Pipeline lacks a {method}_async() method, this is deprecated.", FutureWarning)


def __getattr__(name: str) -> Any:
    deprecated = {
        "METHOD_TLS": "TLS",
        "METHOD_TLSv12": "TLSv1.2",
    }
    if name in deprecated:
        warnings.warn(f"pkg.tls.{name} is deprecated.", DeprecationWarning, stacklevel=2)
        return deprecated[name]
    raise AttributeError(name)
"""

CLIENT = """\
import warnings


class Client:
    def request(self, method, url, cookies=None):
        if cookies is not None:
            message = (
                "Setting per-request cookies=<...> is being deprecated, because "
                "the expected behaviour is ambiguous. Set cookies on the client instead."
            )
            warnings.warn(message, DeprecationWarning)
        return url

    def check(self, param_type, name):
        return "DeprecationWarning: The {param_type} {name!r} is deprecated.".format(
            param_type=param_type, name=name
        )

    def eval(self, expr, parser=None):
        if parser is not None:
            warnings.warn("The 'parser' argument to Client.eval() is deprecated.", FutureWarning)
        return expr
"""


def test_deprecations_are_named_as_users_reach_them(tmp_path: Path, mode: str) -> None:
    first, second = scan(
        tmp_path,
        [
            CommitSpec("init", "2026-03-01T10:00:00+00:00",
                       files={"pkg/__init__.py": "", "pkg/parser.py": "X = 1\n",
                              "pkg/client.py": "class Client:\n    pass\n",
                              "pkg/tls.py": "METHOD_TLS = 'TLS'\nMETHOD_TLSv12 = 'TLSv1.2'\n"}),
            CommitSpec("Deprecate", "2026-03-02T10:00:00+00:00",
                       files={"pkg/parser.py": SHIM, "pkg/client.py": CLIENT,
                              "pkg/tls.py": TLS}),
            CommitSpec("Reformat the warnings", "2026-03-03T10:00:00+00:00",
                       files={"pkg/parser.py": SHIM.replace("stacklevel=2", "stacklevel=3"),
                              "pkg/client.py": CLIENT.replace(
                                  "DeprecationWarning)", "DeprecationWarning, stacklevel=2)")}),
        ],
        mode,
    )  # fmt: skip
    deprecated = sorted(i.name for i in first if i.kind is RadarKind.DEPRECATION)
    assert deprecated == [
        "pkg.client.Client.eval(parser)",  # (xarray's "The 'parser' argument to
        # Dataset.eval() is deprecated" named ``Dataset.eval``: the method)
        "pkg.client.Client.request(cookies)",
        "pkg.parser.OptionParser",
        "pkg.parser.split_arg_string",
        "pkg.parser.split_opt",
        "pkg.tls.METHOD_TLS",  # (the names of the table ``__getattr__`` looks them up in,
        "pkg.tls.METHOD_TLSv12",  # not "pkg.tls.{name} is deprecated."; and the
        # definition of a decorator named ``deprecated`` deprecates nothing: Scrapy's "_P";
        # nor a warning class's: Sphinx's ``class RemovedInSphinx10Warning(Pending…)``)
        "pkg.tls.check_pipeline",  # (not "_async", the end of ``{method}_async()``)
    ]
    assert second == []  # the same messages reformatted: no news


def test_an_announcements_symbols_are_not_pythons_own_names() -> None:
    """xarray 2026.02.0: "switches to using ``FutureWarning`` everywhere" had the symbols
    ``xarray.FutureWarning`` and ``xarray.DeprecationWarning``, which a downstream
    checkout's every warning filter would match. A parameter of that name is still one."""
    from commitdigest.analysis.radar.announced import symbols_of

    assert (
        symbols_of(
            "xarray switches from ``DeprecationWarning`` to using ``FutureWarning`` everywhere.",
            ["xarray"],
        )
        == []
    )
    assert symbols_of("The ``input`` argument was removed.", ["xarray"]) == ["xarray.*(input)"]


def test_changelog_sentences_and_nested_entries() -> None:
    from commitdigest.analysis.radar.announced import symbols_of
    from commitdigest.analysis.radar.changelog import announces, plain_text, sections

    log = (
        "Version 2.3.0\n-------------\n\n"
        "-   Remove previously deprecated code.\n\n"
        "    -   The ``push`` and ``pop`` methods of the deprecated ``_ctx_stack``\n"
        "        object are removed.\n"
        "-   ``deprecated: bool | str`` can now be used on options.\n"
        "-   Deprecate the ``__version__`` attribute.\n"
    )
    [section] = sections(log)
    texts = [e.text for e in section.entries]
    assert texts == [
        "Remove previously deprecated code.",
        "The ``push`` and ``pop`` methods of the deprecated ``_ctx_stack`` object are removed.",
        "``deprecated: bool | str`` can now be used on options.",
        "Deprecate the ``__version__`` attribute.",
    ]
    said = [announces(e) for e in section.entries]
    assert said[2] is None  # "deprecated" written as code is a name, not the project's word
    assert said[1] is not None and said[3] is not None
    assert plain_text(texts[3]) == "Deprecate the ``__version__`` attribute."
    entry = "``BaseCommand`` is deprecated. ``Command`` is the base class for all commands."
    assert symbols_of(entry, ["click"]) == ["click.BaseCommand"]  # not what to use instead


def test_an_entry_s_values_are_no_symbols() -> None:
    """click 8.2.0: "``Option.flag_value`` will no longer have a default value set based on
    ``default`` … ``False``": ``False`` is no name of the package. A name that is the
    package's own stays one (``tqdm.tqdm``: the package's main class)."""
    from commitdigest.analysis.radar.announced import symbols_of

    entry = "``Option.flag_value`` will no longer be set to ``False`` when ``is_flag`` is set."
    assert symbols_of(entry, ["click"]) == ["click.Option.flag_value", "click.is_flag"]
    assert symbols_of("``tqdm`` no longer accepts ``nested``.", ["tqdm"]) == [
        "tqdm.tqdm",
        "tqdm.nested",
    ]


def test_where_an_entry_s_names_go_from_is_no_symbol() -> None:
    """Starlette 1.0.0rc1: "Remove `iscoroutinefunction_or_partial()` from
    `starlette.routing`": the module is where it went from, and every use of it (each
    ``APIRouter()`` of fastapi, which derives from ``starlette.routing.Router``) was read as
    one of the removed function: 50 lines. The same for a list of places, while a flag or an
    environment variable written after "from" is still what goes, and a first name is what
    the entry is about ("Imports from `starlette.graphql` no longer work")."""
    from commitdigest.analysis.radar.announced import symbols_of

    entry = "Remove `iscoroutinefunction_or_partial()` from `starlette.routing` #3117."
    assert symbols_of(entry, ["starlette"]) == ["starlette.iscoroutinefunction_or_partial"]
    entry = (
        "Removed the ``strict`` parameter/attribute from ``HTTPConnection``, "
        "``HTTPSConnection``, ``HTTPConnectionPool``, and ``HTTPResponse``."
    )
    assert symbols_of(entry, ["urllib3"]) == ["urllib3.*(strict)"]
    entry = "Remove the ``no_etag`` parameter from ``Response.freeze()``."
    assert symbols_of(entry, ["werkzeug"]) == ["werkzeug.*(no_etag)"]
    entry = "Deprecate ``read_timeout`` in ``ClientSession``; see ``ClientTimeout``."
    assert symbols_of(entry, ["aiohttp"]) == ["aiohttp.read_timeout"]
    entry = "The FC1 switch moved to `AscendConfig` from `VLLM_ASCEND_ENABLE_FLASHCOMM1`."
    assert "VLLM_ASCEND_ENABLE_FLASHCOMM1" in symbols_of(entry, ["vllm_ascend"])
    entry = "Imports from `starlette.graphql` no longer work."
    assert symbols_of(entry, ["starlette"]) == ["starlette.graphql"]


def test_a_message_that_says_a_setting_is_gone_announces_it() -> None:
    from commitdigest.analysis.radar.announced import _body_removals

    body = (
        "### What this PR does\n\n"
        "When `rl_config.enabled=true`, defaults apply:\n\n"
        "- removes `expandable_segments` from `PYTORCH_NPU_ALLOC_CONF` and logs it;\n\n"
        "The former top-level `enable_sleep_mode_extra_cleanup` option has also been\n"
        "removed; startup reports a migration error.\n\n"
        "| Setting | Effect |\n| --- | --- |\n"
        "| `x:True` | Only the exact `x:` key is removed |\n\n"
        "Therefore, the `cpu_slotmapping` variable is deleted.\n"
        "Restores `NPUWorker.profile_memory()`, which was accidentally removed.\n"
        "Both tests fail if the `guard` option is removed.\n"
        "- `is_eager` was silently dropped for arguments; now forwarded.\n"
        "- The `color` argument was dropped by the parser; it is now passed on.\n"
    )
    [item] = _body_removals(body, ["vllm_ascend"])
    assert item.name.startswith("The former top-level `enable_sleep_mode_extra_cleanup` option")
    assert (item.change, item.breaking) == (ApiChangeType.REMOVED, True)
    assert item.symbols == ["vllm_ascend.*(enable_sleep_mode_extra_cleanup)"]
    said = [  # a removal told with what is now so: still one
        "The deprecated `legacy_mode` option is now removed.",
        "The `cache` option was removed; caching is now enabled by default.",
        "The `fast` argument has been removed; `mode` is now required.",
    ]
    for sentence in said:
        assert len(_body_removals(sentence, ["vllm_ascend"])) == 1, sentence


def test_parameters_inserted_in_the_middle_are_one_shift_and_positional_calls_found(
    tmp_path: Path, mode: str
) -> None:
    """httpx 0.28.0 put ``cert, trust_env`` back after ``verify``: one item per function
    (the first parameter that moved, and how many shift with it), not one per parameter;
    a caller passing that many arguments by position is found, a keyword caller is not."""
    v1 = (
        "class Transport:\n    def __init__(self, verify=True, http1=True, http2=False,"
        " limits=None, retries=0):\n        pass\n"
    )
    v2 = (
        "class Transport:\n    def __init__(self, verify=True, cert=None, trust_env=True,"
        " http1=True, http2=False, limits=None, retries=0):\n        pass\n"
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"tx/__init__.py": v1}),
        CommitSpec("put cert back", D[1], files={"tx/__init__.py": v2}),
    ], mode)  # fmt: skip
    [shift] = [i for i in items if i.change is ApiChangeType.SIGNATURE_CHANGED]
    assert shift.name == "tx.Transport.__init__(http1)" or shift.name.endswith("(http1)")
    assert shift.detail == "position 2 → 4 (+3)"
    uses = _uses(tmp_path / "down", {
        "app.py": (
            "from tx import Transport\n\n"
            "a = Transport(True, True)\n"  # http1 by position: breaks
            "b = Transport(True, http2=True)\n"  # keywords: fine
        ),
    }, [shift])  # fmt: skip
    assert uses[shift.name] == ["app.py:3"]


# ---- what the radar reads of a commit (the cheaper readings give the same facts) ------------

WRAPPER = """\
from typing import Any


class Wrapper:
    def __call__(
        self,
        input_ids: int,
        positions: int,
        extra: Any = None,
    ) -> int | tuple[int,
                     list[int]]:
        return input_ids

    def run(self, steps: int) -> dict[str,
                                     int]:
        return {}

    def stop(self) -> None:
        pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def lookup(self, key: str) -> Optional[Union[Any, Callable[[], Any]]]:
        return None
"""


def test_a_return_annotation_over_several_lines_is_part_of_the_signature(
    tmp_path: Path, mode: str
) -> None:
    """Reformatting a signature whose return annotation spans lines changes nothing, and
    removing such a method is a removal, however the module is read (whole, as for a
    patch cut to the budget: the header scan once stopped at the first line, giving "now
    required" alarms and missing the removal)."""
    reformatted = (
        WRAPPER.replace("from typing import Any\n", "from typing import Any, Optional\n")
        .replace("tuple[int,\n                     list[int]]:", "tuple[int, list[int]]:")
        .replace("dict[str,\n                                     int]:", "dict[str, int]:")
    )
    without_run = WRAPPER.replace(
        "    def run(self, steps: int) -> dict[str,\n                                     int]:\n"
        "        return {}\n\n",
        "",
    )
    assert without_run != WRAPPER
    reformat, remove = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/core.py": WRAPPER}),
        CommitSpec("style: reformat", D[1], files={"pkg/core.py": reformatted}),
        CommitSpec("back to the old layout", D[2], files={"pkg/core.py": WRAPPER}),
        CommitSpec("drop Wrapper.run", D[3], files={"pkg/core.py": without_run}),
    ], mode)[0::2]  # fmt: skip
    assert [i.name for i in reformat if i.kind is RadarKind.PYTHON_API] == []
    assert [(i.name, i.change) for i in remove if i.kind is RadarKind.PYTHON_API] == [
        ("pkg.core.Wrapper.run", ApiChangeType.REMOVED)
    ]
    from commitdigest.analysis.radar.pyapi import compare, light_api, surface

    # the whole-module reading, as for a module with an export hook
    assert compare(light_api(WRAPPER), light_api(reformatted)) == []
    assert surface(WRAPPER, False) == surface(reformatted, False)
    assert surface(WRAPPER, False) != surface(without_run, False)
    params = light_api(WRAPPER).objects["Wrapper.lookup"].signature()[0]
    assert [p.name for p in params] == ["self", "key"]  # nested brackets, one line


def test_a_class_getattr_is_no_export_hook(
    tmp_path: Path, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A module whose class defines ``__getattr__`` exports what it defines: a commit that
    changes its imports and a signature is read around its lines (no model of the whole
    module), and finds the same."""
    from commitdigest.analysis.radar import python_api

    module = (
        "import os\n\n\nclass Proxy:\n    def __getattr__(self, name):\n"
        "        return getattr(os, name)\n\n    def call(self, name, strict=False):\n"
        "        return name\n"
    )
    changed = module.replace("import os\n", "import os\nimport sys\n").replace(
        ", strict=False)", ")"
    )
    whole: list[str] = []
    real = python_api.api_of
    monkeypatch.setattr(python_api, "api_of", lambda text, *a: whole.append(text) or real(text, *a))
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/proxy.py": module}),
        CommitSpec("call: no strict mode", D[1], files={"pkg/proxy.py": changed}),
    ], mode)  # fmt: skip
    assert [(i.name, i.change) for i in items if i.kind is RadarKind.PYTHON_API] == [
        ("pkg.proxy.Proxy.call(strict)", ApiChangeType.REMOVED)
    ]
    if mode == "patches":
        assert whole == []


def test_a_commit_that_changes_only_comments_reads_no_module(
    tmp_path: Path, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Comments and blank lines cannot change a module's API: a commit that changes only
    those (vllm-ascend edits the 60 KB of comments of ``patch/__init__.py`` a commit a day)
    is not compared, in a package ``__init__`` or a module; a commit that changes a comment
    and a signature still is, and so is a line that only looks like a comment, in a string
    of several lines (a default value's)."""
    from commitdigest.analysis.radar import python_api

    init = "# The patches.\n# ** 1. File: worker/a.py **\n#   Why: ...\n\nfrom .mod import f\n"
    module = "# helpers\n\n\ndef f(a, strict=False):\n    # the check\n    return a\n"
    template = 'def render(text, template="""\n# Title\n"""):\n    return template\n'
    read: list[str] = []  # the versions of a module read (not the lines a commit changes)
    local, surface = python_api.local_breakages, python_api.surface
    monkeypatch.setattr(
        python_api,
        "surface",
        lambda t, *a: (read.append(t) if t.endswith("\n") else None) or surface(t, *a),
    )
    monkeypatch.setattr(python_api, "local_breakages", lambda b, *a: read.append(b) or local(b, *a))
    comments, both, string = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "pkg/__init__.py": init, "pkg/mod.py": module, "pkg/tmpl/__init__.py": template,
        }),
        CommitSpec("docs: the patches", D[1], files={
            "pkg/__init__.py": init.replace("#   Why: ...\n", "#   Why: ...\n#   How: ...\n#\n"),
            "pkg/mod.py": module.replace("# the check", "# the check, once").replace(
                "# helpers\n", "# helpers\n  # (indented)\n"),
        }),
        CommitSpec("f: no strict mode", D[2], files={
            "pkg/mod.py": module.replace("# helpers", "# the helpers").replace(
                ", strict=False)", ")"),
        }),
        CommitSpec("a heading", D[3], files={
            "pkg/tmpl/__init__.py": template.replace("# Title", "# Heading"),
        }),
    ], mode)  # fmt: skip
    assert comments == []
    assert [(i.name, i.change) for i in both if i.kind is RadarKind.PYTHON_API] == [
        ("pkg.mod.f(strict)", ApiChangeType.REMOVED)
    ]
    assert [(i.name, i.change) for i in string if i.kind is RadarKind.PYTHON_API] == [
        ("pkg.tmpl.render(template)", ApiChangeType.DEFAULT_CHANGED)
    ]
    if mode == "patches":  # (a cut patch's changed lines are not known: it is read)
        second = module.replace("# the check", "# the check, once").replace(
            "# helpers\n", "# helpers\n  # (indented)\n"
        )  # the modules of the last two commits, each read once around its changed lines
        assert sorted(read) == sorted([second, template])  # (not the first's two)


def test_the_variables_a_commit_stops_reading_are_searched_for_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One search of the repository per commit for every variable its files stop reading
    (each search reads the tree's files); one still read elsewhere stays."""
    from commitdigest.sources.blobs import BlobReader

    reader = 'import os\nA = os.getenv("PKG_A")\nB = os.getenv("PKG_B")\nC = os.getenv("PKG_C")\n'
    searches: list[list[str]] = []
    real = BlobReader.having
    monkeypatch.setattr(
        BlobReader,
        "having",
        lambda self, rev, words, *a: searches.append(list(words)) or real(self, rev, words, *a),
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/a.py": reader,
                                        "pkg/b.py": 'import os\nB = os.environ["PKG_B"]\n'}),
        CommitSpec("no more settings", D[1], files={"pkg/a.py": "A = B = C = None\n"}),
    ], "patches")  # fmt: skip
    assert sorted(i.name for i in items if i.kind is RadarKind.ENV_VAR) == ["PKG_A", "PKG_C"]
    assert searches == [["PKG_A", "PKG_B", "PKG_C"]]


_LOG_LINES = [
    "## 1.2.0", "## Unreleased", "# Changelog", "Version 2.0", "Title", "-----", "=====",
    "```", "~~~", "- Remove `x`.", "  continued", "", "### Removed", "**Breaking**:",
    "text", "#### 0.9 (2024-01-02)", "* item", "---", ".. changelog::", "    :version: 2.1.0",
    ".. change::", "    :tags: removed",
]  # fmt: skip


@example(  # an overline edited alone: the title under it changes style
    before=["Intro", "", "=====", "Title", "=====", "", "- Remove `x`."],
    new=["text"],
    cut=(2, 1),
    ends=(True, True),
    odd="",
)
@example(  # a directive's version line edited alone
    before=[".. changelog::", "    :version: 2.1.0", "", ".. change::", "    :tags: removed"],
    new=["text"],
    cut=(1, 1),
    ends=(True, True),
    odd="",
)
@given(
    before=st.lists(st.sampled_from(_LOG_LINES), max_size=30),
    new=st.lists(st.sampled_from(_LOG_LINES), max_size=6),
    cut=st.tuples(st.integers(0, 30), st.integers(0, 6)),
    ends=st.tuples(st.booleans(), st.booleans()),
    odd=st.sampled_from(["", "", "", "\x0b", "\r\n", "\u2028"]),
)
@settings(max_examples=400, deadline=None)
def test_a_changelog_edit_is_read_around_its_lines_as_a_whole_reading_would(
    before: list[str], new: list[str], cut: tuple[int, int], ends: tuple[bool, bool], odd: str
) -> None:
    """A commit's edit of a changelog is read from its changed lines and the reading of the
    text before (headings that depend on the lines above or below included — an rst title,
    overlined or not, a ``.. changelog::`` directive —, rst levels by first use); where it
    cannot be, the whole text is read. Either way: what a whole reading gives."""
    import difflib

    from commitdigest.analysis.radar import changelog

    start = min(cut[0], len(before))
    after_lines = before[:start] + new + before[start + cut[1] :]
    if odd and new:
        after_lines[start] += odd + "x"  # another line break in the new lines
    old_text = "\n".join(before) + ("\n" if ends[0] and before else "")
    new_text = "\n".join(after_lines) + ("\n" if ends[1] and after_lines else "")

    def git_lines(text: str) -> list[str]:  # as git numbers them: "\n"-terminated
        return text.splitlines(keepends=True) if "\n" in text else ([text] if text else [])

    hide = odd or "\n"  # the odd break is no line break to git: compare without it
    a = git_lines(old_text.replace(hide, "\x00" if odd else "\n"))
    b = git_lines(new_text.replace(hide, "\x00" if odd else "\n"))
    removed: set[int] = set()
    added: set[int] = set()
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op != "equal":
            removed.update(range(i1 + 1, i2 + 1))
            added.update(range(j1 + 1, j2 + 1))
    old = changelog._read(old_text)
    derived = changelog._edited(old, old_text, new_text, (frozenset(removed), frozenset(added)))
    whole = changelog._read(new_text)
    if derived is not None:
        assert (derived.lines, derived.heads, derived.found) == (
            whole.lines, whole.heads, whole.found
        )  # fmt: skip
    elif not odd and old_text != new_text:
        assert not old.local  # only a text git and Python split differently is read whole
    assert [(s.title, s.line, s.end) for s in changelog.sections(new_text)] == [
        (s.title, s.line, s.end) for s in changelog._sections_of(whole)
    ]


def module_items(
    tmp_path: Path,
    mode: str,
    path: str,
    versions: list[tuple[str, str]],
    kind: RadarKind | None = RadarKind.PYTHON_API,
) -> list[list[ApiChange]]:
    """The items of ``kind`` (None: of every kind) of each commit after the first, for
    ``versions`` (title, text) of one module of the package ``pkg``."""
    first_title, first_text = versions[0]
    specs = [CommitSpec(first_title, D[0], files={"pkg/__init__.py": "", path: first_text})]
    specs += [CommitSpec(t, D[k], files={path: text}) for k, (t, text) in enumerate(versions) if k]
    found = scan(tmp_path, specs, mode)
    return [[i for i in items if kind is None or i.kind is kind] for items in found]


RUNNER = """\
import torch


class Runner:
    quant_stream: torch.Stream | None = None

    def execute(
        self,
        tokens: list[int],
        limit: int = 8,
    ) -> list[int]:
        start_idx: int = 0
        ids = {
            k:
            v
            for k, v in self.items()
        }

        def helper(x):
            return x

        self.out[0,
                 start_idx:limit] = tokens
        return [helper(t) for t in tokens if t in ids]
"""


def test_body_lines_of_a_method_with_a_signature_over_lines_are_no_class_names(
    tmp_path: Path, mode: str
) -> None:
    """In a method whose signature closes on its own line (``) -> list[int]:``, as ruff and
    black write it), an annotated local, a dict's ``k:`` line, a slice on a continuation
    line and a nested function are the method's, not the class's: removing them is
    silent. Removing the class attribute is a removal."""
    locals_gone = (
        RUNNER.replace("        start_idx: int = 0\n", "        start_idx = 0\n")
        .replace("            k:\n            v\n", "            k: v\n")
        .replace("        def helper(x):\n            return x\n\n", "")
        .replace("[helper(t) for t", "[t for t")
        .replace("[0,\n                 start_idx:limit]", "[0, start_idx:limit]")
    )
    assert locals_gone.count("\n") == RUNNER.count("\n") - 5
    field_gone = locals_gone.replace("    quant_stream: torch.Stream | None = None\n\n", "")
    quiet, removed = module_items(tmp_path, mode, "pkg/runner.py", [
        ("init", RUNNER), ("style: simplify execute", locals_gone),
        ("drop the quant stream", field_gone),
    ])  # fmt: skip
    assert quiet == []
    assert [(i.name, i.change) for i in removed] == [
        ("pkg.runner.Runner.quant_stream", ApiChangeType.REMOVED)
    ]


def test_line_endings_changed_are_no_change(tmp_path: Path, mode: str) -> None:
    """A module converted from CRLF to LF (or back) changes no name; in a CRLF module a
    removed method is named with its class (a blank CRLF line is no module-level
    statement)."""
    crlf = ADAPTOR.replace("\n", "\r\n")
    gone = crlf.replace(
        "    @classmethod\r\n    def only_here(cls, key):\r\n        return key\r\n", ""
    )
    assert gone != crlf
    to_lf, to_crlf, removed = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/adaptor.py": crlf}),
        CommitSpec("LF line endings", D[1], files={"pkg/adaptor.py": ADAPTOR}),
        CommitSpec("CRLF line endings", D[2], files={"pkg/adaptor.py": crlf}),
        CommitSpec("drop only_here", D[3], files={"pkg/adaptor.py": gone}),
    ], mode)  # fmt: skip
    assert [i.name for i in to_lf + to_crlf if i.kind is RadarKind.PYTHON_API] == []
    assert [(i.name, i.change) for i in removed if i.kind is RadarKind.PYTHON_API] == [
        ("pkg.adaptor.A5DeviceAdaptor.only_here", ApiChangeType.REMOVED)
    ]


def test_a_name_defined_in_a_module_level_if_or_try_block_is_the_modules(
    tmp_path: Path, mode: str
) -> None:
    """A module-level name that moves into ``if sys.platform == ...: / else:`` (or a
    ``try: / except ImportError:``) is still the module's: silent. Removing both branches
    is a removal; so is moving it under ``if TYPE_CHECKING:`` (gone at run time)."""
    top = 'import sys\nimport typing as t\n\nMode: t.TypeAlias = t.Literal["sys", "fd"]\n'
    branches = (
        'import sys\nimport typing as t\n\nif sys.platform == "win32":\n'
        '    Mode: t.TypeAlias = t.Literal["sys"]\nelse:\n'
        '    Mode: t.TypeAlias = t.Literal["sys", "fd"]\n'
        "try:\n    FAST: bool = True\nexcept ImportError:\n    FAST: bool = False\n"
    )
    gone = branches.split("if sys")[0] + "try:" + branches.split("try:")[1]
    other = "Other: t.TypeAlias = int\n"
    typing_only = gone + "\nif t.TYPE_CHECKING:\n    " + other
    moved, removed, _, hidden = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/io.py": top + other}),
        CommitSpec("per platform", D[1], files={"pkg/io.py": branches + other}),
        CommitSpec("no more modes", D[2], files={"pkg/io.py": gone + other}),
        CommitSpec("tidy", D[3], files={"pkg/io.py": gone + "\n" + other}),
        CommitSpec("Other for type checkers only", D[4], files={"pkg/io.py": typing_only}),
    ], mode)  # fmt: skip
    api = RadarKind.PYTHON_API
    assert [i.name for i in moved if i.kind is api] == []
    assert [(i.name, i.change) for i in removed if i.kind is api] == [
        ("pkg.io.Mode", ApiChangeType.REMOVED)
    ]
    assert [(i.name, i.change) for i in hidden if i.kind is api] == [
        ("pkg.io.Other", ApiChangeType.REMOVED)
    ]


def test_type_arguments_of_a_base_are_no_change_of_bases(tmp_path: Path, mode: str) -> None:
    """Writing a base's type arguments (``ParamType`` -> ``ParamType[str]``) or folding
    ``Generic[T]`` into a generic base changes no class users derive from; dropping a mixin
    does."""
    old = (
        "import typing as t\n\nT = t.TypeVar('T')\n\n\nclass ParamType(t.Generic[T]):\n"
        "    pass\n\n\nclass Mixin:\n    pass\n\n\nclass Choice(ParamType, t.Generic[T]):\n"
        "    pass\n\n\nclass DateTime(ParamType):\n    pass\n\n\nclass Path(ParamType, Mixin):\n"
        "    pass\n"
    )
    typed = (
        old.replace("class Choice(ParamType, t.Generic[T]):", "class Choice(ParamType[T]):")
        .replace("class DateTime(ParamType):", "class DateTime(ParamType[str]):")
        .replace("class Path(ParamType, Mixin):", "class Path(ParamType[str], Mixin):")
    )
    no_mixin = typed.replace("class Path(ParamType[str], Mixin):", "class Path(ParamType[str]):")
    quiet, dropped = module_items(tmp_path, mode, "pkg/types.py", [
        ("init", old), ("typing: ParamType is generic", typed), ("Path is no Mixin", no_mixin),
    ])  # fmt: skip
    assert quiet == []
    assert [(i.name, i.detail) for i in dropped] == [
        ("pkg.types.Path", "bases (ParamType[str], Mixin) → (ParamType[str])")
    ]


def announced(log: str) -> dict[str, bool]:
    """Whether each entry of a one-version changelog announces something."""
    from commitdigest.analysis.radar.changelog import announces, sections

    [section] = sections(log)
    return {e.text: announces(e) is not None for e in section.entries}


def test_features_inside_a_breaking_section_are_not_breaks() -> None:
    """fastapi 0.137.0's "Breaking Changes" holds its one break and then "Features" and
    "Future Features Enabled": "Middleware per router" and "Adding routes … now works" read
    as breaks. A heading of what is new (or fixed) after a breaking section's own entries
    is its own; "Miscellaneous" inside one is still a break (Django's)."""
    log = (
        "## 0.137.0 (2026-06-14)\n\n### Breaking Changes\n\n"
        "* Refactor internals to preserve `APIRouter` and `APIRoute` instances.\n\n"
        "#### Features\n\n* Adding routes after a router is included now works.\n\n"
        "#### Future Features Enabled\n\n* Dependencies per router\n* Middleware per router\n\n"
        "#### Bug fixes\n\n* Fix a crash when a router is empty.\n\n"
        "#### Miscellaneous\n\n* The `routes` attribute is now a tree.\n"
    )
    assert announced(log) == {
        "Refactor internals to preserve `APIRouter` and `APIRoute` instances.": True,
        "Adding routes after a router is included now works.": False,
        "Dependencies per router": False,
        "Middleware per router": False,
        "Fix a crash when a router is empty.": False,
        "The `routes` attribute is now a tree.": True,
    }
    # a project that sorts its breaking changes by kind has no entries of its own above
    # them: they all break; and what a Removed section holds is removed
    sorted_log = (
        "## 2.0.0 (2026-06-14)\n\n### Breaking Changes\n\n"
        "#### Features\n\n* `connect()` now requires the `host` argument.\n\n"
        "#### Bug fixes\n\n* `parse()` now raises `ValueError` instead of returning `None`.\n\n"
        "### Removed\n\n* Dropped the legacy client.\n\n#### Features\n\n* `Client.get_json`\n"
    )
    assert announced(sorted_log) == {
        "`connect()` now requires the `host` argument.": True,
        "`parse()` now raises `ValueError` instead of returning `None`.": True,
        "Dropped the legacy client.": True,
        "`Client.get_json`": True,
    }


def test_changelog_words_that_only_look_like_a_break() -> None:
    """ "end-to-end support" ends no support, a deprecation warning a change avoids is no
    deprecation, and an entry under Docs, Translations or Tests announces nothing users act
    on, whatever its words; under Internal (fastapi drops a package there) or Breaking
    Changes it does."""
    log = (
        "## 2.0.0\n\n### Features\n\n"
        "- Added end-to-end support for DeepSeek-V4.\n"
        "- We end support for Python 3.8.\n\n"
        "### Docs\n\n- Update links to no longer use the external-link class.\n\n"
        "### Internal\n\n- Add a test dependency to avoid a deprecation warning.\n"
        "- Drop support for `pkg-slim`, use `pkg` instead.\n\n"
        "### Breaking Changes\n\n- Docs: the `/docs` route is no longer served.\n"
    )
    assert announced(log) == {
        "Added end-to-end support for DeepSeek-V4.": False,
        "We end support for Python 3.8.": True,
        "Update links to no longer use the external-link class.": False,
        "Add a test dependency to avoid a deprecation warning.": False,
        "Drop support for `pkg-slim`, use `pkg` instead.": True,
        "Docs: the `/docs` route is no longer served.": True,
    }


def test_what_a_fix_no_longer_does_is_the_bug_not_a_break() -> None:
    """click's changelog, under no Fixed heading: "no longer silently drop", "no longer
    gets replaced by", "no longer triggers a warning" say what a fix stops doing; "is no
    longer supported", "no longer accepts", "is no longer installed", and what a thing no
    longer does that users may rely on ("renders raw HTML", "closes the transport") still
    break."""
    log = (
        "## Version 8.4.0\n\nUnreleased\n\n"
        "- `style()` no longer silently drops the color index `0`.\n"
        "- An error raised while paging no longer gets replaced by `PermissionError`.\n"
        "- `Path` no longer triggers a `BytesWarning` under `python -bb`.\n"
        "- Python 3.9 is no longer supported.\n"
        "- `Option` no longer accepts a string for `type`.\n"
        "- `colorama` is no longer installed automatically.\n"
        "- `Markdown()` no longer renders raw HTML by default.\n"
        "- `Client` no longer closes the transport it was given.\n"
    )
    assert announced(log) == {
        "`style()` no longer silently drops the color index `0`.": False,
        "An error raised while paging no longer gets replaced by `PermissionError`.": False,
        "`Path` no longer triggers a `BytesWarning` under `python -bb`.": False,
        "Python 3.9 is no longer supported.": True,
        "`Option` no longer accepts a string for `type`.": True,
        "`colorama` is no longer installed automatically.": True,
        "`Markdown()` no longer renders raw HTML by default.": True,  # what it did is used
        "`Client` no longer closes the transport it was given.": True,
    }


def test_a_fix_of_something_breaking_and_a_tidied_output_are_no_break() -> None:
    """rich 13.8.0: "Fixed control codes breaking in `append_tokens`" (under Fixed) read as
    a fix that says it breaks, and "Removed the empty line printed in jupyter while using
    `Progress`" (under Changed) as a removal; both are fixes of output. A fix that says it
    is breaking, and a removal of something users have (even an unused argument), still
    announce."""
    log = (
        "## [13.8.0] - 2024-08-26\n\n### Fixed\n\n"
        "- Fixed control codes breaking in `append_tokens`\n"
        "- Fixed `Table` footers (breaking: the footer style changed)\n"
        "- Fixed `Console` breaking pickling\n"
        "- Fix a breaking change introduced in 2.1\n\n"
        "### Changed\n\n"
        "- Removed the empty line printed in jupyter while using `Progress`\n"
        "- Removed redundant checks in `Console.print`\n"
        "- Removed the unused `legacy` argument of `Progress`\n"
        "- Remove previously deprecated code.\n"
        "- Removed unused arguments from `Client.__init__`\n"
        "- Drop redundant support for Python 3.7\n"
        "- Removed unused imports\n"
        "- Removed redundant checks.\n"
        "- Removed two redundant checks in `Console.print`.\n"
        "- Removed unused private methods from `Console`.\n"
        "- Fixed cookie parsing; this is a breaking change in behaviour for some callers.\n"
        "- Fixed the default timeout (non-breaking).\n"
    )
    assert announced(log) == {
        "Fixed control codes breaking in `append_tokens`": False,
        "Removed the empty line printed in jupyter while using `Progress`": False,
        "Removed redundant checks in `Console.print`": False,
        "Fixed `Table` footers (breaking: the footer style changed)": True,
        "Fixed `Console` breaking pickling": False,
        "Fix a breaking change introduced in 2.1": False,  # a regression fixed
        "Removed the unused `legacy` argument of `Progress`": True,
        "Remove previously deprecated code.": True,
        "Removed unused arguments from `Client.__init__`": True,  # arguments: API
        "Drop redundant support for Python 3.7": True,
        "Removed unused imports": False,
        "Removed redundant checks.": False,  # (its full stop is no name)
        "Removed two redundant checks in `Console.print`.": False,
        "Removed unused private methods from `Console`.": False,
        "Fixed cookie parsing; this is a breaking change in behaviour for some callers.": True,
        "Fixed the default timeout (non-breaking).": False,
    }


def test_a_formatters_removal_of_layout_from_its_users_code_announces_nothing() -> None:
    """black 25.1.0 stabilised "Remove parentheses around sole list items (#4312)": what the
    formatter now takes out of its users' code, read as a removal of black's. Punctuation
    and space taken away are no API; a removal of something users pass, named so or
    written as code, still announces."""
    log = (
        "## 25.1.0\n\n### Highlights\n\n"
        "- Remove parentheses around sole list items (#4312)\n"
        "- Remove blank lines before class docstrings (#9)\n"
        "- Removed redundant parentheses in if guards for case blocks (#4214)\n"
        "- Remove the `parens` argument of `format_str` (#10)\n"
        "- Remove the brackets option (#11)\n"
        "- Remove `--skip-string-normalization` (#12)\n"
    )
    assert announced(log) == {
        "Remove parentheses around sole list items (#4312)": False,
        "Remove blank lines before class docstrings (#9)": False,
        "Removed redundant parentheses in if guards for case blocks (#4214)": False,
        "Remove the `parens` argument of `format_str` (#10)": True,
        "Remove the brackets option (#11)": True,
        "Remove `--skip-string-normalization` (#12)": True,
    }


def test_towncrier_headings_users_need_not_act_on_and_entry_credits() -> None:
    """aiohttp 3.14.0 (towncrier): "Improved documentation" ("Replaced the deprecated
    ``ujson`` library … in the quickstart"), "Contributor-facing changes" and
    "Miscellaneous internal changes" ("… benchmarks so they no longer dominate CI
    runtime") announce nothing; an entry is named without its credit (":user:" gone, "--
    by ." was left)."""
    from commitdigest.analysis.radar.changelog import plain_entry, sections

    log = (
        "3.14.0 (2026-06-01)\n===================\n\n"
        "Removals and backward incompatible breaking changes\n"
        "---------------------------------------------------\n\n"
        "- Dropped support for Python 3.9 -- by :user:`Dreamsorcerer`.\n\n"
        "Improved documentation\n----------------------\n\n"
        "- Replaced the deprecated ``ujson`` library with ``orjson`` in the client quickstart.\n"
        "- Removed archived and deprecated repositories from third party list.\n\n"
        "Contributor-facing changes\n--------------------------\n\n"
        "- Dropped the old ``make`` targets -- by :user:`bdraco`.\n\n"
        "Miscellaneous internal changes\n------------------------------\n\n"
        "- Reduced payload sizes in the benchmarks so they no longer dominate CI runtime.\n"
    )
    said = announced(log)
    assert [text for text, yes in said.items() if yes] == [
        "Dropped support for Python 3.9 -- by :user:`Dreamsorcerer`."
    ]
    [section] = sections(log)
    assert plain_entry(section.entries[0].text) == "Dropped support for Python 3.9"
    assert [
        plain_entry(e) for e in ("Fixed x -- by :user:`a` and :user:`b`.", "Added the option --by")
    ] == ["Fixed x", "Added the option --by"]
    # a credit that ends the first paragraph, a second one after it (aiohttp 9200)
    two = (
        "Improved middleware performance -- by :user:`bdraco`.\n\n"
        "The ``set_current_app`` method was removed from ``UrlMappingMatchInfo``."
    )
    assert plain_entry(two) == (
        "Improved middleware performance. The ``set_current_app`` method was removed from "
        "``UrlMappingMatchInfo``."
    )


def test_a_deprecation_named_by_its_class_not_its_private_helpers(
    tmp_path: Path, mode: str
) -> None:
    """aiohttp 5cde279c: ``BasicAuth.__new__`` warns "BasicAuth is deprecated …" (the item
    read ``BasicAuth.__new__``), and ``ClientSession._request`` / ``_ws_connect`` warn of
    ``auth`` beside the public ``__init__``: a private method's item is internal (it read
    ``pkg.ClientSession._request(auth)``, public). A constructor whose message names
    neither its class nor a name is still its own def."""
    before = (
        "class BasicAuth(tuple):\n    def __new__(cls, login):\n"
        "        return tuple.__new__(cls, (login,))\n\n\n"
        "class ClientSession:\n    def __init__(self, auth=None):\n        self.auth = auth\n\n"
        "    def _request(self, auth=None):\n        return auth\n"
    )
    warn = "        warnings.warn({!r}, DeprecationWarning, stacklevel=2)\n"
    after = (
        "import warnings\n\n\n"
        "class BasicAuth(tuple):\n    def __new__(cls, login):\n"
        + warn.format("BasicAuth is deprecated and will be removed in 4.0")
        + "        return tuple.__new__(cls, (login,))\n\n\n"
        "class ClientSession:\n    def __init__(self, auth=None):\n"
        "        if auth is not None:\n"
        + warn.replace("        ", "            ", 1).format("`auth` is deprecated")
        + "        self.auth = auth\n"
        + warn.format("the default encoding is deprecated")
        + "\n"
        "    def _request(self, auth=None):\n        if auth is not None:\n"
        + warn.replace("        ", "            ", 1).format("`auth` is deprecated in _request")
        + "        return auth\n"
    )
    [items] = module_items(
        tmp_path, mode, "pkg/client.py", [("init", before), ("Deprecate auth", after)],
        kind=RadarKind.DEPRECATION,
    )  # fmt: skip
    assert [(i.name, i.visibility) for i in items] == [
        ("pkg.client.BasicAuth", Visibility.PUBLIC),
        ("pkg.client.ClientSession.__init__(auth)", Visibility.PUBLIC),
        ("pkg.client.ClientSession.__init__", Visibility.PUBLIC),  # no name: its def
        ("pkg.client.ClientSession._request(auth)", Visibility.INTERNAL),
    ]


@pytest.mark.parametrize(
    "message, name",
    [
        ("The pkg.interfaces module is deprecated.", "pkg.interfaces"),
        ("The interfaces module is deprecated, use pkg.spiders.", "pkg.interfaces"),
        # (a module-level warning of something else is named by its words, as before)
        ("Python 3.9 support is deprecated.", "Python 3.9 support is deprecated."),
        (
            "Support for Python 3.8 in pkg.interfaces is deprecated.",
            "Support for Python 3.8 in pkg.interfaces is deprecated.",
        ),
        (
            "pkg.interfaces.json_helpers is deprecated.",
            "pkg.interfaces.json_helpers is deprecated.",
        ),
    ],
)
def test_a_warning_as_a_module_is_imported_that_names_it_deprecates_the_module(
    tmp_path: Path, mode: str, message: str, name: str
) -> None:
    """Scrapy deprecated ``scrapy.interfaces`` with a ``warnings.warn("The
    scrapy.interfaces module is deprecated.", …)`` at its top: the item was named by the
    sentence, which no downstream checkout can be searched for. A warning at a module's
    top that names the module deprecates the module."""
    before = "from zope.interface import Interface\n\n\nclass ISpiderLoader(Interface):\n    pass\n"
    after = before.replace(
        "\n\n\nclass",
        f"\nimport warnings\n\nwarnings.warn(\n    {message!r},\n"
        "    DeprecationWarning,\n    stacklevel=2,\n)\n\n\nclass",
    )
    [items] = module_items(
        tmp_path, mode, "pkg/interfaces.py", [("init", before), ("Deprecate it", after)],
        kind=RadarKind.DEPRECATION,
    )  # fmt: skip
    assert [(i.name, i.visibility) for i in items] == [(name, Visibility.PUBLIC)]


@pytest.mark.parametrize("twin", [False, True, "imported"])
def test_a_bare_name_a_warning_quotes_is_the_packages_one_object_of_that_name(
    tmp_path: Path, mode: str, twin: bool | str
) -> None:
    """litestar's ``FieldDefinition`` warns "Deprecated use of 'Body()' as a default
    value" where ``Body`` is not imported: the item was the bare ``Body``, which no
    downstream checkout's ``from litestar.params import Body`` matches. A bare name is the
    package's one public object of that name, as users import it; where two modules
    define one, or the module imports its own (``from pydantic import Body``), it stays
    as written."""
    field = (
        "class FieldDefinition:\n    def __init__(self, default=None):\n"
        "        self.default = default\n"
    )
    warned = field.replace(
        "        self.default = default\n",
        "        if default is not None:\n            warnings.warn(\n"
        "                \"Deprecated use of 'Body()' as a default value.\",\n"
        "                DeprecationWarning,\n            )\n        self.default = default\n",
    )
    files = {
        "pkg/__init__.py": "from .params import Body\n\n__all__ = ['Body']\n",
        "pkg/params.py": "class Body:\n    pass\n",
        "pkg/typing.py": "import warnings\n\n\n" + field,
    }  # fmt: skip
    head = "import warnings\n\n\n"
    if twin == "imported":
        head = "import warnings\n\nfrom pydantic import Body\n\n\n"
        files["pkg/typing.py"] = head + field
    elif twin:
        files["pkg/__init__.py"] = (
            "from .forms import Body as FormBody\nfrom .params import Body\n\n"
            "__all__ = ['Body', 'FormBody']\n"
        )
        files["pkg/forms.py"] = "class Body:\n    pass\n"
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files=files),
        CommitSpec("Introduce body markers", D[1], files={"pkg/typing.py": head + warned}),
    ], mode)  # fmt: skip
    assert [i.name for i in items if i.kind is RadarKind.DEPRECATION] == [
        "Body" if twin else "pkg.Body"
    ]


def test_a_module_getattr_that_looks_its_argument_up_in_a_table_deprecates_its_keys(
    tmp_path: Path, mode: str
) -> None:
    """pydantic-core's ``__getattr__`` looks names up in ``_deprecated_import_lookup`` and
    warns f"`{attr_name}` is deprecated, use `{new_attr.__name__}` instead.": the item was
    named by the template. Each key of the module's table it looks its argument up in,
    nearest the warning, is deprecated (values with braces of their own, a header over
    several lines); a lazy-import table looked up first, or one it never looks the
    argument up in, deprecates nothing."""
    before = "class ValidationInfo:\n    pass\n\n\nOTHER = {'Unrelated': 1}\n"
    after = before + (
        "\n_LAZY = {'Foo': '.foo', 'Bar': '.bar'}\n"
        "\n_deprecated_import_lookup: dict[str, object] = {\n"
        "    'FieldValidationInfo': {'new': ValidationInfo, 'since': '2.0'},  # see {here}\n"
        "    \"GeneralInfo\": {\n        'new': ValidationInfo,\n    },\n}\n\n\n"
        "def __getattr__(\n    attr_name: str,\n) -> object:\n"
        "    lazy = _LAZY.get(attr_name)\n"
        "    new_attr = _deprecated_import_lookup[attr_name]\n"
        "    if new_attr is None:\n        raise AttributeError(attr_name)\n    else:\n"
        "        import warnings\n\n"
        "        msg = f'`{attr_name}` is deprecated, use `{new_attr.__name__}` instead.'\n"
        "        warnings.warn(msg, DeprecationWarning, stacklevel=1)\n        return new_attr\n"
    )
    [items] = module_items(
        tmp_path, mode, "pkg/core_schema.py", [("init", before), ("Add the shim", after)],
        kind=RadarKind.DEPRECATION,
    )  # fmt: skip
    assert sorted(i.name for i in items) == [
        "pkg.core_schema.FieldValidationInfo", "pkg.core_schema.GeneralInfo"
    ]  # fmt: skip


def test_a_private_class_exported_publicly_and_a_message_about_its_arguments(
    tmp_path: Path, mode: str
) -> None:
    """A private class the package exports under a public name (``from .m import _Impl as
    Impl``) deprecates publicly; "Passing text to Response is deprecated" in
    ``Response.__init__`` deprecates a way to call it, not the class."""
    module = (
        "class _Impl:\n    def __init__(self, x=None):\n        self.x = x\n\n\n"
        "class Response:\n    def __init__(self, body=None, text=None):\n        self.body = body\n"
    )
    warn = "        warnings.warn({!r}, DeprecationWarning)\n"
    after = "import warnings\n\n\n" + module.replace(
        "        self.x = x\n", warn.format("`x` is deprecated") + "        self.x = x\n"
    ).replace(
        "        self.body = body\n",
        "        self.body = body\n" + warn.format("Passing text to Response is deprecated"),
    )
    init = "from .m import _Impl as Impl\nfrom .m import Response as Response\n"
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": init, "pkg/m.py": module}),
        CommitSpec("deprecate", D[1], files={"pkg/m.py": after}),
    ], mode)  # fmt: skip
    assert [(i.name, i.visibility) for i in items] == [
        ("pkg.Impl.__init__(x)", Visibility.PUBLIC),
        ("pkg.Response.__init__", Visibility.PUBLIC),
    ]


def test_a_default_written_otherwise_is_the_same_default(tmp_path: Path, mode: str) -> None:
    """``1000`` -> ``1_000`` or ``0.5`` -> ``.5`` is the same default; ``1`` -> ``1.0``
    (``range(n)`` breaks), ``True`` -> ``1`` and ``302`` -> ``303`` are not."""
    old = (
        "def clamp(x, limit=0.5, size=1000, flag=True, code=302, n=1):\n    return x\n\n\n"
        "class Later:\n    pass\n"
    )
    new = old.replace("limit=0.5,", "limit=.5,").replace("size=1000", "size=1_000")
    changed = new.replace("flag=True", "flag=1").replace("code=302", "code=303")
    changed = changed.replace("n=1)", "n=1.0)")
    same, other = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/ops.py": old}),
        CommitSpec("floats", D[1], files={"pkg/ops.py": new}),
        CommitSpec("new defaults", D[2], files={"pkg/ops.py": changed}),
    ], mode)  # fmt: skip
    assert [i.name for i in same if i.kind is RadarKind.PYTHON_API] == []
    assert sorted((i.name, i.detail) for i in other if i.kind is RadarKind.PYTHON_API) == [
        ("pkg.ops.clamp(code)", "302 → 303"),
        ("pkg.ops.clamp(flag)", "True → 1"),
        ("pkg.ops.clamp(n)", "1 → 1.0"),
    ]


RESPONSES = """\
from typing import Any

from pkg.exceptions import PkgDeprecationWarning
from typing_extensions import deprecated


class JSONResponse:
    pass


class UJSONResponse(JSONResponse):
    def render(self, content: Any) -> bytes:
        assert content is not None, "content must be set to render UJSONResponse"
        return b""


def _helper():
    return 1
"""


def test_a_long_deprecated_decorator_names_its_class_and_an_import_is_no_deprecation(
    tmp_path: Path, mode: str
) -> None:
    """``@deprecated("…", category=…)`` over many lines marks the class below it, with its
    own message; importing a warning class deprecates nothing; a deprecation inside a
    private name is internal."""
    marked = RESPONSES.replace(
        "class UJSONResponse(JSONResponse):",
        "@deprecated(\n"
        '    "UJSONResponse is deprecated, the data is now serialized directly to JSON "\n'
        '    "bytes when a return type is set, which is faster. Read more in the docs: "\n'
        '    "https://example.org/responses and "\n'
        '    "https://example.org/models",\n'
        "    category=PkgDeprecationWarning,\n"
        "    stacklevel=2,\n"
        ")\n"
        "class UJSONResponse(JSONResponse):",
    ).replace(
        "def _helper():\n",
        "def _helper():\n"
        '    warnings.warn("the helper goes", PkgDeprecationWarning, stacklevel=2)\n',
    )
    base = RESPONSES.replace("from pkg.exceptions import PkgDeprecationWarning\n", "")
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/responses.py": base}),
        CommitSpec("deprecate UJSONResponse", D[1], files={"pkg/responses.py": marked}),
    ], mode)  # fmt: skip
    found = [(i.name, i.visibility) for i in items if i.kind is RadarKind.DEPRECATION]
    assert found == [
        ("pkg.responses.UJSONResponse", Visibility.PUBLIC),
        ("pkg.responses._helper", Visibility.INTERNAL),
    ]


PACKAGE = """\
import warnings


class Package:
    def __init__(
        self,
        fspath: None,
        parent: object,
        # NOTE: following args are unused:
        config=None,
        session=None,
    ) -> None:
        self.parent = parent


def collect(
    path,
    # the old name, kept for plugins:
    fspath=None,
    strict=False,
):
    return path


class CallSpec2:
    pass
"""


def test_a_comment_among_the_parameters_hides_none_of_them(tmp_path: Path, mode: str) -> None:
    """pytest's ``Package.__init__`` has ``# NOTE: following args are unused:`` among its
    parameters. Read as one line, the comment hid the rest: when a module ``__getattr__``
    came (the whole module read by ``ast`` after, by its headers before), ``fspath`` and
    ``parent`` were "now required"; a default changed after such a comment was missed."""
    shim = (
        PACKAGE.replace("class CallSpec2:", "class CallSpec:").replace(
            "    strict=False,", "    strict=True,"
        )
        + "\n\ndef __getattr__(name):\n"
        + "    if name == 'CallSpec2':\n"
        + "        warnings.warn('CallSpec2 is deprecated, use CallSpec', DeprecationWarning)\n"
        + "        return CallSpec\n"
        + "    raise AttributeError(name)\n"
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/python.py": PACKAGE}),
        CommitSpec("rename CallSpec2 -> CallSpec", D[1], files={"pkg/python.py": shim}),
    ], mode)  # fmt: skip
    api = {(i.name, i.change) for i in items if i.kind is RadarKind.PYTHON_API}
    assert api == {("pkg.python.collect(strict)", ApiChangeType.DEFAULT_CHANGED)}


PARAMS = '''\
from typing import Annotated, Any


def Doc(text: str) -> str:
    return text


class Config(dict):
    pass


class Context:
    def __exit__(self, exc_type, exc_value, tb):
        return None


def Security(
    dependency: Annotated[
        Any,
        Doc(
            """
            A "dependable" callable (like a function).
            """
        ),
    ] = None,
    use_cache: Annotated[
        bool,
        Doc(
            """
            Set `use_cache` to `False` to call it again.
            """
        ),
    ] = True,
) -> Any:
    return dependency
'''


def test_strings_and_comments_of_a_header_are_not_its_code(tmp_path: Path, mode: str) -> None:
    """Lines of a header read as code, not as text: a comment added after a class header
    (flask's ``class Config(dict):  # type: ignore[type-arg]`` made it "removed"), a
    docstring of a parameter that gains a link with ``#`` and brackets (fastapi's
    ``Security`` lost all its parameters), and ``__exit__(self, *_)``, which still takes
    what the protocol passes (click). A default changed beside them is found."""
    changed = (
        PARAMS.replace("class Config(dict):", "class Config(dict):  # type: ignore[type-arg]")
        .replace(
            "            Set `use_cache` to `False` to call it again.\n",
            "            Set `use_cache` to `False` to call it again.\n\n"
            "            Read more in [the docs](https://example.org/deps/#using-the-same-one)\n",
        )
        .replace("] = True,", "] = False,")
        .replace(
            "def __exit__(self, exc_type, exc_value, tb):", "def __exit__(self, *_: Any) -> None:"
        )
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/params.py": PARAMS}),
        CommitSpec("Add links to the docs", D[1], files={"pkg/params.py": changed}),
    ], mode)  # fmt: skip
    assert [(i.name, i.change, i.detail) for i in items] == [
        ("pkg.params.Security(use_cache)", ApiChangeType.DEFAULT_CHANGED, "True → False")
    ]


def _documented(params: list[tuple[str, str, str]]) -> str:
    """A typer-style ``Option``: each parameter documented in an
    ``Annotated[…, Doc(\"\"\"…\"\"\")]`` with an example, a parenthesis left open in
    its text ("1) …") and a ``def`` of its own: a header of well over 120 lines."""
    out = ["from typing import Annotated, Any\n\n\ndef Doc(text: str) -> str:\n    return text"]
    out.append("\n\ndef Option(")
    for name, kind, default in params:
        steps = (f"            step {k}) call it with `{name}` (see below" for k in range(40))
        example = "\n".join(steps)
        out.append(
            f'    {name}: Annotated[\n        {kind},\n        Doc(\n            """\n'
            f"            The `{name}` of the option.\n\n{example}\n\n"
            "            ```python\n            import typer\n\n            app = typer.Typer()\n\n"
            f"            @app.command()\n            def main({name}: str = typer.Option()):\n"
            '                print("Hello")\n            ```\n            """\n'
            f"        ),\n    ] = {default},"
        )
    out.append(") -> Any:\n    return None\n")
    return "\n".join(out)


def test_a_header_of_hundreds_of_lines_is_read_whole(tmp_path: Path, mode: str) -> None:
    """typer 2d529b2d9c documented every parameter of ``Typer.__init__`` and ``Option`` in
    place (``Annotated[…, Doc(\"\"\"…\"\"\")]``, 700 lines of header): read only 120
    lines down, the header never closed, read as no parameters at all, and the commit
    "removed" 117 public parameters. Read whole it changes nothing; a parameter really
    removed from such a header is found (the def of an example in a docstring above it is
    passed over); a header whose brackets never close is no signature (nothing is said of
    it, rather than every parameter "removed")."""
    plain = (
        "from typing import Any\n\n\n"
        "def Option(default: Any = None, *, help: str = '', hidden: bool = False) -> Any:\n"
        "    return None\n"
    )
    params = [("default", "Any", "None"), ("help", "str", "''"), ("hidden", "bool", "False")]
    documented = _documented(params).replace("    help:", "    *,\n    help:")
    assert documented.count("\n") > 130
    fewer = documented[: documented.index("    hidden:")] + ") -> Any:\n    return None\n"
    cut = fewer.replace(") -> Any:\n    return None\n", "")  # (a file cut off in the header)
    for path in ("pkg/params.py", "pkg/__init__.py"):  # read around the diff, or whole
        root = tmp_path / path.replace("/", "_")
        docs, removed, broken = scan(root, [
            CommitSpec("init", D[0], files={"pkg/__init__.py": "", path: plain}),
            CommitSpec("Add reference docs", D[1], files={path: documented}),
            CommitSpec("Drop hidden", D[2], files={path: fewer}),
            CommitSpec("A header cut off", D[3], files={path: cut}),
        ], mode)  # fmt: skip
        assert docs == [], (path, docs)
        found = [(i.name, i.change) for i in removed]
        module = path[:-3].replace("/", ".").removesuffix(".__init__")
        if mode == "cut patches" and path == "pkg/params.py":
            # numbered by the hunks' spans, the run starts on a docstring's line, under an
            # example's def indented like it: no header is found (missed, not invented)
            assert found == []
        else:
            assert found == [(f"{module}.Option(hidden)", ApiChangeType.REMOVED)], path
        assert broken == [], (path, broken)


SERIALIZERS = '''\
from typing import Any


class WrapSerializer:
    """Wrap serializers receive the raw inputs along with a handler function.

    ```python
    from datetime import datetime

    from pydantic import BaseModel, WrapSerializer

    class EventDatetime(BaseModel):
        start: datetime
        end: datetime

    def convert_to_utc(value: Any, handler, info) -> dict[str, datetime]:
        return handler(value, info)
    ```
    """

    func: Any

    class Config:
        frozen = True

    def __call__(self, value):
        return self.func(value)
'''


def test_a_class_of_a_docstrings_example_is_no_api(tmp_path: Path, mode: str) -> None:
    """pydantic rewrote ``WrapSerializer``'s example: its ``class EventDatetime`` and
    ``def convert_to_utc(value, handler, info)`` are text, not members of the class (it was
    "pydantic.functional_serializers.WrapSerializer.EventDatetime removed"). The class's own
    nested class, removed in the same commit, is API."""
    changed = (
        SERIALIZERS.replace("    class EventDatetime(BaseModel):\n", "")
        .replace("        start: datetime\n        end: datetime\n\n", "")
        .replace("value: Any, handler, info)", "value: Any, handler)")
        .replace("    class Config:\n        frozen = True\n\n", "")
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/serializers.py": SERIALIZERS}),
        CommitSpec("Raise explicit TypeError", D[1], files={"pkg/serializers.py": changed}),
    ], mode)  # fmt: skip
    assert names(items) == {"pkg.serializers.WrapSerializer.Config"}


ENCODERS = """\
import base64
import warnings


class Base64UrlEncoder:
    \"\"\"URL-safe Base64 encoder.\"\"\"

    @classmethod
    def decode(cls, data: bytes) -> bytes:
        try:
            return base64.urlsafe_b64decode(data)
        except ValueError as e:
            raise TypeError(str(e))

    @classmethod
    def encode(cls, value: bytes) -> bytes:
        return base64.urlsafe_b64encode(value)
"""


def test_reading_code_from_text_is_quick_and_exact(tmp_path: Path, mode: str) -> None:
    """A reviewer's cases for the reading of strings and comments:

    * a long raw docstring with backslashes below a signature with a string default: the
      string pattern read each backslash two ways, and the scan did not end;
    * ``TRIPLE = '\"\"\"'``, a triple quote inside a one-line string, made the rest of the
      module a docstring: ``render`` was "removed" when its default changed;
    * ``__init__`` and ``__call__`` are called with keywords: a new ``*args`` does not take
      what they had (only a protocol method's, ``__exit__``'s);
    * words of a message are no filter ("positional arguments except the first are
      deprecated")."""
    doc = "".join("    Accepts ``\\d+\\.\\d+`` or ``\\d+\\.\\d+\\.\\d+``.\n" for _ in range(12))
    base = (
        "import warnings\n\n\n"
        'def parse_version(text: str, sep: str = ".") -> tuple[int, ...]:\n'
        f'    r"""Parse a version.\n\n{doc}' + "    prose\n" * 25 + '    """\n'
        "    return tuple(map(int, text.split(sep)))\n\n\n"
        "def render(template, context, strict=False):\n"
        '    """Render it."""\n    return template\n\n\n'
        "class Reader:\n"
        "    def __init__(self, path, mode='r'):\n        self.path = path\n\n"
        "    def __call__(self, data, strict=False):\n        return data\n\n"
        "    def __exit__(self, exc_type, exc_value, tb):\n        return None\n\n"
        "    def close(self, *args):\n        return None\n"
    )
    changed = 'TRIPLE = \'"""\'  # what opens a docstring\n\n\n' + base.replace(
        'strict=False):\n    """Render', 'strict=True):\n    """Render'
    ).replace("def __init__(self, path, mode='r'):", "def __init__(self, *paths):").replace(
        "def __call__(self, data, strict=False):", "def __call__(self, *data):"
    ).replace("def __exit__(self, exc_type, exc_value, tb):", "def __exit__(self, *_):").replace(
        "    def close(self, *args):\n",
        "    def close(self, *args):\n"
        "        if args:\n"
        "            warnings.warn(\n"
        '                "positional arguments except the first are deprecated",\n'
        "                DeprecationWarning,\n"
        "            )\n",
    )
    found: list[list[list[ApiChange]]] = []
    thread = threading.Thread(target=lambda: found.append(scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/text.py": base}),
        CommitSpec("quote", D[1], files={"pkg/text.py": changed}),
    ], mode)), daemon=True)  # fmt: skip
    thread.start()
    thread.join(120)
    assert found, "the scan did not end"
    [items] = found[0]
    assert {(i.name, i.change) for i in items} == {
        ("pkg.text.render(strict)", ApiChangeType.DEFAULT_CHANGED),
        ("pkg.text.Reader.__init__(path)", ApiChangeType.REMOVED),
        ("pkg.text.Reader.__init__(mode)", ApiChangeType.REMOVED),
        ("pkg.text.Reader.__call__(strict)", ApiChangeType.REMOVED),
        ("pkg.text.Reader.close", ApiChangeType.DEPRECATED),
    }


def test_a_comment_about_a_warning_deprecates_nothing(tmp_path: Path, mode: str) -> None:
    """pydantic's "Add initial support for Python 3.15" explains in a comment that the
    standard library now "raises a `FutureWarning`", which the method avoids: no deprecation
    (it was "pydantic.types.Base64UrlEncoder.decode deprecated"). The method beside it that
    starts to warn is one, and so is a warning after code on its line."""
    changed = ENCODERS.replace(
        "            return base64.urlsafe_b64decode(data)\n",
        "            # In Python >= 3.15, it raises a `FutureWarning` if '+' or '/' is found in\n"
        "            # input. We can't have this warning raised while validating.\n"
        "            data = data.translate(_TABLE)  # no FutureWarning for '+' and '/'\n"
        "            return base64.urlsafe_b64decode(data)\n",
    ).replace(
        "        return base64.urlsafe_b64encode(value)\n",
        '        warnings.warn("encode() is deprecated", FutureWarning, stacklevel=2)  # 3.15\n'
        "        return base64.urlsafe_b64encode(value)\n",
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/types.py": ENCODERS}),
        CommitSpec("Add initial support for Python 3.15", D[1], files={"pkg/types.py": changed}),
    ], mode)  # fmt: skip
    found = [i.name for i in items if i.kind is RadarKind.DEPRECATION]
    assert found == ["pkg.types.Base64UrlEncoder.encode"]


CONFIG = """\
import warnings


class Config:
    def configure(self):
        return self

    def legacy_option(self):
        return 1
"""


def test_a_filter_that_shows_deprecations_deprecates_nothing(tmp_path: Path, mode: str) -> None:
    """pytest's "Apply warning filters to pytest_configure" added a method that calls
    ``warnings.filterwarnings("always", category=DeprecationWarning)``: it was "deprecated".
    A filter, a ``catch_warnings`` or a ``pytest.warns`` is no deprecation, on one line or
    over several; a ``warnings.warn`` over several lines is one."""
    changed = CONFIG.replace(
        "    def configure(self):\n",
        "    def _catch_configured_warnings(self):\n"
        "        with warnings.catch_warnings(record=True) as log:\n"
        '            warnings.filterwarnings("always", category=DeprecationWarning)\n'
        "            warnings.filterwarnings(\n"
        '                "always",\n'
        "                category=PendingDeprecationWarning,\n"
        "            )\n"
        "            return log\n\n"
        "    def configure(self):\n",
    ).replace(
        "    def legacy_option(self):\n",
        "    def legacy_option(self):\n"
        "        warnings.warn(\n"
        '            "legacy_option() is deprecated",\n'
        "            DeprecationWarning,\n"
        "            stacklevel=2,\n"
        "        )\n",
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/config.py": CONFIG}),
        CommitSpec("Apply warning filters", D[1], files={"pkg/config.py": changed}),
    ], mode)  # fmt: skip
    assert [i.name for i in items if i.kind is RadarKind.DEPRECATION] == [
        "pkg.config.Config.legacy_option"
    ]


def test_a_name_removed_where_it_is_defined_and_re_exported_is_one_item(
    tmp_path: Path, mode: str
) -> None:
    """pytest removed ``PytestRemovedIn9Warning`` from ``_pytest/warning_types.py`` and from
    ``pytest/__init__.py``, which re-exported it: one item, not one per file."""
    types = (
        "class PytestWarning(UserWarning):\n    pass\n\n\n"
        "class PytestRemovedIn9Warning(PytestWarning):\n    pass\n"
    )
    init = (
        "from _pytest.warning_types import PytestRemovedIn9Warning\n"
        "from _pytest.warning_types import PytestWarning\n\n"
        '__all__ = ["PytestRemovedIn9Warning", "PytestWarning"]\n'
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"src/_pytest/__init__.py": "",
                                        "src/_pytest/warning_types.py": types,
                                        "src/pytest/__init__.py": init}),
        CommitSpec("Remove PytestRemovedIn9Warning", D[1], files={
            "src/_pytest/warning_types.py": types.split("\n\n\nclass PytestRemovedIn9")[0] + "\n",
            "src/pytest/__init__.py": init.replace(
                "from _pytest.warning_types import PytestRemovedIn9Warning\n", ""
            ).replace('"PytestRemovedIn9Warning", ', "")}),
    ], mode)  # fmt: skip
    assert [(i.name, i.change) for i in items] == [
        ("pytest.PytestRemovedIn9Warning", ApiChangeType.REMOVED)
    ]


CLI_MAIN = """\
import argparse


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--api-key")
    parser.add_argument("--api-base")
    parser.add_argument("--verbose")
"""
CLI_SUB = (
    'def register(parser):\n    parser.add_argument("--model")\n    parser.add_argument("--n")\n'
)


def test_a_command_no_longer_installed_is_one_item_with_its_options(
    tmp_path: Path, mode: str
) -> None:
    """openai-python 2.35.0 (c5cb54141e) removed its command line: ``[project.scripts]
    openai = "openai.cli:main"`` went, and with it 37 options, each a line of the Breaking
    section. The command is one item, its options in it; an option removed elsewhere by the
    same commit is still its own. A command moved from ``setup.cfg`` to ``pyproject.toml``
    is still installed: no item."""
    pyproject = (
        '[project]\nname = "pkg"\nversion = "1.0"\n\n[project.scripts]\n'
        'pkg = "pkg.cli:main"\npkg-admin = "pkg.admin:main"\n'
    )
    setup_cfg = "[options.entry_points]\nconsole_scripts =\n    pkg-serve = pkg.serve:main\n"
    serve = (
        'import click\n\n\n@click.command()\n@click.option("--port")\ndef main(port):\n    pass\n'
    )
    admin = 'import click\n\n\n@click.command()\n@click.option("--force")\n@click.option("--dry-run")\ndef main(force, dry_run):\n    pass\n'  # noqa: E501
    moved = pyproject.replace('pkg = "pkg.cli:main"\n', 'pkg-serve = "pkg.serve:main"\n')
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "pkg/__init__.py": "", "pyproject.toml": pyproject, "setup.cfg": setup_cfg,
            "pkg/cli/__init__.py": CLI_MAIN, "pkg/cli/sub.py": CLI_SUB,
            "pkg/serve.py": serve, "pkg/admin.py": admin}),
        CommitSpec("chore: remove legacy python cli", D[1], files={
            "pyproject.toml": moved, "setup.cfg": "[metadata]\nname = pkg\n",
            "pkg/cli/__init__.py": None, "pkg/cli/sub.py": None,
            "pkg/admin.py": admin.replace('@click.option("--dry-run")\n', "")}),
    ], mode)  # fmt: skip
    cli = [i for i in items if i.kind is not RadarKind.PYTHON_API]  # (pkg.cli.main: removed)
    got = [(i.kind, i.name, i.detail, i.symbols) for i in cli]
    assert got == [
        (RadarKind.CLI_COMMAND, "pkg", "pkg.cli:main; --api-base, --api-key, --model (+2)",
         ["--api-base", "--api-key", "--model", "--n", "--verbose"]),
        (RadarKind.CLI_OPTION, "--dry-run", "", []),
    ]  # fmt: skip
    assert cli[0].path == "pyproject.toml" and cli[0].line == 6 and cli[0].public


def test_setup_py_commands_and_a_package_wide_entry_point(tmp_path: Path, mode: str) -> None:
    """``setup.py``'s ``console_scripts`` are commands; its other entry point groups (a
    flake8 plugin) are not. A command whose entry point is the package itself
    (``pkg:main``) takes only the options of modules no installed command still runs."""
    setup = (
        "from setuptools import setup\n\nsetup(\n    name='pkg',\n    entry_points={\n"
        "        'console_scripts': ['pkg = pkg:main', 'pkg-admin = pkg.admin:main'],\n"
        "        'flake8.extension': ['PKG = pkg.checker:Checker'],\n    },\n)\n"
    )
    admin = 'import click\n\n\n@click.command()\n@click.option("--force")\n@click.option("--dry-run")\ndef main(force, dry_run):\n    pass\n'  # noqa: E501
    main = 'import argparse\n\n\ndef main():\n    p = argparse.ArgumentParser()\n    p.add_argument("--quiet")\n'  # noqa: E501
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"setup.py": setup, "pkg/__init__.py": main,
                                        "pkg/admin.py": admin, "pkg/checker.py": "X = 1\n"}),
        CommitSpec("Drop the pkg command", D[1], files={
            "setup.py": setup.replace("'pkg = pkg:main', ", "").replace(
                "        'flake8.extension': ['PKG = pkg.checker:Checker'],\n", ""),
            "pkg/__init__.py": "",
            "pkg/admin.py": admin.replace('@click.option("--dry-run")\n', "")}),
    ], mode)  # fmt: skip
    cli = [(i.kind, i.name, i.detail) for i in items if i.kind is not RadarKind.PYTHON_API]
    assert cli == [
        (RadarKind.CLI_COMMAND, "pkg", "pkg:main; --quiet"),
        (RadarKind.CLI_OPTION, "--dry-run", ""),  # pkg-admin still runs pkg.admin
    ]
    assert [i.line for i in items if i.kind is RadarKind.CLI_COMMAND] == [6]  # its entry


def test_a_name_deprecated_in_two_modules_is_one_item(tmp_path: Path, mode: str) -> None:
    """click deprecated ``get_text_stream`` in its package's ``__getattr__`` and in
    ``utils.py`` at once: the Deprecations section listed it twice."""
    init = "from .utils import get_text_stream\n"
    shim = (
        "import warnings\n\n\ndef __getattr__(name):\n    if name == 'get_text_stream':\n"
        "        warnings.warn(\"'get_text_stream' is deprecated.\", DeprecationWarning)\n"
        "        from .utils import get_text_stream\n\n        return get_text_stream\n"
        "    raise AttributeError(name)\n"
    )
    utils = "def get_text_stream(name):\n    return name\n"
    warned = (
        "import warnings\n\n\ndef get_text_stream(name):\n"
        "    warnings.warn(\"'get_text_stream' is deprecated.\", DeprecationWarning)\n"
        "    return name\n"
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": init, "pkg/utils.py": utils}),
        CommitSpec("Deprecate get_text_stream", D[1], files={"pkg/__init__.py": shim,
                                                             "pkg/utils.py": warned}),
    ], mode)  # fmt: skip
    names = [i.name for i in items if i.kind is RadarKind.DEPRECATION]
    assert names == ["pkg.get_text_stream"], names


def test_a_class_that_warns_of_itself_in_its_init_is_named_with_its_module(
    tmp_path: Path, mode: str
) -> None:
    """flask's ``locked_cached_property.__init__`` warns "'locked_cached_property' is
    deprecated": the item read ``locked_cached_property``, no module, and so public."""
    before = (
        "class locked_cached_property:\n    def __init__(self, fget):\n        self.fget = fget\n"
    )
    after = before.replace(
        "        self.fget = fget\n",
        "        import warnings\n\n        warnings.warn(\n"
        "            \"'locked_cached_property' is deprecated and will be removed.\",\n"
        "            DeprecationWarning,\n        )\n        self.fget = fget\n",
    )
    [items] = module_items(
        tmp_path, mode, "pkg/helpers.py",
        [("init", before), ("Deprecate locked_cached_property", after)], kind=None,
    )  # fmt: skip
    assert [i.name for i in items] == ["pkg.helpers.locked_cached_property"]


def test_a_class_made_private_that_warns_under_its_old_name(tmp_path: Path, mode: str) -> None:
    """werkzeug 1db190ba renamed ``OrderedMultiDict`` to ``_OrderedMultiDict``, which warns
    "'OrderedMultiDict' is deprecated" in its ``__init__``, and served the old name from
    the module's and the package's ``__getattr__``: one item, by its public name (the
    class's own warning read ``OrderedMultiDict``, no module, beside two more)."""
    cls = "class {name}:\n    def __init__(self):\n{warn}        self.items = []\n"
    warn = (
        "        import warnings\n\n        warnings.warn(\n"
        "            \"'OrderedMultiDict' is deprecated. Use 'MultiDict'.\",\n"
        "            DeprecationWarning,\n        )\n"
    )
    shim = (
        "\n\ndef __getattr__(name):\n    import warnings\n\n"
        "    if name == 'OrderedMultiDict':\n        warnings.warn(\n"
        "            \"'OrderedMultiDict' is deprecated. Use 'MultiDict'.\",\n"
        "            DeprecationWarning,\n        )\n"
        "        return _OrderedMultiDict\n    raise AttributeError(name)\n"
    )
    init = "from .structures import OrderedMultiDict as OrderedMultiDict\n"
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "pkg/__init__.py": init,
            "pkg/structures.py": cls.format(name="OrderedMultiDict", warn="")}),
        CommitSpec("deprecate OrderedMultiDict", D[1], files={
            "pkg/__init__.py": "from .structures import _OrderedMultiDict\n" + shim,
            "pkg/structures.py": cls.format(name="_OrderedMultiDict", warn=warn) + shim}),
    ], mode)  # fmt: skip
    assert [(i.kind, i.name) for i in items if i.kind is RadarKind.DEPRECATION] == [
        (RadarKind.DEPRECATION, "pkg.OrderedMultiDict"),
    ]


def test_a_deprecated_argument_taken_by_kwargs_is_named_as_a_parameter(
    tmp_path: Path, mode: str
) -> None:
    """attrs bde3f58c: ``make_class(name, attrs, **attributes_arguments)`` pops ``hash``
    and warns "The `hash` argument is deprecated": the item read ``hash`` (no module, no
    function). A quoted name the message does not call an argument stays as it is."""
    before = (
        "def make_class(name, attrs, **attributes_arguments):\n"
        "    return name\n\n\n"
        "def helper(**options):\n    return options\n"
    )
    after = (
        "import warnings\n\n\n"
        "def make_class(name, attrs, **attributes_arguments):\n"
        "    hash = attributes_arguments.pop('hash', None)\n"
        "    if hash is not None:\n"
        "        warnings.warn(\n"
        '            DeprecationWarning("The `hash` argument is deprecated in favor of '
        '`unsafe_hash`."),\n'
        "            stacklevel=2,\n        )\n"
        "    return name\n\n\n"
        "def helper(**options):\n"
        '    warnings.warn("`old_helper` is deprecated.", DeprecationWarning)\n'
        "    return options\n"
    )
    [items] = module_items(
        tmp_path, mode, "pkg/make.py", [("init", before), ("deprecate hash", after)],
        kind=RadarKind.DEPRECATION,
    )  # fmt: skip
    assert [i.name for i in items] == ["pkg.make.make_class(hash)", "old_helper"]


def test_a_documented_member_does_not_rename_its_class(tmp_path: Path, mode: str) -> None:
    """starlette's docs name ``starlette.testclient.TestClient.async_backend``: the public
    surface took that for the name users reach ``TestClient`` by, and the deprecation of
    ``TestClient.request``'s timeout read "TestClient.async_backend.request"."""
    client = (
        "class Client:\n    def __init__(self):\n        self.backend = {}\n\n"
        "    def request(self, url, timeout=None):\n        return url\n"
    )
    warned = client.replace(
        "        return url\n",
        "        if timeout is not None:\n            import warnings\n\n"
        "            warnings.warn(\"You should not use 'timeout' here.\", DeprecationWarning)\n"
        "        return url\n",
    )
    docs = "# Testing\n\nSet `pkg.client.Client.backend` to pick the event loop.\n"
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/client.py": client,
                                        "docs/testing.md": docs}),
        CommitSpec("Deprecate timeout", D[1], files={"pkg/client.py": warned}),
    ], mode)  # fmt: skip
    [item] = [i for i in items if i.kind is RadarKind.DEPRECATION]
    assert item.name.startswith("pkg.client.Client.request"), item.name


def test_a_removed_commands_options_are_found_downstream_not_its_name(tmp_path: Path) -> None:
    """A downstream script that passes the removed command's options uses it; a Python
    module that imports a package of the command's name (``import openai``) does not."""
    from commitdigest.analysis.radar.downstream import attach_affects, scan_downstream

    command = ApiChange(
        kind=RadarKind.CLI_COMMAND, change=ApiChangeType.REMOVED, name="openai",
        detail="openai.cli:main; --api-key, --model", symbols=["--api-key", "--model"],
    )  # fmt: skip
    (tmp_path / "run.sh").write_text("#!/bin/sh\nopenai api --api-key $K\n", encoding="utf-8")
    (tmp_path / "app.py").write_text("import openai\n\nclient = openai.OpenAI()\n", "utf-8")
    [found] = attach_affects({"x": [command]}, scan_downstream([tmp_path], [command])).values()
    assert [(p.path, p.line) for p in found[0].affects] == [("run.sh", 2)]


def test_a_deleted_package_is_one_item_that_downstream_uses_are_found_for(
    tmp_path: Path, mode: str
) -> None:
    """setuptools 530d1149 deleted ``pkg_resources``: 61 public names, 61 lines of the
    Breaking section. Five or more public names of a deleted module are one item, the
    module, with every name in its symbols: a checkout that imports the module, or one of
    the names, uses it. Its internal names stay apart (collapsed), and a module of fewer
    public names lists them."""
    from commitdigest.analysis.radar.downstream import attach_affects, scan_downstream

    names = ["WorkingSet", "Environment", "get_distribution", "parse_version", "safe_name"]
    big = "".join(f"def {n}():\n    pass\n\n\n" for n in names) + "def _cache():\n    pass\n"
    small = "def one():\n    pass\n\n\ndef two():\n    pass\n"
    [items] = scan(tmp_path / "repo", [
        CommitSpec("init", D[0], files={"pkg_resources/__init__.py": big, "pkg/__init__.py": "",
                                        "pkg/small.py": small}),
        CommitSpec("Remove pkg_resources", D[1], files={"pkg_resources/__init__.py": None,
                                                        "pkg/small.py": None}),
    ], mode)  # fmt: skip
    assert sorted((i.name, i.detail) for i in items) == [
        ("pkg.small.one", ""),
        ("pkg.small.two", ""),
        ("pkg_resources", "WorkingSet, Environment, get_distribution (+2)"),
    ]
    [module] = [i for i in items if i.name == "pkg_resources"]
    assert module.symbols == [f"pkg_resources.{n}" for n in names]
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "a.py").write_text("import pkg_resources\n\npkg_resources.get_distribution('x')\n")
    (checkout / "b.py").write_text(
        "from pkg_resources import parse_version\n\nparse_version('1')\n"
    )
    (checkout / "c.py").write_text("import os\n\nos.getcwd()\n")
    [found] = attach_affects({"x": [module]}, scan_downstream([checkout], [module])).values()
    assert sorted((p.path, p.line) for p in found[0].affects) == [
        ("a.py", 3),
        ("b.py", 1),
        ("b.py", 3),
    ]


def test_a_deleted_module_without_names_is_removed_where_users_were_told_of_it(
    tmp_path: Path, mode: str
) -> None:
    """scipy f29f562b19 deleted ``scipy.misc``, whose only code warned on import that it "is
    deprecated and will be removed": ``import scipy.misc`` now fails, so the module is one
    public item (its deleted submodule in its symbols, not a second line), and a checkout
    that imports it uses it. A deleted module imported only for its side effects, or of
    private helpers only, stays silent."""

    warns = (
        'import warnings\nwarnings.warn(\n    "{} is deprecated and will be removed in 2.0.0",\n'
        "    DeprecationWarning,\n    stacklevel=2\n)\n"
    )
    side = "from pkg.registry import register\n\nregister('fast', lambda: None)\n"
    [items] = scan(tmp_path / "repo", [
        CommitSpec("init", D[0], files={
            "pkg/__init__.py": "def run():\n    pass\n",
            "pkg/registry.py": "def register(*a):\n    pass\n",
            "pkg/misc/__init__.py": warns.format("pkg.misc"),
            "pkg/misc/common.py": warns.format("pkg.misc.common"),
            "pkg/plugins.py": side, "pkg/helpers.py": "def _fmt():\n    pass\n",
        }),
        CommitSpec("DEP: banish pkg.misc", D[1], files={
            "pkg/misc/__init__.py": None, "pkg/misc/common.py": None, "pkg/plugins.py": None,
            "pkg/helpers.py": None,
        }),
    ], mode)  # fmt: skip
    assert [(i.name, i.change, i.detail, i.visibility, i.symbols) for i in items] == [
        ("pkg.misc", ApiChangeType.REMOVED, "module", Visibility.PUBLIC, ["pkg.misc.common"])
    ]
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "a.py").write_text("import pkg.misc\n\nprint(pkg.misc)\n", encoding="utf-8")
    (checkout / "b.py").write_text("from pkg import misc, run\n\nrun()\n", encoding="utf-8")
    (checkout / "c.py").write_text("import pkg\n\npkg.run()\n", encoding="utf-8")
    [found] = attach_affects({"x": items}, scan_downstream([checkout], items)).values()
    assert sorted({p.path for p in found[0].affects}) == ["a.py", "b.py"]


def test_a_commands_parameters_are_its_options_not_a_signature(tmp_path: Path, mode: str) -> None:
    """A click or typer command's parameters are filled by the framework from its options:
    a new option in the middle or without a default changes no Python signature anyone
    calls; a plain function's does. Example code under ``docs_src/`` is nobody's API."""
    cli = (
        "import click\n\n\n@click.group()\ndef cli():\n    pass\n\n\n"
        '@cli.command(name="logs")\n@click.option(\n    "-n",\n    "--count",\n    default=3,\n)\n'
        "def logs_list(count):\n    return count\n\n\n"
        "def helper(count, flag=False):\n    return count\n"
    )
    changed = (
        cli.replace(
            '@click.option(\n    "-n",',
            '@click.option(\n    "-m",\n    "--model",\n    help="The model, over lines",\n)\n'
            '@click.option(\n    "-n",',
        )
        .replace("def logs_list(count):", "def logs_list(model, count):")
        .replace("def helper(count, flag=False):", "def helper(model, count, flag):")
    )
    tutorial = "import typer\n\n\ndef main(name: str):\n    print(name)\n"
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/cli.py": cli,
                                        "docs_src/first/tutorial001.py": tutorial}),
        CommitSpec("logs --model", D[1], files={"pkg/cli.py": changed,
                                                "docs_src/first/tutorial001.py": ""}),
    ], mode)  # fmt: skip
    found = sorted(i.name for i in items if i.kind is RadarKind.PYTHON_API)
    assert found == ["pkg.cli.helper(count)", "pkg.cli.helper(flag)", "pkg.cli.helper(model)"]


def test_an_explanation_under_a_breaking_entry_and_a_bumped_package_are_no_news() -> None:
    """Under Breaking Changes, a nested bullet that only explains its entry ("This
    simplifies the work …") is part of it; one that names code or says what goes is an
    entry of its own. A package bumped whose name says "deprecated" deprecates nothing."""
    log = (
        "## 0.26.0\n\n### Breaking Changes\n\n"
        "* ➖ Vendor Click and streamline Typer's code base. PR #1774.\n"
        "    * Typer no longer depends on Click as a third party dependency.\n"
        "    * This simplifies the work done by both Click and Typer teams.\n"
        "    * `typer.main.get_command` returns the vendored class.\n\n"
        "### Internal\n\n"
        "* ⬆ Bump griffe-warnings-deprecated from 1.1.0 to 1.1.1. PR #1603.\n"
        "* ♻️ Deprecate the `typer-slim` wrapper package. PR #1535.\n"
    )
    assert announced(log) == {
        "➖ Vendor Click and streamline Typer's code base. PR #1774.": True,
        "Typer no longer depends on Click as a third party dependency.": True,
        "This simplifies the work done by both Click and Typer teams.": False,
        "`typer.main.get_command` returns the vendored class.": True,
        "⬆ Bump griffe-warnings-deprecated from 1.1.0 to 1.1.1. PR #1603.": False,
        "♻️ Deprecate the `typer-slim` wrapper package. PR #1535.": True,
    }


def test_conventional_and_tagged_changelog_entries_that_are_no_news() -> None:
    """vite's generated changelog: what a fix, a refactor, a chore or the build system
    removes or deprecates is no news for users (a fix that says it breaks is); a bold
    one-word scope (``**css:**``) is no entry's name. prometheus's tags: a ``[BUGFIX]``
    that mentions a removal is a fix, "no longer requires" a flag is no break, a
    ``[CHANGE]`` that stops doing something or deprecates is news."""
    from commitdigest.analysis.radar.changelog import plain_entry, sections

    log = (
        "## 8.1.0\n\n### Bug Fixes\n\n"
        "* **css:** keep deprecated `name` in synthetic `assetFileNames` call ([#22439](https://x.org/1))\n"
        "* warn on deprecated envFile ([#22555](https://x.org/2))\n"
        "* **ssr:** drop the `ssrLoadModule` cache, a breaking fix for plugins\n\n"
        "### Code Refactoring\n\n* remove unused removeRawQuery util ([#22724](https://x.org/3))\n\n"
        "### Miscellaneous Chores\n\n* remove irrelevant commits from changelog\n\n"
        "### Build System\n\n* remove the custom onLog function\n\n"
        "### Features\n\n* **css:** remove the `legacy` option ([#22800](https://x.org/4))\n\n"
        "### Changes\n\n"
        "- [BUGFIX] TSDB: prevent loss of samples before the in-memory copy is removed. #18849\n"
        "- [CHANGE] PromQL: promote `first_over_time`. It no longer requires the feature flag.\n"
        "- [CHANGE] HTTP: credentials are no longer forwarded to another host. #18949\n"
        "- [CHANGE] API: Deprecate the `stats` query parameter. #19124\n"
    )
    said = announced(log)
    assert [text[:30] for text, yes in said.items() if yes] == [
        "**ssr:** drop the `ssrLoadModu",
        "**css:** remove the `legacy` o",
        "[CHANGE] HTTP: credentials are",
        "[CHANGE] API: Deprecate the `s",
    ]
    assert len(said) == 11
    [section] = sections(log)
    assert [plain_entry(e.text) for e in section.entries][
        6
    ] == "css: remove the `legacy` option (#22800)"


def test_tags_scopes_and_fixes_that_still_announce() -> None:
    """What the rules above must not silence or invent: a tag or scope that says the entry
    breaks, housekeeping tags and scopes whose entries remove what users never had, a fix
    heading over an entry that deprecates."""
    log = (
        "## 2.0.0\n\n### Changed\n\n"
        "- BREAKING: `Client.get` now returns bytes\n"
        "- **Breaking:** the `timeout` argument is now in milliseconds\n"
        "- [CI] Remove the nightly workflow\n"
        "- docs: delete the stale page\n"
        "- [ENHANCEMENT] TSDB: Remove old temporary checkpoints\n"
        "- ci: drop support for Python 3.8\n\n"
        "### Bug Fixes\n\n"
        "- Deprecate passing `loop` to `Client`\n"
        "- **config:** deprecate `server.fsServe`, use `server.fs` instead\n"
    )
    assert announced(log) == {
        "BREAKING: `Client.get` now returns bytes": True,
        "**Breaking:** the `timeout` argument is now in milliseconds": True,
        "[CI] Remove the nightly workflow": False,
        "docs: delete the stale page": False,
        "[ENHANCEMENT] TSDB: Remove old temporary checkpoints": False,
        "ci: drop support for Python 3.8": True,
        "Deprecate passing `loop` to `Client`": True,
        "**config:** deprecate `server.fsServe`, use `server.fs` instead": True,
    }


def test_an_entry_added_to_a_changelog_with_form_feeds_is_found(tmp_path: Path, mode: str) -> None:
    """A GNU-style NEWS file breaks pages with form feeds, which Python splits lines at and
    git does not: the commit's line numbers are not the reading's, so every changed section
    is read."""
    intro = "# NEWS\n\nAll notable changes.\fSee the \fdocs \ffor more.\n\n## Unreleased\n\n"
    news = intro + "- Add `bar`\n\n## 1.0.0 (2025-01-01)\n\n- first\n"
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "NEWS.md": news}),
        CommitSpec("remove foo", D[1], files={
            "NEWS.md": news.replace("- Add", "- Remove the `foo` option\n- Add")}),
    ], mode)  # fmt: skip
    assert [i.name for i in items if i.kind is RadarKind.ANNOUNCED] == ["Remove the `foo` option"]


def test_a_tag_on_a_version_bump_releases_the_section_the_changelog_has(
    tmp_path: Path, mode: str
) -> None:
    """A release tag on a commit that does not touch the changelog (a version bump)
    announces the version's section as the changelog has it; a section that a commit
    dated was released by that commit and is not announced again by the tag."""
    log = "# Changelog\n\n## 0.12.0\n\n### Breaking changes\n\n- Remove the `--legacy` flag\n"
    dated = log.replace("## 0.12.0\n", "## 0.11.0\n\nReleased on 2026-07-28.\n")
    vendored = "## 0.12.0\n\n- Removed the `Frobnicate` API\n"  # another project's, same version
    repo = tmp_path / "repo"
    shas = build_repo(repo, [
        CommitSpec("init", D[0], files={"uv/__init__.py": "", "CHANGELOG.md": "# Changelog\n",
                                        "vendor/bar/CHANGELOG.md": vendored,
                                        "uv/news.py": vendored}),
        CommitSpec("Drop --legacy", D[1], files={"CHANGELOG.md": log}),
        CommitSpec("Bump version to 0.12.0", D[2], files={"uv/__init__.py": "V = '0.12.0'\n"}),
        CommitSpec("Date 0.11.0", D[3], files={"CHANGELOG.md": dated}),
        CommitSpec("Bump version to 0.11.0", D[4], files={"uv/__init__.py": "V = '0.11.0'\n"}),
    ])  # fmt: skip
    git(repo, "tag", "v0.12.0", shas[2])
    git(repo, "tag", "v0.11.0", shas[4])
    found = scan_log(repo, f"{shas[0]}..{shas[-1]}", mode)
    said = [[(i.name, i.release) for i in found[s] if i.kind is RadarKind.ANNOUNCED]
            for s in shas[1:]]  # fmt: skip
    assert said == [
        [("Remove the `--legacy` flag", "")],  # written
        [("Remove the `--legacy` flag", "0.12.0")],  # released by its tag
        [("Remove the `--legacy` flag", "0.11.0")],  # dated: released
        [],  # its tag: already announced by the date
    ]


def test_a_release_tagged_on_a_branch_is_released_by_the_merge_that_brings_it(
    tmp_path: Path, mode: str
) -> None:
    """click tags 8.2.0 on its release branch, and ``main`` gets it by a merge whose
    first-parent diff dates the section again (an earlier merge of ``stable`` had written a
    planned date, and announced the release then): a new date alone is no release, the tag
    the merge brings is."""
    repo = tmp_path / "repo"
    head = "Version 8.2.0\n-------------\n\n{stamp}\n\n-   Drop support for Python 3.7.\n"
    shas = build_repo(repo, [
        CommitSpec("init", D[0], files={"src/click/__init__.py": "", "CHANGES.rst": ""}),
        CommitSpec("drop 3.7", D[1], files={"CHANGES.rst": head.format(stamp="Unreleased")}),
        CommitSpec("Merge stable into main", D[2], files={
            "CHANGES.rst": head.format(stamp="Released 2025-03-26")}),
    ])  # fmt: skip
    git(repo, "checkout", "-q", "-b", "release")
    tagged = commit(repo, CommitSpec("release version 8.2.0", D[3], files={
        "CHANGES.rst": head.format(stamp="Released 2025-05-10")}))  # fmt: skip
    git(repo, "tag", "8.2.0", tagged)
    git(repo, "checkout", "-q", "main")
    merged = merge(repo, "release", "Release version 8.2.0 (#2889)", D[4])
    found = scan_log(repo, f"{shas[0]}..{merged}", mode)
    said = [[(i.name, i.release) for i in found[s] if i.kind is RadarKind.ANNOUNCED]
            for s in (*shas[1:], merged)]  # fmt: skip
    assert said == [
        [("Drop support for Python 3.7.", "")],  # written
        [("Drop support for Python 3.7.", "8.2.0")],  # dated
        [("Drop support for Python 3.7.", "8.2.0")],  # the merge brings its tag
    ]


def test_the_quiet_rules_keep_what_still_says_a_break() -> None:
    """What the rules above must not silence: a list indented as a whole, a short item of
    a list an entry opens, a deprecation that also mentions the warning it avoids,
    "soft-deprecated", a bump that says what it breaks, a Testing heading (a library's test
    helpers are its API)."""
    log = (
        "## 3.0.0\n\n### Breaking changes\n\n"
        "  * Configuration is now read from the XDG config directory only.\n"
        "  * Dropped support for:\n"
        "      * Python 3.8\n"
        "      * Django 3.2\n\n"
        "### Changes\n\n"
        "* `Client.send` is deprecated; pass `timeout=` to avoid the deprecation warning.\n"
        "* `foo` is now soft-deprecated in favour of `bar`.\n"
        "* Update pydantic from v1 to v2; pydantic v1 is no longer supported.\n\n"
        "### Testing\n\n* Removed the `testing.Client.open_session` helper.\n"
    )
    said = announced(log)
    assert all(said.values()), said
    assert len(said) == 8


def test_the_quiet_rules_in_code_keep_true_changes(tmp_path: Path, mode: str) -> None:
    """Two functions deprecated with the same words are two items; a warning class
    imported in a parenthesised import deprecates nothing, while the same name on a line
    of a ``warnings.warn(`` call does; a script's ``if __name__ == "__main__":`` names are
    nobody's API."""
    base = (
        "import warnings\n\nfrom pkg.errors import (\n    PkgError,\n)\n\n\n"
        "def load():\n    return 1\n\n\ndef dump():\n    return 2\n\n\n"
        "def close():\n    return 3\n\n\n"
        'if __name__ == "__main__":\n    PORT = 8000\n    load()\n'
    )
    said = "This function will be removed in 3.0."
    warned = (
        base.replace("    PkgError,\n", "    PkgDeprecationWarning,\n    PkgError,\n")
        .replace(
            "def load():\n",
            f'def load():\n    warnings.warn("{said}", PkgDeprecationWarning, stacklevel=2)\n',
        )
        .replace(
            "def dump():\n",
            f'def dump():\n    warnings.warn("{said}", PkgDeprecationWarning, stacklevel=2)\n',
        )
        .replace(
            "def close():\n",
            'def close():\n    warnings.warn(\n        "close() goes",\n'
            "        PkgDeprecationWarning,\n    )\n",
        )
        .replace("    PORT = 8000\n", "")
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/io.py": base}),
        CommitSpec("deprecate load and dump", D[1], files={"pkg/io.py": warned}),
    ], mode)  # fmt: skip
    assert sorted((i.kind.value, i.name) for i in items) == [
        ("deprecation", "pkg.io.close"),
        ("deprecation", "pkg.io.dump"),
        ("deprecation", "pkg.io.load"),
    ]


def test_decorators_with_brackets_in_their_strings_and_a_class_no_longer_generic() -> None:
    """A decorator whose string holds a bracket is still read (and the command it makes is
    still a command); a class that drops ``Generic[T]`` with no subscripted base left is
    no longer generic (``Box[int]`` raises)."""
    from commitdigest.analysis.radar.pyapi import compare, light_api

    cli = (
        'import click\n\n\n@click.command()\n@click.option("--mode", help="a) fast, b) safe")\n'
        "def run(mode, count=3):\n    pass\n"
    )
    moved = cli.replace("def run(mode, count=3):", "def run(count, mode):")
    assert light_api(cli).objects["run"].decorators == (
        "click.command()",
        'click.option("--mode", help="a) fast, b) safe")',
    )
    assert compare(light_api(cli), light_api(moved)) == []
    box = "from typing import Generic, TypeVar\n\nT = TypeVar('T')\n\n\nclass Box(Generic[T]):\n"
    plain = box.replace("class Box(Generic[T]):", "class Box:")
    found = compare(light_api(box + "    pass\n"), light_api(plain + "    pass\n"))
    assert [(b.qualname, b.change) for b in found] == [("Box", "bases")]


def test_a_removed_override_that_called_super_over_a_long_signature(
    tmp_path: Path, mode: str
) -> None:
    """An override of an upstream method whose signature closes on its own line and that
    calls ``super().__init__(`` is still inherited when removed (its body is read past
    the closing line); one that never called its base is a removal."""
    runner = (
        "from vllm.moe import DefaultMoERunner\n\n\n"
        "class AscendMoERunner(DefaultMoERunner):\n"
        "    def __init__(\n        self,\n        layer,\n        config,\n    ):\n"
        "        super().__init__(\n            layer,\n            config,\n        )\n\n"
        "    def forward_impl(\n        self,\n        x,\n    ):\n        return x\n\n"
        "    def use_dp(self):\n        return False\n"
    )
    no_init = runner.replace(
        "    def __init__(\n        self,\n        layer,\n        config,\n    ):\n"
        "        super().__init__(\n            layer,\n            config,\n        )\n\n",
        "",
    )
    no_forward = no_init.replace(
        "    def forward_impl(\n        self,\n        x,\n    ):\n        return x\n\n", ""
    )
    inherited, removed = module_items(tmp_path, mode, "pkg/runner.py", [
        ("init", runner), ("use the upstream __init__", no_init),
        ("drop forward_impl", no_forward),
    ])  # fmt: skip
    assert inherited == []
    assert [(i.name, i.change) for i in removed] == [
        ("pkg.runner.AscendMoERunner.forward_impl", ApiChangeType.REMOVED)
    ]
    # page breaks (``^L``) between the imports and the class: a line break to
    # ``str.splitlines``, none to the lines the radar numbers (a reviewer's: the body read
    # was two lines off, the override that called its base read as a removal)
    paged = (
        "import foo\n\f\n\f\n\nclass Child(foo.Base):\n    def prepare(self):\n"
        "        return 1\n\n    def run(self):\n        return super().run()\n"
    )
    [inherited] = module_items(tmp_path / "paged", mode, "pkg/child.py", [
        ("init", paged), ("use the upstream run", paged.split("\n\n    def run")[0] + "\n"),
    ])  # fmt: skip
    assert inherited == []


def test_a_registrys_entries_are_read_wherever_their_lambda_sits() -> None:
    """A registry entry is found from its ``lambda`` back to the line that starts its key:
    on one line, its key above its lambda, deep in a long module; a lambda that takes
    arguments, or a key that is no entry's, stays silent."""
    from commitdigest.analysis.radar.env_var import names

    filler = "".join(f"def f{i}(x):\n    return x + {i}\n\n" for i in range(300))
    code = (
        'import os\n\nPAD = "lambda"\n' + filler + "env_variables = {\n"
        '    "PKG_HOME": lambda: os.getenv("PKG_HOME"),\n'
        '    "PKG_LONG_NAME_OF_A_VARIABLE":\n        lambda : int(os.environ["PKG_N"]),\n'
        '    "IS_VARLEN": lambda args: args["cu"] is not None,\n'
        "}\n" + filler + 'TABLE = {"NOT_ONE": 1}\nsort = lambda: None\n'
    )
    assert names(code) == {"PKG_HOME", "PKG_LONG_NAME_OF_A_VARIABLE", "PKG_N"}


@pytest.mark.parametrize(
    "text",
    [
        "import os\nfrom importlib import import_module as im\n",
        "import os; import sys\n# import hidden\nx = importlib.import_module('y')\n",
        "from .a import (\n    b,\n    c as d,\n)\nfrom . import e\n    import f\nimport g",
        'S = "import x"\nclass A(B):\n    from typing import List\n',
        "no imports at all\n",
    ],
)
def test_the_text_searches_tried_only_where_they_can_match_find_what_a_full_regex_finds(
    text: str,
) -> None:
    """The searches that skip to the lines that can match (a literal first) find what the
    same regex tried at every line start finds, at the text's very start too."""
    import re

    from commitdigest.analysis.radar import pyapi, pylocal, python_api

    every_line = re.compile(
        r"^[ \t]*(?:from[ \t]+([.\w]+)[ \t]+)?import[ \t]+(\([^)]*\)|[^\n#;]*)", re.M
    )
    assert [m.span() for m in pyapi._import_statements(text)] == [
        m.span() for m in every_line.finditer(text)
    ]
    for head in ("class Top(Base, mod.Other):\n", "from .x import *\n", "__all__ = []\n"):
        assert pylocal.subclasses(head + text, "Other") == (["Top"] if "Top" in head else [])
        assert python_api._star_modules(head + text, "pkg.m", False) == (
            ["pkg.x"] if "*" in head else []
        )
        assert (pyapi._NEEDS_AST.search("\n" + head + text) is not None) == ("__all__" in head)


def test_a_modules_deprecation_messages_are_each_warn_call_and_marker() -> None:
    """Every ``warn(`` line gives its message, on the first line and on a last line without
    a newline too; a line with two calls gives its message once."""
    from commitdigest.analysis.radar.deprecation import messages

    text = (
        'warnings.warn("first is gone, use second instead")\n'
        "def f():\n    pass\n"
        '    warn("a", DeprecationWarning); warn("b")\n'
        '@deprecated("old_api is deprecated, use new_api instead")\ndef old_api(): ...\n'
        'warnings.warn("last, without a newline")'
    )
    found = messages(text)
    assert found[0] == "first is gone, use second instead"
    assert any("new_api" in m for m in found) and found[-1] != found[0]
    assert sum("last, without a newline" in m for m in found) == 1
    assert len(found) == len(set(found)) == 3  # (the adjacent lines read as one message)


_MESSAGE_LINES = st.sampled_from(
    [
        'warnings.warn("use new instead", DeprecationWarning)',
        "    warnings.warn(",
        '        "old is deprecated, "',
        '    "use other instead"',
        "    )",
        "@deprecated('gone soon')",
        "def f(x):",
        "    return x",
        "",
        "# Deprecated in 2.0",
        'logger.warning("not a deprecation")',
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_MESSAGE_LINES, max_size=60), st.booleans())
@example(["x = 1"] * 9 + ['    "use other instead"'] * 3 + ["    warnings.warn("]
         + ['        "old is deprecated, "'] * 20 + ["    )"], True)  # fmt: skip
def test_deprecation_messages_read_the_lines_around_each_marker_as_the_whole_module(
    lines: list[str], newline_at_end: bool
) -> None:
    """A module's deprecation messages are read from the lines around each ``warn(`` call
    and marker only (not a split of the whole module): the same messages as the whole
    module's lines give, at its first and last lines too."""
    from commitdigest.analysis.radar import deprecation

    text = "\n".join(lines) + ("\n" if newline_at_end and lines else "")
    split = text.split("\n")
    at = [i for i, line in enumerate(split) if "warn(" in line]
    at += [n - 1 for n, _ in deprecation._marks(text)]
    expected = [deprecation.message_near(split, i) for i in at]
    assert deprecation.messages.__wrapped__(text) == tuple(m for m in dict.fromkeys(expected) if m)


@settings(max_examples=300, deadline=None)
@given(st.lists(_MESSAGE_LINES, max_size=40), st.booleans())
@example(["x = 1", "# deprecated", "    warnings.warn('x', FutureWarning)"], False)
@example(["    return deprecate(", "deprecated words"], True)
def test_changed_lines_say_deprecated_as_the_marker_regex_over_the_whole_text(
    lines: list[str], newline_at_end: bool
) -> None:
    """Whether a commit's changed lines may add a deprecation is asked of the lines that
    hold "eprecat" or "FutureWarning" only (the regex over the whole text took 75 ms on one
    300-file commit of openai-python's): the same answer as the regex over all of them."""
    from commitdigest.analysis.radar import deprecation

    text = "\n".join(lines) + ("\n" if newline_at_end and lines else "")
    whole = deprecation._MARK.search(text) is not None
    assert deprecation._says_deprecated(text) is whole


def test_what_the_radar_reads_by_path_is_what_its_kinds_read() -> None:
    """``reads.read_at_all`` (asked by the source of every file, importing no kind) keeps a
    module's whole patch exactly where some kind may read the module, whatever its lines."""
    from commitdigest.analysis.radar.driver import module_read
    from commitdigest.analysis.radar.reads import read_at_all

    modules = [
        "pkg/api.py", "src/pkg/__init__.py", "setup.py", "pkg/setup.py", "noxfile.py",
        "conftest.py", "tests/test_api.py", "docs/conf.py", "pkg/_vendor/six.py",
        "vendor/lib/x.py", "examples/demo.py", "scripts/release.py", ".github/x.py",
        "pkg/tests/helpers.py", "__setup__.py", "pkg/cli.py", "benchmarks/b.py",
    ]  # fmt: skip
    for path in modules:
        assert read_at_all(path) is module_read(path, None), path
    assert read_at_all("pkg/api.py") and not read_at_all("tests/test_api.py")
    for path in ("CHANGES.rst", "changes/12.removal.rst", "pyproject.toml", "setup.cfg",
                 "requirements.txt", "pkg/default_config.yaml"):  # fmt: skip
        assert read_at_all(path), path
    for path in ("README.md", "requirements-dev.txt", ".github/workflows/ci.yml", "x.png"):
        assert not read_at_all(path), path


def test_a_translation_of_the_release_notes_is_no_changelog() -> None:
    """A file named like a changelog that is a translation catalog, code or data is not read
    as one (vllm-ascend's 700 KB ``release_notes.po`` was read at each commit to it)."""
    from commitdigest.analysis import classify
    from commitdigest.analysis.radar.changelog import is_changelog

    assert is_changelog is classify.is_changelog  # one test of a path, for the rules too
    for path in (
        "CHANGELOG.md", "NEWS.rst", "CHANGES", "doc/en/changelog.rst", "HISTORY",
        "docs/release notes.md", "doc/whats-new.rst", "RELEASES.md", "docs/whatsnew.md",
        "docs/whats_new_3.8.0.rst",
    ):  # fmt: skip
        assert is_changelog(path)
    for path in (
        "docs/source/locale/zh_CN/LC_MESSAGES/user_guide/release_notes.po",
        "scripts/changelog.py",
        "changelog.json",
        "docs/RELEASE_NOTES.html",
        "docs/release.md",  # how to make one
        "src/pkg/releases.py",
        "docs/releases.md",  # vite's release policy
        "doc/build/changelog/whatsnew_20.rst",  # SQLAlchemy's migration guide
    ):
        assert not is_changelog(path)


@pytest.mark.parametrize("eol", ["\n", "\r\n"])
def test_a_whole_modules_text_model_names_block_statements_and_skips_docstring_examples(
    eol: str,
) -> None:
    """The text model of an ordinary module compared whole (its patch unknown, or its
    exports changed) reads a name set in a module-level ``if``/``try`` as the module's,
    also after a class, and no def or class of a docstring's example."""
    from commitdigest.analysis.radar.pyapi import light_api

    text = (
        "import sys\n\n\nclass Config:\n    LIMIT = 1\n\n\n"
        'if sys.platform == "win32":\n\n    FAST: bool = False\nelse:\n    FAST: bool = True\n\n\n'
        'def helper() -> None:\n    """Use it so::\n\n        class Example:\n'
        '            def run(self): ...\n    """\n'
    )
    objects = set(light_api(text.replace("\n", eol)).objects)
    assert {"Config", "Config.LIMIT", "FAST", "helper"} <= objects
    assert not objects & {"Config.FAST", "Example", "Example.run", "helper.Example"}
    tabs = "import sys\nif sys.version_info >= (3, 12):\n\tclass A:\n\t\tLIMIT = 1\n"
    assert "A.LIMIT" in light_api(tabs.replace("\n", eol)).objects  # tabs count as headers''


def test_a_deprecation_says_what_to_write_instead_from_its_packages_init(
    tmp_path: Path, mode: str
) -> None:
    """The project's words on what to use instead may live in the package ``__init__``
    beside the module (its ``__getattr__`` shim), which the commit does not touch: it is
    read for them when an item needs them, and only then."""
    init = (
        "import warnings\n\nfrom pkg.mod import fetch, fetch_all\n\n\n"
        "def __getattr__(name):\n"
        "    if name == 'fetch':\n"
        "        warnings.warn(\n"
        "            'fetch is deprecated. Use fetch_all instead.', DeprecationWarning\n"
        "        )\n"
        "    raise AttributeError(name)\n"
    )
    mod = "def fetch(url):\n    return url\n\n\ndef fetch_all(urls):\n    return urls\n"
    deprecated = mod.replace(
        "def fetch(url):\n",
        "@deprecated('fetch is deprecated')\ndef fetch(url):\n",
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": init, "pkg/mod.py": mod}),
        CommitSpec("Deprecate fetch", D[1], files={
            "pkg/mod.py": "from typing_extensions import deprecated\n\n\n" + deprecated}),
    ], mode)  # fmt: skip
    said = [(i.name, i.change, i.replacement) for i in items if i.kind is RadarKind.DEPRECATION]
    assert said == [("pkg.fetch", ApiChangeType.DEPRECATED, "Use fetch_all instead.")]


@pytest.mark.parametrize("newest_first", [True, False])
def test_a_modules_export_hook_is_searched_once_per_version_and_follows_the_edit(
    newest_first: bool,
) -> None:
    """Whether a module version has ``__all__``/``__getattr__`` is taken from its
    neighbour's answer when the commit's changed lines name neither (every line that could
    is the same in both), and searched again where they do."""
    from commitdigest.analysis.radar import python_api

    v0 = "def f():\n    return 1\n"
    v1 = '__all__ = ["f"]\n\n\ndef f():\n    return 1\n'
    v2 = '__all__ = ["f"]\n\n\ndef f():\n    return 2\n'
    v3 = "def f():\n    return 2\n"
    edits = [(v0, v1, '__all__ = ["f"]\n\n'), (v1, v2, "    return 1\n    return 2"),
             (v2, v3, '__all__ = ["f"]\n\n')]  # fmt: skip
    python_api._HOOKS.clear()
    found = [
        python_api._hooked(before, after, changed)
        for before, after, changed in (edits[::-1] if newest_first else edits)
    ]
    assert found == [True, True, True]  # one side or both have __all__
    assert [python_api._HOOKS.get(v) for v in (v0, v1, v2, v3)] == [False, True, True, False]
    python_api._HOOKS.clear()
    assert python_api._hooked(v0, v0.replace("1", "3"), "    return 1\n    return 3") is False


def test_a_default_made_none_that_reads_a_configured_value_of_the_old_default(
    tmp_path: Path, mode: str
) -> None:
    """marshmallow 3.22 made ``Schema(many=False)`` ``many=None``, read as ``self.opts.many``,
    the ``class Meta`` option whose own default is ``getattr(meta, "many", False)``: callers
    that pass nothing get what they got. One whose option defaults to something else, or
    whose body reads an attribute the module never sets, changed its default."""
    before = (
        "class Opts:\n    def __init__(self, meta):\n"
        "        self.unknown = getattr(meta, 'u', 1)\n\n\n"
        "class Schema:\n    def __init__(self, *, many=False, unknown=1, size=0):\n"
        "        self.many = many\n        self.unknown = unknown\n        self.size = size\n"
    )
    after = (
        "class Opts:\n    def __init__(self, meta):\n        self.unknown = getattr(meta, 'u', 2)\n"
        '        self.many = getattr(meta, "many", False)\n\n\n'
        "class Schema:\n    def __init__(self, *, many=None, unknown=None, size=None):\n"
        "        self.many = self.opts.many if many is None else many\n"
        "        self.unknown = self.opts.unknown if unknown is None else unknown\n"
        "        self.size = self.opts.size if size is None else size\n"
    )
    versions = [("init", before), ("Meta many", after)]
    [items] = module_items(tmp_path, mode, "pkg/schema.py", versions)
    assert sorted(i.name for i in items) == [
        "pkg.schema.Schema.__init__(size)",
        "pkg.schema.Schema.__init__(unknown)",
    ]


def test_a_default_made_none_that_reads_what_the_constructor_was_given(
    tmp_path: Path, mode: str
) -> None:
    """click 8.2.0: ``CliRunner.invoke(catch_exceptions=True)`` became ``None``, read as
    ``self.catch_exceptions`` — set in ``__init__`` from its own ``catch_exceptions=True``:
    a call that passes nothing still catches (black's tests had 32 "affected" calls). One
    whose constructor defaults to another value changed its default."""
    before = (
        "class Runner:\n    def __init__(self, charset='utf-8', echo=False):\n"
        "        self.charset = charset\n        self.echo = echo\n\n"
        "    def invoke(self, cli, catch_exceptions=True, echo=False):\n"
        "        return cli, catch_exceptions, echo\n"
    )
    after = (
        "class Runner:\n    def __init__(\n        self,\n        charset: str = 'utf-8',\n"
        "        catch_exceptions: bool = True,\n        echo: bool = True,\n    ) -> None:\n"
        "        self.charset = charset\n        self.catch_exceptions: bool = catch_exceptions\n"
        "        self.echo = echo\n\n"
        "    def invoke(self, cli, catch_exceptions: bool | None = None, echo=None):\n"
        "        if catch_exceptions is None:\n"
        "            catch_exceptions = self.catch_exceptions\n"
        "        if echo is None:\n            echo = self.echo\n"
        "        return cli, catch_exceptions, echo\n"
    )
    versions = [("init", before), ("runner option", after)]
    [items] = module_items(tmp_path, mode, "pkg/testing.py", versions)
    assert sorted(i.name for i in items) == [
        "pkg.testing.Runner.__init__(echo)",  # False -> True
        "pkg.testing.Runner.invoke(echo)",  # False -> None, read as the runner's True
    ]


def test_a_default_made_a_constant_of_another_module_of_the_same_value_is_no_change(
    tmp_path: Path, mode: str
) -> None:
    """aiohttp's "Use DEFAULT_CHUNK_SIZE global" replaced ``read_bufsize=2 ** 18``,
    ``chunk_size=256 * 1024`` and ``limit=DEFAULT_MAX_DECOMPRESS_SIZE`` (``256 * 1024``, in
    ``compression_utils``, which the commit took it out of) with ``DEFAULT_CHUNK_SIZE``, imported
    from ``helpers`` (``2**18``): the same number, six "Breaking" lines. The constant is
    read where the module imports it from, relatively or by the package's name, before and
    after the commit; a constant of another value (``window``) and an int made a float
    (``ratio``: ``range(n)`` breaks) still changed the default."""
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "pkg/__init__.py": "from .client import Session\nfrom .files import FileResponse\n",
            "pkg/helpers.py": "CHUNK = 2**16\n",
            "pkg/_compression.py": "MAX_DECOMPRESS: int = 256 * 1024\n",
            "pkg/client.py": (
                "from ._compression import MAX_DECOMPRESS\n\n\nclass Session:\n"
                "    def __init__(self, read_bufsize=2 ** 18, limit=MAX_DECOMPRESS,"
                " window=2 ** 10, ratio=1):\n        self.limit = limit\n"
            ),
            "pkg/files.py": (
                "class FileResponse:\n    def __init__(self, chunk_size=256 * 1024, count=1):\n"
                "        self.chunk_size = chunk_size\n"
            ),
        }),
        CommitSpec("one chunk size", D[1], files={
            "pkg/helpers.py": "CHUNK = 2**16\nDEFAULT_CHUNK_SIZE = 2**18  # 256 KiB\n",
            "pkg/_compression.py": "\n",
            "pkg/client.py": (
                "from .helpers import CHUNK, DEFAULT_CHUNK_SIZE\n\n\nclass Session:\n"
                "    def __init__(self, read_bufsize=DEFAULT_CHUNK_SIZE, limit=DEFAULT_CHUNK_SIZE,"
                " window=CHUNK, ratio=1.0):\n        self.limit = limit\n"
            ),
            "pkg/files.py": (
                "from pkg.helpers import DEFAULT_CHUNK_SIZE\n\n\nclass FileResponse:\n"
                "    def __init__(self, chunk_size=DEFAULT_CHUNK_SIZE, count=1):\n"
                "        self.chunk_size = chunk_size\n"
            ),
        }),
    ], mode)  # fmt: skip
    assert sorted((i.name, i.detail) for i in items) == [
        ("pkg.client.Session.__init__(ratio)", "1 → 1.0"),
        ("pkg.client.Session.__init__(window)", "2 ** 10 → CHUNK"),
    ]


def test_a_sentinel_made_another_that_is_set_back_alike_is_no_change(
    tmp_path: Path, mode: str
) -> None:
    """aiohttp's "Bump mypy" made ``RequestInfo.__new__(real_url=_SENTINEL)`` (the enum)
    ``real_url=sentinel`` (its member), and ``url if real_url is _SENTINEL else real_url``
    the same test of the new marker: a call that passes nothing gets ``url`` as before. One
    set back to another value (``timeout``: 5, then 10), or to nothing the function says
    (``retries``, only passed on), changed its default."""
    before = (
        "import enum\n\n_SENTINEL = enum.Enum('_SENTINEL', 'sentinel')\n\n\n"
        "class RequestInfo(tuple):\n"
        "    def __new__(cls, url, real_url=_SENTINEL, timeout=_SENTINEL, retries=None):\n"
        "        if timeout is _SENTINEL:\n            timeout = 5\n"
        "        send(retries=retries)\n"
        "        return tuple.__new__(cls, (url, url if real_url is _SENTINEL else real_url))\n"
    )
    after = (
        "import enum\n\n_SENTINEL = enum.Enum('_SENTINEL', 'sentinel')\n"
        "sentinel = _SENTINEL.sentinel\n\n\n"
        "class RequestInfo(tuple):\n"
        "    def __new__(cls, url, real_url=sentinel, timeout=sentinel, retries=sentinel):\n"
        "        if timeout is sentinel:\n            timeout = 10\n"
        "        send(retries=retries)\n"
        "        return tuple.__new__(cls, (url, url if real_url is sentinel else real_url))\n"
    )
    versions = [("init", before), ("one sentinel", after)]
    [items] = module_items(tmp_path, mode, "pkg/reqrep.py", versions)
    assert sorted((i.name, i.detail) for i in items) == [
        ("pkg.reqrep.RequestInfo.__new__(retries)", "None → sentinel"),
        ("pkg.reqrep.RequestInfo.__new__(timeout)", "_SENTINEL → sentinel"),
    ]


def test_a_base_written_as_a_module_alias_of_it_is_the_same_base(tmp_path: Path, mode: str) -> None:
    """aiohttp's "Cleanup TYPE_CHECKING variables": ``IterableBase``, bound to
    ``Iterable[Morsel[str]]`` for type checkers and to ``Iterable`` at run time, and
    ``BaseClass`` (``collections.abc.MutableMapping``) were written out in the classes'
    bases: the same bases, two "Breaking" lines. An alias of another class than the new
    base (``DictBase = dict`` -> ``Mapping``) still changed the bases (and ``DictBase``,
    a name of the module, went), and so did a base made a name that is the class for type
    checkers only (``_Base``: ``LoggingMixin`` under ``if TYPE_CHECKING:``, ``object`` at
    run time)."""
    before = (
        "import collections.abc\nfrom collections.abc import Iterable, Mapping, Sized\n"
        "from typing import TYPE_CHECKING, Any, MutableMapping\n\n"
        "if TYPE_CHECKING:\n    IterableBase = Iterable[str]\n"
        "    BaseClass = MutableMapping[str, Any]\n"
        "else:\n    IterableBase = Iterable\n    BaseClass = collections.abc.MutableMapping\n"
        "\nDictBase = dict\n\n\n"
        "class CookieJar(Sized, IterableBase):\n    pass\n\n\n"
        "class Response(BaseClass):\n    pass\n\n\n"
        "class Headers(DictBase):\n    pass\n\n\n"
        "class Worker(LoggingMixin):\n    pass\n"
    )
    after = (
        "from collections.abc import Iterable, Mapping, Sized\n"
        "from typing import TYPE_CHECKING, Any, MutableMapping\n\n"
        "if TYPE_CHECKING:\n    _Base = LoggingMixin\nelse:\n    _Base = object\n\n\n"
        "class CookieJar(Sized, Iterable[str]):\n    pass\n\n\n"
        "class Response(MutableMapping[str, Any]):\n    pass\n\n\n"
        "class Headers(Mapping[str, str]):\n    pass\n\n\n"
        "class Worker(_Base):\n    pass\n"
    )
    versions = [("init", before), ("no aliases", after)]
    [items] = module_items(tmp_path, mode, "pkg/abc.py", versions)
    from commitdigest.analysis.radar.pyapi import class_aliases

    speedups = "try:\n    from _speedups import Base\nexcept ImportError:\n    Base = object\n"
    assert class_aliases(speedups) == {}  # (bound by an import too: no alias of ``object``)
    assert sorted((i.name, i.detail) for i in items) == [
        ("pkg.abc.DictBase", ""),
        ("pkg.abc.Headers", "bases (DictBase) → (Mapping[str, str])"),
        ("pkg.abc.Worker", "bases (LoggingMixin) → (_Base)"),
    ]


def test_a_def_in_a_top_level_block_below_a_class_is_the_modules() -> None:
    """The regex model of a module (``light_api``): a def in a top-level ``if``/``else``
    below a class is the module's (aiohttp's ``request`` was read as the method of the
    class above it), not a def after a string's or a bracket's lines written at the
    margin inside a class (a reviewer's ``help = (`` / ``"Run it."`` / ``)``)."""
    from commitdigest.analysis.radar.pyapi import light_api

    text = (
        'class Cmd:\n    help = (\n"Run the thing. "\n"Twice."\n    )\n\n'
        "    def run(self, *, verbose=False): ...\n\n\n"
        "class Table:\n    rows = [\n(1, 2),\n(3, 4),\n    ]\n\n"
        "    def lookup(self, k):\n        return k\n\n\n"
        "class A:\n    def f(self):\n        pass\n\n\n"
        "if X:\n\n    def g():\n        pass\n\nelse:\n\n    def g():\n        return 1\n"
    )
    assert sorted(light_api(text).objects) == [
        "A",
        "A.f",
        "Cmd",
        "Cmd.run",
        "Table",
        "Table.lookup",
        "g",
    ]


def test_a_string_or_a_bracket_at_the_margin_in_a_class_ends_no_class(
    tmp_path: Path, mode: str
) -> None:
    """A class attribute whose value's lines are written at the margin (``help = (`` /
    ``"Run the thing. "`` / ``)``, a table's rows): the methods below it are the class's,
    in every reading (they were read as the module's: ``run(verbose)`` "removed" where
    ``Cmd.run(verbose)`` was, and a commit that only wrapped the string so "removed"
    ``Cmd.run``)."""
    before = (
        "class Cmd:\n    help = 'Run the thing.'\n\n"
        "    def run(self, *, verbose=False):\n        return verbose\n\n"
        "    def stop(self):\n        pass\n\n\n"
        "class Table:\n    DATA = [\n1, 2, 3,\n    ]\n\n"
        "    def lookup(self, i, default=None):\n        return self.DATA[i]\n"
    )
    wrapped = before.replace(
        "    help = 'Run the thing.'\n", '    help = (\n"Run the thing. "\n"Twice."\n    )\n'
    )
    after = wrapped.replace("def run(self, *, verbose=False)", "def run(self)").replace(
        "def lookup(self, i, default=None)", "def lookup(self, i)"
    )
    versions = [("init", before), ("wrap the help", wrapped), ("drop verbose", after)]
    quiet, items = module_items(tmp_path, mode, "pkg/c.py", versions)
    assert quiet == []
    assert sorted(i.name for i in items) == [
        "pkg.c.Cmd.run(verbose)",
        "pkg.c.Table.lookup(default)",
    ]


def test_an_overload_with_a_comment_after_its_decorator_is_no_api(
    tmp_path: Path, mode: str
) -> None:
    """pydantic's "Do not emit typechecking error for invalid `Field()` default": new
    ``@overload  # `default` argument set, validate_default=True`` stubs, their bodies on
    their headers' lines, take ``validate_default: Literal[True]``: the decorator's comment
    hid the overload, and the stub read as the API ("``Field(validate_default)`` now
    required"). The implementation is the API; a change of it still counts."""
    before = (
        "from typing import Any, overload\n\n\n"
        "@overload\ndef Field(default: Any, *, validate_default: bool = False) -> Any: ...\n"
        "@overload\n"
        "def Field(*, default_factory: Any, validate_default: bool = False) -> Any: ...\n"
        "def Field(default=None, *, default_factory=None, validate_default=False, alias=None):\n"
        "    return default\n"
    )
    after = before.replace(
        "@overload\ndef Field(default: Any, *, validate_default: bool = False) -> Any: ...\n",
        "@overload  # `default` argument set, validate_default=True (no type checking)\n"
        "def Field(default: Any, *, validate_default: Literal[True]) -> Any: ...\n"
        "@overload  # `default` argument set, validate_default=False or isn't\n"
        "def Field(default: Any, *, validate_default: Literal[False] = ...) -> Any: ...\n",
    ).replace(", alias=None):", "):")
    versions = [("init", before), ("overloads", after)]
    [items] = module_items(tmp_path, mode, "pkg/fields.py", versions)
    assert [i.name for i in items] == ["pkg.fields.Field(alias)"]


def test_a_member_a_class_getattr_now_serves_is_not_removed(tmp_path: Path, mode: str) -> None:
    """SQLAlchemy's "Type mysql dialect": the ``DBAPIConnection`` protocol traded its
    ``autocommit: bool`` for ``def __getattr__(self, key: str) -> Any: ...``: every
    attribute is still there. A protocol without one still loses what it drops, and so
    does a class whose own ``__getattr__`` delegates (vllm-ascend's ``ACLGraphWrapper``)."""
    before = (
        "from typing import Any, Protocol\n\n\n"
        "class DBAPIConnection(Protocol):\n    def rollback(self) -> None: ...\n\n"
        "    autocommit: bool\n\n\n"
        "class Cursor(Protocol):\n    def close(self) -> None: ...\n\n    arraysize: int\n\n\n"
        "class Wrapper:\n    def __getattr__(self, key):\n"
        "        return getattr(self.inner, key)\n\n"
        "    def clear_graphs(self):\n        pass\n"
    )
    after = (
        "from typing import Any, Protocol\n\n\n"
        "class DBAPIConnection(Protocol):\n    def rollback(self) -> None: ...\n\n"
        "    def __getattr__(self, key: str) -> Any: ...\n\n\n"
        "class Cursor(Protocol):\n    def close(self) -> None: ...\n\n\n"
        "class Wrapper:\n    def __getattr__(self, key):\n"
        "        return getattr(self.inner, key)\n"
    )
    versions = [("init", before), ("getattr", after)]
    [items] = module_items(tmp_path, mode, "pkg/interfaces.py", versions)
    assert sorted(i.name for i in items) == [
        "pkg.interfaces.Cursor.arraysize",
        "pkg.interfaces.Wrapper.clear_graphs",
    ]


def test_keywords_moved_into_the_kwargs_that_take_them_are_not_removed(
    tmp_path: Path, mode: str
) -> None:
    """aiohttp's "Use kwargs in aiohttp.client.request": ``request(method, url, *,
    params=None, …, timeout=sentinel, …)`` became ``request(method, url, *, version=…,
    **kwargs)``, typed ``Unpack[_RequestOptions]`` in a def for type checkers and passed
    on by the def that runs: 18 parameters "removed", every call still works. A keyword
    the kwargs still take — a key of the TypedDict, one read from them, one passed on to a
    function of the module or a method of the class that takes it — is no removal; one
    nothing takes (``proxy``), one read to be refused (``Client.get(timeout)``; a read
    checked afterwards is taken: ``connect(timeout)``; a method the class inherits takes
    it: ``Session.post(verify)``), one only
    another class's method of that name reads (``Client.get(retries)``, ``Cache.get``
    reads it), one passed on to ``super().__init__`` (not followed) are, and one callers
    could pass by its position (``fetch(url, timeout)``) is keyword-only now."""
    before = (
        "def _request(method, url, *, params=None, timeout=None):\n"
        "    return method, url, params, timeout\n\n\n"
        "def request(method, url, *, params=None, data=None, cookies=None, timeout=None,"
        " proxy=None, version=11):\n"
        "    return _request(method, url, params=params, timeout=timeout)\n\n\n"
        "def fetch(url, timeout=None):\n"
        "    return _request('GET', url, timeout=timeout)\n\n\n"
        "class Base:\n    def __init__(self, *, size=10):\n        self.size = size\n\n\n"
        "class Pool(Base):\n    def __init__(self, *, size=10, block=True):\n"
        "        super().__init__(size=size)\n        self.block = block\n\n\n"
        "class Client:\n    def get(self, url, *, timeout=None, retries=3, headers=None):\n"
        "        return self._send(url, timeout=timeout, retries=retries, headers=headers)\n\n"
        "    def _send(self, url, *, timeout=None, retries=3, headers=None):\n"
        "        return url\n\n\n"
        "def connect(host, *, timeout=10):\n    return host, timeout\n\n\n"
        "class Sender:\n    def _send(self, url, *, verify=True):\n        return url\n\n\n"
        "class Session(Sender):\n    def post(self, url, *, verify=True):\n"
        "        return self._send(url, verify=verify)\n"
    )
    after = (
        "import sys\nfrom typing import TYPE_CHECKING, Any, TypedDict\n\n"
        "from typing_extensions import Unpack\n"
        "\n\nclass _Options(TypedDict, total=False):\n    params: Any\n    data: Any\n\n\n"
        "def _request(method, url, *, params=None, timeout=None, data=None):\n"
        "    return method, url, params, timeout\n\n\n"
        "if sys.version_info >= (3, 11) and TYPE_CHECKING:\n\n"
        "    def request(method, url, *, version=11, **kwargs: Unpack[_Options]): ...\n\n"
        "else:\n\n"
        "    def request(method, url, *, version=11, **kwargs: Any):\n"
        "        cookies = kwargs.pop('cookies', None)\n"
        "        return _request(method, url, **kwargs)\n\n\n"
        "def fetch(url, **kwargs):\n    return _request('GET', url, **kwargs)\n\n\n"
        "class Base:\n    def __init__(self, *, size=10):\n        self.size = size\n\n\n"
        "class Pool(Base):\n    def __init__(self, *, block=True, **kwargs):\n"
        "        super().__init__(**kwargs)\n        self.block = block\n\n\n"
        "class Cache:\n    def get(self, key, **kwargs):\n"
        "        return kwargs.get('retries')\n\n\n"
        "class Client:\n    def get(self, url, **kwargs):\n"
        "        if kwargs.get('timeout') is not None:\n"
        "            raise TypeError('get() no longer takes timeout')\n"
        "        return self._send(url, **kwargs)\n\n"
        "    def _send(self, url, *, headers=None):\n"
        "        return url\n\n\n"
        "def connect(host, **kwargs):\n    timeout = kwargs.pop('timeout', 10)\n"
        "    if timeout < 0:\n        raise ValueError('timeout must be positive')\n"
        "    return host, timeout\n\n\n"
        "class Sender:\n    def _send(self, url, *, verify=True):\n        return url\n\n\n"
        "class Session(Sender):\n    def post(self, url, **kwargs):\n"
        "        return self._send(url, **kwargs)\n"
    )
    versions = [("init", before), ("kwargs", after)]
    [items] = module_items(tmp_path, mode, "pkg/client.py", versions)
    assert sorted(i.name for i in items if i.change is ApiChangeType.REMOVED) == [
        "pkg.client.Client.get(retries)",
        "pkg.client.Client.get(timeout)",
        "pkg.client.Pool.__init__(size)",
        "pkg.client.request(proxy)",
    ]
    assert [(i.name, i.detail) for i in items if i.change is ApiChangeType.SIGNATURE_CHANGED] == [
        ("pkg.client.fetch(timeout)", "keyword-only")
    ]


def test_a_default_made_a_constant_or_an_enum_member_is_no_sentinel(
    tmp_path: Path, mode: str
) -> None:
    """A default made a named value — a constant of another plain value, an enum member —
    passed on to a function that falls back to the old value when it gets nothing: the
    function gets the new value, the default changed (a reviewer's case: a constant was
    taken for a sentinel, and ``_send``'s fallback for the old value). A name the function
    tests the parameter against is a sentinel wherever it comes from (pandas'
    ``observed=lib.no_default``, set back to ``False``): no change."""
    before = (
        "import enum\n\n\nclass Mode(enum.Enum):\n    SAFE = 1\n    FAST = 2\n\n\n"
        "def _send(url, timeout=None, mode=None):\n"
        "    if timeout is None:\n        timeout = getattr(settings, 'TIMEOUT', 30)\n"
        "    mode = options.get('mode', Mode.SAFE)\n    return url, timeout, mode\n\n\n"
        "def fetch(url, timeout=30, mode=Mode.SAFE):\n"
        "    return _send(url, timeout=timeout, mode=mode)\n\n\n"
        "def group(by, observed=False):\n    return by, observed\n"
    )
    after = (
        before.replace("import enum\n", "import enum\n\nDEFAULT_TIMEOUT = 60\n")
        .replace(
            "def fetch(url, timeout=30, mode=Mode.SAFE):",
            "def fetch(url, timeout=DEFAULT_TIMEOUT, mode=Mode.FAST):",
        )
        .replace(
            "def group(by, observed=False):\n",
            "def group(by, observed=lib.no_default):\n"
            "    if observed is lib.no_default:\n        observed = False\n",
        )
    )
    versions = [("init", before), ("new defaults", after)]
    [items] = module_items(tmp_path, mode, "pkg/client.py", versions)
    assert sorted((i.name, i.detail) for i in items) == [
        ("pkg.client.fetch(mode)", "Mode.SAFE → Mode.FAST"),
        ("pkg.client.fetch(timeout)", "30 → DEFAULT_TIMEOUT"),
    ]


def test_a_default_made_a_sentinel_for_the_session_setting_of_the_old_value(
    tmp_path: Path, mode: str
) -> None:
    """aiohttp's "Add the ssl parameter to ClientSession": ``ws_connect(ssl=True)`` became
    ``ssl=sentinel``, passed on to ``_ws_connect``, from there to ``request``, which passes
    its ``**kwargs`` on to ``_request``, which reads ``self._default_ssl`` when it is the
    sentinel: set in ``__init__`` from the new ``ssl=True``. A call that passes nothing
    gets what it got (the report's Act on had a "Breaking" line). One whose session default
    is another value (``verify``), or that no function sets back (``retries``, dropped on
    the way), changed its default."""
    before = (
        "class Session:\n    def __init__(self, *, proxy=None):\n        self._proxy = proxy\n\n"
        "    def request(self, method, url, **kwargs):\n"
        "        return self._request(method, url, **kwargs)\n\n"
        "    def _request(self, method, url, *, ssl=True, verify=True):\n"
        "        return method, url, ssl, verify\n\n"
        "    def ws_connect(self, url, *, ssl=True, verify=True, retries=3):\n"
        "        return self._ws_connect(url, ssl=ssl, verify=verify, retries=retries)\n\n"
        "    def _ws_connect(self, url, *, ssl=True, verify=True, retries=3):\n"
        "        return self.request('GET', url, ssl=ssl, verify=verify)\n"
    )
    after = (
        "sentinel = object()\n\n\nclass Session:\n"
        "    def __init__(self, *, proxy=None, ssl: bool = True, verify: bool = False):\n"
        "        self._proxy = proxy\n        self._default_ssl = ssl\n"
        "        self._default_verify = verify\n\n"
        "    def request(self, method, url, **kwargs):\n"
        "        return self._request(method, url, **kwargs)\n\n"
        "    def _request(self, method, url, *, ssl=sentinel, verify=sentinel):\n"
        "        if ssl is sentinel:\n            ssl = self._default_ssl\n"
        "        if verify is sentinel:\n            verify = self._default_verify\n"
        "        return method, url, ssl, verify\n\n"
        "    def ws_connect(self, url, *, ssl=sentinel, verify=sentinel, retries=sentinel):\n"
        "        return self._ws_connect(url, ssl=ssl, verify=verify, retries=retries)\n\n"
        "    def _ws_connect(self, url, *, ssl=sentinel, verify=sentinel, retries=sentinel):\n"
        "        return self.request('GET', url, ssl=ssl, verify=verify)\n"
    )
    versions = [("init", before), ("session ssl", after)]
    [items] = module_items(tmp_path, mode, "pkg/client.py", versions)
    assert sorted((i.name, i.detail) for i in items) == [
        ("pkg.client.Session.ws_connect(retries)", "3 → sentinel"),
        ("pkg.client.Session.ws_connect(verify)", "True → sentinel"),
    ]


def test_none_made_a_use_the_default_sentinel_is_the_same_default(
    tmp_path: Path, mode: str
) -> None:
    """starlette 0.43 made ``TestClient.get(follow_redirects=None)``
    ``httpx._client.USE_CLIENT_DEFAULT``, what it had mapped ``None`` to: no change (every
    ``client.get()`` of fastapi's tests was "affected"). ``None`` made another sentinel
    (click 8.3's ``flag_value=None`` -> ``UNSET``) or a default value still counts, and so
    does one where the old code never named the sentinel."""
    pick = (
        "    def _pick(self, follow_redirects):\n"
        "        if follow_redirects is None:\n"
        "            return httpx._client.USE_CLIENT_DEFAULT\n"
        "        return follow_redirects\n"
    )
    before = (
        "import httpx\n\n\nclass TestClient(httpx.Client):\n"
        "    def get(self, url, follow_redirects=None, flag_value=None, timeout=None):\n"
        "        return self._pick(follow_redirects)\n\n" + pick
    )
    after = (
        "import httpx\n\n\nclass TestClient(httpx.Client):\n"
        "    def get(self, url, follow_redirects=httpx._client.USE_CLIENT_DEFAULT,\n"
        "            flag_value=UNSET, timeout=DEFAULT_TIMEOUT):\n"
        "        return self._pick(follow_redirects)\n\n" + pick
    )
    versions = [("init", before), ("client default", after)]
    [items] = module_items(tmp_path / "a", mode, "pkg/testclient.py", versions)
    assert sorted(i.name for i in items) == [
        "pkg.testclient.TestClient.get(flag_value)",
        "pkg.testclient.TestClient.get(timeout)",
    ]
    # None passed straight to httpx, where it means no timeout: made the sentinel, a call
    # that passes nothing gets the client's timeout (the old module named no sentinel)
    before = (
        "import httpx\n\n\nclass Api:\n    def get(self, url, timeout=None):\n"
        "        return httpx.get(url, timeout=timeout)\n"
    )
    after = before.replace("timeout=None)", "timeout=httpx.USE_CLIENT_DEFAULT)")
    versions = [("init", before), ("client default", after)]
    [items] = module_items(tmp_path / "b", mode, "pkg/api.py", versions)
    assert [i.name for i in items] == ["pkg.api.Api.get(timeout)"]


def test_a_warning_about_passing_a_parameter_deprecates_the_parameter(
    tmp_path: Path, mode: str
) -> None:
    """starlette's ``TestClient.request`` warns "You should not use the 'timeout' argument
    with the TestClient" under ``if timeout is not USE_CLIENT_DEFAULT:``: the parameter is
    deprecated, not the method (every ``client.request(...)`` of fastapi's tests was
    "affected"). The parameter an ``if`` around the warning tests, alone, is one too; a
    warning straight in the body, or under a test of several parameters, is the def's."""
    warn = "warnings.warn({}, DeprecationWarning)"
    after = (
        "import warnings\n\nimport httpx\n\n\nclass Client(httpx.Client):\n"
        "    def request(self, method, url, *, json=None, timeout=httpx.USE_CLIENT_DEFAULT):\n"
        "        if timeout is not httpx.USE_CLIENT_DEFAULT:\n            warnings.warn(\n"
        "                \"You should not use the 'timeout' argument with the TestClient.\",\n"
        "                DeprecationWarning,\n            )\n        return url\n\n"
        "    def get(self, url, data=None):\n        if isinstance(data, str):\n"
        f"            {warn.format(repr('Passing text is deprecated'))}\n"
        "        return url\n\n"
        f"    def old(self, url):\n        {warn.format(repr('old() is going away'))}\n"
        "        return url\n\n"
        "    def both(self, a, b):\n        if a and b:\n"
        f"            {warn.format(repr('this goes away'))}\n"
    )
    before = re.sub(r"\n *(?:if .*:\n +)?warnings\.warn\((?:[^()]|\([^()]*\))*\)", "", after)
    assert "warnings.warn" not in before
    versions = [("init", before), ("warn", after)]
    [items] = module_items(tmp_path, mode, "pkg/client.py", versions, RadarKind.DEPRECATION)
    assert sorted((i.name, i.change.value) for i in items) == [
        ("pkg.client.Client.both", "deprecated"),
        ("pkg.client.Client.get(data)", "deprecated"),
        ("pkg.client.Client.old", "deprecated"),
        ("pkg.client.Client.request(timeout)", "deprecated"),
    ]


def test_release_notes_words_of_a_changed_api_and_references_left_empty() -> None:
    """urllib3 2.6.0's caution, "make sure to update them to respect the changed API of
    ``urllib3.response.ContentDecoder``", is a break ("API changes" in a release's summary is
    none); marshmallow's "Drop support for Python 3.8 (:pr:`2318`)." is named without the
    "()" its reference left."""
    from commitdigest.analysis.radar.changelog import plain_entry

    log = (
        "2.6.0 (2025-12-05)\n==================\n\nSecurity\n--------\n\n"
        "- Fixed a security issue with decompression bombs.\n\n"
        ".. caution::\n"
        "  - If you use custom decompressors, please make sure to update them to\n"
        "    respect the changed API of ``urllib3.response.ContentDecoder``.\n\n"
        "Features\n--------\n\n"
        "- Listed the API changes of 2.0 in the migration guide.\n"
    )
    assert announced(log) == {
        "Fixed a security issue with decompression bombs.": False,
        "If you use custom decompressors, please make sure to update them to respect the "
        "changed API of ``urllib3.response.ContentDecoder``.": True,
        "Listed the API changes of 2.0 in the migration guide.": False,
    }
    # click 8.4.2: what deprecated commands no longer do, a blemish, is neither a break nor
    # a deprecation (it read as both); deprecating still is one
    click = (
        "## 8.4.2\n\n- Deprecated commands and options with empty or missing help text no "
        "longer render a stray leading space before the `(DEPRECATED)` label.\n"
        "- Deprecated the `--x` option.\n- The `--y` option no longer renders its help.\n"
        "- Deprecated the ``declarative_mixin`` decorator since it was used only by the now "
        "removed mypy plugin.\n"
    )
    assert list(announced(click).values()) == [False, True, True, True]
    # what an entry's first words say it does comes first (xarray's "Change the default
    # value for ``chunk`` … and remove special mapping …" read as a removal; llm's "The
    # default model … is now GPT-5.6 Luna, replacing GPT-4o mini" too)
    from commitdigest.analysis.radar.announced import change_named

    assert [
        change_named(text, breaking=True)
        for text in (
            "Change the default value for ``chunk`` and remove special mapping of ``auto``.",
            "The default model is now Luna; `gpt-4o-mini` was removed from the list.",
            "The deprecated `proxies` argument has now been removed.",
            "Drop `x`, which changed its default in 2.0.",
        )
    ] == [
        ApiChangeType.DEFAULT_CHANGED,
        ApiChangeType.DEFAULT_CHANGED,
        ApiChangeType.REMOVED,
        ApiChangeType.REMOVED,
    ]
    dropped = "Drop support for Python 3.8 (:pr:`2318`)."
    assert plain_entry(dropped) == "Drop support for Python 3.8."
    assert plain_entry("Fix `f()` (see :issue:`3`, :issue:`4`).") == "Fix `f()`."
    assert plain_entry("Use x. By default, y.") == "Use x. By default, y."


def test_a_class_constant_renamed_keeps_its_value(tmp_path: Path, mode: str) -> None:
    """vllm-ascend 7d953ad renamed ``QuantType.MXFP8 = 3`` to ``W8A8MXFP = 3`` (four
    members): each read as removed, with nothing said of its new name. A constant whose
    value a single new constant now has is renamed; one whose value another old constant
    shares, an ``auto()`` one, or one two new constants could take, is removed."""
    before = (
        "from enum import Enum, auto\n\n\nclass QuantType(Enum):\n"
        '    """Quantization types."""\n\n'
        "    NONE = 0\n    MXFP8 = 3\n    MXFP4 = 5\n    OLD = 9\n    LEGACY = 9\n"
        "    DYNAMIC = auto()\n    PAIR = 7\n\n"
        "    def label(self):\n        X = 3\n        return X\n"
    )
    after = (
        "from enum import Enum, auto\n\n\nclass QuantType(Enum):\n"
        '    """Quantization types."""\n\n'
        "    NONE = 0  # no quantization\n    W8A8MXFP = 3  # W and A are MXFP8\n"
        "    W4A4MXFP = 5\n    LEGACY = 9\n    NEW = 9\n    STATIC = auto()\n"
        "    PAIR_A = 7\n    PAIR_B = 7\n\n    def label(self):\n        X = 3\n        return X\n"
    )
    [items] = module_items(tmp_path, mode, "pkg/quant.py", [("init", before), ("rename", after)])
    assert sorted((i.name, i.change, i.detail) for i in items) == [
        ("pkg.quant.QuantType.DYNAMIC", ApiChangeType.REMOVED, ""),
        ("pkg.quant.QuantType.MXFP4", ApiChangeType.RENAMED, "MXFP4 → W4A4MXFP"),
        ("pkg.quant.QuantType.MXFP8", ApiChangeType.RENAMED, "MXFP8 → W8A8MXFP"),
        ("pkg.quant.QuantType.OLD", ApiChangeType.REMOVED, ""),
        ("pkg.quant.QuantType.PAIR", ApiChangeType.REMOVED, ""),
    ]
    assert all(i.breaking for i in items)


def test_a_default_written_as_a_constant_of_its_value_is_the_same_default(
    tmp_path: Path, mode: str
) -> None:
    """urllib3 ae1f7da020 wrote ``amt=2 ** 16`` as ``amt=_READ_CHUNK_SIZE`` (``= 2**16``): no
    default changed. A constant of another value still changes it, and so does a sentinel
    the function does not set back to the old value, tested or not: what the function does
    without the argument may have changed (jinja's ``enable_async=False`` -> ``missing``,
    set only when passed; SQLAlchemy's ``isolate_from_table=True`` -> ``NO_ARG``, which now
    acts as False). One it sets back (``if parser is _default: parser = None``) is the
    same default, as ``None`` set back is."""
    before = (
        "class Response:\n    def stream(self, amt=2 ** 16, size=1024):\n        return amt\n\n"
        "    def eval(self, expr, parser=None, engine='numexpr', isolate=True):\n"
        "        return parser\n"
    )
    after = (
        "_READ_CHUNK_SIZE = 2**16\n_SIZE = 4096\n_default = object()\n\n\n"
        "class Response:\n    def stream(self, amt=_READ_CHUNK_SIZE, size=_SIZE):\n"
        "        return amt\n\n"
        "    def eval(self, expr, parser=_default, engine=_default, isolate=_default):\n"
        "        if parser is _default:\n            parser = None\n"
        "        if isolate is not _default:\n            warn('isolate is deprecated')\n"
        "        return parser, engine\n"
    )
    versions = [("init", before), ("constants", after)]
    [items] = module_items(tmp_path, mode, "pkg/response.py", versions)
    assert sorted((i.name, i.detail) for i in items) == [
        ("pkg.response.Response.eval(engine)", "'numexpr' → _default"),
        ("pkg.response.Response.eval(isolate)", "True → _default"),
        ("pkg.response.Response.stream(size)", "1024 → _SIZE"),
    ]


def test_a_default_in_transition_that_keeps_the_old_value_is_the_same_default(
    tmp_path: Path, mode: str
) -> None:
    """xarray started a deprecation cycle of ``merge``'s and ``concat``'s defaults:
    ``compat="no_conflicts"`` became ``compat=_COMPAT_DEFAULT``, with ``_COMPAT_DEFAULT =
    CombineKwargDefault(name="compat", old="no_conflicts", new="override")`` in another
    module (one such marker written over three lines), which warns where the result would
    change: twenty "default changed" lines for what its changelog announces as a
    deprecation. A marker whose old value is another, or a constant of another value,
    still changes the default."""
    helpers = (
        "class CombineKwargDefault:\n    def __init__(self, *, name, old, new):\n"
        "        self.old = old\n\n\n"
        '_COMPAT_DEFAULT = CombineKwargDefault(name="compat", old="no_conflicts", new="override")\n'
        "_CONCAT_DEFAULT = CombineKwargDefault(\n"
        '    name="compat", old="equals", new="override"\n)\n'
        '_JOIN_DEFAULT = CombineKwargDefault(name="join", old="inner", new="exact")\n'
    )
    before = (
        'def merge(objects, compat="no_conflicts", join="outer"):\n    return objects\n\n\n'
        'def concat(objects, compat="equals"):\n    return objects\n\n\n'
        'def split(text, sep="("):\n    return text\n'
    )
    after = (
        "from pkg.helpers import _COMPAT_DEFAULT, _CONCAT_DEFAULT, _JOIN_DEFAULT\n\n\n"
        "def merge(objects, compat=_COMPAT_DEFAULT, join=_JOIN_DEFAULT):\n"
        "    return objects\n\n\n"
        "def concat(objects, compat=_CONCAT_DEFAULT):\n    return objects\n\n\n"
        'OPEN = "("\nCLOSE = ")"\n\n\n'  # (a bracket in a string opens none)
        "def split(text, sep=OPEN):\n    return text\n"
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/helpers.py": helpers,
                                        "pkg/merge.py": before}),
        CommitSpec("Start a deprecation cycle", D[1], files={"pkg/merge.py": after}),
    ], mode)  # fmt: skip
    assert [(i.name, i.detail) for i in items if i.kind is RadarKind.PYTHON_API] == [
        ("pkg.merge.merge(join)", '"outer" → _JOIN_DEFAULT')
    ]


def test_a_star_args_its_function_refused_is_no_removed_parameter(
    tmp_path: Path, mode: str
) -> None:
    """xarray's ``hist(darray, *args, figsize=None)`` asserted ``len(args) == 0`` (positional
    arguments were never accepted), and ``*args`` became ``*``: no call broke, and it was
    "removed". One that raised if given anything alike; one passed on (``scatter``) still
    counts."""
    before = (
        "def hist(darray, *args, figsize=None):\n"
        "    assert len(args) == 0, 'use keywords'\n    return darray\n\n\n"
        "def line(darray, *args, x=None):\n"
        "    if args:  # (never allowed)\n        raise TypeError('keywords only')\n"
        "    return darray\n\n\n"
        "def scatter(ds, *args, x=None):\n    return ds.plot(*args, x=x)\n\n\n"
        "def plot(darray, *args, legacy=False):\n"
        "    if legacy:\n        return darray.old(*args)\n"
        "    if args:\n        raise TypeError('no args')\n    return darray\n\n\n"
        "def area(darray, *args):\n"
        "    def check(*args):\n        assert not args\n"
        "    return darray.area(*args)\n"
    )
    after = (
        "def hist(darray, *, figsize=None):\n    return darray\n\n\n"
        "def line(darray, *, x=None):\n    return darray\n\n\n"
        "def scatter(ds, *, x=None):\n    return ds.plot(x=x)\n\n\n"
        "def plot(darray, *, legacy=False):\n    return darray\n\n\n"
        "def area(darray):\n    return darray.area()\n"
    )
    [items] = module_items(tmp_path, mode, "pkg/plot.py", [("init", before), ("no *args", after)])
    assert sorted(i.name for i in items) == [  # (passed on where it was not refused)
        "pkg.plot.area(*args)", "pkg.plot.plot(*args)", "pkg.plot.scatter(*args)"
    ]  # fmt: skip


def test_what_a_package_imports_for_itself_from_elsewhere_is_no_reexport(
    tmp_path: Path, mode: str
) -> None:
    """Sphinx's package ``__init__`` files stopped importing ``from os import path``,
    ``from abc import ABC``, ``from docutils.nodes import Element, Node`` (its annotations'):
    no one imports ``sphinx.path`` or ``sphinx.domains.Element``, and 32 such names headed
    its Breaking section. A name it takes from the standard library, or from another
    project to use itself, is no re-export; one it takes from another project and uses
    nowhere is (Flask's ``from markupsafe import escape`` made ``flask.escape``), and so
    is one written ``X as X``, or its own package's."""
    before = (
        "from os import path\nimport os.path as osp\nfrom abc import ABC, abstractmethod\n"
        "from copy import copy\n"  # (used nowhere: the standard library's all the same)
        "from docutils.nodes import Element, Node\n"
        "from docutils.utils import relative_path\n"
        "from markupsafe import escape\n"
        "from markupsafe import (\n    Markup as Markup,\n    soft_str as soft_str,\n)\n"
        "from .errors import SphinxError\n\n\n"
        "class Domain(ABC):\n"
        "    @abstractmethod\n"
        "    def resolve(self, node: Element, other: 'Node') -> None:\n"
        "        if not path.exists(osp.sep):\n"
        "            raise SphinxError(relative_path(Markup, soft_str('x')))\n\n"
        "    def render(self, text, escape=True):\n"  # (a parameter, no use of ``escape``)
        "        return text if not escape else text\n"
    )
    after = (
        "from abc import ABC\n\n\n"
        "class Domain(ABC):\n    def resolve(self, node, other) -> None:\n        pass\n\n"
        "    def render(self, text, escape=True):\n        return text\n"
    )
    errors = "class SphinxError(Exception):\n    pass\n"
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/errors.py": errors,
                                        "pkg/domains/__init__.py": before}),
        CommitSpec("domains: fewer imports", D[1], files={"pkg/domains/__init__.py": after}),
    ], mode)  # fmt: skip
    assert sorted(i.name for i in items if i.kind is RadarKind.PYTHON_API) == [
        "pkg.domains.Markup",  # written "as Markup": offered
        "pkg.domains.SphinxError",  # its own package's (Sphinx restored such a name)
        "pkg.domains.escape",  # imported, used nowhere in it: offered
        "pkg.domains.soft_str",  # written "as soft_str" too, over several lines
    ]


def test_a_module_of_another_package_a_package_uses_itself_is_no_reexport(
    tmp_path: Path, mode: str
) -> None:
    """diffusers dropped the experimental warning of ``diffusers.modular_pipelines``:
    ``from ..utils import (…, logging)`` went with ``logger = logging.get_logger(__name__)``,
    and ``diffusers.modular_pipelines.logging`` read as removed API. A module of another
    package of its own that a package ``__init__`` uses itself is no re-export; one it uses
    nowhere, a function of its own package, and its own submodule still are."""
    before = (
        "from ..utils import is_torch_available, logging, helpers, tables\n"
        "from . import blocks\n\n"
        'logger = logging.get_logger(__name__)\nlogger.warning("experimental")\n\n'
        "if is_torch_available():\n    tables.load()\n"
        "if blocks.X:\n    tables.load()\n"  # (its own submodule, used: offered still)
    )
    after = "from ..utils import tables\n\ntables.load()\n"
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={
            "pkg/__init__.py": "",
            "pkg/utils/__init__.py": "from . import helpers, logging, tables\n\n\n"
                                     "def is_torch_available():\n    return False\n",
            "pkg/utils/logging.py": "def get_logger(name):\n    return name\n",
            "pkg/utils/helpers.py": "def helper():\n    pass\n",
            "pkg/utils/tables.py": "def load():\n    pass\n",
            "pkg/pipes/__init__.py": before, "pkg/pipes/blocks.py": "X = 1\n"}),
        CommitSpec("no experimental warning", D[1], files={"pkg/pipes/__init__.py": after}),
    ], mode)  # fmt: skip
    assert sorted(i.name for i in items if i.kind is RadarKind.PYTHON_API) == [
        "pkg.pipes.blocks",  # its own submodule
        "pkg.pipes.helpers",  # a module used nowhere in it: offered
        "pkg.pipes.is_torch_available",  # its own package's function
    ]


def test_a_type_checkers_stub_beside_the_run_time_definition_changes_nothing(
    tmp_path: Path, mode: str
) -> None:
    """Sphinx's sentinels: ``ALL = _All('ALL')`` became ``class ALL: ...`` under ``if
    TYPE_CHECKING:`` (``TYPE_CHECKING = False``, its own) with the same assignment under
    ``else:``, and later the stub an annotated name: at run time ``ALL`` is the same
    object throughout ("attribute → class" and back, six times each). A stub added alone
    beside what runs changes nothing either; what runs under ``else:`` is compared, and a
    change there is still found."""
    head = "TYPE_CHECKING = False\n\n\nclass _All:\n    pass\n\n\n"
    block = "if TYPE_CHECKING:\n    pass\nelse:\n    SUPPRESS = _All()\n"
    before = head + "ALL = _All()\nEMPTY = _All()\n\n\n" + block
    stubs = (
        head + "if TYPE_CHECKING:\n    class ALL: ...\n    class EMPTY: ...\n"
        "else:\n    ALL = _All()\n    EMPTY = _All()\n\n\n" + block
    )
    annotated = stubs.replace("    class ALL: ...\n", "    ALL: Final[int] = 1\n")
    stub_alone = annotated.replace("    pass\n", "    class SUPPRESS: ...\n")
    changed = stub_alone.replace("    EMPTY = _All()\n", "    def EMPTY() -> None:\n        pass\n")
    helper = (  # a stub beside a binding only a name under ``else:`` makes
        "\n\nif TYPE_CHECKING:\n    def helper(x: int) -> int: ...\n"
        "else:\n    helper = make_helper()\n"
    )
    versions = [
        ("init", before + helper), ("stubs", stubs + helper), ("annotated", annotated + helper),
        ("a stub alone", stub_alone + helper), ("a def", changed + helper),
        ("no helper", changed),
    ]  # fmt: skip
    found = module_items(tmp_path, mode, "pkg/sentinels.py", versions)
    assert [[(i.name, i.detail) for i in items] for items in found] == [
        [], [], [], [("pkg.sentinels.EMPTY", "attribute → function")],
        [("pkg.sentinels.helper", "")],  # (both went: the name is gone)
    ]  # fmt: skip


# ---- pytorch-lightning and uvicorn, read as a user would (twenty-eighth session) -------------

SLURM = """\
class ClusterEnvironment:
    def main_port(self) -> int:
        return 0


class SLURMEnvironment(ClusterEnvironment):
    def __init__(self, auto_requeue: bool = True) -> None:
        self._impl = auto_requeue

    @property
    def auto_requeue(self) -> bool:
        return self._impl

    @property
    def requeue_signal(self) -> int:
        return 9

    @property
    def queue(self) -> str:
        return "default"

    def detect(self) -> bool:
        return True
"""


def test_a_property_made_an_instance_attribute_is_no_removal(tmp_path: Path, mode: str) -> None:
    # pytorch-lightning's "Revert Rerouting" (25c9922): ``SLURMEnvironment.auto_requeue``, a
    # property over ``self._impl``, became ``self.auto_requeue = auto_requeue`` in
    # ``__init__`` (ten "removed" lines); ``env.auto_requeue`` reads the same. A property
    # that goes with no attribute set in its place, and a method made an attribute
    # (``env.detect()`` breaks), are still removals.
    after = SLURM.replace(
        "        self._impl = auto_requeue\n\n"
        "    @property\n    def auto_requeue(self) -> bool:\n        return self._impl\n\n"
        "    @property\n    def requeue_signal(self) -> int:\n        return 9\n\n"
        '    @property\n    def queue(self) -> str:\n        return "default"\n\n'
        "    def detect(self) -> bool:\n        return True\n",
        "        self.auto_requeue = auto_requeue\n        self.detect = True\n\n"
        "    def reset(self) -> None:\n        self.queue = None\n",
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/slurm.py": SLURM}),
        CommitSpec("Revert Rerouting", D[1], files={"pkg/slurm.py": after}),
    ], mode)  # fmt: skip
    assert names(items) == {
        "pkg.slurm.SLURMEnvironment.requeue_signal",
        "pkg.slurm.SLURMEnvironment.detect",
        "pkg.slurm.SLURMEnvironment.queue",  # set by ``reset()`` alone: not every instance's
    }


KUBEFLOW = """\
from abc import ABC, abstractmethod


class ClusterEnvironment(ABC):
    @abstractmethod
    def world_size(self) -> int: ...


class KubeflowEnvironment(ClusterEnvironment):
    def __init__(self) -> None:
        self.kubeflow_impl = object()

    def __str__(self) -> str:
        return "kubeflow"

    def world_size(self) -> int:
        return 1


class LSFEnvironment(ClusterEnvironment):
    def __init__(self, hosts: str) -> None:
        self.hosts = hosts

    def world_size(self) -> int:
        return 2


class GCPEnvironment(ClusterEnvironment):
    def __init__(self, *args, **kwargs) -> None:
        self.args = args

    def world_size(self) -> int:
        return 2
"""


def test_a_constructor_that_took_nothing_is_objects_once_it_goes(tmp_path: Path, mode: str) -> None:
    # pytorch-lightning's ``KubeflowEnvironment(ClusterEnvironment)``, whose base derives
    # from ``ABC``, dropped ``def __init__(self) -> None``: ``KubeflowEnvironment()`` is
    # built as before. A constructor that took an argument, and a ``__str__`` (``str(env)``
    # gives another text), still count.
    after = (
        KUBEFLOW.replace(
            "    def __init__(self) -> None:\n        self.kubeflow_impl = object()\n\n"
            '    def __str__(self) -> str:\n        return "kubeflow"\n\n',
            "",
        )
        .replace("    def __init__(self, hosts: str) -> None:\n        self.hosts = hosts\n\n", "")
        .replace(
            "    def __init__(self, *args, **kwargs) -> None:\n        self.args = args\n",
            "    pass\n",
        )
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/envs.py": KUBEFLOW}),
        CommitSpec("Revert Rerouting", D[1], files={"pkg/envs.py": after}),
    ], mode)  # fmt: skip
    assert names(items) == {
        "pkg.envs.KubeflowEnvironment.__str__",
        "pkg.envs.LSFEnvironment.__init__",
        "pkg.envs.GCPEnvironment.__init__",  # ``GCPEnvironment(1)`` breaks
    }


NEPTUNE = """\
from typing_extensions import override

from pkg.base import Logger


class NeptuneLogger(Logger):
    @override
    def log_metrics(self, metrics: dict) -> None:
        print(metrics)

    def run(self) -> None:
        return None


class CacheMixin:
    def get_doc(self) -> list:
        return super().get_doc()
"""


def test_an_override_goes_with_the_base_it_overrode(tmp_path: Path, mode: str) -> None:
    # pytorch-lightning's "Remove Neptune" (73f593d) made ``NeptuneLogger(Logger)`` a class
    # of its own that raises: its ``@override`` methods went with the base, and were
    # silent as "still inherited". A mixin that never had a base and hands the call on
    # (Sphinx's ``DocstringSignatureMixin.get_doc``: ``super().get_doc()``) still inherits.
    base = "class Logger:\n    def log_metrics(self, metrics: dict) -> None:\n        pass\n"
    after = (
        "class NeptuneLogger:\n    def __init__(self, *args, **kwargs) -> None:\n"
        '        raise RuntimeError("no longer supported")\n\n\n'
        "class CacheMixin:\n    pass\n"
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/base.py": base,
                                        "pkg/neptune.py": NEPTUNE}),
        CommitSpec("Remove Neptune", D[1], files={"pkg/neptune.py": after}),
    ], mode)  # fmt: skip
    assert names(items) == {
        "pkg.neptune.NeptuneLogger",  # bases (Logger) → ()
        "pkg.neptune.NeptuneLogger.log_metrics",
        "pkg.neptune.NeptuneLogger.run",
    }


COMET_KWARGS = """\
import logging

log = logging.getLogger(__name__)


class CometLogger:
    def __init__(self, api_key=None, save_dir=None, project_name=None, offline=None, *,
                 mode="online", **kwargs):
        self.api_key = api_key
        self.save_dir = save_dir
        self.project_name = project_name
        self.kwargs = kwargs


class Scraper:
    def close_spider(self, spider=None):
        return spider

    def rename(self, old_name=None, **kwargs):
        return old_name

    def get_indexes(self, connection, tablename, owner, **kw):
        return owner
"""


def test_a_positional_parameter_taken_in_kwargs_now_is_keyword_only(
    tmp_path: Path, mode: str
) -> None:
    # pytorch-lightning's ``CometLogger(api_key=None, save_dir=None, …)`` became ``(*,
    # api_key=None, project=None, **kwargs)`` and reads ``save_dir`` from ``kwargs`` with a
    # warning: ``CometLogger(None, "./logs")`` breaks, ``CometLogger(save_dir=…)`` does not
    # (four misses: silent as "still taken"). A keyword-only one taken so stays silent, a
    # renamed one whose old name a shim still takes at its place too, a required one read
    # from ``**kw`` (a decorator's to give: SQLAlchemy's ``@_db_plus_owner``, which passed
    # ``owner`` to ``get_indexes``) too, and a parameter gone
    # from a function without ``**kwargs`` is removed, whatever the module says of
    # deprecations (scrapy's ``Scraper.close_spider(spider)``: four misses).
    after = """\
import logging

log = logging.getLogger(__name__)


class CometLogger:
    def __init__(self, *, api_key=None, project=None, **kwargs):
        if "save_dir" in kwargs:
            log.warning("The parameter `save_dir` is deprecated, use `offline_directory`.")
            kwargs["offline_directory"] = kwargs.pop("save_dir")
        if "project_name" in kwargs:
            log.warning("The parameter `project_name` is deprecated, use `project`.")
            project = kwargs.pop("project_name")
        if "mode" in kwargs:
            kwargs.pop("mode")
        if "offline" in kwargs:
            log.warning("The parameter `offline` is deprecated and ignored.")
        self.api_key = api_key
        self.project = project
        self.kwargs = kwargs


class Scraper:
    def close_spider(self):
        log.warning("close_spider() is deprecated, use close_spider_async() instead")
        log.debug("closing the %s", "spider")
        return None

    def rename(self, new_name=None, **kwargs):
        if "old_name" in kwargs:
            log.warning("`old_name` is deprecated")
            new_name = kwargs.pop("old_name")
        return new_name

    def get_indexes(self, connection, tablename, **kw):
        return kw.pop("owner", None)
"""
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/comet.py": COMET_KWARGS}),
        CommitSpec("Update Comet for the new SDK", D[1], files={"pkg/comet.py": after}),
    ], mode)  # fmt: skip
    found = {(i.name, i.change, i.detail) for i in items}
    keyword_only = ApiChangeType.SIGNATURE_CHANGED
    assert found == {
        ("pkg.comet.CometLogger.__init__(api_key)", keyword_only, "keyword-only"),
        ("pkg.comet.CometLogger.__init__(save_dir)", keyword_only, "keyword-only"),
        ("pkg.comet.CometLogger.__init__(project_name)", keyword_only, "keyword-only"),
        ("pkg.comet.CometLogger.__init__(offline)", keyword_only, "keyword-only"),
        ("pkg.comet.Scraper.close_spider(spider)", ApiChangeType.REMOVED, ""),
    }


def test_a_base_written_as_pythons_other_name_for_it_is_the_same(tmp_path: Path, mode: str) -> None:
    # uvicorn's ``ClientDisconnected(IOError)`` -> ``(OSError)``: ``IOError is OSError``
    # (and ``EnvironmentError``); ``(IOError)`` -> ``(ValueError)`` is another base.
    before = "class ClientDisconnected(IOError):\n    pass\n\n\nclass Gone(IOError):\n    pass\n"
    after = before.replace("Disconnected(IOError)", "Disconnected(OSError)").replace(
        "Gone(IOError)", "Gone(ValueError)"
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/utils.py": before}),
        CommitSpec("Replace IOError by OSError", D[1], files={"pkg/utils.py": after}),
    ], mode)  # fmt: skip
    assert [(i.name, i.detail) for i in items] == [
        ("pkg.utils.Gone", "bases (IOError) → (ValueError)")
    ]


def test_a_breaking_marker_on_docs_housekeeping_announces_nothing(
    tmp_path: Path, mode: str
) -> None:
    """litestar marked five commits of a day ``docs(conf)!:`` (and one ``chore(docs)!:``)
    that changed only its Sphinx ``docs/conf.py``: no user's code can break. A ``docs!:``
    marker on a commit that deletes a module of the package, and ``feat(core)!:``, still
    announce."""
    conf = "html_context = {}\n\n\ndef update_html_context(app):\n    pass\n"
    [docs, chore, code, feat] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"pkg/__init__.py": "", "pkg/render.py": "x = 1\n",
                                        "docs/conf.py": conf, "pkg/core.py": "y = 1\n"}),
        CommitSpec("docs(conf)!: drop update_html_context (#4791)", D[1],
                   files={"docs/conf.py": "html_context = {}\n"}),
        CommitSpec("chore(docs)!: update sphinx version to 9 (#4790)", D[2],
                   files={"docs/conf.py": "html_context = {'v': 9}\n",
                          "pyproject.toml": "[dependency-groups]\ndocs = ['sphinx>=9']\n"}),
        CommitSpec("docs!: remove the render module", D[3], files={"pkg/render.py": None}),
        CommitSpec("feat(core/testing)!: Normalise exception handling", D[4],
                   files={"pkg/core.py": "y = 2\n"}),
    ], mode)  # fmt: skip
    assert docs == [] and chore == []
    assert [i.name for i in code if i.kind is RadarKind.ANNOUNCED] == ["remove the render module"]
    assert [i.name for i in feat] == ["Normalise exception handling"]


def test_a_breaking_change_footer_is_read_to_its_end(tmp_path: Path, mode: str) -> None:
    """A conventional ``BREAKING CHANGE:`` footer goes on over the lines below it (litestar's
    RapiDoc removal was named "… has been removed. Migrate to another"); a blank line, a
    bullet or another footer ends it."""
    body = (
        "* feat!: remove the RapiDoc OpenAPI UI plugin\n\n"
        "BREAKING CHANGE: RapidocRenderPlugin has been removed. Migrate to another\n"
        "bundled UI plugin such as ScalarRenderPlugin (the default).\n"
        "Closes #4975\n\n* docs: remove RapiDoc from the docs\n"
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"README.md": "x\n"}),
        CommitSpec("feat: Remove RapiDoc Plugin (#4977)", D[1], body=body,
                   files={"README.md": "y\n"}),
    ], mode)  # fmt: skip
    assert [i.name for i in items] == [
        "RapidocRenderPlugin has been removed. Migrate to another bundled UI plugin such as "
        "ScalarRenderPlugin (the default)."
    ]


LITESTAR_LOG = """\
:orphan:

3.x Changelog
=============

.. changelog:: 3.0.0
    :date: 2364-01-27

    .. change:: Remove deprecated ``params.Dependency``
        :type: feature
        :pr: 4818
        :breaking:

        Remove ``params.Dependency``, deprecated since 2.23.
"""
LITESTAR_NEW = """\
    .. change:: Remove default exception handler for all unhandled exceptions
        :type: feature
        :breaking:
        :pr: 4610

        Unhandled exceptions will now be re-raised, for the server to handle.

        .. important::

            Your application's behaviour won't change.

    .. change:: Fix ``raise_server_exceptions`` flag in test clients
        :type: bugfix
        :pr: 4610

        The flag has been non-functional since version 1: exceptions are no longer
        swallowed and the old workaround was removed.

"""


def test_litestars_changelog_directives_with_titles_and_a_breaking_flag(
    tmp_path: Path, mode: str
) -> None:
    """litestar writes its changelog with an extension of its own: a version is ``..
    changelog:: 3.0.0`` (its date ``:date:``), an entry ``.. change:: Title`` with a
    ``:type:`` and a ``:breaking:`` flag, indented under the version. Its breaking entries
    were never announced: the commit's new lines are all indented, no bullet, and the flag
    and title were not read. The flagged entry is named by its title; a bugfix beside it
    that says what it "removed" is the bug; the commit that dates a version releases it."""
    log = "docs/release-notes/changelog.rst"
    at = "    .. change:: Remove deprecated"
    section = ".. changelog:: 3.0.0\n"
    release = (
        ".. changelog:: 3.1.0\n    :date: 2026-06-11\n\n"
        "    .. change:: The ``default`` keyword of ``Body`` is gone\n"
        "        :type: feature\n        :breaking:\n\n"
        "        Passing it now raises a ``TypeError``.\n\n"
        "    .. change:: Fix the OpenAPI schema of nullable fields\n"
        "        :type: bugfix\n\n        They are no longer left out of ``required``.\n\n"
    )
    written, released = scan(tmp_path, [
        CommitSpec("init", D[0], files={"litestar/__init__.py": "", log: LITESTAR_LOG}),
        CommitSpec("feat(core)!: Normalise exception handling", D[1], files={
            log: LITESTAR_LOG.replace(at, LITESTAR_NEW + at)}),
        CommitSpec("chore: Prepare release 3.1.0", D[2], files={
            log: LITESTAR_LOG.replace(at, LITESTAR_NEW + at).replace(section, release + section)}),
    ], mode)  # fmt: skip
    entries = [(i.name, i.change, i.line) for i in written if i.path == log]
    assert entries == [
        ("Remove default exception handler for all unhandled exceptions", ApiChangeType.REMOVED, 9)
    ]
    assert [(i.name, i.release, i.breaking) for i in released] == [
        ("The ``default`` keyword of ``Body`` is gone", "3.1.0", True)
    ]


def test_a_dataclasss_post_init_deprecates_its_class_and_its_fields(
    tmp_path: Path, mode: str
) -> None:
    """litestar deprecated ``DependencyKwarg`` in its ``__post_init__``: a helper given
    ``deprecated_name="DependencyKwarg"`` (read ``DependencyKwarg.__post_init__``, a name no
    user calls), and, under ``if self.skip_validation:``, "Deprecated parameter
    'skip_validation'" (read ``skip_validation``, no name of the package at all). The first
    is the class, the second the field its constructor takes; a message there that names
    neither is the constructor's, and a helper in another method that quotes its class is
    that method's."""
    before = (
        "from dataclasses import dataclass, field\nfrom typing import Any, ClassVar\n\n\n"
        "@dataclass(frozen=True)\nclass DependencyKwarg:\n"
        '    """Data container representing a dependency."""\n\n'
        "    kind: ClassVar[str] = 'dependency'\n"
        "    default: Any = field(default=None)\n"
        "    skip_validation: bool = field(default=False)\n\n"
        "    def __hash__(self) -> int:\n        return 0\n\n"
        "    def __post_init__(self) -> None:\n        pass\n\n\n"
        "@dataclass\nclass Marker:\n    value: int = 0\n\n"
        "    def __post_init__(self) -> None:\n        pass\n\n"
        "    def render(self) -> str:\n        return ''\n"
    )
    after = (
        before.replace("from typing", "import warnings\nfrom typing")
        .replace(
            "    def __post_init__(self) -> None:\n        pass\n\n\n",
            "    def __post_init__(self) -> None:\n"
            '        warn_deprecation(\n            "2.23.0",\n            removal_in="3.0",\n'
            '            alternative="di.NamedDependency",\n            kind="class",\n'
            '            deprecated_name="DependencyKwarg",\n        )\n\n'
            "        if self.skip_validation:\n            warnings.warn(\n"
            "                \"Deprecated parameter 'skip_validation'. This will be removed in \"\n"
            '                "Litestar 3.0.",\n                category=DeprecationWarning,\n'
            "                stacklevel=2,\n            )\n\n\n",
        )
        .replace(
            "    def __post_init__(self) -> None:\n        pass\n\n    def render",
            "    def __post_init__(self) -> None:\n"
            "        warnings.warn('the old rendering is deprecated', DeprecationWarning)\n\n"
            "    def render",
        )
        .replace(
            "        return ''\n",
            '        warn_deprecation("2.0", kind="method", deprecated_name="Marker")\n'
            "        return ''\n",
        )
    )
    [items] = module_items(
        tmp_path, mode, "pkg/params.py", [("init", before), ("Deprecate Dependency", after)],
        kind=RadarKind.DEPRECATION,
    )  # fmt: skip
    assert sorted((i.name, i.position) for i in items) == [
        ("pkg.params.DependencyKwarg", None),
        ("pkg.params.DependencyKwarg.__init__(skip_validation)", 1),
        ("pkg.params.Marker.__init__", None),
        ("pkg.params.Marker.render", None),
    ]


def test_an_entrys_symbols_are_what_goes_not_what_it_adds() -> None:
    """litestar 2.23.0's "Deprecate ``params.Dependency``, introduce ``di.NamedDependency``
    and ``params.SkipValidation``" gave the two new names as its symbols, and not the
    deprecated one: a module of the package and its class, written from the package down,
    were read as another project's. What it adds — after "introduce", "add", also a role's
    target (":data:`di.NamedDependency <litestar.di.NamedDependency>`") — is no symbol."""
    from commitdigest.analysis.radar.announced import symbols_of

    title = (
        "**Deprecate ``params.Dependency``, introduce ``di.NamedDependency`` and "
        "``params.SkipValidation``**. - Add :data:`di.NamedDependency "
        "<litestar.di.NamedDependency>` generic - Deprecate ``params.Dependency``"
    )
    assert symbols_of(title, ["litestar"]) == ["litestar.params.Dependency"]
    assert symbols_of("Remove ``params.Dependency`` and ``di.Provide``.", ["litestar"]) == [
        "litestar.params.Dependency",
        "litestar.di.Provide",
    ]
    # (SQLAlchemy writes its references from a private prefix: no module of the package)
    said = "Calling `_orm.aliased` against a `_sql.CompoundSelect` is deprecated."
    assert not any("_sql" in s for s in symbols_of(said, ["sqlalchemy"]))


def test_a_deprecation_said_to_be_over_is_the_break_it_became(tmp_path: Path, mode: str) -> None:
    """trio files what a deprecation turns into as a ``deprecated`` fragment, released under
    "Deprecations and removals": "… now raises, after being deprecated since Trio 0.27.0"
    was a deprecation, not a break, on the day it was written and at the 0.34.0 release. A
    fragment that deprecates ("have been deprecated") is still one."""
    raises = (
        "Trying to use absolute deadlines on a `trio.CancelScope` constructed\n"
        "with a relative deadline now raises, after being deprecated since Trio\n0.27.0.\n"
    )
    deprecates = (
        "Both `trio.testing.RaisesGroup` and `trio.testing.Matcher` have been deprecated.\n"
    )
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files={"src/trio/__init__.py": "", "newsfragments/.gitkeep": ""}),
        CommitSpec("Disallow absolute deadlines for relative cancel scopes", D[1], files={
            "newsfragments/3403.deprecated.rst": raises,
            "newsfragments/3337.deprecated.rst": deprecates,
        }),
    ], mode)  # fmt: skip
    found = sorted((i.path, i.change, i.breaking) for i in items)
    assert found == [
        ("newsfragments/3337.deprecated.rst", ApiChangeType.DEPRECATED, False),
        ("newsfragments/3403.deprecated.rst", ApiChangeType.SIGNATURE_CHANGED, True),
    ]
    from commitdigest.analysis.radar.changelog import Entry, announces

    heading = "Deprecations and removals"
    assert announces(Entry(1, " ".join(raises.split()), heading)) == (None, True)
    assert announces(Entry(1, deprecates, heading)) == (ApiChangeType.DEPRECATED, False)


TRIO_DEPRECATE = """\
import sys
import types


class _ModuleWithDeprecations(types.ModuleType):
    def __getattr__(self, name):
        if name in self.__deprecated_attributes__:
            return self.__deprecated_attributes__[name]
        raise AttributeError(name)


def deprecate_attributes(module_name, deprecated_attributes):
    module = sys.modules[module_name]
    module.__class__ = _ModuleWithDeprecations
    module.__deprecated_attributes__ = deprecated_attributes
"""
TRIO_TESTING = """\
from .. import _deprecate as _deprecate
from ._raises_group import Matcher as Matcher, RaisesGroup as RaisesGroup
from ._sequencer import Sequencer as Sequencer
from ._trio_test import trio_test as trio_test
"""


def test_names_a_call_with_the_modules_name_serves_deprecated_are_not_removed(
    tmp_path: Path, mode: str
) -> None:
    """trio deprecated ``trio.testing.RaisesGroup`` and ``Matcher``: it imports them under
    private names and serves the public ones through ``_deprecate.deprecate_attributes(
    __name__, {"RaisesGroup": DeprecatedAttribute(…), …})``, which gives the module a class
    whose ``__getattr__`` looks them up; both read as removed. ``Sequencer``, dropped in
    the same commit and served by nothing, is."""
    after = TRIO_TESTING.replace(
        "Matcher as Matcher, RaisesGroup as RaisesGroup",
        "Matcher as _Matcher, RaisesGroup as _RaisesGroup",
    ).replace("from ._sequencer import Sequencer as Sequencer\n", "") + (
        "\n_deprecate.deprecate_attributes(\n    __name__,\n    {\n"
        '        "RaisesGroup": _deprecate.DeprecatedAttribute(\n'
        '            _RaisesGroup, version="0.33.0", issue=3326\n        ),\n'
        '        "Matcher": _deprecate.DeprecatedAttribute(_Matcher, version="0.33.0"),\n'
        "    },\n)\n"
    )
    files = {
        "src/trio/__init__.py": "", "src/trio/_deprecate.py": TRIO_DEPRECATE,
        "src/trio/testing/__init__.py": TRIO_TESTING,
        "src/trio/testing/_raises_group.py": "class Matcher:\n    pass\n\n\nclass RaisesGroup:\n"
        "    pass\n",
        "src/trio/testing/_sequencer.py": "class Sequencer:\n    pass\n",
        "src/trio/testing/_trio_test.py": "def trio_test(fn):\n    return fn\n",
    }  # fmt: skip
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files=files),
        CommitSpec("Deprecate `testing.RaisesGroup` and `testing.Matcher`", D[1],
                   files={"src/trio/testing/__init__.py": after}),
    ], mode)  # fmt: skip
    assert [(i.name, i.change) for i in items if i.kind is RadarKind.PYTHON_API] == [
        ("trio.testing.Sequencer", ApiChangeType.REMOVED)
    ]


CLI_EAGER = """\
from tool.cli.app import app, main

__all__ = ["app", "main", "script"]


def script():
    main()
"""
LOADER = """\
import sys
from importlib import import_module


def on_first_use(package, homes):
    def __getattr__(name):
        return getattr(import_module(homes[name], package), name)

    return __getattr__
"""


@pytest.mark.parametrize("served", ['"app": ".app", "main": ".app"', '"app": ".app"'])
def test_names_the_modules_getattr_made_by_an_imported_call_serves_are_not_removed(
    tmp_path: Path, mode: str, served: str
) -> None:
    """Our own b55e0b1 made ``commitdigest.cli`` load ``app`` and ``main`` on first use:
    their import became ``__getattr__ = lazy_getattr(__name__, {"app": ".app", …})``, the
    factory imported from another module; both read as removed. A name the table does not
    list (``main`` when only ``app`` is served) is removed."""
    after = CLI_EAGER.replace(
        "from tool.cli.app import app, main\n",
        "from typing import TYPE_CHECKING\n\nfrom tool._loader import on_first_use\n\n"
        "if TYPE_CHECKING:\n    from tool.cli.app import app, main\n",
    ).replace('"script"]\n', f'"script"]\n\n__getattr__ = on_first_use(__name__, {{{served}}})\n')
    files = {
        "src/tool/__init__.py": "", "src/tool/_loader.py": LOADER,
        "src/tool/cli/__init__.py": CLI_EAGER,
        "src/tool/cli/app.py": "app = object()\n\n\ndef main():\n    pass\n",
    }  # fmt: skip
    [items] = scan(tmp_path, [
        CommitSpec("init", D[0], files=files),
        CommitSpec("cli: load the commands on first use", D[1],
                   files={"src/tool/cli/__init__.py": after}),
    ], mode)  # fmt: skip
    removed = [(i.name, i.change) for i in items if i.kind is RadarKind.PYTHON_API]
    assert removed == ([] if "main" in served else [("tool.cli.main", ApiChangeType.REMOVED)])
    from commitdigest.analysis.radar.pyapi import module_api

    api = module_api(after, "tool.cli", True)
    assert api.lazy == ({"app": ".app", "main": ".app"} if "main" in served else {"app": ".app"})


CONSOLE = """\
import warnings

_EVENT_WIDTH = 30


class ConsoleRenderer:
    def __init__(self, pad_event: int = _EVENT_WIDTH, level: int = 3):
        self._pad_event = pad_event
        self._level = level
"""


def test_a_deprecated_parameter_made_none_hands_on_to_its_successor(
    tmp_path: Path, mode: str
) -> None:
    """structlog renamed ``ConsoleRenderer(pad_event=_EVENT_WIDTH)`` to ``pad_event_to``
    and kept ``pad_event: int | None = None``, which warns and is handed on (``pad_event_to
    = pad_event``) only when given: a caller that passes nothing still gets
    ``_EVENT_WIDTH``, from the new parameter's default, and one that passes it first sets
    ``pad_event_to`` as it did ``pad_event``. It read "default changed ``_EVENT_WIDTH →
    None``" beside its deprecation (and, that silenced, "position 1 → 3"). ``level`` made
    ``None`` and handed to a local of another value still changed."""
    after = CONSOLE.replace(
        "pad_event: int = _EVENT_WIDTH, level: int = 3",
        "pad_event_to: int = _EVENT_WIDTH, level: int | None = None, pad_event: int | None = None",
    ).replace(
        "        self._pad_event = pad_event\n        self._level = level\n",
        "        if pad_event is not None:\n"
        "            warnings.warn(\n"
        '                "The `pad_event` argument is deprecated. Use `pad_event_to` instead.",\n'
        "                DeprecationWarning,\n                stacklevel=2,\n            )\n"
        "            pad_event_to = pad_event\n\n"
        "        lvl = 1\n        if level is not None:\n            lvl = level\n"
        "        self._pad_event_to = pad_event_to\n        self._level = lvl\n",
    )
    [items] = module_items(
        tmp_path, mode, "pkg/dev.py", [("init", CONSOLE), ("rename argument", after)], kind=None
    )  # fmt: skip
    found = sorted((i.kind.value, i.name, i.detail) for i in items)
    assert found == [
        ("deprecation", "pkg.dev.ConsoleRenderer.__init__(pad_event)", ""),
        ("python_api", "pkg.dev.ConsoleRenderer.__init__(level)", "3 → None"),
    ]
