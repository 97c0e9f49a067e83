"""Dependency changes that can break users: a raised ``requires-python`` or a dependency
whose minimum moves to a new major version (pyproject.toml, requirements*.txt)."""

from __future__ import annotations

import re
import tomllib

from commitdigest.analysis.radar.models import ApiChange, CommitView, RadarKind, line_of
from commitdigest.models import ApiChangeType

_REQ = re.compile(
    r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*(?:>=|==|~=)\s*([0-9]+(?:\.[0-9]+)*)"
)


def _lower_bounds(path: str, text: str | None) -> dict[str, str]:
    if not text:
        return {}
    reqs: list[str] = []
    if path.endswith("pyproject.toml"):
        try:
            data = tomllib.loads(text)
        except ValueError:
            return {}
        project = data.get("project", {})
        reqs = list(project.get("dependencies", []))
        if "requires-python" in project:
            reqs.append("python>=" + str(project["requires-python"]).lstrip(">=~ "))
    else:
        reqs = text.splitlines()
    out: dict[str, str] = {}
    for req in reqs:
        m = _REQ.match(req)
        if m:
            out[m.group(1).lower().replace("_", "-")] = m.group(2)
    return out


def _vt(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def is_dependency_file(path: str) -> bool:
    """``pyproject.toml`` or a ``requirements*.txt`` (where dependencies are declared)."""
    name = path.rsplit("/", 1)[-1]
    return name == "pyproject.toml" or (name.startswith("requirements") and name.endswith(".txt"))


def detect(view: CommitView) -> list[ApiChange]:
    items: list[ApiChange] = []
    for path in view.paths:
        if not is_dependency_file(path) or view.before.get(path) is None:
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
                items.append(
                    ApiChange(
                        kind=RadarKind.DEPENDENCY,
                        change=ApiChangeType.VERSION_CHANGED,
                        name=name,
                        detail=f">={was} → >={now}",
                        path=path,
                        line=line_of(view.after.get(path) or "", now),
                    )
                )
    return items
