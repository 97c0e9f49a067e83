"""Command-line options (argparse, click, typer) that the touched files stop declaring."""

from __future__ import annotations

import re

from commitdigest.analysis.radar.models import (
    ApiChange,
    CommitView,
    RadarKind,
    is_test_or_docs,
    line_of,
)
from commitdigest.models import ApiChangeType

_DECL = re.compile(
    r"""(?:add_argument|option|Option)\(\s*(?:["']-[A-Za-z]["']\s*,\s*)?["'](--[A-Za-z0-9][A-Za-z0-9-]*)["']"""
)


def options(code: str | None) -> set[str]:
    return set(_DECL.findall(code or ""))


def detect(view: CommitView) -> list[ApiChange]:
    touched = [p for p in view.paths if p.endswith(".py") and not is_test_or_docs(p)]
    before: set[str] = set()
    after: set[str] = set()
    for p in touched:
        before |= options(view.before.get(p))
        after |= options(view.after.get(p))
    items = []
    for opt in sorted(before - after):
        path = next(p for p in touched if opt in options(view.before.get(p)))
        items.append(
            ApiChange(
                kind=RadarKind.CLI_OPTION,
                change=ApiChangeType.REMOVED,
                name=opt,
                path=path,
                line=line_of(view.before.get(path) or "", opt),
            )
        )
    return items
