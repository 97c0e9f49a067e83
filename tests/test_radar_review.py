"""What a second reader found wrong in the seventeenth session's downstream and
deprecation rules (each a real shape: FastAPI's ``Query(regex=…)``, xarray's ``if
time_unit is None:``, the openai SDK's pass-through ``__init__``, a typer help text in an
annotation, …), held so that it stays right."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from test_radar_shapes import _item, _uses, module_items

from commitdigest.analysis.radar.announced import symbols_of
from commitdigest.analysis.radar.python_api import _configured
from commitdigest.models import ApiChangeType, RadarKind


def _names(tmp_path: Path, path: str, before: str, after: str, kind: RadarKind) -> list[str]:
    """The names of the items of ``kind`` that changing module ``path`` of ``pkg`` from
    ``before`` to ``after`` makes."""
    versions = [("init", before), ("change", after)]
    [items] = module_items(tmp_path, "whole files", path, versions, kind)
    return sorted(i.name for i in items)


# ---- test_deprecation_param.py ----------------------------------------


def test_a_quoted_replacement_parameter_is_not_the_deprecated_one(tmp_path: Path) -> None:
    """FastAPI 0.100 (fastapi/params.py): ``regex: Annotated[str | None, deprecated(
    "Deprecated in FastAPI 0.100.0 and Pydantic v2, use `pattern` instead.")] = None``.
    The message quotes the *replacement* ``pattern``: the radar deprecates
    ``Query.__init__(pattern)``, so every ``Query(pattern=...)`` (the new, right usage) is
    "affected" and every ``Query(regex=...)`` is missed. (Before the change: the whole
    ``__init__``.)"""
    before = (
        "class Query:\n    def __init__(\n        self,\n        default=None,\n"
        "        pattern: str | None = None,\n        regex: str | None = None,\n    ):\n"
        "        self.pattern = pattern or regex\n"
    )
    after = (
        "from typing import Annotated\n\nfrom typing_extensions import deprecated\n\n\n"
        "class Query:\n    def __init__(\n        self,\n        default=None,\n"
        "        pattern: str | None = None,\n        regex: Annotated[\n            str | None,\n"
        "            deprecated(\n"
        '                "Deprecated in FastAPI 0.100.0 and Pydantic v2, use `pattern` instead."\n'
        "            ),\n        ] = None,\n    ):\n"
        "        self.pattern = pattern or regex\n"
    )
    names = _names(tmp_path, "pkg/params.py", before, after, RadarKind.DEPRECATION)
    assert "pkg.params.Query.__init__(pattern)" not in names, names


def test_a_warning_under_is_none_is_about_leaving_the_parameter_out(tmp_path: Path) -> None:
    """xarray's ``CFTimeIndex.to_datetimeindex``: ``if time_unit is None: warn("... can be
    silenced by explicitly passing the `time_unit` keyword argument", FutureWarning)``.
    Leaving ``time_unit`` out is what warns; the item ``to_datetimeindex(time_unit)``
    DEPRECATED makes downstream flag exactly the calls that pass it (the fixed ones) and
    none of those that leave it out. Expected: no ``(time_unit)`` parameter item (the
    method, as before the change, or an item whose uses are the calls without it)."""
    before = (
        "class CFTimeIndex:\n    def to_datetimeindex(self, unsafe=False, time_unit=None):\n"
        "        if time_unit is None:\n            time_unit = 'ns'\n        return time_unit\n"
    )
    after = (
        "import warnings\n\n\n"
        "class CFTimeIndex:\n    def to_datetimeindex(self, unsafe=False, time_unit=None):\n"
        "        if time_unit is None:\n            warnings.warn(\n"
        "                \"In a future version to_datetimeindex will default to 'us'. This \"\n"
        '                "warning can be silenced by explicitly passing the `time_unit` "\n'
        '                "keyword argument.",\n                FutureWarning,\n            )\n'
        "            time_unit = 'ns'\n        return time_unit\n"
    )
    names = _names(tmp_path, "pkg/cftimeindex.py", before, after, RadarKind.DEPRECATION)
    assert "pkg.cftimeindex.CFTimeIndex.to_datetimeindex(time_unit)" not in names, names


def test_an_is_none_test_without_quotes_is_about_leaving_it_out(tmp_path: Path) -> None:
    """xarray's ``Dataset.argmin(dim=None)``: ``if dim is None: warn("... it will be an error
    to call Dataset.argmin() with no argument", FutureWarning)``: the calls *without* ``dim``
    are the deprecated ones, yet the item is ``argmin(dim)`` (whose downstream uses are the
    calls that pass it)."""
    before = "class Dataset:\n    def argmin(self, dim=None, **kwargs):\n        return dim\n"
    after = (
        "import warnings\n\n\n"
        "class Dataset:\n    def argmin(self, dim=None, **kwargs):\n        if dim is None:\n"
        "            warnings.warn(\n"
        '                "it will be an error to call Dataset.argmin() with no argument",\n'
        "                FutureWarning,\n            )\n        return dim\n"
    )
    names = _names(tmp_path, "pkg/dataset.py", before, after, RadarKind.DEPRECATION)
    assert "pkg.dataset.Dataset.argmin(dim)" not in names, names


def test_a_star_parameter_is_no_parameter_item(tmp_path: Path) -> None:
    """starlette's ``Jinja2Templates.__init__(self, directory=None, *, env=None,
    **env_options)`` warns "Extra environment options are deprecated" under ``if
    env_options:``; ``TemplateResponse(self, *args, **kwargs)`` warns under ``if
    isinstance(args[0], str)`` and ``if "request" not in kwargs``. The items become
    ``__init__(env_options)``, ``TemplateResponse(args)``, ``TemplateResponse(kwargs)``:
    no call ever passes a keyword named ``env_options``/``args``/``kwargs``, so every
    downstream use is lost (before the change: the def, whose calls were found)."""
    before = (
        "class Jinja2Templates:\n"
        "    def __init__(self, directory=None, *, env=None, **env_options):\n"
        "        self.env = env\n\n"
        "    def TemplateResponse(self, *args, **kwargs):\n        if args:\n"
        "            if isinstance(args[0], str):\n                name = args[0]\n"
        "        return kwargs\n"
    )
    after = (
        "import warnings\n\n\n"
        "class Jinja2Templates:\n"
        "    def __init__(self, directory=None, *, env=None, **env_options):\n"
        "        if env_options:\n            warnings.warn(\n"
        '                "Extra environment options are deprecated. Use a preconfigured "\n'
        '                "jinja2.Environment instead.",\n                DeprecationWarning,\n'
        "            )\n        self.env = env\n\n"
        "    def TemplateResponse(self, *args, **kwargs):\n        if args:\n"
        "            if isinstance(args[0], str):\n                warnings.warn(\n"
        '                    "The `name` is not the first parameter anymore.",\n'
        "                    DeprecationWarning,\n                )\n"
        "                name = args[0]\n"
        "        return kwargs\n"
    )
    names = _names(tmp_path, "pkg/templating.py", before, after, RadarKind.DEPRECATION)
    bad = [n for n in names if n.endswith(("(env_options)", "(args)", "(kwargs)"))]
    assert bad == [], names


def test_a_deprecated_parameter_passed_by_position_is_a_use(tmp_path: Path) -> None:
    """aiohttp's ``CookieJar.filter_cookies(self, request_url)`` warns under ``if not
    isinstance(request_url, URL)``: the item ``filter_cookies(request_url)`` carries no
    position, so ``jar.filter_cookies("http://x")`` — how everyone calls it — is no use
    (before the change: the method, whose every call was found)."""
    code = (
        "from pkg.cookiejar import CookieJar\n\n\ndef f():\n    jar = CookieJar()\n"
        "    return jar.filter_cookies('http://x')\n"
    )
    # the deprecation detector gives the item; check the item it makes has a position
    before = (
        "class CookieJar:\n    def filter_cookies(self, request_url):\n        return request_url\n"
    )
    after = (
        "import warnings\n\n\nclass CookieJar:\n    def filter_cookies(self, request_url):\n"
        "        if not isinstance(request_url, str):\n            warnings.warn(\n"
        "                'The method accepts yarl.URL instances only', DeprecationWarning\n"
        "            )\n        return request_url\n"
    )
    versions = [("init", before), ("warn", after)]
    [[dep]] = module_items(
        tmp_path, "whole files", "pkg/cookiejar.py", versions, RadarKind.DEPRECATION
    )
    assert dep.name == "pkg.cookiejar.CookieJar.filter_cookies(request_url)"
    got = _uses(tmp_path / "down", {"m.py": code}, [dep])
    assert got[dep.name] == ["m.py:6"], (dep.position, got)


# ---- test_downstream_review.py ----------------------------------------

PASS_THROUGH = (
    "import httpx\n\n\nclass MyClient(httpx.Client):\n"
    "    def __init__(self, *args, **kwargs):\n"
    "        super().__init__(*args, **kwargs)\n        self.calls = 0\n\n\n"
    "def make():\n    return MyClient()\n\n\n"
    "def make_auth(auth):\n    return MyClient(auth)\n"
)


def test_a_pass_through_init_keeps_the_upstream_default_in_force(tmp_path: Path) -> None:
    """``class MyClient(httpx.Client)`` whose ``__init__(self, *args, **kwargs)`` only
    passes everything on: ``MyClient()`` relies on ``httpx.Client``'s defaults exactly as
    ``httpx.Client()`` does. The new ``Call.taken`` logic drops every DEFAULT_CHANGED /
    NOW_REQUIRED hit for any call through a local ``__init__`` (taken is an empty
    frozenset, not None). Before the change both lines were found."""
    items = [_item("httpx.Client.__init__(trust_env)", ApiChangeType.DEFAULT_CHANGED)]
    got = _uses(tmp_path, {"m.py": PASS_THROUGH}, items)
    assert got == {"httpx.Client.__init__(trust_env)": ["m.py:11", "m.py:15"]}


def test_a_pass_through_init_passes_positions_on(tmp_path: Path) -> None:
    """``MyClient(auth)`` passes ``auth`` on by position through ``*args``; the new logic
    zeroes ``positional`` for every call through a local ``__init__``, so a removed
    positional parameter is no longer found (it was before the change)."""
    items = [_item("httpx.Client.__init__(auth)", ApiChangeType.REMOVED, position=0)]
    got = _uses(tmp_path, {"m.py": PASS_THROUGH}, items)
    assert got == {"httpx.Client.__init__(auth)": ["m.py:15"]}


def test_a_string_in_an_annotation_does_not_hang_the_scan(tmp_path: Path) -> None:
    """Every string constant inside an annotation is matched against ``_TYPE_TEXT``, whose
    ``(?:\\s*\\|\\s*[\\w.\\[\\], |]+)*`` tail backtracks exponentially on a string that
    starts like a type, has a run of ``|`` alternatives and then fails (a typer/FastAPI
    help text in ``Annotated[..., typer.Option(help=...)]``): 12 alternatives take
    seconds, 14 take minutes, per annotation. The scan of this one small file must finish
    in well under a few seconds."""
    help_text = (
        "debug | info | warning | error | critical | notset | trace | fatal | verbose | "
        "quiet | silent | all | off (default: info)"
    )
    code = textwrap.dedent(
        """\
        from typing import Annotated

        import typer


        def main(
            level: Annotated[str, typer.Option(help=HELP)] = "info",
        ) -> None:
            typer.echo(level)
        """
    ).replace("HELP", repr(help_text))
    (tmp_path / "cli.py").write_text(code, encoding="utf-8")
    script = (
        "from pathlib import Path\n"
        "from commitdigest.analysis.radar.downstream import scan_downstream\n"
        "from commitdigest.models import ApiChange, ApiChangeType, RadarKind\n"
        "item = ApiChange(kind=RadarKind.PYTHON_API, change=ApiChangeType.REMOVED, "
        "name='typer.echo')\n"
        f"scan_downstream([Path({str(tmp_path)!r})], [item])\n"
    )
    try:
        subprocess.run([sys.executable, "-c", script], timeout=5, check=True)
    except subprocess.TimeoutExpired:
        raise AssertionError("scan_downstream took over 5 s on one annotated parameter") from None


def test_a_list_of_models_kept_on_self_is_no_model(tmp_path: Path) -> None:
    """pydantic 2 deprecated ``BaseModel.copy``. ``def __init__(self, users: list[User]):
    self._users = users`` keeps a *list* of models; ``self._users.copy()`` is
    ``list.copy``. The new ``_self_attr`` parameter path takes every class named anywhere
    in the annotation (``_annotation_types`` walks into ``list[...]``) as the attribute's
    type, so the line is "affected" (it was not before the change; ``Index.returned``
    already refuses containers for the same reason)."""
    code = (
        "from pydantic import BaseModel\n\n\nclass User(BaseModel):\n    name: str\n\n\n"
        "class Registry:\n    def __init__(self, users: list[User]):\n"
        "        self._users = users\n\n"
        "    def snapshot(self):\n        return self._users.copy()\n"
    )
    it = _item("pydantic.main.BaseModel.copy", ApiChangeType.DEPRECATED)
    got = _uses(tmp_path, {"m.py": code}, [it], {"pydantic.BaseModel": "pydantic.main.BaseModel"})
    assert got == {"pydantic.main.BaseModel.copy": []}


# ---- test_python_api_defaults.py ----------------------------------------


def test_another_object_s_attribute_of_the_old_value_is_no_default_of_the_option(
    tmp_path: Path,
) -> None:
    """``fetch(timeout=30)`` became ``None``, read as ``self._client.timeout`` (an httpx
    client's own timeout, which this module never sets); an unrelated class of the module
    sets ``self.timeout = 30``. The default changed (the client's, not 30), but the new
    ``_set_to`` accepts *any* ``.timeout = 30`` in the module as the option's setting — the
    very case the old docstring excluded ("another class's ``self.timeout = 30``"). Before
    the change this was reported."""
    before = (
        "class Settings:\n    def __init__(self):\n        self.timeout = 30\n\n\n"
        "class Api:\n    def __init__(self, client):\n        self._client = client\n\n"
        "    def fetch(self, url, timeout=30):\n"
        "        return self._client.get(url, timeout=timeout)\n"
    )
    after = (
        "class Settings:\n    def __init__(self):\n        self.timeout = 30\n\n\n"
        "class Api:\n    def __init__(self, client):\n        self._client = client\n\n"
        "    def fetch(self, url, timeout=None):\n"
        "        timeout = self._client.timeout if timeout is None else timeout\n"
        "        return self._client.get(url, timeout=timeout)\n"
    )
    assert _names(tmp_path, "pkg/api.py", before, after, RadarKind.PYTHON_API) == [
        "pkg.api.Api.fetch(timeout)"
    ]


def test_another_class_s_init_default_is_not_this_option_s_default() -> None:
    """Two classes of one module keep ``retries`` from their ``__init__``: ``Client``'s
    defaults to 3, ``Session``'s to 0. ``Session.request(retries=3)`` made ``None`` and read
    as ``self.retries`` now gets 0 when nothing is passed — a changed default. ``_set_to``
    looks for *any* ``def __init__`` of the module whose ``retries`` defaults to 3, finds
    ``Client``'s, and calls it no change."""
    module = (
        "class Client:\n    def __init__(self, retries=3):\n        self.retries = retries\n\n\n"
        "class Session:\n    def __init__(self, retries=0):\n        self.retries = retries\n\n"
        "    def request(self, url, retries=None):\n"
        "        if retries is None:\n            retries = self.retries\n        return url\n"
    )
    body = (
        "    def request(self, url, retries=None):\n"
        "        if retries is None:\n            retries = self.retries\n        return url\n"
    )
    assert _configured(body, "retries", "3", module) is False


def test_none_that_meant_no_timeout_made_use_client_default_is_a_change(tmp_path: Path) -> None:
    """``Api.get(url, timeout=None)`` passed ``None`` straight to httpx, where it means "no
    timeout"; made ``httpx.USE_CLIENT_DEFAULT`` a call that passes nothing now gets the
    client's 5 s timeout. ``_same_default`` calls *every* ``None`` -> ``USE_*_DEFAULT`` the
    same default without looking at what ``None`` did (starlette had mapped it to the
    sentinel itself; here nothing does)."""
    before = (
        "import httpx\n\n\nclass Api:\n    def __init__(self):\n"
        "        self._client = httpx.Client()\n\n"
        "    def get(self, url, timeout=None):\n"
        "        return self._client.get(url, timeout=timeout)\n"
    )
    after = (
        "import httpx\n\n\nclass Api:\n    def __init__(self):\n"
        "        self._client = httpx.Client()\n\n"
        "    def get(self, url, timeout=httpx.USE_CLIENT_DEFAULT):\n"
        "        return self._client.get(url, timeout=timeout)\n"
    )
    assert _names(tmp_path, "pkg/api.py", before, after, RadarKind.PYTHON_API) == [
        "pkg.api.Api.get(timeout)"
    ]


# ---- test_announced_location.py ----------------------------------------


def test_a_second_removal_listed_after_a_location_is_still_a_symbol() -> None:
    """ "Remove `proxies` from `Client`, `app` from `AsyncClient`." removes two things; the
    list rule reads ``app`` as one more place after ``Client`` (only ", " between), so the
    entry's downstream search never looks for ``app`` (before the change it did)."""
    entry = "Remove `proxies` from `Client`, `app` from `AsyncClient`."
    assert "httpx.app" in symbols_of(entry, ["httpx"])


def test_a_dotted_member_after_a_module_location_is_a_symbol() -> None:
    """ "Removed `Request.is_xhr` from `werkzeug.wrappers`, and `Response.foo`.": the
    second member is what goes, not another place (``, and`` continues the list of places)."""
    entry = "Removed `Request.is_xhr` from `werkzeug.wrappers`, and `Response.foo`."
    assert "werkzeug.Response.foo" in symbols_of(entry, ["werkzeug"])


def test_an_argument_listed_after_a_location_is_still_a_symbol() -> None:
    entry = "Deprecate the `verify` argument on `Client`, `cert` on `AsyncClient`."
    got = symbols_of(entry, ["httpx"])
    assert any("cert" in s for s in got), got


@pytest.mark.parametrize(
    ("entry", "symbols"),
    [  # lists as changelogs write them: double backticks, "and", "/", a role's target, and
        # two spans that share their backticks (```new_one``new_two```: both added)
        (
            "Deprecate ``params.Dependency``, introduce ``di.NamedDependency`` and "
            "``params.SkipValidation``",
            ["lib.params.Dependency"],
        ),
        (
            "Remove ``a_x``, `b_y` and ``c_z`` from ``lib.mod``, ``lib.other``/`lib.third`.",
            ["lib.a_x", "lib.b_y", "lib.c_z"],
        ),
        ("Add `new_one``new_two` and drop `old_one`.", ["lib.old_one"]),
        (
            "Removed the :class:`Thing <lib.Thing>` and ``lib.Other``; use `Thing2` instead.",
            ["lib.Thing", "lib.Other"],
        ),
        # (spans that share backticks after a comma or a slash of the span before)
        ("Added ``a,````b`` and removed ``c``.", ["lib.c"]),
        ("Removed `foo` from ``lib/````sub``.", ["lib.foo"]),
    ],
)
def test_the_spans_of_a_list_are_read_by_their_neighbours(entry: str, symbols: list[str]) -> None:
    """What goes, what is added and where from, read from the words and spans around each
    span (found by string search now, not by four patterns compiled for each span, a tenth
    of Scrapy's scan; the same answers for 18,000 real changelog paragraphs)."""
    assert symbols_of(entry, ["lib"]) == symbols


# ---- defaults and docstrings as the source writes them -------------------------------


def test_a_default_is_shown_as_the_source_writes_it(tmp_path: Path) -> None:
    """fastapi's ``frontend(check_dir=True)`` -> ``check_dir="auto"`` read ``True → 'auto'``
    (as ``ast.unparse`` writes it): the item shows ``"auto"``, as the module does, for a
    parameter and a dataclass field (``1_000`` too); a default only requoted (``sep=""`` ->
    ``sep=''``) is the same value and stays silent."""
    before = (
        "from dataclasses import dataclass\n\n\n"
        'def frontend(path, check_dir=True, sep="", size=1_000):\n    return path\n\n\n'
        '@dataclass\nclass Config:\n    loss_type: str = "nll"\n    mode: str = "a"\n'
    )
    after = (
        before.replace("check_dir=True", 'check_dir="auto"')
        .replace('sep=""', "sep=''")
        .replace("size=1_000", "size=2_000")
        .replace('loss_type: str = "nll"', 'loss_type: str = ""')
        .replace('mode: str = "a"', "mode: str = 'a'")
    )
    for text in (before, after), ('__all__ = ["frontend", "Config"]\n' + before,
                                  '__all__ = ["frontend", "Config"]\n' + after):  # fmt: skip
        [items] = module_items(tmp_path / str(len(text[0])), "whole files", "pkg/api.py",
                               [("init", text[0]), ("change", text[1])])  # fmt: skip
        assert sorted((i.name, i.detail) for i in items) == [
            ("pkg.api.Config.loss_type", '"nll" → ""'),
            ("pkg.api.frontend(check_dir)", 'True → "auto"'),
            ("pkg.api.frontend(size)", "1_000 → 2_000"),
        ]


def test_a_helper_call_in_a_doctest_deprecates_nothing(tmp_path: Path) -> None:
    """A docstring's doctest (``>>> deprecate("old", "2.0", "use new")``) and its indented
    example far below its opening quotes are text: no deprecation; the same commit's call
    in a def's body deprecates that def."""
    prose = "".join(f"        Line {k} of the docstring.\n" for k in range(60))
    before = (
        "from .utils import deprecate\n\n\nclass Model:\n    def forward(self, x):\n"
        f'        """Run.\n\n{prose}\n        >>> m.forward(1)\n        """\n        return x\n\n'
        "    def old(self, x):\n        return x\n"
    )
    after = before.replace(
        "        >>> m.forward(1)\n",
        '        >>> deprecate("old", "2.0", "use new")\n\n        Deprecate so::\n\n'
        '            rank_zero_deprecation("`forward` is deprecated")\n',
    ).replace(
        "    def old(self, x):\n",
        '    def old(self, x):\n        deprecate("old", "2.0", "use `forward`")\n',
    )
    names = _names(tmp_path, "pkg/model.py", before, after, RadarKind.DEPRECATION)
    assert names == ["pkg.model.Model.old"]
