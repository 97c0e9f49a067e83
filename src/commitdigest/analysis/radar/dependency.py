"""Dependency changes that can break users: a raised ``requires-python`` or a dependency
whose minimum moves to a new major version.

Only what the project installs with itself counts: a ``pyproject.toml``'s ``[project]``
table, and ``requirements*.txt`` (or ``requirements/<name>.txt``, as vLLM writes them)
when the root ``pyproject.toml`` does not list the dependencies itself (then those files
are for development). Never examples, tests, docs or tooling, nor the requirement files
of development, tests, linting, docs, CI, builds or benchmarks.

setuptools' ``python_requires`` is read too, where a literal string gives it: a
``setup.py``'s ``setup(python_requires=">=3.8")`` or the dict of arguments it is given
(``"python_requires": ">=3.9"`` in Lightning's ``src/lightning/__setup__.py``, which its
root ``setup.py`` loads), and ``python_requires = >=3.8`` in a ``setup.cfg`` (or its value
on the line below, indented); in any folder (a package of a monorepo, ``python/setup.py``
beside a C++ core), not in tests, docs, examples, tooling or vendored code, and only in a
commit whose changed lines of the file mention it (or, in a ``setup.cfg``, a version
bound). One raise of Python is one item, however many of the commit's files say it: the
files of one folder that require the same version now (``>=3.9`` in ``setup.cfg``,
``>=3.9.0`` in ``pyproject.toml``, from whichever old bound), or the same raise in several
packages' files."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from commitdigest.analysis.radar.models import (
    ApiChange,
    CommitView,
    RadarKind,
    line_of,
    toml_of,
)
from commitdigest.analysis.radar.reads import is_dependency_file, is_setup_file
from commitdigest.facts import ApiChangeType

_REQ = re.compile(
    r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*(?:>=|==|~=)\s*([0-9]+(?:\.[0-9]+)*)"
)


@lru_cache(maxsize=64)
def _project(text: str) -> dict[str, Any] | None:
    """A ``pyproject.toml``'s ``[project]`` table (None: it does not read as TOML), parsed
    once per text (a release bot's version bump is both versions of the file)."""
    data = toml_of(text)
    if data is None:
        return None
    project = data.get("project", {})
    return project if isinstance(project, dict) else {}


def _lower_bounds(path: str, text: str | None) -> dict[str, str]:
    if not text:
        return {}
    reqs: list[str] = []
    if path.endswith("pyproject.toml"):
        project = _project(text)
        if project is None:
            return {}
        reqs = list(project.get("dependencies", []))
        if "requires-python" in project:
            reqs.append(_python_req(str(project["requires-python"])))
    elif is_setup_file(path):
        spec = _python_requires(path.rpartition("/")[2], text)
        reqs = [] if spec is None else [_python_req(spec)]
    else:
        reqs = text.splitlines()
    out: dict[str, str] = {}
    for req in reqs:
        m = _REQ.match(req)
        if m:
            out[m.group(1).lower().replace("_", "-")] = m.group(2)
    return out


def _python_req(spec: str) -> str:
    """A Python version specifier (``">=3.9"``) as a requirement of ``python``."""
    return "python>=" + spec.lstrip(">=~ ")


# what a changed line that moves a lower bound says: a version specifier, requires-python
_BOUND_WORDS = re.compile(r">=|==|~=|requires-python")

# the files that hold setuptools' arguments: ``setup.py``, ``setup.cfg``, and Lightning's
# ``src/<package>/__setup__.py`` (the dict of them its root ``setup.py`` loads)
_SETUP_WORD = "python_requires"
# ``python_requires=">=3.8"`` (a keyword of ``setup()``) or ``"python_requires": ">=3.9"``
# (a dict's key): a literal string, not a name or an expression
_PY_REQUIRES = re.compile(
    r"""(?<![\w.])(["']?)python_requires\1\s*[=:]\s*[rRuU]?(["'])([^"'\\\n]*)\2(?!\s*[+%.\[(])"""
)
# setup.cfg: ``python_requires = >=3.8`` under ``[options]``
_CFG_SECTION = re.compile(r"^\s*\[([^\]]+)\]")
_CFG_REQUIRES = re.compile(r"^python_requires\s*[=:]\s*(.*?)\s*$")


def wants(changed: str | None, path: str) -> bool:
    """Whether a commit's changed lines of ``path`` may raise its ``python_requires`` (in a
    ``setup.cfg``, a changed line may be its value alone, on the line below the key)."""
    return is_setup_file(path) and (
        changed is None
        or _SETUP_WORD in changed
        or (path.endswith("setup.cfg") and _BOUND_WORDS.search(changed) is not None)
    )


def _python_requires(name: str, text: str) -> str | None:
    """The ``python_requires`` a setup file (named ``name``) gives as a literal string:
    the first one of a ``setup.py``; ``[options]``'s in a ``setup.cfg``."""
    if _SETUP_WORD not in text:
        return None
    if name != "setup.cfg":
        for m in _PY_REQUIRES.finditer(text):
            if "#" not in text[text.rfind("\n", 0, m.start()) + 1 : m.start()]:
                return m.group(3).strip()  # (not one a comment shows)
        return None
    section = ""
    lines = text.splitlines()
    for number, line in enumerate(lines):
        if (head := _CFG_SECTION.match(line)) is not None:
            section = head.group(1).strip()
        elif section == "options" and (value := _CFG_REQUIRES.match(line)) is not None:
            given = value.group(1)
            if not given and number + 1 < len(lines) and lines[number + 1][:1] in (" ", "\t"):
                given = lines[number + 1]  # ``python_requires =`` / ``    >=3.9``: the
                # value on the line below, indented (configparser's continuation)
            return given.strip("\"' ") or None
    return None


def _vt(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def _release(v: str) -> tuple[int, ...]:
    """A version without its trailing zeros: ``3.9.0`` is ``3.9``."""
    parts = list(_vt(v))
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


def _lists_dependencies(view: CommitView) -> bool:
    """Whether the root ``pyproject.toml`` (after the commit) lists the project's
    dependencies itself: then requirement files are for working on it."""
    text = view.after.get("pyproject.toml")
    if text is None and view.repo is not None:
        text = view.repo.text(view.sha, "pyproject.toml")
    if not text or "dependencies" not in text:
        return False
    project = _project(text)
    return project is not None and "dependencies" in project


def detect(view: CommitView) -> list[ApiChange]:
    items: list[ApiChange] = []
    # the Python requirements the commit raises: (folder, version now), ("", old, now)
    raised: set[tuple[str | tuple[int, ...], ...]] = set()
    listed: bool | None = None  # the root pyproject.toml lists them (read when needed)
    for path in view.paths:
        setup = is_setup_file(path)
        if not (setup or is_dependency_file(path)) or view.before.get(path) is None:
            continue
        changed = view.changed.get(path)
        if setup:
            if not wants(changed, path):
                continue  # no line of python_requires changed (most commits to setup.py)
        elif changed is not None and not _BOUND_WORDS.search(changed):
            continue  # no requirement and no requires-python changed (a version bump)
        if not setup and not path.endswith("pyproject.toml"):
            if listed is None:
                listed = _lists_dependencies(view)
            if listed:
                continue
        old, new = (
            _lower_bounds(path, view.before.get(path)),
            _lower_bounds(path, view.after.get(path)),
        )
        for name, was in sorted(old.items()):
            now = new.get(name)
            if now is None or _vt(now) <= _vt(was):
                continue
            if name == "python" or _vt(now)[0] > _vt(was)[0]:
                detail = f">={was} → >={now}"
                if name == "python":
                    folder = path.rpartition("/")[0]
                    keys = {(folder, _release(now)), ("", _release(was), _release(now))}
                    if keys & raised:
                        continue  # the same requirement of Python in another file of the
                        # package: setup.py (or setup.cfg) and pyproject.toml both, however
                        # each writes it (``>=3.9.0``) or from whichever old bound; or the
                        # same raise in another package's
                    raised |= keys
                elif setup and any(i.name == name and i.detail == detail for i in items):
                    continue  # the same raise in another package's file (Lightning raised
                    # it in the __setup__.py of each of its three packages)
                items.append(
                    ApiChange(
                        kind=RadarKind.DEPENDENCY,
                        change=ApiChangeType.VERSION_CHANGED,
                        name=name,
                        detail=detail,
                        path=path,
                        line=_line(view.after.get(path) or "", name, now, setup),
                    )
                )
    return items


def _line(text: str, name: str, version: str, setup: bool = False) -> int | None:
    """The line that requires ``name`` at ``version`` (``requires-python`` for Python, or
    ``python_requires`` in a ``setup`` file): not the first place the version's digits
    appear (pytest's ``"iniconfig>=2"`` was pointed at line 5, ``setuptools-scm[toml]>=6.2.3``)."""
    key = name if name != "python" else _SETUP_WORD if setup else "requires-python"
    spelled = "[-_.]".join(re.escape(part) for part in re.split(r"[-_.]", key))
    wanted = re.compile(rf"(?<![\w.-]){spelled}(?![\w.-])", re.I)
    for number, line in enumerate(text.splitlines(), 1):
        if version in line and wanted.search(line):
            return number
    return line_of(text, key)
