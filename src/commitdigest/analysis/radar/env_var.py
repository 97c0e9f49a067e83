"""Environment variables that non-test code stops reading anywhere in the repository.

Only environment reads count: ``os.getenv("X")``, ``os.environ["X"]`` / ``.get`` /
``.setdefault``, ``"X" in os.environ``, and the entries of a registry whose values read the
environment when called (vLLM's ``envs.py``: ``"X": lambda: os.getenv("X", ...)``, in a file
that reads the environment). A dict of lambdas that take arguments (Triton's
``@triton.heuristics({"IS_VARLEN": lambda args: ...})``) is not a registry of variables.

The driver keeps the repository-wide set up to date from the touched files only
(``EnvIndex``); a read moved to another module stays silent.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from commitdigest.analysis.radar.models import (
    ApiChange,
    CommitView,
    RadarKind,
    is_test_or_docs,
    line_of,
)
from commitdigest.models import ApiChangeType

if TYPE_CHECKING:
    from commitdigest.analysis.radar.repo import RepoView

_READ = re.compile(
    r"""(?:getenv|environ\.get|environ\[|environ\.setdefault|environ\.pop)\(?\s*["']([A-Z][A-Z0-9_]{1,})["']"""
    r"""|["']([A-Z][A-Z0-9_]{1,})["']\s+(?:not\s+)?in\s+(?:os\.)?environ\b"""
)
# a registry entry such as vLLM's envs.py: "NAME": lambda: os.getenv(...) — a lambda without
# parameters (one with parameters is a callback table, not a variable)
_REGISTRY = re.compile(r"""^\s*["']([A-Z][A-Z0-9_]{2,})["']\s*:\s*lambda\s*:""", re.M)

GREP_PATTERN = "getenv|environ"


_NEAR = 160  # a read's variable name is within this many characters of getenv/environ


@lru_cache(maxsize=2048)
def _names(code: str) -> frozenset[str]:
    """The variables ``code`` reads: the reads regex runs only around the places that name
    ``getenv``/``environ`` (a whole-text regex scan cost milliseconds per large module)."""
    found: set[str] = set()
    for word in ("getenv", "environ"):
        start = code.find(word)
        while start >= 0:
            window = code[max(0, start - _NEAR) : start + _NEAR]
            found.update(a or b for a, b in _READ.findall(window))
            start = code.find(word, start + len(word))
    if "lambda" in code:
        found.update(_REGISTRY.findall(code))
    return frozenset(found)


def names(code: str | None) -> set[str]:
    if not code or ("getenv" not in code and "environ" not in code):
        return set()
    return set(_names(code))


def relevant(path: str) -> bool:
    return path.endswith(".py") and not is_test_or_docs(path)


_MENTIONS = re.compile(r"getenv|environ|lambda")


def wants(changed: str | None, path: str) -> bool:
    """Whether a commit's changed lines of ``path`` may change the variables it reads."""
    return relevant(path) and (changed is None or _MENTIONS.search(changed) is not None)


class EnvIndex:
    """Which non-test files read which variables, at the current point of the window."""

    def __init__(self, files: dict[str, str | None]) -> None:
        self.by_file: dict[str, set[str]] = {p: names(c) for p, c in files.items() if relevant(p)}

    @classmethod
    def at(cls, repo: RepoView, rev: str | None) -> EnvIndex:
        """The index of the repository at ``rev`` (``git grep`` for candidate files, one call)."""
        if not rev:
            return cls({})
        files = [p for p in repo.blobs.grep(rev, GREP_PATTERN, ["*.py"]) if relevant(p)]
        return cls(repo.texts(rev, files))

    def all(self) -> set[str]:
        out: set[str] = set()
        for s in self.by_file.values():
            out |= s
        return out

    def apply(self, view: CommitView) -> list[ApiChange]:
        """Advance the index by one commit and return the variables no longer read."""
        touched = [
            p
            for p in view.paths
            if wants(view.changed.get(p), p) or (view.after.get(p) is None and p in self.by_file)
        ]
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
