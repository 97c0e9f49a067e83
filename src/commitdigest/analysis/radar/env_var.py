"""Environment variables that non-test code stops reading anywhere in the repository.

The driver keeps the repository-wide set up to date from the touched files only
(``EnvIndex``); a read moved to another module stays silent.
"""

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

_READ = re.compile(
    r"""(?:os\.getenv|os\.environ\.get|os\.environ\[|environ\.get|environ\[|getenv|os\.environ\.setdefault)\(?\s*["']([A-Z][A-Z0-9_]{1,})["']"""
)
# a registry entry such as vLLM's envs.py: "NAME": lambda: os.getenv(...)
_REGISTRY = re.compile(r"""^\s*["']([A-Z][A-Z0-9_]{2,})["']\s*:\s*lambda\b""", re.M)

GREP_PATTERN = "getenv|environ"


def names(code: str | None) -> set[str]:
    if not code:
        return set()
    return set(_READ.findall(code)) | set(_REGISTRY.findall(code))


def relevant(path: str) -> bool:
    return path.endswith(".py") and not is_test_or_docs(path)


class EnvIndex:
    """Which non-test files read which variables, at the current point of the window."""

    def __init__(self, files: dict[str, str | None]) -> None:
        self.by_file: dict[str, set[str]] = {p: names(c) for p, c in files.items() if relevant(p)}

    def all(self) -> set[str]:
        out: set[str] = set()
        for s in self.by_file.values():
            out |= s
        return out

    def apply(self, view: CommitView) -> list[ApiChange]:
        """Advance the index by one commit and return the variables no longer read."""
        touched = [p for p in view.paths if relevant(p)]
        if not touched:
            return []
        before_all = self.all()
        for path in touched:
            after = view.after.get(path)
            if after is None:
                self.by_file.pop(path, None)
            else:
                self.by_file[path] = names(after)
        gone = before_all - self.all()
        items: list[ApiChange] = []
        for name in sorted(gone):
            path = next((p for p in touched if name in names(view.before.get(p))), "")
            items.append(
                ApiChange(
                    kind=RadarKind.ENV_VAR,
                    change=ApiChangeType.REMOVED,
                    name=name,
                    path=path,
                    line=line_of(view.before.get(path) or "", name),
                )
            )
        return items
