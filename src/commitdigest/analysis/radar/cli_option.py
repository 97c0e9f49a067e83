"""Command-line options (argparse, click, typer) that the touched files stop declaring."""

from __future__ import annotations

import re
from functools import lru_cache

from commitdigest.analysis.radar.models import (
    ApiChange,
    CommitView,
    RadarKind,
    is_own_python,
    removed_from,
)

_DECL = re.compile(
    r"""(?:add_argument|option|Option)\(\s*(?:["']-[A-Za-z]["']\s*,\s*)?["'](--[A-Za-z0-9][A-Za-z0-9-]*)["']"""
)


def options(code: str | None) -> set[str]:
    if not code or ("add_argument" not in code and "ption(" not in code):
        return set()
    return set(_cached_options(code))


@lru_cache(maxsize=2048)
def _cached_options(code: str) -> frozenset[str]:
    return frozenset(_DECL.findall(code))


def wants(changed: str | None, path: str) -> bool:
    """Whether a commit's changed lines of ``path`` may add or remove an option."""
    return is_own_python(path) and (
        changed is None or "add_argument" in changed or "option(" in changed or "Option(" in changed
    )


def detect(view: CommitView) -> list[ApiChange]:
    touched = [p for p in view.paths if wants(view.changed.get(p), p)]
    before: set[str] = set()
    after: set[str] = set()
    for p in touched:
        before |= options(view.before.get(p))
        after |= options(view.after.get(p))
    items = []
    for opt in sorted(before - after):
        path = next(p for p in touched if opt in options(view.before.get(p)))
        items.append(removed_from(RadarKind.CLI_OPTION, opt, path, view.before.get(path)))
    return items
