"""Keys removed from the configuration files a project ships to its users (TOML, JSON, YAML,
INI): never CI (``.github/``, any dot-folder, ``ci/``), tests, docs, examples, benchmarks,
scripts, tools or container files, and never a development tool's own settings
(``pyproject.toml``, ``setup.cfg``, ``tox.ini``, ``.pre-commit-config.yaml``, mkdocs, codecov,
readthedocs, renovate, dependabot, release-please, ``tsconfig.json``, linters and test
runners)."""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

from commitdigest.analysis.radar.models import (
    ApiChange,
    CommitView,
    RadarKind,
    removed_from,
)
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
            return _flatten(tomllib.loads(text))
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
    for path in view.paths:
        if not is_config(path) or view.before.get(path) is None:
            continue
        gone = keys(path, view.before.get(path)) - keys(path, view.after.get(path))
        # a removed table lists its children too: report the topmost removed key only
        top = sorted(k for k in gone if not any(k.startswith(g + ".") for g in gone))
        for key in top:
            last = key.rsplit(".", 1)[-1]
            before = view.before.get(path)
            items.append(removed_from(RadarKind.CONFIG_KEY, key, path, before, last))
    return items
