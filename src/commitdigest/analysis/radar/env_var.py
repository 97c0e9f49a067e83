"""Environment variables that non-test code stops reading anywhere in the repository.

Only environment reads count: ``os.getenv("X")``, ``os.environ["X"]`` / ``.get`` /
``.setdefault``, ``"X" in os.environ``, and the entries of a registry whose values read the
environment when called (vLLM's ``envs.py``: ``"X": lambda: os.getenv("X", ...)``, in a file
that reads the environment). A dict of lambdas that take arguments (Triton's
``@triton.heuristics({"IS_VARLEN": lambda args: ...})``) is not a registry of variables.

A variable counts as removed when a commit's touched files stop reading it and no other
non-test file reads it at that commit; a read moved to another module stays silent.
"""

from __future__ import annotations

import re
from functools import lru_cache

from commitdigest.analysis.radar.models import (
    NOT_SHIPPED_PATHSPECS,
    ApiChange,
    CommitView,
    RadarKind,
    is_test_or_docs,
    removed_from,
)
from commitdigest.analysis.radar.public import shipped

_READ = re.compile(
    r"""(?:getenv|environ\.get|environ\[|environ\.setdefault|environ\.pop)\(?\s*["']([A-Z][A-Z0-9_]{1,})["']"""
    r"""|["']([A-Z][A-Z0-9_]{1,})["']\s+(?:not\s+)?in\s+(?:os\.)?environ\b"""
)
# a registry entry such as vLLM's envs.py: "NAME": lambda: os.getenv(...) — a lambda without
# parameters (one with parameters is a callback table, not a variable)
_REGISTRY = re.compile(r"""^[^\S\n]*["']([A-Z][A-Z0-9_]{2,})["']\s*:\s*lambda\s*:""", re.M)


_READS = ("getenv", "environ")  # what a module that reads a variable names (names())
_NEAR = 160  # a read's variable name is within this many characters of getenv/environ


@lru_cache(maxsize=2048)
def _names(code: str) -> frozenset[str]:
    """The variables ``code`` reads: the reads regex runs only around the places that name
    ``getenv``/``environ`` (a whole-text regex scan cost milliseconds per large module)."""
    found: set[str] = set()
    for word in _READS:
        start = code.find(word)
        while start >= 0:
            window = code[max(0, start - _NEAR) : start + _NEAR]
            found.update(a or b for a, b in _READ.findall(window))
            start = code.find(word, start + len(word))
    start = code.find("lambda")
    while start >= 0:  # a registry entry's "lambda": its lines, from one that starts a key
        begin = code.rfind("\n", 0, max(0, start - _NEAR)) + 1
        end = code.find("\n", start)
        found.update(_REGISTRY.findall(code, begin, end if end >= 0 else len(code)))
        start = code.find("lambda", start + len("lambda"))
    return frozenset(found)


def names(code: str | None) -> set[str]:
    if not code or not any(word in code for word in _READS):
        return set()
    return set(_names(code))


def relevant(path: str) -> bool:
    return path.endswith(".py") and not is_test_or_docs(path)


def wants(changed: str | None, path: str) -> bool:
    """Whether a commit's changed lines of ``path`` may change the variables it reads."""
    return relevant(path) and (
        changed is None or "getenv" in changed or "environ" in changed or "lambda" in changed
    )


def detect(view: CommitView) -> list[ApiChange]:
    """The variables the commit stops reading anywhere in the repository: read before by a
    file it touches, read after by none of them, and by no other non-test file at the commit
    (one search of the files at the commit for such names: rare, and it needs no other
    commit, so a window can be scanned in any order and in parts)."""
    touched = [
        p
        for p in view.paths
        if wants(view.changed.get(p), p)
        or (relevant(p) and view.after.get(p) is None and names(view.before.get(p)))
    ]
    touched = shipped(view.repo, touched)
    if not touched:
        return []
    still: set[str] = set()
    lost: dict[str, str] = {}  # name -> the first touched file that read it
    for path in touched:
        after = names(view.after.get(path))
        still |= after
        for name in sorted(names(view.before.get(path)) - after):
            lost.setdefault(name, path)
    gone = [name for name in sorted(lost) if name not in still]
    if not gone:
        return []
    elsewhere = _read_elsewhere(view, gone, touched)
    return [
        removed_from(RadarKind.ENV_VAR, name, lost[name], view.before.get(lost[name]))
        for name in gone
        if name not in elsewhere
    ]


def _read_elsewhere(view: CommitView, gone: list[str], touched: list[str]) -> set[str]:
    """Which of the variables ``gone`` a non-test file the commit did not touch reads
    after it (one search for them all: a file that reads one names it as a word; each blob
    is read once per window, ``BlobReader.having``)."""
    if view.repo is None:
        return set()
    read: set[str] = set()
    for text in view.repo.blobs.having(
        view.sha,
        gone,
        lambda p: relevant(p) and p not in touched,
        ["*.py", *NOT_SHIPPED_PATHSPECS],
        _READS,
    ).values():
        read |= names(text)
    return read & set(gone)
