"""Keys removed from the configuration files a project ships to its users (TOML, JSON, YAML,
INI): never CI (``.github/``, any dot-folder, ``ci/``), tests, docs, examples, benchmarks,
scripts, tools or container files, and never a development tool's own settings
(``pyproject.toml``, ``setup.cfg``, ``tox.ini``, ``.pre-commit-config.yaml``, mkdocs, codecov,
readthedocs, renovate, dependabot, release-please, ``tsconfig.json``, linters and test
runners); in a ``src/`` layout, never a file outside ``src/``, which is not installed (peft's
``method_comparison/`` experiments). A file moved (renamed as git finds one, to a shipped
path) is compared with itself at its new path."""

from __future__ import annotations

import json
import re
from typing import Any

from commitdigest.analysis.radar.models import (
    ApiChange,
    CommitView,
    RadarKind,
    removed_from,
    toml_of,
)
from commitdigest.analysis.radar.public import shipped
from commitdigest.analysis.radar.reads import is_config

_YAML_KEY = re.compile(r"^(\s*)([A-Za-z_][\w.-]*)\s*:", re.M)


def _flatten(data: Any, prefix: str = "") -> set[str]:
    out: set[str] = set()
    if isinstance(data, dict):
        for k, v in data.items():
            key = f"{prefix}{k}"
            out.add(key)
            out |= _flatten(v, key + ".")
    return out


def keys(path: str, text: str | None) -> set[str]:
    if not text:
        return set()
    try:
        if path.endswith(".toml"):
            return _flatten(toml_of(text))
        if path.endswith(".json"):
            return _flatten(json.loads(text))
    except ValueError:
        return set()
    if path.endswith((".yaml", ".yml")):
        out: set[str] = set()
        stack: list[tuple[int, str]] = []
        for m in _YAML_KEY.finditer(text):
            indent = len(m.group(1))
            while stack and stack[-1][0] >= indent:
                stack.pop()
            key = ".".join([s[1] for s in stack] + [m.group(2)])
            out.add(key)
            stack.append((indent, m.group(2)))
        return out
    section = ""
    out = set()
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("[") and s.endswith("]"):
            section = s[1:-1] + "."
        elif "=" in s and not s.startswith(("#", ";")):
            out.add(section + s.split("=", 1)[0].strip())
    return out


def detect(view: CommitView) -> list[ApiChange]:
    items: list[ApiChange] = []
    paths = [p for p in view.paths if is_config(p) and view.before.get(p) is not None]
    for path in shipped(view.repo, paths):
        before = view.before.get(path)
        after = view.after.get(path)
        if after is None:
            after = _moved_to(view, path, before or "")
        gone = keys(path, before) - keys(path, after)
        # a removed table lists its children too: report the topmost removed key only
        top = sorted(k for k in gone if not any(k.startswith(g + ".") for g in gone))
        for key in top:
            last = key.rsplit(".", 1)[-1]
            items.append(removed_from(RadarKind.CONFIG_KEY, key, path, before, last))
    return items


SIMILAR = 0.5  # the share of its lines a moved file keeps (git's rename threshold)


def _moved_to(view: CommitView, path: str, before: str) -> str | None:
    """The text of the file the commit moved the deleted ``path`` to: the one shipped file
    of the same name it adds that keeps at least :data:`SIMILAR` of its lines, as git
    finds a rename (a file of that name for another model, added as one goes, is none)."""
    name = path.rpartition("/")[2]
    added = [
        p
        for p in shipped(view.repo, [p for p in view.paths if p != path])
        if p.rpartition("/")[2] == name and view.before.get(p) is None
    ]
    text = view.after.get(added[0]) if len(added) == 1 else None
    if text is None:
        return None
    old = [line.strip() for line in before.splitlines() if line.strip()]
    kept = set(line.strip() for line in text.splitlines())
    return text if old and sum(line in kept for line in old) >= SIMILAR * len(old) else None
